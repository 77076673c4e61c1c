//! `--format github`: workflow commands that GitHub Actions turns into annotations.

use super::Positions;
use crate::diagnostic::{Diagnostic, Severity};
use crate::escape::escape_text;
use crate::source::Sources;
use std::fmt::Write as _;

/// Escapes a command's message (data).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value: like data, plus `:` and `,`, which separate properties.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(sources: Sources<'_>, diagnostics: &[Diagnostic]) -> String {
    let positions = Positions::new(sources, diagnostics);
    let mut out = String::new();
    for d in diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let start = positions.start(d.primary.file, d.primary.span);
        let end = positions.end(d.primary.file, d.primary.span);
        // Repository text is first made printable (no line feed can end the command, no ESC
        // colour the log), then escaped as the workflow-command syntax requires.
        let mut properties = format!(
            "file={},line={},endLine={}",
            escape_property(&escape_text(sources.path(d.primary.file))),
            start.line,
            end.line
        );
        // GitHub only honours columns on single-line annotations.
        if start.line == end.line {
            let _ = write!(
                properties,
                ",col={},endColumn={}",
                start.column,
                end.column.max(start.column)
            );
        }
        let _ = write!(
            properties,
            ",title={}",
            escape_property(&format!("skilllint {}", d.code))
        );
        let _ = writeln!(
            out,
            "::{command} {properties}::{}",
            escape_data(&escape_text(&d.message))
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_workflow_command_rules() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
