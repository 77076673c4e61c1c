//! [`FileError`]: the one error of every file a run reads besides the repository's own (the
//! configuration, organisation policies, a baseline): where in the file, the line it quotes
//! (escaped, never more than one line: the file may be a link to anything), and what is wrong.
//! Each reader builds it; the terminal draws it as a diagnostic.

use std::ops::Range;
use std::path::{Path, PathBuf};

/// A problem in a file the user or the repository supplies (a configuration, a policy, a
/// baseline), located in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub path: PathBuf,
    /// Byte range of the offending key or value in the file.
    pub span: Option<Range<usize>>,
    /// The one line of the file an error may show (never more: the file is repository data and
    /// may be a link to anything, `/proc/self/environ` included).
    pub quote: Option<Box<Quote>>,
    pub message: String,
}

/// The part of one line of the file that an error message quotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    /// 1-based line number in the file.
    pub line: usize,
    /// Bytes from the start of the line to the start of `text` (non-zero when a long line is cut).
    pub column_offset: usize,
    /// Byte offset of `text` in the file.
    pub offset: usize,
    /// The quoted text, with control characters replaced (same byte length, so spans still fit).
    pub text: String,
    /// The offending range in file offsets, within `offset..offset + text.len()`.
    pub span: Range<usize>,
}

/// The longest stretch of one line an error quotes; a longer line is cut around the span.
pub(crate) const QUOTE_MAX: usize = 240;

impl Quote {
    /// The line of `text` holding `span.start`, cut to [`QUOTE_MAX`] bytes around the span, with
    /// the span clamped to it. `None` when the span is not inside the text.
    fn of(text: &str, span: &Range<usize>) -> Option<Quote> {
        let start = span.start.min(text.len());
        if !text.is_char_boundary(start) {
            return None;
        }
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..]
            .find(['\n', '\r'])
            .map_or(text.len(), |i| start + i);
        let mut from = line_start.max(start.saturating_sub(QUOTE_MAX / 3));
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = line_end.min(from + QUOTE_MAX);
        while !text.is_char_boundary(to) {
            to -= 1;
        }
        let end = span.end.clamp(start, to);
        let mut quoted = replace_controls(&text[from..to]);
        let mut span = start..end;
        if start == to {
            // At the end of the line (an unclosed array, a missing value): a blank stands for
            // the line break so the label has a column to point at.
            quoted.push(' ');
            span = start..start + 1;
        }
        Some(Quote {
            line: text[..line_start].matches('\n').count() + 1,
            column_offset: from - line_start,
            offset: from,
            text: quoted,
            span,
        })
    }
}

/// `text` with every control or bidi-override character replaced by a placeholder of the same
/// byte length, so a quoted line can neither drive the terminal nor shift the spans into it.
fn replace_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '\t' && crate::escape::is_unsafe_char(c) {
            match c.len_utf8() {
                1 => out.push('?'),
                2 => out.push_str("??"),
                3 => out.push('\u{fffd}'),
                _ => out.push_str("????"),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with control and bidi characters written as `\u{..}` escapes, for messages that
/// repeat a key or value from the file (the same escaping as every human output format).
pub fn escape_controls(text: &str) -> String {
    crate::escape::escape_text(text).into_owned()
}

impl FileError {
    /// An error at `span` (bytes of `text`, the file's content), quoting its line.
    pub fn located(path: &Path, text: &str, span: Range<usize>, message: String) -> FileError {
        FileError {
            path: path.to_path_buf(),
            quote: Quote::of(text, &span).map(Box::new),
            span: Some(span),
            message: escape_controls(&message),
        }
    }

    /// An error at `span` (bytes of `text`), if there is one, quoting its line.
    pub(crate) fn at(
        path: &Path,
        text: &str,
        span: Option<Range<usize>>,
        message: String,
    ) -> FileError {
        FileError {
            path: path.to_path_buf(),
            quote: span
                .as_ref()
                .and_then(|span| Quote::of(text, span))
                .map(Box::new),
            span,
            message: escape_controls(&message),
        }
    }

    /// An error about the file as a whole (unreadable, too large, a link out), quoting nothing.
    pub(crate) fn whole_file(path: &Path, message: String) -> FileError {
        FileError {
            path: path.to_path_buf(),
            span: None,
            quote: None,
            message,
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for FileError {}
