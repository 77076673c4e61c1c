//! English for messages and summaries: a count with its noun, a list joined with `and`. The one copy every face uses
//! (render's summary, the fix report, the schema messages, the binary's report), so that they
//! cannot drift apart. It imports nothing of the crate.

/// `1 file`, `2 files`, `0 errors`: the count and its noun, with an `s` unless the count is one.
/// Only regular nouns: a caller with another plural words it itself.
pub fn plural<N>(n: N, word: &str) -> String
where
    N: Copy + PartialEq + From<u8> + std::fmt::Display,
{
    if n == N::from(1) {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::{join_and, plural};

    #[test]
    fn a_list_joins_its_last_item_with_and() {
        let items = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(join_and(&items(&[])), "");
        assert_eq!(join_and(&items(&["a"])), "a");
        assert_eq!(join_and(&items(&["a", "b"])), "a and b");
        assert_eq!(join_and(&items(&["a", "b", "c"])), "a, b and c");
    }

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(plural(1usize, "file"), "1 file");
        assert_eq!(plural(0usize, "error"), "0 errors");
        assert_eq!(plural(2u64, "character"), "2 characters");
    }
}
