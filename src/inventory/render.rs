//! The inventory's three formats: `full` (a terminal table with the evidence under each row),
//! `markdown` (a table for a pull request or a job summary) and `json` (tools-v1, documented in
//! docs/tools-v1.schema.json). Repository text is escaped as lint output is: control, bidi and
//! line-separator characters never reach the terminal raw.

use super::diff::{CapabilityDiff, Change, ChangeKind, SideName};
use super::side::Finding;
use super::words;
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
    not_commands(out)
}

/// A report for a terminal or a CI log with no line a CI runner would obey: a line that starts,
/// after its indentation, with `::` or `##[` (a repository's tool named `::error::…` at the
/// start of a row, a description at the start of a code block) has that first character
/// escaped. Every other character is already safe (`escape_text`), so nothing else changes.
fn not_commands(out: String) -> String {
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
fn cell(text: &str) -> String {
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

/// Text inside the HTML of a report (a `<details>` summary), where Markdown is not read and a
/// backslash would show: control characters escaped, then `&`, `<`, `>` and quotes written as
/// character references.
fn html_text(text: &str) -> String {
    let text = escape_text(text);
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
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

/// How many new (and how many fixed) findings the human formats list; JSON lists them all.
const SHOWN_FINDINGS: usize = 50;

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

/// The word diff of a description change (`[-removed-]{+added+}`), when there is one.
fn word_line(change: &Change) -> Option<String> {
    change.words.as_deref().map(words::compact)
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

/// `CODE path:line:column message`, for the human formats.
fn finding_line(f: &Finding) -> String {
    format!(
        "{} {}:{}:{} {}",
        f.code, f.path, f.at.line, f.at.column, f.message
    )
}

/// One change as the terminal shows it, with a description's old text, new text and word diff
/// and its new findings below.
fn push_full_change(out: &mut String, c: &Change) {
    let mark = if c.widens { "widens" } else { "      " };
    let side = match c.side {
        SideName::Old => " (old side)",
        SideName::New => "",
    };
    out.push_str(&format!(
        "{mark}  {}:{}:{}{side}  {}  {}: {}\n",
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
    if let Some(line) = word_line(c) {
        out.push_str(&format!("        words: {}\n", escape_text(&cut(&line))));
    }
    for f in &c.findings {
        out.push_str(&format!(
            "        new finding in it: {}\n",
            escape_text(&finding_line(f))
        ));
    }
}

/// A heading and up to [`SHOWN_FINDINGS`] findings, one a line, for the terminal.
fn push_full_findings(out: &mut String, title: &str, findings: &[Finding]) {
    if findings.is_empty() {
        return;
    }
    out.push_str(&format!("{title} ({}):\n", findings.len()));
    for f in findings.iter().take(SHOWN_FINDINGS) {
        out.push_str(&format!("  {}\n", escape_text(&finding_line(f))));
    }
    if findings.len() > SHOWN_FINDINGS {
        out.push_str(&format!(
            "  … and {} more (--format json lists them all)\n",
            findings.len() - SHOWN_FINDINGS
        ));
    }
}

/// The terminal form: the configuration that silences the linter first, then one line per
/// change (widening ones first, marked `widens`), a description change with its old and new
/// text and word diff below, the new and fixed findings, then a count.
pub fn diff_full(diff: &CapabilityDiff) -> String {
    let mut out = String::new();
    if let Some(line) = revisions_line(diff) {
        out.push_str(&format!("{}\n", escape_text(&line)));
    }
    if !diff.silencing.is_empty() {
        out.push_str("Configuration that silences the linter:\n");
        for c in &diff.silencing {
            push_full_change(&mut out, c);
        }
        out.push('\n');
    }
    for c in &diff.changes {
        push_full_change(&mut out, c);
    }
    let findings = &diff.findings;
    let any_finding = !(findings.new.is_empty()
        && findings.fixed.is_empty()
        && findings.silenced.is_empty()
        && findings.suppressed.is_empty());
    if !diff.changes.is_empty() && any_finding {
        out.push('\n');
    }
    push_full_findings(&mut out, "New findings", &diff.findings.new);
    push_full_findings(&mut out, "Fixed findings", &diff.findings.fixed);
    push_full_findings(
        &mut out,
        "Gone because the new side silences them",
        &diff.findings.silenced,
    );
    push_full_findings(
        &mut out,
        "New and silenced from the start by the new side",
        &diff.findings.suppressed,
    );
    for note in unread_notes(diff) {
        out.push_str(&format!("{}\n", escape_text(&note)));
    }
    out.push_str(&summary(diff));
    out.push('\n');
    not_commands(out)
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

/// "3 change(s), 1 widening what the agent can do." or "No capability changes.", with the
/// silencing configuration and the findings counted, saying when files were not read (their
/// tools are not compared).
fn summary(diff: &CapabilityDiff) -> String {
    let widening = diff.changes.iter().filter(|c| c.widens).count();
    let mut parts = Vec::new();
    if !diff.silencing.is_empty() {
        parts.push(format!(
            "{} configuration change(s) silencing the linter",
            diff.silencing.len()
        ));
    }
    if !diff.changes.is_empty() {
        parts.push(format!(
            "{} change(s), {widening} widening what the agent can do",
            diff.changes.len()
        ));
    }
    let (new, fixed) = (diff.findings.new.len(), diff.findings.fixed.len());
    let silenced = diff.findings.silenced.len();
    let suppressed = diff.findings.suppressed.len();
    if new + fixed + silenced + suppressed > 0 {
        let mut text = format!("{new} new finding(s), {fixed} fixed");
        if silenced > 0 {
            text.push_str(&format!(", {silenced} silenced"));
        }
        if suppressed > 0 {
            text.push_str(&format!(", {suppressed} new and silenced"));
        }
        parts.push(text);
    }
    let mut line = if parts.is_empty() {
        "No capability changes".to_string()
    } else {
        parts.join("; ")
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
        for f in &c.findings {
            what.push_str(&format!(
                "<br>new finding in it: {}",
                cell(&finding_line(f))
            ));
        }
        let side = match c.side {
            SideName::Old => " (old side)",
            SideName::New => "",
        };
        out.push_str(&format!(
            "| {} | {} | {} | {}{side} |\n",
            cell(&c.tool),
            c.kind.as_str(),
            what,
            cell(&format!("{}:{}", c.path, c.line))
        ));
    }
}

/// `text` in a fenced code block whose fence is longer than any run of backticks in it, so the
/// repository's text cannot close it.
fn fenced(info: &str, text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{info}\n{}\n{fence}\n", escape_text(text))
}

/// The description changes, each in a collapsed section: the old and the new text as a diff
/// block, and the word diff (`[-removed-]{+added+}`) in a text block.
fn push_word_diffs(out: &mut String, changes: &[Change]) {
    for c in changes
        .iter()
        .filter(|c| c.kind == ChangeKind::DescriptionChanged)
    {
        let Some((before, after)) = description_lines(c) else {
            continue;
        };
        out.push_str(&format!(
            "\n<details><summary>Description of {} ({}) changed</summary>\n\n",
            html_text(&c.tool),
            html_text(&format!("{}:{}", c.path, c.line))
        ));
        out.push_str(&fenced("diff", &format!("- {before}\n+ {after}")));
        match word_line(c) {
            Some(line) => out.push_str(&fenced("text", &cut(&line))),
            None => out.push_str(
                "\nToo much changed to show a word diff: the description was rewritten.\n",
            ),
        }
        out.push_str("\n</details>\n");
    }
}

/// A collapsed list of findings.
fn push_markdown_findings(out: &mut String, title: &str, findings: &[Finding]) {
    if findings.is_empty() {
        return;
    }
    out.push_str(&format!(
        "\n<details><summary>{} {title}</summary>\n\n",
        findings.len()
    ));
    for f in findings.iter().take(SHOWN_FINDINGS) {
        out.push_str(&format!(
            "- {} {}: {}\n",
            cell(&f.code),
            cell(&format!("{}:{}", f.path, f.at.line)),
            cell(&f.message)
        ));
    }
    if findings.len() > SHOWN_FINDINGS {
        out.push_str(&format!(
            "- … and {} more (`--format json` lists them all)\n",
            findings.len() - SHOWN_FINDINGS
        ));
    }
    out.push_str("\n</details>\n");
}

/// For a pull request comment or a job summary, most severe first: the configuration that
/// silences the linter (never folded), the widening changes in a table with each description's
/// word diff below, the other changes folded, then the new and the fixed findings folded.
pub fn diff_markdown(diff: &CapabilityDiff) -> String {
    let mut out = String::from("## Capability changes\n\n");
    if let Some(line) = revisions_line(diff) {
        out.push_str(&format!("{}\n\n", cell(&line)));
    }
    let (widening, other): (Vec<&Change>, Vec<&Change>) =
        diff.changes.iter().partition(|c| c.widens);
    if diff.is_empty() {
        out.push_str(&summary(diff));
        out.push('\n');
    }
    if !diff.silencing.is_empty() {
        out.push_str(&format!(
            "### ⚠️ {} configuration change(s) silence the linter\n\n",
            diff.silencing.len()
        ));
        diff_table(&mut out, &diff.silencing.iter().collect::<Vec<_>>());
        out.push('\n');
    }
    if !widening.is_empty() {
        out.push_str(&format!(
            "### {} change(s) widen what the agent can do\n\n",
            widening.len()
        ));
        diff_table(&mut out, &widening);
    }
    push_word_diffs(&mut out, &diff.changes);
    if !other.is_empty() {
        out.push_str(&format!(
            "\n<details><summary>{} other change(s)</summary>\n\n",
            other.len()
        ));
        diff_table(&mut out, &other);
        out.push_str("\n</details>\n");
    }
    push_markdown_findings(&mut out, "new finding(s)", &diff.findings.new);
    push_markdown_findings(&mut out, "fixed finding(s)", &diff.findings.fixed);
    push_markdown_findings(
        &mut out,
        "finding(s) gone because the new side silences them",
        &diff.findings.silenced,
    );
    push_markdown_findings(
        &mut out,
        "new finding(s) silenced from the start by the new side",
        &diff.findings.suppressed,
    );
    let notes = unread_notes(diff);
    if !notes.is_empty() {
        out.push('\n');
        for note in notes {
            out.push_str(&format!("- {}\n", cell(&note)));
        }
    }
    not_commands(out)
}

fn finding_json(f: &Finding) -> Value {
    json!({
        "code": f.code,
        "severity": f.severity.as_str(),
        "path": f.path,
        "line": f.at.line,
        "column": f.at.column,
        "message": f.message,
        "fingerprint": f.fingerprint,
    })
}

fn change_json(c: &Change) -> Value {
    let mut value = json!({
        "kind": c.kind.as_str(),
        "widens": c.widens,
        "tool": c.tool,
        "oldName": c.old_name,
        "path": c.path,
        "line": c.line,
        "column": c.column,
        "side": c.side.as_str(),
        "message": c.message,
        "before": c.before,
        "after": c.after,
    });
    if c.kind == ChangeKind::DescriptionChanged {
        if let Value::Object(map) = &mut value {
            let words = c.words.as_ref().map(|pieces| {
                pieces
                    .iter()
                    .map(|p| json!({"op": p.op.as_str(), "text": p.text}))
                    .collect::<Vec<_>>()
            });
            map.insert("words".to_string(), json!(words));
            map.insert(
                "findings".to_string(),
                Value::Array(c.findings.iter().map(finding_json).collect()),
            );
        }
    }
    value
}

/// `{"version": 1, "widens": bool, "silencing": [...], "changes": [...], "findings": {"new":
/// [...], "fixed": [...]}, "unread": {"old": [...], "new": [...]}}` (docs/diff-v1.schema.json).
pub fn diff_json(diff: &CapabilityDiff) -> String {
    let unread = |list: &[super::Unread]| {
        list.iter()
            .map(|u| json!({"path": u.path, "message": u.message}))
            .collect::<Vec<_>>()
    };
    let mut findings = json!({
        "new": diff.findings.new.iter().map(finding_json).collect::<Vec<_>>(),
        "fixed": diff.findings.fixed.iter().map(finding_json).collect::<Vec<_>>(),
        "silenced": diff.findings.silenced.iter().map(finding_json).collect::<Vec<_>>(),
    });
    // Only when there are any: a report with none is the one version 1 always wrote.
    if let (false, Some(object)) = (
        diff.findings.suppressed.is_empty(),
        findings.as_object_mut(),
    ) {
        object.insert(
            "suppressed".to_string(),
            Value::Array(diff.findings.suppressed.iter().map(finding_json).collect()),
        );
    }
    let mut value = json!({
        "version": JSON_VERSION,
        "widens": diff.widens(),
        "silencing": diff.silencing.iter().map(change_json).collect::<Vec<_>>(),
        "changes": diff.changes.iter().map(change_json).collect::<Vec<_>>(),
        "findings": findings,
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
