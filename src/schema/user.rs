//! User schemas compiled for validating examples: offline (remote references removed except the
//! bundled ones), and every `pattern` matched within a per-thread budget of steps.

use super::{bundled_ref, declared_draft, BundledRetriever};
use jsonschema::{Draft, Validator};
use serde_json::Value;
use std::collections::HashMap;

/// Whether a `$ref` points outside the document (a URL or a file); such refs are never followed.
pub fn is_remote_ref(reference: &str) -> bool {
    !reference.starts_with('#')
}

/// A copy of `schema` with every non-fragment `$ref` removed, except those naming a bundled
/// schema, so it can be compiled offline and checked "as if the ref were absent".
pub fn without_remote_refs(schema: &Value) -> Value {
    let dropped = |reference: &str| is_remote_ref(reference) && bundled_ref(reference).is_none();
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, v)| !(k.as_str() == "$ref" && v.as_str().is_some_and(dropped)))
                .map(|(k, v)| (k.clone(), without_remote_refs(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_remote_refs).collect()),
        other => other.clone(),
    }
}

/// Compiles a user schema for validating examples: offline, remote refs removed except those to
/// bundled schemas (served from memory), formats not asserted, every `pattern` matched with
/// bounded work ([`BoundedPattern`]). `Err` carries the compiler's message (the schema is broken;
/// SC001/TM009 say why).
pub fn compile_user_schema(schema: &Value) -> Result<Validator, String> {
    let draft = declared_draft(schema)?;
    jsonschema::options()
        .with_draft(draft)
        .with_retriever(BundledRetriever)
        .should_validate_formats(false)
        .with_pattern_options(pattern_limits())
        .with_keyword("pattern", bounded_pattern)
        .build(&without_remote_refs(schema))
        .map_err(|e| e.to_string())
}

/// The size limits of every regex the validator compiles: a pattern compiles to at most
/// [`PATTERN_SIZE_LIMIT`] bytes (the regex crate's default is 10 MiB, and ten thousand distinct
/// patterns of a few megabytes each took half a minute to compile); past it the pattern is
/// reported as one the validator cannot compile.
pub(super) fn pattern_limits() -> jsonschema::PatternOptions<jsonschema::FancyRegex> {
    jsonschema::PatternOptions::fancy_regex()
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_SIZE_LIMIT)
}

/// How large a compiled `pattern` may be: far above what real schemas write (a Unicode
/// `[\w.-]{1,64}` takes about a tenth of it).
pub const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// The NFA-simulation steps (text bytes times pattern states) the `pattern`s of user schemas may
/// take, per [`start_pattern_budget`], when the lazy DFA gives up: about a quarter of a second.
pub const PATTERN_STEPS: u64 = 50_000_000;

/// How many compiled patterns each thread keeps for [`BoundedPattern`]; past it the cache starts
/// again.
pub(super) const BOUNDED_CACHE: usize = 256;

