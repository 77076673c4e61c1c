//! SC009 `annotation-contradiction`: A tool's behavior annotations contradict each other or the
//! tool's declared type.

use super::hint;
use crate::check::{Sink, Unit};
use crate::model::tools::Dialect;
use crate::rules::phrasing::tool_facts;
use crate::semantic::effect::{Claim, Effect, Evidence};

/// What strong inferred evidence says, for the label: "deletes", "writes".
fn contradiction_kind(inferred: &Evidence) -> &'static str {
    match inferred.claim {
        Claim::Effect(Effect::Destructive) | Claim::AtLeast(Effect::Destructive) => {
            "deletes or overwrites"
        }
        _ => "writes",
    }
}

pub(super) fn annotation_contradiction(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        let name = tool.display_name();
        let read_only = hint(tool, "readOnlyHint");
        let destructive = hint(tool, "destructiveHint");
        let idempotent = hint(tool, "idempotentHint");

        if let (Some((true, ro)), Some((true, de))) = (read_only, destructive) {
            sink.report(
                file,
                de.span,
                format!("tool `{name}` is annotated both read-only and destructive"),
            )
            .label("destructive")
            .secondary(file, ro.span, "read-only")
            .help("a tool that never changes its environment cannot destroy anything: drop `destructiveHint`, or set `readOnlyHint` to `false` if the tool writes");
        }

        // The forge `type` states the side effect; the annotations must agree with it.
        let forge_type = (tool.dialect == Dialect::Forge)
            .then(|| tool.entry.get("type"))
            .flatten()
            .and_then(|t| t.as_str().map(|s| (s, t)));
        match forge_type {
            Some(("write", type_node)) => {
                if let Some((true, ro)) = read_only {
                    sink.report(
                        file,
                        ro.span,
                        format!("write tool `{name}` is annotated `readOnlyHint: true`"),
                    )
                    .label("claims the tool never writes")
                    .secondary(file, type_node.span, "declared a write tool here")
                    .help("set `readOnlyHint` to `false`: clients skip confirmation for tools they believe are read-only");
                }
            }
            Some(("read", type_node)) => {
                let claim = match (read_only, destructive) {
                    (Some((false, ro)), _) => Some((ro, "readOnlyHint: false")),
                    (_, Some((true, de))) => Some((de, "destructiveHint: true")),
                    _ => None,
                };
                if let Some((node, text)) = claim {
                    sink.report(
                        file,
                        node.span,
                        format!("read tool `{name}` is annotated `{text}`"),
                    )
                    .label("claims the tool writes")
                    .secondary(file, type_node.span, "declared a read tool here")
                    .help("make the annotation and the `type` agree: if the tool changes anything it is a `write` tool");
                }
            }
            _ => {}
        }

        if let Some(effect) = unit.effect_of(tool) {
            // `readOnlyHint: true` next to `destructiveHint: true` or on a forge `write` tool is
            // reported above already.
            let read_only_reported = matches!(read_only, Some((true, _)))
                && (matches!(destructive, Some((true, _)))
                    || matches!(forge_type, Some(("write", _))));
            for (declared, inferred) in effect.contradictions() {
                if read_only_reported && declared.source == "annotations.readOnlyHint" {
                    continue;
                }
                sink.report(
                    file,
                    declared.span,
                    format!(
                        "tool `{name}` declares {} but {} says otherwise",
                        declared.text, inferred.text
                    ),
                )
                .label(format!("declared by {}", declared.text))
                .secondary(inferred.file, inferred.span, format!("{} ({})", inferred.text, contradiction_kind(inferred)))
                .help("a client trusts the declaration and skips confirmation: make it say what the tool does (a deleting or overwriting tool is `destructiveHint: true`, a writing one `readOnlyHint: false`), or rename the tool if the name misleads")
                .tool_facts(tool_facts(effect));
            }
        }

        let declared = tool
            .entry
            .get("idempotent")
            .and_then(|n| n.as_bool().map(|b| (b, n)));
        if let (Some((flag, flag_node)), Some((annotated, hint_node))) = (declared, idempotent) {
            if flag != annotated {
                sink.report(
                    file,
                    hint_node.span,
                    format!(
                        "tool `{name}` is annotated `idempotentHint: {annotated}` but declared `idempotent: {flag}`"
                    ),
                )
                .label("disagrees with `idempotent`")
                .secondary(file, flag_node.span, "declared here")
                .help("make both say the same; a client retries a tool it believes idempotent, which repeats a non-idempotent write");
            }
        }
    }
}
