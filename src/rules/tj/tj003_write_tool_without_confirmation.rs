//! TJ003 `write-tool-without-confirmation`: A write tool can run without the user's explicit
//! confirmation.

use super::{forge_tools, gate_field_edits, CONFIRMATION, FORGE_KEYS};
use crate::check::{Sink, Unit};
use crate::diagnostic::{Edit, Fix};
use crate::edit::json::{Json, Place};
use crate::rules::util::nearest;
use crate::source::Span;

pub(super) fn write_tool_without_confirmation(unit: &Unit<'_>, sink: &mut Sink) {
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
