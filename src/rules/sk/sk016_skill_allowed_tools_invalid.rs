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
    // Claude Code reads a YAML list of tool names, or names separated by commas, as well as the
    // specification's spaces: in a skill it reads, neither form loses a tool.
    let claude_code = super::read_by_claude_code(unit);
    if claude_code {
        let list_of_names = value
            .as_array()
            .is_some_and(|items| items.iter().all(|item| item.as_str().is_some()));
        if list_of_names || value.as_str().is_some() {
            return;
        }
    }
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
