//! SC: tool schema quality, SPEC §3.7.
//!
//! Every tool of every `tools.json` dialect (forge, MCP, OpenAI, script) is checked through the
//! normalised [`Tool`] model, and the `inputs` schema of a `TOOL.md` goes through the same schema
//! checks (SC002–SC006, SC013). Meta-validation of TOOL.md schemas is TM009's job, so SC001 looks
//! at tools files only.
//!
//! The schema checks walk the *schema positions* of a schema (`properties`, `items`, `allOf`, …)
//! rather than every JSON value, so `default`, `enum` and `examples` values are never mistaken for
//! schemas.

use super::report::{pattern_problem, ROOT_TYPE_POINTER};
use super::util::name_words;
use crate::check::Unit;
use crate::check::{Check, RuleImpl, Sink};
use crate::diagnostic::{Edit, Fix};
use crate::edit::json::{Json, Place};
use crate::model::tools::{Dialect, SideEffect, Tool};
use crate::parse::node::{pointer_token, Node, Value};
use crate::schema;
use crate::semantic::schemas::{
    strict_flag, tool_subject, tool_subjects, Owner, Site, Subject, Via,
};
use crate::source::{FileId, Span};
use std::collections::BTreeSet;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: "SC001", check: Check::Unit(input_schema_invalid) },
    RuleImpl { code: "SC002", check: Check::Unit(input_schema_not_object) },
    RuleImpl { code: "SC003", check: Check::Unit(open_input_object) },
    RuleImpl { code: "SC004", check: Check::Unit(required_property_undefined) },
    RuleImpl { code: "SC005", check: Check::Unit(parameter_undescribed) },
    RuleImpl { code: "SC006", check: Check::Unit(parameter_unbounded) },
    RuleImpl { code: "SC007", check: Check::Unit(tool_name_invalid) },
    RuleImpl { code: "SC008", check: Check::Unit(tool_name_not_portable) },
    RuleImpl { code: "SC009", check: Check::Unit(annotation_contradiction) },
    RuleImpl { code: "SC010", check: Check::Unit(behavior_annotations_missing) },
    RuleImpl { code: "SC011", check: Check::Unit(execution_bounds_missing) },
    RuleImpl { code: "SC012", check: Check::Unit(destructive_tool_without_dry_run) },
    RuleImpl { code: "SC013", check: Check::Unit(remote_schema_ref) },
    RuleImpl { code: "SC014", check: Check::Unit(openai_strict_violation) },
    RuleImpl { code: "SC015", check: Check::Unit(tool_description_missing) },
];

/// MCP: tool names are 1–128 characters of ASCII letters, digits, `_`, `-` and `.`.
const MCP_NAME_MAX: usize = 128;
/// OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`.
const PORTABLE_NAME_MAX: usize = 64;
/// How many `$ref` hops a local reference is followed before giving up (cycles, chains).
const MAX_REF_HOPS: usize = 8;
/// SC001 reports at most this many meta-validation failures per schema.
const MAX_META_ERRORS: usize = 5;
/// Name prefixes that make a writing tool destructive for SC012.
const DESTRUCTIVE_VERBS: [&str; 5] = ["delete", "remove", "drop", "purge", "destroy"];

// ---------------------------------------------------------------------------------------------
// Subjects and sites (found in `semantic::schemas`): what the rules ask of them
// ---------------------------------------------------------------------------------------------

impl Subject<'_> {
    /// A forge `inputSchema` or a TOOL.md `inputs` that is not an object breaks the contract that
    /// holds it ("must be a JSON Schema object"): TJ002 (forge) or TM002 (TOOL.md) reports it, and
    /// the schema rules do not repeat it while that rule runs for the file. With the contract rule
    /// off, the schema rules judge the value like any other schema.
    fn left_to_contract(&self, unit: &Unit<'_>) -> bool {
        if self.schema.is_object() {
            return false;
        }
        match self.dialect {
            Some(Dialect::Forge) => unit.reports("TJ002", self.file),
            None => unit.reports("TM002", self.file),
            Some(_) => false,
        }
    }

    /// The rule that meta-validates this schema: SC001 for a tool's, TM009 for a TOOL.md's.
    fn meta_rule(&self) -> &'static str {
        if self.dialect.is_some() {
            "SC001"
        } else {
            "TM009"
        }
    }
}

impl Subject<'_> {
    /// How a message names the schema at `site`.
    fn describe(&self, site: &Site<'_>, sites: &[Site<'_>]) -> String {
        if site.via == Via::Root {
            return format!("{} of {}", self.schema_word, self.owner);
        }
        match property_path(site, sites) {
            Some(path) => format!("{} `{path}` of {}", self.parameter_word, self.owner),
            None => format!(
                "`{}` in the {} of {}",
                pointer(site, sites),
                self.schema_word,
                self.owner
            ),
        }
    }
}

/// `options.hourly` for a property reached through `properties` only; `None` otherwise.
fn property_path(site: &Site<'_>, sites: &[Site<'_>]) -> Option<String> {
    let mut names = Vec::new();
    let mut current = site;
    while current.via == Via::Property {
        names.push(current.name?);
        current = sites.get(current.parent?)?;
    }
    if current.via != Via::Root || names.is_empty() {
        return None;
    }
    names.reverse();
    Some(names.join("."))
}

impl std::fmt::Display for Owner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Owner::Tool(tool) => write!(f, "tool `{}`", tool.display_name()),
            Owner::Contract(Some(id)) => write!(f, "contract `{id}`"),
            Owner::Contract(None) => f.write_str("this TOOL.md"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading a schema
// ---------------------------------------------------------------------------------------------

/// The JSON pointer of `site` from the schema root (built only for messages).
fn pointer(site: &Site<'_>, sites: &[Site<'_>]) -> String {
    let mut steps = Vec::new();
    let mut current = Some(site);
    while let Some(site) = current {
        if site.via == Via::Root {
            break;
        }
        let mut step = format!("/{}", pointer_token(site.keyword));
        if let Some(name) = site.name {
            step.push('/');
            step.push_str(&pointer_token(name));
        }
        if let Some(i) = site.index {
            step.push_str(&format!("/{i}"));
        }
        steps.push(step);
        current = site.parent.and_then(|p| sites.get(p));
    }
    steps.reverse();
    steps.concat()
}

/// Follows a local `$ref` (`#`, `#/$defs/x`) from `node`, a few hops at most; `None` when the
/// reference is remote or does not resolve.
fn resolve<'a>(root: &'a Node, node: &'a Node) -> Option<&'a Node> {
    let mut current = node;
    for _ in 0..MAX_REF_HOPS {
        let Some(reference) = current.get("$ref").and_then(Node::as_str) else {
            return Some(current);
        };
        let fragment = reference.strip_prefix('#')?;
        current = root.pointer(fragment)?;
    }
    None
}

/// The JSON types a schema declares (`type: "x"` or `type: ["x", "y"]`).
fn declared_types(node: &Node) -> Vec<&str> {
    match node.get("type") {
        Some(t) => match &t.value {
            Value::String(s) => vec![s.as_str()],
            Value::Array(items) => items.iter().filter_map(Node::as_str).collect(),
            _ => Vec::new(),
        },
        None => Vec::new(),
    }
}

/// An object schema: `type` includes `object`, or no `type` but `properties`.
fn is_object_schema(node: &Node) -> bool {
    let types = declared_types(node);
    types.contains(&"object") || (node.get("type").is_none() && node.get("properties").is_some())
}

/// Where a diagnostic about an object schema points: its `type` key, else its `properties` key,
/// else the key naming the schema.
fn object_anchor(site: &Site<'_>, subject: &Subject<'_>) -> Span {
    site.node
        .member("type")
        .or_else(|| site.node.member("properties"))
        .map(|m| m.key_span)
        .or(site.key_span)
        .unwrap_or(subject.key_span)
}

// ---------------------------------------------------------------------------------------------
// SC001 input-schema-invalid
// ---------------------------------------------------------------------------------------------

fn input_schema_invalid(unit: &Unit<'_>, sink: &mut Sink) {
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
        if unit.reports("SC002", subject.file) {
            seen.insert(ROOT_TYPE_POINTER);
        }
        let mut reported = 0;
        for error in &errors {
            if !seen.insert(error.pointer.as_str()) {
                continue;
            }
            if reported == MAX_META_ERRORS {
                break;
            }
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
                    pattern_problem(bad.keyword)
                ),
            )
            .label("not a regular expression the validator can compile")
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

