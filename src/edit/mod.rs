//! Pure text-edit builders for fixes: applying edits to a text, and the layout facts (newline
//! style, indentation) that new text copies. [`json`] and [`markdown`] build edits that keep a
//! file's own style. No lint, no I/O: this module depends only on `source`, `diagnostic::Edit` and
//! the parse trees, and never imports `fix`, `engine`, `index`, `check` or `rules`.

pub mod json;
pub mod markdown;

use crate::diagnostic::Edit;
use crate::source::Span;

/// Applies `edits` (all for one file) to `text`. Edits are applied in span order; an edit that
/// overlaps an earlier one is skipped and returned, so the caller can retry it on the next pass.
/// Two insertions at the same offset are applied in the order given.
pub fn apply_edits<'a>(text: &str, edits: &[&'a Edit]) -> (String, Vec<&'a Edit>) {
    let mut ordered: Vec<(usize, &Edit)> = edits.iter().copied().enumerate().collect();
    ordered.sort_by_key(|(index, e)| (e.span.start, e.span.end, *index));
    let mut out = String::with_capacity(text.len() + 64);
    let mut cursor = 0;
    let mut skipped = Vec::new();
    let mut last: Option<Span> = None;
    for (_, edit) in ordered {
        let span = edit.span;
        let overlaps = last.is_some_and(|prev| {
            span.start < prev.end
                || (span.start == prev.start && !span.is_empty() && !prev.is_empty())
        });
        if overlaps
            || span.end > text.len()
            || span.start > span.end
            || !text.is_char_boundary(span.start)
            || !text.is_char_boundary(span.end)
        {
            skipped.push(edit);
            continue;
        }
        out.push_str(&text[cursor..span.start]);
        out.push_str(&edit.replacement);
        cursor = span.end;
        last = Some(span);
    }
    out.push_str(&text[cursor..]);
    (out, skipped)
}

/// The indentation (spaces and tabs) of the line holding `offset`.
pub fn indentation_at(text: &str, offset: usize) -> &str {
    let offset = crate::source::clamp_to_char_boundary(text, offset);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    let width = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..width]
}

/// The file's newline style, so inserted lines match it.
pub fn newline(text: &str) -> &'static str {
    // Most files have no `\r` at all: a SIMD scan for it, not a two-byte substring search.
    let bytes = text.as_bytes();
    if memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) == Some(&b'\n')) {
        "\r\n"
    } else {
        "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn edit(start: usize, end: usize, replacement: &str) -> Edit {
        Edit {
            file: FileId(0),
            span: Span::new(start, end),
            replacement: replacement.to_string(),
        }
    }

    #[test]
    fn applies_in_span_order_and_skips_overlaps() {
        let text = "abcdef";
        let a = edit(4, 5, "E");
        let b = edit(0, 1, "A");
        let c = edit(0, 2, "X");
        let d = edit(6, 6, "!");
        let (out, skipped) = apply_edits(text, &[&a, &b, &c, &d]);
        assert_eq!(out, "AbcdEf!");
        assert_eq!(skipped, vec![&c]);
    }

    #[test]
    fn insertions_at_one_offset_keep_their_order() {
        let one = edit(1, 1, "1");
        let two = edit(1, 1, "2");
        assert_eq!(apply_edits("ab", &[&one, &two]).0, "a12b");
    }

    #[test]
    fn helpers() {
        assert_eq!(indentation_at("a\n    b: c\n", 7), "    ");
        assert_eq!(newline("a\r\nb"), "\r\n");
        assert_eq!(newline("a\nb"), "\n");
    }
}
