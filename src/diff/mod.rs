//! The capability diff (`skilllint diff`): what a change does to the agent's capabilities, two
//! sides compared tool by tool (`skilllint diff --dirs OLD NEW`, or two revisions through
//! [`crate::history`]). A tool is the same tool on both sides when its file and name
//! match; a tool removed and one added in the same file with the same input schema is a rename.
//! Each change says whether it **widens** what the agent can do without asking: a new tool that
//! writes or has a capability, a widened effect, a new capability, a dropped gate (a weaker
//! TOOL.md approval, more `mutates`, a `requires` entry gone, a Tool Use Rules item gone), a
//! schema that accepts more at any depth, a new pre-approval, a changed description (the
//! rug-pull signal: the text the model trusts changed after review), and, first of all,
//! configuration that silences the linter. The findings of both sides' lints give the new and
//! the fixed findings.
//!
//! The room, by what each part compares: [`side`] (one side, linted and inventoried with its
//! own configuration), `tools` (the tools one by one, their gates, contracts and rules),
//! `schema` (input schemas, at any depth), `silencing` (the configuration, at the root and
//! below it, and inline suppression comments), `findings` (the two lints' findings),
//! [`word_diff`] (a description's words) and [`render`] (the three formats). The inventory
//! it compares is [`crate::inventory`]'s, which knows nothing of the diff.

mod findings;
pub mod render;
mod schema;
pub mod side;
mod silencing;
mod tools;
pub mod word_diff;
mod wording;

#[cfg(test)]
mod tests;

use crate::inventory::{At, Row, Unread};
use side::{Finding, Side};
use std::collections::HashSet;
use word_diff::Piece;

pub use tools::diff;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    Added,
    Removed,
    Renamed,
    EffectWidened,
    EffectNarrowed,
    CapabilityAdded,
    CapabilityRemoved,
    GateDropped,
    GateAdded,
    SchemaWidened,
    PreApprovalAdded,
    PreApprovalRemoved,
    DescriptionChanged,
    CommandChanged,
    ApprovalWeakened,
    MutatesWidened,
    RequirementDropped,
    ExecFreeStringAdded,
    ToolUseRuleRemoved,
    RulesDisabled,
    SeverityLowered,
    PerFileIgnoreAdded,
    InlineSuppressionAdded,
    BaselineEntriesAdded,
    PolicyRemoved,
    MaxFileSizeRaised,
    ExcludeAdded,
    FailOnRaised,
    SettingLoosened,
    NotRead,
    PolicyChanged,
    ConfigurationBelowRoot,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Renamed => "renamed",
            ChangeKind::EffectWidened => "effect-widened",
            ChangeKind::EffectNarrowed => "effect-narrowed",
            ChangeKind::CapabilityAdded => "capability-added",
            ChangeKind::CapabilityRemoved => "capability-removed",
            ChangeKind::GateDropped => "gate-dropped",
            ChangeKind::GateAdded => "gate-added",
            ChangeKind::SchemaWidened => "schema-widened",
            ChangeKind::PreApprovalAdded => "pre-approval-added",
            ChangeKind::PreApprovalRemoved => "pre-approval-removed",
            ChangeKind::DescriptionChanged => "description-changed",
            ChangeKind::CommandChanged => "command-changed",
            ChangeKind::ApprovalWeakened => "approval-weakened",
            ChangeKind::MutatesWidened => "mutates-widened",
            ChangeKind::RequirementDropped => "requirement-dropped",
            ChangeKind::ExecFreeStringAdded => "exec-free-string-added",
            ChangeKind::ToolUseRuleRemoved => "tool-use-rule-removed",
            ChangeKind::RulesDisabled => "rules-disabled",
            ChangeKind::SeverityLowered => "severity-lowered",
            ChangeKind::PerFileIgnoreAdded => "per-file-ignore-added",
            ChangeKind::InlineSuppressionAdded => "inline-suppression-added",
            ChangeKind::BaselineEntriesAdded => "baseline-entries-added",
            ChangeKind::PolicyRemoved => "policy-removed",
            ChangeKind::MaxFileSizeRaised => "max-file-size-raised",
            ChangeKind::ExcludeAdded => "exclude-added",
            ChangeKind::FailOnRaised => "fail-on-raised",
            ChangeKind::SettingLoosened => "setting-loosened",
            ChangeKind::NotRead => "not-read",
            ChangeKind::PolicyChanged => "policy-changed",
            ChangeKind::ConfigurationBelowRoot => "configuration-below-root",
        }
    }
}

/// Which side a change's place is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SideName {
    Old,
    New,
}

impl SideName {
    pub fn as_str(self) -> &'static str {
        match self {
            SideName::Old => "old",
            SideName::New => "new",
        }
    }
}

/// One change to one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub kind: ChangeKind,
    /// Whether the change lets the agent do more, or with fewer safeguards.
    pub widens: bool,
    /// The tool's name on the new side (the old side for a removed tool).
    pub tool: String,
    /// For a rename, the old name.
    pub old_name: Option<String>,
    /// The tools file and place of the tool on the new side (the old side for a removed tool).
    pub path: String,
    pub line: u32,
    pub column: u32,
    /// What changed, for people.
    pub message: String,
    pub before: Option<String>,
    pub after: Option<String>,
    /// The side `path`, `line` and `column` are on.
    pub side: SideName,
    /// For a description change, its word diff; `None` when it was too large to compute (the
    /// description was rewritten) or for another kind.
    pub words: Option<Vec<Piece>>,
    /// For a description change, the new side's findings of the model-directed-text rules
    /// (PI…) inside the new description that the old side did not have.
    pub findings: Vec<Finding>,
}

