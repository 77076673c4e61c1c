//! The entities a policy rule reads, built from a unit's models and shared facts (never by
//! parsing again). Each field keeps where it is written and what it is (a node of the source, a
//! derived fact, or a linked entity); the CEL value the evaluator reads is built from the fields
//! the run's rules read, borrowing the source's strings, so that a finding's `at` path lands on
//! the key in the source file and an entity costs no copy of its text.

use super::Kind;
use crate::check::Unit;
use crate::model::contract::Contract;
use crate::model::tools::{Dialect, SideEffect, Tool};
use crate::parse::node::{Node, Value as NodeValue};
use crate::semantic::effect::ToolEffect;
use crate::source::{FileId, Span};
use cel::common::types::{
    CelBool, CelDouble, CelInt, CelList, CelMap, CelMapKey, CelNull, CelString,
};
use cel::common::value::Val;
use cel::objects::Key;
use cel::Value;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

/// Which fields of an entity the run's rules read: only those are converted to CEL values (a
/// tool's input schema is the largest part of most entities, and most rules never read it).
#[derive(Debug, Clone, Default)]
pub struct Wanted {
    /// A rule reads the variable as a whole (passes it to a function, iterates it, indexes it).
    pub all: bool,
    /// Each name once.
    fields: Vec<String>,
}

impl Wanted {
    pub fn everything() -> Self {
        Wanted {
            all: true,
            fields: Vec::new(),
        }
    }

    pub fn insert(&mut self, field: &str) {
        if !self.fields.iter().any(|f| f == field) {
            self.fields.push(field.to_string());
        }
    }

    pub fn wants(&self, field: &str) -> bool {
        // Asked for every key of every entity: a scan of the few names, whose lengths mostly
        // differ, costs less than an ordered set's search, which compares the bytes each time.
        self.all || self.fields.iter().any(|f| f == field)
    }
}

/// What a field holds.
#[derive(Debug, Clone)]
enum Source<'a> {
    /// A value as written; deeper paths walk into it.
    Node(&'a Node),
    /// A derived fact.
    Derived(Value),
    /// A derived string, borrowed (a Tool Use Rules item's text, a tool's dialect).
    Str(&'a str),
    /// A linked entity (`tool.contract`, `driver.tool`), perhaps in another file.
    Link(Box<Entity<'a>>),
}

/// Where a field is written: the `at` of a finding about it.
#[derive(Debug, Clone, Copy)]
enum Origin {
    /// A key (or for a derived fact, the key it comes from).
    Span(Span),
    /// A whole tree (a frontmatter, a schema): the field is `span`, deeper paths walk the node.
    Tree(Span),
}

#[derive(Debug, Clone)]
struct Field<'a> {
    /// A key of the source, or the name of a derived fact: borrowed either way.
    name: &'a str,
    at: Span,
    value: Source<'a>,
}

/// One entity: its fields and the evaluator's value of them.
#[derive(Debug, Clone)]
pub struct Entity<'a> {
    pub file: FileId,
    /// Where a finding about the entity as a whole points.
    pub anchor: Span,
    /// How messages name it (see [`Entity::label`]): made only for the rare message.
    label: Label<'a>,
    /// The fields the run's rules read, as the interpreter reads them: built when an expression
    /// first needs the interpreter on this entity (most are answered by [`super::fast`]), then
    /// lent to every rule's evaluation.
    val: OnceCell<Arc<dyn Val + 'a>>,
    /// The length of the largest list or map in `val` (for the cost bound), when first needed.
    largest: OnceCell<u64>,
    /// The byte length of the longest string (or key) in `val` (for the cost bound), when first
    /// needed.
    longest: OnceCell<u64>,
    /// The fields the run's rules read come first: `val` holds `fields[..shown]`.
    fields: Vec<Field<'a>>,
    shown: usize,
}

