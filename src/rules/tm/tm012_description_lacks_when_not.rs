//! TM012 `description-lacks-when-not`: The tool description never says when not to call the
//! tool.

use super::contract_with_frontmatter;
use crate::check::{Sink, Unit};

/// Phrases that tell the caller when not to use a tool (TM012), matched case-insensitively.
const WHEN_NOT_PHRASES: [&str; 17] = [
    "do not use",
    "don't use",
    "do not call",
    "don't call",
    "not use",
    "not for",
    "not to ",
    "not when",
    "not if",
    "not suitable",
    "not intended",
    "only when",
    "only if",
    "unless",
    "avoid",
    "never",
    "instead",
];

pub(super) fn says_when_not(description: &str) -> bool {
    let lower = description.to_lowercase().replace('\u{2019}', "'");
    WHEN_NOT_PHRASES.iter().any(|p| lower.contains(p))
}

pub(super) fn description_lacks_when_not(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(description) = fm.root.get("description") else {
        return;
    };
    let Some(text) = description.as_str().filter(|t| !t.trim().is_empty()) else {
        return;
    };
    if says_when_not(text) {
        return;
    }
    sink.report(file, description.span, "tool description never says when not to call it")
        .label("no \"do not use …\" guidance")
        .help("add a sentence such as \"Do not use for …; use `<other-tool>` instead\" so the model can rule the tool out");
}