// ---------------------------------------------------------------------------------------------
// SC002 input-schema-not-object
// ---------------------------------------------------------------------------------------------

fn input_schema_not_object(unit: &Unit<'_>, sink: &mut Sink) {
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

// ---------------------------------------------------------------------------------------------
// SC003 open-input-object
// ---------------------------------------------------------------------------------------------

/// Whether an object schema rejects undeclared properties. `unevaluatedProperties: false` closes
/// it as well (and is the only closing that works across `allOf`); an explicit schema-valued
/// `additionalProperties` is a deliberate typed map.
fn closing(node: &Node) -> Closing<'_> {
    if node.get("unevaluatedProperties").and_then(Node::as_bool) == Some(false) {
        return Closing::Closed;
    }
    match node.member("additionalProperties") {
        None => Closing::Absent,
        Some(m) => match &m.value.value {
            Value::Bool(false) => Closing::Closed,
            Value::Bool(true) => Closing::Open(&m.value),
            Value::Object(members) if members.is_empty() => Closing::Open(&m.value),
            _ => Closing::Closed,
        },
    }
}

enum Closing<'a> {
    Closed,
    Absent,
    /// `additionalProperties: true` or `{}`, written out.
    Open(&'a Node),
}

/// Adds `additionalProperties: false` as the last key of a block-style YAML mapping (a TOOL.md
/// `inputs` object), at the indentation of its other keys. `None` for a flow mapping (`{…}`).
fn yaml_close(text: &str, file: FileId, object: &Node) -> Option<Edit> {
    let members = object.as_object()?;
    let first = members.first()?;
    let last = members.last()?;
    if text.get(object.span.start..)?.starts_with('{') {
        return None;
    }
    let line_start = text
        .get(..first.key_span.start)?
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let column = text.get(line_start..first.key_span.start)?.chars().count();
    // After the whole line the last value ends on, so a trailing comment stays where it is.
    let value_end = last.value.span.end.max(last.key_span.end);
    let line_end = text
        .get(value_end..)?
        .find('\n')
        .map_or(text.len(), |i| value_end + i);
    let line_end = if text.get(..line_end)?.ends_with('\r') {
        line_end - 1
    } else {
        line_end
    };
    Some(Edit::insert(
        file,
        line_end,
        format!(
            "{}{}additionalProperties: false",
            crate::edit::newline(text),
            " ".repeat(column)
        ),
    ))
}

/// A nested object schema meant as a free-form map: no declared properties (none, or an empty
/// `properties`), or a schema-valued `additionalProperties` that types its values. Closing such an
/// object would make it accept only `{}`.
fn is_free_form_map(node: &Node) -> bool {
    let declares_properties = node
        .get("properties")
        .and_then(Node::as_object)
        .is_some_and(|members| !members.is_empty());
    let typed_values = node
        .get("additionalProperties")
        .and_then(Node::as_object)
        .is_some_and(|members| !members.is_empty());
    !declares_properties || typed_values
}

/// Whether SC003 judges the object schema at `site`: the root (a tool without parameters
/// included) unless it is synthesised or composed entirely of branches, and every nested object
/// that declares properties, except composition branches and conditions.
fn judged_object(site: &Site<'_>, subject: &Subject<'_>) -> bool {
    if site.in_condition || !is_object_schema(site.node) {
        return false;
    }
    match site.via {
        // Composition branches are closed where they are combined; closing a single `allOf`
        // branch rejects the other branches' properties.
        Via::Branch | Via::Condition => false,
        Via::Root => {
            !subject.synthesised_root
                && (site.node.get("properties").is_some()
                    || !["allOf", "anyOf", "oneOf"]
                        .iter()
                        .any(|k| site.node.get(k).is_some()))
        }
        _ => !is_free_form_map(site.node),
    }
}

/// One open object of a schema: where it is reported and how it is closed.
struct OpenObject<'s, 'a> {
    site: &'s Site<'a>,
    /// The `additionalProperties: true` or `{}` value, when it is written out.
    written: Option<&'a Node>,
}

impl OpenObject<'_, '_> {
    fn span(&self, subject: &Subject<'_>) -> Span {
        self.written
            .map_or_else(|| object_anchor(self.site, subject), |value| value.span)
    }
}

