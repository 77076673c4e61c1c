//! The capability diff's three formats: `diff_full` (the terminal), `diff_markdown` (a pull
//! request comment or a job summary) and `diff_json` (diff-v1, documented in
//! docs/diff-v1.schema.json). Repository text is made safe as the inventory's formats make it
//! (their cell escaping and CI-command guard are shared from [`crate::inventory::render`]).

use super::side::Finding;
use super::word_diff;
use super::{CapabilityDiff, Change, ChangeKind, RevisionSide, SideName};
use crate::escape::{escape_block, escape_json_text, escape_markup, escape_text};
use crate::inventory::render::{cell, not_commands};
use crate::inventory::Unread;
use serde_json::{json, Value};

/// The version of the JSON form (diff-v1); a change that removes or renames a field makes a
/// version 2. Versioned apart from the inventory's tools-v1, which happens to be 1 as well.
pub const JSON_VERSION: u32 = 1;

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
    change.words.as_deref().map(word_diff::compact)
}

fn unread_notes(diff: &CapabilityDiff) -> Vec<String> {
    let side = |name: &str, list: &[Unread]| {
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

/// A description's text under `first` (`        - `), its later lines indented to match: line
/// breaks stay lines, as the markdown output shows them; every other unsafe character, and a line
/// a CI log would read as a command, is escaped ([`escape_block`]).
fn push_text_lines(out: &mut String, first: &str, text: &str) {
    let indent = " ".repeat(first.len());
    for (index, line) in escape_block(text).split('\n').enumerate() {
        out.push_str(if index == 0 { first } else { &indent });
        out.push_str(line);
        out.push('\n');
    }
}

/// One change as the terminal shows it, with a description's old text, new text and word diff
/// and its new findings below.
pub(super) fn push_full_change(out: &mut String, c: &Change) {
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
        push_text_lines(out, "        - ", &before);
        push_text_lines(out, "        + ", &after);
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

/// Text of several lines in a table cell: each line a cell's text, `<br>` between them (a line
/// feed would end the table's row, and written `\u{a}` it reads as noise).
fn cell_lines(text: &str) -> String {
    text.split('\n').map(cell).collect::<Vec<_>>().join("<br>")
}

fn diff_table(out: &mut String, changes: &[&Change]) {
    out.push_str("| Tool | Change | What | File |\n| --- | --- | --- | --- |\n");
    for c in changes {
        let mut what = cell(&c.message);
        if let Some((before, after)) = description_lines(c) {
            what.push_str(&format!(
                "<br>before: {}<br>after: {}",
                cell_lines(&before),
                cell_lines(&after)
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
    // Line feeds stay lines of the block; every other unsafe character is escaped.
    format!("{fence}{info}\n{}\n{fence}\n", escape_block(text))
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
            escape_markup(&c.tool),
            escape_markup(&format!("{}:{}", c.path, c.line))
        ));
        let marked = |mark: &str, text: &str| {
            text.split('\n')
                .map(|line| format!("{mark} {line}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        out.push_str(&fenced(
            "diff",
            &format!("{}\n{}", marked("-", &before), marked("+", &after)),
        ));
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
    let unread = |list: &[Unread]| {
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
        let side = |s: &RevisionSide| json!({"name": s.name, "commit": s.commit});
        object.insert(
            "revisions".to_string(),
            json!({"base": side(&revisions.base), "head": side(&revisions.head)}),
        );
    }
    let mut text = escape_json_text(serde_json::to_string_pretty(&value).unwrap_or_default());
    text.push('\n');
    text
}
