//! TM: AIP-14 `TOOL.md` tool contracts.

use super::util;
use crate::check::Unit;
use crate::check::{Check, RuleImpl, Sink};
use crate::diagnostic::{Applicability, Edit, Fix};
use crate::edit::newline;
use crate::index::Repo;
use crate::model::skill::{Frontmatter, MarkdownDoc};
use crate::parse::node::pointer_token;
use crate::parse::{Node, Value};
use crate::schema;
use crate::schema::display_path;
use crate::source::{join_path, normalize_path, parent_dir, FileId, Span};
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{Draft, Validator};
use std::collections::{BTreeMap, HashSet};

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: "TM001", check: Check::Unit(frontmatter_invalid) },
    RuleImpl { code: "TM002", check: Check::Unit(schema_violation) },
    RuleImpl { code: "TM003", check: Check::Unit(driver_field_in_tool) },
    RuleImpl { code: "TM004", check: Check::Unit(mutates_undeclared) },
    RuleImpl { code: "TM005", check: Check::Unit(auto_approval_with_mutations) },
    RuleImpl { code: "TM006", check: Check::Unit(risk_level_inconsistent) },
    RuleImpl { code: "TM007", check: Check::Unit(id_folder_mismatch) },
    RuleImpl { code: "TM008", check: Check::Repo(id_duplicate) },
    RuleImpl { code: "TM009", check: Check::Unit(io_schema_invalid) },
    RuleImpl { code: "TM010", check: Check::Unit(example_violates_schema) },
    RuleImpl { code: "TM011", check: Check::Unit(examples_count) },
    RuleImpl { code: "TM012", check: Check::Unit(description_lacks_when_not) },
    RuleImpl { code: "TM013", check: Check::Unit(driver_constraints_conflict) },
    RuleImpl { code: "TM014", check: Check::Unit(default_implementation_unresolved) },
    RuleImpl { code: "TM015", check: Check::Unit(required_tool_unresolved) },
    RuleImpl { code: "TM016", check: Check::Unit(outputs_not_strict) },
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

/// Phrases that tell the caller when not to use a tool (TM012), matched case-insensitively.
const WHEN_NOT_PHRASES: [&str; 17] = [
    "do not use",
    "don't use",
    "do not call",
    "don't call",
    "not use",
    "not for",
    "not to ",
    "not when",
    "not if",
    "not suitable",
    "not intended",
    "only when",
    "only if",
    "unless",
    "avoid",
    "never",
    "instead",
];

const EXAMPLES_MIN: usize = 2;
const EXAMPLES_MAX: usize = 5;

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

// ---------------------------------------------------------------------------------------------
// TM001

fn frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, doc)) = unit.contract() else {
        return;
    };
    super::report::report_frontmatter_problem(
        unit.repo,
        file,
        doc,
        sink,
        "start the file with a `---` line, the contract fields (`name`, `id`, `description`, `version`, `inputs`, `outputs`, `mutates`), then a closing `---`",
    );
}

// ---------------------------------------------------------------------------------------------
// TM002

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

