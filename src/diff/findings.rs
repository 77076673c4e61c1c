//! The two lints' findings compared: the new ones, the fixed ones, the old side's that the new
//! side silences rather than fixes, and the new side's hidden from the start; matched by
//! identity (which survives moved lines), never by line. And the new model-directed-text
//! findings inside each changed description, listed with its change.

use super::side::{Finding, Side};
use super::silencing::rewritten_policies;
use super::{Change, ChangeKind, FindingChanges};
use crate::inventory::Inventory;
use std::collections::{HashMap, HashSet};

/// The findings only one side has (see [`FindingChanges`]).
pub(super) fn finding_changes(old: &Side, new: &Side) -> FindingChanges {
    let gone = only_in(&old.findings, &new.findings);
    let hidden: HashSet<(&str, &str, &str, &str)> =
        new.suppressed.iter().map(Finding::identity).collect();
    // A policy rule whose logic changed decides afresh: what it no longer reports was not fixed.
    let rewritten = rewritten_policies(&old.settings, &new.settings);
    let (silenced, fixed) = gone.into_iter().partition(|f| {
        !new.settings.enabled.contains(&f.code)
            || hidden.contains(&f.identity())
            || rewritten.contains(f.code.as_str())
    });
    // What the new side's lint hid that the old side neither reported nor hid: new findings
    // silenced from the start, listed as such rather than not at all.
    let before = old.findings.iter().chain(&old.suppressed).collect();
    let mut suppressed = only_in_any(&new.suppressed, before);
    suppressed.sort_by(|a, b| (&a.path, a.at, &a.code).cmp(&(&b.path, b.at, &b.code)));
    FindingChanges {
        new: only_in(&new.findings, &old.findings),
        fixed,
        silenced,
        suppressed,
    }
}

/// Each description change of `changes` gets the `new` findings of the model-directed-text rules
/// (PI…) inside the new description (its span in the `inventory` of the new side).
pub(super) fn in_descriptions(changes: &mut [Change], inventory: &Inventory, new: &[Finding]) {
    let spans: HashMap<(&str, &str), crate::source::Span> = inventory
        .rows
        .iter()
        .filter_map(|r| {
            r.description_span
                .map(|span| ((r.path.as_str(), r.name.as_str()), span))
        })
        .collect();
    let mut model_directed: HashMap<&str, Vec<&Finding>> = HashMap::new();
    for f in new.iter().filter(|f| f.code.starts_with("PI")) {
        model_directed.entry(f.path.as_str()).or_default().push(f);
    }
    for c in changes {
        if c.kind != ChangeKind::DescriptionChanged {
            continue;
        }
        let (Some(span), Some(in_file)) = (
            spans.get(&(c.path.as_str(), c.tool.as_str())),
            model_directed.get(c.path.as_str()),
        ) else {
            continue;
        };
        c.findings = in_file
            .iter()
            .filter(|f| f.span.start >= span.start && f.span.start < span.end.max(span.start + 1))
            .map(|f| (*f).clone())
            .collect();
    }
}

/// The findings of `these` that `those` do not have, counted (two same findings on one side and
/// one on the other leave one). Matched first by identity (rule, file, message, flagged text),
/// then what is left by rule, file and message alone: a finding whose flagged text was edited
/// (an `enum` grown under the same message) is the same finding, not a fixed one and a new one.
pub(super) fn only_in(these: &[Finding], those: &[Finding]) -> Vec<Finding> {
    only_in_any(these, those.iter().collect())
}

/// [`only_in`], against findings gathered from more than one list (borrowed, not copied).
fn only_in_any<'f>(these: &'f [Finding], those: Vec<&'f Finding>) -> Vec<Finding> {
    let left_here = unmatched(these.iter().collect(), those.clone(), strict);
    let left_there = unmatched(those, these.iter().collect(), strict);
    unmatched(left_here, left_there, loose)
        .into_iter()
        .cloned()
        .collect()
}

fn strict(f: &Finding) -> (&str, &str, &str, &str) {
    f.identity()
}

fn loose(f: &Finding) -> (&str, &str, &str, &str) {
    let (code, path, message, _) = f.identity();
    (code, path, message, "")
}

/// The findings of `these` that no finding of `those` with the same `key` accounts for.
fn unmatched<'f>(
    these: Vec<&'f Finding>,
    those: Vec<&'f Finding>,
    key: fn(&'f Finding) -> (&'f str, &'f str, &'f str, &'f str),
) -> Vec<&'f Finding> {
    let mut counts: HashMap<(&str, &str, &str, &str), usize> = HashMap::new();
    for f in those {
        *counts.entry(key(f)).or_default() += 1;
    }
    these
        .into_iter()
        .filter(|f| match counts.get_mut(&key(f)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}
