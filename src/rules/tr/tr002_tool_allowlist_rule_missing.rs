//! TR002 `tool-allowlist-rule-missing`: The Tool Use Rules section does not restrict the agent
//! to the listed tools.

use super::{
    no_section_label, start_of_file, unreported_missing_section, RulesSection, Slot, ALLOWLIST_ITEM,
};
use crate::check::{Sink, Unit};
use crate::diagnostic::Fix;
use crate::rules::util::{contains_ascii_ignore_case, find_substring};

/// The allowlist sentences of TR002 (lowercase, single spaces).
const ALLOWLIST_PHRASES: &[&str] = &[
    "only the tools listed below may be used",
    "never invent or call other tools",
];

pub(super) fn tool_allowlist_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        if let Some(skill) = unreported_missing_section(unit) {
            let heading = &unit.settings().tool_use_rules_heading;
            sink.report(
                skill,
                start_of_file(unit.text(skill)),
                format!(
                    "nothing restricts the agent to the listed tools: `{}` has no \"{heading}\" \
                     section",
                    unit.repo.file_name(skill)
                ),
            )
            .label(no_section_label(unit))
            .help(format!(
                "add a \"{heading}\" section that opens with the item \"{ALLOWLIST_ITEM}\""
            ));
        }
        return;
    };
    let has_allowlist = rules.items.iter().any(|item| {
        // Both phrases hold "tools", and lowercasing turns no other letters into ASCII ones
        // they use: an item without it cannot match (most items), so skip normalising those.
        if !contains_ascii_ignore_case(&item.text, "tools") {
            return false;
        }
        let normalised = normalise(&item.text);
        ALLOWLIST_PHRASES
            .iter()
            .any(|p| find_substring(&normalised, p).is_some())
    });
    if has_allowlist {
        return;
    }
    let diagnostic = sink
        .report(
            rules.file,
            rules.heading_span(),
            format!(
                "the \"{}\" section does not restrict the agent to the listed tools",
                rules.heading_text()
            ),
        )
        .label("no allowlist rule in this section")
        .help(
            "open the section with the item \"Only the tools listed below may be used. Never \
             invent or call other tools.\"",
        );
    if let Some(edit) = rules.insert_items(&[ALLOWLIST_ITEM.to_string()], Slot::First) {
        diagnostic.fix(Fix::safe(
            "insert the allowlist rule as the first item of the section",
            vec![edit],
        ));
    }
}

/// Lowercase with every run of whitespace collapsed to one space.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.is_ascii() {
        out.make_ascii_lowercase();
        out
    } else {
        out.to_lowercase()
    }
}
