//! SC010 `behavior-annotations-missing`: A tool declares none of the MCP behavior hints.

use super::{hint, risky_without_hints, takes_annotations};
use crate::check::{code, Sink, Unit};

const HINTS: [&str; 3] = ["readOnlyHint", "destructiveHint", "idempotentHint"];

pub(super) fn behavior_annotations_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        if !takes_annotations(tool) || HINTS.iter().any(|h| hint(tool, h).is_some()) {
            continue;
        }
        // A tool that writes or is otherwise risky is SC016's (safety) while it runs.
        let risky = unit.effect_of(tool).is_some_and(risky_without_hints);
        if risky && unit.reports(code::SC016, file) {
            continue;
        }
        let (span, label) = match tool.definition().member("annotations") {
            Some(member) => (member.key_span, "no behavior hints in these annotations"),
            None => (tool.span(), "no `annotations`"),
        };
        sink.report(
            file,
            span,
            format!(
                "tool `{}` declares none of `readOnlyHint`, `destructiveHint`, `idempotentHint`",
                tool.display_name()
            ),
        )
        .label(label)
        .help("add `\"annotations\": {\"readOnlyHint\": …, \"destructiveHint\": …, \"idempotentHint\": …}` so clients know whether to confirm and whether a retry is safe");
    }
}
