//! TM009 `io-schema-invalid`: The tool inputs or outputs are not a valid JSON Schema.

use super::{contract_with_frontmatter, meta_failures, short_value, Problem};
use crate::check::{code, Sink, Unit};
use crate::parse::node::pointer_token;
use crate::schema;
use crate::schema::display_path;
use std::collections::HashSet;

const IO_KEYS: [&str; 2] = ["inputs", "outputs"];

pub(super) fn io_schema_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    // A non-object `inputs`/`outputs` breaks the contract schema (TM002, "must be an object"),
    // which reports it while it runs for the file; otherwise a value that is not a schema at all
    // (a string, `null`) is meta-validated here like any other.
    let contract_reports = unit.reports(code::TM002, file);
    // The root `type` of `inputs` must be exactly `object`: SC002 reports any other value, a typo
    // such as `obj` included, and names the value that fits, while it runs for the file.
    let sc002_reports = unit.reports(code::SC002, file);
    for key in IO_KEYS {
        let Some(node) = fm
            .root
            .get(key)
            .filter(|n| n.is_object() || !contract_reports)
        else {
            continue;
        };
        let mut reported = HashSet::new();
        let mut pointers = schema::Pointers::new(node);
        for failure in meta_failures(&node.to_json()) {
            let pointer = failure.pointer.as_str();
            if key == "inputs"
                && pointer == crate::rules::phrasing::ROOT_TYPE_POINTER
                && sc002_reports
            {
                continue;
            }
            let path = display_path(key, pointer);
            let (span, problem) = match failure.problem {
                Problem::Missing(k) => (
                    pointers.span(pointer),
                    format!("`{path}` lacks the required keyword `{k}`"),
                ),
                Problem::Unknown(k) => (
                    pointers.span(&format!("{pointer}/{}", pointer_token(&k))),
                    format!("`{path}` does not allow the keyword `{k}`"),
                ),
                Problem::Invalid(text) => {
                    let text = if pointer.ends_with("/type") && text.starts_with("matches none") {
                        let found = pointers
                            .node(pointer)
                            .map(|n| short_value(&n.to_json()))
                            .unwrap_or_default();
                        format!("must name a JSON type (`string`, `number`, `integer`, `boolean`, `object`, `array` or `null`) or list several, found {found}")
                    } else {
                        text
                    };
                    (pointers.span(pointer), format!("`{path}` {text}"))
                }
            };
            sink.report(file, span, format!("invalid JSON Schema: {problem}"))
                .label("not valid JSON Schema")
                .help(format!(
                    "`{key}` must be a valid JSON Schema (draft 2020-12 unless `$schema` says otherwise); correct this keyword"
                ));
            reported.insert(failure.pointer);
        }
        // The meta-schema only annotates `format: regex`: a pattern no engine compiles passes it,
        // and examples could then never be checked (TM010 skips a schema that does not compile).
        for bad in schema::uncompilable_patterns(&[node]).into_iter().flatten() {
            if reported.contains(&bad.pointer) {
                continue;
            }
            let path = display_path(key, &bad.pointer);
            sink.report(
                file,
                bad.span,
                format!(
                    "invalid JSON Schema: `{path}`: {}",
                    crate::rules::phrasing::bad_pattern_problem(&bad)
                ),
            )
            .label(if bad.not_judged.is_some() {
                "not compiled"
            } else {
                "not a regular expression the validator can compile"
            })
            .help("write an ECMA 262 regular expression (escape `[`, `(` and `{` meant literally); until it compiles, no example can be checked against it");
        }
    }
}
