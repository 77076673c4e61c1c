//! Names the code around a registration binds, for a registration that cannot be read on its own
//! because its name or its tool object is a loop variable or a parameter:
//!
//! - a loop over a list the file spells out: `for (const tool of TOOLS)`, `for (const { id,
//!   description } of datasets)`, `TOOLS.forEach((tool) => …)`, `.map(…)`, and
//!   `Object.entries(DEFS)` / `Object.keys` / `Object.values` of an object literal: the
//!   registration is read once per element, the variable bound to it;
//! - a function of the file that registers what it is given (`const addTool = (tool) => {
//!   server.addTool(tool) }`, `function define(name, description, shape) { server.tool(name, …) }`):
//!   read once per call of it in the file, each parameter bound to the call's argument.
//!
//! Both nest (a loop calling a local function, a local function called in a loop). A list built
//! at run time binds nothing, so what depends on it stays unresolved. Only a registration that
//! fails to read on its own is expanded: a function that registers fixed tools is read once,
//! however often it is called.

use super::{call_arguments, named_children, span_of, text_of, Reader, SyntaxNode};
use crate::parse::code::{find_all, Registration, Unresolved};
use crate::source::Span;
use std::cell::{Cell, OnceCell};
use std::collections::HashMap;

/// How many loops and calls deep the bindings are followed.
const MAX_NESTING: usize = 6;
/// Bindings tried per file, all registrations together: a file calling a wrapper ten thousand
/// times costs no more than this.
const MAX_READS: usize = 20_000;
/// Calls of one local function followed.
const MAX_CALL_SITES: usize = MAX_READS;

/// The names one reading binds, innermost last, and where the tool it reads stands in the file.
#[derive(Clone, Default)]
pub(super) struct Bound<'t> {
    pub(super) names: Vec<(&'t str, SyntaxNode<'t>)>,
    /// The outermost place of the file's own text that tells this reading apart: the element
    /// of the list, or the call of the local function.
    anchor: Option<Span>,
}

/// One element of a list a loop goes over.
#[derive(Clone, Copy)]
enum Item<'t> {
    Value(SyntaxNode<'t>),
    /// `[key, value]` of `Object.entries`.
    Entry(SyntaxNode<'t>, SyntaxNode<'t>),
}

pub(super) struct Around<'t> {
    root: SyntaxNode<'t>,
    text: &'t str,
    calls_by_name: OnceCell<HashMap<&'t str, Vec<SyntaxNode<'t>>>>,
    reads_left: Cell<usize>,
}

impl<'t> Around<'t> {
    pub(super) fn new(root: SyntaxNode<'t>, text: &'t str) -> Self {
        Around {
            root,
            text,
            calls_by_name: OnceCell::new(),
            reads_left: Cell::new(MAX_READS),
        }
    }

    /// Every reading of a registration that `read` could not read on its own: `None` when
    /// nothing around it binds a name (a plain failure), otherwise each reading's outcome and at
    /// most one failure.
    pub(super) fn expanded(
        &self,
        reader: &Reader<'_, 't>,
        node: SyntaxNode<'t>,
        read: impl Fn(&Reader<'_, 't>) -> Option<Result<Registration, Unresolved>>,
    ) -> Option<Vec<Result<Registration, Unresolved>>> {
        let contexts = self.contexts(reader, node, 0);
        if contexts.is_empty() || contexts.iter().all(|c| c.names.is_empty()) {
            return None;
        }
        let mut out: Vec<Result<Registration, Unresolved>> = Vec::new();
        let mut failed = None;
        for context in contexts {
            let bound = reader.bound_to(context.names);
            match read(&bound) {
                Some(Ok(mut registration)) => {
                    if let Some(anchor) = context.anchor {
                        registration.entry.span = anchor;
                    }
                    // Two readings at one place with one name (a function registering its
                    // argument in several branches) are one tool: the file's registrations are
                    // deduplicated once, after they are sorted.
                    out.push(Ok(registration));
                }
                Some(Err(mut unresolved)) => {
                    if let Some(anchor) = context.anchor {
                        unresolved.span = anchor;
                    }
                    failed.get_or_insert(unresolved);
                }
                None => {}
            }
        }
        out.extend(failed.map(Err));
        Some(out)
    }

