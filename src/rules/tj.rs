//! TJ: the forge tool contract (`tools.json`, `requirement.yaml`), SPEC §3.2.
//!
//! The contract chain is requirement → tools.json → SKILL.md; each step may add obligations but
//! never drop them. TJ001–TJ007 check one folder's tool files on their own, TJ008–TJ011 compare them
//! with the folder's requirement, TJ012 is a design smell on every dialect, TJ013 checks the
//! requirement file itself, and TJ014 sets aside a `tools.json` that is no tool list at all.

use super::util::name_words;
use super::util::{edit_distance, nearest};
use crate::check::Unit;
use crate::check::{Check, RuleImpl, Sink};
use crate::diagnostic::{Edit, Fix};
use crate::edit::json::{Json, JsonText, Place};
use crate::index::Parsed;
use crate::model::requirement::RequirementDoc;
use crate::model::tools::{Dialect, ShapeProblemKind, SideEffect, Tool};
use crate::parse::node::{pointer_token, Member, Node, Value};
use crate::source::{FileId, Span};
use std::collections::{BTreeMap, HashMap, HashSet};

pub const RULES: &[RuleImpl] = &[
    RuleImpl {
        code: "TJ001",
        check: Check::Unit(tools_json_invalid),
    },
    RuleImpl {
        code: "TJ002",
        check: Check::Unit(contract_violation),
    },
    RuleImpl {
        code: "TJ003",
        check: Check::Unit(write_without_confirmation),
    },
    RuleImpl {
        code: "TJ004",
        check: Check::Unit(confirmation_field_missing),
    },
    RuleImpl {
        code: "TJ005",
        check: Check::Unit(idempotency_key_missing),
    },
    RuleImpl {
        code: "TJ006",
        check: Check::Unit(read_tool_write_gates),
    },
    RuleImpl {
        code: "TJ007",
        check: Check::Unit(tool_name_duplicate),
    },
    RuleImpl {
        code: "TJ008",
        check: Check::Unit(requirement_tool_undefined),
    },
    RuleImpl {
        code: "TJ009",
        check: Check::Unit(requirement_obligation_dropped),
    },
    RuleImpl {
        code: "TJ010",
        check: Check::Unit(tool_not_in_requirement),
    },
    RuleImpl {
        code: "TJ011",
        check: Check::Unit(tool_conflicts_non_goal),
    },
    RuleImpl {
        code: "TJ012",
        check: Check::Unit(multi_capability_tool),
    },
    RuleImpl {
        code: "TJ013",
        check: Check::Unit(requirement_invalid),
    },
    RuleImpl {
        code: "TJ014",
        check: Check::Unit(not_a_tool_list),
    },
];

/// The keys of a forge tool entry; the entry is closed.
const FORGE_KEYS: [&str; 6] = [
    "name",
    "type",
    "description",
    "requiresConfirmation",
    "idempotent",
    "inputSchema",
];

const CONFIRMATION_FIELD: &str = "user_confirmed";
const IDEMPOTENCY_FIELD: &str = "idempotency_key";

/// Descriptions of the parameters the fixes add.
const CONFIRMATION_DESCRIPTION: &str =
    "Must be true. Set only after the user explicitly confirmed this exact operation.";
const IDEMPOTENCY_DESCRIPTION: &str =
    "Stable key for this logical operation so retries never create duplicates.";

/// A gate parameter: its name, JSON type and the description a fix gives it.
#[derive(Clone, Copy)]
struct GateField {
    name: &'static str,
    json_type: &'static str,
    description: &'static str,
}

const CONFIRMATION: GateField = GateField {
    name: CONFIRMATION_FIELD,
    json_type: "boolean",
    description: CONFIRMATION_DESCRIPTION,
};

const IDEMPOTENCY: GateField = GateField {
    name: IDEMPOTENCY_FIELD,
    json_type: "string",
    description: IDEMPOTENCY_DESCRIPTION,
};

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

/// The forge tools of the folder, in document order.
fn forge_tools<'a>(unit: &Unit<'a>) -> impl Iterator<Item = (FileId, &'a Tool)> + 'a {
    unit.tools().filter(|(_, t)| t.dialect == Dialect::Forge)
}

/// True when every tools file of the folder was read and parsed, so "not defined" means it.
fn tools_files_complete(unit: &Unit<'_>) -> bool {
    unit.files
        .tools
        .iter()
        .all(|id| matches!(unit.parsed(*id), Parsed::Tools(doc) if doc.parse_error.is_none()))
}

/// A defined name close enough to `name` to be a typo or a small rename (stricter than
/// [`nearest`], which would pair `search_events` with `create_event`).
fn similar_name<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 4).max(2);
    nearest(name, candidates).filter(|c| edit_distance(name, c) <= limit)
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Cuts `text` to at most `max` characters, marking the cut.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{}…", cut.trim_end())
    }
}

/// How a found value is named in "must be X, found Y" messages.
fn describe(node: &Node) -> String {
    match &node.value {
        Value::Null => "`null`".to_string(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => format!("{} `{}`", node.type_name(), truncate(&n.raw, 24)),
        Value::String(s) if s.is_empty() => "an empty string".to_string(),
        Value::String(s) => format!("string `{:?}`", truncate(s, 40)),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

/// What is wrong with a schema property that a safety flag requires (`user_confirmed`,
/// `idempotency_key`), if anything.
enum FieldProblem<'a> {
    Missing,
    /// Wrongly typed, optional, or both; the member points at the property as written.
    Weak {
        member: &'a Member,
        wrong_type: bool,
        optional: bool,
    },
}

fn field_problem<'a>(tool: &'a Tool, field: &str, json_type: &str) -> Option<FieldProblem<'a>> {
    let Some(member) = tool.property(field) else {
        return Some(FieldProblem::Missing);
    };
    let wrong_type = member.value.get("type").and_then(Node::as_str) != Some(json_type);
    let optional = tool.required_entry(field).is_none();
    (wrong_type || optional).then_some(FieldProblem::Weak {
        member,
        wrong_type,
        optional,
    })
}

