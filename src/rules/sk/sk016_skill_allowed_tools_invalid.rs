//! SK016 `skill-allowed-tools-invalid`: The allowed-tools field is not a space-separated
//! string.

use super::skill_with_frontmatter;
use crate::check::{Sink, Unit};

pub(super) fn skill_allowed_tools_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(value) = fm.root.get("allowed-tools") else {
        return;
    };
    match value.as_str() {
        None => {
            sink.report(
                file,
                value.span,
                format!(
                    "`allowed-tools` must be a space-separated string, found {}",
                    value.type_name()
                ),
            )
            .help(
                "write the tools on one line separated by spaces, e.g. `allowed-tools: Read Grep`",
            );
        }
        Some(text) if text.contains(',') => {
            sink.report(
                file,
                value.span,
                "`allowed-tools` separates tools with commas",
            )
            .label("expected spaces between tool names")
            .help("separate the tools with spaces, e.g. `allowed-tools: Read Grep`");
        }
        Some(_) => {}
    }
}
