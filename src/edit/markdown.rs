//! Markdown list edits for fixes: list items are added in the list's own bullet style, marker
//! and indentation, so a fixed file reads as if a careful person had edited it. Pure text
//! arithmetic over the parsed blocks: no lint, no I/O.

use super::indentation_at;
use crate::parse::markdown::TextBlock;

/// The marker of a list item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// `-`, `*` or `+`.
    Bullet(char),
    /// `3.` or `3)`.
    Ordered(u64, char),
}

/// Where a list item sits on its line and how it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListItem {
    /// Start of the line holding the marker.
    pub line_start: usize,
    pub indent: String,
    pub marker: Marker,
    /// The spaces between the marker and the text.
    pub gap: String,
}

impl ListItem {
    /// Reads the marker line of a list item block; `None` when it does not start with a marker
    /// (an item inside a block quote, or whose text starts on a later line).
    pub fn of(text: &str, block: &TextBlock) -> Option<ListItem> {
        if !block.is_list_item {
            return None;
        }
        let start = crate::source::clamp_to_char_boundary(text, block.span.start);
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let prefix = &text[line_start..start];
        let indent = indentation_at(text, line_start);
        let rest = prefix.get(indent.len()..)?;
        let (marker, after) = match rest.chars().next()? {
            c @ ('-' | '*' | '+') => (Marker::Bullet(c), &rest[1..]),
            c if c.is_ascii_digit() => {
                let digits =
                    rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let number = rest[..digits].parse::<u64>().ok()?;
                let delimiter = rest[digits..].chars().next()?;
                if !matches!(delimiter, '.' | ')') || digits > 9 {
                    return None;
                }
                (Marker::Ordered(number, delimiter), &rest[digits + 1..])
            }
            _ => return None,
        };
        let gap_len = after.len() - after.trim_start_matches(' ').len();
        if gap_len == 0 && !after.is_empty() {
            return None;
        }
        Some(ListItem {
            line_start,
            indent: indent.to_string(),
            marker,
            gap: " ".repeat(gap_len.clamp(1, 4)),
        })
    }

    fn marker_text(&self, offset: u64) -> String {
        match self.marker {
            Marker::Bullet(c) => c.to_string(),
            Marker::Ordered(n, d) => format!("{}{d}", n.saturating_add(offset)),
        }
    }

    /// The column where the item's text starts; continuation lines are indented at least this far.
    pub fn content_column(&self) -> usize {
        self.indent_width() + self.marker_text(0).len() + self.gap.len()
    }

    /// The display width of the item's indentation.
    pub fn indent_width(&self) -> usize {
        width(&self.indent)
    }

    pub fn is_ordered(&self) -> bool {
        matches!(self.marker, Marker::Ordered(..))
    }

    /// Lines written like this item, numbered on from it for an ordered list (`first_number`
    /// offsets the first new number), each ended by `nl`; separated by blank lines when `loose`;
    /// hard-wrapped at `wrap` columns when the list around them is.
    pub fn render(
        &self,
        items: &[String],
        first_number: u64,
        loose: bool,
        nl: &str,
        wrap: Option<usize>,
    ) -> String {
        let mut out = String::new();
        for (i, item) in items.iter().enumerate() {
            if loose && i > 0 {
                out.push_str(nl);
            }
            let prefix = format!(
                "{}{}{}",
                self.indent,
                self.marker_text(first_number + i as u64),
                self.gap
            );
            match wrap {
                Some(width) => {
                    let continuation = " ".repeat(prefix.chars().count());
                    out.push_str(&wrap_words(item, &prefix, &continuation, width, nl));
                }
                None => out.push_str(&format!("{prefix}{item}")),
            }
            out.push_str(nl);
        }
        out
    }
}