/// Reports a flag (`requiresConfirmation: true`, `idempotent: true`) whose schema field is missing
/// or weak. Shared by TJ004 and TJ005.
fn report_field_problem(
    sink: &mut Sink,
    (file, json): (FileId, &JsonText<'_>),
    tool: &Tool,
    flag_span: Span,
    (adjective, gate): (&str, GateField),
    help: &str,
) {
    let (field, json_type) = (gate.name, gate.json_type);
    let Some(problem) = field_problem(tool, field, json_type) else {
        return;
    };
    let name = tool.display_name();
    let fix = gate_field_edits(json, tool, gate)
        .filter(|edits| !edits.is_empty())
        .map(|edits| {
            Fix::safe(
                format!("make `{field}` a required {json_type} parameter of `{name}`"),
                edits,
            )
        });
    let diagnostic = match problem {
        FieldProblem::Missing => sink
            .report(
                file,
                flag_span,
                format!("{adjective} tool `{name}` has no `{field}` parameter"),
            )
            .label(format!("no `{field}` parameter backs this flag"))
            .help(help),
        FieldProblem::Weak {
            member,
            wrong_type,
            optional,
        } => {
            let what = match (wrong_type, optional) {
                (true, true) => format!("neither a {json_type} nor required"),
                (true, false) => format!("not a {json_type}"),
                _ => "optional".to_string(),
            };
            let (span, label) = if wrong_type {
                match member.value.get("type") {
                    Some(t) => (t.span, format!("declared as {}", describe_type(t))),
                    None => (member.key_span, "declared without a `type`".to_string()),
                }
            } else {
                (member.key_span, "missing from `required`".to_string())
            };
            let flag_label = format!("requires a required {json_type} `{field}`");
            sink.report(
                file,
                flag_span,
                format!("`{field}` of {adjective} tool `{name}` is {what}"),
            )
            .label(flag_label)
            .secondary(file, span, label)
            .help(help)
        }
    };
    if let Some(fix) = fix {
        diagnostic.fix(fix);
    }
}

/// The edits that make `gate` a required parameter of the right type in the tool's input schema:
/// the property (with a description) when it is missing, its `type` when that is wrong, and its
/// `required` entry, creating `properties` and `required` when they are absent. Empty when nothing
/// is missing; `None` when it cannot be done safely (no schema object, a `required` that is not an
/// array, or an existing property whose other keywords would contradict the new type).
fn gate_field_edits(json: &JsonText<'_>, tool: &Tool, gate: GateField) -> Option<Vec<Edit>> {
    let schema = tool.schema().filter(|s| s.is_object())?;
    let field = gate.name;
    let property = || {
        Json::Object(vec![
            ("type", Json::Str(gate.json_type)),
            ("description", Json::Str(gate.description)),
        ])
    };
    let required = schema.get("required");
    let needs_required = tool.required_entry(field).is_none();
    if needs_required && required.is_some_and(|r| r.as_array().is_none()) {
        return None;
    }
    let new_required = || ("required", Json::Array(vec![Json::Str(field)]));
    let mut edits = Vec::new();
    match schema.get("properties") {
        None => {
            let mut members = vec![("properties", Json::Object(vec![(field, property())]))];
            if needs_required && required.is_none() {
                members.push(new_required());
            }
            edits.push(json.insert_members(schema, Place::After("type"), &members)?);
        }
        Some(properties) => {
            match properties.member(field) {
                None if properties.is_object() => {
                    edits.push(json.insert_members(
                        properties,
                        Place::Last,
                        &[(field, property())],
                    )?);
                }
                None => return None,
                Some(member) => {
                    let typed =
                        member.value.get("type").and_then(Node::as_str) == Some(gate.json_type);
                    if !typed {
                        edits.push(retype(json, &member.value, gate.json_type)?);
                    }
                }
            }
            if needs_required && required.is_none() {
                edits.push(json.insert_members(
                    schema,
                    Place::After("properties"),
                    &[new_required()],
                )?);
            }
        }
    }
    if needs_required {
        if let Some(required) = required {
            edits.push(json.append_item(required, &Json::Str(field))?);
        }
    }
    Some(edits)
}

/// Gives an existing property the gate's type, when nothing else in it depends on the old one
/// (only `type`, `description`, `title` and `$comment` are present).
fn retype(json: &JsonText<'_>, property: &Node, json_type: &str) -> Option<Edit> {
    const NEUTRAL: [&str; 4] = ["type", "description", "title", "$comment"];
    let members = property.as_object()?;
    if members.iter().any(|m| !NEUTRAL.contains(&m.key.as_str())) {
        return None;
    }
    match property.get("type") {
        Some(node) => Some(json.replace(node, &Json::Str(json_type))),
        None => json.insert_members(property, Place::First, &[("type", Json::Str(json_type))]),
    }
}

/// The edits that take a gate parameter out of a read tool: its property and its `required` entry.
fn remove_gate_field(json: &JsonText<'_>, tool: &Tool, field: &str) -> Option<Vec<Edit>> {
    let schema = tool.schema()?;
    let mut edits = vec![json.remove_member(schema.get("properties")?, field)?];
    if let Some(required) = schema.get("required") {
        let index = required
            .as_array()
            .and_then(|items| items.iter().position(|n| n.as_str() == Some(field)));
        if let Some(index) = index {
            edits.push(json.remove_item(required, index)?);
        }
    }
    Some(edits)
}

/// `"string"` for a JSON Schema `type` value, else a description of what was written.
fn describe_type(node: &Node) -> String {
    match node.as_str() {
        Some(t) => format!("`{t:?}`"),
        None => describe(node),
    }
}

// ---------------------------------------------------------------------------------------------
// TJ001 tools-json-invalid
// ---------------------------------------------------------------------------------------------

fn tools_json_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, doc) in unit.tools_docs() {
        let Some(error) = &doc.parse_error else {
            continue;
        };
        let text = unit.text(id);
        let file = unit.repo.file_name(id);
        let message = format!(
            "`{file}` is not valid JSON: {}",
            lowercase_first(&error.message)
        );
        let unterminated = error.message.starts_with("Unterminated");
        let at_end = error.span.start >= text.trim_end().len();
        if unterminated || at_end {
            // The document stops early: the parser gave up at the end of the file.
            // The last character, so the caret has something to point at.
            let end_offset = text.trim_end().len();
            let last_len = text[..end_offset]
                .chars()
                .next_back()
                .map_or(0, char::len_utf8);
            let end = Span::new(end_offset - last_len, end_offset);
            let diagnostic = sink.report(id, end, message);
            diagnostic
                .label("the file ends here")
                .help("close every open object and array (the file looks truncated), or regenerate it from its requirement");
            if unterminated && error.span.start < end.start {
                let opening = Span::new(error.span.start, error.span.start + 1);
                let what = if error.message.contains("array") {
                    "this array is never closed"
                } else if error.message.contains("string") {
                    "this string is never closed"
                } else {
                    "this object is never closed"
                };
                diagnostic.secondary(id, opening, what);
            }
        } else {
            sink.report(id, error.span, message)
                .label("the parser stopped here")
                .help("fix the syntax at or just before this point (an unclosed brace, a trailing comma, a stray quote); nothing else in this file is checked until it parses");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TJ002 tools-json-contract-violation
// ---------------------------------------------------------------------------------------------

fn contract_violation(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, doc) in unit.tools_docs() {
        for problem in &doc.problems {
            let help = match (problem.kind, problem.expected) {
                (ShapeProblemKind::Mixed, _) => "rewrite this entry in the file's dialect, or move it to its own `*.tools.json` file".to_string(),
                (ShapeProblemKind::Container, _) => "write the tools as an array (`[{…}, {…}]`) or as an object with a `tools` array".to_string(),
                (ShapeProblemKind::Entry, Some((key, dialect))) => format!(
                    "give it the `{key}` the file's {} tools have, or move it to a file of its own dialect",
                    dialect.as_str()
                ),
                (ShapeProblemKind::Entry, None) => "write every tool in one dialect: forge, MCP, OpenAI, Anthropic or script (see `skilllint rule TJ002`)".to_string(),
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

// ---------------------------------------------------------------------------------------------
// TJ003–TJ006: the safety flags of forge tools
// ---------------------------------------------------------------------------------------------

fn write_without_confirmation(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, tool) in forge_tools(unit) {
        if !tool.is_write() {
            continue;
        }
        let name = tool.display_name();
        let message = format!("write tool `{name}` can run without confirmation");
        let json = unit.json_text(id);
        let flag = tool.entry.get("requiresConfirmation");
        let (diagnostic, flag_edit) = match flag {
            Some(flag) if flag.as_bool() == Some(true) => continue,
            Some(flag) => {
                let label = if flag.as_bool() == Some(false) {
                    "confirmation disabled here"
                } else {
                    "not a boolean, so the tool is not gated"
                };
                let edit = json.replace(flag, &Json::Bool(true));
                (sink.report(id, flag.span, message).label(label), Some(edit))
            }
            None => {
                // A misspelled flag (`requireConfirmation`) is what the author meant: correct it
                // rather than add a second flag beside it.
                let misspelled = tool.entry.as_object().unwrap_or_default().iter().find(|m| {
                    !FORGE_KEYS.contains(&m.key.as_str())
                        && nearest(&m.key, FORGE_KEYS) == Some("requiresConfirmation")
                });
                let edit = match misspelled {
                    Some(member) => {
                        let text = unit.text(id);
                        let colon = text
                            .get(member.key_span.end..member.value.span.start)
                            .unwrap_or(": ");
                        Some(Edit::replace(
                            id,
                            Span::new(member.key_span.start, member.value.span.end),
                            format!("\"requiresConfirmation\"{colon}true"),
                        ))
                    }
                    None => json.insert_members(
                        &tool.entry,
                        Place::After("type"),
                        &[("requiresConfirmation", Json::Bool(true))],
                    ),
                };
                let diagnostic = sink
                    .report(id, tool.span(), message)
                    .label("no `requiresConfirmation` flag");
                (diagnostic, edit)
            }
        };
        if let Some(span) = tool.side_effect_span {
            diagnostic.secondary(id, span, "declared a write tool here");
        }
        diagnostic.help(
            "set `\"requiresConfirmation\": true` and add a required boolean `user_confirmed` parameter",
        );
        // One coherent edit: the flag and the parameter it implies. When the parameter cannot be
        // added safely, the flag alone still closes the gate and TJ004 explains the rest.
        if let Some(flag_edit) = flag_edit {
            let fix = match gate_field_edits(&json, tool, CONFIRMATION) {
                Some(mut edits) if !edits.is_empty() => {
                    edits.insert(0, flag_edit);
                    Fix::safe(
                        "set `requiresConfirmation` to `true` and add the required boolean \
                         `user_confirmed` parameter",
                        edits,
                    )
                }
                _ => Fix::safe("set `requiresConfirmation` to `true`", vec![flag_edit]),
            };
            diagnostic.fix(fix);
        }
    }
}

fn confirmation_field_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, tool) in forge_tools(unit) {
        let Some((true, flag_span)) = tool.confirmation else {
            continue;
        };
        // A gated read tool is TJ006's while it runs for the file: the gate should go, not be
        // completed. With TJ006 off the gate is kept on purpose, and must be complete.
        if tool.side_effect == SideEffect::Read && unit.reports("TJ006", id) {
            continue;
        }
        report_field_problem(
            sink,
            (id, &unit.json_text(id)),
            tool,
            flag_span,
            ("confirmation-gated", CONFIRMATION),
            "define `\"user_confirmed\": {\"type\": \"boolean\"}` in `inputSchema.properties` and list it in `required`",
        );
    }
}

fn idempotency_key_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, tool) in forge_tools(unit) {
        // Read tools are exempt: a lookup can be repeated safely without a key, so none is asked
        // for, whether or not TJ006 runs (TJ006 asks for a key on a read tool to be removed).
        if tool.side_effect == SideEffect::Read {
            continue;
        }
        let Some((true, flag_span)) = tool.idempotent else {
            continue;
        };
        report_field_problem(
            sink,
            (id, &unit.json_text(id)),
            tool,
            flag_span,
            ("idempotent", IDEMPOTENCY),
            "define `\"idempotency_key\": {\"type\": \"string\"}` in `inputSchema.properties` and list it in `required`, or set `\"idempotent\": false` if retries are not safe",
        );
    }
}

