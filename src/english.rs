//! English for messages and summaries: a count with its noun. The one copy every face uses
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

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(plural(1usize, "file"), "1 file");
        assert_eq!(plural(0usize, "error"), "0 errors");
        assert_eq!(plural(2u64, "character"), "2 characters");
    }
}
