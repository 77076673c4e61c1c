//! `--format junit`: a JUnit XML report, which CI systems (GitLab, Jenkins, Azure Pipelines,
//! CircleCI, the JUnit report actions on GitHub) show as test results. A file with findings is a
//! `<testsuite>`, each finding a failed `<testcase>`; a run without findings is one passing test
//! case, so that the CI still shows the check ran. No times, host names or dates: the same
//! findings give the same bytes.

use super::Positions;
use crate::catalog::Catalog;
use crate::diagnostic::Diagnostic;
use crate::escape::escape_markup;
use crate::source::{FileId, Sources};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The findings of each file, files in the order of their first finding (the diagnostics come
/// sorted by file, so that is path order).
fn by_file(diagnostics: &[Diagnostic]) -> Vec<(FileId, Vec<&Diagnostic>)> {
    let mut files: Vec<(FileId, Vec<&Diagnostic>)> = Vec::new();
    let mut index: HashMap<FileId, usize> = HashMap::new();
    for d in diagnostics {
        let slot = *index.entry(d.primary.file).or_insert_with(|| {
            files.push((d.primary.file, Vec::new()));
            files.len() - 1
        });
        files[slot].1.push(d);
    }
    files
}

pub fn render(sources: Sources<'_>, diagnostics: &[Diagnostic], catalog: &Catalog) -> String {
    let mut out = String::with_capacity(256 + diagnostics.len() * 384);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let total = diagnostics.len();
    if total == 0 {
        out.push_str(concat!(
            "<testsuites name=\"skilllint\" tests=\"1\" failures=\"0\" errors=\"0\">\n",
            "  <testsuite name=\"skilllint\" tests=\"1\" failures=\"0\" errors=\"0\">\n",
            "    <testcase name=\"no findings\" classname=\"skilllint\"/>\n",
            "  </testsuite>\n",
            "</testsuites>\n"
        ));
        return out;
    }
    let _ = writeln!(
        out,
        "<testsuites name=\"skilllint\" tests=\"{total}\" failures=\"{total}\" errors=\"0\">"
    );
    let positions = Positions::new(sources, diagnostics);
    for (file, findings) in by_file(diagnostics) {
        let path = escape_markup(sources.path(file));
        let count = findings.len();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{path}\" tests=\"{count}\" failures=\"{count}\" errors=\"0\">"
        );
        for d in findings {
            let start = positions.start(file, d.primary.span);
            let name = catalog.get(d.code).map_or("", |m| m.name.as_str());
            let message = escape_markup(&d.message);
            let _ = writeln!(
                out,
                "    <testcase name=\"{} [{name}] at {}:{}\" classname=\"{path}\">",
                d.code, start.line, start.column
            );
            let _ = write!(
                out,
                "      <failure type=\"{}\" message=\"{message}\">{path}:{}:{}: {} {} [{name}] {message}",
                d.code,
                start.line,
                start.column,
                d.severity.as_str(),
                d.code,
            );
            if let Some(help) = &d.help {
                let _ = write!(out, "\nhelp: {}", escape_markup(help));
            }
            out.push_str("</failure>\n    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
