//! Words in text, with byte offsets: splitting text into identifier-like words, and finding a
//! word where it occurs whole. Lexical only (no judgement), so the semantic layer, which reads
//! which tools a Tool Use Rules item names, and the rules can both use it.

/// True for characters that can be part of an identifier-like word (`create_event`, `v1.2`).
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `word` occurs in `text` as a whole word (not inside a longer identifier). Exact case.
pub fn contains_word(text: &str, word: &str) -> bool {
    find_word(text, word).is_some()
}

/// Byte offset of the first whole-word occurrence of `word` in `text`.
///
/// Linear in `text.len() + word.len()`: the first occurrence is found with [`find_substring`]
/// (nearly always a whole word, or the only one), and when it is not a whole word the later ones,
/// overlapping included, are all found in one pass (Knuth–Morris–Pratt). Restarting a search one
/// character after each occurrence compared the word again at every position of a long run of
/// its characters (`aaaa…` in `aaaaaaaa…`), quadratic.
pub fn find_word(text: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let whole = |start: usize| {
        let end = start + word.len();
        let before_ok = text
            .get(..start)
            .and_then(|t| t.chars().next_back())
            .is_none_or(|c| !is_word_char(c));
        let after_ok = text
            .get(end..)
            .and_then(|t| t.chars().next())
            .is_none_or(|c| !is_word_char(c));
        before_ok && after_ok
    };
    let first = find_substring(text, word)?;
    if whole(first) {
        return Some(first);
    }
    // Every occurrence starts on the word's first byte, a UTF-8 lead byte: a char boundary.
    occurrences_after(text.as_bytes(), word.as_bytes(), first).find(|start| whole(*start))
}

/// The start of every occurrence of `needle` in `haystack` after `from` (overlapping ones
/// included), in order, in one left-to-right pass over `haystack[from + 1..]`.
fn occurrences_after<'a>(
    haystack: &'a [u8],
    needle: &'a [u8],
    from: usize,
) -> impl Iterator<Item = usize> + 'a {
    // failure[i]: the length of the longest proper border of `needle[..=i]`.
    let mut failure = vec![0usize; needle.len()];
    let mut k = 0;
    for i in 1..needle.len() {
        while k > 0 && needle.get(i) != needle.get(k) {
            k = failure.get(k - 1).copied().unwrap_or(0);
        }
        if needle.get(i) == needle.get(k) {
            k += 1;
        }
        if let Some(f) = failure.get_mut(i) {
            *f = k;
        }
    }
    let mut matched = 0;
    let start = from.saturating_add(1).min(haystack.len());
    haystack
        .get(start..)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter_map(move |(i, b)| {
            while matched > 0 && needle.get(matched) != Some(b) {
                matched = failure.get(matched - 1).copied().unwrap_or(0);
            }
            if needle.get(matched) == Some(b) {
                matched += 1;
            }
            if matched == needle.len() {
                matched = failure.get(matched - 1).copied().unwrap_or(0);
                Some(start + i + 1 - needle.len())
            } else {
                None
            }
        })
}

/// The first occurrence of `needle` in `text`, like `str::find`. Texts and needles in rules are
/// short: a first-byte scan plus a compare beats setting up a substring searcher (`str::find`'s
/// Two-Way set-up dominated the tool-name rules). A match starts on the needle's first byte, a
/// UTF-8 lead byte, so the offset is always a char boundary. A needle longer than
/// [`SHORT_NEEDLE`] bytes goes to `memmem` (linear), since comparing it at every occurrence of
/// its first byte costs the text's length times the needle's.
pub fn find_substring(text: &str, needle: &str) -> Option<usize> {
    let (haystack, needle) = (text.as_bytes(), needle.as_bytes());
    let Some(&first) = needle.first() else {
        return Some(0);
    };
    if needle.len() > SHORT_NEEDLE {
        return memchr::memmem::find(haystack, needle);
    }
    let mut from = 0;
    while let Some(i) = memchr::memchr(first, haystack.get(from..)?) {
        let start = from + i;
        if haystack[start..].starts_with(needle) {
            return Some(start);
        }
        from = start + 1;
    }
    None
}

/// The longest needle [`find_substring`] compares at each occurrence of its first byte.
const SHORT_NEEDLE: usize = 64;

/// The identifier-like words of `text` with their byte offsets (letters, digits, `_`).
pub fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    // ASCII text (nearly all of it) is classified byte by byte, without decoding chars.
    if text.is_ascii() {
        let marks = text.bytes().map(|b| b.is_ascii_alphanumeric() || b == b'_');
        split_words(text, marks.enumerate())
    } else {
        split_words(text, text.char_indices().map(|(i, c)| (i, is_word_char(c))))
    }
}

