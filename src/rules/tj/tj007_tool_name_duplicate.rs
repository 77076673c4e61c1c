//! TJ007 `tool-name-duplicate`: Two tools in the same file or skill share a name.

use crate::check::{Sink, Unit};
use crate::source::{FileId, Span};
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn tool_name_duplicate(unit: &Unit<'_>, sink: &mut Sink) {
    // A list read for its content (a `tools/list` snapshot per toolset, `functions.json` beside
    // `openai_tools.json`, a bundle manifest) is a whole tool set of its own, a copy of tools
    // defined elsewhere: its names repeat the other lists' by design. Within one file a repeat is
    // still a duplicate.
    let copies: BTreeSet<FileId> = unit
        .tools_docs()
        .filter(|(_, doc)| doc.by_content)
        .map(|(id, _)| id)
        .collect();
    // A name registered twice in source code is most often a pair of alternatives the server
    // picks between at start (a read-only and a read-write variant, one per profile), each in
    // its own branch; which one runs is not known without running it.
    let mut first: BTreeMap<&str, (FileId, Span, bool)> = BTreeMap::new();
    for (id, tool) in unit.tools() {
        let Some(name) = tool.name().filter(|n| !n.is_empty()) else {
            continue;
        };
        let span = tool.span();
        let in_source = tool.code.is_some();
        match first.get(name) {
            None => {
                first.insert(name, (id, span, in_source));
            }
            Some(&(first_id, _, _))
                if first_id != id && (copies.contains(&id) || copies.contains(&first_id)) => {}
            Some(&(_, _, true)) if in_source => {}
            Some(&(first_id, first_span, _)) => {
                let message = if first_id == id {
                    format!("tool `{name}` is defined twice")
                } else {
                    format!(
                        "tool `{name}` is also defined in `{}`",
                        unit.repo.file(first_id).rel_path
                    )
                };
                sink.report(id, span, message)
                    .label("second definition")
                    .secondary(first_id, first_span, "first defined here")
                    .help("delete the stale definition, or give this tool its own name and document it in SKILL.md");
            }
        }
    }
}