#[derive(Debug, Clone)]
enum Label<'a> {
    Text(String),
    Tool(&'a Tool),
    /// A Tool Use Rules item, by its text.
    Item(&'a str),
}

/// A field of an entity, as [`Entity::member`] finds it.
pub enum Member<'x, 'a> {
    Node(&'x Node),
    Value(&'x Value),
    Str(&'x str),
    Entity(&'x Entity<'a>),
}

struct Builder<'a, 'w> {
    fields: Vec<Field<'a>>,
    wanted: &'w Wanted,
}

impl<'a, 'w> Builder<'a, 'w> {
    fn new(wanted: &'w Wanted) -> Self {
        Builder {
            fields: Vec::new(),
            wanted,
        }
    }

    fn wants(&self, name: &str) -> bool {
        self.wanted.wants(name)
    }

    fn has(&self, name: &str) -> bool {
        self.fields.iter().any(|f| f.name == name)
    }

    /// Sets a field the run's rules read; the others are never looked at (a rule that reads an
    /// entity as a whole wants them all), so they are not kept.
    fn push(&mut self, name: &'a str, at: Span, value: Source<'a>) {
        if !self.wants(name) {
            return;
        }
        self.fields.retain(|f| f.name != name);
        self.fields.push(Field { name, at, value });
    }

    /// A derived fact, found at the key of `origin`.
    fn set(&mut self, name: &'static str, value: Value, origin: Origin) {
        let (Origin::Span(at) | Origin::Tree(at)) = origin;
        self.push(name, at, Source::Derived(value));
    }

    /// A value as written, found at the key of `origin`.
    fn node(&mut self, name: &'static str, node: &'a Node, origin: Origin) {
        let (Origin::Span(at) | Origin::Tree(at)) = origin;
        self.push(name, at, Source::Node(node));
    }

    /// A derived string, borrowed, found at the key of `origin`.
    fn str(&mut self, name: &'static str, value: &'a str, origin: Origin) {
        let (Origin::Span(at) | Origin::Tree(at)) = origin;
        self.push(name, at, Source::Str(value));
    }

    fn link(&mut self, name: &'static str, entity: Entity<'a>) {
        let at = entity.anchor;
        self.push(name, at, Source::Link(Box::new(entity)));
    }

    /// Every member of a mapping, as written, unless a field of that name is already set.
    fn members(&mut self, node: Option<&'a Node>) {
        for member in node.and_then(Node::as_object).unwrap_or_default() {
            if self.wants(&member.key) && !self.has(&member.key) {
                self.fields.push(Field {
                    name: member.key.as_str(),
                    at: member.key_span,
                    value: Source::Node(&member.value),
                });
            }
        }
    }

    fn finish(self, file: FileId, anchor: Span, label: Label<'a>) -> Entity<'a> {
        // Only the wanted fields are kept (see `push`).
        let shown = self.fields.len();
        Entity {
            file,
            anchor,
            label,
            val: OnceCell::new(),
            largest: OnceCell::new(),
            longest: OnceCell::new(),
            fields: self.fields,
            shown,
        }
    }
}

/// The CEL map of the wanted `fields`.
fn fields_val<'a>(fields: &[Field<'a>], wanted: &Wanted, largest: &mut u64) -> Box<dyn Val + 'a> {
    let mut map: HashMap<CelMapKey<'a>, Box<dyn Val + 'a>> = HashMap::new();
    for field in fields.iter().filter(|f| wanted.wants(f.name)) {
        let val = match &field.value {
            Source::Node(node) => node_val(node, largest),
            Source::Derived(value) => {
                *largest = (*largest).max(value_len(value).unwrap_or(0));
                value_val(value)
            }
            Source::Str(text) => Box::new(CelString::from(*text)),
            Source::Link(entity) => {
                *largest = (*largest).max(entity.largest());
                fields_val(&entity.fields, &Wanted::everything(), largest)
            }
        };
        map.insert(CelMapKey::from(field.name), val);
    }
    *largest = (*largest).max(map.len() as u64);
    Box::new(CelMap::from(map))
}

/// The `largest` [`fields_val`] finds in `fields`, without building the value.
fn fields_largest(fields: &[Field<'_>]) -> u64 {
    let mut largest = fields.len() as u64;
    for field in fields {
        let found = match &field.value {
            Source::Node(node) => node_largest(node),
            Source::Derived(value) => value_len(value).unwrap_or(0),
            Source::Str(_) => 0,
            Source::Link(entity) => entity.largest(),
        };
        largest = largest.max(found);
    }
    largest
}

/// The longest string or key in `fields` (an upper bound: duplicate keys are counted too).
fn fields_longest(fields: &[Field<'_>]) -> u64 {
    let mut longest = 0;
    for field in fields {
        let found = match &field.value {
            Source::Node(node) => node_longest(node),
            Source::Derived(value) => value_longest(value),
            Source::Str(text) => text.len() as u64,
            Source::Link(entity) => entity.longest(),
        };
        longest = longest.max(found).max(field.name.len() as u64);
    }
    longest
}

fn node_longest(node: &Node) -> u64 {
    match &node.value {
        NodeValue::String(s) => s.len() as u64,
        NodeValue::Number(n) => n.raw.len() as u64,
        NodeValue::Array(items) => items.iter().map(node_longest).max().unwrap_or(0),
        NodeValue::Object(members) => members
            .iter()
            .map(|m| node_longest(&m.value).max(m.key.len() as u64))
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

/// The byte length of the longest string or key in `value`.
pub fn value_longest(value: &Value) -> u64 {
    match value {
        Value::String(s) => s.len() as u64,
        Value::Bytes(b) => b.len() as u64,
        Value::List(items) => items.iter().map(value_longest).max().unwrap_or(0),
        Value::Map(map) => map
            .map
            .iter()
            .map(|(key, value)| {
                let key = match key {
                    Key::String(s) => s.len() as u64,
                    _ => 0,
                };
                key.max(value_longest(value))
            })
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

/// The `largest` [`node_val`] finds in `node`: a mapping's duplicate keys are not converted, so
/// not counted.
fn node_largest(node: &Node) -> u64 {
    match &node.value {
        NodeValue::Array(items) => items
            .iter()
            .map(node_largest)
            .fold(items.len() as u64, u64::max),
        NodeValue::Object(members) => {
            let mut largest = members.len() as u64;
            let mut seen = std::collections::HashSet::new();
            for (index, member) in members.iter().enumerate() {
                let first = if members.len() <= 16 {
                    !members[..index].iter().any(|m| m.key == member.key)
                } else {
                    seen.insert(member.key.as_str())
                };
                if first {
                    largest = largest.max(node_largest(&member.value));
                }
            }
            largest
        }
        _ => 0,
    }
}

/// A YAML or JSON value as CEL sees it, borrowing its strings; `largest` keeps the longest list
/// or map seen.
fn node_val<'a>(node: &'a Node, largest: &mut u64) -> Box<dyn Val + 'a> {
    match &node.value {
        NodeValue::Null => Box::new(CelNull),
        NodeValue::Bool(b) => Box::new(CelBool::from(*b)),
        NodeValue::Number(n) => match n.raw.parse::<i64>() {
            Ok(i) if n.integer => Box::new(CelInt::from(i)),
            _ => Box::new(CelDouble::from(n.value)),
        },
        NodeValue::String(s) => Box::new(CelString::from(s.as_str())),
        NodeValue::Array(items) => {
            *largest = (*largest).max(items.len() as u64);
            Box::new(CelList::from(
                items
                    .iter()
                    .map(|i| node_val(i, largest))
                    .collect::<Vec<_>>(),
            ))
        }
        NodeValue::Object(members) => {
            *largest = (*largest).max(members.len() as u64);
            let mut map: HashMap<CelMapKey<'a>, Box<dyn Val + 'a>> =
                HashMap::with_capacity(members.len());
            for member in members {
                // Duplicate keys are the parsers' findings; the first one counts, as everywhere.
                map.entry(CelMapKey::from(member.key.as_str()))
                    .or_insert_with(|| node_val(&member.value, largest));
            }
            Box::new(CelMap::from(map))
        }
    }
}

/// A value built here (maps, lists and scalars, which always convert) as the evaluator reads it.
fn value_val(value: &Value) -> Box<dyn Val> {
    Box::<dyn Val>::try_from(value.clone()).unwrap_or_else(|_| Box::new(CelNull))
}

/// [`value_val`], shared.
pub fn to_val(value: &Value) -> Arc<dyn Val> {
    Arc::from(value_val(value))
}

fn value_len(value: &Value) -> Option<u64> {
    match value {
        Value::List(list) => Some(list.len() as u64),
        Value::Map(map) => Some(map.map.len() as u64),
        _ => None,
    }
}

fn string(text: &str) -> Value {
    Value::String(Arc::new(text.to_string()))
}

/// A variable as messages and the cost bound read it: an entity of the unit, or a test case's
/// value.
#[derive(Clone, Copy)]
pub enum Var<'x, 'a> {
    Entity(&'x Entity<'a>),
    Value(&'x Value),
}

impl<'x, 'a> Var<'x, 'a> {
    pub fn find(self, path: &[&str]) -> Option<Found<'x, 'a>> {
        match self {
            Var::Entity(entity) => entity.find(path),
            Var::Value(value) => walk_value(value, path).map(Found::Value),
        }
    }
}

/// What a dotted path into the variables names: a source node, a value, or an entity.
pub enum Found<'x, 'a> {
    Node(&'x Node),
    Value(&'x Value),
    Str(&'x str),
    Entity(&'x Entity<'a>),
}

impl Found<'_, '_> {
    /// The length of a list or map.
    pub fn collection_len(&self) -> Option<u64> {
        match self {
            Found::Node(node) => match &node.value {
                NodeValue::Array(items) => Some(items.len() as u64),
                NodeValue::Object(members) => Some(members.len() as u64),
                _ => None,
            },
            Found::Value(value) => value_len(value),
            Found::Str(_) => None,
            Found::Entity(entity) => Some(entity.fields.len() as u64),
        }
    }

    /// The byte length of a string.
    pub fn string_len(&self) -> Option<u64> {
        match self {
            Found::Node(node) => match &node.value {
                NodeValue::String(s) => Some(s.len() as u64),
                _ => None,
            },
            Found::Value(Value::String(s)) => Some(s.len() as u64),
            Found::Value(_) | Found::Entity(_) => None,
            Found::Str(text) => Some(text.len() as u64),
        }
    }

    /// How a message shows it: strings as they are, lists joined with `, `, maps as their keys.
    pub fn display(&self) -> String {
        match self {
            Found::Node(node) => display_node(node),
            Found::Value(value) => display_value(value),
            Found::Str(text) => text.to_string(),
            Found::Entity(entity) => {
                let mut keys: Vec<&str> = entity.fields.iter().map(|f| f.name).collect();
                keys.sort_unstable();
                format!("{{{}}}", keys.join(", "))
            }
        }
    }
}

fn display_node(node: &Node) -> String {
    match &node.value {
        NodeValue::Null => "null".to_string(),
        NodeValue::Bool(b) => b.to_string(),
        NodeValue::Number(n) => n.raw.clone(),
        NodeValue::String(s) => s.clone(),
        NodeValue::Array(items) => items
            .iter()
            .map(display_node)
            .collect::<Vec<_>>()
            .join(", "),
        NodeValue::Object(members) => {
            let mut keys: Vec<&str> = members.iter().map(|m| m.key.as_str()).collect();
            keys.sort_unstable();
            format!("{{{}}}", keys.join(", "))
        }
    }
}

pub fn display_value(value: &Value) -> String {
    match value {
        Value::String(s) => s.to_string(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_string(),
        Value::List(items) => items
            .iter()
            .map(display_value)
            .collect::<Vec<_>>()
            .join(", "),
        Value::Map(map) => {
            let mut keys: Vec<String> = map
                .map
                .keys()
                .map(|k| match k {
                    Key::String(s) => s.to_string(),
                    Key::Int(i) => i.to_string(),
                    Key::Uint(u) => u.to_string(),
                    Key::Bool(b) => b.to_string(),
                })
                .collect();
            keys.sort();
            format!("{{{}}}", keys.join(", "))
        }
        other => other.type_of().to_string(),
    }
}

/// Walks `path` into a value.
pub fn walk_value<'x, S: AsRef<str>>(value: &'x Value, path: &[S]) -> Option<&'x Value> {
    let mut value = value;
    for segment in path {
        let segment = segment.as_ref();
        value = match value {
            Value::Map(map) => map.map.get(&Key::from(segment))?,
            Value::List(list) => list.get(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value)
}

fn walk_node<'x, S: AsRef<str>>(node: &'x Node, path: &[S]) -> Option<&'x Node> {
    let mut node = node;
    for segment in path {
        let segment = segment.as_ref();
        node = match &node.value {
            NodeValue::Object(_) => node.get(segment)?,
            NodeValue::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

impl<'a> Entity<'a> {
    /// The file and span a dotted path (without its variable) points at: the deepest key of it
    /// that exists, else the entity.
    pub fn locate(&self, path: &[String]) -> (FileId, Span) {
        let Some((first, rest)) = path.split_first() else {
            return (self.file, self.anchor);
        };
        let Some(field) = self.fields.iter().find(|f| f.name == first) else {
            return (self.file, self.anchor);
        };
        match &field.value {
            Source::Node(node) => (self.file, walk(node, rest).unwrap_or(field.at)),
            Source::Derived(_) | Source::Str(_) => (self.file, field.at),
            Source::Link(entity) => entity.locate(rest),
        }
    }

    /// How messages name it: "tool `search`".
    pub fn label(&self) -> String {
        match &self.label {
            Label::Text(text) => text.clone(),
            Label::Tool(tool) => format!("tool `{}`", tool.display_name()),
            Label::Item(text) => {
                let preview: String = text.chars().take(40).collect();
                format!("Tool Use Rules item \"{preview}\"")
            }
        }
    }

    /// The fields the run's rules read, as the interpreter reads them.
    pub fn val(&self) -> &Arc<dyn Val + 'a> {
        self.val.get_or_init(|| {
            let mut largest = 0;
            let val = fields_val(
                &self.fields[..self.shown],
                &Wanted::everything(),
                &mut largest,
            );
            debug_assert_eq!(
                largest,
                fields_largest(&self.fields[..self.shown]),
                "{}",
                self.label()
            );
            Arc::from(val)
        })
    }

    /// The length of the largest list or map in [`Entity::val`], for the cost bound.
    pub fn largest(&self) -> u64 {
        let largest = *self
            .largest
            .get_or_init(|| fields_largest(&self.fields[..self.shown]));
        // Debug builds (every test) check the walk against the conversion it stands for.
        if cfg!(debug_assertions) {
            let _ = self.val();
        }
        largest
    }

    /// The byte length of the longest string in [`Entity::val`], for the cost bound.
    pub fn longest(&self) -> u64 {
        *self
            .longest
            .get_or_init(|| fields_longest(&self.fields[..self.shown]))
    }

    /// The field `name` as the evaluator's value holds it (only the fields the run's rules read;
    /// a linked entity holds all of its own).
    pub fn member(&self, name: &str) -> Option<Member<'_, 'a>> {
        let field = self.fields[..self.shown].iter().find(|f| f.name == name)?;
        Some(match &field.value {
            Source::Node(node) => Member::Node(node),
            Source::Derived(value) => Member::Value(value),
            Source::Str(text) => Member::Str(text),
            Source::Link(entity) => Member::Entity(entity),
        })
    }

    /// What a dotted path (without its variable) names, if it is there.
    pub fn find<S: AsRef<str>>(&self, path: &[S]) -> Option<Found<'_, 'a>> {
        let Some((first, rest)) = path.split_first() else {
            return Some(Found::Entity(self));
        };
        let field = self.fields.iter().find(|f| f.name == first.as_ref())?;
        match &field.value {
            Source::Node(node) => walk_node(node, rest).map(Found::Node),
            Source::Derived(value) => walk_value(value, rest).map(Found::Value),
            // A string has no fields.
            Source::Str(text) => rest.is_empty().then_some(Found::Str(text)),
            Source::Link(entity) => entity.find(rest),
        }
    }
}

/// The key span of the deepest member of `path` under `node`.
fn walk(node: &Node, path: &[String]) -> Option<Span> {
    let mut node = node;
    let mut found = None;
    for segment in path {
        match &node.value {
            NodeValue::Object(_) => {
                let member = node.member(segment)?;
                found = Some(member.key_span);
                node = &member.value;
            }
            NodeValue::Array(items) => {
                let item = items.get(segment.parse::<usize>().ok()?)?;
                found = Some(item.span);
                node = item;
            }
            _ => break,
        }
    }
    found
}

/// The unit's SKILL.md as an entity.
pub fn skill<'a>(unit: &Unit<'a>, wanted: &Wanted) -> Option<Entity<'a>> {
    let (file, doc) = unit.skill()?;
    let mut b = Builder::new(wanted);
    let frontmatter = doc.doc.frontmatter();
    let root = frontmatter.map(|fm| &fm.root);
    let anchor = root
        .and_then(|r| r.get("name"))
        .map(|n| n.span)
        .or(frontmatter.map(|fm| fm.opening))
        .unwrap_or(Span::empty(0));
    b.str("path", &unit.repo.file(file).rel_path, Origin::Span(anchor));
    if b.wants("body_lines") {
        let text = unit.text(file);
        let body = text
            .get(doc.doc.body_span.start..doc.doc.body_span.end)
            .unwrap_or("");
        b.set(
            "body_lines",
            Value::Int(body.lines().count() as i64),
            Origin::Span(Span::empty(doc.doc.body_span.start)),
        );
    }
    let section = unit.tool_use_rules();
    b.set(
        "has_tool_use_rules",
        Value::Bool(section.is_some()),
        Origin::Span(section.map_or(anchor, |(s, _)| s.heading.span)),
    );
    if let Some(fm) = frontmatter {
        b.node("frontmatter", &fm.root, Origin::Tree(fm.yaml));
    } else {
        b.set(
            "frontmatter",
            Value::Map(cel::objects::Map {
                map: Arc::new(HashMap::new()),
            }),
            Origin::Span(anchor),
        );
    }
    // The keys as written come after the derived names (`path`, `frontmatter`), which win.
    b.members(root);
    let name = root.and_then(|r| r.get("name")).and_then(Node::as_str);
    let label = match name {
        Some(name) => format!("skill `{name}`"),
        None => format!("skill {}", unit.repo.file(file).rel_path),
    };
    Some(b.finish(file, anchor, Label::Text(label)))
}

fn dialect_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Forge => "forge",
        Dialect::Mcp => "mcp",
        Dialect::OpenAi => "openai",
        Dialect::Script => "script",
        Dialect::Anthropic => "anthropic",
        Dialect::Docker => "docker",
        Dialect::Manifest => "manifest",
        Dialect::Catalogue => "catalogue",
        Dialect::Source => "source",
    }
}

/// Every tool of the unit's tools files as an entity.
pub fn tools<'a>(unit: &Unit<'a>, wanted: &Wanted) -> Vec<Entity<'a>> {
    let links = unit.tool_links();
    unit.tools()
        .map(|(file, tool)| {
            let linked = links
                .iter()
                .find(|l| std::ptr::eq(l.tool, tool))
                .map(|l| l.contract);
            tool_entity(unit, file, tool, linked, wanted)
        })
        .collect()
}

fn tool_entity<'a>(
    unit: &Unit<'a>,
    file: FileId,
    tool: &'a Tool,
    linked: Option<Contract<'a>>,
    wanted: &Wanted,
) -> Entity<'a> {
    let mut b = Builder::new(wanted);
    let definition = tool.definition();
    let anchor = tool.span();
    let key_of = |key: &str| definition.member(key).map_or(anchor, |m| m.key_span);
    if let Some(name) = tool.name_node().filter(|_| b.wants("name")) {
        let span = definition
            .as_object()
            .unwrap_or_default()
            .iter()
            .find(|m| std::ptr::eq(&m.value, name))
            .map_or(name.span, |m| m.key_span);
        b.node("name", name, Origin::Span(span));
    }
    if let Some(description) = tool.description() {
        b.node(
            "description",
            description,
            Origin::Span(key_of("description")),
        );
    }
    b.str("dialect", dialect_name(tool.dialect), Origin::Span(anchor));
    let side_effect = match tool.side_effect {
        SideEffect::Read => "read",
        SideEffect::Write => "write",
        SideEffect::Unknown => "unknown",
    };
    if b.wants("side_effect") {
        b.str(
            "side_effect",
            side_effect,
            Origin::Span(
                tool.side_effect_span
                    .map_or(anchor, |s| key_of_value(&tool.entry, s)),
            ),
        );
    }
    if let Some((value, span)) = tool
        .confirmation
        .filter(|_| b.wants("requires_confirmation"))
    {
        b.set(
            "requires_confirmation",
            Value::Bool(value),
            Origin::Span(key_of_value(&tool.entry, span)),
        );
    }
    if let Some((value, span)) = tool.idempotent.filter(|_| b.wants("idempotent")) {
        b.set(
            "idempotent",
            Value::Bool(value),
            Origin::Span(key_of_value(&tool.entry, span)),
        );
    }
    if let Some(schema) = tool.schema().filter(|_| b.wants("input_schema")) {
        let span = ["inputSchema", "input_schema", "parameters", "script"]
            .iter()
            .find_map(|k| definition.member(k).or_else(|| tool.entry.member(k)))
            .map_or(schema.span, |m| m.key_span);
        b.node("input_schema", schema, Origin::Tree(span));
    }
    if let Some(annotations) = tool.annotations() {
        b.node(
            "annotations",
            annotations,
            Origin::Tree(key_of("annotations")),
        );
    }
    // The effect model: `effect`, `capabilities` and the evidence behind them.
    if b.wants("effect") || b.wants("capabilities") || b.wants("effect_evidence") {
        if let Some(effect) = unit.effect_of(tool) {
            effect_fields(&mut b, effect, anchor);
        }
    }
    // Mentioned by a Tool Use Rules item, as the TR rules read the items.
    if b.wants("documented") {
        let documented = tool
            .name()
            .is_some_and(|name| !unit.items_naming(name).is_empty());
        b.set("documented", Value::Bool(documented), Origin::Span(anchor));
    }
    if b.wants("contract") {
        if let Some(contract) = linked.and_then(|c| contract_entity(unit, c, &Wanted::everything()))
        {
            b.link("contract", contract);
        }
    }
    b.members(Some(definition));
    if !std::ptr::eq(definition, &tool.entry) {
        b.members(Some(&tool.entry));
    }
    b.finish(file, anchor, Label::Tool(tool))
}

/// `effect` (`read`/`write`/`destructive`), `capabilities` (a sorted list of `exec`,
/// `financial`, `credential`, `access`, `sends`) and `effect_evidence` (a list of maps with `claim`,
/// `basis`, `source` and `text`).
fn effect_fields(b: &mut Builder<'_, '_>, effect: &ToolEffect<'_>, anchor: Span) {
    let origin = Origin::Span(
        effect
            .effect_evidence()
            .filter(|e| e.file == effect.file)
            .map_or(anchor, |e| e.span),
    );
    b.str("effect", effect.effect.as_str(), origin);
    let capabilities = effect
        .capabilities
        .iter()
        .map(|c| string(c.as_str()))
        .collect();
    b.set(
        "capabilities",
        Value::List(Arc::new(capabilities)),
        Origin::Span(anchor),
    );
    if b.wants("effect_evidence") {
        let evidence = effect
            .evidence
            .iter()
            .map(|e| {
                let claim = e.claim.key();
                let fields = [
                    ("claim", claim),
                    ("basis", e.basis.as_str().to_string()),
                    ("source", e.source.to_string()),
                    ("text", e.text.clone()),
                ];
                let map: HashMap<Key, Value> = fields
                    .into_iter()
                    .map(|(k, v)| (Key::from(k), string(&v)))
                    .collect();
                Value::Map(cel::objects::Map { map: Arc::new(map) })
            })
            .collect();
        b.set(
            "effect_evidence",
            Value::List(Arc::new(evidence)),
            Origin::Span(anchor),
        );
    }
}

/// The key whose value is written at `span` (two levels deep: `annotations.idempotentHint`),
/// else `span`: the model keeps where a fact's value is, a finding about it points at its key.
fn key_of_value(entry: &Node, span: Span) -> Span {
    let members = entry.as_object().unwrap_or_default();
    for member in members {
        if member.value.span == span {
            return member.key_span;
        }
        for inner in member.value.as_object().unwrap_or_default() {
            if inner.value.span == span {
                return inner.key_span;
            }
        }
    }
    span
}

/// A TOOL.md as an entity: its frontmatter keys as written, and `path`.
fn contract_entity<'a>(
    unit: &Unit<'a>,
    contract: Contract<'a>,
    wanted: &Wanted,
) -> Option<Entity<'a>> {
    let fm = contract.fm?;
    let mut b = Builder::new(wanted);
    let anchor = contract.anchor();
    b.members(Some(&fm.root));
    if !b.has("path") {
        b.str(
            "path",
            &unit.repo.file(contract.file).rel_path,
            Origin::Span(anchor),
        );
    }
    let label = match contract.id() {
        Some(id) => format!("contract `{id}`"),
        None => format!("contract {}", unit.repo.file(contract.file).rel_path),
    };
    Some(b.finish(contract.file, anchor, Label::Text(label)))
}

/// The unit's TOOL.md.
pub fn contracts<'a>(unit: &Unit<'a>, wanted: &Wanted) -> Vec<Entity<'a>> {
    unit.contract()
        .and_then(|(file, doc)| contract_entity(unit, Contract::new(file, Some(doc)), wanted))
        .into_iter()
        .collect()
}

