//! TJ009 `requirement-obligation-dropped`: tools.json drops a safety obligation that the
//! skill's requirement imposes.

use crate::check::{Sink, Unit};
use crate::model::requirement::RequirementDoc;
use crate::model::tools::{Dialect, SideEffect, Tool};
use crate::source::FileId;
use std::collections::{HashMap, HashSet};

/// The names the requirement lists as `write` tools.
fn required_writes(requirement: &RequirementDoc) -> HashSet<&str> {
    requirement
        .tools
        .iter()
        .filter(|t| matches!(&t.kind, Some((kind, _)) if kind == "write"))
        .map(|t| t.name.as_str())
        .collect()
}

pub(super) fn requirement_obligation_dropped(unit: &Unit<'_>, sink: &mut Sink) {
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
