//! Each entry's dialect, detected on its own, and its normalisation into the one `Tool` model
//! (synthesised schemas for script parameters and Docker catalogue arguments).

use super::{Dialect, Shape, SideEffect, Tool};
use crate::parse::node::{Member, Node, Value};
use crate::source::Span;

/// An entry's shape and the key that decided it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Detected {
    pub(super) shape: Shape,
    pub(super) marker: Span,
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
pub(super) fn detect(entry: &Node) -> Option<Detected> {
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
pub(super) fn is_dated_tool_type(text: &str) -> bool {
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
pub(super) fn is_openai_builtin_type(text: &str) -> bool {
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

pub(super) const OPENAI_BUILTIN_TOOLS: [&str; 11] = [
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
pub(super) const READ_ONLY_OPENAI_TOOLS: [&str; 3] =
    ["web_search", "web_search_preview", "file_search"];

/// Anthropic-defined tools that only read (search and fetch pages, search the tool list).
pub(super) const READ_ONLY_PROVIDER_TOOLS: [&str; 3] =
    ["web_search", "web_fetch", "tool_search_tool"];

pub(super) fn bool_member(node: Option<&Node>, key: &str) -> Option<(bool, Span)> {
    let value = node?.get(key)?;
    value.as_bool().map(|b| (b, value.span))
}

/// Whether a provider's tool type is one of `names`, bare or with a version suffix
/// (`web_search`, `web_search_20250305`).
pub(super) fn is_one_of(text: &str, names: &[&str]) -> bool {
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

pub(super) fn normalise(entry: Node, dialect: Dialect, pointer: String) -> Tool {
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
        named_by_key: None,
        code: None,
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
        Dialect::Mcp | Dialect::Docker | Dialect::Catalogue | Dialect::Source => {
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
pub(super) fn script_parameters_schema(parameters: &Node) -> Node {
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
pub(super) fn docker_arguments_schema(arguments: &Node) -> Node {
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
pub(super) fn synthesised_object(span: Span, properties: Vec<Member>, required: Vec<Node>) -> Node {
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
