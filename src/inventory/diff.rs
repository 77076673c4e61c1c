//! What a change does to the agent's capabilities: two sides compared tool by tool
//! (`skilllint diff --dirs OLD NEW`). A tool is the same tool on both sides when its file and name
//! match; a tool removed and one added in the same file with the same input schema is a rename.
//! Each change says whether it **widens** what the agent can do without asking: a new tool that
//! writes or has a capability, a widened effect, a new capability, a dropped gate (a weaker
//! TOOL.md approval, more `mutates`, a `requires` entry gone, a Tool Use Rules item gone), a
//! schema that accepts more at any depth, a new pre-approval, a changed description (the
//! rug-pull signal: the text the model trusts changed after review), and, first of all,
//! configuration that silences the linter. The findings of both sides' lints give the new and
//! the fixed findings.

use super::side::{Comment, Finding, Settings, Side};
use super::words::{self, Piece};
use super::{Inventory, Row, Unread};
use crate::semantic::effect::Capability;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

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
    pub revisions: Option<super::Revisions>,
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
    at: super::At,
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

/// Whether a tool on its own lets the agent change something: it writes, or has a capability.
fn acts(row: &Row) -> bool {
    row.effect > crate::semantic::effect::Effect::Read || !row.capabilities.is_empty()
}

pub fn diff(old: &Inventory, new: &Inventory) -> CapabilityDiff {
    let key = |r: &Row| (r.path.clone(), r.name.clone());
    let olds: BTreeMap<(String, String), &Row> = old.rows.iter().map(|r| (key(r), r)).collect();
    let news: BTreeMap<(String, String), &Row> = new.rows.iter().map(|r| (key(r), r)).collect();
    let mut changes = Vec::new();
    let mut removed: Vec<&Row> = olds
        .iter()
        .filter(|(k, _)| !news.contains_key(*k))
        .map(|(_, r)| *r)
        .collect();
    let mut added = Vec::new();
    for (k, new_row) in &news {
        match olds.get(k) {
            Some(old_row) => compare(old_row, new_row, &mut changes),
            None => added.push(*new_row),
        }
    }
    // A rename: removed and added in the same file with the same input schema. The removed
    // tools are indexed by (file, schema text), each matched at most once, first in order.
    let mut by_schema: HashMap<(&str, String), VecDeque<usize>> = HashMap::new();
    for (i, r) in removed.iter().enumerate() {
        if let Some(schema) = &r.schema {
            by_schema
                .entry((r.path.as_str(), schema.to_string()))
                .or_default()
                .push_back(i);
        }
    }
    let mut renamed_from = vec![false; removed.len()];
    added.retain(|new_row| {
        let Some(schema) = &new_row.schema else {
            return true;
        };
        let Some(i) = by_schema
            .get_mut(&(new_row.path.as_str(), schema.to_string()))
            .and_then(VecDeque::pop_front)
        else {
            return true;
        };
        renamed_from[i] = true;
        let old_row = removed[i];
        let mut renamed = change(
            ChangeKind::Renamed,
            false,
            new_row,
            format!("renamed from `{}` (same input schema)", old_row.name),
        );
        renamed.old_name = Some(old_row.name.clone());
        renamed.before = Some(old_row.name.clone());
        renamed.after = Some(new_row.name.clone());
        changes.push(renamed);
        compare(old_row, new_row, &mut changes);
        false
    });
    let mut index = 0;
    removed.retain(|_| {
        index += 1;
        !renamed_from[index - 1]
    });
    for row in added {
        let caps = row.capability_list();
        let message = if row.capabilities.is_empty() {
            format!("new {} tool", row.effect.as_str())
        } else {
            format!("new {} tool ({caps})", row.effect.as_str())
        };
        changes.push(change(ChangeKind::Added, acts(row), row, message));
    }
    for row in removed {
        let message = format!("{} tool removed", row.effect.as_str());
        let mut removed = change(ChangeKind::Removed, false, row, message);
        removed.side = SideName::Old;
        changes.push(removed);
    }
    changes.extend(not_read(old, new));
    sort(&mut changes);
    CapabilityDiff {
        changes,
        old_unread: old.unread.clone(),
        new_unread: new.unread.clone(),
        ..CapabilityDiff::default()
    }
}

/// A widening change for each file the new side could not read (a tools file not valid JSON,
/// a file over the size cap, binary or not UTF-8, a link out of the root or one that does not
/// resolve…) unless the
/// old side could not read the same file, for the same reason, with the same text: whatever
/// tools it declares are compared with nothing, so a tool hidden in it would otherwise pass as
/// no change at all.
fn not_read(old: &Inventory, new: &Inventory) -> Vec<Change> {
    let before: HashSet<&Unread> = old.unread.iter().collect();
    new.unread
        .iter()
        .filter(|u| !before.contains(u))
        .map(|u| {
            let message = format!(
                "the new side cannot read this file ({}): what it declares is not compared",
                u.message
            );
            change_at(
                ChangeKind::NotRead,
                "file",
                &u.path,
                super::At { line: 1, column: 1 },
                SideName::New,
                message,
                None,
                Some(u.message.clone()),
            )
        })
        .collect()
}

