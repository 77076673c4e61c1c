//! TM007 `tool-id-folder-mismatch`: The folder holding TOOL.md is not named after the tool id.

use super::contract_with_frontmatter;
use crate::check::{Sink, Unit};

pub(super) fn tool_id_folder_mismatch(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(id) = fm.root.get("id") else {
        return;
    };
    let Some(text) = id.as_str().filter(|t| !t.is_empty()) else {
        return;
    };
    let folder = unit.dir().rsplit('/').next().unwrap_or_default();
    if folder == text {
        return;
    }
    sink.report(
        file,
        id.span,
        format!("tool id `{text}` does not match its folder `{folder}`"),
    )
    .label(format!("the folder is `{folder}`"))
    .help(format!(
        "rename the folder to `{text}` (or change `id`) so the tool is found where its id says"
    ));
}
