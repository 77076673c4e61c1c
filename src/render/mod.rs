//! Output formats. Each is a pure function of the sorted diagnostics, the files ([`Sources`]) and
//! the rule [`Catalog`], all given as parameters: render knows no engine, index or triage.

pub mod concise;
pub mod full;
pub mod github;
pub mod gitlab;
pub mod json;
pub mod junit;
pub mod paths;
pub mod sarif;
pub mod statistics;

use crate::catalog::{Catalog, RuleMeta};
use crate::diagnostic::{Diagnostic, Severity, Suppressed};
use crate::english::plural;
use crate::source::{FileId, LineCol, LineIndex, Sources, Span};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Full,
    Concise,
    Json,
    Github,
    Sarif,
    Gitlab,
    Junit,
}

/// Line/column lookups for the files that have diagnostics, built once per render.
pub struct Positions<'a> {
    sources: Sources<'a>,
    indexes: HashMap<FileId, LineIndex<'a>>,
}

impl<'a> Positions<'a> {
    pub fn new(sources: Sources<'a>, diagnostics: &[Diagnostic]) -> Self {
        Self::of(sources, diagnostics)
    }

    /// For the files of the given diagnostics.
    pub fn of<'d>(
        sources: Sources<'a>,
        diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
    ) -> Self {
        let mut indexes = HashMap::new();
        for d in diagnostics {
            for label in std::iter::once(&d.primary).chain(&d.secondary) {
                indexes
                    .entry(label.file)
                    .or_insert_with(|| LineIndex::new(sources.text(label.file)));
            }
        }
        Positions { sources, indexes }
    }

    pub fn start(&self, file: FileId, span: Span) -> LineCol {
        match self.indexes.get(&file) {
            Some(index) => index.line_col(span.start),
            None => LineIndex::new(self.sources.text(file)).line_col(span.start),
        }
    }

    pub fn end(&self, file: FileId, span: Span) -> LineCol {
        match self.indexes.get(&file) {
            Some(index) => index.line_col(span.end),
            None => LineIndex::new(self.sources.text(file)).line_col(span.end),
        }
    }
}

/// What identifies a finding across runs in the reports code review tools keep (SARIF's
/// partial fingerprint, GitLab's fingerprint): a hash of its rule, its file relative to the lint
/// root and the text it flags with whitespace folded, and its place among identical findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fingerprint {
    base: u64,
    occurrence: usize,
}

impl Fingerprint {
    /// SARIF's `skilllint/v1` partial fingerprint: `<hash>:<occurrence>`.
    pub(crate) fn sarif(self) -> String {
        format!("{:016x}:{}", self.base, self.occurrence)
    }

    /// GitLab's fingerprint: 32 hexadecimal digits, as the MD5 sums other tools write.
    pub(crate) fn gitlab(self) -> String {
        let second = crate::diagnostic::stable_hash(&[&self.sarif()]);
        format!("{:016x}{second:016x}", self.base)
    }
}

/// The fingerprints of findings taken in report order: identical findings (same rule, file and
/// flagged text) are told apart by their order.
#[derive(Default)]
pub(crate) struct Fingerprints {
    seen: HashMap<u64, usize>,
}

impl Fingerprints {
    pub(crate) fn next(&mut self, sources: Sources<'_>, d: &Diagnostic) -> Fingerprint {
        let path = sources.file(d.primary.file).rel_path.as_str();
        let flagged = crate::diagnostic::flagged_text(sources.text(d.primary.file), d.primary.span);
        let base = crate::diagnostic::stable_hash(&[d.code, path, &flagged]);
        let occurrence = self.seen.entry(base).or_insert(0);
        *occurrence += 1;
        Fingerprint {
            base,
            occurrence: *occurrence,
        }
    }
}

