//! Helpers for the rule modules' unit tests: write files to a temporary folder, lint or fix them
//! with some rules selected, and read back the findings. Test-only, and outside `check`: it drives
//! the engine and the fix loop, which the check stage sits below.

use crate::diagnostic::Diagnostic;
use crate::engine::{lint, LintOutcome};
use crate::settings::LintOptions;
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
