//! `tools.json` in five dialects (forge, MCP, OpenAI in its wrapped and flat forms, Anthropic,
//! script), normalised into one `Tool` model so the schema-quality and cross-contract rules are
//! written once.
//!
//! Reading a file takes three steps. The container: a root array, a `tools` or `functions` array,
//! or a JSON-RPC `result.tools`. Whether it is a tool list at all: a `tools.json` that belongs to
//! another program (a project manifest, a list of names) is set aside whole (TJ014) instead of
//! being reported entry by entry. Then each entry's shape, detected on its own: one file holds one
//! shape, so an entry of another shape is a problem (TJ002).

use crate::parse::json::{parse_json_document, DuplicateKey, JsonError};
use crate::parse::node::{pointer_token, Member, Node, Value};
use crate::source::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    /// The agent-skill-forge contract: `type: read|write`, `requiresConfirmation`, `idempotent`.
    Forge,
    /// MCP `Tool` objects.
    Mcp,
    /// OpenAI function tools: wrapped (`{"type": "function", "function": {...}}`, Chat
    /// Completions) or flat (`{"type": "function", "name", "parameters"}` of the Responses API, and
    /// the legacy bare `{"name", "parameters"}` of `functions`).
    OpenAi,
    /// "Skill Tools Specification" entries with a `script`.
    Script,
    /// Anthropic Messages API tools: `{"name", "description", "input_schema"}`, and the tools
    /// Anthropic defines itself (`{"type": "web_search_20250305", "name": "web_search"}`).
    Anthropic,
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Forge => "forge",
            Dialect::Mcp => "MCP",
            Dialect::OpenAi => "OpenAI",
            Dialect::Script => "script",
            Dialect::Anthropic => "Anthropic",
        }
    }
}

/// How an entry is written: its dialect and, for OpenAI, whether the definition is wrapped in a
/// `function` object or flat. No API accepts both OpenAI forms in one list, so they count as two
/// shapes when a file is checked for mixing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Forge,
    Mcp,
    OpenAiWrapped,
    OpenAiFlat,
    Script,
    Anthropic,
}

impl Shape {
    pub fn dialect(self) -> Dialect {
        match self {
            Shape::Forge => Dialect::Forge,
            Shape::Mcp => Dialect::Mcp,
            Shape::OpenAiWrapped | Shape::OpenAiFlat => Dialect::OpenAi,
            Shape::Script => Dialect::Script,
            Shape::Anthropic => Dialect::Anthropic,
        }
    }

