//! TJ002 `tools-json-contract-violation`: A tools.json file does not follow the tool contract
//! of its dialect.

use super::{describe, FORGE_KEYS};
use crate::check::{Sink, Unit};
use crate::model::tools::{Dialect, ShapeProblemKind, Tool};
use crate::parse::node::{pointer_token, Node, Value};
use crate::rules::util::nearest;
use crate::source::{FileId, Span};

pub(super) fn tools_json_contract_violation(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, doc) in unit.tools_docs() {
        for problem in &doc.problems {
            let help = match (problem.kind, problem.expected) {
                (ShapeProblemKind::Mixed, _) => "rewrite this entry in the file's dialect, or move it to its own `*.tools.json` file".to_string(),
                (ShapeProblemKind::Container, _) => "write the tools as an array (`[{…}, {…}]`) or as an object with a `tools` array".to_string(),
                (ShapeProblemKind::Entry, Some((key, dialect))) => format!(
                    "give it the `{key}` the file's {} tools have, or move it to a file of its own dialect",
                    dialect.as_str()
                ),
                (ShapeProblemKind::Entry, None) => "write every tool in one dialect: forge, MCP, OpenAI, Anthropic, script, Docker catalogue, manifest or a catalogue of names and descriptions (see `skilllint rule TJ002`)".to_string(),
            };
            let diagnostic = sink
                .report(id, problem.span, problem.message.clone())
                .label(problem.label.clone())
                .help(help);
            if let Some((span, label)) = &problem.secondary {
                diagnostic.secondary(id, *span, label.clone());
            }
        }
        for duplicate in &doc.duplicate_keys {
            let path = doc
                .tools
                .iter()
                .find_map(|t| key_path(&t.entry, &t.pointer, duplicate.duplicate));
            let message = match path {
                Some(path) => format!("`{path}` is defined twice"),
                None => format!(
                    "key `{}` is defined twice in the same object",
                    duplicate.key
                ),
            };
            sink.report(id, duplicate.duplicate, message)
                .label("duplicate key")
                .secondary(id, duplicate.first, "first defined here")
                .help("remove one of the two; JSON readers disagree on which value wins, so the contract is ambiguous");
        }
        for tool in doc.tools.iter().filter(|t| t.dialect == Dialect::Forge) {
            check_forge_entry(id, tool, sink);
        }
    }
}

/// The JSON pointer of the member whose key is at `key_span`, searching below `node`.
fn key_path(node: &Node, pointer: &str, key_span: Span) -> Option<String> {
    if !(node.span.start <= key_span.start && key_span.end <= node.span.end) {
        return None;
    }
    match &node.value {
        Value::Object(members) => members.iter().find_map(|m| {
            let path = format!("{pointer}/{}", pointer_token(&m.key));
            if m.key_span == key_span {
                Some(path)
            } else {
                key_path(&m.value, &path, key_span)
            }
        }),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| key_path(item, &format!("{pointer}/{i}"), key_span)),
        _ => None,
    }
}

/// The forge contract of one entry: required keys, their types, closed key set.
fn check_forge_entry(file: FileId, tool: &Tool, sink: &mut Sink) {
    let entry = &tool.entry;
    let path = |key: &str| format!("{}/{}", tool.pointer, pointer_token(key));
    // Where a missing key is reported: the entry's `name` value, else the entry itself.
    let anchor = tool.span();
    let missing = |sink: &mut Sink, key: &str, expected: &str, help: &str| {
        let label = if key == "name" {
            "this entry has no `name`".to_string()
        } else {
            format!("this tool has no `{key}`")
        };
        sink.report(
            file,
            anchor,
            format!("`{}` is missing: expected {expected}", path(key)),
        )
        .label(label)
        .help(help);
    };
    let mistyped = |sink: &mut Sink, key: &str, node: &Node, expected: &str, help: &str| {
        sink.report(
            file,
            node.span,
            format!(
                "`{}` must be {expected}, found {}",
                path(key),
                describe(node)
            ),
        )
        .label(format!("expected {expected}"))
        .help(help);
    };

    const NAME_HELP: &str =
        "give the tool a unique snake_case `name`, e.g. `\"name\": \"create_event\"`";
    match entry.get("name") {
        None => missing(sink, "name", "a non-empty string", NAME_HELP),
        Some(node) if node.as_str().is_some_and(|s| !s.is_empty()) => {}
        Some(node) => mistyped(sink, "name", node, "a non-empty string", NAME_HELP),
    }

    const TYPE_EXPECTED: &str = "`\"read\"` or `\"write\"`";
    const TYPE_HELP: &str = "classify the tool as `\"read\"` or `\"write\"`; anything that changes external state is `\"write\"`";
    match entry.get("type") {
        None => missing(sink, "type", TYPE_EXPECTED, TYPE_HELP),
        Some(node) if matches!(node.as_str(), Some("read" | "write")) => {}
        Some(node) => mistyped(sink, "type", node, TYPE_EXPECTED, TYPE_HELP),
    }

    const DESCRIPTION_HELP: &str =
        "add a `description` that says what the tool does and when to call it";
    match entry.get("description") {
        None => missing(sink, "description", "a string", DESCRIPTION_HELP),
        Some(node) if node.as_str().is_some() => {}
        Some(node) => mistyped(sink, "description", node, "a string", DESCRIPTION_HELP),
    }

    const SCHEMA_HELP: &str = "add an `inputSchema` object, e.g. `{\"type\": \"object\", \"properties\": {…}, \"required\": […], \"additionalProperties\": false}`";
    match entry.get("inputSchema") {
        None => missing(sink, "inputSchema", "a JSON Schema object", SCHEMA_HELP),
        Some(node) if node.is_object() => {}
        Some(node) => mistyped(
            sink,
            "inputSchema",
            node,
            "a JSON Schema object",
            SCHEMA_HELP,
        ),
    }

    for flag in ["requiresConfirmation", "idempotent"] {
        if let Some(node) = entry.get(flag) {
            if node.as_bool().is_none() {
                mistyped(
                    sink,
                    flag,
                    node,
                    "a boolean",
                    "write `true` or `false` without quotes; any other value is ignored and leaves the tool ungated",
                );
            }
        }
    }

    for member in entry.as_object().unwrap_or_default() {
        if FORGE_KEYS.contains(&member.key.as_str()) {
            continue;
        }
        let help = match nearest(&member.key, FORGE_KEYS) {
            Some(suggestion) => format!(
                "rename it to `{suggestion}`; a misspelled key is ignored by every consumer"
            ),
            None => "remove it; a forge entry has only `name`, `type`, `description`, `requiresConfirmation`, `idempotent` and `inputSchema`".to_string(),
        };
        sink.report(
            file,
            member.key_span,
            format!("`{}` is not a forge contract key", path(&member.key)),
        )
        .label("unknown key")
        .help(help);
    }
}
