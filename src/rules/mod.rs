//! The rule registry: metadata from `rules/*.md`, one check function per code from `src/rules/*.rs`.

pub mod dr;
pub mod meta;
pub mod sc;
pub mod se;
pub mod sk;
pub mod sl;
pub mod tj;
pub mod tm;
pub mod tr;
pub mod util;
pub mod xc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::index::{Repo, Unit};
use crate::source::{FileId, Span};
pub use meta::{Category, FixAvailability, RuleMeta};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A check over one unit (a folder's SKILL.md, tools files and requirement, read together).
pub type UnitCheck = fn(&Unit<'_>, &mut Sink);
/// A check over the whole repository index (e.g. duplicate names across skills).
pub type RepoCheck = fn(&Repo, &mut Sink);

#[derive(Clone, Copy)]
pub enum Check {
    Unit(UnitCheck),
    Repo(RepoCheck),
    /// Emitted by the engine itself (unreadable files, crashed rules).
    Engine,
}

/// Binds a rule code to its check; each family module lists its own.
pub struct RuleImpl {
    pub code: &'static str,
    pub check: Check,
}

pub struct Rule {
    pub meta: RuleMeta,
    pub check: Check,
}

pub struct Registry {
    /// Sorted by code.
    pub rules: Vec<Rule>,
}

impl Registry {
    pub fn get(&self, code: &str) -> Option<&Rule> {
        self.rules
            .binary_search_by(|r| r.meta.code.cmp(code))
            .ok()
            .map(|i| &self.rules[i])
    }

    /// Finds a rule by code or kebab-case name, both case-insensitive (`tj003`,
    /// `Write-Tool-Without-Confirmation`).
    pub fn find(&self, code_or_name: &str) -> Option<&Rule> {
        let upper = code_or_name.to_ascii_uppercase();
        self.get(&upper).or_else(|| {
            self.rules
                .iter()
                .find(|r| r.meta.name.eq_ignore_ascii_case(code_or_name))
        })
    }

    pub fn meta(&self, code: &str) -> Option<&RuleMeta> {
        self.get(code).map(|r| &r.meta)
    }
}

fn implementations() -> impl Iterator<Item = &'static RuleImpl> {
    [
        sk::RULES,
        tj::RULES,
        tr::RULES,
        tm::RULES,
        dr::RULES,
        se::RULES,
        sc::RULES,
        xc::RULES,
        sl::RULES,
    ]
    .into_iter()
    .flatten()
}

/// Builds the registry from the embedded documents and the check table. A document without a
/// check (or the reverse) is a build mistake that the test suite reports; at run time such a rule
/// is left out rather than crashing the linter.
pub fn build_registry() -> (Registry, Vec<String>) {
    let mut problems = Vec::new();
    let mut rules = Vec::new();
    for (code, text) in meta::RULE_DOCS {
        let meta = match meta::parse_rule_doc(code, text) {
            Ok(meta) => meta,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        match implementations().find(|i| i.code == *code) {
            Some(implementation) => rules.push(Rule {
                meta,
                check: implementation.check,
            }),
            None => problems.push(format!("rules/{code}.md has no check in src/rules/")),
        }
    }
    for implementation in implementations() {
        if !meta::RULE_DOCS
            .iter()
            .any(|(c, _)| *c == implementation.code)
        {
            problems.push(format!(
                "check {} has no rules/{}.md",
                implementation.code, implementation.code
            ));
        }
    }
    rules.sort_by_key(|r| r.meta.code);
    (Registry { rules }, problems)
}

pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    // Problems are only possible with a broken build; the registry test names every one.
    REGISTRY.get_or_init(|| build_registry().0)
}

/// How many findings one rule run keeps for one file. A hostile file just under the size cap can
/// hold hundreds of thousands of findings of one rule (a hidden character per byte, a key per
/// line); stored and rendered, each costs kilobytes, so past this the rest are only counted and
/// reported as one finding that says how many were left out.
pub const MAX_FINDINGS_PER_FILE: usize = 1000;

/// One rule run's findings in one file. Past the cap it keeps the first findings by position,
/// whatever order the rule found them in (a schema validator reports `/items/10` before
/// `/items/2`), so which ones are reported never depends on how a rule walks the file.
#[derive(Default)]
struct FileFindings {
    kept: Vec<Diagnostic>,
    /// How many were left out, and the first of them by position.
    dropped: usize,
    first_dropped: Option<Span>,
}

impl FileFindings {
    /// Keeps the first [`MAX_FINDINGS_PER_FILE`] by position and counts the rest. Called when
    /// twice that many have piled up, so each finding is sorted a bounded number of times.
    fn keep_first(&mut self) {
        if self.kept.len() <= MAX_FINDINGS_PER_FILE {
            return;
        }
        self.kept.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        for left_out in self.kept.drain(MAX_FINDINGS_PER_FILE..) {
            self.dropped += 1;
            let span = left_out.primary.span;
            if self
                .first_dropped
                .is_none_or(|first| (span.start, span.end) < (first.start, first.end))
            {
                self.first_dropped = Some(span);
            }
        }
    }
}

/// Collects the diagnostics of one rule; the rule's code and default severity are filled in.
pub struct Sink {
    code: &'static str,
    severity: Severity,
    /// By file, in the order the files were first reported on.
    files: Vec<(FileId, FileFindings)>,
    slots: HashMap<FileId, usize>,
}

impl Sink {
    pub fn new(meta: &RuleMeta) -> Self {
        // One sink per rule run, on the thread that runs it.
        util::reset_suggestion_budget();
        Sink {
            code: meta.code,
            severity: meta.severity,
            files: Vec::new(),
            slots: HashMap::new(),
        }
    }

    pub fn report(
        &mut self,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let files = &mut self.files;
        let slot = *self.slots.entry(file).or_insert_with(|| {
            files.push((file, FileFindings::default()));
            files.len() - 1
        });
        let findings = &mut self.files[slot].1;
        if findings.kept.len() >= 2 * MAX_FINDINGS_PER_FILE {
            findings.keep_first();
        }
        findings.kept.push(Diagnostic::new(
            self.code,
            self.severity,
            file,
            span,
            message,
        ));
        let last = findings.kept.len() - 1;
        &mut findings.kept[last]
    }

    /// The findings kept, and for each file that had more than the cap one finding that says
    /// how many more there were.
    pub fn finish(self) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        for (file, mut findings) in self.files {
            findings.keep_first();
            diagnostics.append(&mut findings.kept);
            let (more, Some(first)) = (findings.dropped, findings.first_dropped) else {
                continue;
            };
            let noun = if more == 1 { "finding" } else { "findings" };
            diagnostics.push(
                Diagnostic::new(
                    self.code,
                    self.severity,
                    file,
                    first,
                    format!(
                        "{more} more {noun} of this rule in this file not reported: a rule \
                         reports at most {MAX_FINDINGS_PER_FILE} per file"
                    ),
                )
                .with_label("the first one not reported")
                .with_help(
                    "fix the findings reported here and lint again to see the rest; a file \
                     with this many findings of one rule is usually generated or hostile",
                ),
            );
        }
        diagnostics
    }
}

