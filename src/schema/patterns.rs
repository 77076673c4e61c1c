//! The `pattern` values and `patternProperties` keys of schemas that the validator's regex engine
//! cannot compile, judged together per unit, each distinct pattern once.

use super::user::pattern_limits;
use crate::parse::Node;
use crate::source::Span;
use jsonschema::Draft;
use serde_json::Value;

/// A `pattern` value or `patternProperties` key that the validator's regex engine cannot
/// compile: no value is ever checked against it, so the schema cannot be checked as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPattern {
    /// JSON pointer to the `pattern` value or the `patternProperties` key.
    pub pointer: String,
    /// The string itself: the `pattern` value or the key.
    pub span: Span,
    /// `pattern` or `patternProperties`.
    pub keyword: &'static str,
    /// `Some(n)`: this one and `n - 1` other distinct patterns of the schemas were not compiled
    /// at all, past [`MAX_PATTERNS_JUDGED`] (reported once, at the first of them).
    pub not_judged: Option<usize>,
}

/// At most this many distinct patterns are compiled per call of [`uncompilable_patterns`] (one
/// unit): ten thousand distinct patterns in one file took half a minute. Real schemas hold a
/// few dozen.
pub const MAX_PATTERNS_JUDGED: usize = 1_000;

/// How many patterns are compiled together in one schema.
pub(super) const PATTERN_BATCH: usize = 256;

/// How deep [`uncompilable_patterns`] walks: as deep as the JSON and YAML parsers nest.
pub(super) const MAX_PATTERN_DEPTH: usize = 128;

/// For each schema of `schemas`, every `pattern` and `patternProperties` key (in schema
/// positions only, so an `enum` or `default` value is never mistaken for one) that the
/// `jsonschema` crate's regex engine (fancy-regex, after translating ECMA 262 syntax) refuses, in
/// document order. The compiler is the judge: a pattern it compiles is one it checks values
/// against. All the schemas of a unit are judged together, each distinct pattern once.
pub fn uncompilable_patterns(schemas: &[&Node]) -> Vec<Vec<BadPattern>> {
    let mut found: Vec<Vec<Occurrence<'_>>> = Vec::with_capacity(schemas.len());
    for schema in schemas {
        let mut occurrences = Vec::new();
        walk_patterns(schema, &mut String::new(), 0, &mut occurrences);
        found.push(occurrences);
    }
    let mut distinct: Vec<(&'static str, &str)> = found
        .iter()
        .flatten()
        .map(|o| (o.keyword, o.pattern))
        .collect();
    // The first patterns in document order are judged, the rest counted.
    let mut seen = std::collections::HashSet::new();
    distinct.retain(|p| seen.insert(*p));
    let unjudged: std::collections::HashSet<(&'static str, &str)> = distinct
        .get(MAX_PATTERNS_JUDGED..)
        .unwrap_or_default()
        .iter()
        .copied()
        .collect();
    distinct.truncate(MAX_PATTERNS_JUDGED);
    distinct.sort_unstable();
    let refused = refused_patterns(&distinct);
    let mut first_unjudged = !unjudged.is_empty();
    found
        .into_iter()
        .map(|occurrences| {
            occurrences
                .into_iter()
                .filter_map(|o| {
                    let key = (o.keyword, o.pattern);
                    let not_judged = if unjudged.contains(&key) {
                        if !std::mem::take(&mut first_unjudged) {
                            return None;
                        }
                        Some(unjudged.len())
                    } else if refused.contains(&key) {
                        None
                    } else {
                        return None;
                    };
                    Some(BadPattern {
                        pointer: o.pointer,
                        span: o.span,
                        keyword: o.keyword,
                        not_judged,
                    })
                })
                .collect()
        })
        .collect()
}

/// How many distinct `pattern` values and `patternProperties` keys `schema` holds in schema
/// positions (as [`uncompilable_patterns`] counts them).
pub fn pattern_count(schema: &Node) -> usize {
    let mut found = Vec::new();
    walk_patterns(schema, &mut String::new(), 0, &mut found);
    let distinct: std::collections::HashSet<(&str, &str)> =
        found.iter().map(|o| (o.keyword, o.pattern)).collect();
    distinct.len()
}

/// A `pattern` value or `patternProperties` key found in a schema, not yet judged.
pub(super) struct Occurrence<'a> {
    keyword: &'static str,
    pattern: &'a str,
    pointer: String,
    span: Span,
}

/// Verdicts already reached in this process, by (keyword, pattern): the same patterns come back
/// tool after tool and file after file. Bounded by the input: every key is a string read from it.
pub(super) fn known_verdicts(
) -> &'static std::sync::Mutex<std::collections::HashMap<(&'static str, String), bool>> {
    static KNOWN: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<(&'static str, String), bool>>,
    > = std::sync::OnceLock::new();
    KNOWN.get_or_init(Default::default)
}

/// The patterns of `distinct` (sorted, distinct) that do not compile.
pub(super) fn refused_patterns<'a>(
    distinct: &[(&'static str, &'a str)],
) -> std::collections::HashSet<(&'static str, &'a str)> {
    let mut refused = std::collections::HashSet::new();
    if distinct.is_empty() {
        // Most units have no pattern: no lock on the shared verdicts.
        return refused;
    }
    let mut unknown = Vec::new();
    {
        // A poisoned lock only means another thread panicked mid-insert: the map is still usable.
        let known = known_verdicts()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for &(keyword, pattern) in distinct {
            match known.get(&(keyword, pattern.to_string())) {
                Some(true) => {}
                Some(false) => {
                    refused.insert((keyword, pattern));
                }
                None => unknown.push((keyword, pattern)),
            }
        }
    }
    if unknown.is_empty() {
        return refused;
    }
    let mut verdicts = Vec::with_capacity(unknown.len());
    // Judged a batch at a time: one schema holding every pattern of a 4 MiB file would keep
    // tens of thousands of compiled regexes alive at once (hundreds of MB).
    for batch in unknown.chunks(PATTERN_BATCH) {
        judge(batch, &mut verdicts);
    }
    let mut known = known_verdicts()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for (&(keyword, pattern), compiles) in unknown.iter().zip(verdicts) {
        known.insert((keyword, pattern.to_string()), compiles);
        if !compiles {
            refused.insert((keyword, pattern));
        }
    }
    refused
}

