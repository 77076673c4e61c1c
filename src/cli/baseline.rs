//! `--write-baseline FILE` and `--add-noqa`: the findings of a run recorded in a baseline file,
//! or silenced by a comment where one can go and recorded in the baseline where not.

use super::flags;
use super::output::{write_confined, write_report};
use super::summary;
use super::terminal;
use super::EXIT_USAGE;
use skilllint::escape::{display_path, escape_text};
use skilllint::fix;
use skilllint::{lint, LintOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `--write-baseline FILE`: every finding of a run without the baseline, written to FILE with the
/// notes of the old entries that still match.
pub(crate) fn write_baseline(
    options: &LintOptions,
    path: &Path,
    old: &skilllint::triage::baseline::Baseline,
    cwd: &Path,
    configured: &Option<PathBuf>,
    args: &flags::LintArgs,
) -> Result<ExitCode, skilllint::LintError> {
    let outcome = lint(options)?;
    let findings: Vec<&skilllint::diagnostic::Diagnostic> = outcome.diagnostics.iter().collect();
    let (text, written) =
        skilllint::triage::baseline::write(&findings, outcome.sources(), old, cwd);
    if let Err(error) = write_report(Some(path), &text, &outcome.repo.files) {
        terminal::error(&error.describe("the baseline"));
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    if args.says_more() {
        eprintln!("{}", summary::written(path, &written));
        let read = configured.as_deref().is_some_and(|c| same_file(c, path));
        if !read {
            terminal::note(&format!(
                "runs read it with `--baseline {0}`, or with `baseline = \"{0}\"` under [lint] in skilllint.toml",
                display_path(path)
            ));
        }
    }
    std::mem::forget(outcome);
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `--add-noqa`: a comment for every finding that can take one; the others go to the baseline
/// when the run has one (`--baseline FILE`, `[lint] baseline`). The configuration's baseline is
/// written only inside `confined_to`, the configuration's folder.
pub(crate) fn add_noqa(
    options: &LintOptions,
    baseline: Option<&skilllint::triage::baseline::Baseline>,
    confined_to: Option<&Path>,
    cwd: &Path,
    args: &flags::LintArgs,
) -> Result<ExitCode, skilllint::LintError> {
    let (after, run) = fix::noqa::add_noqa(options)?;
    let start = skilllint::settings::lint_root(&options.paths);
    let applied = fix::apply(&run.files, &fix::WriteScope::new(&start));
    let mut failed = false;
    for (path, why) in &applied.not_fixed {
        terminal::error(&format!(
            "{} not commented: {}",
            summary::shown(cwd, &after, path),
            escape_text(&why.to_string())
        ));
        failed = true;
    }
    for path in run.left_as_they_were.iter().filter(|_| args.says_more()) {
        terminal::note(&format!(
            "{} left as it was: a comment there would not silence its findings",
            summary::shown(cwd, &after, path)
        ));
    }
    let left = fix::noqa::for_the_baseline(&after);
    // The suppressed findings in order, each of `left` looked up among those with its sort key
    // (a scan of all of them per finding was quadratic under a large baseline).
    let mut suppressed: Vec<&skilllint::diagnostic::Diagnostic> =
        after.suppressed.iter().map(|s| &s.diagnostic).collect();
    suppressed.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let new_left = left
        .iter()
        .filter(|d| {
            let from = suppressed.partition_point(|s| s.sort_key() < d.sort_key());
            !suppressed[from..]
                .iter()
                .take_while(|s| s.sort_key() == d.sort_key())
                .any(|s| s == *d)
        })
        .count();
    let mut lines = vec![format!(
        "Added {} suppression {} for {} {} in {} {}.",
        run.comments,
        if run.comments == 1 {
            "comment"
        } else {
            "comments"
        },
        run.silenced,
        if run.silenced == 1 {
            "finding"
        } else {
            "findings"
        },
        applied.fixed.len(),
        if applied.fixed.len() == 1 {
            "file"
        } else {
            "files"
        },
    )];
    match baseline {
        Some(baseline) if new_left > 0 || !baseline.entries.is_empty() => {
            let (text, written) =
                skilllint::triage::baseline::write(&left, after.sources(), baseline, cwd);
            let saved = match confined_to {
                Some(root) => write_confined(&baseline.path, root, &text, &after.repo.files),
                None => write_report(Some(&baseline.path), &text, &after.repo.files),
            };
            if let Err(error) = saved {
                terminal::error(&error.describe("the baseline"));
                return Ok(ExitCode::from(EXIT_USAGE));
            }
            lines.push(summary::written(&baseline.path, &written));
        }
        Some(_) => {}
        None if new_left > 0 && args.says_more() => terminal::note(&format!(
            "{new_left} {} left without a comment (JSON has none, and some places cannot hold one): record {} with `skilllint --add-noqa --baseline skilllint-baseline.json`",
            if new_left == 1 { "finding is" } else { "findings are" },
            if new_left == 1 { "it" } else { "them" },
        )),
        None => {}
    }
    if args.says_more() {
        for line in lines {
            eprintln!("{line}");
        }
    }
    std::mem::forget(after);
    Ok(if failed {
        ExitCode::from(EXIT_USAGE)
    } else {
        ExitCode::SUCCESS
    })
}
