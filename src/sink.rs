//! [`Sink`]: where a rule reports. It stamps each finding with the rule's code and default
//! severity, and caps how many findings one rule run keeps per file.
//!
//! Below both the check stage (which re-exports it as `check::Sink`, the name rules use) and
//! triage (which reports SL002 and SL003 through it, under the same cap), so neither imports the
//! other. It knows only the catalog's `RuleMeta` and diagnostics.

use crate::catalog::RuleMeta;
use crate::diagnostic::{stable_hash, Diagnostic, LeftOut, Severity};
use crate::source::{FileId, Span};
use std::collections::HashMap;

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
    /// The findings left out: each one's span and a hash of its message (see [`LeftOut`]), a
    /// few bytes each instead of a whole finding.
    dropped: Vec<(Span, u64)>,
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
            self.dropped
                .push((left_out.primary.span, stable_hash(&[&left_out.message])));
        }
    }
}

/// Collects the diagnostics of one rule; the rule's code and default severity are filled in.
pub struct Sink {
    code: &'static str,
    severity: Severity,
    /// By file, in the order the files were first reported on.
    files: Vec<(FileId, FileFindings)>,
    /// Where each file is in `files`, once more than [`LINEAR_FILES`] have findings: the few
    /// before are looked for in turn, and a rule run that reports nothing (most) builds no map.
    slots: Option<HashMap<FileId, usize>>,
}

/// How many files a sink looks through in turn before it indexes them.
const LINEAR_FILES: usize = 8;

/// Edit-distance cells one rule run may spend on "did you mean" suggestions. Every unknown name
/// is compared with every candidate, so a file of many unknown names and many candidates costs
/// their product; past this budget (far above what any hand-written file needs) the rest of
/// that run's findings carry no suggestion. Reset for each rule run (in [`Sink::new`]), so what
/// is suggested does not depend on which thread ran what before.
const SUGGESTION_BUDGET: usize = 2_000_000;

thread_local! {
    static SUGGESTION_CELLS_LEFT: std::cell::Cell<usize> = const { std::cell::Cell::new(SUGGESTION_BUDGET) };
}

/// Gives the running rule its full suggestion budget again.
fn reset_suggestion_budget() {
    SUGGESTION_CELLS_LEFT.with(|left| left.set(SUGGESTION_BUDGET));
}

/// Takes `cells` from the running rule's suggestion budget: false (and the budget spent) when
/// fewer are left, so the suggestion is not computed.
pub(crate) fn spend_suggestion_cells(cells: usize) -> bool {
    let left = SUGGESTION_CELLS_LEFT.with(std::cell::Cell::get);
    if cells > left {
        SUGGESTION_CELLS_LEFT.with(|l| l.set(0));
        return false;
    }
    SUGGESTION_CELLS_LEFT.with(|l| l.set(left - cells));
    true
}

impl Sink {
    pub fn new(meta: &RuleMeta) -> Self {
        // One sink per rule run, on the thread that runs it.
        reset_suggestion_budget();
        Sink {
            code: meta.code,
            severity: meta.severity,
            files: Vec::new(),
            slots: None,
        }
    }

    pub fn report(
        &mut self,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let files = &mut self.files;
        let slot = match &mut self.slots {
            Some(slots) => *slots.entry(file).or_insert_with(|| {
                files.push((file, FileFindings::default()));
                files.len() - 1
            }),
            None => match files.iter().position(|(f, _)| *f == file) {
                Some(slot) => slot,
                None => {
                    files.push((file, FileFindings::default()));
                    if files.len() > LINEAR_FILES {
                        let index = files.iter().enumerate().map(|(i, (f, _))| (*f, i));
                        self.slots = Some(index.collect());
                    }
                    files.len() - 1
                }
            },
        };
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
        if self.files.is_empty() {
            return Vec::new();
        }
        let mut diagnostics = Vec::new();
        for (file, mut findings) in self.files {
            findings.keep_first();
            diagnostics.append(&mut findings.kept);
            let more = findings.dropped.len();
            let Some(first) = findings
                .dropped
                .iter()
                .map(|(span, _)| *span)
                .min_by_key(|span| (span.start, span.end))
            else {
                continue;
            };
            let noun = if more == 1 { "finding" } else { "findings" };
            let mut count = Diagnostic::new(
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
            );
            count.left_out = Some(Box::new(LeftOut {
                findings: findings.dropped,
            }));
            diagnostics.push(count);
        }
        diagnostics
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    #[test]
    fn a_sink_keeps_the_cap_per_file_and_counts_the_rest() {
        let Some(meta) = catalog().get("SE003") else {
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
        let Some(meta) = catalog().get("SE003") else {
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

    #[test]
    fn a_sink_groups_findings_by_file_in_first_reported_order_however_many_files() {
        let Some(meta) = catalog().get("SE003") else {
            panic!("SE003 is registered");
        };
        // More files than are looked through in turn, reported on in a shuffled order, twice.
        let files: Vec<u32> = (0..3 * LINEAR_FILES as u32).map(|i| (i * 7) % 24).collect();
        let mut sink = Sink::new(meta);
        for round in 0..2 {
            for &f in &files {
                sink.report(
                    FileId(f),
                    Span::new(round, round + 1),
                    format!("{f}/{round}"),
                );
            }
        }
        let order: Vec<String> = sink.finish().into_iter().map(|d| d.message).collect();
        let expected: Vec<String> = files
            .iter()
            .flat_map(|f| [format!("{f}/0"), format!("{f}/1")])
            .collect();
        assert_eq!(order, expected);
        assert!(Sink::new(meta).finish().is_empty());
    }
}
