//! TypeScript and JavaScript: `@modelcontextprotocol/sdk` registrations.
//!
//! - `server.registerTool(name, { title, description, inputSchema, outputSchema, annotations },
//!   handler)`;
//! - `server.tool(name, description?, shape?, annotations?, handler)`: after the name, a string
//!   is the description, an object of zod schemas the input shape, any other object the
//!   annotations (as the SDK tells them apart).
//!
//! Input schemas are zod (`z.string()`, `z.object({…})`, a raw shape `{ path: z.string() }`, a
//! `const` holding one, `Schema.shape`) and become the JSON Schema the SDK sends: an object shape
//! is a closed object (`additionalProperties: false`, as the SDK's zod conversion writes it)
//! whose `required` lists every property that is not `.optional()`, `.nullish()` or
//! `.default(…)`.

use super::{
    abbreviate, bool_node, call_arguments, computed, find_all, implied, member, named_children,
    number_node, object, plus_operands, span_of, string_node, text_of, unescape, CodeDoc,
    HandlerCall, Registration, Unresolved, MAX_DEPTH,
};
use crate::parse::node::{Member, Node, Value};
use crate::source::Span;
use std::collections::HashMap;

type SyntaxNode<'t> = tree_sitter::Node<'t>;

/// What a name means in the file: the value of a `const` (or `let`/`var`) declared once, a
/// function declared once, or an import.
struct Scope<'t> {
    text: &'t str,
    values: HashMap<&'t str, Option<SyntaxNode<'t>>>,
    imports: HashMap<&'t str, String>,
}

