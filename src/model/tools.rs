//! `tools.json` in four dialects (forge, MCP, OpenAI, script), normalised into one `Tool` model so
//! the schema-quality and cross-contract rules are written once.

use crate::parse::json::{parse_json_document, DuplicateKey, JsonError};
use crate::parse::node::{pointer_token, Member, Node, Value};
use crate::source::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    /// The agent-skill-forge contract: `type: read|write`, `requiresConfirmation`, `idempotent`.
    Forge,
    /// MCP `Tool` objects.
    Mcp,
    /// OpenAI function tools (`{"type": "function", "function": {...}}`).
    OpenAi,
    /// "Skill Tools Specification" entries with a `script`.
    Script,
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Forge => "forge",
            Dialect::Mcp => "MCP",
            Dialect::OpenAi => "OpenAI",
            Dialect::Script => "script",
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
}

impl Tool {
    /// The input schema as JSON Schema, whatever the dialect.
    pub fn schema(&self) -> Option<&Node> {
        match self.dialect {
            Dialect::Forge | Dialect::Mcp => self.entry.get("inputSchema"),
            Dialect::OpenAi => self.definition().get("parameters"),
            Dialect::Script => self.converted_schema.as_ref(),
        }
    }

    /// The function object of an OpenAI tool, else the entry itself.
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
        self.definition().get("name")
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
    /// Shape problems: no recognisable container, entries of no or of mixed dialects.
    pub problems: Vec<(Span, String)>,
    pub duplicate_keys: Vec<DuplicateKey>,
    pub parse_error: Option<JsonError>,
}

pub fn parse_tools(text: &str) -> ToolsDoc {
    let mut doc = ToolsDoc::default();
    let parsed = match parse_json_document(text) {
        Ok(parsed) => parsed,
        Err(error) => {
            doc.parse_error = Some(error);
            return doc;
        }
    };
    doc.duplicate_keys = parsed.duplicate_keys;
    let (entries, container) = match take_entries(parsed.root) {
        Ok(found) => found,
        Err(root) => {
            doc.problems.push((
                root.span,
                format!(
                    "expected an array of tools, an object with a `tools` array, or a JSON-RPC `result.tools`, found {}",
                    root.type_name()
                ),
            ));
            return doc;
        }
    };

    let detected: Vec<Option<Dialect>> = entries.iter().map(detect).collect();
    doc.dialect = detected.iter().flatten().next().copied();
    for (index, (entry, dialect)) in entries.into_iter().zip(&detected).enumerate() {
        let pointer = format!("{container}/{index}");
        if !entry.is_object() {
            doc.problems.push((
                entry.span,
                format!(
                    "a tool entry must be an object, found {}",
                    entry.type_name()
                ),
            ));
            continue;
        }
        let dialect = match (dialect, doc.dialect) {
            (Some(own), Some(file)) if *own != file => {
                doc.problems.push((
                    entry.span,
                    format!(
                        "this entry is a {} tool but the file's first tool is {}; one file holds one dialect",
                        own.as_str(),
                        file.as_str()
                    ),
                ));
                continue;
            }
            (Some(own), _) => *own,
            // An entry without markers in a forge file is a forge entry with keys missing: TJ002
            // explains what is missing better than "no dialect" would.
            (None, Some(Dialect::Forge)) => Dialect::Forge,
            (None, _) => {
                doc.problems.push((
                    entry.span,
                    "this entry matches no tools.json dialect (forge, MCP, OpenAI or script)"
                        .to_string(),
                ));
                continue;
            }
        };
        doc.tools.push(normalise(entry, dialect, pointer));
    }
    doc
}

/// Moves the tool entries out of the parsed file (no copy), with the JSON pointer of their array.
fn take_entries(mut root: Node) -> Result<(Vec<Node>, &'static str), Node> {
    if root.as_array().is_some() {
        return match root.value {
            Value::Array(items) => Ok((items, "")),
            _ => Err(root),
        };
    }
    if root.get("tools").and_then(Node::as_array).is_some() {
        if let Some(Value::Array(items)) = take_member(&mut root, "tools").map(|n| n.value) {
            return Ok((items, "/tools"));
        }
    }
    let nested = root
        .get("result")
        .and_then(|r| r.get("tools"))
        .and_then(Node::as_array)
        .is_some();
    if nested {
        let tools = take_member(&mut root, "result").and_then(|mut r| take_member(&mut r, "tools"));
        if let Some(Value::Array(items)) = tools.map(|n| n.value) {
            return Ok((items, "/result/tools"));
        }
    }
    Err(root)
}

fn take_member(node: &mut Node, key: &str) -> Option<Node> {
    let Value::Object(members) = &mut node.value else {
        return None;
    };
    let index = members.iter().position(|m| m.key == key)?;
    Some(members.swap_remove(index).value)
}

fn detect(entry: &Node) -> Option<Dialect> {
    let kind = entry.get("type").and_then(Node::as_str);
    if kind == Some("function") {
        return Some(Dialect::OpenAi);
    }
    if entry.get("script").is_some() {
        return Some(Dialect::Script);
    }
    if matches!(kind, Some("read" | "write")) || entry.get("requiresConfirmation").is_some() {
        return Some(Dialect::Forge);
    }
    if entry.get("inputSchema").is_some() {
        return Some(Dialect::Mcp);
    }
    None
}

fn bool_member(node: Option<&Node>, key: &str) -> Option<(bool, Span)> {
    let value = node?.get(key)?;
    value.as_bool().map(|b| (b, value.span))
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
        Dialect::OpenAi => {}
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
        Dialect::OpenAi if tool.entry.get("function").is_some() => "/function/parameters",
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
    fn mixed_and_unknown_shapes_are_problems() {
        let mixed =
            parse_tools(r#"[{"name": "a", "type": "read"}, {"type": "function", "function": {}}]"#);
        assert_eq!(mixed.problems.len(), 1);
        assert_eq!(mixed.tools.len(), 1);
        let unknown = parse_tools(r#"[{"name": "a"}]"#);
        assert_eq!(unknown.problems.len(), 1);
        let wrong_root = parse_tools(r#""tools""#);
        assert_eq!(wrong_root.problems.len(), 1);
    }
}