/// The unit's DRIVER.md / CLI.md files: their keys, `kind` (`cli` for a CLI.md without one) and
/// `tool`, the contract the first resolved `implements` entry binds.
pub fn drivers<'a>(unit: &Unit<'a>, wanted: &Wanted) -> Vec<Entity<'a>> {
    unit.driver_bindings()
        .iter()
        .map(|(driver, bindings)| {
            let mut b = Builder::new(wanted);
            let anchor = driver.kind_span();
            if let Some(binding) = bindings.first().filter(|_| b.wants("tool")) {
                if let Some(contract) =
                    contract_entity(unit, binding.contract, &Wanted::everything())
                {
                    b.link("tool", contract);
                }
            }
            if driver.cli && driver.fm.root.get("kind").is_none() {
                b.str("kind", "cli", Origin::Span(anchor));
            }
            b.members(Some(&driver.fm.root));
            let label = format!("driver {}", unit.repo.file(driver.file).rel_path);
            b.finish(driver.file, anchor, Label::Text(label))
        })
        .collect()
}

/// Every entry of the unit's SECRETS.md `secrets:` list.
pub fn secrets<'a>(unit: &Unit<'a>, wanted: &Wanted) -> Vec<Entity<'a>> {
    let Some((file, doc)) = unit.secrets() else {
        return Vec::new();
    };
    let entries = doc
        .frontmatter()
        .and_then(|fm| fm.root.get("secrets"))
        .and_then(Node::as_array)
        .unwrap_or_default();
    entries
        .iter()
        .filter(|entry| entry.is_object())
        .map(|entry| {
            let mut b = Builder::new(wanted);
            b.members(Some(entry));
            let anchor = entry.get("slug").map_or(entry.span, |n| n.span);
            let label = match entry.get("slug").and_then(Node::as_str) {
                Some(slug) => format!("secret `{slug}`"),
                None => "secret".to_string(),
            };
            b.finish(file, anchor, Label::Text(label))
        })
        .collect()
}