impl<'t> Scope<'t> {
    fn new(root: SyntaxNode<'t>, text: &'t str, own_end: usize) -> Self {
        let mut scope = Scope {
            text,
            values: HashMap::new(),
            imports: HashMap::new(),
        };
        // A name the file declares is the file's, whatever an imported module declares.
        let mut own_names = std::collections::HashSet::new();
        let mut declare = |scope: &mut Scope<'t>, name: &'t str, value: Option<SyntaxNode<'t>>| {
            let own = value.is_none_or(|v| v.start_byte() < own_end);
            if !own && own_names.contains(name) {
                return;
            }
            if own {
                own_names.insert(name);
            }
            scope
                .values
                .entry(name)
                .and_modify(|v| *v = None)
                .or_insert(value);
        };
        let mut declarations = Vec::new();
        find_all(root, |n| {
            if matches!(
                n.kind(),
                "variable_declarator" | "function_declaration" | "import_statement"
            ) {
                declarations.push(n);
            }
            false
        });
        for node in declarations {
            match node.kind() {
                "variable_declarator" => {
                    let name = node.child_by_field_name("name");
                    let value = node.child_by_field_name("value");
                    match (name, value) {
                        (Some(name), value) if name.kind() == "identifier" => {
                            if let Some(module) = value.and_then(|v| required_module(v, text)) {
                                scope.imports.entry(text_of(name, text)).or_insert(module);
                            }
                            declare(&mut scope, text_of(name, text), value);
                        }
                        (Some(pattern), Some(value)) if pattern.kind() == "object_pattern" => {
                            if let Some(module) = required_module(value, text) {
                                for part in named_children(pattern) {
                                    if part.kind() == "shorthand_property_identifier_pattern" {
                                        let local = text_of(part, text);
                                        scope
                                            .imports
                                            .entry(local)
                                            .or_insert(format!("{module}.{local}"));
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
                "function_declaration" => {
                    if let Some(name) = node.child_by_field_name("name") {
                        declare(&mut scope, text_of(name, text), Some(node));
                    }
                }
                _ => scope.import(node),
            }
        }
        scope
    }

    /// `import fs from "fs"`, `import * as cp from "child_process"`, `import { rm as remove }
    /// from "fs/promises"`. The first import of a name holds (the file's own, before those of
    /// the modules read with it).
    fn import(&mut self, statement: SyntaxNode<'t>) {
        let text = self.text;
        let Some(module) = statement
            .child_by_field_name("source")
            .map(|s| string_content(s, text))
        else {
            return;
        };
        let module = module.strip_prefix("node:").unwrap_or(&module).to_string();
        for clause in named_children(statement) {
            if clause.kind() != "import_clause" {
                continue;
            }
            for part in named_children(clause) {
                match part.kind() {
                    "identifier" => {
                        self.imports
                            .entry(text_of(part, text))
                            .or_insert(module.clone());
                    }
                    "namespace_import" => {
                        for id in named_children(part) {
                            self.imports
                                .entry(text_of(id, text))
                                .or_insert(module.clone());
                        }
                    }
                    "named_imports" => {
                        for spec in named_children(part) {
                            let name = spec.child_by_field_name("name");
                            let alias = spec.child_by_field_name("alias").or(name);
                            if let (Some(name), Some(alias)) = (name, alias) {
                                self.imports
                                    .entry(text_of(alias, text))
                                    .or_insert(format!("{module}.{}", text_of(name, text)));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// The value a name holds, when declared once in the file.
    fn value(&self, name: &str) -> Result<SyntaxNode<'t>, String> {
        match self.values.get(name) {
            Some(Some(value)) => Ok(*value),
            Some(None) => Err(format!("`{name}` is declared more than once in this file")),
            None if self.imports.contains_key(name) => {
                // `import { tools as browserTools } from "./browser.js"`: the module's `tools`
                // when the module was read with the file.
                let renamed = self
                    .imports
                    .get(name)
                    .filter(|module| module.starts_with('.'))
                    .and_then(|module| module.rsplit_once('.'))
                    .map(|(_, original)| original)
                    .filter(|original| *original != name);
                match renamed.and_then(|original| self.values.get(original)) {
                    Some(Some(value)) => Ok(*value),
                    _ => Err(format!("`{name}` is imported from another module")),
                }
            }
            None => Err(format!("`{name}` is not a constant of this file")),
        }
    }
}

/// `require("fs")` → `fs`.
fn required_module(value: SyntaxNode<'_>, text: &str) -> Option<String> {
    let value = unwrap_expression(value);
    if value.kind() != "call_expression" {
        return None;
    }
    let function = value.child_by_field_name("function")?;
    if text_of(function, text) != "require" {
        return None;
    }
    let argument = value.child_by_field_name("arguments")?.named_child(0)?;
    (argument.kind() == "string").then(|| {
        let module = string_content(argument, text);
        module.strip_prefix("node:").unwrap_or(&module).to_string()
    })
}

/// The decoded content of a string literal.
fn string_content(node: SyntaxNode<'_>, text: &str) -> String {
    let raw = text_of(node, text);
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
    unescape(inner)
}

/// `(x)`, `x as T`, `x satisfies T`, `x!` → `x`.
fn unwrap_expression(mut node: SyntaxNode<'_>) -> SyntaxNode<'_> {
    for _ in 0..MAX_DEPTH {
        match node.kind() {
            "parenthesized_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
            | "type_assertion"
            | "await_expression" => match node.named_child(0) {
                Some(inner) if inner.kind() != "type_arguments" => node = inner,
                _ => return node,
            },
            _ => return node,
        }
    }
    node
}

struct Reader<'s, 't> {
    scope: &'s Scope<'t>,
    text: &'t str,
    /// Where the file's own text ends (the rest is the modules it imports).
    own_end: usize,
    /// Names bound by the loop or the call a registration is read in ([`around`]), innermost
    /// last: they hide the file's constants of the same name.
    bound: Vec<(&'t str, SyntaxNode<'t>)>,
}

impl<'s, 't> Reader<'s, 't> {
    /// This reader with `names` bound.
    fn bound_to(&self, names: Vec<(&'t str, SyntaxNode<'t>)>) -> Reader<'s, 't> {
        Reader {
            scope: self.scope,
            text: self.text,
            own_end: self.own_end,
            bound: names,
        }
    }

    /// Follows names to the value they hold.
    fn resolve(&self, node: SyntaxNode<'t>, depth: usize) -> Result<SyntaxNode<'t>, String> {
        let node = unwrap_expression(node);
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        match node.kind() {
            // `{ shape }` holds the constant `shape`.
            "identifier" | "shorthand_property_identifier" => {
                let name = text_of(node, self.text);
                // Bound values were resolved where they were bound.
                if let Some((_, value)) = self.bound.iter().rev().find(|(n, _)| *n == name) {
                    return Ok(*value);
                }
                let value = self.scope.value(name)?;
                self.resolve(value, depth + 1)
            }
            "member_expression" => {
                let (Some(object), Some(property)) = (
                    node.child_by_field_name("object"),
                    node.child_by_field_name("property"),
                ) else {
                    return Ok(node);
                };
                // An object imported or computed: say why the member cannot be read.
                let object = self.resolve(object, depth + 1)?;
                if object.kind() != "object" {
                    return Ok(node);
                }
                match self.pair(object, text_of(property, self.text)) {
                    Some((_, value)) => self.resolve(value, depth + 1),
                    None => Ok(node),
                }
            }
            _ => Ok(node),
        }
    }

    /// A string resolved as a reader of the file would: literals, template literals without
    /// substitutions, `+` concatenations and constants.
    fn string(&self, node: SyntaxNode<'t>, depth: usize) -> Result<(String, Span), String> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        let written = unwrap_expression(node);
        let node = self.resolve(written, depth)?;
        match node.kind() {
            "string" => Ok((string_content(node, self.text), span_of(node))),
            // A key of an object bound by `Object.keys`/`Object.entries` ([`around`]).
            "property_identifier" => Ok((text_of(node, self.text).to_string(), span_of(node))),
            "template_string" => self.template(node, depth),
            "binary_expression" => match plus_operands(node) {
                Some(operands) => {
                    let (left, right) = operands?;
                    let (l, _) = self.string(left, depth + 1)?;
                    let (r, _) = self.string(right, depth + 1)?;
                    Ok((l + &r, span_of(node)))
                }
                None => match self.optional_fallback(node) {
                    Some(fallback) => self.string(fallback, depth + 1),
                    None => Err(computed(written, self.text)),
                },
            },
            _ => Err(computed(written, self.text)),
        }
    }

    /// `toolName || "web_search"` (or `??`) where `toolName` is an optional parameter of the
    /// function around it: the fallback, which is the value whenever a caller leaves the
    /// parameter out (what another caller passes is not followed).
    fn optional_fallback(&self, node: SyntaxNode<'t>) -> Option<SyntaxNode<'t>> {
        let operator = node.child_by_field_name("operator")?;
        if !matches!(operator.kind(), "||" | "??") {
            return None;
        }
        let left = unwrap_expression(node.child_by_field_name("left")?);
        if left.kind() != "identifier" {
            return None;
        }
        let name = text_of(left, self.text);
        let mut at = node;
        while let Some(parent) = at.parent() {
            at = parent;
            let Some(parameters) = at.child_by_field_name("parameters") else {
                continue;
            };
            return named_children(parameters)
                .into_iter()
                .any(|p| {
                    p.kind() == "optional_parameter"
                        && p.child_by_field_name("pattern")
                            .is_some_and(|n| text_of(n, self.text) == name)
                })
                .then(|| node.child_by_field_name("right"))
                .flatten();
        }
        None
    }

    /// A template literal, each substitution resolved as a string (`${PREFIX}` of a constant);
    /// one computed at run time makes the whole literal unresolved.
    fn template(&self, node: SyntaxNode<'t>, depth: usize) -> Result<(String, Span), String> {
        let mut out = String::new();
        // Content between the backticks, substitutions replaced by their values.
        let mut at = node.start_byte() + 1;
        let end = node.end_byte().saturating_sub(1).max(at);
        for child in named_children(node) {
            if child.kind() != "template_substitution" {
                continue;
            }
            out.push_str(&unescape(
                self.text.get(at..child.start_byte()).unwrap_or(""),
            ));
            let inner = child
                .named_child(0)
                .ok_or("an empty substitution in a template literal")?;
            let (value, _) = self.string(inner, depth + 1).map_err(|why| {
                format!("a template literal with a substitution computed at run time ({why})")
            })?;
            out.push_str(&value);
            at = child.end_byte();
        }
        out.push_str(&unescape(self.text.get(at..end).unwrap_or("")));
        Ok((out, span_of(node)))
    }

    /// The member `key` of an object literal: its key and value. A spread of an object of the
    /// file (`{ ...defs.list_tables, execute }`) gives its members, a later member winning as
    /// at run time.
    fn pair(&self, object: SyntaxNode<'t>, key: &str) -> Option<(Span, SyntaxNode<'t>)> {
        self.pair_in(object, key, 0)
    }

    fn pair_in(
        &self,
        object: SyntaxNode<'t>,
        key: &str,
        depth: usize,
    ) -> Option<(Span, SyntaxNode<'t>)> {
        if depth > MAX_DEPTH {
            return None;
        }
        for child in named_children(object).into_iter().rev() {
            match child.kind() {
                "pair" => {
                    let k = child.child_by_field_name("key")?;
                    if self.key_name(k).as_deref() == Some(key) {
                        return Some((span_of(k), child.child_by_field_name("value")?));
                    }
                }
                "shorthand_property_identifier" if text_of(child, self.text) == key => {
                    return Some((span_of(child), child));
                }
                // `async execute({ … }) { … }`: the method is the value.
                "method_definition" => {
                    let name = child.child_by_field_name("name");
                    if let Some(name) = name.filter(|n| self.key_name(*n).as_deref() == Some(key)) {
                        return Some((span_of(name), child));
                    }
                }
                "spread_element" => {
                    let spread = child
                        .named_child(0)
                        .and_then(|inner| self.resolve(inner, depth + 1).ok())
                        .filter(|s| s.kind() == "object");
                    if let Some(found) = spread.and_then(|s| self.pair_in(s, key, depth + 1)) {
                        return Some(found);
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn key_name(&self, key: SyntaxNode<'t>) -> Option<String> {
        match key.kind() {
            "property_identifier" | "number" => Some(text_of(key, self.text).to_string()),
            "string" => Some(string_content(key, self.text)),
            _ => None,
        }
    }

    /// The members of an object literal, shorthand members read as the identifier they name.
    /// `Err` for a spread or a computed key: the object cannot be read whole.
    fn members(
        &self,
        object: SyntaxNode<'t>,
    ) -> Result<Vec<(String, Span, SyntaxNode<'t>)>, String> {
        self.members_in(object, 0)
    }

    fn members_in(
        &self,
        object: SyntaxNode<'t>,
        depth: usize,
    ) -> Result<Vec<(String, Span, SyntaxNode<'t>)>, String> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        let mut out = Vec::new();
        for child in named_children(object) {
            match child.kind() {
                "pair" => {
                    let (Some(key), Some(value)) = (
                        child.child_by_field_name("key"),
                        child.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    let Some(name) = self.key_name(key) else {
                        return Err("an object with a computed key".into());
                    };
                    out.push((name, span_of(key), value));
                }
                "shorthand_property_identifier" => {
                    out.push((text_of(child, self.text).to_string(), span_of(child), child));
                }
                "spread_element" => {
                    let inner = child.named_child(0).ok_or("an empty spread")?;
                    let spread = self.resolve(inner, depth + 1)?;
                    if spread.kind() != "object" {
                        return Err("a spread of a value computed at run time".into());
                    }
                    out.extend(self.members_in(spread, depth + 1)?);
                }
                "comment" => {}
                _ => return Err("an object with methods or computed members".into()),
            }
        }
        // A member written after a spread replaces the spread's, as at run time.
        let mut kept: Vec<(String, Span, SyntaxNode<'t>)> = Vec::with_capacity(out.len());
        for entry in out.into_iter().rev() {
            if !kept.iter().any(|(key, _, _)| *key == entry.0) {
                kept.push(entry);
            }
        }
        kept.reverse();
        Ok(kept)
    }

    /// A literal value as JSON (objects, arrays, strings, numbers, booleans, `null`), constants
    /// followed.
    fn value(&self, node: SyntaxNode<'t>, depth: usize) -> Result<Node, String> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        let node = self.resolve(node, depth)?;
        let span = span_of(node);
        match node.kind() {
            "true" => Ok(bool_node(true, span)),
            "false" => Ok(bool_node(false, span)),
            "null" => Ok(Node::new(span, Value::Null)),
            "number" => number_node(text_of(node, self.text), span)
                .ok_or_else(|| format!("`{}` is not a plain number", text_of(node, self.text))),
            "unary_expression" if text_of(node, self.text).starts_with('-') => {
                number_node(&text_of(node, self.text).replace(' ', ""), span)
                    .ok_or_else(|| "a computed number".to_string())
            }
            "object" => {
                let mut members = Vec::new();
                for (key, key_span, value) in self.members(node)? {
                    members.push(member(&key, key_span, self.value(value, depth + 1)?));
                }
                Ok(object(span, members))
            }
            "array" => {
                let mut items = Vec::new();
                for item in named_children(node) {
                    if item.kind() != "comment" {
                        items.push(self.value(item, depth + 1)?);
                    }
                }
                Ok(Node::new(span, Value::Array(items)))
            }
            _ => self
                .string(node, depth + 1)
                .map(|(value, span)| string_node(value, span)),
        }
    }
}

mod agents;
mod around;
mod classes;
mod listed;
mod objects;
mod zod;

/// Every registration of the file; `own_end`: where the file's own text ends, the rest being the
/// modules it imports ([`super::modules`]).
pub(super) fn registrations(tree: &tree_sitter::Tree, text: &str, own_end: usize) -> CodeDoc {
    let root = tree.root_node();
    let scope = Scope::new(root, text, own_end);
    let reader = Reader {
        scope: &scope,
        text,
        own_end,
        bound: Vec::new(),
    };
    let around = around::Around::new(root, text);
    let mut doc = CodeDoc::default();
    let calls = find_all(root, |n| {
        n.kind() == "call_expression" && registration_method(n, text).is_some()
    });
    // Registrations inside a registration's handler are found too.
    let mut pending = calls;
    let mut seen = 0;
    while let Some(call) = pending.pop() {
        seen += 1;
        if seen > 100_000 {
            break;
        }
        if let Some(arguments) = call.child_by_field_name("arguments") {
            pending.extend(find_all(arguments, |n| {
                n.kind() == "call_expression" && registration_method(n, text).is_some()
            }));
        }
        let Some(method) = registration_method(call, text) else {
            continue;
        };
        match read_registration(&reader, call, method) {
            Read::Tool(registration) => doc.registrations.push(*registration),
            Read::Unresolved(unresolved) => {
                let expanded = around.expanded(&reader, call, |bound| {
                    match read_registration(bound, call, method) {
                        Read::Tool(registration) => Some(Ok(*registration)),
                        Read::Unresolved(unresolved) => Some(Err(unresolved)),
                        Read::NotATool => None,
                    }
                });
                match expanded.filter(|e| e.iter().any(Result::is_ok)) {
                    Some(readings) => doc.take_all(readings),
                    None => doc.unresolved.push(unresolved),
                }
            }
            Read::NotATool => {}
        }
    }
    // Each form is looked for only in a text that spells what it needs: the tree is walked
    // once per form.
    let has = |needle: &str| memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some();
    if has("inputSchema") || has("ListToolsRequestSchema") {
        doc.registrations
            .extend(listed::listed_tools(&reader, root, &mut doc.unresolved));
    }
    if has("ool(") {
        objects::object_tools(&reader, &around, root, &mut doc);
    }
    if has("extends") {
        classes::class_tools(&reader, root, &mut doc);
    }
    if has(".asTool(") {
        agents::agent_tools(&reader, root, &mut doc);
    }
    doc.sort_by_position();
    // A local function that registers its argument in several branches (`if (pro)
    // server.addTool(tool); else if (allowed) server.addTool(tool)`) gives each call one tool.
    doc.registrations.dedup_by(|a, b| {
        a.entry.span == b.entry.span
            && a.entry.get("name").and_then(|n| n.as_str())
                == b.entry.get("name").and_then(|n| n.as_str())
    });
    doc.unresolved
        .dedup_by(|a, b| a.span == b.span && a.part == b.part && a.why == b.why);
    doc
}

/// `registerTool` or `tool` when the call is `<receiver>.registerTool(…)` / `<receiver>.tool(…)`.
fn registration_method(call: SyntaxNode<'_>, text: &str) -> Option<&'static str> {
    let function = call.child_by_field_name("function")?;
    if function.kind() != "member_expression" {
        return None;
    }
    let property = function.child_by_field_name("property")?;
    match text_of(property, text) {
        "registerTool" => Some("registerTool"),
        // Task-based tools: the same signature, the handler an object of task callbacks.
        "registerToolTask" => Some("registerToolTask"),
        "tool" => Some("tool"),
        _ => None,
    }
}

enum Read {
    Tool(Box<Registration>),
    Unresolved(Unresolved),
    NotATool,
}

/// The input schema the SDKs list for a tool declared without parameters.
fn empty_schema(span: Span) -> Node {
    object(
        span,
        vec![
            implied("type", string_node("object".into(), span)),
            implied("properties", object(span, Vec::new())),
        ],
    )
}

fn is_function(node: SyntaxNode<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function" | "identifier" | "member_expression"
    )
}

fn read_registration(reader: &Reader<'_, '_>, call: SyntaxNode<'_>, method: &'static str) -> Read {
    let args = call_arguments(call);
    let (Some(first), Some(last)) = (args.first(), args.last()) else {
        return Read::NotATool;
    };
    // The SDK's signatures: a name, then at least a handler (`registerTool` takes the config
    // object between them).
    let min_args = if method == "tool" { 2 } else { 3 };
    let handler_shaped = is_function(unwrap_expression(*last))
        || (method == "registerToolTask" && unwrap_expression(*last).kind() == "object");
    if args.len() < min_args || !handler_shaped {
        return Read::NotATool;
    }
    let (name, name_span) = match reader.string(*first, 0) {
        Ok(name) => name,
        Err(why) => {
            return Read::Unresolved(Unresolved {
                part: "name",
                span: span_of(call),
                why,
            })
        }
    };
    let mut parts = Parts::default();
    let middle = args.get(1..args.len() - 1).unwrap_or(&[]);
    if method != "tool" {
        if let Some(config) = middle.first() {
            read_config(reader, *config, &mut parts);
        }
    } else {
        read_positional(reader, middle, &mut parts);
    }
    let mut members = vec![member("name", name_span, string_node(name, name_span))];
    members.extend(parts.members);
    let schema = match parts.schema {
        Some(schema) => Some(schema),
        // Without a shape the SDK lists an empty object schema.
        None if !parts.unresolved.iter().any(|u| u.part == "inputSchema") => {
            Some(empty_schema(name_span))
        }
        None => None,
    };
    if let Some(schema) = schema {
        members.push(implied("inputSchema", schema));
    }
    if let Some(annotations) = parts.annotations {
        members.push(annotations);
    }
    let handler = handler_body(reader, *last);
    let (calls, handler_span) = match handler {
        Some(body) => (handler_calls(reader, body), Some(span_of(body))),
        None => (Vec::new(), None),
    };
    Read::Tool(Box::new(Registration {
        form: match method {
            "tool" => "server.tool",
            other => other,
        },
        entry: object(span_of(call), members),
        built_schema: true,
        unresolved: parts.unresolved,
        handler: calls,
        handler_span,
    }))
}

#[derive(Default)]
struct Parts {
    members: Vec<Member>,
    schema: Option<Node>,
    annotations: Option<Member>,
    unresolved: Vec<Unresolved>,
}

impl Parts {
    fn unresolved(&mut self, part: &'static str, span: Span, why: String) {
        self.unresolved.push(Unresolved { part, span, why });
    }
}

/// `registerTool`'s config object.
fn read_config<'t>(reader: &Reader<'_, 't>, config: SyntaxNode<'t>, parts: &mut Parts) {
    let config = match reader.resolve(config, 0) {
        Ok(c) if c.kind() == "object" => c,
        Ok(c) => {
            let why = computed(c, reader.text);
            parts.unresolved("registration", span_of(c), why);
            return;
        }
        Err(why) => {
            parts.unresolved("registration", span_of(config), why);
            return;
        }
    };
    for key in ["title", "description"] {
        let Some((key_span, value)) = reader.pair(config, key) else {
            continue;
        };
        match reader.string(value, 0) {
            Ok((text, span)) => parts
                .members
                .push(member(key, key_span, string_node(text, span))),
            Err(why) => parts.unresolved(
                if key == "title" {
                    "title"
                } else {
                    "description"
                },
                span_of(value),
                why,
            ),
        }
    }
    if let Some((key_span, value)) = reader.pair(config, "inputSchema") {
        match zod::input_schema(reader, value) {
            Ok(schema) => {
                parts.schema = Some(schema);
                let _ = key_span;
            }
            Err(why) => parts.unresolved("inputSchema", span_of(value), why),
        }
    }
    if let Some((key_span, value)) = reader.pair(config, "annotations") {
        read_annotations(reader, key_span, value, parts);
    }
}

/// `server.tool`'s arguments between the name and the handler.
fn read_positional<'t>(reader: &Reader<'_, 't>, middle: &[SyntaxNode<'t>], parts: &mut Parts) {
    for (i, argument) in middle.iter().enumerate() {
        let resolved = reader.resolve(*argument, 0);
        match resolved {
            Ok(node) if node.kind() == "object" => {
                // As the SDK tells them apart: an object of hints is the annotations, any other
                // the input shape (whose values may be helpers returning zod schemas).
                let schema_read = parts.schema.is_some()
                    || parts.unresolved.iter().any(|u| u.part == "inputSchema");
                if !schema_read && (zod::is_shape(reader, node) || !is_annotations(reader, node)) {
                    match zod::input_schema(reader, node) {
                        Ok(schema) => parts.schema = Some(schema),
                        Err(why) => parts.unresolved("inputSchema", span_of(*argument), why),
                    }
                } else {
                    read_annotations(reader, span_of(*argument), *argument, parts);
                }
            }
            Ok(node)
                if i == 0
                    && matches!(
                        node.kind(),
                        "string" | "template_string" | "binary_expression"
                    ) =>
            {
                match reader.string(node, 0) {
                    Ok((text, span)) => {
                        parts
                            .members
                            .push(member("description", span, string_node(text, span)));
                    }
                    Err(why) => parts.unresolved("description", span_of(*argument), why),
                }
            }
            Ok(node) if zod::is_zod(reader, node) => match zod::input_schema(reader, node) {
                Ok(schema) => parts.schema = Some(schema),
                Err(why) => parts.unresolved("inputSchema", span_of(*argument), why),
            },
            Ok(node) => {
                let why = computed(node, reader.text);
                let part = if i == 0 { "description" } else { "inputSchema" };
                parts.unresolved(part, span_of(*argument), why);
            }
            Err(why) => {
                let part = if i == 0 { "description" } else { "inputSchema" };
                parts.unresolved(part, span_of(*argument), why);
            }
        }
    }
}

/// Whether an object literal holds MCP tool annotations only (`title` and the hints).
fn is_annotations<'t>(reader: &Reader<'_, 't>, object_node: SyntaxNode<'t>) -> bool {
    reader.members(object_node).is_ok_and(|members| {
        !members.is_empty()
            && members.iter().all(|(key, _, _)| {
                matches!(
                    key.as_str(),
                    "title"
                        | "readOnlyHint"
                        | "destructiveHint"
                        | "idempotentHint"
                        | "openWorldHint"
                )
            })
    })
}

/// The annotations object: each hint that is a literal boolean (or the title string) is read,
/// any other is left unresolved.
fn read_annotations<'t>(
    reader: &Reader<'_, 't>,
    key_span: Span,
    value: SyntaxNode<'t>,
    parts: &mut Parts,
) {
    let object_node = match reader.resolve(value, 0) {
        Ok(o) if o.kind() == "object" => o,
        Ok(o) => {
            let why = computed(o, reader.text);
            parts.unresolved("annotations", span_of(o), why);
            return;
        }
        Err(why) => {
            parts.unresolved("annotations", span_of(value), why);
            return;
        }
    };
    let members = match reader.members(object_node) {
        Ok(m) => m,
        Err(why) => {
            parts.unresolved("annotations", span_of(object_node), why);
            return;
        }
    };
    let mut read = Vec::new();
    for (key, span, value) in members {
        match reader.value(value, 0) {
            Ok(node) => read.push(member(&key, span, node)),
            Err(why) => parts.unresolved("annotations", span_of(value), format!("`{key}`: {why}")),
        }
    }
    parts.annotations = Some(member(
        "annotations",
        key_span,
        object(span_of(object_node), read),
    ));
}

/// The body of the handler: an inline function, or a function of the file named by it.
fn handler_body<'t>(reader: &Reader<'_, 't>, handler: SyntaxNode<'t>) -> Option<SyntaxNode<'t>> {
    let node = reader.resolve(handler, 0).ok()?;
    match node.kind() {
        "arrow_function"
        | "function_expression"
        | "function"
        | "function_declaration"
        | "method_definition" => node.child_by_field_name("body"),
        _ => None,
    }
}

/// The calls of a handler's body, and of the functions of the file it calls by name.
fn handler_calls<'t>(reader: &Reader<'_, 't>, body: SyntaxNode<'t>) -> Vec<HandlerCall> {
    super::handler_calls(
        body,
        &["call_expression", "new_expression"],
        |call| {
            call.child_by_field_name("function")
                .or_else(|| call.child_by_field_name("constructor"))
        },
        |function| handler_body(reader, function),
        |call, function| describe_call(reader, call, function),
    )
}

/// A call as the effect model reads it: the callee's path with its first name resolved through
/// the file's imports (`fs.rm` with `import fs from "fs/promises"` is `fs/promises.rm`).
fn describe_call(
    reader: &Reader<'_, '_>,
    call: SyntaxNode<'_>,
    function: SyntaxNode<'_>,
) -> Option<HandlerCall> {
    let path = callee_path(function, reader.text)?;
    let callee = super::qualify(&path, &reader.scope.imports);
    let arguments: Vec<SyntaxNode<'_>> = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    let literal_argument = arguments.first().is_some_and(|a| {
        a.kind() == "string"
            || (a.kind() == "template_string"
                && !named_children(*a)
                    .iter()
                    .any(|c| c.kind() == "template_substitution"))
    });
    let method = arguments.get(1).and_then(|options| {
        let options = reader.resolve(*options, 0).ok()?;
        if options.kind() != "object" {
            return None;
        }
        let (_, value) = reader.pair(options, "method")?;
        reader
            .string(value, 0)
            .ok()
            .map(|(m, _)| m.to_ascii_uppercase())
    });
    Some(HandlerCall {
        callee,
        method,
        literal_argument,
        argument: arguments
            .first()
            .map(|a| abbreviate(text_of(*a, reader.text)))
            .unwrap_or_default(),
        span: span_of(function),
    })
}

/// `a.b.c` for a callee made of names only; `None` for anything computed.
fn callee_path(function: SyntaxNode<'_>, text: &str) -> Option<String> {
    let mut parts = Vec::new();
    let mut node = function;
    for _ in 0..16 {
        match node.kind() {
            "identifier" => {
                parts.push(text_of(node, text));
                parts.reverse();
                return Some(parts.join("."));
            }
            "member_expression" => {
                parts.push(text_of(node.child_by_field_name("property")?, text));
                node = node.child_by_field_name("object")?;
            }
            "this" => return None,
            _ => {
                // `(await import("fs")).rm`, `x().y`: the method name alone.
                return parts.first().map(|p| format!("?.{p}"));
            }
        }
    }
    None
}