fn schema_violation(unit: &Unit<'_>, sink: &mut Sink) {
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
                    && unit.reports("TM003", file)
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

// ---------------------------------------------------------------------------------------------
// TM003

fn driver_field_in_tool(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    for member in fm.root.as_object().unwrap_or_default() {
        let Some((_, home)) = DRIVER_FIELDS.iter().find(|(k, _)| *k == member.key) else {
            continue;
        };
        sink.report(
            file,
            member.key_span,
            format!("`{}` belongs on DRIVER.md (AIP-30), not on TOOL.md", member.key),
        )
        .label("an implementation field")
        .help(format!(
            "move it into a DRIVER.md that implements this tool, as {home}; then point `default_implementation` at that driver"
        ));
    }
}

// ---------------------------------------------------------------------------------------------
// TM004, TM005, TM006

fn mutates_undeclared(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    if fm.root.member("mutates").is_some() {
        return;
    }
    let diagnostic = sink.report(file, fm.opening, "tool contract does not declare `mutates`");
    diagnostic
        .label("frontmatter without `mutates`")
        .help("list the resources the tool may change as `<class>:<scope>`; a read-only tool has `mutates: []`");
    // Insert after `version` (else before the first key), when that key starts its own line.
    let members = fm.root.as_object().unwrap_or_default();
    let anchor = members
        .iter()
        .position(|m| m.key == "version")
        .and_then(|i| members.get(i + 1))
        .or_else(|| members.first());
    let text = unit.text(file);
    if let Some(at) = anchor.and_then(|m| line_start_of_key(text, m.key_span)) {
        diagnostic.fix(Fix {
            applicability: Applicability::Unsafe,
            description: "declare `mutates: []` (asserts the tool changes nothing)".to_string(),
            edits: vec![Edit {
                file,
                span: Span::empty(at),
                replacement: format!("mutates: []{}", newline(text)),
            }],
            rename_to: None,
        });
    }
}

/// The offset of the line `key` starts, when nothing but the key's own line start precedes it
/// (a top-level key of a block mapping); a line can then be inserted above it.
fn line_start_of_key(text: &str, key: Span) -> Option<usize> {
    let start = text.get(..key.start)?.rfind('\n').map_or(0, |i| i + 1);
    (start == key.start).then_some(start)
}

fn auto_approval_with_mutations(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(mutates) = fm.root.member("mutates") else {
        return;
    };
    let Some(items) = mutates.value.as_array().filter(|items| !items.is_empty()) else {
        return;
    };
    let mutated = match (items.first().and_then(Node::as_str), items.len()) {
        (Some(first), 1) => format!("mutates `{first}`"),
        (Some(first), n) => format!("mutates `{first}` and {} more", n - 1),
        (None, _) => "mutates resources".to_string(),
    };
    let help = "write `approval: on-mutate` explicitly (or `always`, or `policy:<ref>`) so a person approves each change";
    match fm.root.get("approval") {
        Some(approval) if approval.as_str() == Some("auto") => {
            sink.report(
                file,
                approval.span,
                "`approval: auto` lets a tool that mutates resources run without a prompt",
            )
            .label("no approval for a mutating tool")
            .secondary(file, mutates.value.span, mutated)
            .help(help)
            .fix(Fix {
                applicability: Applicability::Safe,
                description: "set `approval: on-mutate`".to_string(),
                edits: vec![Edit {
                    file,
                    span: approval.span,
                    replacement: "on-mutate".to_string(),
                }],
                rename_to: None,
            });
        }
        Some(_) => {}
        None => {
            let diagnostic = sink.report(
                file,
                mutates.key_span,
                "tool mutates resources but `approval` defaults to `auto`",
            );
            diagnostic
                .label("mutating tool without an `approval` class")
                .help(help);
            let text = unit.text(file);
            if let Some(at) = line_start_of_key(text, mutates.key_span) {
                diagnostic.fix(Fix {
                    applicability: Applicability::Safe,
                    description: "add `approval: on-mutate`".to_string(),
                    edits: vec![Edit {
                        file,
                        span: Span::empty(at),
                        replacement: format!("approval: on-mutate{}", newline(text)),
                    }],
                    rename_to: None,
                });
            }
        }
    }
}

fn risk_level_inconsistent(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(risk) = fm.root.get("risk_level") else {
        return;
    };
    // Only a well-formed level is compared; anything else is TM002's finding.
    let Some(level) = risk.as_f64().filter(|l| {
        matches!(&risk.value, Value::Number(n) if n.integer) && (0.0..=3.0).contains(l)
    }) else {
        return;
    };
    let mutates = fm.root.member("mutates");
    let mutation_count = mutates.and_then(|m| m.value.as_array()).map(<[Node]>::len);
    if level == 0.0 {
        if let (Some(count), Some(member)) = (mutation_count, mutates) {
            if count > 0 {
                sink.report(
                    file,
                    risk.span,
                    "`risk_level: 0` (read-only) on a tool that mutates resources",
                )
                .label("declared read-only")
                .secondary(file, member.value.span, "but it mutates these")
                .help("raise `risk_level` to 1 (scoped writes), 2 (external side effects) or 3 (irreversible)");
            }
        }
    } else if level >= 1.0 && mutation_count == Some(0) {
        if let Some(member) = mutates {
            sink.report(
                file,
                risk.span,
                format!("`risk_level: {}` on a tool that declares `mutates: []`", risk_text(risk)),
            )
            .label("declares side effects")
            .secondary(file, member.value.span, "but it mutates nothing")
            .help("list what the tool changes in `mutates`, or set `risk_level: 0` for a read-only tool");
        }
    }
    if level == 3.0 {
        let approval = fm.root.get("approval");
        let gated = approval
            .and_then(Node::as_str)
            .is_some_and(|a| a == "always" || a.starts_with("policy:"));
        if !gated {
            let diagnostic = sink.report(
                file,
                risk.span,
                "`risk_level: 3` (irreversible) without `approval: always` or a policy",
            );
            diagnostic.label("irreversible");
            if let Some(approval) = approval {
                diagnostic.secondary(file, approval.span, "approval class here");
            }
            diagnostic.help(
                "set `approval: always` (or `policy:<ref>`) so every irreversible call is approved",
            );
        }
    }
}

fn risk_text(node: &Node) -> String {
    match &node.value {
        Value::Number(n) => n.raw.clone(),
        _ => String::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// TM007, TM008

fn id_folder_mismatch(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(id) = fm.root.get("id") else {
        return;
    };
    let Some(text) = id.as_str().filter(|t| !t.is_empty()) else {
        return;
    };
    let folder = unit.dir().rsplit('/').next().unwrap_or_default();
    if folder == text {
        return;
    }
    sink.report(
        file,
        id.span,
        format!("tool id `{text}` does not match its folder `{folder}`"),
    )
    .label(format!("the folder is `{folder}`"))
    .help(format!(
        "rename the folder to `{text}` (or change `id`) so the tool is found where its id says"
    ));
}

/// The major version of a `MAJOR.MINOR.PATCH` string, when it has one.
fn major_version(version: &str) -> Option<u64> {
    version
        .split('.')
        .next()?
        .trim_start_matches('v')
        .parse()
        .ok()
}

fn id_duplicate(repo: &Repo, sink: &mut Sink) {
    for (id, files) in &repo.contracts.tools_by_id {
        if files.len() < 2 {
            continue;
        }
        let mut first_by_major: BTreeMap<Option<u64>, (FileId, Span)> = BTreeMap::new();
        let mut sorted = files.clone();
        sorted.sort();
        for file in sorted {
            let Some(fm) = repo.contract(file).and_then(MarkdownDoc::frontmatter) else {
                continue;
            };
            let Some(id_node) = fm.root.get("id") else {
                continue;
            };
            let major = fm
                .root
                .get("version")
                .and_then(Node::as_str)
                .and_then(major_version);
            match first_by_major.get(&major) {
                Some((first_file, first_span)) => {
                    let version = major.map_or_else(
                        || "without a version".to_string(),
                        |m| format!("at major version {m}"),
                    );
                    sink.report(
                        file,
                        id_node.span,
                        format!("another TOOL.md also declares `id: {id}` {version}"),
                    )
                    .label("duplicate tool id")
                    .secondary(*first_file, *first_span, "first declared here")
                    .help("give each contract its own `id`, or bump `version` to a new major for a breaking revision");
                }
                None => {
                    first_by_major.insert(major, (file, id_node.span));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TM009, TM010

const IO_KEYS: [&str; 2] = ["inputs", "outputs"];

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

fn io_schema_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    // A non-object `inputs`/`outputs` breaks the contract schema (TM002, "must be an object"),
    // which reports it while it runs for the file; otherwise a value that is not a schema at all
    // (a string, `null`) is meta-validated here like any other.
    let contract_reports = unit.reports("TM002", file);
    // The root `type` of `inputs` must be exactly `object`: SC002 reports any other value, a typo
    // such as `obj` included, and names the value that fits, while it runs for the file.
    let sc002_reports = unit.reports("SC002", file);
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
            if key == "inputs" && pointer == super::report::ROOT_TYPE_POINTER && sc002_reports {
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
                    super::report::pattern_problem(bad.keyword)
                ),
            )
            .label("not a regular expression the validator can compile")
            .help("write an ECMA 262 regular expression (escape `[`, `(` and `{` meant literally); until it compiles, no example can be checked against it");
        }
    }
}

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

fn example_violates_schema(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(examples) = fm.root.get("examples").and_then(Node::as_array) else {
        return;
    };
    for (key, field) in [("inputs", "input"), ("outputs", "output")] {
        let Some(schema_node) = fm.root.get(key).filter(|n| n.is_object()) else {
            continue;
        };
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
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TM011, TM012

fn examples_count(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let help = "author 2-5 input/output pairs that every driver must satisfy";
    match fm.root.member("examples") {
        None => {
            sink.report(file, fm.opening, "tool contract has no `examples`")
                .label("frontmatter without `examples`")
                .help(help);
        }
        Some(member) => {
            let Some(items) = member.value.as_array() else {
                return;
            };
            let count = items.len();
            if count < EXAMPLES_MIN {
                let noun = if count == 1 { "example" } else { "examples" };
                sink.report(
                    file,
                    member.key_span,
                    format!("tool contract has {count} {noun}; author at least {EXAMPLES_MIN}"),
                )
                .label("too few examples")
                .help(help);
            } else if count > EXAMPLES_MAX {
                sink.report(
                    file,
                    member.key_span,
                    format!("tool contract has {count} examples; keep at most {EXAMPLES_MAX}"),
                )
                .label("too many examples")
                .help(
                    "keep the 2-5 most telling pairs; move edge cases to the drivers' own examples",
                );
            }
        }
    }
}

fn says_when_not(description: &str) -> bool {
    let lower = description.to_lowercase().replace('\u{2019}', "'");
    WHEN_NOT_PHRASES.iter().any(|p| lower.contains(p))
}

fn description_lacks_when_not(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(description) = fm.root.get("description") else {
        return;
    };
    let Some(text) = description.as_str().filter(|t| !t.trim().is_empty()) else {
        return;
    };
    if says_when_not(text) {
        return;
    }
    sink.report(file, description.span, "tool description never says when not to call it")
        .label("no \"do not use …\" guidance")
        .help("add a sentence such as \"Do not use for …; use `<other-tool>` instead\" so the model can rule the tool out");
}

// ---------------------------------------------------------------------------------------------
// TM013

fn driver_constraints_conflict(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(constraints) = fm.root.get("driver_constraints") else {
        return;
    };
    let forbid = constraints
        .get("forbid")
        .and_then(Node::as_array)
        .unwrap_or_default();
    let required = constraints
        .get("require_kind")
        .and_then(Node::as_array)
        .unwrap_or_default();
    for kind in required {
        let Some(name) = kind.as_str() else {
            continue;
        };
        let Some(forbidden) = forbid.iter().find(|f| f.as_str() == Some(name)) else {
            continue;
        };
        sink.report(
            file,
            kind.span,
            format!("driver kind `{name}` is both required and forbidden"),
        )
        .label("required here")
        .secondary(file, forbidden.span, "forbidden here")
        .help("remove the kind from one of `require_kind` and `forbid`; no driver of that kind can satisfy both");
    }
}

// ---------------------------------------------------------------------------------------------
// TM014, TM015

/// Whether an `implements[].tool` reference in the driver at `driver_path` names the TOOL.md at
/// `tool_path` with id `tool_id`: by id, or by path (workspace-relative or relative to the
/// driver), to the file or its folder.
fn reference_names_tool(
    reference: &str,
    driver_path: &str,
    tool_path: &str,
    tool_id: &str,
) -> bool {
    if reference == tool_id {
        return true;
    }
    let tool_dir = parent_dir(tool_path);
    let from_driver = format!("{}/{reference}", parent_dir(driver_path));
    [join_path("", reference), from_driver]
        .iter()
        .filter_map(|candidate| normalize_path(candidate))
        .any(|candidate| candidate == tool_path || candidate == tool_dir)
}

fn driver_implements(repo: &Repo, driver: FileId, tool_file: FileId, tool_id: &str) -> bool {
    let Some(fm) = repo.driver(driver).and_then(MarkdownDoc::frontmatter) else {
        return false;
    };
    let driver_path = &repo.file(driver).rel_path;
    let tool_path = &repo.file(tool_file).rel_path;
    fm.root
        .get("implements")
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .filter_map(|entry| entry.get("tool").and_then(Node::as_str))
        .any(|reference| reference_names_tool(reference, driver_path, tool_path, tool_id))
}

fn default_implementation_unresolved(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(value) = fm.root.get("default_implementation") else {
        return;
    };
    let Some(driver_id) = value.as_str().filter(|t| !t.is_empty()) else {
        return;
    };
    let repo = unit.repo;
    let tool_id = fm.root.get("id").and_then(Node::as_str).unwrap_or_default();
    let Some(drivers) = repo.contracts.drivers_by_id.get(driver_id) else {
        let diagnostic = sink.report(
            file,
            value.span,
            format!("`default_implementation` `{driver_id}` names no driver in the repository"),
        );
        diagnostic.label("no DRIVER.md or CLI.md has this id");
        let candidates = repo.contracts.drivers_by_id.keys().map(String::as_str);
        match util::nearest(driver_id, candidates) {
            Some(near) => diagnostic.help(format!("did you mean `{near}`? `default_implementation` takes a driver's `id`")),
            None => diagnostic.help("add the DRIVER.md that implements this tool, or set `default_implementation` to an existing driver's `id`"),
        };
        return;
    };
    if drivers
        .iter()
        .any(|d| driver_implements(repo, *d, file, tool_id))
    {
        return;
    }
    let diagnostic = sink.report(
        file,
        value.span,
        format!("driver `{driver_id}` does not implement `{tool_id}`"),
    );
    diagnostic.label("default driver for this tool");
    if let Some(driver) = drivers.first() {
        let span = repo
            .driver(*driver)
            .and_then(MarkdownDoc::frontmatter)
            .map(|fm| {
                fm.root.member("implements").map_or_else(
                    || fm.root.get("id").map_or(fm.opening, |n| n.span),
                    |m| m.key_span,
                )
            })
            .unwrap_or_default();
        diagnostic.secondary(
            *driver,
            span,
            format!("`{driver_id}` does not list this tool in `implements`"),
        );
    }
    diagnostic.help(format!(
        "list `{tool_id}` in the driver's `implements`, or choose a driver that implements this tool"
    ));
}

fn required_tool_unresolved(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(tools) = fm
        .root
        .get("requires")
        .and_then(|r| r.get("tools"))
        .and_then(Node::as_array)
    else {
        return;
    };
    let known = &unit.repo.contracts.tools_by_id;
    for item in tools {
        let Some(id) = item.as_str() else {
            continue;
        };
        if known.contains_key(id) {
            continue;
        }
        let diagnostic = sink.report(
            file,
            item.span,
            format!("required tool `{id}` has no TOOL.md in the repository"),
        );
        diagnostic.label("no contract with this id");
        match util::nearest(id, known.keys().map(String::as_str)) {
            Some(near) => diagnostic.help(format!("did you mean `{near}`?")),
            None => {
                diagnostic.help("add the TOOL.md for this tool, or fix the id in `requires.tools`")
            }
        };
    }
}

// ---------------------------------------------------------------------------------------------
// TM016

fn outputs_not_strict(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(outputs) = fm.root.get("outputs") else {
        return;
    };
    let Some(properties) = outputs.member("properties") else {
        return;
    };
    if properties.value.as_object().is_none_or(<[_]>::is_empty) {
        return;
    }
    let required = outputs.member("required");
    // A `required` that is not a list is a broken schema, which TM009 reports while it runs for
    // the file; otherwise it is read as what it does, requiring nothing.
    let not_a_list = required.is_some_and(|m| m.value.as_array().is_none());
    if not_a_list && unit.reports("TM009", file) {
        return;
    }
    if required
        .and_then(|m| m.value.as_array())
        .is_some_and(|items| !items.is_empty())
    {
        return;
    }
    let diagnostic = sink.report(
        file,
        properties.key_span,
        "`outputs` declares properties but requires none of them",
    );
    diagnostic.label("every property is optional");
    if let Some(member) = required {
        let label = if not_a_list {
            "`required` is not a list, so it requires nothing"
        } else {
            "empty `required`"
        };
        diagnostic.secondary(file, member.value.span, label);
    }
    diagnostic.help("list the keys every successful result carries in `outputs.required`, so callers can rely on them");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_read_like_json_paths() {
        assert_eq!(
            display_path("", "/retry/max_attempts"),
            "retry.max_attempts"
        );
        assert_eq!(display_path("", "/examples/0/name"), "examples[0].name");
        assert_eq!(display_path("input", ""), "input");
        assert_eq!(display_path("input", "/a~1b/2"), "input.a/b[2]");
    }

    #[test]
    fn embedded_tool_schema_reports_each_key() {
        let validator = schema::embedded("tool").expect("the tool schema compiles");
        let found = failures(
            validator,
            &json!({
                "name": "X", "id": "Bad_Id", "description": "d", "inputs": {}, "outputs": {},
                "retry": {"max_attempts": 99, "backoff": "fixed"}, "runner": "node",
                "approval": "sometimes"
            }),
        );
        let pointers: Vec<(&str, &Problem)> = found
            .iter()
            .map(|f| (f.pointer.as_str(), &f.problem))
            .collect();
        assert!(pointers.contains(&("", &Problem::Missing("version".to_string()))));
        assert!(pointers.contains(&("", &Problem::Unknown("runner".to_string()))));
        assert!(found.iter().any(|f| f.pointer == "/id"));
        assert!(found.iter().any(|f| f.pointer == "/approval"));
        assert!(found.iter().any(|f| f.pointer == "/retry/max_attempts"
            && f.problem == Problem::Invalid("must be at most 20, found `99`".to_string())));
    }

    #[test]
    fn valid_contract_passes_the_embedded_schema() {
        let validator = schema::embedded("tool").expect("the tool schema compiles");
        let contract = json!({
            "name": "Append note", "id": "notes.append", "description": "Appends a line.",
            "version": "1.2.0-beta.1", "inputs": {"type": "object"}, "outputs": {"type": "object"},
            "mutates": ["workspace:/notes/*"], "approval": "policy:notes/write", "risk_level": 1,
            "default_implementation": null, "implements": "storage:commit",
            "driver_constraints": {"forbid": ["http"], "require_kind": ["sdk"]},
            "examples": [{"name": "a", "input": {}, "output": null}], "metadata": {"x": 1}
        });
        assert!(failures(validator, &contract).is_empty());
    }

    #[test]
    fn when_not_phrases() {
        assert!(says_when_not("Reads a file. Do NOT use for binaries."));
        assert!(says_when_not("Use ONLY when the user confirmed."));
        assert!(says_when_not("Don\u{2019}t use it for images."));
        assert!(!says_when_not("Fetches the pricing tiers of a product."));
    }

    #[test]
    fn references_resolve_by_id_and_path() {
        let tool = ".tools/pricing-snapshot/TOOL.md";
        let driver = ".drivers/apollo/DRIVER.md";
        assert!(reference_names_tool(
            "pricing-snapshot",
            driver,
            tool,
            "pricing-snapshot"
        ));
        assert!(reference_names_tool(
            "./.tools/pricing-snapshot/TOOL.md",
            driver,
            tool,
            "x"
        ));
        assert!(reference_names_tool(
            ".tools/pricing-snapshot",
            driver,
            tool,
            "x"
        ));
        assert!(reference_names_tool(
            "../../.tools/pricing-snapshot/TOOL.md",
            driver,
            tool,
            "x"
        ));
        assert!(reference_names_tool(
            "./TOOL.md",
            ".tools/pricing-snapshot/DRIVER.md",
            tool,
            "x"
        ));
        assert!(!reference_names_tool(
            "../../../x/TOOL.md",
            driver,
            tool,
            "x"
        ));
        assert!(!reference_names_tool(
            "other-tool",
            driver,
            tool,
            "pricing-snapshot"
        ));
    }

    #[test]
    fn lines_are_inserted_only_above_top_level_keys() {
        let text = "---\nname: x\nmutates: [a:b]\n---\n";
        let at = text.find("mutates").expect("present");
        assert_eq!(line_start_of_key(text, Span::new(at, at + 7)), Some(at));
        let nested = "---\n{name: x, mutates: [a:b]}\n---\n";
        let at = nested.find("mutates").expect("present");
        assert_eq!(line_start_of_key(nested, Span::new(at, at + 7)), None);
    }

    #[test]
    fn meta_failures_name_the_broken_keyword() {
        let broken =
            json!({"type": "object", "properties": {"a": {"type": "text"}}, "required": "a"});
        let found = meta_failures(&broken);
        let pointers: Vec<&str> = found.iter().map(|f| f.pointer.as_str()).collect();
        assert!(pointers.contains(&"/properties/a/type"), "{pointers:?}");
        assert!(pointers.contains(&"/required"), "{pointers:?}");
        let unknown = meta_failures(&json!({"$schema": "https://example.com/s"}));
        assert_eq!(unknown.len(), 1);
        assert!(meta_failures(&json!({"type": "object"})).is_empty());
    }

    #[test]
    fn major_versions() {
        assert_eq!(major_version("1.2.3"), Some(1));
        assert_eq!(major_version("10.0.0-rc.1"), Some(10));
        assert_eq!(major_version("latest"), None);
    }
}
