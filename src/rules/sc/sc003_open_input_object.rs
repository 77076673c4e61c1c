//! SC003 `open-input-object`: An object in an input schema accepts properties it does not
//! declare.

use super::{is_object_schema, object_anchor};
use crate::check::{code, Sink, Unit};
use crate::diagnostic::{Edit, Fix};
use crate::edit::json::{Json, Place};
use crate::parse::node::{Node, Value};
use crate::semantic::effect::Effect;
use crate::semantic::schemas::{Owner, Site, Subject, Via};
use crate::source::{FileId, Span};

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

/// A tool the effect model finds read-only: its open objects are SC018's (pedantic).
pub(super) fn is_read_tool(unit: &Unit<'_>, subject: &Subject<'_>) -> bool {
    match subject.owner {
        Owner::Tool(tool) => unit
            .effect_of(tool)
            .is_some_and(|e| e.effect == Effect::Read),
        Owner::Contract(_) => false,
    }
}

pub(super) fn open_input_object(unit: &Unit<'_>, sink: &mut Sink) {
    report_open_objects(unit, sink, |subject| !is_read_tool(unit, subject));
}

/// SC003 and SC018: the open objects of the subjects `judged` keeps.
pub(super) fn report_open_objects(
    unit: &Unit<'_>,
    sink: &mut Sink,
    judged: impl Fn(&Subject<'_>) -> bool,
) {
    for subject in unit.schema_subjects().iter().filter(|s| judged(s)) {
        // In strict mode an open object is an error, which SC014 reports while it runs.
        if subject.strict && unit.reports(code::SC014, subject.file) {
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
