//! What a change does to the agent's capabilities: two inventories compared tool by tool
//! (`skilllint diff --dirs OLD NEW`). A tool is the same tool on both sides when its file and name
//! match; a tool removed and one added in the same file with the same input schema is a rename.
//! Each change says whether it **widens** what the agent can do without asking: a new tool that
//! writes or has a capability, a widened effect, a new capability, a dropped gate, a new
//! pre-approval, a changed description (the rug-pull signal: the text the model trusts changed
//! after review).

use super::{Inventory, Row, Unread};
use std::collections::{BTreeMap, HashMap, VecDeque};

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
}

/// The changes between two inventories, widening ones first, then by path, place, tool, kind.
#[derive(Debug, Clone)]
pub struct CapabilityDiff {
    pub changes: Vec<Change>,
    pub old_unread: Vec<Unread>,
    pub new_unread: Vec<Unread>,
    /// The revisions compared (`skilllint diff BASE [HEAD]`); `None` for two folders.
    pub revisions: Option<super::Revisions>,
}

impl CapabilityDiff {
    pub fn widens(&self) -> bool {
        self.changes.iter().any(|c| c.widens)
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
        changes.push(change(ChangeKind::Removed, false, row, message));
    }
    changes.sort_by(|a, b| {
        (
            !a.widens, &a.path, a.line, a.column, &a.tool, a.kind, &a.message,
        )
            .cmp(&(
                !b.widens, &b.path, b.line, b.column, &b.tool, b.kind, &b.message,
            ))
    });
    CapabilityDiff {
        changes,
        old_unread: old.unread.clone(),
        new_unread: new.unread.clone(),
        revisions: None,
    }
}

fn shown(value: Option<bool>) -> String {
    value.map_or_else(|| "absent".to_string(), |v| v.to_string())
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
        let (kind, widens) = if new.effect > old.effect {
            (ChangeKind::EffectWidened, true)
        } else {
            (ChangeKind::EffectNarrowed, false)
        };
        push(
            kind,
            widens,
            format!("effect {} → {}", old.effect.as_str(), new.effect.as_str()),
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
    if og.approval.is_some() && ng.approval.is_none() {
        push(
            ChangeKind::GateDropped,
            true,
            "the TOOL.md approval is gone".to_string(),
            og.approval.clone(),
            None,
        );
    }
    for grant in ng
        .pre_approved
        .iter()
        .filter(|g| !og.pre_approved.contains(g))
    {
        push(
            ChangeKind::PreApprovalAdded,
            true,
            format!("`allowed-tools` now pre-approves it: `{grant}`"),
            None,
            Some(grant.clone()),
        );
    }
    for grant in og
        .pre_approved
        .iter()
        .filter(|g| !ng.pre_approved.contains(g))
    {
        push(
            ChangeKind::PreApprovalRemoved,
            false,
            format!("`allowed-tools` no longer pre-approves it: `{grant}`"),
            Some(grant.clone()),
            None,
        );
    }
    if old.description != new.description {
        push(
            ChangeKind::DescriptionChanged,
            true,
            "description changed: the text the model reads is not the one reviewed".to_string(),
            old.description.clone(),
            new.description.clone(),
        );
    }
}

/// How the input schema's top level accepts more than it did: a property no longer required
/// (gate parameters aside: those are dropped gates), `additionalProperties: false` gone, a
/// property's `enum` removed or grown, a `maxLength`/`maximum`/`maxItems` bound removed.
fn schema_widenings(old: &Row, new: &Row) -> Vec<(String, Option<String>, Option<String>)> {
    use serde_json::Value;
    let (Some(os), Some(ns)) = (&old.schema, &new.schema) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let required = |s: &Value| -> Vec<String> {
        s.get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let now_required = required(ns);
    for name in required(os) {
        let gate = old.gates.parameter(&name).is_some();
        let still_there = ns
            .pointer(&format!(
                "/properties/{}",
                crate::parse::node::pointer_token(&name)
            ))
            .is_some();
        if !gate && still_there && !now_required.contains(&name) {
            out.push((
                format!("property `{name}` no longer required"),
                Some("required".to_string()),
                Some("optional".to_string()),
            ));
        }
    }
    let closed = |s: &Value| s.get("additionalProperties") == Some(&Value::Bool(false));
    if closed(os) && !closed(ns) {
        out.push((
            "`additionalProperties: false` gone: the tool accepts properties it does not declare"
                .to_string(),
            Some("false".to_string()),
            ns.get("additionalProperties").map(Value::to_string),
        ));
    }
    let Some(old_props) = os.get("properties").and_then(Value::as_object) else {
        return out;
    };
    for (name, before) in old_props {
        let Some(after) = ns.get("properties").and_then(|p| p.get(name)) else {
            continue;
        };
        if let Some(values) = before.get("enum").and_then(Value::as_array) {
            match after.get("enum").and_then(Value::as_array) {
                None => out.push((
                    format!("property `{name}` lost its `enum`: any value is accepted"),
                    Some(Value::Array(values.clone()).to_string()),
                    None,
                )),
                Some(now) if now.iter().any(|v| !values.contains(v)) => out.push((
                    format!("property `{name}` accepts more `enum` values"),
                    Some(Value::Array(values.clone()).to_string()),
                    Some(Value::Array(now.clone()).to_string()),
                )),
                Some(_) => {}
            }
        }
        for bound in ["maxLength", "maximum", "maxItems"] {
            if let (Some(b), None) = (before.get(bound), after.get(bound)) {
                out.push((
                    format!("property `{name}` lost its `{bound}`"),
                    Some(b.to_string()),
                    None,
                ));
            }
        }
    }
    out
}
