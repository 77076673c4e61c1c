//! `path:line:col: severity CODE [name] message`, one line per diagnostic.

use crate::catalog::Catalog;
use crate::diagnostic::Diagnostic;
use crate::escape::escape_text;
use crate::source::Sources;
use crate::source::{FileId, LineCursor};
use std::fmt::Write as _;

pub fn render(sources: Sources<'_>, diagnostics: &[Diagnostic], catalog: &Catalog) -> String {
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
        let _ = writeln!(
            out,
            "{}:{}:{}: {} {} [{}] {}",
            escape_text(&sources.file(d.primary.file).rel_path),
            start.line,
            start.column,
            d.severity,
            d.code,
            name,
            escape_text(&d.message)
        );
    }
    out
}
