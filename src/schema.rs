//! JSON Schema machinery on the `jsonschema` crate (default features off: it cannot fetch
//! anything). Our own contract schemas are embedded and compiled once; user schemas (TOOL.md
//! `inputs`/`outputs`, every tool's input schema) are meta-validated against draft 2020-12 and
//! compiled with remote references removed. Errors carry a JSON pointer into the instance, which
//! [`span_for_pointer`] maps back to the exact key or value in the file.

use crate::parse::node::Member;
use crate::parse::node::Value as NodeValue;
use crate::parse::Node;
use crate::source::Span;
use jsonschema::{Draft, Validator};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The embedded schemas, written for skilllint from the agentproto AIP facts.
pub const EMBEDDED: [(&str, &str); 12] = [
    ("tool", include_str!("../schemas/tool.schema.json")),
    ("driver", include_str!("../schemas/driver.schema.json")),
    (
        "driver-http",
        include_str!("../schemas/driver-http.schema.json"),
    ),
    (
        "driver-mcp",
        include_str!("../schemas/driver-mcp.schema.json"),
    ),
    (
        "driver-sdk",
        include_str!("../schemas/driver-sdk.schema.json"),
    ),
    ("secrets", include_str!("../schemas/secrets.schema.json")),
    // Plugin manifests and marketplaces, written for skilllint from each host's public docs.
    (
        "claude-plugin",
        include_str!("../schemas/plugins/claude-plugin.schema.json"),
    ),
    (
        "claude-marketplace",
        include_str!("../schemas/plugins/claude-marketplace.schema.json"),
    ),
    (
        "codex-plugin",
        include_str!("../schemas/plugins/codex-plugin.schema.json"),
    ),
    (
        "codex-marketplace",
        include_str!("../schemas/plugins/codex-marketplace.schema.json"),
    ),
    (
        "cursor-plugin",
        include_str!("../schemas/plugins/cursor-plugin.schema.json"),
    ),
    (
        "cursor-marketplace",
        include_str!("../schemas/plugins/cursor-marketplace.schema.json"),
    ),
];

/// A schema of the agentproto ecosystem, bundled so that user schemas referencing it by its
/// published URL are checked offline: nothing is ever fetched.
#[derive(Debug)]
pub struct BundledSchema {
    /// The AIP that defines it (`AIP-27`).
    pub aip: &'static str,
    /// The revision of the AIP text it was written from.
    pub version: &'static str,
    /// Where it lives in this repository.
    pub path: &'static str,
    /// The URLs that name it, without fragment: the AIP documents spell one path under `/docs/`
    /// and their own schemas another under `/schemas/`.
    pub urls: &'static [&'static str],
    text: &'static str,
}

/// The AIP schemas the ecosystem's contracts reference as types, written for skilllint from the
/// AIP texts. The AIP-14 examples reference the AIP-27 `ref` value for workspace files.
pub const BUNDLED: [BundledSchema; 1] = [BundledSchema {
    aip: "AIP-27",
    version: "draft of 2026-04-30",
    path: "schemas/aip/aip-27/REF.schema.json",
    urls: &[
        "https://agentproto.sh/docs/aip-27/REF.schema.json",
        "https://agentproto.sh/schemas/aip-27/REF.schema.json",
    ],
    text: include_str!("../schemas/aip/aip-27/REF.schema.json"),
}];

/// The bundled schema named by `url` (no fragment), parsed once per process.
fn bundled_document(url: &str) -> Option<(&'static BundledSchema, &'static Value)> {
    static PARSED: [OnceLock<Option<Value>>; BUNDLED.len()] =
        [const { OnceLock::new() }; BUNDLED.len()];
    let index = BUNDLED.iter().position(|b| b.urls.contains(&url))?;
    let document = PARSED[index]
        .get_or_init(|| serde_json::from_str(BUNDLED[index].text).ok())
        .as_ref()?;
    Some((&BUNDLED[index], document))
}

/// The bundled schema a `$ref` names, when it names one and its fragment (empty, or a JSON
/// pointer) exists in it. Any other reference stays remote: SC013 reports it and validation
/// drops it.
pub fn bundled_ref(reference: &str) -> Option<&'static BundledSchema> {
    let (url, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let (schema, document) = bundled_document(url)?;
    let found =
        fragment.is_empty() || (fragment.starts_with('/') && document.pointer(fragment).is_some());
    found.then_some(schema)
}

/// The bundled schema whose URL a `$ref` starts with, whatever its fragment.
pub fn bundled_url(reference: &str) -> Option<&'static BundledSchema> {
    let url = reference.split_once('#').map_or(reference, |(url, _)| url);
    BUNDLED.iter().find(|b| b.urls.contains(&url))
}

