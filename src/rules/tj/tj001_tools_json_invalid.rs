//! TJ001 `tools-json-invalid`: tools.json is not valid JSON.

use super::lowercase_first;
use crate::check::{Sink, Unit};
use crate::source::Span;

pub(super) fn tools_json_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, doc) in unit.tools_docs() {
        let Some(error) = &doc.parse_error else {
            continue;
        };
        let text = unit.text(id);
        let file = unit.repo.file_name(id);
        let message = format!(
            "`{file}` is not valid JSON: {}",
            lowercase_first(&error.message)
        );
        let unterminated = error.message.starts_with("Unterminated");
        let at_end = error.span.start >= text.trim_end().len();
        if unterminated || at_end {
            // The document stops early: the parser gave up at the end of the file.
            // The last character, so the caret has something to point at.
            let end_offset = text.trim_end().len();
            let last_len = text[..end_offset]
                .chars()
                .next_back()
                .map_or(0, char::len_utf8);
            let end = Span::new(end_offset - last_len, end_offset);
            let diagnostic = sink.report(id, end, message);
            diagnostic
                .label("the file ends here")
                .help("close every open object and array (the file looks truncated), or regenerate it from its requirement");
            if unterminated && error.span.start < end.start {
                let opening = Span::new(error.span.start, error.span.start + 1);
                let what = if error.message.contains("array") {
                    "this array is never closed"
                } else if error.message.contains("string") {
                    "this string is never closed"
                } else {
                    "this object is never closed"
                };
                diagnostic.secondary(id, opening, what);
            }
        } else {
            sink.report(id, error.span, message)
                .label("the parser stopped here")
                .help("fix the syntax at or just before this point (an unclosed brace, a trailing comma, a stray quote); nothing else in this file is checked until it parses");
        }
    }
}
