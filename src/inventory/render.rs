//! The inventory's three formats: `full` (a terminal table with the evidence under each row),
//! `markdown` (a table for a pull request or a job summary) and `json` (tools-v1, documented in
//! docs/tools-v1.schema.json). Repository text is escaped as lint output is: control, bidi and
//! line-separator characters never reach the terminal raw.

use super::diff::{CapabilityDiff, Change, ChangeKind};
use super::{Inventory, Row};
use crate::escape::{escape_json_text, escape_text};
use serde_json::{json, Map, Value};

/// The version of the JSON form; a change that removes or renames a field makes a version 2.
pub const JSON_VERSION: u32 = 1;

/// `path:line:column`.
fn place(row: &Row) -> String {
    format!(
        "{}:{}:{}",
        escape_text(&row.path),
        row.at.line,
        row.at.column
    )
}

fn gates_text(row: &Row) -> String {
    let lines = row.gates.lines();
    if lines.is_empty() {
        "none".to_string()
    } else {
        escape_text(&lines.join("; ")).into_owned()
    }
}

/// The terminal table: one line per tool (place, name, dialect, effect, capabilities), its
/// gates and evidence indented below, then the files that could not be read.
pub fn full(inventory: &Inventory) -> String {
    let header = ["TOOL", "DIALECT", "EFFECT", "CAPABILITIES", "FILE"];
    let cells: Vec<[String; 5]> = inventory
        .rows
        .iter()
        .map(|row| {
            [
                escape_text(&row.name).into_owned(),
                row.dialect.to_string(),
                row.effect.as_str().to_string(),
                row.capability_list(),
                place(row),
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for line in &cells {
        for (w, cell) in widths.iter_mut().zip(line) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let pad = |cells: &[String]| {
        let mut line = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if i + 1 == cells.len() {
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', w - cell.chars().count() + 2));
            }
        }
        line.push('\n');
        line
    };
    let mut out = String::new();
    if inventory.rows.is_empty() {
        out.push_str("No tools found.\n");
    } else {
        out.push_str(&pad(&header.map(str::to_string)));
    }
    for (row, line) in inventory.rows.iter().zip(&cells) {
        out.push_str(&pad(line));
        out.push_str(&format!("    gates: {}\n", gates_text(row)));
        for evidence in row.evidence_lines() {
            out.push_str(&format!("    evidence: {}\n", escape_text(&evidence)));
        }
    }
    push_unread(&mut out, inventory, "not read: ", |t| {
        escape_text(t).into_owned()
    });
    out
}

/// One line per file not read: `<prefix><path>: <message>`, each text made safe by `safe`.
fn push_unread(out: &mut String, inventory: &Inventory, prefix: &str, safe: fn(&str) -> String) {
    for unread in &inventory.unread {
        let line = format!(
            "{prefix}{}: {}\n",
            safe(&unread.path),
            safe(&unread.message)
        );
        out.push_str(&line);
    }
}

/// Text for a markdown table cell: escaped, with `|`, `<`, `>` and backticks made inert.
fn cell(text: &str) -> String {
    escape_text(text)
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('`', "\\`")
}

/// A markdown table, one row per tool; gates and evidence as `<br>`-separated lists.
pub fn markdown(inventory: &Inventory) -> String {
    let mut out = String::from("## Tools\n\n");
    if inventory.rows.is_empty() {
        out.push_str("No tools found.\n");
    } else {
        out.push_str("| Tool | Dialect | Effect | Capabilities | Gates | Evidence | File |\n");
        out.push_str("| --- | --- | --- | --- | --- | --- | --- |\n");
    }
    for row in &inventory.rows {
        let gates = row.gates.lines();
        let gates = if gates.is_empty() {
            "none".to_string()
        } else {
            gates
                .iter()
                .map(|g| cell(g))
                .collect::<Vec<_>>()
                .join("<br>")
        };
        let evidence = row
            .evidence_lines()
            .iter()
            .map(|e| cell(e))
            .collect::<Vec<_>>()
            .join("<br>");
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            cell(&row.name),
            row.dialect,
            row.effect.as_str(),
            row.capability_list(),
            gates,
            evidence,
            cell(&format!("{}:{}", row.path, row.at.line)),
        ));
    }
    if !inventory.unread.is_empty() {
        out.push_str("\nNot read:\n\n");
        push_unread(&mut out, inventory, "- ", cell);
    }
    out
}

/// One row as JSON (tools-v1 `tool`).
pub fn row_json(row: &Row) -> Value {
    let evidence: Vec<Value> = row
        .evidence
        .iter()
        .map(|e| {
            json!({
                "claim": e.claim,
                "basis": e.basis,
                "source": e.source,
                "text": e.text,
                "line": e.at.line,
                "column": e.at.column,
            })
        })
        .collect();
    let annotations: Map<String, Value> = row
        .gates
        .annotations
        .iter()
        .map(|(k, v)| (k.clone(), Value::Bool(*v)))
        .collect();
    let parameters: Vec<Value> = row
        .gates
        .parameters
        .iter()
        .map(|p| json!({"kind": p.kind, "name": p.name, "required": p.required}))
        .collect();
    json!({
        "name": row.name,
        "path": row.path,
        "folder": row.folder,
        "line": row.at.line,
        "column": row.at.column,
        "dialect": row.dialect,
        "effect": row.effect.as_str(),
        "capabilities": row.capabilities.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
        "evidence": evidence,
        "gates": {
            "requiresConfirmation": row.gates.requires_confirmation,
            "idempotent": row.gates.idempotent,
            "annotations": annotations,
            "parameters": parameters,
            "approval": row.gates.approval,
            "preApproved": row.gates.pre_approved,
            "confirms": row.gates.confirms(),
        },
        "description": row.description,
    })
}

/// `{"version": 1, "tools": [...], "unread": [...]}`.
pub fn json(inventory: &Inventory) -> String {
    let unread: Vec<Value> = inventory
        .unread
        .iter()
        .map(|u| json!({"path": u.path, "message": u.message}))
        .collect();
    let value = json!({
        "version": JSON_VERSION,
        "tools": inventory.rows.iter().map(row_json).collect::<Vec<_>>(),
        "unread": unread,
    });
    let mut text = escape_json_text(serde_json::to_string_pretty(&value).unwrap_or_default());
    text.push('\n');
    text
}

/// One tool as markdown, for the language server's hover: the row's effect and capabilities, its
/// gates and the evidence, as `skilllint tools` prints them.
pub fn hover(row: &Row) -> String {
    let mut out = format!(
        "**{}** ({}): effect **{}**, capabilities: {}\n\n",
        cell(&row.name),
        row.dialect,
        row.effect.as_str(),
        row.capability_list()
    );
    let gates = row.gates.lines();
    if gates.is_empty() {
        out.push_str("Gates: none\n");
    } else {
        out.push_str("Gates:\n");
        for gate in gates {
            out.push_str(&format!("- {}\n", cell(&gate)));
        }
    }
    let evidence = row.evidence_lines();
    if !evidence.is_empty() {
        out.push_str("\nEvidence:\n");
        for e in evidence {
            out.push_str(&format!("- {}\n", cell(&e)));
        }
    }
    out
}

/// How long a description is shown in the human formats of a diff before it is cut.
const SHOWN_DESCRIPTION: usize = 200;

fn cut(text: &str) -> String {
    match text.char_indices().nth(SHOWN_DESCRIPTION) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Old and new text of a description change, one line each, for the human formats.
fn description_lines(change: &Change) -> Option<(String, String)> {
    (change.kind == ChangeKind::DescriptionChanged).then(|| {
        let side = |t: &Option<String>| t.as_deref().map_or_else(|| "(none)".to_string(), cut);
        (side(&change.before), side(&change.after))
    })
}

fn unread_notes(diff: &CapabilityDiff) -> Vec<String> {
    let side = |name: &str, list: &[super::Unread]| {
        list.iter()
            .map(|u| format!("{name} side: not read: {}: {}", u.path, u.message))
            .collect::<Vec<_>>()
    };
    let mut notes = side("old", &diff.old_unread);
    notes.extend(side("new", &diff.new_unread));
    notes
}

/// The terminal form: one line per change (widening ones first, marked `widens`), a
/// description change with its old and new text below, then a count.
pub fn diff_full(diff: &CapabilityDiff) -> String {
    let mut out = String::new();
    if let Some(line) = revisions_line(diff) {
        out.push_str(&format!("{}\n", escape_text(&line)));
    }
    for c in &diff.changes {
        let mark = if c.widens { "widens" } else { "      " };
        out.push_str(&format!(
            "{mark}  {}:{}:{}  {}  {}: {}\n",
            escape_text(&c.path),
            c.line,
            c.column,
            escape_text(&c.tool),
            c.kind.as_str(),
            escape_text(&c.message)
        ));
        if let Some((before, after)) = description_lines(c) {
            out.push_str(&format!("        - {}\n", escape_text(&before)));
            out.push_str(&format!("        + {}\n", escape_text(&after)));
        }
    }
    for note in unread_notes(diff) {
        out.push_str(&format!("{}\n", escape_text(&note)));
    }
    out.push_str(&summary(diff));
    out.push('\n');
    out
}

/// "From `main` (1a2b3c4d5e6f) to the work tree", when the diff compares revisions.
fn revisions_line(diff: &CapabilityDiff) -> Option<String> {
    let revisions = diff.revisions.as_ref()?;
    Some(format!(
        "From {} to {}",
        revisions.base.describe(),
        revisions.head.describe()
    ))
}

/// "3 change(s), 1 widening what the agent can do." or "No capability changes.", saying when
/// files were not read (their tools are not compared).
fn summary(diff: &CapabilityDiff) -> String {
    let widening = diff.changes.iter().filter(|c| c.widens).count();
    let mut line = match (diff.changes.len(), widening) {
        (0, _) => "No capability changes".to_string(),
        (n, w) => format!("{n} change(s), {w} widening what the agent can do"),
    };
    let unread = diff.old_unread.len() + diff.new_unread.len();
    if unread > 0 {
        line.push_str(&format!(
            " among the tools read; {unread} tools file(s) not read, their tools not compared"
        ));
    }
    line.push('.');
    line
}

fn diff_table(out: &mut String, changes: &[&Change]) {
    out.push_str("| Tool | Change | What | File |\n| --- | --- | --- | --- |\n");
    for c in changes {
        let mut what = cell(&c.message);
        if let Some((before, after)) = description_lines(c) {
            what.push_str(&format!(
                "<br>before: {}<br>after: {}",
                cell(&before),
                cell(&after)
            ));
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            cell(&c.tool),
            c.kind.as_str(),
            what,
            cell(&format!("{}:{}", c.path, c.line))
        ));
    }
}

/// For a pull request comment or a job summary: the widening changes in a table, the others in
/// a collapsed section.
pub fn diff_markdown(diff: &CapabilityDiff) -> String {
    let mut out = String::from("## Capability changes\n\n");
    if let Some(line) = revisions_line(diff) {
        out.push_str(&format!("{}\n\n", cell(&line)));
    }
    let (widening, other): (Vec<&Change>, Vec<&Change>) =
        diff.changes.iter().partition(|c| c.widens);
    if diff.changes.is_empty() {
        out.push_str(&summary(diff));
        out.push('\n');
    }
    if !widening.is_empty() {
        out.push_str(&format!(
            "### {} change(s) widen what the agent can do\n\n",
            widening.len()
        ));
        diff_table(&mut out, &widening);
    }
    if !other.is_empty() {
        out.push_str(&format!(
            "\n<details><summary>{} other change(s)</summary>\n\n",
            other.len()
        ));
        diff_table(&mut out, &other);
        out.push_str("\n</details>\n");
    }
    let notes = unread_notes(diff);
    if !notes.is_empty() {
        out.push('\n');
        for note in notes {
            out.push_str(&format!("- {}\n", cell(&note)));
        }
    }
    out
}

/// `{"version": 1, "widens": bool, "changes": [...], "unread": {"old": [...], "new": [...]}}`
/// (docs/diff-v1.schema.json).
pub fn diff_json(diff: &CapabilityDiff) -> String {
    let changes: Vec<Value> = diff
        .changes
        .iter()
        .map(|c| {
            json!({
                "kind": c.kind.as_str(),
                "widens": c.widens,
                "tool": c.tool,
                "oldName": c.old_name,
                "path": c.path,
                "line": c.line,
                "column": c.column,
                "message": c.message,
                "before": c.before,
                "after": c.after,
            })
        })
        .collect();
    let unread = |list: &[super::Unread]| {
        list.iter()
            .map(|u| json!({"path": u.path, "message": u.message}))
            .collect::<Vec<_>>()
    };
    let mut value = json!({
        "version": JSON_VERSION,
        "widens": diff.widens(),
        "changes": changes,
        "unread": {"old": unread(&diff.old_unread), "new": unread(&diff.new_unread)},
    });
    if let (Some(revisions), Some(object)) = (&diff.revisions, value.as_object_mut()) {
        let side = |s: &super::RevisionSide| json!({"name": s.name, "commit": s.commit});
        object.insert(
            "revisions".to_string(),
            json!({"base": side(&revisions.base), "head": side(&revisions.head)}),
        );
    }
    let mut text = escape_json_text(serde_json::to_string_pretty(&value).unwrap_or_default());
    text.push('\n');
    text
}
