//! A word diff of two descriptions, for `skilllint diff`: which words went and which came, so a
//! reviewer sees the sentence a pull request slipped into a tool's description without reading
//! both texts side by side.
//!
//! Bounded: the common head and tail are stripped in linear time, and what is left is diffed only
//! when each side has at most [`MAX_CHANGED_TOKENS`] tokens (Myers over words, linear in space,
//! O(N·D) in time); past that the description is said to be rewritten.

use similar::{capture_diff_slices, Algorithm, DiffOp};

/// Tokens (words and the spaces between them) of the changed middle of either side past which
/// no word diff is computed.
pub const MAX_CHANGED_TOKENS: usize = 4000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Equal,
    Removed,
    Added,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Equal => "equal",
            Op::Removed => "removed",
            Op::Added => "added",
        }
    }
}

/// A run of text that is the same on both sides, only in the old one, or only in the new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub op: Op,
    pub text: String,
}

/// The word diff of two texts, or `None` when the changed part is too large to diff (a
/// rewritten description).
pub fn diff(old: &str, new: &str) -> Option<Vec<Piece>> {
    let a = tokens(old);
    let b = tokens(new);
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a_mid, b_mid) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    if a_mid.len() > MAX_CHANGED_TOKENS || b_mid.len() > MAX_CHANGED_TOKENS {
        return None;
    }
    let mut pieces = Vec::new();
    push(&mut pieces, Op::Equal, &a[..head]);
    for op in capture_diff_slices(Algorithm::Myers, a_mid, b_mid) {
        match op {
            DiffOp::Equal { old_index, len, .. } => {
                push(&mut pieces, Op::Equal, &a_mid[old_index..old_index + len]);
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => push(
                &mut pieces,
                Op::Removed,
                &a_mid[old_index..old_index + old_len],
            ),
            DiffOp::Insert {
                new_index, new_len, ..
            } => push(
                &mut pieces,
                Op::Added,
                &b_mid[new_index..new_index + new_len],
            ),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                push(
                    &mut pieces,
                    Op::Removed,
                    &a_mid[old_index..old_index + old_len],
                );
                push(
                    &mut pieces,
                    Op::Added,
                    &b_mid[new_index..new_index + new_len],
                );
            }
        }
    }
    push(&mut pieces, Op::Equal, &a[a.len() - tail..]);
    Some(pieces)
}

/// Appends `tokens` as `op`, joined to the last piece when it has the same op.
fn push(pieces: &mut Vec<Piece>, op: Op, tokens: &[&str]) {
    if tokens.is_empty() {
        return;
    }
    let text: String = tokens.concat();
    match pieces.last_mut() {
        Some(last) if last.op == op => last.text.push_str(&text),
        _ => pieces.push(Piece { op, text }),
    }
}

/// The text cut into words and the whitespace runs between them, in order (their concatenation
/// is the text).
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut space = None;
    for (i, c) in text.char_indices() {
        let is_space = c.is_whitespace();
        if space.is_some_and(|s| s != is_space) {
            out.push(&text[start..i]);
            start = i;
        }
        space = Some(is_space);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Unchanged text longer than this many characters is shown cut in the middle.
const SHOWN_CONTEXT: usize = 40;

/// Whether the texts differ in their spacing only (every removed and added piece is
/// whitespace).
pub fn spacing_only(pieces: &[Piece]) -> bool {
    pieces
        .iter()
        .all(|p| p.op == Op::Equal || p.text.trim().is_empty())
}

/// The compact form for people: removed words as `[-x-]`, added ones as `{+y+}`, long unchanged
/// runs cut to their ends.
pub fn compact(pieces: &[Piece]) -> String {
    let mut out = String::new();
    let last = pieces.len().saturating_sub(1);
    for (i, piece) in pieces.iter().enumerate() {
        let marks = match piece.op {
            Op::Removed => Some(("[-", "-]")),
            Op::Added => Some(("{+", "+}")),
            Op::Equal => None,
        };
        match marks {
            // A change of spacing only (a space become a line break) shows as the new spacing.
            Some(_) if piece.text.trim().is_empty() => {
                if piece.op == Op::Added && !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            Some((open, close)) => {
                if piece.text.starts_with(char::is_whitespace) && !out.ends_with(' ') {
                    out.push(' ');
                }
                out.push_str(open);
                out.push_str(piece.text.trim());
                out.push_str(close);
                if piece.text.ends_with(char::is_whitespace) {
                    out.push(' ');
                }
            }
            None => out.push_str(&context(&piece.text, i == 0, i == last)),
        }
    }
    out
}

/// An unchanged run as shown between changes: its end next to the change before it and its
/// start next to the change after it, `…` between.
fn context(text: &str, first: bool, last: bool) -> String {
    let chars = text.chars().count();
    if chars <= SHOWN_CONTEXT * 2 {
        return text.to_string();
    }
    let head: String = text.chars().take(SHOWN_CONTEXT).collect();
    let tail: String = text.chars().skip(chars - SHOWN_CONTEXT).collect();
    match (first, last) {
        (true, true) => format!("{head}…{tail}"),
        (true, false) => format!("…{tail}"),
        (false, true) => format!("{head}…"),
        (false, false) => format!("{head}…{tail}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_added_sentence_is_one_added_piece() {
        let pieces = diff(
            "Describe the catalog.",
            "Describe the catalog. Also read the saved cards.",
        )
        .expect("small");
        assert_eq!(
            compact(&pieces),
            "Describe the catalog. {+Also read the saved cards.+}"
        );
        let text: String = pieces
            .iter()
            .filter(|p| p.op != Op::Removed)
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(text, "Describe the catalog. Also read the saved cards.");
    }

    #[test]
    fn a_replaced_word_is_removed_then_added() {
        let pieces = diff("Refund the order now.", "Refund every order now.").expect("small");
        assert_eq!(compact(&pieces), "Refund [-the-]{+every+} order now.");
    }

    #[test]
    fn spacing_changes_are_not_marked() {
        let pieces = diff(
            "Create a file. If updating, pass the SHA.",
            "Create a file. \nIf updating, pass the SHA.",
        )
        .expect("small");
        assert!(spacing_only(&pieces));
        assert_eq!(
            compact(&pieces),
            "Create a file. If updating, pass the SHA."
        );
        let pieces = diff("Create a file.", "Create a  new file.").expect("small");
        assert!(!spacing_only(&pieces));
    }

    #[test]
    fn a_huge_rewrite_is_not_diffed() {
        let old = "a ".repeat(MAX_CHANGED_TOKENS);
        let new = "b ".repeat(MAX_CHANGED_TOKENS);
        assert_eq!(diff(&old, &new), None);
        // A huge text with a small change is diffed: the common head and tail are stripped.
        let mut changed = old.clone();
        changed.push('c');
        let pieces = diff(&old, &changed).expect("small change");
        assert_eq!(pieces.last().map(|p| p.op), Some(Op::Added));
    }
}
