//! Small text helpers shared by rules: names, suggestions, sentences. The whole-word search and
//! word splitting live in [`crate::parse::words`] (the semantic layer reads them too) and are
//! re-exported here for the rules.

pub use crate::parse::words::{
    contains_word, edit_distance, find_substring, find_word, is_word_char,
    looks_like_snake_case_identifier, name_words, split_words, words,
};

/// The candidate closest to `name`, when it is close enough to be a plausible typo or rename.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name_chars = name.chars().count();
    let limit = (name_chars / 2).max(2);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        // The distance is at least the difference in length: such a candidate is never within
        // the limit, and is skipped without computing it (same answer, no cost).
        let candidate_chars = candidate.chars().count();
        if candidate_chars.abs_diff(name_chars) > limit {
            continue;
        }
        let cells = (name_chars + 1) * (candidate_chars + 1);
        if !crate::check::spend_suggestion_cells(cells) {
            return None;
        }
        let distance = edit_distance(name, candidate);
        if distance <= limit && best.is_none_or(|b| (distance, candidate) < b) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Case-insensitive substring test.
pub fn contains_ignore_case(text: &str, needle: &str) -> bool {
    // ASCII on both sides (nearly always) needs no lowercased copies.
    if text.is_ascii() && needle.is_ascii() {
        return contains_ascii_ignore_case(text, needle);
    }
    text.to_lowercase().contains(&needle.to_lowercase())
}

/// Whether `needle` occurs in `text` comparing ASCII letters case-insensitively (other bytes
/// exactly), without allocating.
pub fn contains_ascii_ignore_case(text: &str, needle: &str) -> bool {
    let (haystack, needle) = (text.as_bytes(), needle.as_bytes());
    let Some(&first) = needle.first() else {
        return true;
    };
    let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    let mut from = 0;
    while let Some(i) = memchr::memchr2(lower, upper, &haystack[from..]) {
        let start = from + i;
        if haystack
            .get(start..start + needle.len())
            .is_some_and(|candidate| candidate.eq_ignore_ascii_case(needle))
        {
            return true;
        }
        from = start + 1;
    }
    false
}

/// Splits `text` into sentences (on `.`, `!`, `?` followed by whitespace, and on line ends).
pub fn sentences(text: &str) -> Vec<&str> {
    /// The bytes that can end a sentence: one table lookup per byte rejects all the others.
    const MARK: [bool; 256] = {
        let mut table = [false; 256];
        table[b'.' as usize] = true;
        table[b'!' as usize] = true;
        table[b'?' as usize] = true;
        table[b'\n' as usize] = true;
        table
    };
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if !MARK[usize::from(*b)] {
            continue;
        }
        let boundary = *b == b'\n' || bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace());
        if boundary {
            let sentence = text[start..=i].trim();
            if !sentence.is_empty() {
                out.push(sentence);
            }
            start = i + 1;
        }
    }
    let tail = text[start..].trim();
    if !tail.is_empty() {
        out.push(tail);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_and_suggestions() {
        assert!(looks_like_snake_case_identifier("delete_event"));
        assert!(!looks_like_snake_case_identifier("delete"));
        assert!(!looks_like_snake_case_identifier("Delete_event"));
        assert!(!looks_like_snake_case_identifier("a__b"));
        assert_eq!(
            nearest("create_evnt", ["create_event", "list_events"]),
            Some("create_event")
        );
        assert_eq!(nearest("zzz", ["create_event"]), None);
    }

    #[test]
    fn sentence_splitting() {
        assert_eq!(sentences("One. Two!\nThree"), vec!["One.", "Two!", "Three"]);
        assert_eq!(sentences("v1.2 is fine."), vec!["v1.2 is fine."]);
    }
}