/// Serves the bundled schemas to the validator and refuses everything else, so compiling a user
/// schema never touches the network or the file system.
struct BundledRetriever;

impl jsonschema::Retrieve for BundledRetriever {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let url = uri.as_str();
        let url = url.split_once('#').map_or(url, |(base, _)| base);
        match bundled_document(url) {
            Some((_, document)) => Ok(document.clone()),
            None => {
                Err(format!("`{url}` is not bundled with skilllint and is never fetched").into())
            }
        }
    }
}

/// One validation failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// JSON pointer into the validated instance (`/retry/max_attempts`, `` for the root).
    pub pointer: String,
    /// The schema keyword that failed (`required`, `type`, `additionalProperties`, …).
    pub keyword: String,
    pub message: String,
}

fn compile_embedded(text: &str) -> Result<Validator, String> {
    let schema: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(false)
        .build(&schema)
        .map_err(|e| e.to_string())
}

/// The compiled embedded schema called `name`. Each is compiled on its first use, once per
/// process: a run without drivers never compiles theirs, and threads that need different
/// schemas compile them at the same time.
pub fn embedded(name: &str) -> Option<&'static Validator> {
    static COMPILED: [OnceLock<Option<Validator>>; EMBEDDED.len()] =
        [const { OnceLock::new() }; EMBEDDED.len()];
    let index = EMBEDDED.iter().position(|(n, _)| *n == name)?;
    let (_, text) = EMBEDDED[index];
    COMPILED[index]
        .get_or_init(|| compile_embedded(text).ok())
        .as_ref()
}

fn last_keyword(schema_path: &str) -> String {
    schema_path
        .rsplit('/')
        .find(|segment| !segment.is_empty() && segment.parse::<usize>().is_err())
        .unwrap_or_default()
        .to_string()
}

fn collect(errors: jsonschema::ErrorIterator<'_>) -> Vec<SchemaError> {
    let mut out: Vec<SchemaError> = errors
        .map(|e| SchemaError {
            pointer: e.instance_path().as_str().to_string(),
            keyword: last_keyword(e.schema_path().as_str()),
            message: e.to_string(),
        })
        .collect();
    out.sort_by(|a, b| {
        (&a.pointer, &a.keyword, &a.message).cmp(&(&b.pointer, &b.keyword, &b.message))
    });
    out.dedup();
    out
}

/// Validates `instance` against a compiled schema; every failure, sorted by pointer.
pub fn validate(validator: &Validator, instance: &Value) -> Vec<SchemaError> {
    collect(validator.iter_errors(instance))
}

/// Validates like [`validate`], shaped for "one diagnostic per failing key" and safe to print:
/// - an `additionalProperties` failure becomes one error per unexpected key, its pointer ending at
///   that key (so [`span_for_pointer`] lands on it);
/// - a `required` failure points at the missing key (`/implements/0/version`), which is not in the
///   instance: the parent is everything before the last `/`;
/// - `message` states only the expectation (`must be an integer, found string`), never the
///   instance's value, which may be a secret.
pub fn validate_at_keys(validator: &Validator, instance: &Value) -> Vec<SchemaError> {
    use jsonschema::error::ValidationErrorKind as Kind;
    let mut out = Vec::new();
    for error in validator.iter_errors(instance) {
        let pointer = error.instance_path().as_str().to_string();
        let keyword = last_keyword(error.schema_path().as_str());
        let child = |key: &str| format!("{pointer}/{}", crate::parse::node::pointer_token(key));
        match error.kind() {
            Kind::AdditionalProperties { unexpected }
            | Kind::UnevaluatedProperties { unexpected } => {
                for key in unexpected {
                    out.push(SchemaError {
                        pointer: child(key),
                        keyword: "additionalProperties".to_string(),
                        message: "is not a known key".to_string(),
                    });
                }
            }
            Kind::Required { property } => out.push(SchemaError {
                pointer: child(property.as_str().unwrap_or_default()),
                keyword: "required".to_string(),
                message: "is required".to_string(),
            }),
            kind => out.push(SchemaError {
                pointer,
                keyword,
                message: expectation(kind, error.instance()),
            }),
        }
    }
    out.sort_by(|a, b| {
        (&a.pointer, &a.keyword, &a.message).cmp(&(&b.pointer, &b.keyword, &b.message))
    });
    out.dedup();
    out
}