/// Fills `text` into lines of at most `width` characters (a longer word gets a line of its own),
/// breaking only at spaces outside code spans and never before a word that would start a new
/// block (a list marker or a heading).
fn wrap_words(text: &str, first: &str, continuation: &str, width: usize, nl: &str) -> String {
    let mut out = first.to_string();
    let mut length = first.chars().count();
    let mut empty = true;
    for word in words_outside_code(text) {
        let size = word.chars().count();
        let starts_block = word.starts_with(['-', '+', '*', '#', '>'])
            || word
                .trim_end_matches(['.', ')'])
                .bytes()
                .all(|b| b.is_ascii_digit());
        if !empty && length + 1 + size > width && !starts_block {
            out.push_str(nl);
            out.push_str(continuation);
            length = continuation.chars().count();
            empty = true;
        }
        if !empty {
            out.push(' ');
            length += 1;
        }
        out.push_str(word);
        length += size;
        empty = false;
    }
    out
}

/// The space-separated words of `text`, keeping each code span (which may hold spaces) whole.
fn words_outside_code(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start = 0;
    let mut open: Option<usize> = None;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => {
                let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
                open = match open {
                    None => Some(run),
                    Some(n) if n == run => None,
                    other => other,
                };
                i += run;
                continue;
            }
            b' ' if open.is_none() => {
                if i > start {
                    words.push(&text[start..i]);
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        words.push(&text[start..]);
    }
    words
}

/// The display width of leading whitespace (tabs to the next multiple of four).
fn width(indent: &str) -> usize {
    indent
        .chars()
        .fold(0, |w, c| if c == '\t' { w + 4 - w % 4 } else { w + 1 })
}

/// The offset just past the line holding `offset` (after its newline), or the end of the text.
pub fn line_after(text: &str, offset: usize) -> usize {
    let offset = crate::source::clamp_to_char_boundary(text, offset.min(text.len()));
    text[offset..]
        .find('\n')
        .map_or(text.len(), |i| offset + i + 1)
}

/// The end of a list item with its nested items and continuation lines: the offset just past its
/// last non-blank line, never beyond `limit`.
pub fn item_end(text: &str, block: &TextBlock, item: &ListItem, limit: usize) -> usize {
    let limit = limit.min(text.len());
    let mut pos = line_after(text, block.span.end.saturating_sub(1).max(block.span.start));
    let mut end = pos.min(limit);
    let column = item.content_column();
    while pos < limit {
        let next = line_after(text, pos).min(limit);
        let line = &text[pos..next];
        if line.trim().is_empty() {
            pos = next;
            continue;
        }
        let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        if width(indent) < column {
            break;
        }
        end = next;
        pos = next;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_items_and_their_extent() {
        let text = "## Rules\n\n  * first\n    continued\n    - nested\n  * second\n\nAfter.\n";
        let md = crate::parse::markdown::parse_markdown(text, 0);
        let blocks: Vec<&TextBlock> = md.blocks.iter().collect();
        let first = ListItem::of(text, blocks[0]).expect("item");
        assert_eq!(first.indent, "  ");
        assert_eq!(first.marker, Marker::Bullet('*'));
        assert_eq!(first.content_column(), 4);
        let end = item_end(text, blocks[0], &first, text.len());
        assert_eq!(&text[end..], "  * second\n\nAfter.\n");
        assert_eq!(
            first.render(&["x".to_string(), "y".to_string()], 0, false, "\n", None),
            "  * x\n  * y\n"
        );
        let text = "1. one\n2) two\n";
        let md = crate::parse::markdown::parse_markdown(text, 0);
        let second = ListItem::of(text, &md.blocks[1]).expect("item");
        assert_eq!(second.marker, Marker::Ordered(2, ')'));
        assert_eq!(
            second.render(&["x".to_string()], 1, false, "\n", None),
            "3) x\n"
        );
        let wrapped = second.render(&["`a b` c d - e".to_string()], 0, false, "\r\n", Some(10));
        assert_eq!(wrapped, "2) `a b` c\r\n   d - e\r\n");
        let quoted = "> - in a quote\n";
        let md = crate::parse::markdown::parse_markdown(quoted, 0);
        assert_eq!(ListItem::of(quoted, &md.blocks[0]), None);
    }
}
