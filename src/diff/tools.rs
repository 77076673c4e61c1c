//! The tools of two inventories compared: matched by file and name (a rename by file and input
//! schema), then each pair version by version ([`compare`]), in named steps for each thing a
//! tool carries; a tools file the new side cannot read, or that its `exclude` passes over, is a
//! widening change of its own.

use super::schema::{exec_free_strings, schema_widenings};
use super::side::Side;
use super::{change, change_at, cut, missing, sort, word_diff, wording};
use super::{CapabilityDiff, Change, ChangeKind, SideName};
use crate::inventory::surface::{ALLOWED_TOOLS, HOOK, MCP_SERVER};
use crate::inventory::{At, ContractFacts, Inventory, Row, Unread};
use crate::semantic::effect::Capability;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

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
        changes.push(change(
            ChangeKind::Added,
            acts(row),
            row,
            added_message(row),
        ));
    }
    for row in removed {
        let mut removed = change(ChangeKind::Removed, false, row, removed_message(row));
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
    // The same when the digest (of the text, or of what a source file left unread) is: the
    // message of a source file names lines, which move with any edit above them.
    fn same(u: &Unread) -> (&str, Result<u64, &str>) {
        (u.path.as_str(), u.digest.ok_or(u.message.as_str()))
    }
    let before: HashSet<_> = old.unread.iter().map(same).collect();
    new.unread
        .iter()
        .filter(|u| !before.contains(&same(u)))
        .map(|u| {
            // A source file read in part names what it left unread.
            let in_part = u.message.contains(" not read at line ")
                || u.message.contains(" not read, the name being computed");
            let message = if in_part {
                format!(
                    "the new side reads this file in part ({}): what it leaves unread is not compared",
                    u.message
                )
            } else {
                format!(
                    "the new side cannot read this file ({}): what it declares is not compared",
                    u.message
                )
            };
            change_at(
                ChangeKind::NotRead,
                "file",
                &u.path,
                At { line: 1, column: 1 },
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
pub(super) fn newly_excluded(old: &Side, new: &Side) -> Vec<Change> {
    let before: HashSet<&str> = old.excluded.iter().map(String::as_str).collect();
    new.excluded
        .iter()
        .filter(|path| !before.contains(path.as_str()))
        .map(|path| {
            change_at(
                ChangeKind::NotRead,
                "file",
                path,
                At { line: 1, column: 1 },
                SideName::New,
                "the new side's `exclude` passes over this file, which the old side's did not: it is not linted, and what it declares is not compared".to_string(),
                None,
                Some("excluded".to_string()),
            )
        })
        .collect()
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

/// The changes between two versions of one tool, in this order: its effect, its capabilities,
/// its gates, its input schema, its pre-approvals, its description, its TOOL.md, its free-form
/// strings, its Tool Use Rules items.
pub(super) fn compare(old: &Row, new: &Row, out: &mut Vec<Change>) {
    let first = out.len();
    effect_change(old, new, out);
    capability_changes(old, new, out);
    gate_changes(old, new, out);
    // A dropped gate that also lowers the effect the model reads (`destructiveHint: true`
    // removed makes a destructive tool read as a write) is the gate dropped, not a narrowing too.
    if out[first..]
        .iter()
        .any(|c| c.kind == ChangeKind::GateDropped)
    {
        let mut mine = out.split_off(first);
        mine.retain(|c| c.kind != ChangeKind::EffectNarrowed);
        out.append(&mut mine);
    }
    runs_change(old, new, out);
    schema_changes(old, new, out);
    pre_approval_changes(old, new, out);
    description_change(old, new, out);
    contract_changes(old, new, out);
    exec_free_strings(old, new, out);
    rule_items_removed(old, new, out);
}

/// A change of the tool `new` with what it was and what it is, into `out`.
fn pusher<'a>(
    new: &'a Row,
    out: &'a mut Vec<Change>,
) -> impl FnMut(ChangeKind, bool, String, Option<String>, Option<String>) + 'a {
    move |kind, widens, message: String, before: Option<String>, after: Option<String>| {
        let mut c = change(kind, widens, new, message);
        c.before = before;
        c.after = after;
        out.push(c);
    }
}

/// The effect widened or narrowed.
fn effect_change(old: &Row, new: &Row, out: &mut Vec<Change>) {
    let mut push = pusher(new, out);
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
}

/// Capabilities added and gone.
fn capability_changes(old: &Row, new: &Row, out: &mut Vec<Change>) {
    let mut push = pusher(new, out);
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
}

/// Gates dropped and added: the flags that ask first (or say safe to retry), a read-only hint
/// on a tool that writes, the confirmation, dry-run and idempotency parameters.
fn gate_changes(old: &Row, new: &Row, out: &mut Vec<Change>) {
    let mut push = pusher(new, out);
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
}

/// [`schema_widenings`], each a change of the tool.
fn schema_changes(old: &Row, new: &Row, out: &mut Vec<Change>) {
    let mut push = pusher(new, out);
    for (message, before, after) in schema_widenings(old, new) {
        push(ChangeKind::SchemaWidened, true, message, before, after);
    }
}

/// `allowed-tools` grants that pre-approve the tool, new and gone.
fn pre_approval_changes(old: &Row, new: &Row, out: &mut Vec<Change>) {
    let (og, ng) = (&old.gates, &new.gates);
    let mut push = pusher(new, out);
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
}

/// The description changed: listed with its word diff, and widening when it drops a stated limit
/// ([`wording::dropped`]: "read-only", "never", "at most 100" fewer times than before) or adds
/// text directed at the model ([`wording::directions_added`]: "you", "always", "also send"
/// more times than before; and, once the findings are known, [`super::findings::in_descriptions`],
/// a new finding of a model-directed-text rule inside it). A rewording, spacing included, is
/// listed and does not widen: real MCP servers reword their descriptions in most releases.
fn description_change(old: &Row, new: &Row, out: &mut Vec<Change>) {
    if old.description == new.description {
        return;
    }
    let words = match (&old.description, &new.description) {
        (Some(before), Some(after)) => word_diff::diff(before, after),
        _ => None,
    };
    let spacing = words.as_deref().is_some_and(word_diff::spacing_only);
    let (before, after) = (
        old.description.as_deref().unwrap_or_default(),
        new.description.as_deref().unwrap_or_default(),
    );
    let quoted = |list: Vec<String>| {
        list.iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (dropped, directed) = (
        wording::dropped(before, after),
        wording::directions_added(before, after),
    );
    let widens = !spacing && (!dropped.is_empty() || !directed.is_empty());
    let rewritten = words.is_none() && old.description.is_some() && new.description.is_some();
    let mut why = Vec::new();
    if !dropped.is_empty() {
        why.push(format!("drops a stated limit ({})", quoted(dropped)));
    }
    if !directed.is_empty() {
        why.push(format!(
            "adds text directed at the model ({})",
            quoted(directed)
        ));
    }
    let message = if spacing {
        "description changed in its spacing only".to_string()
    } else if widens {
        format!(
            "description {}: the text the model reads is not the one reviewed",
            why.join(" and ")
        )
    } else if rewritten {
        "description rewritten (too much changed to show a word diff); no stated limit dropped, no direction to the model added".to_string()
    } else {
        "description reworded; no stated limit dropped, no direction to the model added".to_string()
    };
    let mut c = change(ChangeKind::DescriptionChanged, widens, new, message);
    c.before = old.description.clone();
    c.after = new.description.clone();
    c.words = words;
    out.push(c);
}

/// What a hook or an MCP server runs (or connects to) changed: the client now runs something
/// that was not reviewed.
fn runs_change(old: &Row, new: &Row, out: &mut Vec<Change>) {
    if old.runs != new.runs {
        let what = match new.dialect {
            MCP_SERVER => "the client now starts or connects to",
            _ => "now runs",
        };
        let mut push = pusher(new, out);
        push(
            ChangeKind::CommandChanged,
            true,
            format!(
                "{what} `{}` (was `{}`)",
                new.runs.as_deref().unwrap_or("nothing"),
                old.runs.as_deref().unwrap_or("nothing")
            ),
            old.runs.clone(),
            new.runs.clone(),
        );
    }
}

/// What a new row is, for people: a tool by its effect and capabilities, a hook by what it runs
/// and when, an MCP server by what the client starts, a pre-approval by what it lets run.
fn added_message(row: &Row) -> String {
    let runs = row.runs.as_deref().unwrap_or_default();
    match row.dialect {
        HOOK => format!(
            "new hook: the client runs `{runs}` on `{}` without asking",
            row.name.split(':').next().unwrap_or_default()
        ),
        MCP_SERVER if row.capabilities.contains(&Capability::Sends) => {
            format!("new MCP server: the client connects to `{runs}`")
        }
        MCP_SERVER => format!("new MCP server: the client starts `{runs}`"),
        ALLOWED_TOOLS => format!(
            "`allowed-tools` now pre-approves `{}`: the agent runs it without asking",
            row.name
        ),
        _ if row.capabilities.is_empty() => format!("new {} tool", row.effect.as_str()),
        _ => format!(
            "new {} tool ({})",
            row.effect.as_str(),
            row.capability_list()
        ),
    }
}

/// What a removed row was, for people.
fn removed_message(row: &Row) -> String {
    match row.dialect {
        HOOK => "hook removed".to_string(),
        MCP_SERVER => "MCP server removed".to_string(),
        ALLOWED_TOOLS => format!("`allowed-tools` no longer pre-approves `{}`", row.name),
        _ => format!("{} tool removed", row.effect.as_str()),
    }
}

/// Tool Use Rules items naming the tool that are gone, each at its place on the old side.
fn rule_items_removed(old: &Row, new: &Row, out: &mut Vec<Change>) {
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
    let written = |c: Option<&ContractFacts>| {
        c.and_then(|c| c.approval.as_ref())
            .map_or_else(|| "absent".to_string(), |(a, _)| a.clone())
    };
    let new_rank = nc.map_or(0, ContractFacts::approval_rank);
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
