//! The patterns of `matches`, compiled once per thread and kept: the cel crate (built without its
//! `regex` feature) would compile the pattern on every call, and both the interpreter's
//! `matches` and the shortcut in [`super::fast`] call this.

/// How many compiled patterns each thread keeps; past it the cache starts again (patterns read
/// from the linted files could otherwise fill memory).
const PATTERN_CACHE: usize = 256;
/// A pattern may compile to at most this many bytes (the regex crate's own guard against
/// patterns that explode).
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

thread_local! {
    static PATTERNS: std::cell::RefCell<std::collections::HashMap<String, Result<regex::Regex, String>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Whether `text` matches `pattern` (RE2 syntax, linear time), the compiled pattern kept; `Err`:
/// why the pattern is refused.
pub fn is_match(text: &str, pattern: &str) -> Result<bool, String> {
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        // Looked up before inserting: the common case, a pattern seen before, copies nothing.
        if let Some(compiled) = cache.get(pattern) {
            return compiled
                .as_ref()
                .map(|re| re.is_match(text))
                .map_err(Clone::clone);
        }
        if cache.len() >= PATTERN_CACHE {
            cache.clear();
        }
        let compiled = cache.entry(pattern.to_string()).or_insert_with(|| {
            regex::RegexBuilder::new(pattern)
                .size_limit(PATTERN_SIZE_LIMIT)
                .build()
                .map_err(|e| format!("`{pattern}` is not a valid pattern: {e}"))
        });
        compiled
            .as_ref()
            .map(|re| re.is_match(text))
            .map_err(Clone::clone)
    })
}
