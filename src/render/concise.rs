//! `path:line:col: severity CODE [name] message`, one line per diagnostic.

use crate::catalog::Catalog;
use crate::diagnostic::Diagnostic;
use crate::escape::escape_text;
use crate::source::Sources;
use crate::source::{FileId, LineCursor};
use std::fmt::Write as _;

pub fn render(sources: Sources<'_>, diagnostics: &[Diagnostic], catalog: &Catalog) -> String {
    render_colored(sources, diagnostics, catalog, false)
}

/// [`render`], with the path and code in bold and the severity in its colour when `color`.
pub fn render_colored(
    sources: Sources<'_>,
    diagnostics: &[Diagnostic],
    catalog: &Catalog,
    color: bool,
) -> String {
    let paint = |style: &str, text: &str| {
        if color {
            format!("\x1b[{style}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    };
    // About a line's worth per diagnostic up front, so the output is not copied as it grows.
    let mut out = String::with_capacity(diagnostics.len() * 128);
    // Only primary positions are printed, and diagnostics come sorted by file and offset: a
    // cursor counts lines on through the file being printed (no index of every line).
    let mut cursor: Option<(FileId, LineCursor)> = None;
    for d in diagnostics {
        let file = d.primary.file;
        let lines = match &mut cursor {
            Some((counted, lines)) if *counted == file => lines,
            slot => &mut slot.insert((file, LineCursor::new(sources.text(file)))).1,
        };
        let start = lines.line_col(d.primary.span.start);
        let name = catalog.get(d.code).map_or("", |m| m.name.as_str());
        // Paths and messages quote the repository: escaped, so that a line feed in a tool name
        // cannot start a second line nor an ESC drive the terminal.
        let severity_style = match d.severity {
            crate::diagnostic::Severity::Error => "1;31",
            crate::diagnostic::Severity::Warning => "1;33",
            crate::diagnostic::Severity::Info => "1;36",
        };
        let _ = writeln!(
            out,
            "{}:{}:{}: {} {} [{}] {}",
            paint("1", &escape_text(sources.path(d.primary.file))),
            start.line,
            start.column,
            paint(severity_style, d.severity.as_str()),
            paint("1", d.code),
            name,
            escape_text(&d.message)
        );
    }
    out
}
