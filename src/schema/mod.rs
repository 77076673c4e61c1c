//! JSON Schema machinery on the `jsonschema` crate (default features off: it cannot fetch
//! anything). Our own contract schemas are embedded and compiled once; user schemas (TOOL.md
//! `inputs`/`outputs`, every tool's input schema) are meta-validated against draft 2020-12 and
//! compiled with remote references removed. Errors carry a JSON pointer into the instance, which
//! [`span_for_pointer`] maps back to the exact key or value in the file.
//!
//! The room: this module holds the embedded and bundled schemas, validation and its messages;
//! [`patterns`] finds the `pattern`s the validator cannot compile; [`user`] compiles user
//! schemas offline with bounded pattern matching; [`pointers`] maps a JSON pointer to a span.

mod patterns;
mod pointers;
mod user;

pub use patterns::{pattern_count, uncompilable_patterns, BadPattern, MAX_PATTERNS_JUDGED};
pub use pointers::{display_path, span_for_pointer, Pointers};
pub use user::{
    compile_user_schema, is_remote_ref, start_pattern_budget, take_unchecked_patterns,
    without_remote_refs, PATTERN_SIZE_LIMIT, PATTERN_STEPS,
};

use crate::english::plural;
use crate::parse::node::Value as NodeValue;
use crate::parse::Node;
use jsonschema::{Draft, Validator};
use serde_json::Value;
use std::sync::OnceLock;

/// The embedded schemas, written for skilllint from the agentproto AIP facts.
pub const EMBEDDED: [(&str, &str); 12] = [
    ("tool", include_str!("../../schemas/tool.schema.json")),
    ("driver", include_str!("../../schemas/driver.schema.json")),
    (
        "driver-http",
        include_str!("../../schemas/driver-http.schema.json"),
    ),
    (
        "driver-mcp",
        include_str!("../../schemas/driver-mcp.schema.json"),
    ),
    (
        "driver-sdk",
        include_str!("../../schemas/driver-sdk.schema.json"),
    ),
    ("secrets", include_str!("../../schemas/secrets.schema.json")),
    // Plugin manifests and marketplaces, written for skilllint from each host's public docs.
    (
        "claude-plugin",
        include_str!("../../schemas/plugins/claude-plugin.schema.json"),
    ),
    (
        "claude-marketplace",
        include_str!("../../schemas/plugins/claude-marketplace.schema.json"),
    ),
    (
        "codex-plugin",
        include_str!("../../schemas/plugins/codex-plugin.schema.json"),
    ),
    (
        "codex-marketplace",
        include_str!("../../schemas/plugins/codex-marketplace.schema.json"),
    ),
    (
        "cursor-plugin",
        include_str!("../../schemas/plugins/cursor-plugin.schema.json"),
    ),
    (
        "cursor-marketplace",
        include_str!("../../schemas/plugins/cursor-marketplace.schema.json"),
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
    text: include_str!("../../schemas/aip/aip-27/REF.schema.json"),
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
            format!("must be at least {} long", plural(*limit, "character"))
        }
        Kind::MaxLength { limit } => {
            format!("must be at most {} long", plural(*limit, "character"))
        }
        Kind::Minimum { limit } => format!("must be at least {limit}"),
        Kind::Maximum { limit } => format!("must be at most {limit}"),
        Kind::ExclusiveMinimum { limit } => format!("must be greater than {limit}"),
        Kind::ExclusiveMaximum { limit } => format!("must be less than {limit}"),
        Kind::MinItems { limit } => {
            format!("must have at least {}", plural(*limit, "item"))
        }
        Kind::MaxItems { limit } => {
            format!("must have at most {}", plural(*limit, "item"))
        }
        Kind::MinProperties { limit } => {
            format!("must have at least {}", plural(*limit, "key"))
        }
        Kind::MaxProperties { limit } => {
            format!("must have at most {}", plural(*limit, "key"))
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

#[cfg(test)]
mod tests;