thread_local! {
    /// Compiled patterns by their translated text (`Err`: the bounded engine does not take it).
    static BOUNDED: std::cell::RefCell<HashMap<String, Option<crate::bounded_regex::Bounded>>> =
        std::cell::RefCell::new(HashMap::new());
    /// The steps [`BoundedPattern`] may still take on this thread.
    static STEPS_LEFT: std::cell::Cell<u64> = const { std::cell::Cell::new(PATTERN_STEPS) };
    /// The patterns not matched since the last [`take_unchecked_patterns`], with the length of
    /// the text each was not matched on.
    static UNCHECKED: std::cell::RefCell<Vec<(String, usize)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Gives the `pattern`s of user schemas validated on this thread a fresh budget of
/// [`PATTERN_STEPS`] and forgets what was not checked.
pub fn start_pattern_budget() {
    STEPS_LEFT.with(|left| left.set(PATTERN_STEPS));
    UNCHECKED.with(|unchecked| unchecked.borrow_mut().clear());
}

/// The patterns that were too costly to match since the last call (or [`start_pattern_budget`]):
/// each with the byte length of the value it was not checked against. A value not checked is
/// taken as matching, so a validation reports no failure it could not prove.
pub fn take_unchecked_patterns() -> Vec<(String, usize)> {
    UNCHECKED.with(|unchecked| std::mem::take(&mut *unchecked.borrow_mut()))
}

/// Runs `f` on the bounded compilation of `translated`, compiled on first use; `None` when the
/// bounded engine does not take it (look-around, back-references, over the size limit).
pub(super) fn with_bounded<R>(
    translated: &str,
    f: impl FnOnce(&crate::bounded_regex::Bounded) -> R,
) -> Option<R> {
    BOUNDED.with(|cache| {
        let mut cache = cache.borrow_mut();
        if !cache.contains_key(translated) {
            if cache.len() >= BOUNDED_CACHE {
                cache.clear();
            }
            cache.insert(
                translated.to_string(),
                crate::bounded_regex::Bounded::new(translated).ok(),
            );
        }
        cache.get(translated)?.as_ref().map(f)
    })
}

/// The `pattern` keyword of a user schema, matched on a lazy DFA that gives up instead of the
/// regex crate's unbounded fallback (ten patterns of `a[ab]{1000}c` on a 200 KB example took
/// half a minute). A match the budget does not cover is recorded ([`take_unchecked_patterns`])
/// and the value taken as matching.
pub(super) struct BoundedPattern {
    /// As written in the schema (what a failure quotes).
    pattern: String,
    /// In the regex crate's syntax.
    translated: String,
}

impl BoundedPattern {
    fn matches(&self, text: &str) -> bool {
        let found = with_bounded(&self.translated, |compiled| {
            STEPS_LEFT.with(|left| {
                let mut budget = left.get();
                let found = compiled.is_match(text, &mut budget);
                left.set(budget);
                found
            })
        });
        match found {
            Some(Ok(found)) => found,
            // Compiled when the schema was: only a thread that never saw it gets here, and
            // compiles it above. Taken as matching.
            None => true,
            Some(Err(_)) => {
                UNCHECKED.with(|unchecked| {
                    unchecked
                        .borrow_mut()
                        .push((self.pattern.clone(), text.len()));
                });
                true
            }
        }
    }
}

impl<'i> jsonschema::Keyword<'i> for BoundedPattern {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        match instance.as_str() {
            Some(text) if !self.matches(text) => {
                // The pattern as written: a failure's message quotes it (`Custom` with the
                // keyword `pattern`, which the wording reads like the built-in failure).
                Err(jsonschema::ValidationError::custom(self.pattern.clone()))
            }
            _ => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        instance.as_str().is_none_or(|text| self.matches(text))
    }
}

/// The validator's own `pattern` keyword, for what the bounded engine does not take.
pub(super) struct BuiltinPattern(Validator);

impl<'i> jsonschema::Keyword<'i> for BuiltinPattern {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        self.0.validate(instance)
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        self.0.is_valid(instance)
    }
}

/// The `pattern` keyword's factory: [`BoundedPattern`] for a pattern the bounded engine takes,
/// else the validator's own keyword (with its backtracking limit and the size limits).
pub(super) fn bounded_pattern<'a>(
    _parent: &'a serde_json::Map<String, Value>,
    value: &'a Value,
    _path: jsonschema::paths::Location,
) -> Result<Box<dyn for<'i> jsonschema::Keyword<'i>>, jsonschema::ValidationError<'a>> {
    if let Some(pattern) = value.as_str() {
        if let Ok(translated) = jsonschema_regex::to_rust_regex(pattern) {
            if with_bounded(&translated, |_| ()).is_some() {
                return Ok(Box::new(BoundedPattern {
                    pattern: pattern.to_string(),
                    translated: translated.into_owned(),
                }));
            }
        }
    }
    let builtin = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(false)
        .with_pattern_options(pattern_limits())
        .build(&serde_json::json!({ "pattern": value }))?;
    Ok(Box::new(BuiltinPattern(builtin)))
}