/// The findings only one side has: new ones (the new side's), fixed ones (the old side's), the
/// old side's that are gone because the new side silences them (their rule no longer runs, an
/// inline comment or the baseline hides them, or their policy rule now decides otherwise) rather
/// than because they were fixed, and the new side's that are new and hidden from the start (an
/// inline comment or the baseline of the new side silences them; the old side neither reported
/// nor hid them).
#[derive(Debug, Clone, Default)]
pub struct FindingChanges {
    pub new: Vec<Finding>,
    pub fixed: Vec<Finding>,
    pub silenced: Vec<Finding>,
    pub suppressed: Vec<Finding>,
}

/// The changes between two sides: the configuration that silences the linter, then the tools'
/// changes (widening ones first, then by path, place, tool, kind), then the findings.
#[derive(Debug, Clone, Default)]
pub struct CapabilityDiff {
    /// Configuration changes that silence the linter (all widen), by path and place.
    pub silencing: Vec<Change>,
    pub changes: Vec<Change>,
    pub findings: FindingChanges,
    pub old_unread: Vec<Unread>,
    pub new_unread: Vec<Unread>,
    /// The revisions compared (`skilllint diff BASE [HEAD]`); `None` for two folders.
    pub revisions: Option<Revisions>,
}

impl CapabilityDiff {
    /// Whether the change lets the agent do more, or makes the lint say less: a widening change,
    /// silencing configuration, or a finding the new side's lint silenced (one it reported
    /// before, or a new one hidden from the start). What the lint applied decides the last, so
    /// a suppression the diff has no change for still counts.
    pub fn widens(&self) -> bool {
        self.silencing.iter().any(|c| c.widens)
            || self.changes.iter().any(|c| c.widens)
            || !self.findings.silenced.is_empty()
            || !self.findings.suppressed.is_empty()
    }

    /// Whether nothing at all differs (the report says so, and the exit code is 0).
    pub fn is_empty(&self) -> bool {
        self.silencing.is_empty()
            && self.changes.is_empty()
            && self.findings.new.is_empty()
            && self.findings.fixed.is_empty()
            && self.findings.silenced.is_empty()
            && self.findings.suppressed.is_empty()
    }
}

/// The two git revisions a diff compares, when it compares revisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revisions {
    pub base: RevisionSide,
    pub head: RevisionSide,
}

/// One side of a diff between revisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevisionSide {
    /// The revision as named; `None` for the work tree (the files on disk).
    pub name: Option<String>,
    /// The commit it resolved to, in hex (`None` for the work tree or a tree named directly).
    pub commit: Option<String>,
}

impl RevisionSide {
    /// `main (1a2b3c4d5e6f)` or `the work tree`, for people.
    pub fn describe(&self) -> String {
        match (&self.name, &self.commit) {
            (None, _) => "the work tree".to_string(),
            (Some(name), None) => format!("`{name}`"),
            (Some(name), Some(commit)) => {
                format!("`{name}` ({})", commit.get(..12).unwrap_or(commit))
            }
        }
    }
}

fn change(kind: ChangeKind, widens: bool, row: &Row, message: String) -> Change {
    Change {
        kind,
        widens,
        tool: row.name.clone(),
        old_name: None,
        path: row.path.clone(),
        line: row.at.line,
        column: row.at.column,
        message,
        before: None,
        after: None,
        side: SideName::New,
        words: None,
        findings: Vec::new(),
    }
}

/// A change at a place of its own (a TOOL.md line, a SKILL.md item, a configuration setting).
#[allow(clippy::too_many_arguments)]
fn change_at(
    kind: ChangeKind,
    tool: &str,
    path: &str,
    at: At,
    side: SideName,
    message: String,
    before: Option<String>,
    after: Option<String>,
) -> Change {
    Change {
        kind,
        widens: true,
        tool: tool.to_string(),
        old_name: None,
        path: path.to_string(),
        line: at.line.max(1),
        column: at.column.max(1),
        message,
        before,
        after,
        side,
        words: None,
        findings: Vec::new(),
    }
}

/// Widening changes first, then by path, place, tool, kind and message.
fn sort(changes: &mut [Change]) {
    changes.sort_by(|a, b| {
        (
            !a.widens, &a.path, a.line, a.column, &a.tool, a.kind, &a.message, a.side,
        )
            .cmp(&(
                !b.widens, &b.path, b.line, b.column, &b.tool, b.kind, &b.message, b.side,
            ))
    });
}

/// `text` cut to `max` characters, with `…` when it was longer.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The strings of `these` that `those` does not hold, in order (a set lookup each: lists from a
/// repository's files can be long).
fn missing<'a>(these: &'a [String], those: &[String]) -> Vec<&'a String> {
    let those: HashSet<&String> = those.iter().collect();
    these.iter().filter(|t| !those.contains(t)).collect()
}

/// The changes between two sides: the tools' (as [`diff`]), the configuration that silences the
/// linter, the new and fixed findings, and the new model-directed-text findings next to each
/// description change.
pub fn diff_sides(old: &Side, new: &Side) -> CapabilityDiff {
    let mut out = diff(&old.inventory, &new.inventory);
    out.changes.extend(tools::newly_excluded(old, new));
    sort(&mut out.changes);
    out.silencing = silencing::silencing(old, new);
    out.findings = findings::finding_changes(old, new);
    findings::in_descriptions(&mut out.changes, &new.inventory, &out.findings.new);
    // A description that now holds model-directed text widens, whatever else it changed.
    for c in &mut out.changes {
        if c.kind == ChangeKind::DescriptionChanged && !c.findings.is_empty() && !c.widens {
            c.widens = true;
            c.message = "description adds model-directed text: the text the model reads is not the one reviewed".to_string();
        }
    }
    sort(&mut out.changes);
    out
}