/// A widening `not-read` change for each file of a kind skilllint reads that the new side's
/// `exclude` passes over and the old side's did not (a new file under a folder already
/// excluded, or one a new glob hides): the lint never read it, so whatever it declares is not
/// compared.
fn newly_excluded(old: &Side, new: &Side) -> Vec<Change> {
    let before: HashSet<&str> = old.excluded.iter().map(String::as_str).collect();
    new.excluded
        .iter()
        .filter(|path| !before.contains(path.as_str()))
        .map(|path| {
            change_at(
                ChangeKind::NotRead,
                "file",
                path,
                super::At { line: 1, column: 1 },
                SideName::New,
                "the new side's `exclude` passes over this file, which the old side's did not: it is not linted, and what it declares is not compared".to_string(),
                None,
                Some("excluded".to_string()),
            )
        })
        .collect()
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

fn shown(value: Option<bool>) -> String {
    value.map_or_else(|| "absent".to_string(), |v| v.to_string())
}

/// Whether the tool declares its effect (a forge `type`, an MCP hint, a contract's `mutates`),
/// rather than the model inferring it from its name or parameters.
fn declares_effect(row: &Row) -> bool {
    row.evidence.iter().any(|e| {
        e.basis == "declared"
            && ["effect:", "at-least:", "at-most:"]
                .iter()
                .any(|p| e.claim.starts_with(p))
    })
}

/// The changes between two versions of one tool.
fn compare(old: &Row, new: &Row, out: &mut Vec<Change>) {
    let mut push =
        |kind, widens, message: String, before: Option<String>, after: Option<String>| {
            let mut c = change(kind, widens, new, message);
            c.before = before;
            c.after = after;
            out.push(c);
        };
    if new.effect != old.effect {
        // A tool that only now says what it does (`readOnlyHint: false` where nothing was
        // declared and the name read as a read) does not do more: its text and schema are the
        // same. Real pairs of MCP tool snapshots are full of these.
        let now_declared = new.effect > old.effect
            && !declares_effect(old)
            && declares_effect(new)
            && old.description == new.description
            && old.schema == new.schema;
        let (kind, widens) = if new.effect > old.effect {
            (ChangeKind::EffectWidened, !now_declared)
        } else {
            (ChangeKind::EffectNarrowed, false)
        };
        let mut message = format!("effect {} → {}", old.effect.as_str(), new.effect.as_str());
        if now_declared {
            message.push_str(
                ": now declared where it was inferred, the description and schema unchanged",
            );
        }
        push(
            kind,
            widens,
            message,
            Some(old.effect.as_str().to_string()),
            Some(new.effect.as_str().to_string()),
        );
    }
    for c in new
        .capabilities
        .iter()
        .filter(|c| !old.capabilities.contains(c))
    {
        push(
            ChangeKind::CapabilityAdded,
            true,
            format!("new capability `{}`", c.as_str()),
            None,
            Some(c.as_str().to_string()),
        );
    }
    for c in old
        .capabilities
        .iter()
        .filter(|c| !new.capabilities.contains(c))
    {
        push(
            ChangeKind::CapabilityRemoved,
            false,
            format!("capability `{}` gone", c.as_str()),
            Some(c.as_str().to_string()),
            None,
        );
    }
    let (og, ng) = (&old.gates, &new.gates);
    // A gate that said "ask first" (or "safe to retry") and no longer does.
    let flags = [
        (
            "requiresConfirmation",
            og.requires_confirmation,
            ng.requires_confirmation,
        ),
        (
            "destructiveHint",
            og.annotation("destructiveHint"),
            ng.annotation("destructiveHint"),
        ),
        ("idempotent", og.idempotent, ng.idempotent),
    ];
    for (name, before, after) in flags {
        if before == Some(true) && after != Some(true) {
            push(
                ChangeKind::GateDropped,
                true,
                format!("`{name}` {} → {}", shown(before), shown(after)),
                Some(shown(before)),
                Some(shown(after)),
            );
        } else if before != Some(true) && after == Some(true) {
            push(
                ChangeKind::GateAdded,
                false,
                format!("`{name}` {} → {}", shown(before), shown(after)),
                Some(shown(before)),
                Some(shown(after)),
            );
        }
    }
    let read_only = (og.annotation("readOnlyHint"), ng.annotation("readOnlyHint"));
    if read_only.0 != Some(true)
        && read_only.1 == Some(true)
        && old.effect.max(new.effect) > crate::semantic::effect::Effect::Read
    {
        push(
            ChangeKind::GateDropped,
            true,
            format!(
                "`readOnlyHint: true` added to a tool whose effect was {}: a client may now call it without asking",
                old.effect.max(new.effect).as_str()
            ),
            Some(shown(read_only.0)),
            Some(shown(read_only.1)),
        );
    }
    for p in &og.parameters {
        match ng.parameter(&p.name) {
            None => push(
                ChangeKind::GateDropped,
                true,
                format!("{} parameter `{}` removed", p.kind, p.name),
                Some(p.name.clone()),
                None,
            ),
            Some(q) if p.required && !q.required => push(
                ChangeKind::GateDropped,
                true,
                format!("{} parameter `{}` no longer required", p.kind, p.name),
                Some("required".to_string()),
                Some("optional".to_string()),
            ),
            Some(_) => {}
        }
    }
    for q in &ng.parameters {
        if og.parameter(&q.name).is_none() {
            push(
                ChangeKind::GateAdded,
                false,
                format!("{} parameter `{}` added", q.kind, q.name),
                None,
                Some(q.name.clone()),
            );
        }
    }
    for (message, before, after) in schema_widenings(old, new) {
        push(ChangeKind::SchemaWidened, true, message, before, after);
    }
    for grant in missing(&ng.pre_approved, &og.pre_approved) {
        push(
            ChangeKind::PreApprovalAdded,
            true,
            format!("`allowed-tools` now pre-approves it: `{grant}`"),
            None,
            Some(grant.clone()),
        );
    }
    for grant in missing(&og.pre_approved, &ng.pre_approved) {
        push(
            ChangeKind::PreApprovalRemoved,
            false,
            format!("`allowed-tools` no longer pre-approves it: `{grant}`"),
            Some(grant.clone()),
            None,
        );
    }
    if old.description != new.description {
        let words = match (&old.description, &new.description) {
            (Some(before), Some(after)) => words::diff(before, after),
            _ => None,
        };
        let spacing = words.as_deref().is_some_and(words::spacing_only);
        let message = if spacing {
            "description changed in its spacing only"
        } else if words.is_none() && old.description.is_some() && new.description.is_some() {
            "description rewritten (too much changed to show a word diff): the text the model reads is not the one reviewed"
        } else {
            "description changed: the text the model reads is not the one reviewed"
        };
        // Spacing the model reads the same is no rug pull: listed, not widening.
        let mut c = change(
            ChangeKind::DescriptionChanged,
            !spacing,
            new,
            message.to_string(),
        );
        c.before = old.description.clone();
        c.after = new.description.clone();
        c.words = words;
        out.push(c);
    }
    contract_changes(old, new, out);
    exec_free_strings(old, new, out);
    let kept: HashSet<&str> = new.rules.iter().map(|r| r.text.as_str()).collect();
    for item in &old.rules {
        if !kept.contains(item.text.as_str()) {
            out.push(change_at(
                ChangeKind::ToolUseRuleRemoved,
                &new.name,
                &item.path,
                item.at,
                SideName::Old,
                format!(
                    "a Tool Use Rules item naming `{}` is gone: \"{}\"",
                    new.name,
                    cut(&item.text, 120)
                ),
                Some(item.text.clone()),
                None,
            ));
        }
    }
}

/// `text` cut to `max` characters, with `…` when it was longer.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// What the linked TOOL.md no longer promises: a weaker approval, more `mutates`, fewer
/// `requires` (AIP-14: a driver may add to `requires` and may not relax `approval`).
fn contract_changes(old: &Row, new: &Row, out: &mut Vec<Change>) {
    let Some(oc) = &old.contract else {
        return;
    };
    let nc = new.contract.as_ref();
    let (path, at) = match nc {
        Some(c) => (c.path.as_str(), c.at),
        None => (new.path.as_str(), new.at),
    };
    let written = |c: Option<&super::ContractFacts>| {
        c.and_then(|c| c.approval.as_ref())
            .map_or_else(|| "absent".to_string(), |(a, _)| a.clone())
    };
    let new_rank = nc.map_or(0, super::ContractFacts::approval_rank);
    if new_rank < oc.approval_rank() {
        let place = nc
            .and_then(|c| c.approval.as_ref())
            .map_or(at, |(_, at)| *at);
        let why = match nc {
            None => " (the TOOL.md no longer applies to the tool)".to_string(),
            Some(c) if c.approval.as_ref().is_some_and(|(a, _)| a == "on-mutate") => {
                " (`on-mutate` with an empty `mutates` never asks)".to_string()
            }
            Some(_) => String::new(),
        };
        out.push(change_at(
            ChangeKind::ApprovalWeakened,
            &new.name,
            path,
            place,
            SideName::New,
            format!(
                "TOOL.md approval weakened: `{}` → `{}`{why}",
                written(Some(oc)),
                written(nc)
            ),
            Some(written(Some(oc))),
            Some(written(nc)),
        ));
    }
    let Some(nc) = nc else {
        for dropped in &oc.requires {
            out.push(change_at(
                ChangeKind::RequirementDropped,
                &new.name,
                path,
                at,
                SideName::New,
                format!("TOOL.md requirement `{dropped}` dropped (the TOOL.md no longer applies)"),
                Some(dropped.clone()),
                None,
            ));
        }
        return;
    };
    let added = missing(&nc.mutates, &oc.mutates);
    if !added.is_empty() {
        let list = added
            .iter()
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(", ");
        out.push(change_at(
            ChangeKind::MutatesWidened,
            &new.name,
            path,
            nc.mutates_at.unwrap_or(at),
            SideName::New,
            format!("TOOL.md `mutates` now also lists {list}"),
            Some(oc.mutates.join(", ")),
            Some(nc.mutates.join(", ")),
        ));
    }
    for dropped in missing(&oc.requires, &nc.requires) {
        out.push(change_at(
            ChangeKind::RequirementDropped,
            &new.name,
            path,
            nc.requires_at.unwrap_or(at),
            SideName::New,
            format!("TOOL.md requirement `{dropped}` dropped: governance no longer gates on it"),
            Some(dropped.clone()),
            None,
        ));
    }
}

/// A string property added to a tool that runs commands (`exec`), with nothing that bounds it
/// (no `enum`, `const`, `pattern`, `format` or `maxLength`): a new way to hand the tool any text.
fn exec_free_strings(old: &Row, new: &Row, out: &mut Vec<Change>) {
    if !new.capabilities.contains(&Capability::Exec) {
        return;
    }
    let Some(ns) = &new.schema else {
        return;
    };
    if old.schema.as_ref() == Some(ns) {
        return;
    }
    let mut before = Vec::new();
    if let Some(os) = &old.schema {
        properties(os, String::new(), 0, &mut before);
    }
    let known: HashSet<&str> = before.iter().map(|(p, _)| p.as_str()).collect();
    let mut after = Vec::new();
    properties(ns, String::new(), 0, &mut after);
    for (path, schema) in after {
        let free = schema.get("type").and_then(serde_json::Value::as_str) == Some("string")
            && ["enum", "const", "pattern", "format", "maxLength"]
                .iter()
                .all(|k| schema.get(*k).is_none());
        if free && !known.contains(path.as_str()) {
            let mut c = change(
                ChangeKind::ExecFreeStringAdded,
                true,
                new,
                format!("new free-form string parameter `{path}` on a tool that runs commands (no enum, pattern, format or maxLength)"),
            );
            c.after = Some(path);
            out.push(c);
        }
    }
}

/// How deep [`properties`] and [`schema_widenings`] follow nested schemas.
const MAX_SCHEMA_DEPTH: usize = 32;

/// Every property of an object schema at any depth, with its path (`/filter/labels[]/name`).
fn properties<'v>(
    schema: &'v serde_json::Value,
    path: String,
    depth: usize,
    out: &mut Vec<(String, &'v serde_json::Value)>,
) {
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    if let Some(items) = schema.get("items") {
        properties(items, format!("{path}[]"), depth + 1, out);
    }
    let Some(props) = schema
        .get("properties")
        .and_then(serde_json::Value::as_object)
    else {
        return;
    };
    for (name, sub) in props {
        let sub_path = format!("{path}/{}", crate::parse::node::pointer_token(name));
        out.push((sub_path.clone(), sub));
        properties(sub, sub_path, depth + 1, out);
    }
}

/// How the input schema accepts more than it did, at any depth: a property no longer required
/// (gate parameters aside: those are dropped gates), `additionalProperties: false` gone, an
/// `enum` removed or grown, a `maxLength`/`maximum`/`maxItems` bound removed or raised, a
/// `pattern` removed. Each message names the property by its path (`/filter/labels[]`).
fn schema_widenings(old: &Row, new: &Row) -> Vec<(String, Option<String>, Option<String>)> {
    let (Some(os), Some(ns)) = (&old.schema, &new.schema) else {
        return Vec::new();
    };
    // Most tools of a change keep their schema: comparing is cheaper than walking.
    if os == ns {
        return Vec::new();
    }
    let mut out = Vec::new();
    widenings(old, os, ns, "", 0, &mut out);
    out
}

fn widenings(
    old: &Row,
    os: &serde_json::Value,
    ns: &serde_json::Value,
    path: &str,
    depth: usize,
    out: &mut Vec<(String, Option<String>, Option<String>)>,
) {
    use serde_json::Value;
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    let shown = |p: &str| {
        if p.is_empty() {
            "/".to_string()
        } else {
            p.to_string()
        }
    };
    let required = |s: &Value| -> Vec<String> {
        s.get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let now_required: HashSet<String> = required(ns).into_iter().collect();
    let new_props = ns.get("properties").and_then(Value::as_object);
    for name in required(os) {
        let gate = depth == 0 && old.gates.parameter(&name).is_some();
        let still_there = new_props.is_some_and(|p| p.contains_key(&name));
        if !gate && still_there && !now_required.contains(&name) {
            out.push((
                format!(
                    "property `{path}/{}` no longer required",
                    crate::parse::node::pointer_token(&name)
                ),
                Some("required".to_string()),
                Some("optional".to_string()),
            ));
        }
    }
    let closed = |s: &Value| s.get("additionalProperties") == Some(&Value::Bool(false));
    if closed(os) && !closed(ns) {
        out.push((
            format!(
                "`additionalProperties: false` gone at `{}`: the tool accepts properties it does not declare",
                shown(path)
            ),
            Some("false".to_string()),
            ns.get("additionalProperties").map(Value::to_string),
        ));
    }
    if !path.is_empty() {
        value_widenings(os, ns, path, out);
    }
    if let (Some(before), Some(after)) = (os.get("items"), ns.get("items")) {
        widenings(old, before, after, &format!("{path}[]"), depth + 1, out);
    }
    let Some(old_props) = os.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, before) in old_props {
        let Some(after) = new_props.and_then(|p| p.get(name)) else {
            continue;
        };
        let sub = format!("{path}/{}", crate::parse::node::pointer_token(name));
        widenings(old, before, after, &sub, depth + 1, out);
    }
}

/// Whether `now` holds a value `before` does not (values compared by their JSON text, in a set:
/// an `enum` can be long).
fn grown(before: &[serde_json::Value], now: &[serde_json::Value]) -> bool {
    let before: HashSet<String> = before.iter().map(serde_json::Value::to_string).collect();
    now.iter().any(|v| !before.contains(&v.to_string()))
}

/// What one property's own keywords accept more of: its `enum`, its upper bounds, its `pattern`.
fn value_widenings(
    before: &serde_json::Value,
    after: &serde_json::Value,
    path: &str,
    out: &mut Vec<(String, Option<String>, Option<String>)>,
) {
    use serde_json::Value;
    if let Some(values) = before.get("enum").and_then(Value::as_array) {
        match after.get("enum").and_then(Value::as_array) {
            None => out.push((
                format!("property `{path}` lost its `enum`: any value is accepted"),
                Some(Value::Array(values.clone()).to_string()),
                None,
            )),
            Some(now) if grown(values, now) => out.push((
                format!("property `{path}` accepts more `enum` values"),
                Some(Value::Array(values.clone()).to_string()),
                Some(Value::Array(now.clone()).to_string()),
            )),
            Some(_) => {}
        }
    }
    for bound in ["maxLength", "maximum", "exclusiveMaximum", "maxItems"] {
        let Some(b) = before.get(bound) else {
            continue;
        };
        match after.get(bound) {
            None => out.push((
                format!("property `{path}` lost its `{bound}`"),
                Some(b.to_string()),
                None,
            )),
            Some(a) if a.as_f64().zip(b.as_f64()).is_some_and(|(a, b)| a > b) => out.push((
                format!("property `{path}` `{bound}` raised from {b} to {a}"),
                Some(b.to_string()),
                Some(a.to_string()),
            )),
            Some(_) => {}
        }
    }
    if let (Some(p), None) = (before.get("pattern"), after.get("pattern")) {
        out.push((
            format!("property `{path}` lost its `pattern`"),
            Some(p.to_string()),
            None,
        ));
    }
}

/// The changes between two sides: the tools' (as [`diff`]), the configuration that silences the
/// linter, the new and fixed findings, and the new model-directed-text findings next to each
/// description change.
pub fn diff_sides(old: &Side, new: &Side) -> CapabilityDiff {
    let mut out = diff(&old.inventory, &new.inventory);
    out.changes.extend(newly_excluded(old, new));
    sort(&mut out.changes);
    out.silencing = silencing(old, new);
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
    out.findings = FindingChanges {
        new: only_in(&new.findings, &old.findings),
        fixed,
        silenced,
        suppressed,
    };
    let spans: HashMap<(&str, &str), crate::source::Span> = new
        .inventory
        .rows
        .iter()
        .filter_map(|r| {
            r.description_span
                .map(|span| ((r.path.as_str(), r.name.as_str()), span))
        })
        .collect();
    let mut model_directed: HashMap<&str, Vec<&Finding>> = HashMap::new();
    for f in out.findings.new.iter().filter(|f| f.code.starts_with("PI")) {
        model_directed.entry(f.path.as_str()).or_default().push(f);
    }
    for c in &mut out.changes {
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
    out
}

/// The policy rules both sides run whose logic (`on`, `when`, `assert`, `at`) differs.
fn rewritten_policies<'s>(old: &Settings, new: &'s Settings) -> HashSet<&'s str> {
    new.policy_logic
        .iter()
        .filter(|(code, logic)| old.policy_logic.get(*code).is_some_and(|was| was != *logic))
        .map(|(code, _)| code.as_str())
        .collect()
}