fn open_input_object(unit: &Unit<'_>, sink: &mut Sink) {
    for subject in unit.schema_subjects() {
        // In strict mode an open object is an error, which SC014 reports while it runs.
        if subject.strict && unit.reports("SC014", subject.file) {
            continue;
        }
        let sites = unit.schema_sites(subject.schema);
        let open: Vec<OpenObject<'_, '_>> = sites
            .iter()
            .filter(|site| judged_object(site, subject))
            .filter_map(|site| match closing(site.node) {
                Closing::Closed => None,
                Closing::Absent => Some(OpenObject {
                    site,
                    written: None,
                }),
                Closing::Open(value) => Some(OpenObject {
                    site,
                    written: Some(value),
                }),
            })
            .collect();
        // The root first when it is open (sites start at the root), else the first nested one.
        let Some((first, others)) = open.split_first() else {
            continue;
        };
        let text = unit.text(subject.file);
        // Built only for a finding: it scans the file for its indentation.
        let json = subject
            .dialect
            .is_some()
            .then(|| unit.json_text(subject.file));
        let close = |object: &OpenObject<'_, '_>| match (object.written, &json) {
            (Some(value), Some(j)) => Some(j.replace(value, &Json::Bool(false))),
            (Some(value), None) => Some(Edit::replace(subject.file, value.span, "false")),
            (None, Some(j)) => j.insert_members(
                object.site.node,
                Place::Last,
                &[("additionalProperties", Json::Bool(false))],
            ),
            (None, None) => yaml_close(text, subject.file, object.site.node),
        };
        // Innermost first: in YAML a nested object that ends its parent is closed at the same
        // offset as the parent, and the inserted lines must come out in that order.
        let edits: Vec<Edit> = open.iter().rev().filter_map(close).collect();
        let more = match others.len() {
            0 => String::new(),
            1 => ", as does 1 nested object".to_string(),
            n => format!(", as do {n} nested objects"),
        };
        let diagnostic = sink.report(
            subject.file,
            first.span(subject),
            format!(
                "{} accepts undeclared properties{more}",
                subject.describe(first.site, &sites)
            ),
        );
        diagnostic.label(if first.written.is_some() {
            "undeclared properties allowed here"
        } else {
            "object without `additionalProperties: false`"
        });
        for other in others {
            diagnostic.secondary(
                subject.file,
                other.span(subject),
                format!(
                    "{} also accepts undeclared properties",
                    subject.describe(other.site, &sites)
                ),
            );
        }
        diagnostic.help(if others.is_empty() && first.written.is_some() {
            "set `additionalProperties` to `false` so a hallucinated or misspelled argument fails validation instead of being ignored"
        } else if others.is_empty() {
            "add `additionalProperties: false` so a hallucinated or misspelled argument fails validation instead of being ignored"
        } else {
            "close each of these objects with `additionalProperties: false` so a hallucinated or misspelled argument fails validation instead of being ignored; objects meant as free-form maps (no `properties`) are left open"
        });
        if !edits.is_empty() {
            let description = if edits.len() == 1 {
                "set `additionalProperties: false` (unsafe: callers sending extra fields will start failing)".to_string()
            } else {
                format!(
                    "set `additionalProperties: false` on {} objects (unsafe: callers sending extra fields will start failing)",
                    edits.len()
                )
            };
            diagnostic.fix(Fix::unsafe_(description, edits));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// SC004 required-property-undefined
// ---------------------------------------------------------------------------------------------

/// The property names a schema declares for its instance, through local `$ref`s and composition
/// branches; `None` when they cannot be known statically (a remote ref, `patternProperties`, a
/// typed `additionalProperties` map).
fn declared_names<'a>(root: &'a Node, node: &'a Node, depth: usize) -> Option<BTreeSet<&'a str>> {
    if depth > MAX_REF_HOPS {
        return None;
    }
    let node = resolve(root, node)?;
    let mut names = BTreeSet::new();
    if node.get("patternProperties").is_some() {
        return None;
    }
    let typed_map = node
        .get("additionalProperties")
        .and_then(Node::as_object)
        .is_some_and(|members| !members.is_empty());
    if typed_map {
        return None;
    }
    for member in node
        .get("properties")
        .and_then(Node::as_object)
        .unwrap_or_default()
    {
        names.insert(member.key.as_str());
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        for branch in node
            .get(keyword)
            .and_then(Node::as_array)
            .unwrap_or_default()
        {
            names.extend(declared_names(root, branch, depth + 1)?);
        }
    }
    for keyword in ["then", "else"] {
        if let Some(branch) = node.get(keyword) {
            names.extend(declared_names(root, branch, depth + 1)?);
        }
    }
    for member in node
        .get("dependentSchemas")
        .and_then(Node::as_object)
        .unwrap_or_default()
    {
        names.extend(declared_names(root, &member.value, depth + 1)?);
    }
    Some(names)
}

/// The names `required` at `index` may refer to: the site's own, plus its parents' while it is a
/// branch or condition applied to the parent's instance.
fn names_in_scope<'a>(
    root: &'a Node,
    sites: &[Site<'a>],
    index: usize,
) -> Option<BTreeSet<&'a str>> {
    let site = sites.get(index)?;
    let mut names = declared_names(root, site.node, 0)?;
    if matches!(site.via, Via::Branch | Via::Condition) {
        if let Some(parent) = site.parent {
            names.extend(names_in_scope(root, sites, parent)?);
        }
    }
    Some(names)
}

fn required_property_undefined(unit: &Unit<'_>, sink: &mut Sink) {
    for subject in unit.schema_subjects() {
        let sites = unit.schema_sites(subject.schema);
        for (index, site) in sites.iter().enumerate() {
            let Some(required) = site.node.get("required").and_then(Node::as_array) else {
                continue;
            };
            let Some(names) = names_in_scope(subject.schema, &sites, index) else {
                continue;
            };
            for entry in required {
                let Some(name) = entry.as_str() else {
                    continue;
                };
                if names.contains(name) {
                    continue;
                }
                let what = subject.describe(site, &sites);
                let diagnostic = sink
                    .report(
                        subject.file,
                        entry.span,
                        format!("{what} requires `{name}`, which `properties` does not define"),
                    )
                    .label("no property of this name");
                match super::util::nearest(name, names.iter().copied()) {
                    Some(suggestion) => diagnostic.help(format!(
                        "did you mean `{suggestion}`? A required name that no property declares can never be satisfied with a typed value"
                    )),
                    None => diagnostic.help(format!(
                        "declare `{name}` under `properties` with its type and description, or remove it from `required`"
                    )),
                };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// SC005 parameter-undescribed, SC006 parameter-unbounded
// ---------------------------------------------------------------------------------------------

/// Declared parameters: `properties` values outside conditions, with their key spans.
fn parameters<'s, 'a>(sites: &'s [Site<'a>]) -> impl Iterator<Item = (&'s Site<'a>, Span)> {
    sites.iter().filter_map(|site| {
        (site.via == Via::Property && !site.in_condition)
            .then_some(site.key_span)
            .flatten()
            .map(|span| (site, span))
    })
}

fn parameter_undescribed(unit: &Unit<'_>, sink: &mut Sink) {
    for subject in unit.schema_subjects() {
        let sites = unit.schema_sites(subject.schema);
        for (site, key_span) in parameters(&sites) {
            let described = |node: &Node| {
                node.get("description")
                    .and_then(Node::as_str)
                    .is_some_and(|d| !d.trim().is_empty())
            };
            let resolved = resolve(subject.schema, site.node);
            if described(site.node) || resolved.is_some_and(described) {
                continue;
            }
            let blank = site.node.get("description").is_some();
            let what = subject.describe(site, &sites);
            sink.report(
                subject.file,
                key_span,
                if blank {
                    format!("{what} has a blank description")
                } else {
                    format!("{what} has no description")
                },
            )
            .label("undescribed")
            .help("add a `description` that states the unit, format and preconditions, e.g. \"ISO-8601 UTC timestamp (YYYY-MM-DDTHH:mm:ssZ); must not be in the past\"");
        }
    }
}

fn parameter_unbounded(unit: &Unit<'_>, sink: &mut Sink) {
    for subject in unit.schema_subjects() {
        let sites = unit.schema_sites(subject.schema);
        for (site, key_span) in parameters(&sites) {
            let Some(node) = resolve(subject.schema, site.node) else {
                continue;
            };
            if node.get("enum").is_some() || node.get("const").is_some() {
                continue;
            }
            let types = declared_types(node);
            let what = || subject.describe(site, &sites);
            let numeric = types.iter().find(|t| matches!(**t, "integer" | "number"));
            if let Some(kind) = numeric {
                let low = ["minimum", "exclusiveMinimum"]
                    .iter()
                    .any(|k| node.get(k).is_some());
                let high = ["maximum", "exclusiveMaximum"]
                    .iter()
                    .any(|k| node.get(k).is_some());
                let missing = match (low, high) {
                    (true, true) => None,
                    (true, false) => Some("no `maximum`"),
                    (false, true) => Some("no `minimum`"),
                    (false, false) => Some("neither `minimum` nor `maximum`"),
                };
                if let Some(missing) = missing {
                    sink.report(
                        subject.file,
                        key_span,
                        format!("{} is an unbounded {kind}: {missing}", what()),
                    )
                    .label("unbounded number")
                    .help("give the range the tool really accepts with `minimum` and `maximum` (or an `enum`), so an out-of-range value fails validation");
                }
                continue;
            }
            let free = types.contains(&"string")
                && !["pattern", "format", "maxLength"]
                    .iter()
                    .any(|k| node.get(k).is_some());
            if free {
                sink.report(
                    subject.file,
                    key_span,
                    format!("{} is a free-form string", what()),
                )
                .label("no `enum`, `pattern`, `format` or `maxLength`")
                .help("constrain it with an `enum`, a `pattern`, a `format` (date-time, uri, …) or at least a `maxLength`");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// SC007 tool-name-invalid, SC008 tool-name-not-portable
// ---------------------------------------------------------------------------------------------

fn is_mcp_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// OpenAI and Anthropic: MCP's characters less `.`.
fn is_portable_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-')
}

/// Why `name` is not a valid MCP tool name, if it is not.
fn mcp_name_problem(name: &str) -> Option<String> {
    let length = name.chars().count();
    if length == 0 {
        return Some("tool name is empty".to_string());
    }
    let mut bad: Vec<char> = name.chars().filter(|c| !is_mcp_name_char(*c)).collect();
    bad.sort_unstable();
    bad.dedup();
    if !bad.is_empty() {
        let shown: Vec<String> = bad.iter().take(5).map(|c| describe_char(*c)).collect();
        return Some(format!(
            "tool name `{name}` contains {}; MCP allows only ASCII letters, digits, `_`, `-` and `.`",
            join_and(&shown)
        ));
    }
    (length > MCP_NAME_MAX).then(|| {
        format!("tool name is {length} characters long; MCP allows at most {MCP_NAME_MAX}")
    })
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn describe_char(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        '`' => "a backtick".to_string(),
        c if c.is_control() || c.is_whitespace() => format!("U+{:04X}", c as u32),
        c => format!("`{c}`"),
    }
}

/// A forge tool's missing, mistyped or empty name breaks the forge contract: TJ002 reports it
/// while it runs for the file, and the name rules do not repeat it.
fn name_left_to_contract(unit: &Unit<'_>, file: FileId, tool: &Tool) -> bool {
    tool.dialect == Dialect::Forge
        && tool.name().is_none_or(str::is_empty)
        && unit.reports("TJ002", file)
}

fn tool_name_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "use 1–128 ASCII letters, digits, `_`, `-` or `.`; snake_case (`create_event`) works with every client";
    for (file, tool) in unit.tools() {
        match tool.name_node() {
            _ if name_left_to_contract(unit, file, tool) => {}
            None => {
                let start = tool.definition().span.start;
                sink.report(
                    file,
                    Span::new(start, start + 1),
                    format!(
                        "{} tool at `{}` has no `name`",
                        tool.dialect.as_str(),
                        tool.pointer
                    ),
                )
                .label("this entry has no `name`")
                .help(HELP);
            }
            Some(node) => match node.as_str() {
                None => {
                    sink.report(
                        file,
                        node.span,
                        format!("tool name must be a string, found {}", node.type_name()),
                    )
                    .label("not a string")
                    .help(HELP);
                }
                Some(name) => {
                    if let Some(problem) = mcp_name_problem(name) {
                        sink.report(file, node.span, problem)
                            .label("invalid tool name")
                            .help(HELP);
                    }
                }
            },
        }
    }
}

/// `lower_snake_case`: lowercase ASCII words of letters and digits joined by single `_`.
fn is_snake_case(name: &str) -> bool {
    name.split('_').all(|w| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    }) && name.starts_with(|c: char| c.is_ascii_lowercase())
}

fn tool_name_not_portable(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        let Some(node) = tool.name_node() else {
            continue;
        };
        let Some(name) = node.as_str() else {
            continue;
        };
        // SC007 reports names MCP itself rejects, while it runs for the file (and TJ002 a forge
        // tool's empty name); otherwise they are reported here: OpenAI and Anthropic accept a
        // subset of MCP's names, so they reject these too.
        if mcp_name_problem(name).is_some()
            && (unit.reports("SC007", file) || name_left_to_contract(unit, file, tool))
        {
            continue;
        }
        let length = name.chars().count();
        let mut bad: Vec<char> = name
            .chars()
            .filter(|c| !is_portable_name_char(*c))
            .collect();
        bad.sort_unstable();
        bad.dedup();
        let problem = if length == 0 {
            "tool name is empty".to_string()
        } else if length > PORTABLE_NAME_MAX {
            format!(
                "tool name is {length} characters long; OpenAI and Anthropic allow at most {PORTABLE_NAME_MAX}"
            )
        } else if !bad.is_empty() {
            let shown: Vec<String> = bad.iter().take(5).map(|c| describe_char(*c)).collect();
            format!(
                "tool name `{name}` contains {}, which OpenAI and Anthropic reject",
                join_and(&shown)
            )
        } else if !is_snake_case(name) {
            format!("tool name `{name}` is not snake_case")
        } else {
            continue;
        };
        let suggestion = name_words(name).join("_");
        let help = if !suggestion.is_empty()
            && suggestion != name
            && suggestion.len() <= PORTABLE_NAME_MAX
            && is_snake_case(&suggestion)
        {
            format!("rename it to `{suggestion}` and update every reference to it")
        } else {
            "use at most 64 characters of lowercase letters, digits and `_` (snake_case verbs scoped by domain, e.g. `orders_get_by_id`)".to_string()
        };
        sink.report(file, node.span, problem)
            .label("not portable")
            .help(help);
    }
}

// ---------------------------------------------------------------------------------------------
// SC009 annotation-contradiction, SC010 behavior-annotations-missing
// ---------------------------------------------------------------------------------------------

const HINTS: [&str; 3] = ["readOnlyHint", "destructiveHint", "idempotentHint"];

fn hint<'a>(tool: &'a Tool, key: &str) -> Option<(bool, &'a Node)> {
    let node = tool.annotations()?.get(key)?;
    node.as_bool().map(|b| (b, node))
}

fn annotation_contradiction(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        let name = tool.display_name();
        let read_only = hint(tool, "readOnlyHint");
        let destructive = hint(tool, "destructiveHint");
        let idempotent = hint(tool, "idempotentHint");

        if let (Some((true, ro)), Some((true, de))) = (read_only, destructive) {
            sink.report(
                file,
                de.span,
                format!("tool `{name}` is annotated both read-only and destructive"),
            )
            .label("destructive")
            .secondary(file, ro.span, "read-only")
            .help("a tool that never changes its environment cannot destroy anything: drop `destructiveHint`, or set `readOnlyHint` to `false` if the tool writes");
        }

        // The forge `type` states the side effect; the annotations must agree with it.
        let forge_type = (tool.dialect == Dialect::Forge)
            .then(|| tool.entry.get("type"))
            .flatten()
            .and_then(|t| t.as_str().map(|s| (s, t)));
        match forge_type {
            Some(("write", type_node)) => {
                if let Some((true, ro)) = read_only {
                    sink.report(
                        file,
                        ro.span,
                        format!("write tool `{name}` is annotated `readOnlyHint: true`"),
                    )
                    .label("claims the tool never writes")
                    .secondary(file, type_node.span, "declared a write tool here")
                    .help("set `readOnlyHint` to `false`: clients skip confirmation for tools they believe are read-only");
                }
            }
            Some(("read", type_node)) => {
                let claim = match (read_only, destructive) {
                    (Some((false, ro)), _) => Some((ro, "readOnlyHint: false")),
                    (_, Some((true, de))) => Some((de, "destructiveHint: true")),
                    _ => None,
                };
                if let Some((node, text)) = claim {
                    sink.report(
                        file,
                        node.span,
                        format!("read tool `{name}` is annotated `{text}`"),
                    )
                    .label("claims the tool writes")
                    .secondary(file, type_node.span, "declared a read tool here")
                    .help("make the annotation and the `type` agree: if the tool changes anything it is a `write` tool");
                }
            }
            _ => {}
        }

        let declared = tool
            .entry
            .get("idempotent")
            .and_then(|n| n.as_bool().map(|b| (b, n)));
        if let (Some((flag, flag_node)), Some((annotated, hint_node))) = (declared, idempotent) {
            if flag != annotated {
                sink.report(
                    file,
                    hint_node.span,
                    format!(
                        "tool `{name}` is annotated `idempotentHint: {annotated}` but declared `idempotent: {flag}`"
                    ),
                )
                .label("disagrees with `idempotent`")
                .secondary(file, flag_node.span, "declared here")
                .help("make both say the same; a client retries a tool it believes idempotent, which repeats a non-idempotent write");
            }
        }
    }
}

/// The forge contract states the behaviour with `type` and `idempotent` (and its entry is closed,
/// TJ002); an OpenAI function definition has no place for annotations.
fn takes_annotations(tool: &Tool) -> bool {
    matches!(tool.dialect, Dialect::Mcp | Dialect::Script)
}

fn behavior_annotations_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        if !takes_annotations(tool) || HINTS.iter().any(|h| hint(tool, h).is_some()) {
            continue;
        }
        let (span, label) = match tool.definition().member("annotations") {
            Some(member) => (member.key_span, "no behavior hints in these annotations"),
            None => (tool.span(), "no `annotations`"),
        };
        sink.report(
            file,
            span,
            format!(
                "tool `{}` declares none of `readOnlyHint`, `destructiveHint`, `idempotentHint`",
                tool.display_name()
            ),
        )
        .label(label)
        .help("add `\"annotations\": {\"readOnlyHint\": …, \"destructiveHint\": …, \"idempotentHint\": …}` so clients know whether to confirm and whether a retry is safe");
    }
}

// ---------------------------------------------------------------------------------------------
// SC011 execution-bounds-missing
// ---------------------------------------------------------------------------------------------

/// Whether `key` (or its snake_case spelling) is set on the entry, its annotations or its `_meta`
/// (where MCP keeps extensions, possibly behind a `vendor/` prefix).
fn has_bound(tool: &Tool, camel: &str, snake: &str) -> bool {
    let matches = |key: &str| {
        let last = key.rsplit('/').next().unwrap_or(key);
        last == camel || last == snake
    };
    let holders = [
        Some(&tool.entry),
        Some(tool.definition()),
        tool.annotations(),
        tool.entry.get("_meta"),
        tool.definition().get("_meta"),
    ];
    holders
        .into_iter()
        .flatten()
        .flat_map(|n| n.as_object().unwrap_or_default())
        .any(|m| matches(&m.key))
}

fn execution_bounds_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        if !takes_annotations(tool) {
            continue;
        }
        let missing: Vec<&str> = [
            ("timeoutMs", "timeout_ms"),
            ("maxOutputBytes", "max_output_bytes"),
        ]
        .into_iter()
        .filter(|(camel, snake)| !has_bound(tool, camel, snake))
        .map(|(camel, _)| camel)
        .collect();
        let (message, label) = match missing.as_slice() {
            [] => continue,
            ["timeoutMs"] => (
                format!("tool `{}` declares no `timeoutMs`", tool.display_name()),
                "no timeout",
            ),
            [_] => (
                format!(
                    "tool `{}` declares no `maxOutputBytes`",
                    tool.display_name()
                ),
                "no output size limit",
            ),
            _ => (
                format!(
                    "tool `{}` declares no `timeoutMs` or `maxOutputBytes`",
                    tool.display_name()
                ),
                "no timeout or output size limit",
            ),
        };
        let help = match tool.dialect {
            Dialect::Mcp => "declare the bounds the dispatcher enforces, e.g. `\"_meta\": {\"timeoutMs\": 30000, \"maxOutputBytes\": 32768}`",
            _ => "declare the bounds the dispatcher enforces, e.g. `\"timeoutMs\": 30000, \"maxOutputBytes\": 32768`",
        };
        sink.report(file, tool.span(), message)
            .label(label)
            .help(help);
    }
}