    /// The bindings of every reading of `node`, outermost construct first.
    fn contexts(
        &self,
        reader: &Reader<'_, 't>,
        node: SyntaxNode<'t>,
        depth: usize,
    ) -> Vec<Bound<'t>> {
        if depth > MAX_NESTING {
            return vec![Bound::default()];
        }
        let mut child = node;
        while let Some(parent) = child.parent() {
            match parent.kind() {
                "for_in_statement"
                    if parent
                        .child_by_field_name("body")
                        .is_some_and(|b| b.id() == child.id()) =>
                {
                    if let (Some(left), Some(right)) = (
                        parent.child_by_field_name("left"),
                        parent.child_by_field_name("right"),
                    ) {
                        let keys = (0..parent.child_count())
                            .filter_map(|i| parent.child(i))
                            .any(|c| c.kind() == "in");
                        return self.each_element(reader, parent, left, right, keys, depth);
                    }
                }
                "arrow_function" | "function_expression" | "function" | "function_declaration" => {
                    if let Some((pattern, list)) = iteration_callback(parent, self.text) {
                        return match pattern {
                            Some(pattern) => {
                                self.each_element(reader, parent, pattern, list, false, depth)
                            }
                            None => self.contexts(reader, parent, depth + 1),
                        };
                    }
                    let sites = function_name(parent, self.text)
                        .and_then(|name| self.calls_by_name().get(name))
                        .filter(|sites| !sites.is_empty());
                    if let Some(sites) = sites {
                        return self.each_call(reader, parent, sites, depth);
                    }
                }
                _ => {}
            }
            child = parent;
        }
        vec![Bound::default()]
    }

    /// Takes `cost` from the file's budget; `false` once it is spent.
    fn spend(&self, cost: usize) -> bool {
        let left = self.reads_left.get();
        self.reads_left.set(left.saturating_sub(cost));
        left > 0
    }

    /// One reading per element of `list` (as bound around `construct`), `pattern` bound to it.
    fn each_element(
        &self,
        reader: &Reader<'_, 't>,
        construct: SyntaxNode<'t>,
        pattern: SyntaxNode<'t>,
        list: SyntaxNode<'t>,
        keys: bool,
        depth: usize,
    ) -> Vec<Bound<'t>> {
        let mut out = Vec::new();
        for outer in self.contexts(reader, construct, depth + 1) {
            if !self.spend(1) {
                break;
            }
            let around = reader.bound_to(outer.names.clone());
            let Some(items) = elements(&around, list, keys) else {
                out.push(outer);
                continue;
            };
            // A list longer than what is left to spend is not followed (what depends on it
            // stays unresolved), so that the other registrations of the file are still read.
            if items.len() > self.reads_left.get() {
                out.push(outer);
                continue;
            }
            self.spend(items.len());
            for item in items {
                let mut inner = outer.clone();
                bind(&around, pattern, Some(item), &mut inner.names, 0);
                let at = match item {
                    Item::Value(v) | Item::Entry(v, _) => span_of(v),
                };
                inner.anchor = outermost(outer.anchor, at, reader.own_end);
                out.push(inner);
            }
        }
        out
    }

    /// One reading per call of the local function `function`, its parameters bound to the
    /// call's arguments.
    fn each_call(
        &self,
        reader: &Reader<'_, 't>,
        function: SyntaxNode<'t>,
        sites: &[SyntaxNode<'t>],
        depth: usize,
    ) -> Vec<Bound<'t>> {
        let parameters: Vec<SyntaxNode<'t>> = match function.child_by_field_name("parameters") {
            Some(list) => named_children(list)
                .into_iter()
                .filter(|p| p.kind() != "comment")
                .collect(),
            None => function
                .child_by_field_name("parameter")
                .into_iter()
                .collect(),
        };
        let mut out = Vec::new();
        for site in sites {
            let arguments = call_arguments(*site);
            for outer in self.contexts(reader, *site, depth + 1) {
                if !self.spend(1) {
                    return out;
                }
                let around = reader.bound_to(outer.names.clone());
                let mut inner = outer.clone();
                for (i, parameter) in parameters.iter().enumerate() {
                    let argument = arguments.get(i).map(|a| Item::Value(*a));
                    bind(&around, *parameter, argument, &mut inner.names, 0);
                }
                inner.anchor = outermost(outer.anchor, span_of(*site), reader.own_end);
                out.push(inner);
            }
        }
        out
    }

    /// The calls of the file whose callee is a bare name, by name.
    fn calls_by_name(&self) -> &HashMap<&'t str, Vec<SyntaxNode<'t>>> {
        self.calls_by_name.get_or_init(|| {
            let mut by_name: HashMap<&'t str, Vec<SyntaxNode<'t>>> = HashMap::new();
            find_all(self.root, |n| {
                if n.kind() == "call_expression" {
                    let callee = n.child_by_field_name("function");
                    if let Some(callee) = callee.filter(|f| f.kind() == "identifier") {
                        let sites = by_name.entry(text_of(callee, self.text)).or_default();
                        if sites.len() < MAX_CALL_SITES {
                            sites.push(n);
                        }
                    }
                }
                false
            });
            by_name
        })
    }
}

