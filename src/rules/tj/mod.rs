//! TJ: the forge tool contract (`tools.json`, `requirement.yaml`), SPEC §3.2.
//!
//! The contract chain is requirement → tools.json → SKILL.md; each step may add obligations but
//! never drop them. TJ001–TJ007 check one folder's tool files on their own, TJ008–TJ011 compare them
//! with the folder's requirement, TJ012 is a design smell on every dialect, TJ013 checks the
//! requirement file itself, and TJ014 sets aside a `tools.json` that is no tool list at all.
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::phrasing` and `rules::util`, and from this module, never from a
//! sibling rule or another family.

#[cfg(test)]
mod tests;
mod tj001_tools_json_invalid;
mod tj002_tools_json_contract_violation;
mod tj003_write_tool_without_confirmation;
mod tj004_confirmation_field_missing;
mod tj005_idempotency_key_missing;
mod tj006_read_tool_carries_write_gates;
mod tj007_tool_name_duplicate;
mod tj008_requirement_tool_undefined;
mod tj009_requirement_obligation_dropped;
mod tj010_tool_not_in_requirement;
mod tj011_tool_conflicts_non_goal;
mod tj012_multi_capability_tool;
mod tj013_requirement_invalid;
mod tj014_tools_json_not_a_tool_list;

use super::util::{edit_distance, nearest};
use crate::check::Unit;
use crate::check::{code, Check, RuleImpl, Sink};
use crate::diagnostic::{Edit, Fix};
use crate::edit::json::{Json, JsonText, Place};
use crate::model::tools::{Dialect, Tool};
use crate::parse::node::{Member, Node, Value};
use crate::source::{FileId, Span};
use tj001_tools_json_invalid::tools_json_invalid;
use tj002_tools_json_contract_violation::tools_json_contract_violation;
use tj003_write_tool_without_confirmation::write_tool_without_confirmation;
use tj004_confirmation_field_missing::confirmation_field_missing;
use tj005_idempotency_key_missing::idempotency_key_missing;
use tj006_read_tool_carries_write_gates::read_tool_carries_write_gates;
use tj007_tool_name_duplicate::tool_name_duplicate;
use tj008_requirement_tool_undefined::requirement_tool_undefined;
use tj009_requirement_obligation_dropped::requirement_obligation_dropped;
use tj010_tool_not_in_requirement::tool_not_in_requirement;
use tj011_tool_conflicts_non_goal::tool_conflicts_non_goal;
use tj012_multi_capability_tool::multi_capability_tool;
use tj013_requirement_invalid::requirement_invalid;
use tj014_tools_json_not_a_tool_list::tools_json_not_a_tool_list;

pub const RULES: &[RuleImpl] = &[
    RuleImpl {
        code: code::TJ001,
        check: Check::Unit(tools_json_invalid),
    },
    RuleImpl {
        code: code::TJ002,
        check: Check::Unit(tools_json_contract_violation),
    },
    RuleImpl {
        code: code::TJ003,
        check: Check::Unit(write_tool_without_confirmation),
    },
    RuleImpl {
        code: code::TJ004,
        check: Check::Unit(confirmation_field_missing),
    },
    RuleImpl {
        code: code::TJ005,
        check: Check::Unit(idempotency_key_missing),
    },
    RuleImpl {
        code: code::TJ006,
        check: Check::Unit(read_tool_carries_write_gates),
    },
    RuleImpl {
        code: code::TJ007,
        check: Check::Unit(tool_name_duplicate),
    },
    RuleImpl {
        code: code::TJ008,
        check: Check::Unit(requirement_tool_undefined),
    },
    RuleImpl {
        code: code::TJ009,
        check: Check::Unit(requirement_obligation_dropped),
    },
    RuleImpl {
        code: code::TJ010,
        check: Check::Unit(tool_not_in_requirement),
    },
    RuleImpl {
        code: code::TJ011,
        check: Check::Unit(tool_conflicts_non_goal),
    },
    RuleImpl {
        code: code::TJ012,
        check: Check::Unit(multi_capability_tool),
    },
    RuleImpl {
        code: code::TJ013,
        check: Check::Unit(requirement_invalid),
    },
    RuleImpl {
        code: code::TJ014,
        check: Check::Unit(tools_json_not_a_tool_list),
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

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

/// The forge tools of the folder, in document order.
fn forge_tools<'a>(unit: &Unit<'a>) -> impl Iterator<Item = (FileId, &'a Tool)> + 'a {
    unit.tools().filter(|(_, t)| t.dialect == Dialect::Forge)
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

/// `"string"` for a JSON Schema `type` value, else a description of what was written.
fn describe_type(node: &Node) -> String {
    match node.as_str() {
        Some(t) => format!("`{t:?}`"),
        None => describe(node),
    }
}
