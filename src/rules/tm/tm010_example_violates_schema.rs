//! TM010 `example-violates-schema`: A contract example does not match the tool inputs or
//! outputs.

use super::{contract_with_frontmatter, failures, meta_failures, Failure, Problem};
use crate::check::{Sink, Unit};
use crate::parse::node::pointer_token;
use crate::parse::Node;
use crate::schema;
use crate::schema::display_path;
use crate::source::Span;

/// The span of the failing part of an example value: the unknown key, else the value at the
/// pointer, else its nearest existing ancestor.
fn example_span(value: &mut schema::Pointers<'_>, failure: &Failure) -> Span {
    let mut pointer = failure.pointer.clone();
    if let Problem::Unknown(key) = &failure.problem {
        let key_pointer = format!("{pointer}/{}", pointer_token(key));
        if let Some(span) = value.key_span(&key_pointer) {
            return span;
        }
    }
    loop {
        if let Some(node) = value.node(&pointer) {
            return node.span;
        }
        match pointer.rsplit_once('/') {
            Some((parent, _)) => pointer = parent.to_string(),
            None => return value.span(""),
        }
    }
}

pub(super) fn example_violates_schema(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(examples) = fm.root.get("examples").and_then(Node::as_array) else {
        return;
    };
    // One budget for the patterns of the whole file: a value they were too costly to match on
    // is reported as not checked, below.
    schema::start_pattern_budget();
    for (key, field) in [("inputs", "input"), ("outputs", "output")] {
        let Some(schema_node) = fm.root.get(key).filter(|n| n.is_object()) else {
            continue;
        };
        // More patterns than skilllint compiles: TM009 reports the ones it did not.
        if schema::pattern_count(schema_node) > schema::MAX_PATTERNS_JUDGED {
            continue;
        }
        let schema_json = schema_node.to_json();
        // A broken schema is TM009's finding; examples cannot be judged against it.
        if !meta_failures(&schema_json).is_empty() {
            continue;
        }
        let Ok(validator) = schema::compile_user_schema(&schema_json) else {
            continue;
        };
        for (index, example) in examples.iter().enumerate() {
            let Some(value) = example.get(field) else {
                continue;
            };
            let name = example.get("name").and_then(Node::as_str).map_or_else(
                || format!("examples[{index}]"),
                |n| format!("example `{n}`"),
            );
            let mut pointers = schema::Pointers::new(value);
            for failure in failures(&validator, &value.to_json()) {
                let path = display_path(field, &failure.pointer);
                let problem = match &failure.problem {
                    Problem::Missing(k) => format!("`{path}` lacks the required key `{k}`"),
                    Problem::Unknown(k) => {
                        format!("`{path}` has the key `{k}`, which `{key}` does not allow")
                    }
                    Problem::Invalid(text) => format!("`{path}` {text}"),
                };
                sink.report(
                    file,
                    example_span(&mut pointers, &failure),
                    format!("{name} does not satisfy `{key}`: {problem}"),
                )
                .label(format!("fails `{key}`"))
                .help(format!(
                    "every driver must reproduce this example; fix the example's `{field}` or the `{key}` schema"
                ));
            }
            let unchecked = schema::take_unchecked_patterns();
            if let Some((pattern, len)) = unchecked.first() {
                let more = match unchecked.len() - 1 {
                    0 => String::new(),
                    1 => " (and 1 more pattern)".to_string(),
                    n => format!(" (and {n} more patterns)"),
                };
                let pattern = super::clip(pattern, super::SCHEMA_TEXT_SHOWN);
                sink.report(
                    file,
                    value.span,
                    format!(
                        "{name} could not be fully checked against `{key}`: matching the pattern `{pattern}` on a value of {len} bytes is too costly{more}"
                    ),
                )
                .label("not checked against every pattern")
                .help(format!(
                    "simplify the pattern (a bounded repetition such as `[ab]{{1000}}` is costly to match) or shorten the example's `{field}`"
                ));
            }
        }
    }
}
