//! SC010 `behavior-annotations-missing`: A tool declares none of the MCP behavior hints.

use super::{hint, takes_annotations};
use crate::check::{Sink, Unit};

const HINTS: [&str; 3] = ["readOnlyHint", "destructiveHint", "idempotentHint"];

pub(super) fn behavior_annotations_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        if !takes_annotations(tool) || HINTS.iter().any(|h| hint(tool, h).is_some()) {
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