/// The JSON type of a value as schemas name it (`integer` for whole numbers).
pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A schema constant as a message shows it: strings bare, everything else as JSON.
fn show(value: &Value) -> String {
    match value {
        Value::String(s) => format!("`{s}`"),
        other => format!("`{other}`"),
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `an integer`, `a string`, `null`.
pub fn with_article(type_name: &str) -> String {
    match type_name {
        "array" | "integer" | "object" => format!("an {type_name}"),
        "null" => "null".to_string(),
        _ => format!("a {type_name}"),
    }
}

/// What a failed keyword expected, without quoting the failing value.
fn expectation(kind: &jsonschema::error::ValidationErrorKind, instance: &Value) -> String {
    use jsonschema::error::{TypeKind, ValidationErrorKind as Kind};
    let found = json_type_name(instance);
    match kind {
        Kind::Type { kind } => {
            let expected: Vec<String> = match kind {
                TypeKind::Single(t) => vec![with_article(t.as_str())],
                TypeKind::Multiple(set) => set.iter().map(|t| with_article(t.as_str())).collect(),
            };
            format!("must be {}, found {found}", expected.join(" or "))
        }
        Kind::Enum { options } => match options.as_array() {
            Some(items) => format!(
                "must be one of {}",
                items.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            None => format!("must be {}", show(options)),
        },
        Kind::Constant { expected_value } => format!("must be {}", show(expected_value)),
        Kind::Pattern { pattern } => format!("must match `{pattern}`"),
        Kind::MinLength { limit } => {
            format!(
                "must be at least {} long",
                plural(*limit, "character", "characters")
            )
        }
        Kind::MaxLength { limit } => {
            format!(
                "must be at most {} long",
                plural(*limit, "character", "characters")
            )
        }
        Kind::Minimum { limit } => format!("must be at least {limit}"),
        Kind::Maximum { limit } => format!("must be at most {limit}"),
        Kind::ExclusiveMinimum { limit } => format!("must be greater than {limit}"),
        Kind::ExclusiveMaximum { limit } => format!("must be less than {limit}"),
        Kind::MinItems { limit } => {
            format!("must have at least {}", plural(*limit, "item", "items"))
        }
        Kind::MaxItems { limit } => {
            format!("must have at most {}", plural(*limit, "item", "items"))
        }
        Kind::MinProperties { limit } => {
            format!("must have at least {}", plural(*limit, "key", "keys"))
        }
        Kind::MaxProperties { limit } => {
            format!("must have at most {}", plural(*limit, "key", "keys"))
        }
        Kind::UniqueItems => "must not list the same item twice".to_string(),
        Kind::MultipleOf { multiple_of } => format!("must be a multiple of {multiple_of}"),
        Kind::Format { format } => format!("must be a valid `{format}`"),
        Kind::Not { .. } | Kind::FalseSchema => "is not allowed here".to_string(),
        Kind::AnyOf { .. } | Kind::OneOfNotValid { .. } => {
            "matches none of the allowed forms".to_string()
        }
        Kind::OneOfMultipleValid { .. } => "matches more than one of the allowed forms".to_string(),
        Kind::PropertyNames { .. } => "has a key whose name is not allowed".to_string(),
        _ => "does not match the schema".to_string(),
    }
}

/// The drafts whose `$schema` URIs we recognise. Anything else is reported, never fetched.
pub fn declared_draft(schema: &Value) -> Result<Draft, String> {
    let Some(declared) = schema.get("$schema") else {
        return Ok(Draft::Draft202012);
    };
    let Some(uri) = declared.as_str() else {
        return Err("`$schema` must be a string".to_string());
    };
    let trimmed = uri.trim_end_matches('#').trim_end_matches('/');
    let trimmed = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"))
        .unwrap_or(trimmed);
    match trimmed {
        "json-schema.org/draft/2020-12/schema" => Ok(Draft::Draft202012),
        "json-schema.org/draft/2019-09/schema" => Ok(Draft::Draft201909),
        "json-schema.org/draft-07/schema" => Ok(Draft::Draft7),
        "json-schema.org/draft-06/schema" => Ok(Draft::Draft6),
        "json-schema.org/draft-04/schema" => Ok(Draft::Draft4),
        _ => Err(format!(
            "unknown `$schema` `{uri}`: skilllint checks drafts 4, 6, 7, 2019-09 and 2020-12"
        )),
    }
}

/// Checks that `schema` is itself a valid JSON Schema of its declared draft (2020-12 when it
/// declares none). An unknown `$schema` is one error, not a crash or a download.
pub fn meta_validate(schema: &Value) -> Vec<SchemaError> {
    let draft = match declared_draft(schema) {
        Ok(draft) => draft,
        Err(message) => {
            return vec![SchemaError {
                pointer: "/$schema".to_string(),
                keyword: "$schema".to_string(),
                message,
            }]
        }
    };
    let validator = match draft {
        Draft::Draft4 => jsonschema::draft4::meta::validator(),
        Draft::Draft6 => jsonschema::draft6::meta::validator(),
        Draft::Draft7 => jsonschema::draft7::meta::validator(),
        Draft::Draft201909 => jsonschema::draft201909::meta::validator(),
        _ => jsonschema::draft202012::meta::validator(),
    };
    // Almost every schema is valid: the boolean check is far cheaper than collecting errors.
    if validator.is_valid(schema) {
        return Vec::new();
    }
    let mut errors: Vec<SchemaError> = validator.iter_errors(schema).map(own).collect();
    errors.sort_by(|a: &SchemaError, b: &SchemaError| {
        (&a.pointer, &a.message).cmp(&(&b.pointer, &b.message))
    });
    errors.dedup();
    errors
}

/// Whether `schema` certainly passes the draft 2020-12 meta-schema, decided on the span tree without
/// converting it: every keyword the meta-schema constrains is checked the way it constrains it, and
/// anything this check does not model (`$id`, `$schema`, anchors, deep nesting, ...) answers
/// `false`, leaving the verdict to [`meta_validate`]. Tool schemas are almost always valid and
/// simple, and the conversion plus full meta-validation was a tenth of all rule time.
pub fn certainly_valid_2020_12(schema: &Node) -> bool {
    valid_schema(schema, 0)
}

fn valid_schema(schema: &Node, depth: usize) -> bool {
    const MAX_DEPTH: usize = 48;
    if depth > MAX_DEPTH {
        return false;
    }
    let members = match &schema.value {
        NodeValue::Bool(_) => return true,
        NodeValue::Object(members) => members,
        _ => return false,
    };
    let schema_in = |node: &Node| valid_schema(node, depth + 1);
    let schema_map = |node: &Node| {
        node.as_object()
            .is_some_and(|members| members.iter().all(|m| schema_in(&m.value)))
    };
    let schema_list = |node: &Node| {
        node.as_array()
            .is_some_and(|items| !items.is_empty() && items.iter().all(schema_in))
    };
    members.iter().all(|member| {
        let value = &member.value;
        match member.key.as_str() {
            "$comment" | "title" | "description" | "format" | "pattern" | "contentEncoding"
            | "contentMediaType" | "$ref" => value.as_str().is_some(),
            "const" | "default" => true,
            "enum" | "examples" => value.as_array().is_some(),
            "deprecated" | "readOnly" | "writeOnly" | "uniqueItems" => value.as_bool().is_some(),
            "maximum" | "exclusiveMaximum" | "minimum" | "exclusiveMinimum" => {
                value.as_f64().is_some_and(f64::is_finite)
            }
            "multipleOf" => value.as_f64().is_some_and(|n| n.is_finite() && n > 0.0),
            "maxLength" | "minLength" | "maxItems" | "minItems" | "maxContains" | "minContains"
            | "maxProperties" | "minProperties" => value
                .as_f64()
                .is_some_and(|n| n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n < 1e15),
            "required" => unique_strings(value),
            "dependentRequired" => value
                .as_object()
                .is_some_and(|members| members.iter().all(|m| unique_strings(&m.value))),
            "type" => match &value.value {
                NodeValue::String(name) => is_type_name(name),
                NodeValue::Array(items) => {
                    !items.is_empty()
                        && items.iter().all(|i| i.as_str().is_some_and(is_type_name))
                        && unique_strings(value)
                }
                _ => false,
            },
            "items"
            | "contains"
            | "additionalProperties"
            | "propertyNames"
            | "if"
            | "then"
            | "else"
            | "not"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "contentSchema" => schema_in(value),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => schema_list(value),
            "properties" | "patternProperties" | "dependentSchemas" | "$defs" | "definitions" => {
                schema_map(value)
            }
            // Constrained by the meta-schema in ways not modelled here.
            "$id" | "$schema" | "$anchor" | "$dynamicRef" | "$dynamicAnchor" | "$vocabulary"
            | "dependencies" | "$recursiveAnchor" | "$recursiveRef" => false,
            // The meta-schema ignores keywords it does not define.
            _ => true,
        }
    })
}

/// One of the seven JSON Schema type names.
pub fn is_type_name(name: &str) -> bool {
    matches!(
        name,
        "array" | "boolean" | "integer" | "null" | "number" | "object" | "string"
    )
}

/// An array of distinct strings.
fn unique_strings(node: &Node) -> bool {
    // Long lists go to the full check rather than a quadratic comparison here.
    let Some(items) = node.as_array().filter(|items| items.len() <= 64) else {
        return false;
    };
    items.iter().enumerate().all(|(i, item)| {
        item.as_str()
            .is_some_and(|s| items[..i].iter().all(|earlier| earlier.as_str() != Some(s)))
    })
}

fn own(e: jsonschema::ValidationError<'_>) -> SchemaError {
    SchemaError {
        pointer: e.instance_path().as_str().to_string(),
        keyword: last_keyword(e.schema_path().as_str()),
        message: e.to_string(),
    }
}

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
const PATTERN_BATCH: usize = 256;

/// How deep [`uncompilable_patterns`] walks: as deep as the JSON and YAML parsers nest.
const MAX_PATTERN_DEPTH: usize = 128;

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
struct Occurrence<'a> {
    keyword: &'static str,
    pattern: &'a str,
    pointer: String,
    span: Span,
}

/// Verdicts already reached in this process, by (keyword, pattern): the same patterns come back
/// tool after tool and file after file. Bounded by the input: every key is a string read from it.
fn known_verdicts(
) -> &'static std::sync::Mutex<std::collections::HashMap<(&'static str, String), bool>> {
    static KNOWN: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<(&'static str, String), bool>>,
    > = std::sync::OnceLock::new();
    KNOWN.get_or_init(Default::default)
}

/// The patterns of `distinct` (sorted, distinct) that do not compile.
fn refused_patterns<'a>(
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
fn judge(patterns: &[(&'static str, &str)], verdicts: &mut Vec<bool>) {
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
fn pattern_schema(keyword: &str, pattern: &str) -> Value {
    if keyword == "pattern" {
        serde_json::json!({ "pattern": pattern })
    } else {
        serde_json::json!({ "patternProperties": { pattern: true } })
    }
}

/// Whether `schema` compiles with the options [`compile_user_schema`] uses.
fn compiles(schema: &Value) -> bool {
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(false)
        .with_pattern_options(pattern_limits())
        .build(schema)
        .is_ok()
}

fn walk_patterns<'a>(
    node: &'a Node,
    pointer: &mut String,
    depth: usize,
    found: &mut Vec<Occurrence<'a>>,
) {
    use crate::parse::node::pointer_token;
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
        pointer.push_str(&pointer_token(token));
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
fn pattern_compiles(keyword: &str, pattern: &str) -> bool {
    compiles(&pattern_schema(keyword, pattern))
}

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
fn pattern_limits() -> jsonschema::PatternOptions<jsonschema::FancyRegex> {
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
const BOUNDED_CACHE: usize = 256;

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
fn with_bounded<R>(
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
struct BoundedPattern {
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
struct BuiltinPattern(Validator);

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
fn bounded_pattern<'a>(
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

/// A JSON pointer as a path a reader recognises: `/retry/max_attempts` → `retry.max_attempts`,
/// `/examples/0/name` → `examples[0].name`, appended to `base` (which may be empty).
pub fn display_path(base: &str, pointer: &str) -> String {
    let mut out = base.to_string();
    for raw in pointer.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{token}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        }
    }
    out
}

/// The span to report a failure at `pointer` (an instance path into `root`): the member's key
/// when the pointer names an object member that exists, else the nearest existing ancestor value.
pub fn span_for_pointer(root: &Node, pointer: &str) -> Span {
    span_for_pointer_by(root, pointer, &mut |node, key| node.member(key))
}

/// [`span_for_pointer`] with `member` finding an object's member by key.
fn span_for_pointer_by<'a>(
    root: &'a Node,
    pointer: &str,
    member: &mut impl FnMut(&'a Node, &str) -> Option<&'a Member>,
) -> Span {
    let mut current = pointer;
    loop {
        if current.is_empty() {
            return root.span;
        }
        if let Some(span) = root.pointer_key_span_by(current, member) {
            return span;
        }
        if let Some(node) = root.pointer_by(current, member) {
            return node.span;
        }
        current = current.rsplit_once('/').map_or("", |(parent, _)| parent);
    }
}

/// Resolves many JSON pointers into one tree, answering as [`Node::pointer`],
/// [`Node::pointer_key_span`] and [`span_for_pointer`] do. An object of more than a few members is
/// indexed by key the first time a pointer passes through it, so reporting a failure at each key
/// of a large mapping costs a lookup per failure rather than a scan of the mapping (which made
/// a frontmatter of 50,000 unknown keys take seconds).
pub struct Pointers<'a> {
    root: &'a Node,
    /// Per indexed object (by address), the first member of each key.
    indexed: HashMap<usize, HashMap<&'a str, &'a Member>>,
}

/// Objects with at most this many members are scanned; an index does not pay for itself.
const SCAN_MEMBERS: usize = 16;

impl<'a> Pointers<'a> {
    pub fn new(root: &'a Node) -> Self {
        Pointers {
            root,
            indexed: HashMap::new(),
        }
    }

    /// The first member of `node` called `key`, as [`Node::member`] finds it.
    fn member(
        indexed: &mut HashMap<usize, HashMap<&'a str, &'a Member>>,
        node: &'a Node,
        key: &str,
    ) -> Option<&'a Member> {
        let members = node.as_object()?;
        if members.len() <= SCAN_MEMBERS {
            return members.iter().find(|m| m.key == key);
        }
        let index = indexed
            .entry(std::ptr::from_ref(node) as usize)
            .or_insert_with(|| {
                let mut index = HashMap::with_capacity(members.len());
                for member in members {
                    index.entry(member.key.as_str()).or_insert(member);
                }
                index
            });
        index.get(key).copied()
    }

    /// The node at `pointer`, as [`Node::pointer`] finds it.
    pub fn node(&mut self, pointer: &str) -> Option<&'a Node> {
        let indexed = &mut self.indexed;
        self.root
            .pointer_by(pointer, &mut |node, key| Self::member(indexed, node, key))
    }

    /// The key span of the member (or the span of the item) `pointer` names, as
    /// [`Node::pointer_key_span`] finds it.
    pub fn key_span(&mut self, pointer: &str) -> Option<Span> {
        let indexed = &mut self.indexed;
        self.root
            .pointer_key_span_by(pointer, &mut |node, key| Self::member(indexed, node, key))
    }

    /// Where a failure at `pointer` is reported, as [`span_for_pointer`] answers.
    pub fn span(&mut self, pointer: &str) -> Span {
        let indexed = &mut self.indexed;
        span_for_pointer_by(self.root, pointer, &mut |node, key| {
            Self::member(indexed, node, key)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The shortcut may only answer `true` where the full meta-validation finds nothing.
    fn assert_shortcut_agrees(node: &Node, origin: &str) {
        if certainly_valid_2020_12(node) {
            let errors = meta_validate(&node.to_json());
            assert!(errors.is_empty(), "{origin}: shortcut passed {errors:?}");
        }
        match &node.value {
            NodeValue::Array(items) => items.iter().for_each(|i| assert_shortcut_agrees(i, origin)),
            NodeValue::Object(members) => members
                .iter()
                .for_each(|m| assert_shortcut_agrees(&m.value, origin)),
            _ => {}
        }
    }

    #[test]
    fn validity_shortcut_never_passes_what_meta_validation_rejects() {
        let samples = [
            r#"{"type": "object", "properties": {"a": {"type": "string", "minLength": 1.0}}, "required": ["a"], "additionalProperties": false}"#,
            r#"{"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d", "default": null}"#,
            r#"{"minLength": 1.5}"#,
            r#"{"minLength": -1}"#,
            r#"{"required": ["a", "a"]}"#,
            r#"{"type": ["string", "string"]}"#,
            r#"{"type": []}"#,
            r#"{"type": "text"}"#,
            r#"{"format": 5}"#,
            r#"{"allOf": []}"#,
            r#"{"multipleOf": 0}"#,
            r#"{"examples": 3}"#,
            r#"{"definitions": {"a": 3}}"#,
            r#"{"$defs": {"a": {"type": "integer", "maximum": 1e400}}}"#,
            r#"{"items": [{}]}"#,
            r#"{"enum": "a"}"#,
            r#"{"x-vendor": {"anything": [1, 2]}, "deprecated": "yes"}"#,
            r#"{"dependentRequired": {"a": ["b", "b"]}}"#,
            r#"{"properties": {"a": true, "b": false, "c": 1}}"#,
        ];
        let mut taken = 0;
        for text in samples {
            let node = crate::parse::json::parse_json(text).expect("sample is JSON");
            taken += usize::from(certainly_valid_2020_12(&node));
            assert_shortcut_agrees(&node, text);
        }
        assert!(taken >= 2, "the shortcut took only {taken} samples");
        // Every object in every JSON fixture, read as a schema.
        let mut checked = 0;
        for path in crate::fixture_files() {
            if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if let Ok(node) = crate::parse::json::parse_json(&text) {
                    assert_shortcut_agrees(&node, &path.display().to_string());
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "only {checked} JSON fixtures");
    }

    #[test]
    fn every_embedded_schema_compiles() {
        for (name, text) in EMBEDDED {
            assert!(
                compile_embedded(text).is_ok(),
                "schemas/{name}.schema.json does not compile"
            );
            assert!(embedded(name).is_some());
        }
    }

    #[test]
    fn bundled_schemas_are_valid_and_named_by_their_id() {
        for bundled in &BUNDLED {
            let document: Value = serde_json::from_str(bundled.text).unwrap_or_default();
            assert!(meta_validate(&document).is_empty(), "{}", bundled.path);
            assert!(compile_embedded(bundled.text).is_ok(), "{}", bundled.path);
            let id = document.get("$id").and_then(Value::as_str);
            assert_eq!(id, bundled.urls.first().copied(), "{}", bundled.path);
            assert!(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(bundled.path)
                .is_file());
            let rule = include_str!("../rules/SC013.md");
            for url in bundled.urls {
                assert!(bundled_ref(url).is_some(), "{url}");
                assert!(
                    rule.contains(&format!("`{url}`")),
                    "rules/SC013.md names {url}"
                );
            }
            assert!(rule.contains(&format!("{}, {}", bundled.aip, bundled.version)));
        }
    }

    #[test]
    fn only_bundled_aip_urls_resolve() {
        for reference in [
            "https://agentproto.sh/docs/aip-27/REF.schema.json",
            "https://agentproto.sh/schemas/aip-27/REF.schema.json",
            "https://agentproto.sh/docs/aip-27/REF.schema.json#",
            "https://agentproto.sh/docs/aip-27/REF.schema.json#/$defs/local",
        ] {
            assert_eq!(
                bundled_ref(reference).map(|b| b.aip),
                Some("AIP-27"),
                "{reference}"
            );
        }
        for reference in [
            "http://agentproto.sh/docs/aip-27/REF.schema.json",
            "https://agentproto.sh/docs/aip-27/REF.schema.json#/$defs/nothing",
            "https://agentproto.sh/docs/aip-27/REF.schema.json#local",
            "https://agentproto.sh/docs/aip-16/IO.schema.json",
            "https://agentproto.sh.example.com/docs/aip-27/REF.schema.json",
            " https://agentproto.sh/docs/aip-27/REF.schema.json",
            "REF.schema.json",
            "#/$defs/x",
        ] {
            assert!(bundled_ref(reference).is_none(), "{reference}");
        }
    }

    #[test]
    fn bundled_refs_are_validated_offline_and_others_dropped() {
        let schema = json!({
            "type": "object",
            "properties": {
                "file": {"$ref": "https://agentproto.sh/docs/aip-27/REF.schema.json"},
                "local": {"$ref": "https://agentproto.sh/schemas/aip-27/REF.schema.json#/$defs/local"},
                "other": {"$ref": "https://schemas.example.com/anything.json"}
            }
        });
        let validator = compile_user_schema(&schema).expect("compiles offline");
        for good in [
            json!({"file": {"kind": "local", "path": "reports/q3.md"}}),
            json!({"file": "github:octo/widgets@main:docs"}),
            json!({"file": {"kind": "youtube_video", "videoId": "x"}}),
            json!({"local": {"kind": "local", "path": "a/b.md", "sha256": "0".repeat(64)}}),
            json!({"other": 42}),
        ] {
            assert!(validator.is_valid(&good), "{good}");
        }
        for bad in [
            json!({"file": {"kind": "local"}}),
            json!({"file": {"kind": "local", "path": "../../etc/passwd"}}),
            json!({"file": {"kind": "url", "href": "ftp://example.com/x"}}),
            json!({"file": {"kind": "eth_tx", "chainId": 1, "txHash": "0xABC"}}),
            json!({"file": {"path": "a.md"}}),
            json!({"file": "no kind"}),
            json!({"file": 7}),
            json!({"local": {"kind": "url", "href": "https://example.com"}}),
        ] {
            assert!(!validator.is_valid(&bad), "{bad}");
        }
        // A remote reference the compiler would have to fetch is refused, not fetched.
        let dynamic = json!({"$dynamicRef": "http://127.0.0.1:9/x.json"});
        assert!(compile_user_schema(&dynamic).is_err());
    }

    #[test]
    fn meta_validation_reports_broken_schemas() {
        assert!(meta_validate(&json!({"type": "object"})).is_empty());
        let errors = meta_validate(&json!({"type": "objekt", "properties": []}));
        assert!(!errors.is_empty());
        let unknown = meta_validate(&json!({"$schema": "https://example.com/my-schema"}));
        assert_eq!(unknown.len(), 1);
        assert_eq!(unknown[0].pointer, "/$schema");
        assert!(
            meta_validate(&json!({"$schema": "http://json-schema.org/draft-07/schema#"}))
                .is_empty()
        );
    }

    #[test]
    fn remote_refs_are_never_followed() {
        for reference in [
            "http://127.0.0.1:9/x.json",
            "file:///etc/passwd",
            "other.json",
        ] {
            let schema = json!({"type": "object", "properties": {"a": {"$ref": reference}}});
            let validator = compile_user_schema(&schema).expect("compiles with the ref removed");
            assert!(validator.is_valid(&json!({"a": 1})));
        }
        let local = json!({"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n"}}});
        let validator = compile_user_schema(&local).expect("local refs resolve");
        assert!(!validator.is_valid(&json!({"a": "x"})));
    }

    #[test]
    fn keyed_errors_name_the_key_and_never_the_value() {
        let schema = json!({
            "type": "object",
            "required": ["name"],
            "additionalProperties": false,
            "properties": {
                "token": {"type": "integer"},
                "kind": {"enum": ["a", "b"]}
            }
        });
        let validator = compile_embedded(&schema.to_string()).expect("compiles");
        let errors = validate_at_keys(
            &validator,
            &json!({"token": "s3cr3t-value", "kind": "c", "x": 1, "y": 2}),
        );
        let summary: Vec<(&str, &str, &str)> = errors
            .iter()
            .map(|e| (e.pointer.as_str(), e.keyword.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("/kind", "enum", "must be one of `a`, `b`"),
                ("/name", "required", "is required"),
                ("/token", "type", "must be an integer, found string"),
                ("/x", "additionalProperties", "is not a known key"),
                ("/y", "additionalProperties", "is not a known key"),
            ]
        );
        assert!(errors.iter().all(|e| !e.message.contains("s3cr3t")));
    }

    #[test]
    fn patterns_the_regex_engine_refuses_are_found_where_they_are() {
        for (pattern, compiles) in [
            ("[", false),
            ("a(b", false),
            ("(?<name", false),
            ("x{2,1}", false),
            ("^[a-z0-9-]+\\.md$", true),
            ("^\\d{4}-\\d{2}$", true),
            ("\\p{L}+", true),
            ("(?<=a)b", true),
            ("", true),
        ] {
            assert_eq!(pattern_compiles("pattern", pattern), compiles, "{pattern}");
            assert_eq!(
                pattern_compiles("patternProperties", pattern),
                compiles,
                "{pattern} as a key"
            );
        }
        let text = r#"{"properties": {"a": {"pattern": "["}, "b": {"enum": [{"pattern": "["}]},
            "c": {"items": {"patternProperties": {"(": {}, "^ok$": {"pattern": "ok"}}}},
            "pattern": {"type": "string"}}, "anyOf": [{"pattern": "a(b"}, {"pattern": "["}]}"#;
        let root = crate::parse::json::parse_json(text).expect("valid");
        let found = uncompilable_patterns(&[&root, &root]);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0], found[1]);
        let summary: Vec<(&str, &str)> = found[0]
            .iter()
            .map(|b| (b.pointer.as_str(), &text[b.span.start..b.span.end]))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("/properties/a/pattern", "\"[\""),
                ("/properties/c/items/patternProperties/(", "\"(\""),
                ("/anyOf/0/pattern", "\"a(b\""),
                ("/anyOf/1/pattern", "\"[\""),
            ]
        );
        // Judged in one batch, the bad ones among many good ones are still found exactly.
        let many: Vec<String> = (0..40)
            .map(|i| match i % 13 {
                5 => format!("\"{i}(\""),
                _ => format!("\"^x{i}[a-z]*$\""),
            })
            .collect();
        let text = format!(
            "{{\"properties\": {{{}}}}}",
            many.iter()
                .enumerate()
                .map(|(i, p)| format!("\"p{i}\": {{\"pattern\": {p}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let batch = crate::parse::json::parse_json(&text).expect("valid");
        let pointers: Vec<String> = uncompilable_patterns(&[&batch])[0]
            .iter()
            .map(|b| b.pointer.clone())
            .collect();
        assert_eq!(
            pointers,
            [
                "/properties/p5/pattern",
                "/properties/p18/pattern",
                "/properties/p31/pattern"
            ]
        );
        // The meta-schema treats `format: regex` as an annotation: only this check sees it.
        assert!(meta_validate(&root.to_json()).is_empty());
    }

    #[test]
    fn pointers_map_to_spans() {
        let text = r#"{"retry": {"max_attempts": 99}}"#;
        let root = crate::parse::json::parse_json(text).expect("valid");
        let key = span_for_pointer(&root, "/retry/max_attempts");
        assert_eq!(&text[key.start..key.end], "\"max_attempts\"");
        let missing = span_for_pointer(&root, "/retry/backoff");
        assert_eq!(&text[missing.start..missing.end], "\"retry\"");
        assert_eq!(span_for_pointer(&root, ""), root.span);
    }
}
