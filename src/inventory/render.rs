//! The inventory's three formats: `full` (a terminal table with the evidence under each row),
//! `markdown` (a table for a pull request or a job summary) and `json` (tools-v1, documented in
//! docs/tools-v1.schema.json). Repository text is escaped as lint output is: control, bidi and
//! line-separator characters never reach the terminal raw.

use super::{Inventory, Row};
use crate::escape::{escape_block, escape_json_text, escape_text};
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
    if !inventory.rows.is_empty() {
        out.push_str(&totals(inventory));
        out.push('\n');
    }
    not_commands(out)
}

/// The last line of a listing: the tools by effect, then what else the agent or its client does
/// without asking (pre-approvals, hooks, MCP servers), and how many files were not read:
/// `117 tools (90 read, 20 write, 7 destructive), 2 pre-approvals, 1 hook, 1 MCP server.`
pub fn totals(inventory: &Inventory) -> String {
    use super::surface::{ALLOWED_TOOLS, HOOK, MCP_SERVER};
    use crate::english::plural;
    use crate::semantic::effect::Effect;
    let count = |dialect: &str| {
        inventory
            .rows
            .iter()
            .filter(|r| r.dialect == dialect)
            .count()
    };
    let tools: Vec<&Row> = inventory
        .rows
        .iter()
        .filter(|r| ![ALLOWED_TOOLS, HOOK, MCP_SERVER].contains(&r.dialect))
        .collect();
    let by_effect = |effect: Effect| tools.iter().filter(|r| r.effect == effect).count();
    let mut parts = vec![if tools.is_empty() {
        "no tools".to_string()
    } else {
        format!(
            "{} ({} read, {} write, {} destructive)",
            plural(tools.len(), "tool"),
            by_effect(Effect::Read),
            by_effect(Effect::Write),
            by_effect(Effect::Destructive)
        )
    }];
    for (dialect, noun) in [
        (ALLOWED_TOOLS, "pre-approval"),
        (HOOK, "hook"),
        (MCP_SERVER, "MCP server"),
    ] {
        let n = count(dialect);
        if n > 0 {
            parts.push(plural(n, noun));
        }
    }
    if !inventory.unread.is_empty() {
        parts.push(format!(
            "{} not read",
            plural(inventory.unread.len(), "file")
        ));
    }
    format!("{}.", parts.join(", "))
}

/// A report for a terminal or a CI log with no line a CI runner would obey: a line that starts,
/// after its indentation, with `::` or `##[` (a repository's tool named `::error::…` at the
/// start of a row, a description at the start of a code block) has that first character
/// escaped. Every other character is already safe (`escape_text`), so nothing else changes.
pub(crate) fn not_commands(out: String) -> String {
    match escape_block(&out) {
        std::borrow::Cow::Borrowed(_) => out,
        std::borrow::Cow::Owned(escaped) => escaped,
    }
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

/// The characters that make Markdown (GitHub's included: `~` strikes through, `$` opens math)
/// out of text wherever they stand, each written with a backslash in a Markdown report.
const MARKDOWN_ACTIVE: &str = "\\`*_[]|~$";

/// Text for the Markdown of a report (a table cell, a list item): control characters escaped
/// as everywhere, then everything Markdown or HTML would act on made inert, so that no name,
/// description or message of the repository adds a link, an image, emphasis or markup: the
/// characters of [`MARKDOWN_ACTIVE`] backslash-escaped, `<`, `>` and `&` written as character
/// references (no tag, no entity of the repository's). GitHub also makes a bare URL, address or
/// `@mention` live: the `:` before a scheme's `//`, every `@` and the `.` after `www` are escaped
/// too, which splits the text its autolinker reads. The lint's job summary
/// (scripts/action-summary.py) makes the same text inert with character references; a backslash
/// keeps a report readable as text, and reads back as the character alike.
pub(crate) fn cell(text: &str) -> String {
    let text = escape_text(text);
    let mut out = String::with_capacity(text.len() + 16);
    let mut previous: [char; 3] = [' '; 3];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let www = c == '.' && previous.iter().all(|p| p.eq_ignore_ascii_case(&'w'));
        let scheme = c == ':' && chars.peek() == Some(&'/');
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            _ if MARKDOWN_ACTIVE.contains(c) || scheme || www || c == '@' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
        previous = [previous[1], previous[2], c];
    }
    out
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
    if !inventory.rows.is_empty() {
        out.push_str(&format!("\n{}\n", totals(inventory)));
    }
    not_commands(out)
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
    let mut value = json!({
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
    });
    if let (Some(runs), Some(object)) = (&row.runs, value.as_object_mut()) {
        object.insert("runs".to_string(), Value::String(runs.clone()));
    }
    value
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
