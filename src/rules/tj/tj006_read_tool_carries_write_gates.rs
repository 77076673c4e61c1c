//! TJ006 `read-tool-carries-write-gates`: A read tool carries a confirmation gate or
//! idempotency key meant for write tools.

use super::{forge_tools, CONFIRMATION_FIELD, IDEMPOTENCY_FIELD};
use crate::check::{Sink, Unit};
use crate::diagnostic::{Edit, Fix};
use crate::edit::json::{Json, JsonText};
use crate::model::tools::{SideEffect, Tool};
use crate::source::Span;

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

pub(super) fn read_tool_carries_write_gates(unit: &Unit<'_>, sink: &mut Sink) {
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