/// The anchor of a reading: the outer one when it stands in the file's own text, else this one.
fn outermost(outer: Option<Span>, this: Span, own_end: usize) -> Option<Span> {
    match outer {
        Some(outer) if outer.start < own_end => Some(outer),
        Some(outer) if this.start >= own_end => Some(outer),
        _ => Some(this),
    }
}

/// `list.forEach((item) => …)` (or `map`, `flatMap`): the callback's first parameter (`None`
/// when it has none) and the list.
fn iteration_callback<'t>(
    function: SyntaxNode<'t>,
    text: &str,
) -> Option<(Option<SyntaxNode<'t>>, SyntaxNode<'t>)> {
    let arguments = function.parent().filter(|p| p.kind() == "arguments")?;
    if arguments.named_child(0)?.id() != function.id() {
        return None;
    }
    let call = arguments
        .parent()
        .filter(|c| c.kind() == "call_expression")?;
    let callee = call.child_by_field_name("function")?;
    if callee.kind() != "member_expression" {
        return None;
    }
    let method = text_of(callee.child_by_field_name("property")?, text);
    if !matches!(method, "forEach" | "map" | "flatMap") {
        return None;
    }
    let list = callee.child_by_field_name("object")?;
    let first = match function.child_by_field_name("parameters") {
        Some(parameters) => named_children(parameters)
            .into_iter()
            .find(|p| p.kind() != "comment"),
        None => function.child_by_field_name("parameter"),
    };
    Some((first, list))
}

/// The name a local function is called by: a declaration's, or the variable it is assigned to.
fn function_name<'t>(function: SyntaxNode<'t>, text: &'t str) -> Option<&'t str> {
    if function.kind() == "function_declaration" {
        return function
            .child_by_field_name("name")
            .map(|n| text_of(n, text));
    }
    let declarator = function
        .parent()
        .filter(|p| p.kind() == "variable_declarator")?;
    let name = declarator.child_by_field_name("name")?;
    let value = declarator.child_by_field_name("value")?;
    (name.kind() == "identifier" && value.id() == function.id()).then(|| text_of(name, text))
}

/// The elements of a list the file spells out: an array literal (spreads of others included),
/// or `Object.entries`/`keys`/`values` of an object literal; a `for … in` goes over the keys.
fn elements<'t>(
    reader: &Reader<'_, 't>,
    list: SyntaxNode<'t>,
    keys: bool,
) -> Option<Vec<Item<'t>>> {
    let mut out = Vec::new();
    collect(reader, list, keys, &mut out, 0)?;
    Some(out)
}