/// The findings of `these` that `those` do not have, counted (two same findings on one side and
/// one on the other leave one). Matched first by identity (rule, file, message, flagged text),
/// then what is left by rule, file and message alone: a finding whose flagged text was edited
/// (an `enum` grown under the same message) is the same finding, not a fixed one and a new one.
fn only_in(these: &[Finding], those: &[Finding]) -> Vec<Finding> {
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

/// Where a configuration change points: the line of `needle` in the new side's configuration,
/// else (a configuration deleted) the old one's.
fn setting_place(old: &Settings, new: &Settings, needle: &str) -> (String, super::At, SideName) {
    match (&new.path, &old.path) {
        (Some(path), _) => (path.clone(), new.place(needle), SideName::New),
        (None, Some(path)) => (path.clone(), old.place(needle), SideName::Old),
        (None, None) => (
            "skilllint.toml".to_string(),
            super::At { line: 1, column: 1 },
            SideName::New,
        ),
    }
}

/// Up to ten items, `, `-joined, with how many more there are.
fn listed(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(10)
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > 10 {
        text.push_str(&format!(" and {} more", items.len() - 10));
    }
    text
}

/// How many configuration changes of one kind are listed one by one; the rest are counted in
/// one more change.
const MAX_EACH_SETTING: usize = 20;

/// The strings of `these` that `those` does not hold, in order (a set lookup each: lists from a
/// repository's files can be long).
fn missing<'a>(these: &'a [String], those: &[String]) -> Vec<&'a String> {
    let those: HashSet<&String> = those.iter().collect();
    these.iter().filter(|t| !those.contains(t)).collect()
}