// ---------------------------------------------------------------------------------------------
// SC012 destructive-tool-without-dry-run
// ---------------------------------------------------------------------------------------------

/// Why a tool counts as destructive: its `destructiveHint`, or a deleting verb at the start of
/// the name of a tool that is not read-only (an explicit `destructiveHint: false` wins).
fn destructive_reason(tool: &Tool) -> Option<String> {
    match hint(tool, "destructiveHint") {
        Some((true, _)) => return Some("annotated `destructiveHint: true`".to_string()),
        Some((false, _)) => return None,
        None => {}
    }
    if tool.side_effect == SideEffect::Read {
        return None;
    }
    let name = tool.name()?;
    let first = name_words(name).into_iter().next()?;
    DESTRUCTIVE_VERBS
        .contains(&first.as_str())
        .then(|| format!("its name starts with `{first}`"))
}

fn destructive_tool_without_dry_run(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        let Some(reason) = destructive_reason(tool) else {
            continue;
        };
        if tool.property("dry_run").is_some() || tool.property("dryRun").is_some() {
            continue;
        }
        let diagnostic = sink.report(
            file,
            tool.span(),
            format!(
                "destructive tool `{}` has no `dry_run` parameter",
                tool.display_name()
            ),
        );
        diagnostic.label(format!("destructive: {reason}"));
        diagnostic.help("add an optional boolean `dry_run` parameter that returns what would change without changing it, so the user can review the blast radius first");
    }
}

