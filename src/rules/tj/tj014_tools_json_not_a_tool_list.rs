//! TJ014 `tools-json-not-a-tool-list`: A tools.json file is not a tool list in any dialect, so
//! it is not linted.

use crate::check::{Sink, Unit};

pub(super) fn tools_json_not_a_tool_list(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, doc) in unit.tools_docs() {
        let Some(why) = &doc.not_a_tool_list else {
            continue;
        };
        let file = unit.repo.file_name(id);
        sink.report(
            id,
            why.span,
            format!("`{file}` is not a tool list in any known dialect; not linted"),
        )
        .label(why.label.clone())
        .help("if it belongs to another program, list it under `[lint.per-file-ignores]` with `TJ014`, or rename it; a file meant to list tools must use one dialect (`skilllint rule TJ002`)");
    }
}