/// Configuration changes that make the linter say less: rules no longer run or with a lower
/// severity, new per-file ignores, inline suppression comments and baseline entries, policy
/// rules gone, a higher size cap, new exclusions. Every one widens: a pull request that silences
/// the check reviewing it is the first thing a reviewer must see.
fn silencing(old_side: &Side, new_side: &Side) -> Vec<Change> {
    let mut out = settings_silencing(&old_side.settings, &new_side.settings);
    out.extend(new_comments(&old_side.comments, &new_side.comments));
    out.extend(nested_silencing(old_side, new_side));
    out.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.kind, &a.message)
            .cmp(&(&b.path, b.line, b.column, b.kind, &b.message))
    });
    out
}

/// The configuration below the root in force for `folder` on `side` (the side's own there, else
/// the nearest above it), as (path, text); `None` when the top one is.
fn in_force<'s>(side: &'s Side, folder: &str) -> Option<&'s (String, String)> {
    side.nested
        .iter()
        .filter(|(path, _)| {
            let own = crate::source::split_path(path).0;
            own == folder || folder.starts_with(&format!("{own}/"))
        })
        .max_by_key(|(path, _)| path.len())
}

/// For each folder with a configuration of its own on either side (below the root), what a lint
/// of that folder (`skilllint sub`, an Action whose `path` is in it, pre-commit on its files)
/// silences on the new side compared with the old: the configuration in force for the folder on
/// each side is its own, else the nearest above it, else the top one. One
/// `configuration-below-root` change names the new side's configuration (the old side's, when it
/// is gone), then the settings it loosens, each said to be for a lint of that folder. A
/// configuration that loosens nothing is no change.
fn nested_silencing(old_side: &Side, new_side: &Side) -> Vec<Change> {
    let mut folders: Vec<&str> = old_side
        .nested
        .iter()
        .chain(&new_side.nested)
        .map(|(path, _)| crate::source::split_path(path).0)
        .collect();
    folders.sort_unstable();
    folders.dedup();
    let mut out = Vec::new();
    for folder in folders {
        let (was, now) = (in_force(old_side, folder), in_force(new_side, folder));
        if was == now {
            continue;
        }
        let after = match now {
            Some((path, text)) => match super::side::nested_settings(path, text) {
                Some(settings) => settings,
                // Not valid as the built-in rules read it: either the lint of that folder
                // refuses it too (exit 2), or it names rules of policies it loads there, which
                // are not loaded here. Which cannot be told apart here, so it is said, as
                // silencing: a reviewer reads it.
                None => {
                    out.push(change_at(
                        ChangeKind::ConfigurationBelowRoot,
                        "configuration",
                        path,
                        super::At { line: 1, column: 1 },
                        SideName::New,
                        format!(
                            "a lint of `{folder}/` reads `{path}`, which the diff cannot apply on its own (it names rules it does not know: of policies a lint there loads, or none, and the lint refuses it): what it silences is not shown"
                        ),
                        was.map(|(p, _)| p.clone()),
                        Some(path.clone()),
                    ));
                    continue;
                }
            },
            None => new_side.settings.clone(),
        };
        let before = was
            .and_then(|(path, text)| super::side::nested_settings(path, text))
            .unwrap_or_else(|| old_side.settings.clone());
        let loosened = settings_silencing(&before, &after);
        if loosened.is_empty() {
            continue;
        }
        let named = |c: Option<&(String, String)>, settings: &Settings| {
            c.map(|(path, _)| path.clone())
                .or_else(|| settings.path.clone())
        };
        let (before_path, after_path) = (
            named(was, &old_side.settings),
            named(now, &new_side.settings),
        );
        let shown = |path: &Option<String>| {
            path.as_deref()
                .map_or_else(|| "no configuration".to_string(), |p| format!("`{p}`"))
        };
        let (path, side) = match (now, was) {
            (Some((path, _)), _) => (path.clone(), SideName::New),
            (None, Some((path, _))) => (path.clone(), SideName::Old),
            (None, None) => continue,
        };
        out.push(change_at(
            ChangeKind::ConfigurationBelowRoot,
            "configuration",
            &path,
            super::At { line: 1, column: 1 },
            side,
            format!(
                "a lint of `{folder}/` (`skilllint {folder}`, an Action whose `path` is in it, pre-commit on its files) read {} and now reads {}, which silences {} setting(s)",
                shown(&before_path),
                shown(&after_path),
                loosened.len()
            ),
            before_path,
            after_path,
        ));
        out.extend(loosened.into_iter().map(|mut c| {
            c.message = format!("for a lint of `{folder}/`: {}", c.message);
            c
        }));
    }
    out
}