// ---------------------------------------------------------------------------------------------
// SC013 remote-schema-ref
// ---------------------------------------------------------------------------------------------

fn remote_scheme(reference: &str) -> Option<&'static str> {
    let lower = reference.trim_start().to_ascii_lowercase();
    ["https://", "http://", "file:"]
        .into_iter()
        .find(|scheme| lower.starts_with(scheme))
}

fn remote_schema_ref(unit: &Unit<'_>, sink: &mut Sink) {
    for subject in unit.schema_subjects() {
        for site in unit.schema_sites(subject.schema).iter() {
            for keyword in ["$ref", "$dynamicRef"] {
                let Some(node) = site.node.get(keyword) else {
                    continue;
                };
                let Some(reference) = node.as_str() else {
                    continue;
                };
                let Some(scheme) = remote_scheme(reference) else {
                    continue;
                };
                // An AIP schema skilllint bundles is the ecosystem's type, checked offline.
                if schema::bundled_ref(reference).is_some() {
                    continue;
                }
                if let Some(bundled) = schema::bundled_url(reference) {
                    let fragment = reference.split_once('#').map_or("", |(_, f)| f);
                    sink.report(
                        subject.file,
                        node.span,
                        format!(
                            "{} of {} references `#{fragment}` of the {} schema, which has no such place",
                            subject.schema_word, subject.owner, bundled.aip
                        ),
                    )
                    .label("not in the bundled schema: checked as if absent")
                    .help("point at the whole schema, or at a JSON pointer that exists in it; `skilllint rule SC013` lists the bundled schemas and their places");
                    continue;
                }
                let kind = if scheme == "file:" {
                    "a local file"
                } else {
                    "a remote URL"
                };
                sink.report(
                    subject.file,
                    node.span,
                    format!(
                        "{} of {} references {kind} with `{keyword}`",
                        subject.schema_word, subject.owner
                    ),
                )
                .label("never fetched: checked as if absent")
                .help("inline the referenced schema under `$defs` and point at it with a `#/$defs/…` reference; a schema that depends on a URL or a file changes or breaks without any edit to the tool");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// SC014 openai-strict-violation
// ---------------------------------------------------------------------------------------------

fn openai_strict_violation(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        if tool.dialect != Dialect::OpenAi {
            continue;
        }
        let Some(strict) = strict_flag(tool) else {
            continue;
        };
        let Some(subject) = tool_subject(file, tool) else {
            continue;
        };
        let schema = subject.schema;
        let sites = unit.schema_sites(schema);
        for site in sites.iter() {
            if !is_object_schema(site.node) {
                continue;
            }
            let what = || subject.describe(site, &sites);
            if site
                .node
                .get("additionalProperties")
                .and_then(Node::as_bool)
                != Some(false)
            {
                let span = site
                    .node
                    .member("additionalProperties")
                    .map_or_else(|| object_anchor(site, &subject), |m| m.value.span);
                sink.report(
                    file,
                    span,
                    format!(
                        "{} lacks `additionalProperties: false`, which strict mode requires",
                        what()
                    ),
                )
                .label("strict mode needs `additionalProperties: false` here")
                .secondary(file, strict.span, "strict mode enabled here")
                .help("add `\"additionalProperties\": false` to every object in the schema, or drop `strict`");
            }
            let declared: Vec<&str> = site
                .node
                .get("properties")
                .and_then(Node::as_object)
                .unwrap_or_default()
                .iter()
                .map(|m| m.key.as_str())
                .collect();
            // A `required` that is not an array is not a valid schema: SC001 reports it while it
            // runs for the file; otherwise it is read as requiring nothing.
            let required: BTreeSet<&str> = match site.node.get("required") {
                None => BTreeSet::new(),
                Some(node) => match node.as_array() {
                    Some(items) => items.iter().filter_map(Node::as_str).collect(),
                    None if unit.reports("SC001", file) => continue,
                    None => BTreeSet::new(),
                },
            };
            let missing: Vec<&str> = declared
                .iter()
                .copied()
                .filter(|n| !required.contains(n))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let span = site
                .node
                .member("required")
                .or_else(|| site.node.member("properties"))
                .map_or_else(|| object_anchor(site, &subject), |m| m.key_span);
            let list: Vec<String> = missing.iter().map(|n| format!("`{n}`")).collect();
            sink.report(
                file,
                span,
                format!(
                    "{} does not require {}; strict mode requires every property",
                    what(),
                    join_and(&list)
                ),
            )
            .label("`required` must list every property")
            .secondary(file, strict.span, "strict mode enabled here")
            .help("list every property in `required`; make an optional parameter nullable instead (`\"type\": [\"string\", \"null\"]`)");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// SC015 tool-description-missing
// ---------------------------------------------------------------------------------------------

fn tool_description_missing(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "add a `description` that says what the tool does, when to call it and when not to; the model chooses tools by it";
    for (file, tool) in unit.tools() {
        let name = tool.display_name();
        match tool.description() {
            // The forge contract reports a missing or mistyped description (TJ002, while it runs
            // for the file); the provider describes its own tools (Anthropic's
            // `web_search_20250305`).
            None if tool.provider_defined => {}
            None if tool.dialect == Dialect::Forge && unit.reports("TJ002", file) => {}
            None => {
                sink.report(
                    file,
                    tool.span(),
                    format!("tool `{name}` has no description"),
                )
                .label("no `description`")
                .help(HELP);
            }
            Some(node) => match node.as_str() {
                Some(text) if text.trim().is_empty() => {
                    sink.report(
                        file,
                        node.span,
                        format!("tool `{name}` has a blank description"),
                    )
                    .label("blank")
                    .help(HELP);
                }
                Some(_) => {}
                None if tool.dialect == Dialect::Forge && unit.reports("TJ002", file) => {}
                None => {
                    sink.report(
                        file,
                        node.span,
                        format!(
                            "description of tool `{name}` is not a string, found {}",
                            node.type_name()
                        ),
                    )
                    .label("not a string")
                    .help(HELP);
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::node::Member;
    use crate::semantic::schemas::{sites, MAX_SCHEMA_DEPTH};

    /// Lints `files` with only `code` selected and returns (message, primary text) pairs.
    fn run(code: &str, files: &[(&str, &str)]) -> Vec<(String, String)> {
        run_among(&[code], code, files)
    }

    /// The findings of `code` with `selected` selected: the rules it leaves findings to run too.
    fn run_among(selected: &[&str], code: &str, files: &[(&str, &str)]) -> Vec<(String, String)> {
        crate::check::testing::findings_among(selected, code, files)
            .into_iter()
            .map(|(d, text)| (d.message, text))
            .collect()
    }

    /// One MCP tool with `schema` as its input schema, in `tools.json`.
    fn mcp(schema: &str) -> String {
        format!(r#"{{"tools": [{{"name": "t", "description": "d", "inputSchema": {schema}}}]}}"#)
    }

    fn primaries(code: &str, schema: &str) -> Vec<String> {
        run(code, &[("s/tools.json", &mcp(schema))])
            .into_iter()
            .map(|(_, primary)| primary)
            .collect()
    }

    #[test]
    fn meta_validation_reports_each_place_once() {
        let typos = [(
            "s/tools.json",
            &*mcp(r#"{"type": "objekt", "properties": {"a": {"type": "int"}}}"#),
        )];
        let found = run_among(&["SC001", "SC002"], "SC001", &typos);
        // The root `type` is SC002's finding; the nested one is reported here.
        let places: Vec<&str> = found.iter().map(|(_, p)| p.as_str()).collect();
        assert_eq!(places, [r#""type""#]);
        assert!(found[0].0.contains("at `/properties/a/type`"));
        // With SC002 off, the root `type` is an invalid schema like the nested one.
        let alone = run("SC001", &typos);
        let messages: Vec<&str> = alone.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].ends_with("at `/type`"), "{messages:?}");
        assert!(
            messages[1].ends_with("at `/properties/a/type`"),
            "{messages:?}"
        );
        let unknown = run(
            "SC001",
            &[(
                "s/tools.json",
                &mcp(r#"{"$schema": "https://example.com/s", "type": "object"}"#),
            )],
        );
        assert_eq!(unknown.len(), 1);
        assert_eq!(unknown[0].1, r#""$schema""#);
        assert!(primaries(
            "SC001",
            r#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "definitions": {}}"#
        )
        .is_empty());
    }

    #[test]
    fn meta_validation_skips_tool_md() {
        let tool_md = "---\nid: x-y\ninputs:\n  type: objekt\n---\n";
        assert!(run("SC001", &[(".tools/x-y/TOOL.md", tool_md)]).is_empty());
        // The other schema rules do read TOOL.md `inputs`.
        let found = run_among(
            &["SC002", "TM009"],
            "SC002",
            &[(".tools/x-y/TOOL.md", tool_md)],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "objekt");
        assert_eq!(
            found[0].0,
            "`inputs` of contract `x-y` has root type `objekt`, which is not a JSON type; the root must be `object`"
        );
        // One typo, one error: TM009 leaves the root `type` of `inputs` to SC002, and keeps the
        // root `type` of `outputs`, which SC002 does not judge.
        let both = ["SC002", "TM009"];
        assert!(run_among(&both, "TM009", &[(".tools/x-y/TOOL.md", tool_md)]).is_empty());
        let outputs = "---\nid: x-y\ninputs:\n  type: objekt\noutputs:\n  type: objekt\n---\n";
        let found = run_among(&both, "TM009", &[(".tools/x-y/TOOL.md", outputs)]);
        assert_eq!(found.len(), 1);
        assert!(found[0].0.contains("`outputs.type`"), "{}", found[0].0);
        // With SC002 off, TM009 reports the root `type` of `inputs` as well.
        let found = run("TM009", &[(".tools/x-y/TOOL.md", tool_md)]);
        assert_eq!(found.len(), 1);
        assert!(found[0].0.contains("`inputs.type`"), "{}", found[0].0);
    }

    #[test]
    fn root_must_be_an_object_schema() {
        assert_eq!(primaries("SC002", r#"{"type": "array"}"#), [r#""array""#]);
        assert_eq!(primaries("SC002", "true"), ["true"]);
        assert_eq!(
            primaries("SC002", r#"{"properties": {}}"#),
            [r#""inputSchema""#]
        );
        // Not a schema at all: SC001 reports it, and this rule while SC001 is off.
        let string = [("s/tools.json", &*mcp(r#""object""#))];
        assert!(run_among(&["SC001", "SC002"], "SC002", &string).is_empty());
        assert_eq!(
            run("SC002", &string),
            [(
                "input schema of tool `t` is a string, not an object schema".to_string(),
                r#""object""#.to_string()
            )]
        );
        // A forge `inputSchema` that is not an object is TJ002's finding, while TJ002 runs.
        let forge = r#"[{"name": "f", "type": "read", "description": "d", "inputSchema": true}]"#;
        let forge = [("f/tools.json", forge)];
        for code in ["SC001", "SC002"] {
            assert!(
                run_among(&[code, "TJ002"], code, &forge).is_empty(),
                "{code}"
            );
        }
        // Without it, `true` is a valid schema (SC001) but not an object one (SC002).
        assert!(run("SC001", &forge).is_empty());
        assert_eq!(run("SC002", &forge)[0].1, "true");
        assert!(primaries("SC002", r#"{"type": "object"}"#).is_empty());
        let found = run("SC002", &[("s/tools.json", &mcp(r#"{"type": 5}"#))]);
        assert_eq!(
            found[0].0,
            "input schema of tool `t` has root type an integer, not `object`"
        );
        let openai = r#"[{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "string"}}}]"#;
        assert_eq!(
            run("SC002", &[("o/tools.json", openai)])[0].1,
            r#""string""#
        );
    }

    #[test]
    fn open_objects_and_what_counts_as_closed() {
        assert_eq!(primaries("SC003", r#"{"type": "object"}"#), [r#""type""#]);
        assert_eq!(
            primaries(
                "SC003",
                r#"{"type": "object", "additionalProperties": true}"#
            ),
            ["true"]
        );
        assert!(primaries(
            "SC003",
            r#"{"type": "object", "unevaluatedProperties": false}"#
        )
        .is_empty());
        assert!(primaries(
            "SC003",
            r#"{"type": "object", "additionalProperties": {"type": "string"}}"#
        )
        .is_empty());
        // Nested objects with properties are checked; composition branches are not.
        let nested = r#"{"type": "object", "additionalProperties": false, "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string"}}},
            "c": {"type": "object"}},
            "allOf": [{"properties": {"a": {}}}]}"#;
        assert_eq!(primaries("SC003", nested), [r#""type""#]);
        let composed = r#"{"type": "object", "oneOf": [
            {"properties": {"a": {"type": "string"}}, "additionalProperties": false},
            {"properties": {"b": {"type": "string"}}, "additionalProperties": false}]}"#;
        assert!(primaries("SC003", composed).is_empty());
        // Script parameters cannot declare `additionalProperties`.
        let script = r#"[{"name": "s", "description": "d", "script": "s.sh", "parameters": {"p": {"type": "string", "description": "p"}}}]"#;
        assert!(run("SC003", &[("s/tools.json", script)]).is_empty());
    }

    #[test]
    fn open_objects_are_reported_once_per_tool_and_free_form_maps_never() {
        // The shape of a workflow-dispatch tool: an open root, a free-form `inputs` map, an open
        // filter object and open array items.
        let schema = r#"{"type": "object", "properties": {
            "inputs": {"type": "object", "description": "Workflow inputs.", "properties": {}},
            "env": {"type": "object"},
            "labels": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": {"type": "string"}},
            "extra": {"type": "object", "properties": {}, "additionalProperties": true},
            "filter": {"type": "object", "properties": {"actor": {"type": "string"}}},
            "steps": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": true}}}}"#;
        let text = mcp(schema);
        let found = crate::check::testing::findings("SC003", &[("s/tools.json", &text)]);
        assert_eq!(found.len(), 1, "one finding per tool");
        let (diagnostic, primary) = &found[0];
        assert_eq!(primary, r#""type""#);
        assert_eq!(
            diagnostic.primary.span.start,
            text.find(r#""type""#).unwrap_or_default()
        );
        assert_eq!(
            diagnostic.message,
            "input schema of tool `t` accepts undeclared properties, as do 2 nested objects"
        );
        let secondaries: Vec<(&str, Option<&str>)> = diagnostic
            .secondary
            .iter()
            .map(|l| (&text[l.span.start..l.span.end], l.message.as_deref()))
            .collect();
        assert_eq!(
            secondaries,
            [
                (
                    r#""type""#,
                    Some("parameter `filter` of tool `t` also accepts undeclared properties")
                ),
                (
                    "true",
                    Some("`/properties/steps/items` in the input schema of tool `t` also accepts undeclared properties")
                ),
            ]
        );
        // The fix closes exactly the reported objects; the maps keep accepting any key.
        let Some(fix) = &diagnostic.fix else {
            panic!("SC003 offers a fix");
        };
        assert_eq!(fix.applicability, crate::diagnostic::Applicability::Unsafe);
        let edits: Vec<&Edit> = fix.edits.iter().collect();
        let (fixed, skipped) = crate::edit::apply_edits(&text, &edits);
        assert!(skipped.is_empty());
        let fixed: serde_json::Value = serde_json::from_str(&fixed).unwrap_or_default();
        let schema = &fixed["tools"][0]["inputSchema"];
        let closed = |pointer: &str| schema.pointer(pointer).cloned();
        let f = Some(serde_json::Value::Bool(false));
        assert_eq!(closed("/additionalProperties"), f);
        assert_eq!(closed("/properties/filter/additionalProperties"), f);
        assert_eq!(closed("/properties/steps/items/additionalProperties"), f);
        assert_eq!(closed("/properties/inputs/additionalProperties"), None);
        assert_eq!(closed("/properties/env/additionalProperties"), None);
        assert_eq!(
            closed("/properties/extra/additionalProperties"),
            Some(serde_json::Value::Bool(true))
        );
        // A tool without parameters is still in scope; an open nested object of a closed root is
        // reported where it is.
        assert_eq!(
            primaries("SC003", r#"{"type": "object", "properties": {}}"#),
            [r#""type""#]
        );
        let nested_only = r#"{"type": "object", "additionalProperties": false, "properties": {
            "m": {"type": "object", "additionalProperties": {}},
            "o": {"properties": {"k": {"type": "string"}}, "additionalProperties": {}}}}"#;
        let found = run("SC003", &[("s/tools.json", &mcp(nested_only))]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0],
            (
                "parameter `o` of tool `t` accepts undeclared properties".to_string(),
                "{}".to_string()
            )
        );
    }

    #[test]
    fn closing_nested_yaml_objects_keeps_the_lines_in_order() {
        // `options` ends the root, and `cache` ends `options`: all three close at one offset.
        let tool_md = "---\nid: x-y\ninputs:\n  type: object\n  properties:\n    options:\n      type: object\n      properties:\n        cache:\n          type: object\n          properties:\n            key: {type: string}\n---\n";
        let found = crate::check::testing::findings("SC003", &[(".tools/x-y/TOOL.md", tool_md)]);
        assert_eq!(found.len(), 1);
        let Some(fix) = &found[0].0.fix else {
            panic!("SC003 offers a fix");
        };
        let edits: Vec<&Edit> = fix.edits.iter().collect();
        let (fixed, skipped) = crate::edit::apply_edits(tool_md, &edits);
        assert!(skipped.is_empty());
        assert!(
            fixed.contains("            key: {type: string}\n          additionalProperties: false\n      additionalProperties: false\n  additionalProperties: false\n---"),
            "{fixed}"
        );
    }

    #[test]
    fn required_names_follow_composition_and_refs() {
        let typo = r#"{"type": "object", "properties": {"start": {}}, "required": ["strat"]}"#;
        let found = run("SC004", &[("s/tools.json", &mcp(typo))]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, r#""strat""#);
        let fine = [
            // Declared in an `allOf` branch.
            r#"{"type": "object", "allOf": [{"properties": {"a": {}}}], "required": ["a"]}"#,
            // A branch requiring one of the parent's properties.
            r#"{"type": "object", "properties": {"a": {}, "b": {}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}"#,
            // Through a local reference.
            r##"{"type": "object", "$defs": {"base": {"properties": {"a": {}}}}, "allOf": [{"$ref": "#/$defs/base"}], "required": ["a"]}"##,
            // Names that cannot be known statically.
            r#"{"type": "object", "patternProperties": {"^x_": {}}, "required": ["x_a"]}"#,
            r#"{"type": "object", "additionalProperties": {"type": "string"}, "required": ["k"]}"#,
            r#"{"type": "object", "allOf": [{"$ref": "https://example.com/s.json"}], "required": ["a"]}"#,
        ];
        for schema in fine {
            assert!(primaries("SC004", schema).is_empty(), "{schema}");
        }
        let nested = r#"{"type": "object", "properties": {"o": {"type": "object", "properties": {"x": {}}, "required": ["y"]}}}"#;
        let found = run("SC004", &[("s/tools.json", &mcp(nested))]);
        assert!(
            found[0]
                .0
                .starts_with("parameter `o` of tool `t` requires `y`"),
            "{}",
            found[0].0
        );
    }

    #[test]
    fn descriptions_of_parameters_not_of_conditions() {
        let schema = r##"{"type": "object", "$defs": {"when": {"type": "string", "description": "A date."}},
            "properties": {
              "a": {"type": "string"},
              "b": {"$ref": "#/$defs/when"},
              "c": {"type": "object", "description": "C.", "properties": {"d": {"type": "string", "description": " "}}}},
            "if": {"properties": {"a": {"const": "x"}}}, "then": {"required": ["b"]}}"##;
        let found = run("SC005", &[("s/tools.json", &mcp(schema))]);
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "parameter `a` of tool `t` has no description",
                "parameter `c.d` of tool `t` has a blank description"
            ]
        );
    }

    #[test]
    fn bounds_of_numbers_and_strings() {
        let schema = r##"{"type": "object", "$defs": {"n": {"type": "integer", "minimum": 0, "maximum": 9}},
            "properties": {
              "a": {"type": "integer", "minimum": 1},
              "b": {"type": "number"},
              "c": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
              "d": {"type": ["string", "null"]},
              "e": {"type": "string", "enum": ["x"]},
              "f": {"type": "string", "format": "uri"},
              "g": {"$ref": "#/$defs/n"},
              "h": {"type": "boolean"}}}"##;
        let found = run("SC006", &[("s/tools.json", &mcp(schema))]);
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "parameter `a` of tool `t` is an unbounded integer: no `maximum`",
                "parameter `b` of tool `t` is an unbounded number: neither `minimum` nor `maximum`",
                "parameter `d` of tool `t` is a free-form string",
            ]
        );
    }

    fn names(code: &str, names: &[&str]) -> Vec<String> {
        names_among(&[code], code, names)
    }

    fn names_among(selected: &[&str], code: &str, names: &[&str]) -> Vec<String> {
        let tools: Vec<String> = names
            .iter()
            .map(|n| {
                format!(
                    r#"{{"name": {n}, "description": "d", "inputSchema": {{"type": "object"}}}}"#
                )
            })
            .collect();
        let tools = format!("[{}]", tools.join(","));
        run_among(selected, code, &[("s/tools.json", &tools)])
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    }

    #[test]
    fn mcp_name_rules() {
        let long = format!("\"{}\"", "a".repeat(129));
        let found = names(
            "SC007",
            &[
                r#""ok_name""#,
                r#""Data.v2-x""#,
                r#""""#,
                r#""naïve""#,
                "3",
                &long,
            ],
        );
        assert_eq!(
            found,
            [
                "tool name is empty",
                "tool name `naïve` contains `ï`; MCP allows only ASCII letters, digits, `_`, `-` and `.`",
                "tool name must be a string, found integer",
                "tool name is 129 characters long; MCP allows at most 128",
            ]
        );
        let unnamed = r#"{"tools": [{"description": "d", "inputSchema": {"type": "object"}}]}"#;
        let found = run("SC007", &[("s/tools.json", unnamed)]);
        assert_eq!(found[0].0, "MCP tool at `/tools/0` has no `name`");
        assert_eq!(found[0].1, "{");
        // The forge contract reports its own missing names (TJ002), while TJ002 runs.
        let forge = r#"[{"type": "read", "description": "d", "inputSchema": {"type": "object"}}]"#;
        let forge = [("s/tools.json", forge)];
        assert!(run_among(&["SC007", "TJ002"], "SC007", &forge).is_empty());
        assert_eq!(
            run("SC007", &forge)[0].0,
            "forge tool at `/0` has no `name`"
        );
    }

    #[test]
    fn portable_names() {
        let long = format!("\"{}\"", "a".repeat(65));
        let found = names_among(
            &["SC007", "SC008"],
            "SC008",
            &[
                r#""search_issues""#,
                r#""v2""#,
                r#""getUser""#,
                r#""a.b""#,
                r#""a__b""#,
                r#""bad name""#,
                &long,
            ],
        );
        assert_eq!(
            found,
            [
                "tool name `getUser` is not snake_case",
                "tool name `a.b` contains `.`, which OpenAI and Anthropic reject",
                "tool name `a__b` is not snake_case",
                "tool name is 65 characters long; OpenAI and Anthropic allow at most 64",
            ]
        );
        // Names MCP rejects are SC007's while it runs; otherwise they are not portable either.
        let found = names("SC008", &[r#""bad name""#, r#""""#, r#""naïve.v2""#]);
        assert_eq!(
            found,
            [
                "tool name `bad name` contains a space, which OpenAI and Anthropic reject",
                "tool name is empty",
                "tool name `naïve.v2` contains `.` and `ï`, which OpenAI and Anthropic reject",
            ]
        );
        assert_eq!(
            name_words("HTTPRequest.send-now"),
            ["http", "request", "send", "now"]
        );
        assert!(is_snake_case("orders_get_by_id") && is_snake_case("v2"));
        assert!(!is_snake_case("_x") && !is_snake_case("x_") && !is_snake_case("2x"));
    }

    #[test]
    fn annotation_contradictions_with_the_forge_flags() {
        let forge = r#"[
          {"name": "w", "type": "write", "description": "d", "requiresConfirmation": true, "idempotent": false,
           "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "idempotentHint": true}},
          {"name": "r", "type": "read", "description": "d", "inputSchema": {"type": "object"},
           "annotations": {"destructiveHint": true}}]"#;
        let found = run("SC009", &[("s/tools.json", forge)]);
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "write tool `w` is annotated `readOnlyHint: true`",
                "tool `w` is annotated `idempotentHint: true` but declared `idempotent: false`",
                "read tool `r` is annotated `destructiveHint: true`",
            ]
        );
    }

    #[test]
    fn annotations_and_bounds_only_where_the_dialect_has_room() {
        let forge = r#"[{"name": "r", "type": "read", "description": "d", "inputSchema": {"type": "object"}}]"#;
        let openai = r#"[{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}}}]"#;
        for code in ["SC010", "SC011"] {
            assert!(run(code, &[("a/tools.json", forge), ("b/tools.json", openai)]).is_empty());
        }
        let prefixed = r#"{"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"},
            "annotations": {"idempotentHint": false, "max_output_bytes": 10},
            "_meta": {"example.com/timeoutMs": 5}}]}"#;
        assert!(run("SC010", &[("s/tools.json", prefixed)]).is_empty());
        assert!(run("SC011", &[("s/tools.json", prefixed)]).is_empty());
    }

    #[test]
    fn destructive_tools() {
        let tools = r#"{"tools": [
          {"name": "purgeCache", "description": "d", "inputSchema": {"type": "object"}},
          {"name": "delete_soft", "description": "d", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": false}},
          {"name": "delete_view", "description": "d", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
          {"name": "drop_table", "description": "d", "inputSchema": {"type": "object", "properties": {"dryRun": {"type": "boolean"}}}},
          {"name": "reset", "description": "d", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}},
          {"name": "dropdown_options", "description": "d", "inputSchema": {"type": "object"}}]}"#;
        let found = run("SC012", &[("s/tools.json", tools)]);
        let primaries: Vec<&str> = found.iter().map(|(_, p)| p.as_str()).collect();
        assert_eq!(primaries, [r#""purgeCache""#, r#""reset""#]);
    }

    #[test]
    fn remote_refs_in_schema_positions_only() {
        let schema = r##"{"type": "object", "$defs": {"l": {"type": "string"}}, "properties": {
            "a": {"$ref": "HTTPS://example.com/a.json"},
            "b": {"items": {"$ref": "file:schemas/b.json"}},
            "c": {"$ref": "#/$defs/l"},
            "d": {"type": "object", "default": {"$ref": "http://example.com/not-a-schema"}},
            "e": {"$ref": "https://agentproto.sh/docs/aip-27/REF.schema.json"},
            "f": {"$ref": "https://agentproto.sh/schemas/aip-27/REF.schema.json#/$defs/local"},
            "g": {"$ref": "https://agentproto.sh/docs/aip-27/REF.schema.json#/$defs/nothing"},
            "h": {"$ref": "https://agentproto.sh/docs/aip-99/OTHER.schema.json"}}}"##;
        // The bundled AIP schemas are checked offline; any other URL, and a place the bundled
        // schema does not have, stay remote.
        assert_eq!(
            primaries("SC013", schema),
            [
                r#""HTTPS://example.com/a.json""#,
                r#""file:schemas/b.json""#,
                r##""https://agentproto.sh/docs/aip-27/REF.schema.json#/$defs/nothing""##,
                r#""https://agentproto.sh/docs/aip-99/OTHER.schema.json""#
            ]
        );
    }

    #[test]
    fn openai_strict_mode() {
        let tool = |strict: &str| {
            format!(
                r##"{{"tools": [{{"type": "function", "function": {{"name": "f", "description": "d", "strict": {strict},
                "parameters": {{"type": "object", "additionalProperties": false, "properties": {{"a": {{"type": "string"}}, "b": {{"$ref": "#/$defs/x"}}}},
                "required": ["a", "b"], "$defs": {{"x": {{"type": "object", "properties": {{"y": {{"type": "string"}}}}}}}}}}}}}}]}}"##
            )
        };
        let found = run("SC014", &[("o/tools.json", &tool("true"))]);
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "`/$defs/x` in the input schema of tool `f` lacks `additionalProperties: false`, which strict mode requires",
                "`/$defs/x` in the input schema of tool `f` does not require `y`; strict mode requires every property",
            ]
        );
        assert!(run("SC014", &[("o/tools.json", &tool("false"))]).is_empty());
    }

    #[test]
    fn descriptions_of_tools() {
        let tools = r#"[
          {"name": "a", "type": "read", "inputSchema": {"type": "object"}},
          {"name": "b", "type": "read", "description": " ", "inputSchema": {"type": "object"}}]"#;
        let found = run_among(&["SC015", "TJ002"], "SC015", &[("s/tools.json", tools)]);
        assert_eq!(found.len(), 1, "a missing forge description is TJ002's");
        assert_eq!(found[0].0, "tool `b` has a blank description");
        // With TJ002 off, it is reported here.
        let found = run("SC015", &[("s/tools.json", tools)]);
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "tool `a` has no description",
                "tool `b` has a blank description"
            ]
        );
        let mcp = r#"[{"name": "m", "description": 3, "inputSchema": {"type": "object"}}, {"name": "n", "inputSchema": {"type": "object"}}]"#;
        let found = run("SC015", &[("s/tools.json", mcp)]);
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "description of tool `m` is not a string, found integer",
                "tool `n` has no description"
            ]
        );
    }

    #[test]
    fn deep_schemas_do_not_overflow() {
        // Two JSON levels per schema level, under the JSON parser's nesting limit.
        let depth = 60;
        let mut schema = String::from(r#"{"type": "string"}"#);
        for _ in 0..depth {
            schema = format!(r#"{{"type": "object", "properties": {{"a": {schema}}}}}"#);
        }
        for code in ["SC003", "SC004", "SC005", "SC006", "SC013"] {
            let found = primaries(code, &schema);
            assert!(
                found.len() <= MAX_SCHEMA_DEPTH + 1,
                "{code}: {}",
                found.len()
            );
        }
        assert_eq!(primaries("SC005", &schema).len(), depth);
        // A tree deeper than the walk's cap (the parsers stop far earlier) is cut off, not
        // followed to the end.
        let span = Span::new(0, 0);
        let mut node = Node::new(span, Value::Object(Vec::new()));
        for _ in 0..1000 {
            let member = |key: &str, value: Node| Member {
                key: key.to_string(),
                key_span: span,
                value,
            };
            let properties = Node::new(span, Value::Object(vec![member("a", node)]));
            node = Node::new(span, Value::Object(vec![member("properties", properties)]));
        }
        assert_eq!(sites(&node).len(), MAX_SCHEMA_DEPTH + 1);
    }
}
