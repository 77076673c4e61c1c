//! TJ010 `tool-not-in-requirement`: tools.json defines a tool that the skill's requirement does
//! not list.

use super::similar_name;
use crate::check::{Sink, Unit};
use std::collections::HashSet;

pub(super) fn tool_not_in_requirement(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    // An unparsable requirement lists nothing; TJ013 reports it once.
    if requirement.parse_error.is_some() {
        return;
    }
    let requirement_file = unit.repo.file_name(rid);
    let listed: Vec<&str> = requirement.tools.iter().map(|t| t.name.as_str()).collect();
    let listed_set: HashSet<&str> = listed.iter().copied().collect();
    for (tid, tool) in unit.tools() {
        let Some(name) = tool.name() else {
            continue;
        };
        if listed_set.contains(name) {
            continue;
        }
        let help = match similar_name(name, listed.iter().copied()) {
            Some(similar) => format!(
                "the requirement lists `{similar}`; if the tool was renamed, use the same name in both files"
            ),
            None => format!(
                "add `{name}` to the `tools` of `{requirement_file}` with its type and description, or remove the tool"
            ),
        };
        sink.report(
            tid,
            tool.span(),
            format!("tool `{name}` is not listed in `{requirement_file}`"),
        )
        .label("not in the requirement")
        .help(help);
    }
}
