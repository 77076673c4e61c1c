//! TR010 `tool-use-rules-without-tools`: A Tool Use Rules section lists tools but the skill has
//! no tools.json.

use super::RulesSection;
use crate::check::{Sink, Unit};
use crate::semantic::tool_use_rules::{is_vocabulary, names_in_item};
use std::collections::HashSet;

pub(super) fn tool_use_rules_without_tools(unit: &Unit<'_>, sink: &mut Sink) {
    if unit.has_tools_file() {
        return;
    }
    let Some(rules) = RulesSection::of(unit) else {
        return;
    };
    // In order of first mention, each once (a set, as a section may name thousands).
    let mut names: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for item in rules.items {
        for named in names_in_item(item, rules.text, is_vocabulary) {
            if seen.insert(named.text) {
                names.push(named.text);
            }
        }
    }
    if names.is_empty() {
        return;
    }
    let shown: Vec<String> = names.iter().take(3).map(|n| format!("`{n}`")).collect();
    let label = match names.len().saturating_sub(shown.len()) {
        0 => format!("names {}", shown.join(", ")),
        more => format!("names {} and {more} more", shown.join(", ")),
    };
    sink.report(
        rules.file,
        rules.heading_span(),
        format!(
            "the \"{}\" section names tools but the skill has no tools.json",
            rules.heading_text()
        ),
    )
    .label(label)
    .help(
        "add the missing tools.json beside SKILL.md defining these tools, or delete the section \
         if the skill has no tools",
    );
}
