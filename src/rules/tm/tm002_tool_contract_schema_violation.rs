//! TM002 `tool-contract-schema-violation`: The TOOL.md frontmatter does not match the AIP-14
//! tool contract schema.

use super::{contract_with_frontmatter, failures, short_value, Problem, DRIVER_FIELDS};
use crate::check::{code, Sink, Unit};
use crate::parse::node::pointer_token;
use crate::schema;
use crate::schema::display_path;

/// What to do about a failure at a top-level key, when the key has a specific convention.
fn key_help(pointer: &str) -> Option<&'static str> {
    let top = pointer.split('/').nth(1).unwrap_or_default();
    Some(match top {
        "name" => "give the tool a display name of 1-80 characters",
        "id" => "use 2-80 lowercase letters, digits, `.` and `-`, starting and ending with a letter or digit (e.g. `pricing-snapshot` or `image.create`)",
        "description" => "describe what the tool does and when to call it in 1-2000 characters",
        "version" => "use a semantic version such as `1.0.0`, quoted if YAML would read it as a number",
        "inputs" | "outputs" => "write a JSON Schema object, e.g. `type: object` with `properties` and `required`",
        "mutates" => "write each entry as `<class>:<scope>`, e.g. `workspace:/notes/*` or `network:api.example.com`",
        "approval" => "use `auto`, `always`, `on-mutate` or `policy:<ref>`",
        "risk_level" => "use 0 (read-only), 1 (scoped writes), 2 (external side effects) or 3 (irreversible)",
        "retry" => "write `retry` as `max_attempts` (1-20), `backoff` (`fixed` or `exponential`) and optionally `initial_ms`",
        "driver_constraints" => "list driver kinds (`cli`, `http`, `mcp`, `sdk`, `builtin`) under `forbid` or `require_kind`",
        "default_implementation" => "name a driver by its `id`, or use `null` to let the resolver choose",
        "tags" => "use lowercase tags of letters, digits and `-`, each listed once",
        "examples" => "give each example a `name` and an `input`, optionally an `output` and a `note`",
        "requires" => "list capabilities under `network`, `secrets` and `tools`, each a list of strings",
        _ => return None,
    })
}

/// A pattern failure restated for the key it guards.
fn pattern_expectation(pointer: &str, found: &str) -> Option<String> {
    let top = pointer.split('/').nth(1).unwrap_or_default();
    let what = match top {
        "id" => "must be lowercase letters, digits, `.` and `-`, starting and ending with a letter or digit",
        "version" => "must be a semantic version (`MAJOR.MINOR.PATCH`)",
        "mutates" => "must have the form `<class>:<scope>`",
        "tags" => "must be lowercase letters, digits and `-`",
        "default_implementation" => "must be a driver id (lowercase letters, digits, `.` and `-`)",
        _ => return None,
    };
    Some(format!("{what}, found {found}"))
}

pub(super) fn tool_contract_schema_violation(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(validator) = schema::embedded("tool") else {
        return;
    };
    let instance = fm.root.to_json();
    let mut pointers = schema::Pointers::new(&fm.root);
    for failure in failures(validator, &instance) {
        let pointer = failure.pointer.as_str();
        let path = display_path("", pointer);
        match failure.problem {
            Problem::Missing(key) => {
                let (span, message) = if pointer.is_empty() {
                    (
                        fm.opening,
                        format!("TOOL.md is missing the required key `{key}`"),
                    )
                } else {
                    (
                        pointers.span(pointer),
                        format!("`{path}` is missing the required key `{key}`"),
                    )
                };
                let help = key_help(&format!("{pointer}/{key}")).unwrap_or("add the key");
                sink.report(file, span, message)
                    .label(format!("no `{key}`"))
                    .help(help);
            }
            Problem::Unknown(key) => {
                // TM003 reports driver fields at the top level, while it runs for the file;
                // otherwise they are unknown keys like any other.
                if pointer.is_empty()
                    && DRIVER_FIELDS.iter().any(|(k, _)| *k == key)
                    && unit.reports(code::TM003, file)
                {
                    continue;
                }
                let span = pointers.span(&format!("{pointer}/{}", pointer_token(&key)));
                let (message, help) = if pointer.is_empty() {
                    (
                        format!("unknown key `{key}` in the TOOL.md frontmatter"),
                        "remove it or move it under `metadata`; AIP-14 rejects keys it does not define",
                    )
                } else {
                    (
                        format!("unknown key `{key}` in `{path}`"),
                        key_help(pointer).unwrap_or("remove the key"),
                    )
                };
                sink.report(file, span, message)
                    .label("not an AIP-14 field")
                    .help(help);
            }
            Problem::Invalid(text) => {
                let found = pointers
                    .node(pointer)
                    .map(|n| short_value(&n.to_json()))
                    .unwrap_or_default();
                let text = if text.starts_with("must match the pattern") {
                    pattern_expectation(pointer, &found).unwrap_or(text)
                } else if text.starts_with("matches none of the allowed forms")
                    && pointer == "/approval"
                {
                    format!(
                        "must be `auto`, `always`, `on-mutate` or `policy:<ref>`, found {found}"
                    )
                } else {
                    text
                };
                let span = pointers.span(pointer);
                let diagnostic = sink.report(file, span, format!("`{path}` {text}"));
                diagnostic.label("fails the TOOL contract schema");
                if let Some(help) = key_help(pointer) {
                    diagnostic.help(help);
                }
            }
        }
    }
}
