//! TM015 `required-tool-unresolved`: A tool listed in requires.tools has no TOOL.md in the
//! repository.

use super::contract_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::parse::Node;
use crate::rules::util;

pub(super) fn required_tool_unresolved(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(tools) = fm
        .root
        .get("requires")
        .and_then(|r| r.get("tools"))
        .and_then(Node::as_array)
    else {
        return;
    };
    let known = &unit.repo.contracts.tools_by_id;
    for item in tools {
        let Some(id) = item.as_str() else {
            continue;
        };
        if known.contains_key(id) {
            continue;
        }
        let diagnostic = sink.report(
            file,
            item.span,
            format!("required tool `{id}` has no TOOL.md in the repository"),
        );
        diagnostic.label("no contract with this id");
        match util::nearest(id, known.keys().map(String::as_str)) {
            Some(near) => diagnostic.help(format!("did you mean `{near}`?")),
            None => {
                diagnostic.help("add the TOOL.md for this tool, or fix the id in `requires.tools`")
            }
        };
    }
}