/// Every item of the skill's Tool Use Rules section: `text`, and `tools`, the names of the unit's
/// tools it mentions.
pub fn tool_use_rules<'a>(unit: &Unit<'a>, wanted: &Wanted) -> Vec<Entity<'a>> {
    let Some((_, items)) = unit.tool_use_rules() else {
        return Vec::new();
    };
    let Some((file, _)) = unit.skill() else {
        return Vec::new();
    };
    // Which tools each item names, as the TR rules read the items.
    let mut named_by: Vec<Vec<&str>> = vec![Vec::new(); items.len()];
    let names = if wanted.wants("tools") {
        unit.tools().filter_map(|(_, t)| t.name()).collect()
    } else {
        Vec::new()
    };
    for name in names {
        for position in unit.items_naming(name).iter() {
            if let Some(names) = named_by.get_mut(*position) {
                names.push(name);
            }
        }
    }
    items
        .iter()
        .zip(named_by)
        .map(|(item, mut named)| {
            let mut b = Builder::new(wanted);
            b.str("text", &item.text, Origin::Span(item.span));
            if b.wants("tools") {
                named.sort_unstable();
                named.dedup();
                b.set(
                    "tools",
                    Value::List(Arc::new(named.iter().map(|n| string(n)).collect())),
                    Origin::Span(item.span),
                );
            }
            b.finish(file, item.span, Label::Item(&item.text))
        })
        .collect()
}