fn collect<'t>(
    reader: &Reader<'_, 't>,
    list: SyntaxNode<'t>,
    keys: bool,
    out: &mut Vec<Item<'t>>,
    depth: usize,
) -> Option<()> {
    if depth > MAX_NESTING {
        return None;
    }
    let node = reader.resolve(list, 0).ok()?;
    match node.kind() {
        "array" if !keys => {
            for child in named_children(node) {
                match child.kind() {
                    "comment" => {}
                    "spread_element" => {
                        collect(reader, child.named_child(0)?, false, out, depth + 1)?;
                    }
                    _ => out.push(Item::Value(child)),
                }
            }
            Some(())
        }
        "object" if keys => pairs(reader, node, |key, _| Item::Value(key), out, depth),
        "call_expression" if !keys => {
            let callee = node.child_by_field_name("function")?;
            let argument = node.child_by_field_name("arguments")?.named_child(0)?;
            let object = reader.resolve(argument, 0).ok()?;
            if object.kind() != "object" {
                return None;
            }
            match text_of(callee, reader.text) {
                "Object.entries" => pairs(reader, object, Item::Entry, out, depth),
                "Object.keys" => pairs(reader, object, |key, _| Item::Value(key), out, depth),
                "Object.values" => pairs(reader, object, |_, value| Item::Value(value), out, depth),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The members of an object literal as items; `None` for a computed key or a method.
fn pairs<'t>(
    reader: &Reader<'_, 't>,
    object: SyntaxNode<'t>,
    item: impl Fn(SyntaxNode<'t>, SyntaxNode<'t>) -> Item<'t> + Copy,
    out: &mut Vec<Item<'t>>,
    depth: usize,
) -> Option<()> {
    if depth > MAX_NESTING {
        return None;
    }
    for child in named_children(object) {
        match child.kind() {
            "pair" => {
                let key = child.child_by_field_name("key")?;
                reader.key_name(key)?;
                out.push(item(key, child.child_by_field_name("value")?));
            }
            "shorthand_property_identifier" => out.push(item(child, child)),
            "spread_element" => {
                let spread = reader.resolve(child.named_child(0)?, 0).ok()?;
                if spread.kind() != "object" {
                    return None;
                }
                pairs(reader, spread, item, out, depth + 1)?;
            }
            "comment" => {}
            _ => return None,
        }
    }
    Some(())
}

/// Binds the names of `pattern` (a parameter, a loop variable, a destructuring) to `item`.
/// A name whose value cannot be told is bound to what was written, so that it never falls
/// through to an unrelated constant of the same name.
fn bind<'t>(
    reader: &Reader<'_, 't>,
    pattern: SyntaxNode<'t>,
    item: Option<Item<'t>>,
    names: &mut Vec<(&'t str, SyntaxNode<'t>)>,
    depth: usize,
) {
    if depth > MAX_NESTING {
        return;
    }
    let value = |item: Option<Item<'t>>| match item {
        Some(Item::Value(v)) => Some(reader.resolve(v, 0).unwrap_or(v)),
        _ => None,
    };
    match pattern.kind() {
        "identifier" | "shorthand_property_identifier_pattern" => {
            if let Some(v) = value(item) {
                names.push((text_of(pattern, reader.text), v));
            } else {
                // Left out by the caller: still this function's own name.
                names.push((text_of(pattern, reader.text), pattern));
            }
        }
        "required_parameter" | "optional_parameter" => {
            let default = pattern.child_by_field_name("value").map(Item::Value);
            if let Some(inner) = pattern.child_by_field_name("pattern") {
                bind(reader, inner, item.or(default), names, depth + 1);
            }
        }
        "assignment_pattern" | "object_assignment_pattern" => {
            let default = pattern.child_by_field_name("right").map(Item::Value);
            if let Some(left) = pattern.child_by_field_name("left") {
                bind(reader, left, item.or(default), names, depth + 1);
            }
        }
        "object_pattern" => {
            let object = value(item).filter(|o| o.kind() == "object");
            for part in named_children(pattern) {
                let (key, inner) = match part.kind() {
                    "shorthand_property_identifier_pattern" => (Some(part), part),
                    "object_assignment_pattern" => {
                        let Some(left) = part.child_by_field_name("left") else {
                            continue;
                        };
                        (Some(left), part)
                    }
                    "pair_pattern" => {
                        let (Some(key), Some(inner)) = (
                            part.child_by_field_name("key"),
                            part.child_by_field_name("value"),
                        ) else {
                            continue;
                        };
                        (Some(key), inner)
                    }
                    _ => continue,
                };
                let member = key
                    .and_then(|k| {
                        reader
                            .key_name(k)
                            .or_else(|| Some(text_of(k, reader.text).into()))
                    })
                    .zip(object)
                    .and_then(|(k, o)| reader.pair(o, &k))
                    .map(|(_, v)| Item::Value(v));
                bind(reader, inner, member, names, depth + 1);
            }
        }
        "array_pattern" => {
            let parts: Vec<SyntaxNode<'t>> = named_children(pattern)
                .into_iter()
                .filter(|p| p.kind() != "comment")
                .collect();
            let items: Vec<Option<Item<'t>>> = match item {
                Some(Item::Entry(key, value)) => {
                    vec![Some(Item::Value(key)), Some(Item::Value(value))]
                }
                other => match value(other).filter(|a| a.kind() == "array") {
                    Some(array) => named_children(array)
                        .into_iter()
                        .filter(|e| e.kind() != "comment")
                        .map(|e| Some(Item::Value(e)))
                        .collect(),
                    None => Vec::new(),
                },
            };
            for (i, part) in parts.into_iter().enumerate() {
                bind(
                    reader,
                    part,
                    items.get(i).copied().flatten(),
                    names,
                    depth + 1,
                );
            }
        }
        _ => {}
    }
}