/// A batch of the elements of a pretty-printed JSON array, after `lead`: each of `items`
/// (serde_json's pretty text of one element) with every line indented by `indent`, `,\n`
/// between them. serde_json's pretty text holds a line feed only between its own lines: one in a
/// string is written `\n`.
pub(crate) fn json_elements(lead: &str, items: &[String], indent: &str) -> String {
    let size: usize = items.iter().map(|i| i.len() + i.len() / 8 + 2).sum();
    let mut out = String::with_capacity(lead.len() + size + indent.len());
    out.push_str(lead);
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.push_str(",\n");
        }
        out.push_str(indent);
        for (row, line) in item.split('\n').enumerate() {
            if row > 0 {
                out.push('\n');
                out.push_str(indent);
            }
            out.push_str(line);
        }
    }
    out
}

/// Counts shown in the summary line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Findings `--fix` repairs.
    pub fixable: usize,
    /// Findings only `--fix --unsafe-fixes` repairs.
    pub unsafe_fixable: usize,
}

impl Counts {
    pub fn of(diagnostics: &[Diagnostic]) -> Self {
        let mut counts = Counts::default();
        for d in diagnostics {
            match d.severity {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Info => counts.infos += 1,
            }
            match d.fix.as_ref().map(|f| f.applicability) {
                Some(crate::diagnostic::Applicability::Safe) => counts.fixable += 1,
                Some(crate::diagnostic::Applicability::Unsafe) => counts.unsafe_fixable += 1,
                None => {}
            }
        }
        counts
    }
}

/// The human summary for stderr, e.g. `Found 2 errors and 1 warning in 4 files (2 skills).`
/// `files` and `skills` count what the run read.
pub fn summary(
    files: usize,
    skills: usize,
    diagnostics: &[Diagnostic],
    suppressed: usize,
) -> String {
    summary_of(files, &[(skills, "skill")], diagnostics, suppressed, 0)
}

/// [`summary`], also counting the findings the baseline hid:
/// `Found 1 error in 4 files (2 skills). 340 hidden by the baseline.`
pub fn summary_with_baseline(
    files: usize,
    skills: usize,
    diagnostics: &[Diagnostic],
    suppressed: usize,
    baselined: usize,
) -> String {
    summary_of(
        files,
        &[(skills, "skill")],
        diagnostics,
        suppressed,
        baselined,
    )
}

/// [`summary_with_baseline`] with more kinds counted beside the skills (`(3, "command")`): the
/// skills always, the others when there are any, e.g. `in 9 files (2 skills, 1 plugin manifest,
/// 3 commands)`.
pub fn summary_of(
    files: usize,
    kinds: &[(usize, &str)],
    diagnostics: &[Diagnostic],
    suppressed: usize,
    baselined: usize,
) -> String {
    let counts = Counts::of(diagnostics);
    let listed: Vec<String> = kinds
        .iter()
        .enumerate()
        .filter(|(i, (n, _))| *i == 0 || *n > 0)
        .map(|(_, (n, word))| plural(*n, word))
        .collect();
    let scope = format!("{} ({})", plural(files, "file"), listed.join(", "));
    let mut silenced = if suppressed > 0 {
        format!(" {suppressed} suppressed inline.")
    } else {
        String::new()
    };
    if baselined > 0 {
        silenced.push_str(&format!(" {baselined} hidden by the baseline."));
    }
    if diagnostics.is_empty() {
        return format!("All checks passed: {scope}.{silenced}");
    }
    let mut parts = Vec::new();
    if counts.errors > 0 {
        parts.push(plural(counts.errors, "error"));
    }
    if counts.warnings > 0 {
        parts.push(plural(counts.warnings, "warning"));
    }
    if counts.infos > 0 {
        parts.push(plural(counts.infos, "info"));
    }
    let mut line = format!("Found {} in {scope}.{silenced}", join_and(&parts));
    match (counts.fixable, counts.unsafe_fixable) {
        (0, 0) => {}
        (safe, 0) => line.push_str(&format!(" {safe} fixable with `--fix`.")),
        (0, risky) => line.push_str(&format!(" {risky} fixable with `--fix --unsafe-fixes`.")),
        (safe, risky) => line.push_str(&format!(
            " {safe} fixable with `--fix` ({risky} more with `--unsafe-fixes`)."
        )),
    }
    line
}