/// The configuration changes of [`silencing`] that the settings alone show (not the inline
/// comments), unsorted.
fn settings_silencing(old: &Settings, new: &Settings) -> Vec<Change> {
    let mut out = Vec::new();
    // Each change of a kind is placed by a scan of the configuration text: past
    // [`MAX_EACH_SETTING`] of one kind the rest are counted, so a configuration listing
    // thousands of new globs costs no more than one scan per shown change.
    let mut shown: BTreeMap<ChangeKind, usize> = BTreeMap::new();
    // The count goes where the last change shown of its kind is, so that it follows them.
    let mut more: BTreeMap<ChangeKind, (usize, String, super::At, SideName)> = BTreeMap::new();
    let mut push = |kind, needle: &str, tool: &str, message: String, before, after| {
        let count = shown.entry(kind).or_default();
        if *count >= MAX_EACH_SETTING {
            if let Some(entry) = more.get_mut(&kind) {
                entry.0 += 1;
            }
            return;
        }
        *count += 1;
        let (path, at, side) = setting_place(old, new, needle);
        more.insert(kind, (0, path.clone(), at, side));
        out.push(change_at(
            kind, tool, &path, at, side, message, before, after,
        ));
    };
    // A policy rule that is gone is `policy-removed`, not a rule the selection turned off.
    let disabled: Vec<String> = old
        .enabled
        .difference(&new.enabled)
        .filter(|code| new.severity.contains_key(*code))
        .cloned()
        .collect();
    if !disabled.is_empty() {
        let added: Vec<String> = new
            .ignore
            .iter()
            .filter(|s| !old.ignore.contains(s))
            .cloned()
            .collect();
        let (needle, how) = if added.is_empty() {
            ("select", "`select` narrowed".to_string())
        } else {
            ("ignore", format!("`ignore` adds {}", listed(&added)))
        };
        let all = new.enabled.is_empty();
        push(
            ChangeKind::RulesDisabled,
            needle,
            needle,
            format!(
                "{how}: {} rule(s) no longer run{}: {}",
                disabled.len(),
                if all { ", none at all does" } else { "" },
                listed(&disabled)
            ),
            Some(old.ignore.join(", ")),
            Some(new.ignore.join(", ")),
        );
    }
    let lowered: Vec<String> = new
        .severity
        .iter()
        .filter(|(code, _)| new.enabled.contains(*code) && old.enabled.contains(*code))
        .filter_map(|(code, after)| {
            let before = old.severity.get(code)?;
            (after < before).then(|| format!("{code} {} → {}", before.as_str(), after.as_str()))
        })
        .collect();
    if !lowered.is_empty() {
        let needle = lowered
            .first()
            .and_then(|l| l.split(' ').next())
            .unwrap_or("severity")
            .to_string();
        push(
            ChangeKind::SeverityLowered,
            &needle,
            "severity",
            format!(
                "severity lowered for {} rule(s): {}",
                lowered.len(),
                listed(&lowered)
            ),
            None,
            None,
        );
    }
    let before: HashSet<&(String, String)> = old.per_file_ignores.iter().collect();
    for pair in &new.per_file_ignores {
        if !before.contains(pair) {
            let (glob, selector) = pair;
            push(
                ChangeKind::PerFileIgnoreAdded,
                glob,
                "per-file-ignores",
                format!("`per-file-ignores` silences `{selector}` in `{glob}`"),
                None,
                Some(format!("{glob}: {selector}")),
            );
        }
    }
    for glob in missing(&new.exclude, &old.exclude) {
        push(
            ChangeKind::ExcludeAdded,
            glob,
            "exclude",
            format!("`exclude` adds `{glob}`: its files are no longer linted"),
            None,
            Some(glob.clone()),
        );
    }
    let fail_on = |s: &Settings| s.fail_on.unwrap_or(crate::diagnostic::Severity::Error);
    if fail_on(new) > fail_on(old) {
        push(
            ChangeKind::FailOnRaised,
            "fail-on",
            "fail-on",
            format!(
                "`fail-on` raised from {} to {}: findings below it no longer fail the run",
                fail_on(old).as_str(),
                fail_on(new).as_str()
            ),
            Some(fail_on(old).as_str().to_string()),
            Some(fail_on(new).as_str().to_string()),
        );
    }
    for field in missing(&new.extra_fields, &old.extra_fields) {
        push(
            ChangeKind::SettingLoosened,
            "extra-fields",
            "extra-fields",
            format!("`extra-fields` adds `{field}`: SKILL.md frontmatter may carry it unreported"),
            None,
            Some(field.clone()),
        );
    }
    for glob in missing(&old.tool_include, &new.tool_include) {
        push(
            ChangeKind::SettingLoosened,
            "include",
            "include",
            format!(
                "`[tools] include` drops `{glob}`: those files are no longer read as tool lists"
            ),
            Some(glob.clone()),
            None,
        );
    }
    if new.tool_use_rules_heading != old.tool_use_rules_heading {
        push(
            ChangeKind::SettingLoosened,
            "tool-use-rules-heading",
            "tool-use-rules-heading",
            format!(
                "`tool-use-rules-heading` changed from `{}` to `{}`: the TR rules read another section",
                old.tool_use_rules_heading, new.tool_use_rules_heading
            ),
            Some(old.tool_use_rules_heading.clone()),
            Some(new.tool_use_rules_heading.clone()),
        );
    }
    for name in missing(&old.requirement_files, &new.requirement_files) {
        push(
            ChangeKind::SettingLoosened,
            "requirement-files",
            "requirement-files",
            format!("`requirement-files` drops `{name}`: those files are no longer read"),
            Some(name.clone()),
            None,
        );
    }
    if new.max_file_size > old.max_file_size {
        push(
            ChangeKind::MaxFileSizeRaised,
            "max-file-size",
            "max-file-size",
            format!(
                "`max-file-size` raised from {} to {} bytes",
                old.max_file_size, new.max_file_size
            ),
            Some(old.max_file_size.to_string()),
            Some(new.max_file_size.to_string()),
        );
    }
    for (code, file) in &old.policy_rules {
        if !new.policy_rules.contains_key(code) {
            // Removed: the place is where the old configuration named its policies.
            let (path, at, side) = match &old.path {
                Some(path) => (path.clone(), old.place("policies"), SideName::Old),
                None => setting_place(old, new, "policies"),
            };
            out.push(change_at(
                ChangeKind::PolicyRemoved,
                code,
                &path,
                at,
                side,
                format!("policy rule `{code}` (from `{file}`) no longer runs"),
                Some(file.clone()),
                None,
            ));
        }
    }
    for code in rewritten_policies(old, new) {
        let file = new.policy_rules.get(code).cloned().unwrap_or_default();
        let (before, after) = (
            old.policy_logic.get(code).cloned(),
            new.policy_logic.get(code).cloned(),
        );
        out.push(change_at(
            ChangeKind::PolicyChanged,
            code,
            &file,
            super::At { line: 1, column: 1 },
            SideName::New,
            format!(
                "policy rule `{code}` (from `{file}`) decides differently: {}; what it no longer reports is listed as silenced, not fixed",
                cut(after.as_deref().unwrap_or(""), 200)
            ),
            before,
            after,
        ));
    }
    if let Some((path, entries)) = &new.baseline {
        let before = old.baseline.as_ref().map_or(&[][..], |(_, e)| e.as_slice());
        let mut counts: HashMap<&(String, String, String), usize> = HashMap::new();
        for e in before {
            *counts.entry(e).or_default() += 1;
        }
        let added: Vec<String> = entries
            .iter()
            .filter(|e| match counts.get_mut(e) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            })
            .map(|(rule, file, _)| format!("{rule} in {file}"))
            .collect();
        if !added.is_empty() {
            out.push(change_at(
                ChangeKind::BaselineEntriesAdded,
                "baseline",
                path,
                super::At { line: 1, column: 1 },
                SideName::New,
                format!(
                    "{} baseline entr{} added, hiding: {}",
                    added.len(),
                    if added.len() == 1 { "y" } else { "ies" },
                    listed(&added)
                ),
                None,
                Some(added.len().to_string()),
            ));
        }
    }
    for (kind, (count, path, at, side)) in more.into_iter().filter(|(_, m)| m.0 > 0) {
        out.push(change_at(
            kind,
            "configuration",
            &path,
            at,
            side,
            format!(
                "and {count} more `{}` change(s) like the ones above",
                kind.as_str()
            ),
            None,
            Some(count.to_string()),
        ));
    }
    out
}

