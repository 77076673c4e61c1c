//! TJ011 `tool-conflicts-non-goal`: A tool performs an action that a non-goal of the skill's
//! requirement rules out.

use crate::check::{Sink, Unit};
use crate::rules::util::name_words;
use crate::source::Span;
use std::collections::{HashMap, HashSet};

/// The verb of a non-goal "Do not <verb> …" (any case), lowercased.
pub(super) fn non_goal_verb(text: &str) -> Option<String> {
    let trimmed = text.trim_start();
    let prefix = trimmed.get(..6)?;
    if !prefix.eq_ignore_ascii_case("do not") {
        return None;
    }
    let rest = trimmed.get(6..)?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let verb: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect();
    (!verb.is_empty()).then(|| verb.to_lowercase())
}

pub(super) fn tool_conflicts_non_goal(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    let goals: Vec<(String, Span)> = requirement
        .non_goals
        .iter()
        .filter_map(|g| non_goal_verb(&g.text).map(|v| (v, g.span)))
        .collect();
    if goals.is_empty() {
        return;
    }
    // The non-goals of each verb, so a tool's words are looked up rather than compared with
    // every non-goal (a long list of non-goals and many tools made that quadratic).
    let mut goals_by_verb: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, (verb, _)) in goals.iter().enumerate() {
        goals_by_verb.entry(verb.as_str()).or_default().push(index);
    }
    for (tid, tool) in unit.tools() {
        let Some(name) = tool.name() else {
            continue;
        };
        let words = name_words(name);
        // The matching non-goals in the requirement's order, each once.
        let mut matching: Vec<usize> = Vec::new();
        let mut looked_up: HashSet<&str> = HashSet::new();
        for word in &words {
            if looked_up.insert(word.as_str()) {
                if let Some(indices) = goals_by_verb.get(word.as_str()) {
                    matching.extend(indices);
                }
            }
        }
        matching.sort_unstable();
        for (verb, span) in matching.iter().filter_map(|&i| goals.get(i)) {
            sink.report(
                tid,
                tool.span(),
                format!("tool `{name}` can `{verb}`, which a non-goal rules out"),
            )
            .label(format!("`{verb}` is a non-goal"))
            .secondary(rid, *span, "ruled out here")
            .help("remove the tool and its Tool Use Rules, or drop the non-goal from the requirement if the capability is now wanted");
        }
    }
}
