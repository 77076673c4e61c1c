//! TM: AIP-14 `TOOL.md` tool contracts.
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::phrasing` and `rules::util`, and from this module, never from a
//! sibling rule or another family.

#[cfg(test)]
mod tests;
mod tm001_tool_frontmatter_invalid;
mod tm002_tool_contract_schema_violation;
mod tm003_driver_field_in_tool;
mod tm004_mutates_undeclared;
mod tm005_auto_approval_with_mutations;
mod tm006_risk_level_inconsistent;
mod tm007_tool_id_folder_mismatch;
mod tm008_tool_id_duplicate;
mod tm009_io_schema_invalid;
mod tm010_example_violates_schema;
mod tm011_examples_count;
mod tm012_description_lacks_when_not;
mod tm013_driver_constraints_conflict;
mod tm014_default_implementation_unresolved;
mod tm015_required_tool_unresolved;
mod tm016_outputs_not_strict;

use crate::check::Unit;
use crate::check::{code, Check, RuleImpl};
use crate::model::document::Frontmatter;
use crate::schema;
use crate::source::{FileId, Span};
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{Draft, Validator};
use tm001_tool_frontmatter_invalid::tool_frontmatter_invalid;
use tm002_tool_contract_schema_violation::tool_contract_schema_violation;
use tm003_driver_field_in_tool::driver_field_in_tool;
use tm004_mutates_undeclared::mutates_undeclared;
use tm005_auto_approval_with_mutations::auto_approval_with_mutations;
use tm006_risk_level_inconsistent::risk_level_inconsistent;
use tm007_tool_id_folder_mismatch::tool_id_folder_mismatch;
use tm008_tool_id_duplicate::tool_id_duplicate;
use tm009_io_schema_invalid::io_schema_invalid;
use tm010_example_violates_schema::example_violates_schema;
use tm011_examples_count::examples_count;
use tm012_description_lacks_when_not::description_lacks_when_not;
use tm013_driver_constraints_conflict::driver_constraints_conflict;
use tm014_default_implementation_unresolved::default_implementation_unresolved;
use tm015_required_tool_unresolved::required_tool_unresolved;
use tm016_outputs_not_strict::outputs_not_strict;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::TM001, check: Check::Unit(tool_frontmatter_invalid) },
    RuleImpl { code: code::TM002, check: Check::Unit(tool_contract_schema_violation) },
    RuleImpl { code: code::TM003, check: Check::Unit(driver_field_in_tool) },
    RuleImpl { code: code::TM004, check: Check::Unit(mutates_undeclared) },
    RuleImpl { code: code::TM005, check: Check::Unit(auto_approval_with_mutations) },
    RuleImpl { code: code::TM006, check: Check::Unit(risk_level_inconsistent) },
    RuleImpl { code: code::TM007, check: Check::Unit(tool_id_folder_mismatch) },
    RuleImpl { code: code::TM008, check: Check::Repo(tool_id_duplicate) },
    RuleImpl { code: code::TM009, check: Check::Unit(io_schema_invalid) },
    RuleImpl { code: code::TM010, check: Check::Unit(example_violates_schema) },
    RuleImpl { code: code::TM011, check: Check::Unit(examples_count) },
    RuleImpl { code: code::TM012, check: Check::Unit(description_lacks_when_not) },
    RuleImpl { code: code::TM013, check: Check::Unit(driver_constraints_conflict) },
    RuleImpl { code: code::TM014, check: Check::Unit(default_implementation_unresolved) },
    RuleImpl { code: code::TM015, check: Check::Unit(required_tool_unresolved) },
    RuleImpl { code: code::TM016, check: Check::Unit(outputs_not_strict) },
];

/// Fields that moved from TOOL.md to the AIP-30 driver, with where each one lives now (TM003).
const DRIVER_FIELDS: [(&str, &str); 7] = [
    ("code", "the driver's `code`"),
    ("entry", "the driver's `execute.<tool id>`"),
    ("execute", "the driver's `execute.<tool id>`"),
    ("network", "the driver's `network.egress`"),
    ("run", "the driver's `run`"),
    ("runner", "the driver's `runner`"),
    (
        "secrets",
        "the driver's `auth.ref` (a reference to a SECRETS.md)",
    ),
];

fn contract_with_frontmatter<'a>(unit: &Unit<'a>) -> Option<(FileId, &'a Frontmatter)> {
    let (file, doc) = unit.contract()?;
    Some((file, doc.frontmatter()?))
}

fn json_type_name(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

fn with_article(type_name: &str) -> String {
    match type_name {
        "integer" | "object" | "array" => format!("an {type_name}"),
        "null" => "null".to_string(),
        other => format!("a {other}"),
    }
}

/// A short rendering of a value for a message: strings and scalars as written, containers by type.
fn short_value(value: &serde_json::Value) -> String {
    const MAX: usize = 40;
    let text = match value {
        serde_json::Value::String(s) => clip(s, MAX),
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => {
            return with_article(json_type_name(value))
        }
        other => clip(&other.to_string(), MAX),
    };
    format!("`{text}`")
}

/// `text` cut after `max` characters, the cut marked with `…`; reads only what it keeps, so a
/// long string costs no more than a short one.
fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// At most this many allowed values are listed in an `enum` message; the rest are counted. Each
/// failing example repeats the message, so listing a huge enum in full made the report grow with
/// the enum's size times the number of examples.
const ENUM_SHOWN: usize = 20;

/// A schema's own text (a pattern, the fallback description of a failure) is quoted up to this
/// many characters, for the same reason.
const SCHEMA_TEXT_SHOWN: usize = 200;

fn list_of(options: &[String]) -> String {
    match options {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// One schema failure, in the terms a message needs.
#[derive(Debug, Clone, PartialEq)]
enum Problem {
    /// A required key is absent from the object at the pointer.
    Missing(String),
    /// A key the schema does not allow is present in the object at the pointer.
    Unknown(String),
    /// The value at the pointer breaks a constraint; the text says what was expected.
    Invalid(String),
}

#[derive(Debug, Clone, PartialEq)]
struct Failure {
    pointer: String,
    problem: Problem,
}

/// What a failing keyword expected, phrased for a message (`must be at most 20, found 99`).
fn expectation(
    kind: &ValidationErrorKind,
    instance: &serde_json::Value,
    fallback: impl FnOnce() -> String,
) -> String {
    let found = short_value(instance);
    match kind {
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => with_article(&t.to_string()),
                TypeKind::Multiple(set) => {
                    let names: Vec<String> =
                        set.iter().map(|t| with_article(&t.to_string())).collect();
                    list_of(&names)
                }
            };
            format!("must be {expected}, found {}", json_type_name(instance))
        }
        ValidationErrorKind::Enum { options } => {
            let items = options.as_array().map_or(&[][..], Vec::as_slice);
            let mut names: Vec<String> = items.iter().take(ENUM_SHOWN).map(short_value).collect();
            if items.len() > ENUM_SHOWN {
                names.push(format!("{} other values", items.len() - ENUM_SHOWN));
            }
            format!("must be one of {}, found {found}", list_of(&names))
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("must be {}, found {found}", short_value(expected_value))
        }
        ValidationErrorKind::MinLength { limit } => format!(
            "must be at least {limit} characters long, found {}",
            instance.as_str().map_or(0, |s| s.chars().count())
        ),
        ValidationErrorKind::MaxLength { limit } => format!(
            "must be at most {limit} characters long, found {}",
            instance.as_str().map_or(0, |s| s.chars().count())
        ),
        ValidationErrorKind::Minimum { limit } => {
            format!("must be at least {limit}, found {found}")
        }
        ValidationErrorKind::Maximum { limit } => format!("must be at most {limit}, found {found}"),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("must be greater than {limit}, found {found}")
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("must be less than {limit}, found {found}")
        }
        ValidationErrorKind::MinItems { limit } => format!("must have at least {limit} items"),
        ValidationErrorKind::MaxItems { limit } => format!("must have at most {limit} items"),
        ValidationErrorKind::UniqueItems => "must not list the same item twice".to_string(),
        ValidationErrorKind::Pattern { pattern } => {
            let pattern = clip(pattern, SCHEMA_TEXT_SHOWN);
            format!("must match the pattern `{pattern}`, found {found}")
        }
        // The bounded `pattern` keyword of user schemas (`schema::compile_user_schema`): its
        // message is the pattern.
        ValidationErrorKind::Custom { keyword, message } if keyword == "pattern" => {
            let pattern = clip(message, SCHEMA_TEXT_SHOWN);
            format!("must match the pattern `{pattern}`, found {found}")
        }
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            format!("matches none of the allowed forms, found {found}")
        }
        _ => clip(&fallback(), SCHEMA_TEXT_SHOWN),
    }
}

/// Validates `instance` and describes every failure; sorted by pointer, one `Invalid` per pointer.
fn failures(validator: &Validator, instance: &serde_json::Value) -> Vec<Failure> {
    let mut out: Vec<Failure> = Vec::new();
    for error in validator.iter_errors(instance) {
        let pointer = error.instance_path().as_str().to_string();
        match error.kind() {
            ValidationErrorKind::Required { property } => {
                let key = property
                    .as_str()
                    .map_or_else(|| property.to_string(), str::to_string);
                out.push(Failure {
                    pointer,
                    problem: Problem::Missing(key),
                });
            }
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                for key in unexpected {
                    out.push(Failure {
                        pointer: pointer.clone(),
                        problem: Problem::Unknown(key.clone()),
                    });
                }
            }
            kind => {
                // The library's own wording, built only when no phrasing of ours applies: it quotes
                // the whole instance and schema value, which may be large.
                let text = expectation(kind, error.instance(), || error.to_string());
                out.push(Failure {
                    pointer,
                    problem: Problem::Invalid(text),
                });
            }
        }
    }
    // The order is by pointer, then by the problem's debug text; the key is built once per
    // failure (not twice per comparison).
    out.sort_by_cached_key(|f| (f.pointer.clone(), format!("{:?}", f.problem)));
    out.dedup();
    // One `Invalid` per value: the first reason is enough to act on. The failures of a pointer
    // are adjacent, its `Invalid`s first (`Invalid(` sorts before `Missing(` and `Unknown(`).
    let mut last_invalid: Option<String> = None;
    out.retain(|f| match f.problem {
        Problem::Invalid(_) => {
            if last_invalid.as_ref() == Some(&f.pointer) {
                false
            } else {
                last_invalid = Some(f.pointer.clone());
                true
            }
        }
        _ => true,
    });
    out
}

/// The offset of the line `key` starts, when nothing but the key's own line start precedes it
/// (a top-level key of a block mapping); a line can then be inserted above it.
fn line_start_of_key(text: &str, key: Span) -> Option<usize> {
    let start = text.get(..key.start)?.rfind('\n').map_or(0, |i| i + 1);
    (start == key.start).then_some(start)
}

/// Meta-validation failures of a user schema against its declared draft (2020-12 by default).
fn meta_failures(schema_json: &serde_json::Value) -> Vec<Failure> {
    match schema::declared_draft(schema_json) {
        Err(message) => vec![Failure {
            pointer: "/$schema".to_string(),
            problem: Problem::Invalid(message),
        }],
        Ok(draft) => {
            let meta = match draft {
                Draft::Draft4 => jsonschema::draft4::meta::validator(),
                Draft::Draft6 => jsonschema::draft6::meta::validator(),
                Draft::Draft7 => jsonschema::draft7::meta::validator(),
                Draft::Draft201909 => jsonschema::draft201909::meta::validator(),
                _ => jsonschema::draft202012::meta::validator(),
            };
            failures(&meta, schema_json)
        }
    }
}
