//! `--format gitlab`: a GitLab Code Quality report (the `artifacts:reports:codequality` file a
//! merge request shows): a JSON array of `{description, check_name, fingerprint, severity,
//! location: {path, lines: {begin, end}}}`, one per finding.
//!
//! A fingerprint identifies a finding across runs as SARIF's does (rule, file relative to the lint
//! root, flagged text with its whitespace folded, and the order of identical findings), so a
//! finding that only moves keeps it and GitLab does not show it as fixed and new again.

use super::{Fingerprints, Positions};
use crate::catalog::{Catalog, Category};
use crate::diagnostic::{Diagnostic, Severity};
use crate::escape::escape_text;
use crate::source::Sources;
use serde::Serialize;
use std::borrow::Cow;

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'static str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: Cow<'a, str>,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

/// GitLab's severities are `info`, `minor`, `major`, `critical` and `blocker`: an error is
/// `major`, and `critical` when its rule is a safety rule; a warning `minor`; an info `info`.
/// `blocker` is left to the team's own judgement.
pub fn severity(severity: Severity, category: Option<Category>) -> &'static str {
    match (severity, category) {
        (Severity::Error, Some(Category::Safety)) => "critical",
        (Severity::Error, _) => "major",
        (Severity::Warning, _) => "minor",
        (Severity::Info, _) => "info",
    }
}

pub fn render(sources: Sources<'_>, diagnostics: &[Diagnostic], catalog: &Catalog) -> String {
    if diagnostics.is_empty() {
        return "[]\n".to_string();
    }
    let positions = Positions::new(sources, diagnostics);
    let mut fingerprints = Fingerprints::default();
    let items: Vec<String> = diagnostics
        .iter()
        .map(|d| {
            let meta = catalog.get(d.code);
            let start = positions.start(d.primary.file, d.primary.span);
            let end = positions.end(d.primary.file, d.primary.span);
            let name = meta.map_or("", |m| m.name.as_str());
            // Paths and messages quote the repository: escaped as the human formats escape them,
            // since the merge request shows them to a reviewer.
            let issue = Issue {
                description: format!("{} [{name}] {}", d.code, escape_text(&d.message)),
                check_name: d.code,
                fingerprint: fingerprints.next(sources, d).gitlab(),
                severity: severity(d.severity, meta.map(|m| m.category)),
                location: Location {
                    path: escape_text(sources.path(d.primary.file)),
                    lines: Lines {
                        begin: start.line,
                        end: end.line.max(start.line),
                    },
                },
            };
            serde_json::to_string_pretty(&issue).unwrap_or_else(|_| "{}".to_string())
        })
        .collect();
    let mut out = super::json_elements("[\n", &items, "  ");
    out.push_str("\n]\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severities_follow_gitlab_names() {
        assert_eq!(
            severity(Severity::Error, Some(Category::Safety)),
            "critical"
        );
        assert_eq!(
            severity(Severity::Error, Some(Category::Correctness)),
            "major"
        );
        assert_eq!(severity(Severity::Error, None), "major");
        assert_eq!(severity(Severity::Warning, Some(Category::Safety)), "minor");
        assert_eq!(severity(Severity::Info, None), "info");
    }
}
