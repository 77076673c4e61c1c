//! The `--fix` loop: lint, accept the fixes that do not collide, apply them with
//! [`crate::edit::apply_edits`], refuse any that would stop a file parsing, and repeat until
//! stable. [`write`] puts the result on disk, safely in a hostile repository; `output` is the
//! text of `--diff`.

use crate::diagnostic::{Applicability, Diagnostic, Edit};
use crate::edit::apply_edits;
use crate::engine::{lint, LintError, LintOutcome};
use crate::index::parse_pending;
use crate::index::Parsed;
use crate::model::document::FrontmatterState;
use crate::model::parse_file;
use crate::settings::LintOptions;
use crate::source::{FileId, SourceFile};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

pub mod noqa;
mod output;
mod write;
pub use output::{diff, diff_summary, unified_diff};
pub use write::{apply, rename_fixed, write_fixed, Applied, NotFixed, WriteScope};

/// Passes of "lint, apply what fixes allow, lint again" before giving up on convergence.
const MAX_PASSES: usize = 10;

/// What a fix run changed (nothing is written by [`fix`] itself).
#[derive(Debug, Default)]
pub struct FixRun {
    /// Findings whose fix was applied.
    pub fixed: usize,
    /// Files whose text changed: path → (original, fixed), by discovered path.
    pub changed: BTreeMap<PathBuf, (String, String)>,
    /// Files to rename (SK012): from → to.
    pub renames: Vec<(PathBuf, PathBuf)>,
    /// Fixes that were dropped because the file would no longer parse: (path, rule, why).
    pub refused: Vec<(String, &'static str, String)>,
    /// The path relative to the lint root of each file in `changed` and `renames`, for messages.
    pub rel_paths: BTreeMap<PathBuf, String>,
    /// Findings fixed per file (counted at the file of a fix's first edit, or the renamed file),
    /// so the findings of a file that cannot be written are not reported as fixed.
    pub fixed_by_file: BTreeMap<PathBuf, usize>,
    /// The same findings by file and rule, for `--show-fixes`.
    pub fixed_by_rule: BTreeMap<PathBuf, BTreeMap<&'static str, usize>>,
}

fn applies(diagnostic: &Diagnostic, unsafe_fixes: bool) -> bool {
    diagnostic
        .fix
        .as_ref()
        .is_some_and(|fix| fix.applicability == Applicability::Safe || unsafe_fixes)
}

/// Whether the edited text still parses as well as the original did.
fn still_parses(before: &Parsed, source: &SourceFile) -> Result<(), String> {
    // Links are not looked up: only whether the file still parses matters here.
    let after = parse_file(before.kind(), source, None);
    let frontmatter_ok = |doc: &crate::model::document::MarkdownDoc| {
        matches!(doc.frontmatter, FrontmatterState::Valid(_))
    };
    let ok = match (before, &after) {
        (Parsed::Tools(b), Parsed::Tools(a)) => b.parse_error.is_some() || a.parse_error.is_none(),
        (Parsed::Requirement(b), Parsed::Requirement(a)) => {
            b.parse_error.is_some() || a.parse_error.is_none()
        }
        (Parsed::Skill(b), Parsed::Skill(a)) => !frontmatter_ok(&b.doc) || frontmatter_ok(&a.doc),
        (Parsed::Contract(b), Parsed::Contract(a))
        | (Parsed::Secrets(b), Parsed::Secrets(a))
        | (Parsed::Driver { doc: b, .. }, Parsed::Driver { doc: a, .. }) => {
            !frontmatter_ok(b) || frontmatter_ok(a)
        }
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err("the fixed file would no longer parse".to_string())
    }
}

/// Lints, applies every applicable fix that does not collide with another, and repeats until
/// nothing is left to fix. Returns the final lint outcome (what remains) and the changes.
pub fn fix(options: &LintOptions, unsafe_fixes: bool) -> Result<(LintOutcome, FixRun), LintError> {
    fix_only(options, unsafe_fixes, &|_| true)
}

/// [`fix`], taking only the fixes whose every edit (and rename) is in a file `only` accepts: the
/// language server's "fix all" on one document.
pub fn fix_only(
    options: &LintOptions,
    unsafe_fixes: bool,
    only: &dyn Fn(&std::path::Path) -> bool,
) -> Result<(LintOutcome, FixRun), LintError> {
    let mut run = FixRun::default();
    let mut overlay: HashMap<PathBuf, String> = options.overlay.as_ref().clone();
    let mut originals: HashMap<PathBuf, String> = HashMap::new();
    // (rule, path, offset) of fixes that were refused, so they are not retried forever.
    let mut refused: HashSet<(&'static str, PathBuf, usize)> = HashSet::new();
    let mut renames: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut pass_options = options.clone();
    for _ in 0..MAX_PASSES {
        pass_options.overlay = Arc::new(overlay.clone());
        let outcome = lint(&pass_options)?;
        let repo = &outcome.repo;
        // Accept fixes in diagnostic order; a fix is taken whole or not at all.
        let mut accepted: Vec<&Diagnostic> = Vec::new();
        let mut taken: HashMap<FileId, Vec<crate::source::Span>> = HashMap::new();
        for diagnostic in &outcome.diagnostics {
            if !applies(diagnostic, unsafe_fixes) {
                continue;
            }
            let Some(fix) = &diagnostic.fix else { continue };
            let in_scope = (fix.rename_to.is_none()
                || only(&repo.file(diagnostic.primary.file).abs_path))
                && fix.edits.iter().all(|e| only(&repo.file(e.file).abs_path));
            if !in_scope {
                continue;
            }
            let key = (
                diagnostic.code,
                repo.file(diagnostic.primary.file).abs_path.clone(),
                diagnostic.primary.span.start,
            );
            if refused.contains(&key) {
                continue;
            }
            if let Some(new_name) = &fix.rename_to {
                let from = repo.file(diagnostic.primary.file).abs_path.clone();
                let to = from.with_file_name(new_name);
                if !to.exists() && !renames.contains_key(&from) {
                    *run.fixed_by_file.entry(from.clone()).or_default() += 1;
                    *run.fixed_by_rule
                        .entry(from.clone())
                        .or_default()
                        .entry(diagnostic.code)
                        .or_default() += 1;
                    renames.insert(from, to);
                    run.fixed += 1;
                }
                continue;
            }
            let collides = fix.edits.iter().any(|edit| {
                taken.get(&edit.file).is_some_and(|spans| {
                    spans.iter().any(|s| {
                        edit.span.start < s.end && s.start < edit.span.end
                            || edit.span.start == s.start
                    })
                })
            });
            if collides || fix.edits.is_empty() {
                continue;
            }
            for edit in &fix.edits {
                taken.entry(edit.file).or_default().push(edit.span);
            }
            accepted.push(diagnostic);
        }
        if accepted.is_empty() {
            finish(&mut run, renames, originals, &overlay, &outcome);
            return Ok((outcome, run));
        }
        // Apply per file, checking that each file still parses.
        let mut by_file: BTreeMap<FileId, Vec<(&Diagnostic, &Edit)>> = BTreeMap::new();
        for diagnostic in &accepted {
            if let Some(fix) = &diagnostic.fix {
                for edit in &fix.edits {
                    by_file
                        .entry(edit.file)
                        .or_default()
                        .push((diagnostic, edit));
                }
            }
        }
        // Each applied fix with the file of its first edit, where it is counted.
        let mut applied_diagnostics: HashMap<*const Diagnostic, (PathBuf, &'static str)> =
            HashMap::new();
        let mut failed_diagnostics: HashSet<*const Diagnostic> = HashSet::new();
        let mut new_texts: Vec<(PathBuf, String)> = Vec::new();
        for (file, edits) in &by_file {
            let source = repo.file(*file);
            let edit_refs: Vec<&Edit> = edits.iter().map(|(_, e)| *e).collect();
            let (text, _) = apply_edits(&source.text, &edit_refs);
            let candidate = SourceFile {
                rel_path: source.rel_path.clone(),
                abs_path: source.abs_path.clone(),
                text,
            };
            // A folder's own files are no longer parsed once the run is over: parse the
            // original again (only for files with fixes).
            let reparsed = parse_pending(repo, *file);
            let before = reparsed.as_ref().unwrap_or_else(|| repo.parsed(*file));
            match still_parses(before, &candidate) {
                Ok(()) => {
                    new_texts.push((source.abs_path.clone(), candidate.text));
                    for (d, _) in edits {
                        applied_diagnostics
                            .entry(*d as *const Diagnostic)
                            .or_insert_with(|| (source.abs_path.clone(), d.code));
                    }
                }
                Err(why) => {
                    for (d, _) in edits {
                        failed_diagnostics.insert(*d as *const Diagnostic);
                        refused.insert((
                            d.code,
                            repo.file(d.primary.file).abs_path.clone(),
                            d.primary.span.start,
                        ));
                        run.refused
                            .push((source.rel_path.clone(), d.code, why.clone()));
                    }
                }
            }
        }
        let mut progressed = false;
        for (path, text) in new_texts {
            originals.entry(path.clone()).or_insert_with(|| {
                repo.files
                    .iter()
                    .find(|f| f.abs_path == path)
                    .map(|f| f.text.clone())
                    .unwrap_or_default()
            });
            overlay.insert(path, text);
            progressed = true;
        }
        for (diagnostic, (path, code)) in applied_diagnostics {
            if !failed_diagnostics.contains(&diagnostic) {
                *run.fixed_by_rule
                    .entry(path.clone())
                    .or_default()
                    .entry(code)
                    .or_default() += 1;
                *run.fixed_by_file.entry(path).or_default() += 1;
                run.fixed += 1;
            }
        }
        if !progressed {
            // Everything this pass was refused: lint once more for the final picture.
            pass_options.overlay = Arc::new(overlay.clone());
        }
    }
    pass_options.overlay = Arc::new(overlay.clone());
    let outcome = lint(&pass_options)?;
    finish(&mut run, renames, originals, &overlay, &outcome);
    Ok((outcome, run))
}

/// Fills in what the run changed: the files whose text differs from the original, the renames,
/// and the relative path of each for messages.
fn finish(
    run: &mut FixRun,
    renames: BTreeMap<PathBuf, PathBuf>,
    originals: HashMap<PathBuf, String>,
    overlay: &HashMap<PathBuf, String>,
    outcome: &LintOutcome,
) {
    run.renames = renames.into_iter().collect();
    for (path, original) in originals {
        if let Some(fixed) = overlay.get(&path) {
            if *fixed != original {
                run.changed.insert(path, (original, fixed.clone()));
            }
        }
    }
    if run.changed.is_empty() && run.renames.is_empty() {
        return;
    }
    let rel_paths: HashMap<&std::path::Path, &str> = outcome
        .repo
        .files
        .iter()
        .map(|f| (f.abs_path.as_path(), f.rel_path.as_str()))
        .collect();
    let touched = run
        .changed
        .keys()
        .chain(run.renames.iter().map(|(from, _)| from));
    for path in touched {
        if let Some(rel) = rel_paths.get(path.as_path()) {
            run.rel_paths.insert(path.clone(), rel.to_string());
        }
    }
}
