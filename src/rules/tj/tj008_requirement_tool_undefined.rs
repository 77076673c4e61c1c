//! TJ008 `requirement-tool-undefined`: A tool listed in the skill's requirement is not defined
//! in tools.json.

use super::similar_name;
use crate::check::{Sink, Unit};
use crate::index::Parsed;
use std::collections::HashSet;

/// True when every tools file of the folder was read and parsed, so "not defined" means it.
fn tools_files_complete(unit: &Unit<'_>) -> bool {
    unit.files
        .tools
        .iter()
        .all(|id| matches!(unit.parsed(*id), Parsed::Tools(doc) if doc.parse_error.is_none()))
}

pub(super) fn requirement_tool_undefined(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    // A tools file that failed to parse has no tools; TJ001 says so once.
    if !tools_files_complete(unit) {
        return;
    }
    let defined: Vec<&str> = unit.tools().filter_map(|(_, t)| t.name()).collect();
    let defined_set: HashSet<&str> = defined.iter().copied().collect();
    let tools_file = unit
        .files
        .tools
        .first()
        .map(|id| unit.repo.file_name(*id).to_string());
    for required in &requirement.tools {
        if defined_set.contains(required.name.as_str()) {
            continue;
        }
        let name = &required.name;
        let message = match &tools_file {
            Some(file) => format!("requirement tool `{name}` is not defined in `{file}`"),
            None => {
                format!("requirement tool `{name}` is not defined: the folder has no tools.json")
            }
        };
        let kind = required
            .kind
            .as_ref()
            .map_or(String::new(), |(k, _)| format!(" as a `{k}` tool"));
        let help = match similar_name(name, defined.iter().copied()) {
            Some(similar) => format!(
                "tools.json defines `{similar}`; if the tool was renamed, use the same name in both files"
            ),
            None => format!(
                "add `{name}` to tools.json{kind} and document it in SKILL.md, or remove it from the requirement"
            ),
        };
        sink.report(rid, required.name_span, message)
            .label("required here")
            .help(help);
    }
}