fn read_tool_write_gates(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "if the tool only reads, remove the gate; if it changes state, make it `\"type\": \"write\"` and keep the gate";
    for (id, tool) in forge_tools(unit) {
        if tool.side_effect != SideEffect::Read {
            continue;
        }
        let name = tool.display_name();
        let json = unit.json_text(id);
        let mut found: Vec<(Span, String, &str, Option<Fix>)> = Vec::new();
        if let Some((true, span)) = tool.confirmation {
            let fix = tool.entry.get("requiresConfirmation").map(|flag| {
                Fix::safe(
                    "set `requiresConfirmation` to `false`",
                    vec![json.replace(flag, &Json::Bool(false))],
                )
            });
            found.push((
                span,
                format!("read tool `{name}` requires confirmation"),
                "confirmation gate on a read tool",
                fix,
            ));
        }
        for (field, message, label) in [
            (
                CONFIRMATION_FIELD,
                format!("read tool `{name}` has a `{CONFIRMATION_FIELD}` parameter"),
                "confirmation field on a read tool",
            ),
            (
                IDEMPOTENCY_FIELD,
                format!("read tool `{name}` has an `{IDEMPOTENCY_FIELD}` parameter"),
                "idempotency key on a read tool",
            ),
        ] {
            let Some(member) = tool.property(field) else {
                continue;
            };
            let fix = remove_gate_field(&json, tool, field).map(|edits| {
                Fix::safe(
                    format!("remove the `{field}` parameter and its `required` entry"),
                    edits,
                )
            });
            found.push((member.key_span, message, label, fix));
        }
        for (span, message, label, fix) in found {
            let diagnostic = sink.report(id, span, message);
            diagnostic.label(label);
            if let Some(kind) = tool.side_effect_span {
                diagnostic.secondary(id, kind, "declared read-only here");
            }
            diagnostic.help(HELP);
            if let Some(fix) = fix {
                diagnostic.fix(fix);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TJ007 tool-name-duplicate
// ---------------------------------------------------------------------------------------------

fn tool_name_duplicate(unit: &Unit<'_>, sink: &mut Sink) {
    let mut first: BTreeMap<&str, (FileId, Span)> = BTreeMap::new();
    for (id, tool) in unit.tools() {
        let Some(name) = tool.name().filter(|n| !n.is_empty()) else {
            continue;
        };
        let span = tool.span();
        match first.get(name) {
            None => {
                first.insert(name, (id, span));
            }
            Some(&(first_id, first_span)) => {
                let message = if first_id == id {
                    format!("tool `{name}` is defined twice")
                } else {
                    format!(
                        "tool `{name}` is also defined in `{}`",
                        unit.repo.file(first_id).rel_path
                    )
                };
                sink.report(id, span, message)
                    .label("second definition")
                    .secondary(first_id, first_span, "first defined here")
                    .help("delete the stale definition, or give this tool its own name and document it in SKILL.md");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TJ008–TJ011: tools.json against the requirement
// ---------------------------------------------------------------------------------------------

fn requirement_tool_undefined(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    // A tools file that failed to parse has no tools; TJ001 says so once.
    if !tools_files_complete(unit) {
        return;
    }
    let defined: Vec<&str> = unit.tools().filter_map(|(_, t)| t.name()).collect();
    let defined_set: HashSet<&str> = defined.iter().copied().collect();
    let tools_file = unit
        .files
        .tools
        .first()
        .map(|id| unit.repo.file_name(*id).to_string());
    for required in &requirement.tools {
        if defined_set.contains(required.name.as_str()) {
            continue;
        }
        let name = &required.name;
        let message = match &tools_file {
            Some(file) => format!("requirement tool `{name}` is not defined in `{file}`"),
            None => {
                format!("requirement tool `{name}` is not defined: the folder has no tools.json")
            }
        };
        let kind = required
            .kind
            .as_ref()
            .map_or(String::new(), |(k, _)| format!(" as a `{k}` tool"));
        let help = match similar_name(name, defined.iter().copied()) {
            Some(similar) => format!(
                "tools.json defines `{similar}`; if the tool was renamed, use the same name in both files"
            ),
            None => format!(
                "add `{name}` to tools.json{kind} and document it in SKILL.md, or remove it from the requirement"
            ),
        };
        sink.report(rid, required.name_span, message)
            .label("required here")
            .help(help);
    }
}

/// The names the requirement lists as `write` tools.
fn required_writes(requirement: &RequirementDoc) -> HashSet<&str> {
    requirement
        .tools
        .iter()
        .filter(|t| matches!(&t.kind, Some((kind, _)) if kind == "write"))
        .map(|t| t.name.as_str())
        .collect()
}

fn requirement_obligation_dropped(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    // A `write` requirement tool declared read-only. The first tool of each name, as
    // `Unit::find_tool` finds it, looked up once per name instead of scanning every tool.
    let mut first_by_name: HashMap<&str, (FileId, &Tool)> = HashMap::new();
    for (tid, tool) in unit.tools() {
        if let Some(name) = tool.name() {
            first_by_name.entry(name).or_insert((tid, tool));
        }
    }
    for required in &requirement.tools {
        let Some((kind, kind_span)) = &required.kind else {
            continue;
        };
        if kind != "write" {
            continue;
        }
        let Some(&(tid, tool)) = first_by_name.get(required.name.as_str()) else {
            continue;
        };
        let (SideEffect::Read, Some(span)) = (tool.side_effect, tool.side_effect_span) else {
            continue;
        };
        let file = unit.repo.file_name(tid);
        sink.report(
            tid,
            span,
            format!(
                "requirement write tool `{}` is declared read-only in `{file}`",
                required.name
            ),
        )
        .label("downgraded to read")
        .secondary(rid, *kind_span, "the requirement makes it a write tool")
        .help("declare it as a write tool (with its confirmation gate), or change the requirement if the tool really only reads");
    }

    // Idempotency activated by a safety requirement, missing on a write tool.
    let Some(phrase) = requirement.idempotency_phrase() else {
        return;
    };
    let required_as_writes = required_writes(requirement);
    for (tid, tool) in unit.tools() {
        if !matches!(tool.dialect, Dialect::Forge | Dialect::Mcp) {
            continue;
        }
        let written_write = tool.is_write();
        let required_as_write = tool.name().is_some_and(|n| required_as_writes.contains(n));
        if !written_write && !required_as_write {
            continue;
        }
        let (flag, fix) = match tool.dialect {
            Dialect::Mcp => (
                "annotations.idempotentHint",
                "set `\"idempotentHint\": true` in `annotations` and add a required string `idempotency_key` parameter",
            ),
            _ => (
                "idempotent",
                "set `\"idempotent\": true` and add a required string `idempotency_key` parameter",
            ),
        };
        let written = match tool.dialect {
            Dialect::Mcp => tool.annotations().and_then(|a| a.get("idempotentHint")),
            _ => tool.entry.get("idempotent"),
        };
        let (span, label) = match written {
            Some(node) if node.as_bool() == Some(true) => continue,
            Some(node) => (node.span, "idempotency dropped here".to_string()),
            None => (tool.span(), format!("no `{flag}` flag")),
        };
        sink.report(
            tid,
            span,
            format!(
                "write tool `{}` is not idempotent, but the requirement asks for an idempotency key",
                tool.display_name()
            ),
        )
        .label(label)
        .secondary(rid, phrase.span, "the requirement activates idempotency here")
        .help(fix);
    }
}

fn tool_not_in_requirement(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    // An unparsable requirement lists nothing; TJ013 reports it once.
    if requirement.parse_error.is_some() {
        return;
    }
    let requirement_file = unit.repo.file_name(rid);
    let listed: Vec<&str> = requirement.tools.iter().map(|t| t.name.as_str()).collect();
    let listed_set: HashSet<&str> = listed.iter().copied().collect();
    for (tid, tool) in unit.tools() {
        let Some(name) = tool.name() else {
            continue;
        };
        if listed_set.contains(name) {
            continue;
        }
        let help = match similar_name(name, listed.iter().copied()) {
            Some(similar) => format!(
                "the requirement lists `{similar}`; if the tool was renamed, use the same name in both files"
            ),
            None => format!(
                "add `{name}` to the `tools` of `{requirement_file}` with its type and description, or remove the tool"
            ),
        };
        sink.report(
            tid,
            tool.span(),
            format!("tool `{name}` is not listed in `{requirement_file}`"),
        )
        .label("not in the requirement")
        .help(help);
    }
}

/// The verb of a non-goal "Do not <verb> …" (any case), lowercased.
fn non_goal_verb(text: &str) -> Option<String> {
    let trimmed = text.trim_start();
    let prefix = trimmed.get(..6)?;
    if !prefix.eq_ignore_ascii_case("do not") {
        return None;
    }
    let rest = trimmed.get(6..)?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let verb: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect();
    (!verb.is_empty()).then(|| verb.to_lowercase())
}

fn tool_conflicts_non_goal(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    let goals: Vec<(String, Span)> = requirement
        .non_goals
        .iter()
        .filter_map(|g| non_goal_verb(&g.text).map(|v| (v, g.span)))
        .collect();
    if goals.is_empty() {
        return;
    }
    // The non-goals of each verb, so a tool's words are looked up rather than compared with
    // every non-goal (a long list of non-goals and many tools made that quadratic).
    let mut goals_by_verb: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, (verb, _)) in goals.iter().enumerate() {
        goals_by_verb.entry(verb.as_str()).or_default().push(index);
    }
    for (tid, tool) in unit.tools() {
        let Some(name) = tool.name() else {
            continue;
        };
        let words = name_words(name);
        // The matching non-goals in the requirement's order, each once.
        let mut matching: Vec<usize> = Vec::new();
        let mut looked_up: HashSet<&str> = HashSet::new();
        for word in &words {
            if looked_up.insert(word.as_str()) {
                if let Some(indices) = goals_by_verb.get(word.as_str()) {
                    matching.extend(indices);
                }
            }
        }
        matching.sort_unstable();
        for (verb, span) in matching.iter().filter_map(|&i| goals.get(i)) {
            sink.report(
                tid,
                tool.span(),
                format!("tool `{name}` can `{verb}`, which a non-goal rules out"),
            )
            .label(format!("`{verb}` is a non-goal"))
            .secondary(rid, *span, "ruled out here")
            .help("remove the tool and its Tool Use Rules, or drop the non-goal from the requirement if the capability is now wanted");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TJ012 multi-capability-tool
// ---------------------------------------------------------------------------------------------

/// Words that make a parameter an operation selector: its whole name (`action`, `method`), its
/// last word (`sub_action`, `fileOperation`), or its first word before a qualifier (`action_type`,
/// `op_name`). `type`, `kind` and `name` alone are not selectors: they usually name a kind of thing
/// (`type: ["blocked_by", "blocking"]`), and an enum of them is rarely a list of operations.
const SELECTOR_WORDS: [&str; 8] = [
    "action",
    "operation",
    "op",
    "mode",
    "command",
    "cmd",
    "method",
    "verb",
];

/// The words that may follow a selector word in a two-word selector name (`action_type`).
const SELECTOR_QUALIFIERS: [&str; 3] = ["type", "name", "kind"];

/// HTTP methods: an enum of only these (`GET`, `POST`, `DELETE`) picks a transport verb for a
/// request tool, not one of several operations the tool implements.
const HTTP_METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
];

/// Whether a parameter name says that its value selects an operation.
fn is_selector_parameter(name: &str) -> bool {
    let words = name_words(name);
    let selector = |word: &String| SELECTOR_WORDS.contains(&word.as_str());
    match words.as_slice() {
        [.., last] if selector(last) => true,
        [first, qualifier] => selector(first) && SELECTOR_QUALIFIERS.contains(&qualifier.as_str()),
        _ => false,
    }
}

/// Whether every value of an `enum` is an HTTP method written the HTTP way (upper case).
fn is_http_method_enum(values: &Node) -> bool {
    values.as_array().is_some_and(|items| {
        !items.is_empty()
            && items
                .iter()
                .all(|v| v.as_str().is_some_and(|m| HTTP_METHODS.contains(&m)))
    })
}

/// Verbs that name distinct operations.
const OPERATION_VERBS: [&str; 30] = [
    "create", "add", "insert", "new", "update", "edit", "modify", "patch", "set", "upsert",
    "delete", "remove", "destroy", "cancel", "archive", "search", "find", "query", "get", "fetch",
    "list", "read", "view", "show", "write", "send", "post", "move", "copy", "rename",
];

fn multi_capability_tool(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "split it into one tool per operation, each with its own read/write classification and confirmation gate";
    for (id, tool) in unit.tools() {
        let name = tool.display_name();
        if tool
            .name()
            .is_some_and(|n| name_words(n).first().is_some_and(|w| w == "manage"))
        {
            sink.report(
                id,
                tool.span(),
                format!("tool `{name}` bundles several capabilities behind one name"),
            )
            .label("`manage` names no single capability")
            .help(HELP);
        }
        let Some(properties) = tool
            .schema()
            .and_then(|s| s.get("properties"))
            .and_then(Node::as_object)
        else {
            continue;
        };
        for property in properties {
            if !is_selector_parameter(&property.key) {
                continue;
            }
            let Some(values) = property.value.get("enum") else {
                continue;
            };
            if is_http_method_enum(values) {
                continue;
            }
            let verbs = enum_verbs(values);
            if verbs.len() < 2 {
                continue;
            }
            sink.report(
                id,
                values.span,
                format!(
                    "tool `{name}` selects one of {} through its `{}` parameter",
                    join_verbs(&verbs),
                    property.key
                ),
            )
            .label("several operations in one tool")
            .help(HELP);
        }
    }
}

/// The distinct operation verbs an `enum` offers, in order (`"create_task"` counts as `create`).
fn enum_verbs(values: &Node) -> Vec<String> {
    let mut verbs: Vec<String> = Vec::new();
    for value in values.as_array().unwrap_or_default() {
        let Some(text) = value.as_str() else {
            continue;
        };
        let Some(first) = name_words(text).into_iter().next() else {
            continue;
        };
        if OPERATION_VERBS.contains(&first.as_str()) && !verbs.contains(&first) {
            verbs.push(first);
        }
    }
    verbs
}

/// "`create`, `delete` and `list`".
fn join_verbs(verbs: &[String]) -> String {
    let quoted: Vec<String> = verbs.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// TJ014 tools-json-not-a-tool-list
// ---------------------------------------------------------------------------------------------

fn not_a_tool_list(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, doc) in unit.tools_docs() {
        let Some(why) = &doc.not_a_tool_list else {
            continue;
        };
        let file = unit.repo.file_name(id);
        sink.report(
            id,
            why.span,
            format!("`{file}` is not a tool list in any known dialect; not linted"),
        )
        .label(why.label.clone())
        .help("if it belongs to another program, list it under `[lint.per-file-ignores]` with `TJ014`, or rename it; a file meant to list tools must use one dialect (`skilllint rule TJ002`)");
    }
}

// ---------------------------------------------------------------------------------------------
// TJ013 requirement-invalid
// ---------------------------------------------------------------------------------------------

fn requirement_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "a requirement has `tools: [{name, type: read|write, description}]`, `safety_requirements: [string]` and `non_goals: [string]`";
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    let file = unit.repo.file_name(rid);
    if let Some(error) = &requirement.parse_error {
        let diagnostic = sink.report(
            rid,
            error.span,
            format!(
                "`{file}` is not valid YAML: {}",
                lowercase_first(&error.message)
            ),
        );
        diagnostic.label("the parser stopped here");
        if let Some(first) = error.first_definition {
            diagnostic.secondary(rid, first, "first defined here");
        }
        diagnostic.help("fix the YAML at or just before this point; nothing else in the requirement is checked until it parses");
    }
    const KEYS: [&str; 3] = ["tools", "safety_requirements", "non_goals"];
    for (span, problem) in &requirement.problems {
        let diagnostic = sink.report(rid, *span, problem.clone());
        let key = unit.text(rid).get(span.start..span.end).unwrap_or("");
        let suggestion = if problem.starts_with("unknown key") {
            similar_name(key, KEYS)
        } else {
            None
        };
        match suggestion {
            Some(suggestion) => diagnostic
                .label("unknown key")
                .help(format!("rename it to `{suggestion}`; a misspelled key is ignored, and so is everything under it")),
            None => diagnostic.help(HELP),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lints `files` with only `code` selected and returns (message, primary text) pairs.
    fn run(code: &str, files: &[(&str, &str)]) -> Vec<(String, String)> {
        crate::check::testing::findings(code, files)
            .into_iter()
            .map(|(d, text)| (d.message, text))
            .collect()
    }

    /// Runs the fix loop over `s/tools.json` with `codes` selected; returns the fixed file (the
    /// original when nothing changed) and the codes that still fire.
    fn fixed(codes: &[&str], tools: &str) -> (String, Vec<&'static str>) {
        let files = [("s/tools.json", tools)];
        crate::check::testing::fix_files(codes, &files, "tools.json", tools)
    }

    const GATES: [&str; 4] = ["TJ003", "TJ004", "TJ005", "TJ006"];

    #[test]
    fn tj003_restores_the_whole_gate_in_one_pass() {
        let tools = r#"[{"name": "a", "type": "write", "description": "d", "inputSchema": {"type": "object"}}]"#;
        let outcome = crate::check::testing::lint_files("TJ003", &[("s/tools.json", tools)]);
        let fix = outcome.diagnostics[0].fix.as_ref().expect("a fix");
        let edits: Vec<&Edit> = fix.edits.iter().collect();
        let (text, skipped) = crate::edit::apply_edits(tools, &edits);
        assert!(skipped.is_empty());
        assert_eq!(
            text,
            r#"[{"name": "a", "type": "write", "requiresConfirmation": true, "description": "d", "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "boolean", "description": "Must be true. Set only after the user explicitly confirmed this exact operation."}}, "required": ["user_confirmed"]}}]"#
        );
        assert!(fixed(&["TJ003", "TJ004"], tools).1.is_empty());
    }

    #[test]
    fn tj003_corrects_a_misspelled_flag_instead_of_adding_one() {
        let tools = r#"[{"name": "a", "type": "write", "description": "d", "requires_confirmation" : false,
            "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "boolean"}}, "required": ["user_confirmed"]}}]"#;
        let (text, remaining) = fixed(&["TJ002", "TJ003", "TJ004"], tools);
        assert!(remaining.is_empty(), "{remaining:?}");
        assert_eq!(
            text,
            tools.replace(
                "\"requires_confirmation\" : false",
                "\"requiresConfirmation\" : true"
            )
        );
    }

    #[test]
    fn gate_fields_are_retyped_only_when_nothing_depends_on_the_old_type() {
        let tools = "[\n  {\n    \"name\": \"a\",\n    \"type\": \"write\",\n    \"description\": \"d\",\n    \"requiresConfirmation\": true,\n    \"inputSchema\": {\n      \"type\": \"object\",\n      \"properties\": {\n        \"user_confirmed\": {\n          \"description\": \"Yes.\",\n          \"type\": \"string\"\n        }\n      }\n    }\n  }\n]\n";
        let (text, remaining) = fixed(&GATES, tools);
        assert!(remaining.is_empty(), "{remaining:?}");
        assert!(
            text.contains("\"type\": \"boolean\"\n        }\n      },\n      \"required\": [\"user_confirmed\"]\n    }"),
            "{text}"
        );
        let constrained = tools.replace("\"description\": \"Yes.\"", "\"enum\": [\"yes\"]");
        let (text, remaining) = fixed(&GATES, &constrained);
        assert_eq!(text, constrained);
        assert_eq!(remaining, vec!["TJ004"]);
    }

    #[test]
    fn tj006_takes_the_gates_off_a_read_tool() {
        let tools = "[\n    {\n        \"name\": \"a\",\n        \"type\": \"read\",\n        \"description\": \"d\",\n        \"requiresConfirmation\": true,\n        \"idempotent\": true,\n        \"inputSchema\": {\n            \"type\": \"object\",\n            \"properties\": {\n                \"q\": { \"type\": \"string\" },\n                \"user_confirmed\": { \"type\": \"boolean\" },\n                \"idempotency_key\": { \"type\": \"string\" }\n            },\n            \"required\": [\"user_confirmed\", \"q\", \"idempotency_key\"]\n        }\n    }\n]\n";
        let (text, remaining) = fixed(&GATES, tools);
        assert!(remaining.is_empty(), "{remaining:?}");
        assert_eq!(
            text,
            "[\n    {\n        \"name\": \"a\",\n        \"type\": \"read\",\n        \"description\": \"d\",\n        \"requiresConfirmation\": false,\n        \"idempotent\": true,\n        \"inputSchema\": {\n            \"type\": \"object\",\n            \"properties\": {\n                \"q\": { \"type\": \"string\" }\n            },\n            \"required\": [\"q\"]\n        }\n    }\n]\n"
        );
    }

    #[test]
    fn tj005_adds_the_key_beside_existing_properties() {
        let tools = "[\r\n  {\r\n    \"name\": \"a\",\r\n    \"type\": \"write\",\r\n    \"description\": \"d\",\r\n    \"requiresConfirmation\": true,\r\n    \"idempotent\": true,\r\n    \"inputSchema\": {\r\n      \"type\": \"object\",\r\n      \"properties\": {\r\n        \"user_confirmed\": { \"type\": \"boolean\" }\r\n      },\r\n      \"required\": [\r\n        \"user_confirmed\"\r\n      ]\r\n    }\r\n  }\r\n]\r\n";
        let (text, remaining) = fixed(&GATES, tools);
        assert!(remaining.is_empty(), "{remaining:?}");
        assert!(
            text.contains(
                "\"user_confirmed\": { \"type\": \"boolean\" },\r\n        \"idempotency_key\": { \"type\": \"string\", \"description\": \"Stable key for this logical operation so retries never create duplicates.\" }\r\n      },\r\n      \"required\": [\r\n        \"user_confirmed\",\r\n        \"idempotency_key\"\r\n      ]"
            ),
            "{text}"
        );
    }

    #[test]
    fn splits_names_into_words() {
        assert_eq!(name_words("delete_event"), ["delete", "event"]);
        assert_eq!(name_words("bulkDelete"), ["bulk", "delete"]);
        assert_eq!(
            name_words("HTTPRequest.send-now"),
            ["http", "request", "send", "now"]
        );
        assert_eq!(name_words("undelete_note"), ["undelete", "note"]);
        assert_eq!(name_words("v2Delete"), ["v2", "delete"]);
    }

    #[test]
    fn parses_non_goal_verbs() {
        assert_eq!(
            non_goal_verb("Do not delete existing events."),
            Some("delete".into())
        );
        assert_eq!(
            non_goal_verb("  DO NOT Invite attendees"),
            Some("invite".into())
        );
        assert_eq!(non_goal_verb("Don't delete events"), None);
        assert_eq!(non_goal_verb("Do nothing"), None);
        assert_eq!(non_goal_verb("Do not"), None);
        assert_eq!(non_goal_verb("Dö"), None);
    }

    #[test]
    fn forge_contract_reports_each_violation_at_its_key() {
        let tools = r#"[{"name": "a", "type": "write", "description": 3, "requiresConfirmation": "yes", "extra": 1}]"#;
        let found = run("TJ002", &[("s/tools.json", tools)]);
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert!(messages.contains(&"`/0/description` must be a string, found integer `3`"));
        assert!(messages.contains(&"`/0/inputSchema` is missing: expected a JSON Schema object"));
        assert!(messages
            .contains(&"`/0/requiresConfirmation` must be a boolean, found string `\"yes\"`"));
        assert!(messages.contains(&"`/0/extra` is not a forge contract key"));
        let missing = found.iter().find(|(m, _)| m.contains("inputSchema"));
        assert_eq!(missing.map(|(_, t)| t.as_str()), Some("\"a\""));
    }

    #[test]
    fn duplicate_keys_are_contract_violations_with_a_path() {
        let tools = r#"{"tools": [{"name": "a", "type": "read", "type": "write", "description": "d", "inputSchema": {}}]}"#;
        let found = run("TJ002", &[("s/tools.json", tools)]);
        assert_eq!(
            found,
            vec![(
                "`/tools/0/type` is defined twice".to_string(),
                "\"type\"".to_string()
            )]
        );
    }

    #[test]
    fn missing_name_points_at_the_entry() {
        let tools = r#"[{"type": "read", "description": "d", "inputSchema": {}}]"#;
        let found = run("TJ002", &[("s/tools.json", tools)]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].0,
            "`/0/name` is missing: expected a non-empty string"
        );
        assert!(found[0].1.starts_with('{'));
    }

    #[test]
    fn confirmation_field_must_be_a_required_boolean() {
        let tools = r#"[{"name": "a", "type": "write", "description": "d", "requiresConfirmation": true,
            "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "string"}}}}]"#;
        let found = run("TJ004", &[("s/tools.json", tools)]);
        assert_eq!(
            found,
            vec![(
                "`user_confirmed` of confirmation-gated tool `a` is neither a boolean nor required"
                    .to_string(),
                "true".to_string()
            )]
        );
    }

    #[test]
    fn read_tools_are_exempt_from_idempotency_keys() {
        let tools = r#"[{"name": "a", "type": "read", "description": "d", "idempotent": true, "inputSchema": {}}]"#;
        assert!(run("TJ005", &[("s/tools.json", tools)]).is_empty());
    }

    #[test]
    fn duplicates_across_tools_files_of_one_folder() {
        let first = r#"[{"name": "a", "type": "read", "description": "d", "inputSchema": {}}]"#;
        let found = run(
            "TJ007",
            &[
                ("s/tools.json", first),
                ("s/extra.tools.json", first),
                ("t/tools.json", first),
            ],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "tool `a` is also defined in `s/tools.json`");
    }

    #[test]
    fn requirement_rules_stay_quiet_when_tools_json_does_not_parse() {
        let requirement = "tools:\n  - name: a\n    type: write\n";
        let files = [("s/tools.json", "[{"), ("s/requirement.yaml", requirement)];
        assert!(run("TJ008", &files).is_empty());
        assert_eq!(run("TJ001", &files).len(), 1);
    }

    #[test]
    fn truncated_json_is_reported_at_the_end_of_the_file() {
        for (text, opening) in [
            ("[\n  {\"name\": \"a\",\n", "{"),
            ("[{\"name\": \"a\"}, \n", "["),
            ("[{\"name\": \"abc", "\""),
        ] {
            let outcome = crate::check::testing::lint_files("TJ001", &[("s/tools.json", text)]);
            let [diagnostic] = outcome.diagnostics.as_slice() else {
                panic!("one TJ001 expected for {text:?}: {:?}", outcome.diagnostics);
            };
            assert_eq!(
                diagnostic.primary.span.end,
                text.trim_end().len(),
                "{text:?}"
            );
            let secondary = diagnostic.secondary.first().map(|l| l.span);
            let opened = secondary.and_then(|s| text.get(s.start..s.end));
            assert_eq!(opened, Some(opening), "{text:?}: {}", diagnostic.message);
        }
        let found = run("TJ001", &[("s/tools.json", "[1,,]")]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, ",");
    }

    #[test]
    fn requirement_without_tools_file_reports_each_tool() {
        let requirement = "tools:\n  - name: a\n    type: write\n";
        let found = run("TJ008", &[("s/requirement.yaml", requirement)]);
        assert_eq!(
            found,
            vec![(
                "requirement tool `a` is not defined: the folder has no tools.json".to_string(),
                "a".to_string()
            )]
        );
    }

    #[test]
    fn idempotency_obligation_on_mcp_write_tools() {
        let tools = r#"{"tools": [{"name": "pay", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": false, "idempotentHint": false}}]}"#;
        let requirement = "tools:\n  - name: pay\n    type: write\nsafety_requirements:\n  - Use an idempotency key.\n";
        let found = run(
            "TJ009",
            &[("s/tools.json", tools), ("s/requirement.yaml", requirement)],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "false");
    }

    #[test]
    fn non_goal_verbs_match_whole_name_words() {
        let tools = r#"[{"name": "bulkDelete", "type": "write", "description": "d", "inputSchema": {}},
            {"name": "undelete_note", "type": "write", "description": "d", "inputSchema": {}}]"#;
        let requirement = "non_goals:\n  - do NOT delete notes\n";
        let found = run(
            "TJ011",
            &[("s/tools.json", tools), ("s/requirement.yaml", requirement)],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "\"bulkDelete\"");
    }

    #[test]
    fn a_file_that_is_no_tool_list_is_reported_once_and_is_no_tools_file() {
        let skill = "---\nname: s\ndescription: Builds the site.\n---\n\n# Site\n";
        let manifest =
            r#"{"name": "site", "version": "1.0.0", "tools": {"eslint": {"version": "9"}}}"#;
        let files = [("s/SKILL.md", skill), ("s/tools.json", manifest)];
        let found = run("TJ014", &files);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "\"tools\"");
        for code in ["TJ002", "TR001"] {
            assert!(run(code, &files).is_empty(), "{code}");
        }
        // A broken tool list is still one: TJ002, not TJ014, and TR001 asks for the rules.
        let broken = r#"{"tools": [{"name": "build_site", "description": "Build the site."}]}"#;
        let files = [("s/SKILL.md", skill), ("s/tools.json", broken)];
        assert!(run("TJ014", &files).is_empty());
        assert_eq!(run("TJ002", &files).len(), 1);
        assert_eq!(run("TR001", &files).len(), 1);
    }

    #[test]
    fn selector_parameter_names() {
        for name in [
            "action",
            "Method",
            "merge_method",
            "subAction",
            "action_type",
            "opType",
            "operation_name",
            "cmd",
        ] {
            assert!(is_selector_parameter(name), "{name}");
        }
        for name in [
            "type",
            "kind",
            "name",
            "state",
            "method_count",
            "event",
            "actions",
        ] {
            assert!(!is_selector_parameter(name), "{name}");
        }
    }

    #[test]
    fn multi_capability_through_method_parameters() {
        // The shape of a real MCP server's label tool: `method` selects create/update/delete.
        let tools = r#"{"tools": [
            {"name": "badge_write", "inputSchema": {"type": "object", "properties": {
                "method": {"type": "string", "enum": ["create", "update", "delete"]},
                "kind": {"type": "string", "enum": ["create", "delete"]}}}},
            {"name": "badge_read", "inputSchema": {"type": "object", "properties": {
                "method": {"type": "string", "enum": ["get", "get_history"]}}}},
            {"name": "http_call", "inputSchema": {"type": "object", "properties": {
                "http_method": {"type": "string", "enum": ["GET", "POST", "DELETE"]}}}}
        ]}"#;
        let found = run("TJ012", &[("s/tools.json", tools)]);
        let spans: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(spans, vec!["[\"create\", \"update\", \"delete\"]"]);
    }

    #[test]
    fn multi_capability_on_other_dialects_and_non_verbs() {
        let tools = r#"[{"type": "function", "function": {"name": "manageFiles", "parameters": {"type": "object",
            "properties": {"mode": {"type": "string", "enum": ["fast", "thorough"]},
                           "op": {"type": "string", "enum": ["get_file", "remove_file", "get_dir"]}}}}}]"#;
        let found = run("TJ012", &[("s/tools.json", tools)]);
        let spans: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            spans,
            vec![
                "\"manageFiles\"",
                "[\"get_file\", \"remove_file\", \"get_dir\"]"
            ]
        );
        assert!(found[1].0.contains("`get` and `remove`"), "{}", found[1].0);
    }

    #[test]
    fn requirement_shape_problems_and_yaml_errors() {
        let found = run(
            "TJ013",
            &[("s/requirement.yaml", "tools: x\nnon_goal: []\n")],
        );
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        let broken = run("TJ013", &[("s/requirement.yaml", "tools: [\n")]);
        assert_eq!(broken.len(), 1);
        assert!(broken[0]
            .0
            .starts_with("`requirement.yaml` is not valid YAML"));
    }
}