/// The entities of one kind in a unit.
pub fn of_kind<'a>(unit: &Unit<'a>, kind: Kind, wanted: &Wanted) -> Vec<Entity<'a>> {
    match kind {
        Kind::Skill => skill(unit, wanted).into_iter().collect(),
        Kind::Tool => tools(unit, wanted),
        Kind::ToolUseRule => tool_use_rules(unit, wanted),
        Kind::Contract => contracts(unit, wanted),
        Kind::Driver => drivers(unit, wanted),
        Kind::Secret => secrets(unit, wanted),
    }
}

/// A YAML or JSON value as a CEL value; `largest` keeps the longest list or map seen.
fn to_cel(node: &Node, largest: &mut u64) -> Value {
    match &node.value {
        NodeValue::Null => Value::Null,
        NodeValue::Bool(b) => Value::Bool(*b),
        NodeValue::Number(n) => match n.raw.parse::<i64>() {
            Ok(i) if n.integer => Value::Int(i),
            _ => Value::Float(n.value),
        },
        NodeValue::String(s) => Value::String(Arc::new(s.clone())),
        NodeValue::Array(items) => {
            *largest = (*largest).max(items.len() as u64);
            Value::List(Arc::new(items.iter().map(|i| to_cel(i, largest)).collect()))
        }
        NodeValue::Object(members) => {
            *largest = (*largest).max(members.len() as u64);
            let mut map = HashMap::with_capacity(members.len());
            for member in members {
                map.entry(Key::from(member.key.as_str()))
                    .or_insert_with(|| to_cel(&member.value, largest));
            }
            Value::Map(cel::objects::Map { map: Arc::new(map) })
        }
    }
}

/// A CEL value from a test case's YAML (no spans needed: nothing is located).
pub fn value_of(node: &Node) -> (Value, u64) {
    let mut largest = 0;
    let value = to_cel(node, &mut largest);
    (value, largest)
}