/// Helpers for the rule modules' unit tests.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::diagnostic::Diagnostic;
    use crate::engine::{lint, LintOptions, LintOutcome};
    use std::path::Path;

    /// Writes `files` (relative path, text) under `root`, creating folders.
    pub fn write(root: &Path, files: &[(&str, &str)]) {
        for (path, text) in files {
            let path = root.join(path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("create folder");
            }
            std::fs::write(path, text).expect("write file");
        }
    }

    /// Options that lint `root` with only `codes` selected, on one thread.
    pub fn options(root: &Path, codes: &[&str]) -> LintOptions {
        LintOptions {
            paths: vec![root.to_path_buf()],
            select: codes.iter().map(|c| c.to_string()).collect(),
            threads: Some(1),
            ..LintOptions::default()
        }
    }

    /// Lints `files`, written to a temporary folder, with only `code` selected.
    pub fn lint_files(code: &str, files: &[(&str, &str)]) -> LintOutcome {
        lint_files_among(&[code], files)
    }

    /// Lints `files`, written to a temporary folder, with only `codes` selected.
    pub fn lint_files_among(codes: &[&str], files: &[(&str, &str)]) -> LintOutcome {
        let dir = tempfile::tempdir().expect("temp dir");
        write(dir.path(), files);
        lint(&options(dir.path(), codes)).expect("lint runs")
    }

    /// The findings of `code` on `files`, each with the text under its primary span.
    pub fn findings(code: &str, files: &[(&str, &str)]) -> Vec<(Diagnostic, String)> {
        findings_among(&[code], code, files)
    }

    /// The findings of `code` on `files` with `selected` selected (rules that leave findings to
    /// each other), each with the text under its primary span.
    pub fn findings_among(
        selected: &[&str],
        code: &str,
        files: &[(&str, &str)],
    ) -> Vec<(Diagnostic, String)> {
        let outcome = lint_files_among(selected, files);
        outcome
            .diagnostics
            .into_iter()
            .filter(|d| d.code == code)
            .map(|d| {
                let span = d.primary.span;
                let text = outcome.repo.text(d.primary.file);
                let found = text.get(span.start..span.end).unwrap_or_default();
                let found = found.to_string();
                (d, found)
            })
            .collect()
    }

    /// Runs the safe fix loop over `files` with `codes` selected; returns the fixed text of the
    /// file whose path ends with `target` (`original` when it did not change) and the codes that
    /// still fire. Fails the test if a fix was refused.
    pub fn fix_files(
        codes: &[&str],
        files: &[(&str, &str)],
        target: &str,
        original: &str,
    ) -> (String, Vec<&'static str>) {
        let dir = tempfile::tempdir().expect("temp dir");
        write(dir.path(), files);
        let (outcome, run) = crate::fix::fix(&options(dir.path(), codes), false).expect("fix");
        assert!(run.refused.is_empty(), "{:?}", run.refused);
        let text = run
            .changed
            .iter()
            .find(|(path, _)| path.ends_with(target))
            .map_or_else(|| original.to_string(), |(_, (_, fixed))| fixed.clone());
        (text, outcome.diagnostics.iter().map(|d| d.code).collect())
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_sink_keeps_the_cap_per_file_and_counts_the_rest() {
        let Some(meta) = registry().meta("SE003") else {
            panic!("SE003 is registered");
        };
        let mut sink = Sink::new(meta);
        for i in 0..MAX_FINDINGS_PER_FILE + 5 {
            sink.report(FileId(1), Span::new(i, i + 1), "in file 1")
                .help("kept or thrown away");
        }
        sink.report(FileId(2), Span::new(0, 1), "in file 2");
        let diagnostics = sink.finish();
        let in_file = |id| {
            diagnostics
                .iter()
                .filter(|d| d.primary.file == FileId(id))
                .count()
        };
        assert_eq!(in_file(1), MAX_FINDINGS_PER_FILE + 1);
        assert_eq!(in_file(2), 1);
        let Some(summary) = diagnostics.iter().find(|d| d.message.starts_with("5 more")) else {
            panic!("no summary among {} diagnostics", diagnostics.len());
        };
        assert_eq!(
            summary.primary.span,
            Span::new(MAX_FINDINGS_PER_FILE, MAX_FINDINGS_PER_FILE + 1)
        );
        assert_eq!(summary.code, "SE003");
    }

    #[test]
    fn a_sink_keeps_the_first_findings_by_position_whatever_the_order_found() {
        let Some(meta) = registry().meta("SE003") else {
            panic!("SE003 is registered");
        };
        let total = 3 * MAX_FINDINGS_PER_FILE;
        let mut sink = Sink::new(meta);
        for i in (0..total).rev() {
            sink.report(FileId(0), Span::new(i, i + 1), "found backwards");
        }
        let diagnostics = sink.finish();
        let mut starts: Vec<usize> = diagnostics
            .iter()
            .filter(|d| d.message == "found backwards")
            .map(|d| d.primary.span.start)
            .collect();
        starts.sort_unstable();
        assert_eq!(starts, (0..MAX_FINDINGS_PER_FILE).collect::<Vec<_>>());
        let Some(summary) = diagnostics
            .iter()
            .find(|d| d.message.contains("more findings"))
        else {
            panic!("no summary");
        };
        assert!(summary
            .message
            .starts_with(&format!("{} more", total - MAX_FINDINGS_PER_FILE)));
        assert_eq!(summary.primary.span.start, MAX_FINDINGS_PER_FILE);
    }
    use super::*;

    #[test]
    fn every_rule_document_has_a_check_and_every_check_a_document() {
        let (_, problems) = build_registry();
        assert!(
            problems.is_empty(),
            "registry problems:\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn names_are_unique_kebab_case_and_families_match_codes() {
        let registry = registry();
        let mut names = std::collections::HashSet::new();
        for rule in &registry.rules {
            let meta = &rule.meta;
            assert!(
                names.insert(meta.name.clone()),
                "duplicate name {}",
                meta.name
            );
            assert!(
                meta.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{} is not kebab-case",
                meta.name
            );
            assert!(meta.code.starts_with(&meta.family), "{}", meta.code);
            assert!(
                !meta.summary.ends_with('.'),
                "{} summary ends with a period",
                meta.code
            );
            for section in [
                "## What it checks",
                "## Why it matters",
                "## Example",
                "## How to fix",
            ] {
                assert!(
                    meta.explanation.contains(section),
                    "{} lacks {section}",
                    meta.code
                );
            }
        }
    }
}
