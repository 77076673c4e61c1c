//! The patterns of `matches`, compiled once per thread and kept: the cel crate (built without its
//! `regex` feature) would compile the pattern on every call, and both the interpreter's
//! `matches` and the shortcut in [`super::fast`] call this.
//!
//! Matching is bounded by work, not by calls. A pattern runs on a lazy DFA whose cache is small
//! and which gives up when it keeps rebuilding states instead of reading text (`a[ab]{1000}c`
//! has 2^1000 states: a general engine falls back to simulating the NFA, 1,000 states per byte,
//! ten seconds on a megabyte). When the DFA gives up (or cannot run: a Unicode `\b` on
//! non-ASCII text), the NFA simulation runs only if the text's length times the pattern's states
//! is within [`FALLBACK_LIMIT`]; otherwise the call is refused as too costly, which the caller
//! reports as SL011.

use crate::bounded_regex::Bounded;
use std::cell::RefCell;

/// How many compiled patterns each thread keeps; past it the cache starts again (patterns read
/// from the linted files could otherwise fill memory).
const PATTERN_CACHE: usize = 64;
/// The most NFA-simulation steps (text bytes times pattern states) the calls of one evaluation
/// (one expression on one entity) may take when the DFA gives up: about a tenth of a second.
pub const FALLBACK_LIMIT: u64 = 20_000_000;

/// Why a call did not answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The pattern is not valid (or compiles to more than the size limit).
    Invalid(String),
    /// The pattern is too costly on this text.
    TooCostly(String),
}

struct Compiled(Bounded);

impl Compiled {
    fn new(pattern: &str) -> Result<Compiled, String> {
        Bounded::new(pattern)
            .map(Compiled)
            .map_err(|e| format!("`{pattern}` is not a valid pattern: {e}"))
    }

    fn is_match(&self, text: &str, pattern: &str) -> Result<bool, Refusal> {
        let spent = FALLBACK_SPENT.with(std::cell::Cell::get);
        let mut budget = FALLBACK_LIMIT.saturating_sub(spent);
        let found = self.0.is_match(text, &mut budget).map_err(|steps| {
            Refusal::TooCostly(format!(
                "`{pattern}` is too costly to match on a text of {} bytes (about {steps} steps, over the limit of {FALLBACK_LIMIT})",
                text.len()
            ))
        })?;
        FALLBACK_SPENT.with(|s| s.set(FALLBACK_LIMIT - budget));
        Ok(found)
    }
}

type Patterns = std::collections::HashMap<String, Result<Compiled, String>>;

thread_local! {
    static PATTERNS: RefCell<Patterns> = RefCell::new(Patterns::new());
    /// Why the last call refused as too costly, for the evaluator: the interpreter turns the
    /// refusal into an error, and the evaluator reports that error as SL011, not SL010.
    static REFUSED: RefCell<Option<String>> = const { RefCell::new(None) };
    /// NFA-simulation steps taken since [`start_evaluation`].
    static FALLBACK_SPENT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Starts the fallback meter for one evaluation; returns the steps the previous one took.
pub fn start_evaluation() -> u64 {
    FALLBACK_SPENT.with(|spent| spent.replace(0))
}

/// Why a `matches` call since the last [`take_refusal`] was refused as too costly, if one was.
pub fn take_refusal() -> Option<String> {
    REFUSED.with(|refused| refused.borrow_mut().take())
}

fn note(result: Result<bool, Refusal>) -> Result<bool, Refusal> {
    if let Err(Refusal::TooCostly(why)) = &result {
        REFUSED.with(|refused| *refused.borrow_mut() = Some(why.clone()));
    }
    result
}

/// Whether `text` matches `pattern` (RE2 syntax, linear time), the compiled pattern kept; `Err`:
/// why the pattern is refused, or why it was not run on this text.
pub fn is_match(text: &str, pattern: &str) -> Result<bool, Refusal> {
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        // Looked up before inserting: the common case, a pattern seen before, copies nothing.
        if let Some(compiled) = cache.get(pattern) {
            return match compiled {
                Ok(compiled) => note(compiled.is_match(text, pattern)),
                Err(why) => Err(Refusal::Invalid(why.clone())),
            };
        }
        if cache.len() >= PATTERN_CACHE {
            cache.clear();
        }
        let compiled = cache
            .entry(pattern.to_string())
            .or_insert_with(|| Compiled::new(pattern));
        match compiled {
            Ok(compiled) => note(compiled.is_match(text, pattern)),
            Err(why) => Err(Refusal::Invalid(why.clone())),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_as_re2_does() {
        assert_eq!(is_match("abc-1", "^[a-z]+-[0-9]$"), Ok(true));
        assert_eq!(is_match("ABC", "^[a-z]+$"), Ok(false));
        assert_eq!(is_match("say héllo", r"\bhéllo\b"), Ok(true));
        assert_eq!(is_match("x", "(?i)X"), Ok(true));
        assert!(matches!(is_match("x", "("), Err(Refusal::Invalid(_))));
    }

    #[test]
    fn a_pattern_whose_dfa_explodes_is_refused_on_a_long_text_quickly() {
        // `a` and `b` in a pseudo-random order: on a periodic text such as `abab…` the lazy DFA
        // meets few states and answers quickly, so only an irregular text explodes it.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let text: String = (0..1_000_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state % 2 == 0 {
                    'a'
                } else {
                    'b'
                }
            })
            .collect();
        start_evaluation();
        let result = is_match(&text, "a[ab]{1000}c");
        assert!(matches!(result, Err(Refusal::TooCostly(_))), "{result:?}");
        // On a short text it is answered.
        start_evaluation();
        assert_eq!(is_match(&"ab".repeat(200), "a[ab]{1000}c"), Ok(false));
    }
}
