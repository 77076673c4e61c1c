//! Tool lists in eight dialects (forge, MCP, OpenAI in its wrapped and flat forms, Anthropic,
//! script, Docker's MCP catalogue, `schema` + `command` manifests, and catalogues of names and
//! descriptions), normalised into one `Tool` model so the schema-quality, effect and
//! cross-contract rules are written once.
//!
//! Reading a file takes three steps. The container: a root array, a `tools` or `functions` array,
//! or a JSON-RPC `result.tools`; in a file read for its content (a snapshot, `functions.json`) also
//! a single tool object. Whether it is a tool list at all: a `tools.json` that belongs to another
//! program (a project manifest, a list of names) is set aside whole (TJ014) instead of being
//! reported entry by entry, and a file read for its content is not read at all. Then each entry's
//! shape, detected on its own: one file holds one shape, so an entry of another shape is a problem
//! (TJ002).

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
    /// Docker's MCP catalogue (`docker/mcp-registry` `tools.json`): `{name, description,
    /// arguments?: [{name, type, desc, optional?}], annotations?}`. `arguments` are converted into
    /// a JSON Schema; an entry without them takes no arguments.
    Docker,
    /// A runner's manifest: `{name, description, schema, command: [argv…]}` per tool.
    Manifest,
    /// A catalogue of `{name, description}` entries with no input schema at all: the name,
    /// description and effect rules apply, the schema rules do not.
    Catalogue,
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Forge => "forge",
            Dialect::Mcp => "MCP",
            Dialect::OpenAi => "OpenAI",
            Dialect::Script => "script",
            Dialect::Anthropic => "Anthropic",
            Dialect::Docker => "Docker",
            Dialect::Manifest => "manifest",
            Dialect::Catalogue => "catalogue",
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
    Docker,
    Manifest,
    Catalogue,
}

impl Shape {
    pub fn dialect(self) -> Dialect {
        match self {
            Shape::Forge => Dialect::Forge,
            Shape::Mcp => Dialect::Mcp,
            Shape::OpenAiWrapped | Shape::OpenAiFlat => Dialect::OpenAi,
            Shape::Script => Dialect::Script,
            Shape::Anthropic => Dialect::Anthropic,
            Shape::Docker => Dialect::Docker,
            Shape::Manifest => Dialect::Manifest,
            Shape::Catalogue => Dialect::Catalogue,
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
            Shape::Docker => "a Docker catalogue tool",
            Shape::Manifest => "a manifest tool",
            Shape::Catalogue => "a catalogue entry",
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
            Shape::Docker => "arguments",
            Shape::Manifest => "command",
            Shape::Catalogue => "description",
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
    /// Script parameters and Docker arguments converted to JSON Schema (spans into the file); the
    /// other dialects' schemas are read in place from `entry`.
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
            Dialect::Script | Dialect::Docker => self.converted_schema.as_ref(),
            Dialect::Catalogue => None,
            _ => self.schema_member().map(|m| &m.value),
        }
    }

    /// The member of the entry that holds the input schema as written (`inputSchema`,
    /// `parameters`, Docker's `arguments`…): where a finding about the schema as a whole points.
    pub fn schema_member(&self) -> Option<&Member> {
        match self.dialect {
            Dialect::Forge | Dialect::Mcp => self.entry.member("inputSchema"),
            Dialect::Anthropic => self.entry.member("input_schema"),
            Dialect::OpenAi => self.definition().member("parameters"),
            Dialect::Script => self.entry.member("parameters"),
            Dialect::Docker => self.entry.member("arguments"),
            Dialect::Manifest => self.entry.member("schema"),
            Dialect::Catalogue => None,
        }
    }