    /// "an MCP tool", for messages.
    pub fn described(self) -> &'static str {
        match self {
            Shape::Forge => "a forge tool",
            Shape::Mcp => "an MCP tool",
            Shape::OpenAiWrapped => "an OpenAI tool wrapped in `function`",
            Shape::OpenAiFlat => "a flat OpenAI tool",
            Shape::Script => "a script tool",
            Shape::Anthropic => "an Anthropic tool",
        }
    }

    /// The key a tool of this shape is recognised by, for "expected …" labels.
    fn key(self) -> &'static str {
        match self {
            Shape::Forge => "type",
            Shape::Mcp => "inputSchema",
            Shape::OpenAiWrapped => "function",
            Shape::OpenAiFlat => "parameters",
            Shape::Script => "script",
            Shape::Anthropic => "input_schema",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideEffect {
    Read,
    Write,
    Unknown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub dialect: Dialect,
    /// The entry exactly as written.
    pub entry: Node,
    /// JSON pointer of the entry in its file (e.g. `/tools/2`).
    pub pointer: String,
    pub side_effect: SideEffect,
    /// Where the side effect is declared (`"type": "write"`, `readOnlyHint`).
    pub side_effect_span: Option<Span>,
    /// `requiresConfirmation` as written (forge only).
    pub confirmation: Option<(bool, Span)>,
    /// `idempotent` (forge) or `annotations.idempotentHint` (MCP) as written.
    pub idempotent: Option<(bool, Span)>,
    /// Script parameters converted to JSON Schema (spans into the file); the other dialects'
    /// schemas are read in place from `entry`.
    pub converted_schema: Option<Node>,
    /// A tool its provider defines (Anthropic's `web_search_20250305`, `bash_20250124`…): the
    /// entry names and configures it, the provider supplies its description and input schema, so
    /// the rules about writing those do not apply to it.
    pub provider_defined: bool,
    /// The key of the definition that names the tool: `name`, or `type` for an OpenAI built-in
    /// tool (`{"type": "web_search"}`).
    name_key: &'static str,
}

impl Tool {
    /// The input schema as JSON Schema, whatever the dialect.
    pub fn schema(&self) -> Option<&Node> {
        match self.dialect {
            Dialect::Forge | Dialect::Mcp => self.entry.get("inputSchema"),
            Dialect::Anthropic => self.entry.get("input_schema"),
            Dialect::OpenAi => self.definition().get("parameters"),
            Dialect::Script => self.converted_schema.as_ref(),
        }
    }

    /// The function object of a wrapped OpenAI tool, else the entry itself.
    pub fn definition(&self) -> &Node {
        match self.dialect {
            Dialect::OpenAi => self
                .entry
                .get("function")
                .filter(|f| f.is_object())
                .unwrap_or(&self.entry),
            _ => &self.entry,
        }
    }

    pub fn name_node(&self) -> Option<&Node> {
        self.definition().get(self.name_key)
    }

    pub fn name(&self) -> Option<&str> {
        self.name_node().and_then(Node::as_str)
    }

    /// Where a diagnostic about the tool as a whole points: its `name` value, else the entry.
    pub fn span(&self) -> Span {
        self.name_node().map_or(self.entry.span, |n| n.span)
    }

    pub fn display_name(&self) -> String {
        self.name()
            .map_or_else(|| "<unnamed>".to_string(), str::to_string)
    }

    pub fn description(&self) -> Option<&Node> {
        self.definition().get("description")
    }

    pub fn annotations(&self) -> Option<&Node> {
        self.definition()
            .get("annotations")
            .filter(|a| a.is_object())
    }

    pub fn is_confirmation_gated(&self) -> bool {
        matches!(self.confirmation, Some((true, _)))
    }

    pub fn is_idempotent(&self) -> bool {
        matches!(self.idempotent, Some((true, _)))
    }

    pub fn is_write(&self) -> bool {
        self.side_effect == SideEffect::Write
    }

    /// `properties.<name>` of the input schema.
    pub fn property(&self, name: &str) -> Option<&Member> {
        self.schema()?.get("properties")?.member(name)
    }

    pub fn property_names(&self) -> impl Iterator<Item = &str> {
        self.schema()
            .and_then(|s| s.get("properties"))
            .and_then(Node::as_object)
            .into_iter()
            .flatten()
            .map(|m| m.key.as_str())
    }

    /// The `required` entry naming `name`, if any.
    pub fn required_entry(&self, name: &str) -> Option<&Node> {
        self.schema()?
            .get("required")?
            .as_array()?
            .iter()
            .find(|n| n.as_str() == Some(name))
    }

    /// True when `name` is a property of `type` and listed in `required`.
    pub fn has_required_property(&self, name: &str, json_type: &str) -> bool {
        let typed = self
            .property(name)
            .and_then(|m| m.value.get("type"))
            .and_then(Node::as_str)
            == Some(json_type);
        typed && self.required_entry(name).is_some()
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolsDoc {
    pub dialect: Option<Dialect>,
    pub tools: Vec<Tool>,
    /// Shape problems of a tool list: a list that is not an array, entries of no or of mixed
    /// dialects (TJ002).
    pub problems: Vec<ShapeProblem>,
    /// Set when the file is no tool list in any dialect; then nothing else is filled in (TJ014).
    pub not_a_tool_list: Option<NotToolList>,
    pub duplicate_keys: Vec<DuplicateKey>,
    pub parse_error: Option<JsonError>,
}

/// A tool list whose shape is wrong: the message names the JSON path, the label (short) sits on
/// the offending key, or on the entry's opening when no key is to blame.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeProblem {
    pub kind: ShapeProblemKind,
    pub span: Span,
    pub message: String,
    pub label: String,
    pub secondary: Option<(Span, String)>,
    /// For an entry of no dialect in a file whose first tool has one: the key that tool's dialect
    /// is recognised by (`inputSchema`), and the dialect.
    pub expected: Option<(&'static str, Dialect)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeProblemKind {
    /// The tools are there but not as an array (a single tool object, tools keyed by name).
    Container,
    /// An entry that is no tool of any dialect.
    Entry,
    /// An entry of a different dialect (or OpenAI form) from the file's first tool.
    Mixed,
}

/// Why a file is no tool list: where to point (the `tools` key, else the root's opening) and what
/// was found there.
#[derive(Debug, Clone, PartialEq)]
pub struct NotToolList {
    pub span: Span,
    pub label: String,
}

/// Every key some dialect defines on a tool entry (for Anthropic's own tools, the dated `type`
/// decides instead). An entry with a `name` and no key outside these looks like a tool even when
/// its schema is missing; a key foreign to every dialect (`version`, `path`, `auth`) says the
/// list is some other program's.
const DIALECT_KEYS: [&str; 22] = [
    "name",
    "title",
    "description",
    "type",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "execution",
    "_meta",
    "requiresConfirmation",
    "idempotent",
    "function",
    "parameters",
    "strict",
    "script",
    "input_schema",
    "cache_control",
    "defer_loading",
    "input_examples",
    "allowed_callers",
    "eager_input_streaming",
];

/// The keys that hold a list of tools in an object, in the order they are looked for.
const CONTAINER_KEYS: [&str; 2] = ["tools", "functions"];

pub fn parse_tools(text: &str) -> ToolsDoc {
    let mut doc = ToolsDoc::default();
    let parsed = match parse_json_document(text) {
        Ok(parsed) => parsed,
        Err(error) => {
            doc.parse_error = Some(error);
            return doc;
        }
    };
    let list = match take_list(parsed.root) {
        Contents::List(list) => list,
        Contents::Broken(problem) => {
            doc.duplicate_keys = parsed.duplicate_keys;
            doc.problems.push(problem);
            return doc;
        }
        Contents::NotAList(why) => {
            doc.not_a_tool_list = Some(why);
            return doc;
        }
    };
    let detected: Vec<Option<Detected>> = list.entries.iter().map(detect).collect();
    if let Some(label) = not_a_tool_list(&list, &detected) {
        doc.not_a_tool_list = Some(NotToolList {
            span: list.anchor,
            label,
        });
        return doc;
    }
    doc.duplicate_keys = parsed.duplicate_keys;
    let first = detected.iter().flatten().next().copied();
    doc.dialect = first.map(|d| d.shape.dialect());
    for (index, (entry, own)) in list.entries.into_iter().zip(detected).enumerate() {
        let pointer = format!("{}/{index}", list.pointer);
        if !entry.is_object() {
            doc.problems.push(ShapeProblem {
                kind: ShapeProblemKind::Entry,
                span: opening(&entry),
                message: format!(
                    "`{pointer}` must be a tool object, found {}",
                    entry.type_name()
                ),
                label: "expected an object".to_string(),
                secondary: None,
                expected: None,
            });
            continue;
        }
        let shape = match (own, first) {
            (Some(own), Some(first)) if own.shape != first.shape => {
                doc.problems.push(ShapeProblem {
                    kind: ShapeProblemKind::Mixed,
                    span: own.marker,
                    message: format!(
                        "`{pointer}` is {} but the file's first tool is {}; one file holds one dialect",
                        own.shape.described(),
                        first.shape.described()
                    ),
                    label: format!("makes this {}", own.shape.described()),
                    secondary: Some((
                        first.marker,
                        format!("the first tool is {}", first.shape.described()),
                    )),
                    expected: None,
                });
                continue;
            }
            (Some(own), _) => own.shape,
            // An unmarked entry in a forge file is a forge entry with keys missing: TJ002
            // explains what is missing better than "no dialect" would. An OpenAI function may
            // omit `parameters` (no arguments), so a bare `{name, description}` among flat
            // OpenAI tools is one of them.
            (None, Some(first)) if matches!(first.shape, Shape::Forge | Shape::OpenAiFlat) => {
                first.shape
            }
            (None, first) => {
                let (message, label) = match first {
                    Some(first) => (
                        format!(
                            "`{pointer}` matches no tools.json dialect; the file's first tool is {}",
                            first.shape.described()
                        ),
                        format!("expected `{}`", first.shape.key()),
                    ),
                    None => (
                        format!("`{pointer}` matches no tools.json dialect"),
                        "no `inputSchema`, `input_schema`, `parameters` or `script`".to_string(),
                    ),
                };
                doc.problems.push(ShapeProblem {
                    kind: ShapeProblemKind::Entry,
                    span: entry
                        .member("name")
                        .map_or_else(|| opening(&entry), |m| m.value.span),
                    message,
                    label,
                    secondary: None,
                    expected: first.map(|f| (f.shape.key(), f.shape.dialect())),
                });
                continue;
            }
        };
        doc.tools.push(normalise(entry, shape.dialect(), pointer));
    }
    doc
}

/// A list of tool entries moved out of the parsed file (no copy).
struct List {
    entries: Vec<Node>,
    /// JSON pointer of the array (`""`, `/tools`, `/result/tools`).
    pointer: &'static str,
    /// The array sits under a key that names it a list of tools (`tools`, `functions`).
    named: bool,
    /// Where a "not a tool list" finding points: the key holding the array, else the root's
    /// opening bracket.
    anchor: Span,
}

enum Contents {
    List(List),
    /// Tools written other than as an array: a TJ002 finding.
    Broken(ShapeProblem),
    /// No tool list at all: a TJ014 finding.
    NotAList(NotToolList),
}

/// Finds the array of tools: the root array, a `tools` or `functions` array, a JSON-RPC
/// `result.tools`. Without one, decides whether the file holds tools written some other way
/// (TJ002) or is no tool list (TJ014).
fn take_list(root: Node) -> Contents {
    let anchor = opening(&root);
    let span = root.span;
    let mut root = match root.value {
        Value::Array(entries) => {
            return Contents::List(List {
                entries,
                pointer: "",
                named: false,
                anchor,
            })
        }
        value => Node::new(span, value),
    };
    for (key, pointer) in CONTAINER_KEYS.into_iter().zip(["/tools", "/functions"]) {
        let Some(member) = root.member(key).filter(|m| m.value.as_array().is_some()) else {
            continue;
        };
        let anchor = member.key_span;
        if let Some(Value::Array(entries)) = take_member(&mut root, key).map(|n| n.value) {
            return Contents::List(List {
                entries,
                pointer,
                named: true,
                anchor,
            });
        }
    }
    let rpc = root
        .member("result")
        .filter(|r| r.value.get("tools").and_then(Node::as_array).is_some())
        .map(|r| r.key_span);
    if let Some(anchor) = rpc {
        let tools = take_member(&mut root, "result").and_then(|mut r| take_member(&mut r, "tools"));
        if let Some(Value::Array(entries)) = tools.map(|n| n.value) {
            return Contents::List(List {
                entries,
                pointer: "/result/tools",
                named: true,
                anchor,
            });
        }
    }
    without_list(&root, anchor)
}

/// A file with no array of tools: a single tool object or tools keyed by name are tools written
/// wrongly; anything else is no tool list.
fn without_list(root: &Node, anchor: Span) -> Contents {
    let Some(members) = root.as_object() else {
        return Contents::NotAList(NotToolList {
            span: root.span,
            label: format!("{} JSON {}", article(root.type_name()), root.type_name()),
        });
    };
    if detect(root).is_some() {
        return Contents::Broken(ShapeProblem {
            kind: ShapeProblemKind::Container,
            span: anchor,
            message: "expected an array of tools, found a single tool object".to_string(),
            label: "one tool, not a list".to_string(),
            secondary: None,
            expected: None,
        });
    }
    let Some(member) = members
        .iter()
        .find(|m| CONTAINER_KEYS.contains(&m.key.as_str()))
    else {
        return Contents::NotAList(NotToolList {
            span: anchor,
            label: "an object with no `tools` array".to_string(),
        });
    };
    let value = &member.value;
    let holds_tools = detect(value).is_some()
        || value
            .as_object()
            .is_some_and(|tools| tools.iter().any(|t| detect(&t.value).is_some()));
    let found = format!("{} {}", article(value.type_name()), value.type_name());
    if holds_tools {
        return Contents::Broken(ShapeProblem {
            kind: ShapeProblemKind::Container,
            span: member.key_span,
            message: format!(
                "`/{}` must be an array of tools, found {found}",
                pointer_token(&member.key)
            ),
            label: "expected an array".to_string(),
            secondary: None,
            expected: None,
        });
    }
    Contents::NotAList(NotToolList {
        span: member.key_span,
        label: format!("`{}` holds {found}, not an array of tools", member.key),
    })
}

/// Why an array found where tools belong is no tool list, or `None` when it is one: empty, or
/// with an entry of some dialect, or with a majority of entries that look like tools.
fn not_a_tool_list(list: &List, detected: &[Option<Detected>]) -> Option<String> {
    if list.entries.is_empty() || detected.iter().any(Option::is_some) {
        return None;
    }
    let looks_like_tools = list
        .entries
        .iter()
        .filter(|e| looks_like_tool(e, list.named))
        .count();
    if looks_like_tools * 2 > list.entries.len() {
        return None;
    }
    let types: Vec<&str> = list.entries.iter().map(Node::type_name).collect();
    let uniform = types.windows(2).all(|pair| pair[0] == pair[1]);
    let what = match types.first() {
        Some(&kind) if uniform && kind != "object" => format!("an array of {kind}s"),
        _ => "an array whose entries are not tools".to_string(),
    };
    Some(if list.pointer.is_empty() {
        what
    } else {
        format!("`{}` holds {what}", list.pointer.trim_start_matches('/'))
    })
}

/// An object with a `name` and only keys some dialect defines: a tool with its schema missing.
/// In a bare array it also needs a key besides `name`; under a `tools` or `functions` key, whose
/// name already says what the list holds, the `name` is enough.
fn looks_like_tool(entry: &Node, named_list: bool) -> bool {
    let Some(members) = entry.as_object() else {
        return false;
    };
    members.iter().any(|m| m.key == "name")
        && members
            .iter()
            .all(|m| DIALECT_KEYS.contains(&m.key.as_str()))
        && (named_list || members.len() > 1)
}

fn article(type_name: &str) -> &'static str {
    if matches!(type_name, "array" | "object" | "integer") {
        "an"
    } else {
        "a"
    }
}

/// A one-character span on an object's or array's opening bracket (a JSON container starts with
/// an ASCII `{` or `[`); a scalar's whole span.
fn opening(node: &Node) -> Span {
    match node.value {
        Value::Object(_) | Value::Array(_) if !node.span.is_empty() => {
            Span::new(node.span.start, node.span.start + 1)
        }
        _ => node.span,
    }
}

fn take_member(node: &mut Node, key: &str) -> Option<Node> {
    let Value::Object(members) = &mut node.value else {
        return None;
    };
    let index = members.iter().position(|m| m.key == key)?;
    Some(members.swap_remove(index).value)
}

/// An entry's shape and the key that decided it.
#[derive(Debug, Clone, Copy)]
struct Detected {
    shape: Shape,
    marker: Span,
}

/// The shape of one entry. The first rule that matches wins (rules/TJ002.md lists the order):
///
/// 1. `script` → script (its `parameters` are a map of parameter specs, not a schema);
/// 2. a `function` object, or `type: "function"` → OpenAI, wrapped when `function` is there,
///    else flat (Responses API); a nameless entry whose `type` is one of the Responses API's
///    built-in tools (`web_search`, `file_search`…) → flat OpenAI too;
/// 3. `type: "read"` / `"write"`, or `requiresConfirmation` → forge;
/// 4. `inputSchema` → MCP;
/// 5. `input_schema`, or a dated `type` such as `web_search_20250305` → Anthropic;
/// 6. a `parameters` object → flat OpenAI (the legacy `functions` entry).
fn detect(entry: &Node) -> Option<Detected> {
    let members = entry.as_object()?;
    let member = |key: &str| members.iter().find(|m| m.key == key);
    let found = |shape, member: &Member| {
        Some(Detected {
            shape,
            marker: member.key_span,
        })
    };
    if let Some(script) = member("script") {
        return found(Shape::Script, script);
    }
    let kind = member("type");
    let kind_text = kind.and_then(|k| k.value.as_str());
    let function = member("function");
    if let Some(function) =
        function.filter(|f| f.value.is_object() || kind_text == Some("function"))
    {
        return found(Shape::OpenAiWrapped, function);
    }
    if let (Some(kind), Some("function")) = (kind, kind_text) {
        return found(Shape::OpenAiFlat, kind);
    }
    if let (Some(kind), Some(text)) = (kind, kind_text) {
        if is_openai_builtin_type(text) && member("name").is_none() {
            return found(Shape::OpenAiFlat, kind);
        }
    }
    if let (Some(kind), Some("read" | "write")) = (kind, kind_text) {
        return found(Shape::Forge, kind);
    }
    if let Some(flag) = member("requiresConfirmation") {
        return found(Shape::Forge, flag);
    }
    if let Some(schema) = member("inputSchema") {
        return found(Shape::Mcp, schema);
    }
    if let Some(schema) = member("input_schema") {
        return found(Shape::Anthropic, schema);
    }
    if let (Some(kind), Some(text)) = (kind, kind_text) {
        if is_dated_tool_type(text) {
            return found(Shape::Anthropic, kind);
        }
    }
    if let Some(parameters) = member("parameters").filter(|p| p.value.is_object()) {
        return found(Shape::OpenAiFlat, parameters);
    }
    None
}

/// An Anthropic-defined tool type: a lowercase name and an eight-digit version date
/// (`web_search_20250305`, `text_editor_20250728`).
fn is_dated_tool_type(text: &str) -> bool {
    let Some((name, date)) = text.rsplit_once('_') else {
        return false;
    };
    date.len() == 8
        && date.bytes().all(|b| b.is_ascii_digit())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The tools OpenAI's Responses API defines itself (`{"type": "web_search"}`): listed with the
/// functions, configured by other keys, and named by their type. A dated preview
/// (`web_search_preview_2025_03_11`) counts as its base type.
fn is_openai_builtin_type(text: &str) -> bool {
    // `_YYYY_MM_DD`: underscores at 0, 5 and 8, digits elsewhere.
    const DATE_LEN: usize = 11;
    let is_date = |suffix: &[u8]| {
        suffix.iter().enumerate().all(|(i, b)| match i {
            0 | 5 | 8 => *b == b'_',
            _ => b.is_ascii_digit(),
        })
    };
    let base = match text.len().checked_sub(DATE_LEN) {
        Some(cut) if is_date(&text.as_bytes()[cut..]) => &text[..cut],
        _ => text,
    };
    OPENAI_BUILTIN_TOOLS.contains(&base)
}

const OPENAI_BUILTIN_TOOLS: [&str; 11] = [
    "web_search",
    "web_search_preview",
    "file_search",
    "code_interpreter",
    "computer_use_preview",
    "image_generation",
    "mcp",
    "local_shell",
    "shell",
    "apply_patch",
    "computer",
];

/// OpenAI-defined tools that only read.
const READ_ONLY_OPENAI_TOOLS: [&str; 3] = ["web_search", "web_search_preview", "file_search"];

/// Anthropic-defined tools that only read (search and fetch pages, search the tool list).
const READ_ONLY_PROVIDER_TOOLS: [&str; 3] = ["web_search", "web_fetch", "tool_search_tool"];

fn bool_member(node: Option<&Node>, key: &str) -> Option<(bool, Span)> {
    let value = node?.get(key)?;
    value.as_bool().map(|b| (b, value.span))
}

/// Whether a provider's tool type is one of `names`, bare or with a version suffix
/// (`web_search`, `web_search_20250305`).
fn is_one_of(text: &str, names: &[&str]) -> bool {
    names.iter().any(|name| {
        text.strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
    })
}

impl Tool {
    /// A tool its provider defines, declared by the `type` at `span`: only the read-only ones
    /// have a known side effect.
    fn mark_provider_defined(&mut self, span: Span, read_only: bool) {
        self.provider_defined = true;
        if read_only {
            self.side_effect = SideEffect::Read;
            self.side_effect_span = Some(span);
        }
    }
}

fn normalise(entry: Node, dialect: Dialect, pointer: String) -> Tool {
    let mut tool = Tool {
        dialect,
        pointer,
        side_effect: SideEffect::Unknown,
        side_effect_span: None,
        confirmation: None,
        idempotent: None,
        converted_schema: None,
        provider_defined: false,
        name_key: "name",
        entry,
    };
    match dialect {
        Dialect::Forge => {
            if let Some(kind) = tool.entry.get("type") {
                tool.side_effect = match kind.as_str() {
                    Some("read") => SideEffect::Read,
                    Some("write") => SideEffect::Write,
                    _ => SideEffect::Unknown,
                };
                tool.side_effect_span = Some(kind.span);
            }
            tool.confirmation = bool_member(Some(&tool.entry), "requiresConfirmation");
            tool.idempotent = bool_member(Some(&tool.entry), "idempotent");
        }
        Dialect::Mcp => {
            let annotations = tool.entry.get("annotations");
            let read_only = bool_member(annotations, "readOnlyHint");
            let destructive = bool_member(annotations, "destructiveHint");
            (tool.side_effect, tool.side_effect_span) = match (read_only, destructive) {
                (Some((true, span)), _) => (SideEffect::Read, Some(span)),
                (Some((false, span)), _) => (SideEffect::Write, Some(span)),
                (None, Some((true, span))) => (SideEffect::Write, Some(span)),
                _ => (SideEffect::Unknown, None),
            };
            tool.idempotent = bool_member(annotations, "idempotentHint");
        }
        Dialect::Anthropic => {
            let provider_type = tool
                .entry
                .get("type")
                .filter(|t| t.as_str().is_some_and(is_dated_tool_type));
            if let Some(kind) = provider_type.filter(|_| tool.entry.get("input_schema").is_none()) {
                let (span, text) = (kind.span, kind.as_str().unwrap_or_default().to_string());
                tool.mark_provider_defined(span, is_one_of(&text, &READ_ONLY_PROVIDER_TOOLS));
            }
        }
        Dialect::OpenAi => {
            let builtin = tool
                .entry
                .get("type")
                .filter(|t| t.as_str().is_some_and(is_openai_builtin_type));
            if let Some(kind) = builtin.filter(|_| tool.entry.get("name").is_none()) {
                let (span, text) = (kind.span, kind.as_str().unwrap_or_default().to_string());
                tool.mark_provider_defined(span, is_one_of(&text, &READ_ONLY_OPENAI_TOOLS));
                tool.name_key = "type";
            }
        }
        Dialect::Script => {
            tool.converted_schema = tool.entry.get("parameters").map(script_parameters_schema);
        }
    }
    tool
}

/// Converts script-dialect parameters (`{p: {type, description, enum?, optional?}}`) into the JSON
/// Schema they describe, keeping the original spans.
fn script_parameters_schema(parameters: &Node) -> Node {
    let span = parameters.span;
    let mut properties = Vec::new();
    let mut required = Vec::new();
    for member in parameters.as_object().unwrap_or_default() {
        let optional = member
            .value
            .get("optional")
            .and_then(Node::as_bool)
            .unwrap_or(false);
        if !optional {
            required.push(Node::new(
                member.key_span,
                Value::String(member.key.clone()),
            ));
        }
        let mut property = member.value.clone();
        if let Value::Object(fields) = &mut property.value {
            fields.retain(|f| f.key != "optional");
        }
        properties.push(Member {
            key: member.key.clone(),
            key_span: member.key_span,
            value: property,
        });
    }
    let string = |s: &str| Node::new(span, Value::String(s.to_string()));
    let member = |key: &str, value: Node| Member {
        key: key.to_string(),
        key_span: span,
        value,
    };
    Node::new(
        span,
        Value::Object(vec![
            member("type", string("object")),
            member("properties", Node::new(span, Value::Object(properties))),
            member("required", Node::new(span, Value::Array(required))),
        ]),
    )
}

/// JSON pointer of a property inside the tool's entry, for messages.
pub fn property_pointer(tool: &Tool, property: &str) -> String {
    let schema = match tool.dialect {
        Dialect::Forge | Dialect::Mcp => "/inputSchema",
        Dialect::Anthropic => "/input_schema",
        Dialect::OpenAi if tool.entry.get("function").is_some_and(Node::is_object) => {
            "/function/parameters"
        }
        Dialect::OpenAi | Dialect::Script => "/parameters",
    };
    format!(
        "{}{schema}/properties/{}",
        tool.pointer,
        pointer_token(property)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_dialect() {
        let forge = parse_tools(
            r#"[{"name": "a", "type": "write", "requiresConfirmation": true, "inputSchema": {"type": "object"}}]"#,
        );
        assert_eq!(forge.dialect, Some(Dialect::Forge));
        assert!(forge.tools[0].is_write() && forge.tools[0].is_confirmation_gated());

        let mcp = parse_tools(
            r#"{"server_info": {}, "tools": [{"name": "a", "inputSchema": {}, "annotations": {"readOnlyHint": true}}]}"#,
        );
        assert_eq!(mcp.dialect, Some(Dialect::Mcp));
        assert_eq!(mcp.tools[0].side_effect, SideEffect::Read);
        assert_eq!(mcp.tools[0].pointer, "/tools/0");

        let rpc = parse_tools(
            r#"{"jsonrpc": "2.0", "result": {"tools": [{"name": "a", "inputSchema": {}}]}}"#,
        );
        assert_eq!(rpc.dialect, Some(Dialect::Mcp));

        let openai = parse_tools(
            r#"[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]"#,
        );
        assert_eq!(openai.dialect, Some(Dialect::OpenAi));
        assert_eq!(openai.tools[0].name(), Some("f"));
        assert!(openai.tools[0].schema().is_some());

        let script = parse_tools(
            r#"[{"name": "s", "script": "run.sh", "parameters": {"p": {"type": "string"}, "q": {"type": "string", "optional": true}}}]"#,
        );
        assert_eq!(script.dialect, Some(Dialect::Script));
        let tool = &script.tools[0];
        assert!(tool.required_entry("p").is_some());
        assert!(tool.required_entry("q").is_none());
        assert!(tool
            .property("q")
            .is_some_and(|m| m.value.get("optional").is_none()));
    }

    #[test]
    fn anthropic_tools_and_provider_defined_tools() {
        let doc = parse_tools(
            r#"{"tools": [
                {"name": "get_forecast", "description": "d", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}, "cache_control": {"type": "ephemeral"}},
                {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
                {"type": "bash_20250124", "name": "bash"}
            ]}"#,
        );
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        assert_eq!(doc.dialect, Some(Dialect::Anthropic));
        let [client, search, bash] = doc.tools.as_slice() else {
            panic!("three tools expected, got {}", doc.tools.len());
        };
        assert!(client.schema().is_some() && client.property("city").is_some());
        assert!(!client.provider_defined);
        assert_eq!(
            property_pointer(client, "city"),
            "/tools/0/input_schema/properties/city"
        );
        assert!(search.provider_defined && search.schema().is_none());
        assert_eq!(search.side_effect, SideEffect::Read);
        assert!(bash.provider_defined);
        assert_eq!(bash.side_effect, SideEffect::Unknown);
        assert_eq!(bash.name(), Some("bash"));
    }

    #[test]
    fn openai_flat_forms_and_the_functions_container() {
        let responses = parse_tools(
            r#"[{"type": "function", "name": "f", "description": "d", "parameters": {"type": "object"}, "strict": true}]"#,
        );
        assert_eq!(responses.dialect, Some(Dialect::OpenAi));
        assert_eq!(responses.tools[0].name(), Some("f"));
        assert_eq!(
            property_pointer(&responses.tools[0], "x"),
            "/0/parameters/properties/x"
        );

        // The legacy `functions` list: bare definitions, `parameters` optional.
        let legacy = parse_tools(
            r#"{"functions": [{"name": "f", "description": "d", "parameters": {"type": "object"}}, {"name": "g", "description": "no arguments"}]}"#,
        );
        assert!(legacy.problems.is_empty(), "{:?}", legacy.problems);
        assert_eq!(legacy.tools.len(), 2);
        assert_eq!(legacy.tools[1].pointer, "/functions/1");
        assert!(legacy.tools[1].schema().is_none());

        // Wrapped and flat OpenAI tools in one list suit no API.
        let mixed = parse_tools(
            r#"[{"type": "function", "function": {"name": "f"}}, {"type": "function", "name": "g", "parameters": {}}]"#,
        );
        assert_eq!(mixed.problems.len(), 1);
        assert_eq!(mixed.problems[0].kind, ShapeProblemKind::Mixed);
    }

    #[test]
    fn openai_builtin_tools_are_named_by_their_type() {
        let doc = parse_tools(
            r#"{"tools": [{"type": "web_search_preview_2025_03_11"}, {"type": "code_interpreter", "container": {"type": "auto"}}, {"type": "function", "name": "f", "parameters": {"type": "object"}}]}"#,
        );
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        assert_eq!(doc.dialect, Some(Dialect::OpenAi));
        let search = &doc.tools[0];
        assert!(search.provider_defined && search.schema().is_none());
        assert_eq!(search.name(), Some("web_search_preview_2025_03_11"));
        assert_eq!(search.side_effect, SideEffect::Read);
        let interpreter = &doc.tools[1];
        assert!(interpreter.provider_defined);
        assert_eq!(interpreter.side_effect, SideEffect::Unknown);
        assert!(!doc.tools[2].provider_defined);

        // Only the known types: an unknown type stays a function without a name (SC007).
        let unknown = parse_tools(r#"[{"type": "function", "name": "f"}, {"type": "teleport"}]"#);
        assert!(!unknown.tools[1].provider_defined);
        assert_eq!(unknown.tools[1].name(), None);
        assert!(!is_openai_builtin_type("web_search_2025"));
        assert!(is_openai_builtin_type("web_search_preview_2025_03_11"));
    }

    #[test]
    fn detection_order_decides_ambiguous_entries() {
        let shape = |entry: &str| {
            let doc = parse_tools(&format!("[{entry}]"));
            doc.tools.first().map(|t| t.dialect)
        };
        // A script entry also has `parameters`.
        assert_eq!(
            shape(r#"{"name": "s", "script": "s.sh", "parameters": {}}"#),
            Some(Dialect::Script)
        );
        // Forge keys win over a stray Anthropic schema key (which TJ002 then reports).
        assert_eq!(
            shape(r#"{"name": "a", "type": "read", "input_schema": {}}"#),
            Some(Dialect::Forge)
        );
        assert_eq!(
            shape(r#"{"name": "a", "inputSchema": {}, "input_schema": {}}"#),
            Some(Dialect::Mcp)
        );
        assert_eq!(
            shape(r#"{"name": "a", "input_schema": {}, "parameters": {}}"#),
            Some(Dialect::Anthropic)
        );
        // Not dated: no Anthropic type.
        assert_eq!(shape(r#"{"name": "a", "type": "web_search"}"#), None);
        assert!(is_dated_tool_type("text_editor_20250728"));
        assert!(!is_dated_tool_type("text_editor_2025072"));
        assert!(!is_dated_tool_type("_20250728"));
        assert!(!is_dated_tool_type("Bash_20250124"));
    }

    #[test]
    fn mixed_and_unknown_shapes_are_problems() {
        let mixed =
            parse_tools(r#"[{"name": "a", "type": "read"}, {"type": "function", "function": {}}]"#);
        assert_eq!(mixed.problems.len(), 1);
        assert_eq!(mixed.tools.len(), 1);
        // The mismatch points at the deciding key, with the first tool's key as context.
        let problem = &mixed.problems[0];
        assert_eq!(problem.span.len(), "\"function\"".len());
        assert!(problem.secondary.is_some());

        let unknown =
            parse_tools(r#"{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b"}]}"#);
        assert_eq!(unknown.problems.len(), 1);
        assert_eq!(unknown.problems[0].label, "expected `inputSchema`");
        assert_eq!(unknown.problems[0].span.len(), "\"b\"".len());

        let single = parse_tools(r#"{"name": "a", "inputSchema": {"type": "object"}}"#);
        assert_eq!(single.problems[0].kind, ShapeProblemKind::Container);
        assert_eq!(single.problems[0].span.len(), 1);
        let keyed = parse_tools(r#"{"tools": {"a": {"inputSchema": {}}}}"#);
        assert_eq!(keyed.problems[0].kind, ShapeProblemKind::Container);
        assert!(keyed.not_a_tool_list.is_none());
    }

    #[test]
    fn files_that_are_no_tool_list() {
        let not_a_list = |text: &str| {
            let doc = parse_tools(text);
            assert!(doc.tools.is_empty() && doc.problems.is_empty(), "{text}");
            doc.not_a_tool_list.map(|n| n.label)
        };
        assert_eq!(
            not_a_list(
                r#"{"name": "site", "version": "1.0.0", "tools": {"eslint": {"version": "9"}}}"#
            )
            .as_deref(),
            Some("`tools` holds an object, not an array of tools")
        );
        assert_eq!(
            not_a_list(r#"["eslint", "prettier"]"#).as_deref(),
            Some("an array of strings")
        );
        assert_eq!(
            not_a_list(r#"[{"name": "node", "version": "22"}]"#).as_deref(),
            Some("an array whose entries are not tools")
        );
        // Another program's tool format: named entries, but keys no dialect defines.
        assert_eq!(
            not_a_list(r#"{"name": "svc", "tools": [{"name": "ping", "description": "d", "method": "GET", "path": "/v1/ping"}]}"#).as_deref(),
            Some("`tools` holds an array whose entries are not tools")
        );
        assert!(not_a_list(r#"[{"name": "a"}]"#).is_some());
        assert_eq!(
            not_a_list(r#"{"compilerOptions": {}}"#).as_deref(),
            Some("an object with no `tools` array")
        );
        assert_eq!(not_a_list(r#""tools""#).as_deref(), Some("a JSON string"));
        // Duplicate keys of a file that is not linted are not reported either.
        assert!(parse_tools(r#"{"a": 1, "a": 2}"#).duplicate_keys.is_empty());

        // Plainly tool lists, however broken: these stay TJ002 material.
        for text in [
            "[]",
            r#"{"tools": []}"#,
            r#"{"tools": [{"name": "a"}, {"name": "b", "description": "d"}]}"#,
            r#"[{"name": "a", "description": "d"}]"#,
            r#"[{"name": "a", "description": "d"}, {"name": "b", "title": "B"}, "stray"]"#,
            r#"[{"name": "node", "version": "22"}, {"name": "a", "inputSchema": {}}]"#,
        ] {
            assert_eq!(not_a_list_or_none(text), None, "{text}");
        }
    }

    fn not_a_list_or_none(text: &str) -> Option<String> {
        parse_tools(text).not_a_tool_list.map(|n| n.label)
    }
}
