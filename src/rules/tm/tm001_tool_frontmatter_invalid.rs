//! TM001 `tool-frontmatter-invalid`: The TOOL.md frontmatter is missing, unterminated, not
//! valid YAML, not a mapping, or repeats a key.

use crate::check::{Sink, Unit};

pub(super) fn tool_frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, doc)) = unit.contract() else {
        return;
    };
    crate::rules::phrasing::report_frontmatter_problem(
        unit.repo,
        file,
        doc,
        sink,
        "start the file with a `---` line, the contract fields (`name`, `id`, `description`, `version`, `inputs`, `outputs`, `mutates`), then a closing `---`",
    );
}