/// One change per file that gained inline suppression comments (matched by their text, so a
/// comment that only moved is not new), at the first new one.
fn new_comments(old: &[Comment], new: &[Comment]) -> Vec<Change> {
    let mut counts: HashMap<(&str, &str), usize> = HashMap::new();
    for c in old {
        *counts
            .entry((c.path.as_str(), c.text.as_str()))
            .or_default() += 1;
    }
    let mut by_file: BTreeMap<&str, Vec<&Comment>> = BTreeMap::new();
    for c in new {
        match counts.get_mut(&(c.path.as_str(), c.text.as_str())) {
            Some(n) if *n > 0 => *n -= 1,
            _ => by_file.entry(c.path.as_str()).or_default().push(c),
        }
    }
    by_file
        .into_iter()
        .filter_map(|(path, comments)| {
            let first = comments.first()?;
            Some(change_at(
                ChangeKind::InlineSuppressionAdded,
                "inline",
                path,
                first.at,
                SideName::New,
                format!(
                    "{} new inline suppression comment(s), the first: {}",
                    comments.len(),
                    cut(&first.text, 120)
                ),
                None,
                Some(comments.len().to_string()),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{At, ContractFacts, Gates};
    use crate::semantic::effect::Effect;
    use serde_json::json;

    fn row(schema: serde_json::Value, capabilities: Vec<Capability>) -> Row {
        Row {
            path: "tools.json".to_string(),
            folder: String::new(),
            at: At { line: 1, column: 1 },
            span: crate::source::Span::empty(0),
            name: "run".to_string(),
            dialect: "MCP",
            effect: Effect::Write,
            capabilities,
            evidence: Vec::new(),
            gates: Gates::default(),
            description: None,
            schema: Some(schema),
            description_span: None,
            contract: None,
            rules: Vec::new(),
        }
    }

    fn messages(old: &Row, new: &Row) -> Vec<String> {
        let mut out = Vec::new();
        compare(old, new, &mut out);
        out.into_iter().map(|c| c.message).collect()
    }

    #[test]
    fn nested_schemas_widen_at_their_path() {
        let old = row(
            json!({"type": "object", "properties": {"filter": {"type": "object", "additionalProperties": false,
                "required": ["owner"],
                "properties": {"owner": {"type": "string"}, "labels": {"type": "array", "maxItems": 5,
                    "items": {"type": "string", "enum": ["bug", "docs"], "maxLength": 20}}}}}}),
            Vec::new(),
        );
        let new = row(
            json!({"type": "object", "properties": {"filter": {"type": "object",
                "properties": {"owner": {"type": "string"}, "labels": {"type": "array", "maxItems": 50,
                    "items": {"type": "string", "enum": ["bug", "docs", "ops"]}}}}}}),
            Vec::new(),
        );
        assert_eq!(
            messages(&old, &new),
            [
                "property `/filter/owner` no longer required",
                "`additionalProperties: false` gone at `/filter`: the tool accepts properties it does not declare",
                "property `/filter/labels` `maxItems` raised from 5 to 50",
                "property `/filter/labels[]` accepts more `enum` values",
                "property `/filter/labels[]` lost its `maxLength`",
            ]
        );
        // Narrowing is not widening.
        assert!(
            messages(&new, &old).is_empty(),
            "{:?}",
            messages(&new, &old)
        );
    }

    #[test]
    fn a_new_unbounded_string_on_an_exec_tool_is_reported_once() {
        let old = row(
            json!({"type": "object", "properties": {"script": {"type": "string", "enum": ["build"]}}}),
            vec![Capability::Exec],
        );
        let new = row(
            json!({"type": "object", "properties": {"script": {"type": "string", "enum": ["build"]},
                "args": {"type": "string"}, "env": {"type": "string", "pattern": "^[A-Z]+=\\w*$"}}}),
            vec![Capability::Exec],
        );
        assert_eq!(
            messages(&old, &new),
            ["new free-form string parameter `/args` on a tool that runs commands (no enum, pattern, format or maxLength)"]
        );
        // Not on a tool that runs nothing.
        let quiet = row(new.schema.clone().unwrap_or_default(), Vec::new());
        assert!(messages(
            &row(old.schema.clone().unwrap_or_default(), Vec::new()),
            &quiet
        )
        .is_empty());
    }

    fn with_approval(approval: &str, mutates: &[&str]) -> Row {
        let mut r = row(json!({"type": "object"}), Vec::new());
        r.contract = Some(ContractFacts {
            path: "TOOL.md".to_string(),
            approval: Some((
                approval.to_string(),
                At {
                    line: 3,
                    column: 11,
                },
            )),
            mutates: mutates.iter().map(|m| m.to_string()).collect(),
            ..ContractFacts::default()
        });
        r
    }

    #[test]
    fn approval_is_ranked_by_what_each_class_asks() {
        let weakened = |a: &Row, b: &Row| {
            let mut out = Vec::new();
            compare(a, b, &mut out);
            out.iter()
                .filter(|c| c.kind == ChangeKind::ApprovalWeakened)
                .count()
        };
        let db = ["database:orders"];
        // AIP-14 lets a tool narrow `always` to `on-mutate`: for a tool that mutates, it still asks.
        assert_eq!(
            weakened(
                &with_approval("always", &db),
                &with_approval("on-mutate", &db)
            ),
            0
        );
        // With nothing in `mutates`, `on-mutate` never asks.
        assert_eq!(
            weakened(
                &with_approval("always", &[]),
                &with_approval("on-mutate", &[])
            ),
            1
        );
        assert_eq!(
            weakened(
                &with_approval("always", &db),
                &with_approval("policy:finance", &db)
            ),
            1
        );
        assert_eq!(
            weakened(
                &with_approval("policy:finance", &db),
                &with_approval("auto", &db)
            ),
            1
        );
        assert_eq!(
            weakened(&with_approval("auto", &db), &with_approval("always", &db)),
            0
        );
    }

    #[test]
    fn an_effect_only_now_declared_does_not_widen() {
        let evidence = |claim: &str, basis: &'static str| crate::inventory::RowEvidence {
            claim: claim.to_string(),
            basis,
            source: "annotations.readOnlyHint",
            text: String::new(),
            at: At::default(),
        };
        let mut old = row(json!({"type": "object"}), Vec::new());
        old.effect = Effect::Read;
        old.evidence = vec![evidence("effect:read", "inferred")];
        let mut new = old.clone();
        new.effect = Effect::Write;
        new.evidence = vec![evidence("at-least:write", "declared")];
        let mut out = Vec::new();
        compare(&old, &new, &mut out);
        assert_eq!(out.len(), 1);
        assert!(!out[0].widens, "{:?}", out[0]);
        // With its schema changed too, it is a widening like any other.
        new.schema = Some(json!({"type": "object", "properties": {"all": {"type": "boolean"}}}));
        let mut out = Vec::new();
        compare(&old, &new, &mut out);
        assert!(out
            .iter()
            .any(|c| c.kind == ChangeKind::EffectWidened && c.widens));
    }

    #[test]
    fn a_description_respaced_is_listed_without_widening() {
        let mut old = row(json!({"type": "object"}), Vec::new());
        old.description = Some("Create a file. If it exists, pass its SHA.".to_string());
        let mut new = old.clone();
        new.description = Some("Create a file.\n\nIf it exists, pass its SHA.".to_string());
        let mut out = Vec::new();
        compare(&old, &new, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].message, "description changed in its spacing only");
        assert!(!out[0].widens);
        new.description = Some("Create a file. If it exists, pass any SHA.".to_string());
        let mut out = Vec::new();
        compare(&old, &new, &mut out);
        assert!(out[0].widens);
    }

    fn finding(code: &str, message: &str, fingerprint: &str, line: u32) -> Finding {
        Finding {
            code: code.to_string(),
            severity: crate::diagnostic::Severity::Warning,
            path: "tools.json".to_string(),
            at: At { line, column: 1 },
            span: crate::source::Span::empty(0),
            message: message.to_string(),
            fingerprint: fingerprint.to_string(),
        }
    }

    #[test]
    fn findings_match_by_identity_then_by_message_never_by_line() {
        let old = [
            finding("TJ012", "tool `x` selects one of `a` and `b`", "f1", 10),
            finding("SC003", "open schema", "f2", 20),
            finding("SC003", "open schema", "f2", 30),
        ];
        let new = [
            // Moved and its flagged text edited: the same finding.
            finding("TJ012", "tool `x` selects one of `a` and `b`", "f9", 40),
            // One of the two identical findings is gone.
            finding("SC003", "open schema", "f2", 25),
        ];
        assert!(only_in(&new, &old).is_empty());
        let gone = only_in(&old, &new);
        assert_eq!(gone.len(), 1);
        assert_eq!(gone[0].code, "SC003");
    }
}
