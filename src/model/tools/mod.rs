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
//!
//! The room: this module holds the model (`Tool`, `ToolsDoc` and their parts) and the entry
//! points; [`list`] reads the container and decides whether a file is a tool list at all;
//! [`dialect`] detects each entry's shape and normalises it into a `Tool`.

mod dialect;
mod list;
mod source;

use crate::parse::json::{DuplicateKey, JsonError};
use crate::parse::node::{pointer_token, Member, Node};
use crate::source::Span;
use list::parse_tool_list;
pub use source::{parse_source, CodeFacts};

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
    /// An MCP tool registered in source code (TypeScript, JavaScript, Python), read statically
    /// into the MCP shape: its schema built from zod or type hints, its spans in the source.
    Source,
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
            Dialect::Source => "source",
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
    /// The key that names the tool in a catalogue keyed by tool name (`{"create_flag": {…}}`),
    /// as a string node spanning it: the tool's name when its entry has no `name` of its own.
    pub(super) named_by_key: Option<Node>,
    /// For a tool registered in source code: how, what could not be read, and its handler's
    /// calls.
    pub code: Option<Box<CodeFacts>>,
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
            Dialect::Forge | Dialect::Mcp | Dialect::Source => self.entry.member("inputSchema"),
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
            || self.code.as_ref().is_some_and(|c| c.built_schema)
    }

    /// Whether a part of a tool registered in source code (`description`, `inputSchema`,
    /// `annotations`…) could not be read: no rule reports it missing.
    pub fn unresolved(&self, part: &str) -> bool {
        self.code.as_ref().is_some_and(|c| {
            c.unresolved
                .iter()
                .any(|u| u.part == part || u.part == "registration")
        })
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
        self.definition()
            .get(self.name_key)
            .or(self.named_by_key.as_ref())
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
    /// The file is a DXT / MCP Bundle manifest ([`Telltale::Bundle`]) with its tools under
    /// `tools`: entries may be a bare `{name}`, which the bundle format allows (SC015 reports the
    /// missing description).
    pub bundle: bool,
    /// The language of a source file whose registrations these tools are.
    pub code: Option<crate::parse::code::Lang>,
    /// Registrations of a source file that could not be read at all (a name computed at run
    /// time): counted by `skilllint tools`, never guessed.
    pub unresolved: Vec<crate::parse::code::Unresolved>,
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
    holds_tools(&parse_tools_by_content(text))
}

fn holds_tools(doc: &ToolsDoc) -> bool {
    let named = doc.tools.iter().filter(|t| t.name().is_some()).count();
    doc.parse_error.is_none() && doc.not_a_tool_list.is_none() && named * 2 > doc.entries
}

/// What a JSON file whose name says too little must hold to be read as a tool list
/// ([`crate::model::FileKind::ToolsByShape`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Telltale {
    /// A DXT / MCP Bundle manifest (`manifest.json`, `manifest.template.json`): a top-level
    /// `dxt_version` or `manifest_version` beside a `tools` array. A browser extension's or a web
    /// app's `manifest.json` has no `tools` and is left alone.
    Bundle,
    /// Any other JSON file: read when it is an MCP tool list, a root array or a `tools` array
    /// (a `tools/list` result, bare or in its JSON-RPC envelope) of MCP tools (`name` +
    /// `inputSchema`), as test data and snapshots are saved under any name
    /// (`toolsets-core-tools.json`). A `tools` key of any other shape, a catalogue, one tool
    /// object alone: not read, since the name vouches for nothing.
    Mcp,
}

/// The top-level keys that make an object a DXT / MCP Bundle manifest: `dxt_version` before the
/// format was renamed, `manifest_version` after.
pub(super) const BUNDLE_VERSION_KEYS: [&str; 2] = ["dxt_version", "manifest_version"];

/// Whether a file of [`crate::model::FileKind::ToolsByShape`] is read: it holds tools as
/// [`reads_as_tool_list`] says, and has the shape its telltale names.
pub fn reads_as_shaped(telltale: Telltale, text: &str) -> bool {
    // Every JSON file of a repository gets here: most (a `package.json`, a lock file) are passed
    // over by a scan for the one key an MCP tool must have, without being parsed.
    if telltale == Telltale::Mcp && !text.contains("\"inputSchema\"") {
        return false;
    }
    let doc = parse_tools_by_content(text);
    let shaped = match telltale {
        Telltale::Bundle => doc.bundle,
        // Most entries carry an `inputSchema` object: a data file whose records happen to have a
        // `name` and a null `inputSchema` is no tool list.
        Telltale::Mcp => {
            let with_schema = doc
                .tools
                .iter()
                .filter(|t| t.schema().is_some_and(Node::is_object))
                .count();
            doc.dialect == Some(Dialect::Mcp)
                && doc.tools.first().is_some_and(|t| !t.pointer.is_empty())
                && with_schema * 2 > doc.entries
        }
    };
    shaped && holds_tools(&doc)
}

/// Whether a file read for its content that is not read as a tool list still holds what look
/// like tools: it parses, and it has a list (an array where tools belong, or a keyed catalogue)
/// of entries some dialect claims or that look like tools with their schemas missing. A file
/// with no such list (a `package.json`, a library's function index, a browser extension's
/// manifest) does not. The caller says why such a file is not read.
pub fn looks_like_tools(telltale: Option<Telltale>, text: &str) -> bool {
    // Any JSON file of a repository may get here: without the key no MCP tool lacks, it is not
    // parsed at all.
    if telltale == Some(Telltale::Mcp) && !text.contains("\"inputSchema\"") {
        return false;
    }
    let doc = parse_tools_by_content(text);
    doc.parse_error.is_none()
        && doc.not_a_tool_list.is_none()
        && doc.entries > 0
        && !doc.tools.is_empty()
}

/// JSON pointer of a property inside the tool's entry, for messages.
pub fn property_pointer(tool: &Tool, property: &str) -> String {
    let schema = match tool.dialect {
        Dialect::Forge | Dialect::Mcp | Dialect::Source => "/inputSchema",
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
mod tests;