    /// Whether the input schema is built from another notation (script parameters, Docker
    /// arguments): its root object cannot carry `additionalProperties`.
    pub fn has_synthesised_schema(&self) -> bool {
        matches!(self.dialect, Dialect::Script | Dialect::Docker)
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
    /// How many entries the list has (tools and entries that are none).
    pub entries: usize,
    /// The file is read for its content (a snapshot, `functions.json`, a `[tools] include` glob,
    /// a JSON file named on the command line), not for its name: it is linted only when it holds
    /// tools ([`reads_as_tool_list`]), and one tool object alone is a list of one.
    pub by_content: bool,
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
const DIALECT_KEYS: [&str; 26] = [
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
    "arguments",
    "schema",
    "timeoutSec",
    "envPassthrough",
];

/// The keys that hold a list of tools in an object, in the order they are looked for.
const CONTAINER_KEYS: [&str; 2] = ["tools", "functions"];

/// Parses a `tools.json` or `*.tools.json`: a file read for its name.
pub fn parse_tools(text: &str) -> ToolsDoc {
    parse_tool_list(text, false)
}

/// Parses a file read for its content (see [`ToolsDoc::by_content`]).
pub fn parse_tools_by_content(text: &str) -> ToolsDoc {
    parse_tool_list(text, true)
}

/// Whether a file read for its content holds tools: it parses, it is a tool list, and most of its
/// entries (at least one) are named tools of some dialect. Anything else under such a name (a
/// `functions.json` listing a library's functions, a Jest snapshot) is left alone.
pub fn reads_as_tool_list(text: &str) -> bool {
    let doc = parse_tools_by_content(text);
    let named = doc.tools.iter().filter(|t| t.name().is_some()).count();
    doc.parse_error.is_none() && doc.not_a_tool_list.is_none() && named * 2 > doc.entries
}

fn parse_tool_list(text: &str, by_content: bool) -> ToolsDoc {
    let mut doc = ToolsDoc {
        by_content,
        ..ToolsDoc::default()
    };
    let parsed = match parse_json_document(text) {
        Ok(parsed) => parsed,
        Err(error) => {
            doc.parse_error = Some(error);
            return doc;
        }
    };
    let list = match take_list(parsed.root, by_content) {
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
    let mut detected: Vec<Option<Detected>> = list.entries.iter().map(detect).collect();
    if detected.iter().all(Option::is_none) {
        if let Some(catalogue) = catalogue(&list.entries, by_content) {
            detected = catalogue;
        }
    }
    if let Some(label) = not_a_tool_list(&list, &detected) {
        doc.not_a_tool_list = Some(NotToolList {
            span: list.anchor,
            label,
        });
        return doc;
    }
    doc.duplicate_keys = parsed.duplicate_keys;
    doc.entries = list.entries.len();
    let first = detected.iter().flatten().next().copied();
    doc.dialect = first.map(|d| d.shape.dialect());
    let mut unknown = Vec::new();
    for (index, (entry, own)) in list.entries.into_iter().zip(detected).enumerate() {
        let pointer = if list.single {
            String::new()
        } else {
            format!("{}/{index}", list.pointer)
        };
        if !entry.is_object() {
            unknown.push(Unknown {
                span: opening(&entry),
                name: None,
                found: Some(entry.type_name()),
                pointer,
            });
            continue;
        }
        let shape = match (own, first) {
            (Some(own), Some(first)) if own.shape != first.shape => {
                doc.problems.push(ShapeProblem {
                    kind: ShapeProblemKind::Mixed,
                    span: own.marker,
                    message: format!(
                        "{} is {} but the file's first tool is {}; one file holds one dialect",
                        entry_named(&entry, &pointer),
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
            // omit `parameters` (no arguments), and so may a Docker catalogue tool its
            // `arguments`, so a bare `{name, description}` among them is one of them.
            (None, Some(first))
                if matches!(
                    first.shape,
                    Shape::Forge | Shape::OpenAiFlat | Shape::Docker
                ) =>
            {
                first.shape
            }
            (None, _) => {
                unknown.push(Unknown {
                    span: entry
                        .member("name")
                        .map_or_else(|| opening(&entry), |m| m.value.span),
                    name: entry.get("name").and_then(Node::as_str).map(str::to_string),
                    found: None,
                    pointer,
                });
                continue;
            }
        };
        doc.tools.push(normalise(entry, shape.dialect(), pointer));
    }
    doc.problems.extend(unknown_entries(
        unknown,
        first.map(|f| f.shape),
        list.anchor,
    ));
    doc.problems.sort_by_key(|p| p.span.start);
    doc
}

/// An entry that is no tool: where it is, its name if it has one, what it is when it is no object.
struct Unknown {
    span: Span,
    name: Option<String>,
    found: Option<&'static str>,
    pointer: String,
}

/// "tool `name`" for an entry with a name, else its JSON pointer, for messages.
fn entry_named(entry: &Node, pointer: &str) -> String {
    match entry.get("name").and_then(Node::as_str) {
        Some(name) => format!("tool `{name}`"),
        None => format!("`{}`", root_or(pointer)),
    }
}

/// A JSON pointer for messages: the root's empty pointer written `/`.
fn root_or(pointer: &str) -> &str {
    if pointer.is_empty() {
        "/"
    } else {
        pointer
    }
}

/// How many names a merged finding lists before "and N more".
const NAMES_SHOWN: usize = 5;

/// The entries that are no tool, as TJ002 problems: one for a single entry, on it; one for the
/// whole file when there are several (in a file of no known dialect, on the list itself), with
/// the count and the entries named by their `name`.
fn unknown_entries(
    unknown: Vec<Unknown>,
    first: Option<Shape>,
    anchor: Span,
) -> Option<ShapeProblem> {
    let expected = first.map(|f| (f.key(), f.dialect()));
    let tail = |what: String| match first {
        Some(first) => format!("{what}; the file's first tool is {}", first.described()),
        None => what,
    };
    let label = match first {
        Some(first) => format!("expected `{}`", first.key()),
        None => "no `inputSchema`, `input_schema`, `parameters` or `script`".to_string(),
    };
    let describe = |u: &Unknown| match &u.name {
        Some(name) => format!("`{name}`"),
        None => format!("`{}`", root_or(&u.pointer)),
    };
    match unknown.as_slice() {
        [] => None,
        [one] => Some(ShapeProblem {
            kind: ShapeProblemKind::Entry,
            span: one.span,
            message: match (&one.name, one.found) {
                (_, Some(found)) => {
                    format!("{} must be a tool object, found {found}", describe(one))
                }
                (Some(name), None) => tail(format!("tool `{name}` matches no tools.json dialect")),
                (None, None) => tail(format!("{} matches no tools.json dialect", describe(one))),
            },
            label: if one.found.is_some() {
                "expected an object".to_string()
            } else {
                label
            },
            secondary: None,
            expected,
        }),
        [first_entry, ..] => {
            let mut names: Vec<String> = unknown.iter().take(NAMES_SHOWN).map(describe).collect();
            if unknown.len() > NAMES_SHOWN {
                names.push(format!("{} more", unknown.len() - NAMES_SHOWN));
            }
            let count = unknown.len();
            Some(ShapeProblem {
                kind: ShapeProblemKind::Entry,
                span: if first.is_some() {
                    first_entry.span
                } else {
                    anchor
                },
                message: tail(format!(
                    "{count} entries match no tools.json dialect: {}",
                    join_and(&names)
                )),
                label: if first.is_some() {
                    format!("{label} (the first of {count})")
                } else {
                    format!("{count} entries of no dialect")
                },
                secondary: None,
                expected,
            })
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Keys a catalogue entry may carry besides its name and description: what Docker's catalogue and
/// hand-written tool indexes put there (grouping, display, hints).
const CATALOGUE_KEYS: [&str; 4] = ["category", "tags", "toolset", "group"];

/// Every entry a `{name, description}` object (with only keys of some dialect or a catalogue's
/// grouping keys besides): a catalogue, each entry decided by its `description`. In a file read
/// for its content the names must also be tool names (letters, digits, `_`, `-`, `.`), so a list
/// of documented functions (`get_ids (deprecated)`) is not taken for tools.
fn catalogue(entries: &[Node], by_content: bool) -> Option<Vec<Option<Detected>>> {
    if entries.is_empty() {
        return None;
    }
    entries
        .iter()
        .map(|entry| {
            let members = entry.as_object()?;
            let name = entry.get("name")?.as_str()?;
            let description = entry.member("description")?;
            description.value.as_str()?;
            let keys_fit = members.iter().all(|m| {
                DIALECT_KEYS.contains(&m.key.as_str()) || CATALOGUE_KEYS.contains(&m.key.as_str())
            });
            let name_fits = !by_content
                || (!name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')));
            (keys_fit && name_fits).then_some(Some(Detected {
                shape: Shape::Catalogue,
                marker: description.key_span,
            }))
        })
        .collect()
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
    /// The file is one tool object (a snapshot): its entry's pointer is the root, ``.
    single: bool,
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
fn take_list(root: Node, by_content: bool) -> Contents {
    let anchor = opening(&root);
    let span = root.span;
    let mut root = match root.value {
        Value::Array(entries) => {
            return Contents::List(List {
                entries,
                pointer: "",
                named: false,
                anchor,
                single: false,
            })
        }
        value => Node::new(span, value),
    };
    // A snapshot holds one tool; so may any file read for its content. A `tools.json` holding
    // one tool object is a broken list (TJ002), as before.
    if by_content && detect(&root).is_some() {
        return Contents::List(List {
            entries: vec![root],
            pointer: "",
            named: false,
            anchor,
            single: true,
        });
    }
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
                single: false,
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
                single: false,
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
/// 6. a `parameters` object → flat OpenAI (the legacy `functions` entry);
/// 7. a `schema` object, or a `command` argv (an array of strings) beside a `description`, with a
///    `name` → a manifest tool;
/// 8. an `arguments` array of named argument objects (or an empty one) → Docker's catalogue.
///
/// A list of `{name, description}` entries with none of these keys is a catalogue, decided for the
/// whole file (see [`catalogue`]).
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
    if member("name").is_some() {
        if let Some(schema) = member("schema").filter(|s| s.value.is_object()) {
            return found(Shape::Manifest, schema);
        }
        let argv = |m: &&Member| {
            m.value
                .as_array()
                .is_some_and(|a| !a.is_empty() && a.iter().all(|n| n.as_str().is_some()))
        };
        if let Some(command) = member("command")
            .filter(argv)
            .filter(|_| member("description").is_some())
        {
            return found(Shape::Manifest, command);
        }
    }
    let named_arguments = |m: &&Member| {
        m.value.as_array().is_some_and(|a| {
            a.iter()
                .all(|n| n.get("name").and_then(Node::as_str).is_some())
        })
    };
    if let Some(arguments) = member("arguments").filter(named_arguments) {
        return found(Shape::Docker, arguments);
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
        // Docker's catalogue and catalogues copy MCP's annotations where they keep them.
        Dialect::Mcp | Dialect::Docker | Dialect::Catalogue => {
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
            if dialect == Dialect::Docker {
                tool.converted_schema = tool.entry.get("arguments").map(docker_arguments_schema);
            }
        }
        Dialect::Manifest => {}
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
    synthesised_object(span, properties, required)
}

/// Converts Docker catalogue arguments (`[{name, type, desc, items?, optional?}]`) into the JSON
/// Schema they describe: each argument a property under its `name` (the key span is the name's
/// value), `desc` read as `description`, and every argument not `optional` required. An entry
/// that is no named argument is left out (the catalogue's reader rejects it too).
fn docker_arguments_schema(arguments: &Node) -> Node {
    let span = arguments.span;
    let mut properties = Vec::new();
    let mut required = Vec::new();
    for argument in arguments.as_array().unwrap_or_default() {
        let Some(name) = argument.member("name") else {
            continue;
        };
        let Some(key) = name.value.as_str() else {
            continue;
        };
        let optional = argument.get("optional").and_then(Node::as_bool) == Some(true)
            || argument.get("required").and_then(Node::as_bool) == Some(false);
        if !optional {
            required.push(Node::new(name.value.span, Value::String(key.to_string())));
        }
        let mut property = argument.clone();
        if let Value::Object(fields) = &mut property.value {
            fields.retain(|f| !matches!(f.key.as_str(), "name" | "optional" | "required"));
            for field in fields.iter_mut().filter(|f| f.key == "desc") {
                field.key = "description".to_string();
            }
        }
        properties.push(Member {
            key: key.to_string(),
            key_span: name.value.span,
            value: property,
        });
    }
    synthesised_object(span, properties, required)
}

/// `{"type": "object", "properties": …, "required": […]}` at `span`, for converted parameters.
fn synthesised_object(span: Span, properties: Vec<Member>, required: Vec<Node>) -> Node {
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
        Dialect::Manifest => "/schema",
        Dialect::Docker => {
            let index = tool
                .entry
                .get("arguments")
                .and_then(Node::as_array)
                .and_then(|a| {
                    a.iter()
                        .position(|n| n.get("name").and_then(Node::as_str) == Some(property))
                });
            return match index {
                Some(i) => format!("{}/arguments/{i}", tool.pointer),
                None => format!("{}/arguments", tool.pointer),
            };
        }
        Dialect::Catalogue => return tool.pointer.clone(),
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

    #[test]
    fn docker_catalogue_arguments_become_a_schema() {
        let doc = parse_tools(
            r#"[
                {"name": "whoami", "description": "Who the token belongs to.", "annotations": {"readOnlyHint": true}},
                {"name": "start_job", "description": "Start a job.", "arguments": [
                    {"name": "queue", "type": "string", "desc": "Queue to run on"},
                    {"name": "labels", "type": "array", "items": {"type": "string"}, "desc": "", "optional": true}
                ]}
            ]"#,
        );
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        assert_eq!(doc.dialect, Some(Dialect::Docker));
        let [whoami, start] = doc.tools.as_slice() else {
            panic!("two tools expected, got {}", doc.tools.len());
        };
        // No `arguments`: a tool that takes none, its schema absent for the schema rules.
        assert_eq!(whoami.dialect, Dialect::Docker);
        assert!(whoami.schema().is_none());
        assert_eq!(whoami.side_effect, SideEffect::Read);
        assert!(start.has_synthesised_schema());
        assert!(start.required_entry("queue").is_some());
        assert!(start.required_entry("labels").is_none());
        let queue = start.property("queue").expect("queue is a property");
        assert_eq!(
            queue.value.get("description").and_then(Node::as_str),
            Some("Queue to run on")
        );
        assert!(queue.value.get("name").is_none() && queue.value.get("desc").is_none());
        assert_eq!(property_pointer(start, "labels"), "/1/arguments/1");
        assert_eq!(
            start.schema_member().map(|m| m.key.as_str()),
            Some("arguments")
        );
    }

    #[test]
    fn manifests_catalogues_and_rpc_responses() {
        let manifest = parse_tools(
            r#"{"tools": [{"name": "clock", "description": "Time now.", "schema": {"type": "object", "properties": {"tz": {"type": "string"}}}, "command": ["./bin/clock"], "timeoutSec": 5}]}"#,
        );
        assert_eq!(manifest.dialect, Some(Dialect::Manifest));
        assert!(manifest.tools[0].property("tz").is_some());
        assert_eq!(
            property_pointer(&manifest.tools[0], "tz"),
            "/tools/0/schema/properties/tz"
        );

        // Names and descriptions only (grouping keys allowed): a catalogue, no schema.
        let catalogue = parse_tools(
            r#"[{"name": "prune_images", "description": "Remove unused images.", "category": "images"}, {"name": "list_images", "description": "List images."}]"#,
        );
        assert!(catalogue.problems.is_empty(), "{:?}", catalogue.problems);
        assert_eq!(catalogue.dialect, Some(Dialect::Catalogue));
        assert!(catalogue.tools.iter().all(|t| t.schema().is_none()));

        // A `tools/list` response, with and without its envelope.
        for text in [
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "x"}}"#,
            r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#,
        ] {
            let doc = parse_tools_by_content(text);
            assert_eq!(doc.dialect, Some(Dialect::Mcp), "{text}");
            assert!(reads_as_tool_list(text), "{text}");
        }
    }

    #[test]
    fn files_read_for_their_content() {
        // A snapshot: one tool object is a list of one, at the root.
        let snapshot = r#"{"annotations": {"readOnlyHint": true}, "description": "d", "inputSchema": {"type": "object"}, "name": "get_me"}"#;
        let doc = parse_tools_by_content(snapshot);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        assert_eq!(doc.tools.len(), 1);
        assert_eq!(doc.tools[0].pointer, "");
        assert_eq!(
            property_pointer(&doc.tools[0], "x"),
            "/inputSchema/properties/x"
        );
        assert!(reads_as_tool_list(snapshot));
        // Under `tools.json` the same object is still a broken list.
        assert_eq!(
            parse_tools(snapshot).problems[0].kind,
            ShapeProblemKind::Container
        );

        for (text, tools) in [
            (
                r#"[{"type": "function", "function": {"name": "f", "parameters": {}}}]"#,
                true,
            ),
            (r#"[{"name": "f", "parameters": {"type": "object"}}]"#, true),
            (r#"[{"name": "get_ids", "description": "Ids."}]"#, true),
            // Not tools: documented functions, a package manifest, nothing at all.
            (
                r#"[{"name": "get_ids (deprecated)", "description": "Ids."}]"#,
                false,
            ),
            (
                r#"{"Category Functions": [{"name": "Categories", "children": [{"name": "a"}]}]}"#,
                false,
            ),
            (
                r#"{"name": "site", "version": "1.0.0", "scripts": {}}"#,
                false,
            ),
            (r#"[]"#, false),
            (r#"{"tools": []}"#, false),
            (
                r#"[{"name": "a", "parameters": {}}, {"x": 1}, {"y": 2}]"#,
                false,
            ),
            ("not json", false),
        ] {
            assert_eq!(reads_as_tool_list(text), tools, "{text}");
        }
    }

    #[test]
    fn entries_of_no_dialect_are_one_problem_per_file_named_by_name() {
        let doc = parse_tools(r#"{"tools": [{"name": "a"}, {"name": "b"}, {"title": "c"}]}"#);
        assert_eq!(doc.problems.len(), 1, "{:?}", doc.problems);
        let problem = &doc.problems[0];
        assert_eq!(
            problem.message,
            "3 entries match no tools.json dialect: `a`, `b` and `/tools/2`"
        );
        // On the list's key, since no entry says what the file should be.
        assert_eq!(problem.span.len(), "\"tools\"".len());

        let many = (0..8)
            .map(|i| format!(r#"{{"name": "t{i}"}}"#))
            .collect::<Vec<_>>()
            .join(",");
        let doc = parse_tools(&format!(
            r#"[{{"name": "ok", "inputSchema": {{}}}}, {many}]"#
        ));
        assert_eq!(doc.problems.len(), 1);
        assert!(
            doc.problems[0]
                .message
                .starts_with("8 entries match no tools.json dialect: `t0`, `t1`, `t2`, `t3`, `t4` and 3 more; the file's first tool is an MCP tool"),
            "{}",
            doc.problems[0].message
        );
        // On the first of them, with the key the file's tools have.
        assert_eq!(
            doc.problems[0].label,
            "expected `inputSchema` (the first of 8)"
        );
    }

    fn not_a_list_or_none(text: &str) -> Option<String> {
        parse_tools(text).not_a_tool_list.map(|n| n.label)
    }
}