/// The summary of a run that found no file to read, naming the paths it looked under, e.g.
/// `No skill or tool files found under . (SKILL.md, tools.json, …).`
pub fn nothing_found(paths: &[std::path::PathBuf]) -> String {
    // The paths are the user's arguments, often a glob the shell expanded into repository names:
    // printed raw, a folder name would drive the terminal or forge a CI log line.
    let places: Vec<String> = paths
        .iter()
        .map(|p| crate::escape::display_path(p).into_owned())
        .collect();
    format!(
        "No skill or tool files found under {} (SKILL.md, tools.json, *.tools.json, functions.json and other tool lists, __toolsnaps__/*.snap, requirement.yaml, TOOL.md, DRIVER.md, CLI.md, SECRETS.md, plugin manifests, hooks.json, .mcp.json, commands/*.md, agents/*.md, and source files that register MCP tools).",
        join_and(&places)
    )
}

use crate::english::join_and;

/// What the finding renderers read of a finished run.
#[derive(Clone, Copy)]
pub struct Input<'a> {
    pub sources: Sources<'a>,
    /// Sorted, as the engine returns them.
    pub diagnostics: &'a [Diagnostic],
    /// Findings silenced in source, sorted.
    pub suppressed: &'a [Suppressed],
    /// The folder paths are reported relative to.
    pub root: &'a std::path::Path,
    pub catalog: &'a Catalog,
}

/// Renders a finished run. Suppressed findings appear only in SARIF (as suppressed results).
pub fn render(format: Format, input: &Input<'_>, color: bool) -> String {
    collect_text(|emit| render_into(format, input, color, emit))
}

/// Where a report's pieces go as they are drawn: a writer, or a list.
pub type Emit<'e> = dyn FnMut(&str) -> std::io::Result<()> + 'e;

