//! Triage: what happens to the rules' findings after every rule ran, in one place. It applies the
//! selection ([`crate::selection`]: which rules run and report where), severity overrides and
//! inline suppressions ([`suppress`]), and it reports SL002 (unused suppression) and SL003
//! (malformed suppression). It reads the catalog, never the checks: it must not import `rules`, `check` or
//! `engine`.

pub mod baseline;
pub mod suppress;

use crate::catalog::catalog;
use crate::diagnostic::{Diagnostic, Suppressed};
use crate::index::Repo;
use crate::parse::suppression::{Malformed, Suppression};
use crate::selection::Enabled;
use crate::sink::Sink;
use rayon::prelude::*;

/// What the run's options say about triage.
pub(crate) struct Policy<'a> {
    pub(crate) enabled: &'a Enabled,
    /// Honour inline suppression comments.
    pub(crate) inline_ignores: bool,
}

/// The first steps of [`apply`], for findings made after the units (the lock's drift): drops
/// what the selection and `per-file-ignores` do not report in its file, and applies the severity
/// overrides (the configuration's that governs the file).
pub(crate) fn report_where_selected(diagnostics: &mut Vec<Diagnostic>, repo: &Repo) {
    // The rules any configuration of the run enables ran; this drops what the file's
    // configuration does not select and what `per-file-ignores` silences, and in a run widened
    // to the whole repository, what is in files it was not asked about.
    diagnostics
        .retain(|d| repo.reports_str(d.code, d.primary.file) && repo.in_scope(d.primary.file));
    for d in diagnostics {
        if let Some(severity) = repo.severity_in(d.code, d.primary.file) {
            d.severity = severity;
        }
    }
}

/// Applies, in this order: the per-file ignores (only enabled rules ran), the severity
/// overrides, the inline suppressions and the SL002 / SL003 findings about them; then sorts and
/// dedups. Returns the findings kept and those silenced in source, both sorted.
pub(crate) fn apply(
    mut diagnostics: Vec<Diagnostic>,
    repo: &Repo,
    policy: &Policy<'_>,
    suppressions: &[Suppression],
    malformed: Vec<Malformed>,
) -> (Vec<Diagnostic>, Vec<Suppressed>) {
    let enabled = policy.enabled;
    report_where_selected(&mut diagnostics, repo);
    let mut suppressed = Vec::new();
    if policy.inline_ignores {
        let (kept, silenced, used) = suppress::apply(diagnostics, suppressions);
        diagnostics = kept;
        suppressed = silenced;
        let catalog = catalog();
        // Through a sink, as a rule's findings: a file of a hundred thousand comments gets the
        // same cap on findings per file.
        if let Some(meta) = catalog.get("SL002").filter(|m| enabled.contains(m.code)) {
            let mut sink = Sink::new(meta);
            for (suppression, was_used) in suppressions.iter().zip(&used) {
                // Only a rule that ran, and reports in the comment's file, can prove a
                // suppression useless.
                if *was_used
                    || !repo.enables_in(meta.code, suppression.file)
                    || !suppression
                        .codes
                        .iter()
                        .all(|c| enabled.contains(c) && repo.enables_in(c, suppression.file))
                {
                    continue;
                }
                let codes = suppression
                    .codes
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                sink.report(
                    suppression.file,
                    suppression.span,
                    format!("suppression of {codes} matches no finding"),
                )
                .label("nothing to suppress here")
                .help("remove the comment, or move it next to the finding it is meant for");
            }
            diagnostics.extend(sink.finish());
        }
        if let Some(meta) = catalog.get("SL003").filter(|m| enabled.contains(m.code)) {
            let mut sink = Sink::new(meta);
            for problem in malformed {
                sink.report(problem.file, problem.span, problem.message)
                    .help("write `<!-- skilllint-disable-next-line CODE -- reason -->` in Markdown or `# skilllint: ignore[CODE] reason` in YAML");
            }
            diagnostics.extend(sink.finish());
        }
    }
    // A suppression in a file the run does not report on lost its findings above: it is not
    // reported as unused there, nor is anything silenced in such a file listed.
    diagnostics.retain(|d| repo.in_scope(d.primary.file));
    suppressed.retain(|s| repo.in_scope(s.diagnostic.primary.file));
    diagnostics.par_sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();
    suppressed.sort_by(|a, b| a.diagnostic.sort_key().cmp(&b.diagnostic.sort_key()));
    (diagnostics, suppressed)
}