/// Pushes onto `verdicts` whether each pattern compiles. One schema holding them all is compiled
/// first (one compiler set-up for the lot); only when it fails are the halves tried, down to
/// the patterns at fault, so k bad patterns among n cost O(k log n) compilations more.
pub(super) fn judge(patterns: &[(&'static str, &str)], verdicts: &mut Vec<bool>) {
    let all_compile = match patterns {
        [] => return,
        [(keyword, pattern)] => pattern_compiles(keyword, pattern),
        _ => {
            let branches: Vec<Value> = patterns
                .iter()
                .map(|(keyword, pattern)| pattern_schema(keyword, pattern))
                .collect();
            compiles(&serde_json::json!({ "allOf": branches }))
        }
    };
    if all_compile || patterns.len() == 1 {
        verdicts.extend(std::iter::repeat_n(all_compile, patterns.len()));
        return;
    }
    let (left, right) = patterns.split_at(patterns.len() / 2);
    judge(left, verdicts);
    judge(right, verdicts);
}

/// The smallest schema that puts `pattern` where `keyword` does.
pub(super) fn pattern_schema(keyword: &str, pattern: &str) -> Value {
    if keyword == "pattern" {
        serde_json::json!({ "pattern": pattern })
    } else {
        serde_json::json!({ "patternProperties": { pattern: true } })
    }
}

/// Whether `schema` compiles with the options [`compile_user_schema`] uses.
pub(super) fn compiles(schema: &Value) -> bool {
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(false)
        .with_pattern_options(pattern_limits())
        .build(schema)
        .is_ok()
}

pub(super) fn walk_patterns<'a>(
    node: &'a Node,
    pointer: &mut String,
    depth: usize,
    found: &mut Vec<Occurrence<'a>>,
) {
    use crate::parse::node::push_pointer_token;
    const SINGLE: [&str; 12] = [
        "items",
        "additionalItems",
        "unevaluatedItems",
        "additionalProperties",
        "unevaluatedProperties",
        "contains",
        "propertyNames",
        "if",
        "then",
        "else",
        "not",
        "contentSchema",
    ];
    const LISTS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
    const MAPS: [&str; 6] = [
        "properties",
        "patternProperties",
        "$defs",
        "definitions",
        "dependentSchemas",
        "dependencies",
    ];
    if depth >= MAX_PATTERN_DEPTH {
        return;
    }
    let Some(members) = node.as_object() else {
        return;
    };
    // One pointer buffer for the whole walk, extended and cut back as it goes: most schemas hold
    // no pattern at all, and a string per member visited made this walk a cost on every tool.
    let at = |pointer: &mut String, token: &str| {
        let len = pointer.len();
        pointer.push('/');
        push_pointer_token(pointer, token);
        len
    };
    for member in members {
        let key = member.key.as_str();
        if key == "pattern" {
            if let Some(pattern) = member.value.as_str() {
                let len = at(pointer, key);
                found.push(Occurrence {
                    keyword: "pattern",
                    pattern,
                    pointer: pointer.clone(),
                    span: member.value.span,
                });
                pointer.truncate(len);
            }
        }
        if key == "patternProperties" {
            let outer = at(pointer, key);
            for entry in member.value.as_object().unwrap_or_default() {
                let len = at(pointer, &entry.key);
                found.push(Occurrence {
                    keyword: "patternProperties",
                    pattern: entry.key.as_str(),
                    pointer: pointer.clone(),
                    span: entry.key_span,
                });
                pointer.truncate(len);
            }
            pointer.truncate(outer);
        }
    }
    for member in members {
        let key = member.key.as_str();
        let value = &member.value;
        if MAPS.contains(&key) {
            let outer = at(pointer, key);
            for entry in value.as_object().unwrap_or_default() {
                let len = at(pointer, &entry.key);
                walk_patterns(&entry.value, pointer, depth + 1, found);
                pointer.truncate(len);
            }
            pointer.truncate(outer);
        } else if value.is_object() && SINGLE.contains(&key) {
            let len = at(pointer, key);
            walk_patterns(value, pointer, depth + 1, found);
            pointer.truncate(len);
        } else if let Some(items) = value.as_array().filter(|_| LISTS.contains(&key)) {
            let outer = at(pointer, key);
            for (index, item) in items.iter().enumerate() {
                let len = at(pointer, &index.to_string());
                walk_patterns(item, pointer, depth + 1, found);
                pointer.truncate(len);
            }
            pointer.truncate(outer);
        }
    }
}

/// Whether the validator compiles `pattern` where `keyword` puts it (a `pattern` value or a
/// `patternProperties` key).
pub(super) fn pattern_compiles(keyword: &str, pattern: &str) -> bool {
    compiles(&pattern_schema(keyword, pattern))
}