/// The text `draw` emits, whole.
pub(crate) fn collect_text(draw: impl FnOnce(&mut Emit<'_>) -> std::io::Result<()>) -> String {
    let mut text = String::new();
    // Appending to a string cannot fail.
    let _ = draw(&mut |piece| {
        text.push_str(piece);
        Ok(())
    });
    text
}

/// The pieces `draw` emits, in a list.
#[cfg(test)]
pub(crate) fn collect_pieces(
    draw: impl FnOnce(&mut Emit<'_>) -> std::io::Result<()>,
) -> Vec<String> {
    let mut pieces = Vec::new();
    let _ = draw(&mut |piece| {
        pieces.push(piece.to_string());
        Ok(())
    });
    pieces
}

/// Draws the report and hands each piece to `emit` as soon as it is drawn: the large formats
/// draw a batch of findings in parallel, emit it and drop it, so the report is never held whole.
/// Stops at the first error of `emit` (a closed pipe, a full disk) and returns it.
pub fn render_into(
    format: Format,
    input: &Input<'_>,
    color: bool,
    emit: &mut Emit<'_>,
) -> std::io::Result<()> {
    let Input {
        sources,
        diagnostics,
        suppressed,
        root,
        catalog,
    } = *input;
    match format {
        Format::Full => full::render_into(
            sources,
            diagnostics,
            catalog,
            color,
            full::DEFAULT_WIDTH,
            emit,
        ),
        Format::Concise => emit(&concise::render_colored(
            sources,
            diagnostics,
            catalog,
            color,
        )),
        Format::Json => json::render_into(sources, diagnostics, catalog, emit),
        Format::Github => emit(&github::render(sources, diagnostics)),
        Format::Sarif => sarif::render_into(sources, diagnostics, catalog, suppressed, root, emit),
        Format::Gitlab => emit(&gitlab::render(sources, diagnostics, catalog)),
        Format::Junit => emit(&junit::render(sources, diagnostics, catalog)),
    }
}

pub fn rules_table(catalog: &Catalog) -> String {
    let mut out = String::new();
    let width = catalog
        .rules
        .iter()
        .map(|m| m.name.len())
        .max()
        .unwrap_or(0);
    out.push_str(&format!(
        "{:<6} {:<width$} {:<8} {:<12} {:<6} SUMMARY\n",
        "CODE", "NAME", "SEVERITY", "CATEGORY", "FIX"
    ));
    for m in &catalog.rules {
        out.push_str(&format!(
            "{:<6} {:<width$} {:<8} {:<12} {:<6} {}\n",
            m.code,
            m.name,
            m.severity.as_str(),
            m.category.as_str(),
            m.fix.as_str(),
            // A policy's summary is the repository's text.
            crate::escape::escape_text(&m.summary)
        ));
    }
    out
}

/// `skilllint rules --format json`.
pub fn rules_json(catalog: &Catalog) -> String {
    let rules: Vec<serde_json::Value> = catalog
        .rules
        .iter()
        .map(|m| {
            serde_json::json!({
                "code": m.code,
                "name": m.name,
                "family": m.family,
                "category": m.category.as_str(),
                "severity": m.severity.as_str(),
                "fix": m.fix.as_str(),
                "summary": m.summary,
                "explanation": m.explanation,
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&rules).unwrap_or_else(|_| "[]".to_string());
    text.push('\n');
    text
}

/// `skilllint rule X`: a header line, then the rule's Markdown explanation.
pub fn rule_explanation(meta: &RuleMeta) -> String {
    format!(
        "# {} {}\n\n{} · {} · fix: {}\n\n{}\n\n{}",
        meta.code,
        meta.name,
        meta.severity,
        meta.category.as_str(),
        meta.fix.as_str(),
        // A policy's summary and docs are the repository's text.
        crate::escape::escape_text(&meta.summary),
        crate::escape::escape_block(meta.explanation.trim_end()).into_owned() + "\n"
    )
}

/// `docs/rules.md`: every rule with its full explanation, generated from `rules/*.md`.
pub fn rules_markdown(catalog: &Catalog) -> String {
    let mut out = String::from(
        "# Rules\n\n<!-- Generated by `skilllint rules --format markdown > docs/rules.md`; do not edit. \
The test suite fails when this file is stale. -->\n\n\
Categories `correctness`, `safety` and `style` run by default; `pedantic` rules run when selected. \
Fix: `safe` fixes are applied by `--fix`, `unsafe` ones also need `--unsafe-fixes`.\n\n\
| Code | Name | Severity | Category | Fix | Summary |\n|---|---|---|---|---|---|\n",
    );
    for m in &catalog.rules {
        out.push_str(&format!(
            "| [{}](#{}-{}) | {} | {} | {} | {} | {} |\n",
            m.code,
            m.code.to_ascii_lowercase(),
            m.name,
            m.name,
            m.severity,
            m.category.as_str(),
            m.fix.as_str(),
            crate::escape::escape_text(&m.summary).replace('|', "\\|")
        ));
    }
    for m in &catalog.rules {
        out.push_str(&format!(
            "\n## {} {}\n\n{} · {} · fix: {}\n\n{}.\n\n{}",
            m.code,
            m.name,
            m.severity,
            m.category.as_str(),
            m.fix.as_str(),
            crate::escape::escape_text(&m.summary),
            demote_headings(&crate::escape::escape_block(m.explanation.trim_end()))
        ));
        out.push('\n');
    }
    out
}

/// Turns the explanation's `##` sections into `###` under the rule's own heading, leaving code
/// blocks (whose examples may contain headings) untouched.
fn demote_headings(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 16);
    let mut in_fence = false;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        if !in_fence && line.starts_with('#') {
            out.push('#');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
