//! SC001 `input-schema-invalid`: A tool's input schema is not a valid JSON Schema.

use crate::check::{code, Sink, Unit};
use crate::parse::node::Node;
use crate::rules::phrasing::{bad_pattern_problem, ROOT_TYPE_POINTER};
use crate::schema;
use crate::semantic::schemas::{tool_subjects, Subject};
use std::collections::BTreeSet;

/// SC001 reports at most this many meta-validation failures per schema.
const MAX_META_ERRORS: usize = 5;

pub(super) fn input_schema_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let subjects: Vec<Subject<'_>> = tool_subjects(unit)
        .into_iter()
        .filter(|subject| !subject.left_to_contract(unit))
        .collect();
    // Every pattern of the unit judged at once: one compilation for all that are valid.
    let schemas: Vec<&Node> = subjects.iter().map(|subject| subject.schema).collect();
    let bad_patterns = schema::uncompilable_patterns(&schemas);
    for (subject, bad_patterns) in subjects.iter().zip(bad_patterns) {
        // A converted script schema keeps the parameters' own spans, so failures inside a
        // parameter point at it.
        let errors = if schema::certainly_valid_2020_12(subject.schema) {
            Vec::new()
        } else {
            schema::meta_validate(&subject.schema.to_json())
        };
        // A root `type` that is not exactly `object` is SC002's finding, which names the one
        // value that fits there; reporting it here as well would be two errors for one typo.
        // With SC002 off it is an invalid schema like any other.
        let mut seen = BTreeSet::new();
        if unit.reports(code::SC002, subject.file) {
            seen.insert(ROOT_TYPE_POINTER);
        }
        let mut reported = 0;
        for error in &errors {
            if seen.contains(error.pointer.as_str()) {
                continue;
            }
            if reported == MAX_META_ERRORS {
                break;
            }
            // Only a place reported counts as seen: an uncompilable pattern past the cap (where
            // a draft 7 meta-schema also fails it, `format: regex`) is still reported below.
            seen.insert(error.pointer.as_str());
            reported += 1;
            let span = schema::span_for_pointer(subject.schema, &error.pointer);
            let place = if error.pointer.is_empty() {
                String::new()
            } else {
                format!(" at `{}`", error.pointer)
            };
            sink.report(
                subject.file,
                span,
                format!(
                    "{} of {} is not a valid JSON Schema{place}",
                    subject.schema_word, subject.owner
                ),
            )
            .label(short_message(&error.message))
            .help("fix the schema so it follows JSON Schema draft 2020-12 (or the draft its `$schema` names); clients that validate tool definitions reject the whole tool");
        }
        // The meta-schema only annotates `format: regex`: a pattern no engine compiles passes
        // it, and a validator would then check nothing (or refuse the whole schema).
        for bad in bad_patterns {
            if seen.contains(bad.pointer.as_str()) {
                continue;
            }
            sink.report(
                subject.file,
                bad.span,
                format!(
                    "{} of {} is not a valid JSON Schema at `{}`: {}",
                    subject.schema_word,
                    subject.owner,
                    bad.pointer,
                    bad_pattern_problem(&bad)
                ),
            )
            .label(if bad.not_judged.is_some() {
                "not compiled"
            } else {
                "not a regular expression the validator can compile"
            })
            .help("write an ECMA 262 regular expression (escape `[`, `(` and `{` meant literally); until it compiles, no value can be checked against it");
        }
    }
}

/// A validator message cut to label length (long instance dumps are not useful under a caret).
fn short_message(message: &str) -> String {
    const MAX: usize = 120;
    if message.chars().count() <= MAX {
        message.to_string()
    } else {
        let cut: String = message.chars().take(MAX - 1).collect();
        format!("{}…", cut.trim_end())
    }
}
