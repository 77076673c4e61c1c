//! SC002 `input-schema-not-object`: The root of an input schema is not an object schema.

use crate::check::{Sink, Unit};
use crate::parse::node::{Node, Value};
use crate::schema;

pub(super) fn input_schema_not_object(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "tool arguments are always a JSON object: set the root `type` to `object` and declare each argument under `properties` (MCP, OpenAI and Anthropic reject other roots)";
    for subject in unit.schema_subjects() {
        if subject.left_to_contract(unit) {
            continue;
        }
        let schema = subject.schema;
        // Formatted only for a finding.
        let what = || format!("{} of {}", subject.schema_word, subject.owner);
        match &schema.value {
            Value::Bool(b) => {
                sink.report(
                    subject.file,
                    schema.span,
                    format!(
                        "{} is the boolean schema `{b}`, not an object schema",
                        what()
                    ),
                )
                .label("expected an object with `type: object`")
                .help(HELP);
            }
            Value::Object(_) => match schema.get("type") {
                None => {
                    sink.report(
                        subject.file,
                        subject.key_span,
                        format!("{} does not declare `type: object`", what()),
                    )
                    .label("no `type` at the root of this schema")
                    .help(HELP);
                }
                Some(kind) if kind.as_str() == Some("object") => {}
                // The meta-validation rules (SC001, TM009) leave the root `type` to this rule, so
                // a typo such as `obj` is reported once, with the one value that fits here.
                Some(kind) => {
                    let message = match kind.as_str() {
                        Some(name) if !schema::is_type_name(name) => format!(
                            "{} has root type `{name}`, which is not a JSON type; the root must be `object`",
                            what()
                        ),
                        _ => format!(
                            "{} has root type {}, not `object`",
                            what(),
                            describe_type(kind)
                        ),
                    };
                    sink.report(subject.file, kind.span, message)
                        .label("must be exactly `object`")
                        .help(HELP);
                }
            },
            // Not a schema at all: SC001 (tools) or TM009 (TOOL.md) says so, while it runs.
            _ if unit.reports(subject.meta_rule(), subject.file) => {}
            _ => {
                sink.report(
                    subject.file,
                    schema.span,
                    format!(
                        "{} is {}, not an object schema",
                        what(),
                        schema::with_article(schema.type_name())
                    ),
                )
                .label("expected an object with `type: object`")
                .help(HELP);
            }
        }
    }
}

fn describe_type(node: &Node) -> String {
    match &node.value {
        Value::String(s) => format!("`{s}`"),
        Value::Array(items) => {
            let names: Vec<String> = items
                .iter()
                .map(|i| {
                    i.as_str()
                        .map_or_else(|| i.type_name().to_string(), str::to_string)
                })
                .collect();
            format!("`[{}]`", names.join(", "))
        }
        _ => schema::with_article(node.type_name()),
    }
}