/// Cuts `text` into the runs that `marks` (offset, is a word character) flags as words.
pub fn split_words(
    text: &str,
    marks: impl Iterator<Item = (usize, bool)>,
) -> std::vec::IntoIter<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, is_word) in marks {
        match (is_word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out.into_iter()
}

/// `lower_snake_case` with at least one underscore: how tool names look in prose.
pub fn looks_like_snake_case_identifier(word: &str) -> bool {
    // Most words have no underscore or do not start lowercase: reject those before splitting.
    if !word.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        || memchr::memchr(b'_', word.as_bytes()).is_none()
    {
        return false;
    }
    let mut parts = word.split('_');
    let first_ok = parts.next().is_some_and(|p| {
        p.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && p.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    });
    let mut rest = 0;
    let rest_ok = parts.all(|p| {
        rest += 1;
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    });
    first_ok && rest_ok && rest > 0
}

/// Levenshtein distance over chars, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// Splits a tool name into lowercase words on `_`, `-`, `.`, other punctuation and case changes
/// (`bulkDelete` → `bulk`, `delete`; `HTTPRequest` → `http`, `request`).
pub fn name_words(name: &str) -> Vec<String> {
    if name.is_ascii() {
        return ascii_name_words(name);
    }
    char_name_words(name)
}

fn char_name_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let previous = i.checked_sub(1).and_then(|p| chars.get(p)).copied();
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `name_words` for ASCII names, byte by byte (the same boundaries, no char decoding): each word
/// is read to its end in one tight loop, the case boundary weighed only at an upper-case letter.
fn ascii_name_words(text: &str) -> Vec<String> {
    let name = text.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < name.len() {
        if !name[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let from = i;
        i += 1;
        while let Some(&b) = name.get(i) {
            if !b.is_ascii_alphanumeric() {
                break;
            }
            if b.is_ascii_uppercase() {
                // `name[i - 1]` is the word's previous letter or digit.
                let p = name[i - 1];
                let next_lower = name.get(i + 1).is_some_and(u8::is_ascii_lowercase);
                if p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || p.is_ascii_uppercase() && next_lower
                {
                    break;
                }
            }
            i += 1;
        }
        // Every cut is between ASCII bytes, so slicing the text stays on char boundaries.
        words.push(text[from..i].to_ascii_lowercase());
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_name_words_match_the_char_version() {
        let names = [
            "bulkDelete",
            "HTTPRequest",
            "list_calendars",
            "create-event.v2",
            "getURLForID",
            "a1B2c3",
            "ABC",
            "x",
            "",
            "__a__b__",
            "Tool9Name",
            "deleteAllV2Items",
            "aB",
            "Ab",
            "AB1c",
        ];
        for name in names {
            assert_eq!(ascii_name_words(name), char_name_words(name), "{name}");
        }
        assert_eq!(name_words("bulkDelete"), vec!["bulk", "delete"]);
        assert_eq!(name_words("HTTPRequest"), vec!["http", "request"]);
    }

    #[test]
    fn ascii_name_words_match_the_char_version_on_every_short_name() {
        // Every name of up to five characters over lower, upper, digit and separators.
        let alphabet = ['a', 'B', 'C', '1', '_', '-'];
        let mut names = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = names
                .iter()
                .filter(|n| n.len() == names.last().map_or(0, String::len))
                .flat_map(|n| alphabet.iter().map(move |c| format!("{n}{c}")))
                .collect();
            names.extend(longer);
        }
        assert_eq!(names.len(), 1 + 6 + 36 + 216 + 1296 + 7776);
        for name in &names {
            assert_eq!(ascii_name_words(name), char_name_words(name), "{name}");
        }
    }

    #[test]
    fn find_substring_matches_str_find() {
        let texts = ["", "a", "abc", "xabcabc", "日本語 abc", "aaab", "ab"];
        let needles = ["", "a", "b", "abc", "ab", "aab", "語", "z", "abcd"];
        for text in texts {
            for needle in needles {
                assert_eq!(
                    find_substring(text, needle),
                    text.find(needle),
                    "{text:?} {needle:?}"
                );
            }
        }
    }

    #[test]
    fn whole_words_only() {
        assert!(contains_word("call `create_event` now", "create_event"));
        assert!(!contains_word("call create_events now", "create_event"));
        assert!(!contains_word("recreate_event", "create_event"));
        assert_eq!(find_word("a create_event", "create_event"), Some(2));
    }

    /// The search `find_word` replaced: each occurrence in turn, restarting one char after it.
    fn find_word_naive(text: &str, word: &str) -> Option<usize> {
        if word.is_empty() {
            return None;
        }
        text.char_indices().map(|(i, _)| i).find(|&start| {
            let end = start + word.len();
            text.get(start..end) == Some(word)
                && text[..start]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !is_word_char(c))
                && text[end..].chars().next().is_none_or(|c| !is_word_char(c))
        })
    }

    #[test]
    fn find_word_matches_the_naive_search() {
        let texts = [
            "",
            "a",
            "aaaa",
            "aaaa aaa",
            "aaa aaaa",
            "a.a.a.a.a.a.",
            "a.a.a.a.a.a",
            "abab.ababab abab",
            "xabcabc abc",
            "日本語abc 日本語 abc",
            "é-é é-éé-é",
            "get-x get-xget-x get-x",
        ];
        let words = [
            "",
            "a",
            "aa",
            "aaa",
            "a.a",
            "a.a.",
            "a.",
            "abab",
            "abc",
            "日本語",
            "é-é",
            "get-x",
            "x",
        ];
        for text in texts {
            for word in words {
                assert_eq!(
                    find_word(text, word),
                    find_word_naive(text, word),
                    "{text:?} {word:?}"
                );
            }
        }
        let long = "b".repeat(SHORT_NEEDLE * 3);
        let text = format!("{long}b {long}bb {long}");
        assert_eq!(find_word(&text, &long), find_word_naive(&text, &long));
        assert_eq!(find_substring(&text, &long), text.find(&long));
        assert_eq!(find_substring(&text, &format!("{long}c")), None);
    }
}
