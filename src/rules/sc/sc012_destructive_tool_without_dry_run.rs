//! SC012 `destructive-tool-without-dry-run`: A destructive tool offers no dry_run parameter.

use super::hint;
use crate::check::{Sink, Unit};
use crate::model::tools::{SideEffect, Tool};
use crate::rules::util::name_words;

/// Name prefixes that make a writing tool destructive for SC012.
const DESTRUCTIVE_VERBS: [&str; 5] = ["delete", "remove", "drop", "purge", "destroy"];

/// Why a tool counts as destructive: its `destructiveHint`, or a deleting verb at the start of
/// the name of a tool that is not read-only (an explicit `destructiveHint: false` wins).
fn destructive_reason(tool: &Tool) -> Option<String> {
    match hint(tool, "destructiveHint") {
        Some((true, _)) => return Some("annotated `destructiveHint: true`".to_string()),
        Some((false, _)) => return None,
        None => {}
    }
    if tool.side_effect == SideEffect::Read {
        return None;
    }
    let name = tool.name()?;
    let first = name_words(name).into_iter().next()?;
    DESTRUCTIVE_VERBS
        .contains(&first.as_str())
        .then(|| format!("its name starts with `{first}`"))
}

pub(super) fn destructive_tool_without_dry_run(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        let Some(reason) = destructive_reason(tool) else {
            continue;
        };
        if tool.property("dry_run").is_some() || tool.property("dryRun").is_some() {
            continue;
        }
        let diagnostic = sink.report(
            file,
            tool.span(),
            format!(
                "destructive tool `{}` has no `dry_run` parameter",
                tool.display_name()
            ),
        );
        diagnostic.label(format!("destructive: {reason}"));
        diagnostic.help("add an optional boolean `dry_run` parameter that returns what would change without changing it, so the user can review the blast radius first");
    }
}
