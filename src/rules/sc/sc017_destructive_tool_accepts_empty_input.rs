//! SC017 `destructive-tool-accepts-empty-input`: A destructive tool's schema accepts `{}`, or a
//! destructive or exec tool takes a list whose items are unconstrained.

use crate::check::{Sink, Unit};
use crate::parse::node::{Node, Value};
use crate::rules::phrasing::tool_facts;
use crate::semantic::effect::{Basis, Capability, Claim, Effect, ToolEffect};
use crate::semantic::schemas::tool_subject;

/// Whether the root schema demands some property: a non-empty `required`, `minProperties` of at
/// least 1, or every `anyOf`/`oneOf` branch requiring one.
fn demands_a_property(schema: &Node) -> bool {
    let required = |node: &Node| {
        node.get("required")
            .and_then(Node::as_array)
            .is_some_and(|r| !r.is_empty())
            || node
                .get("minProperties")
                .and_then(Node::as_f64)
                .unwrap_or(0.0)
                >= 1.0
    };
    if required(schema) {
        return true;
    }
    ["anyOf", "oneOf", "allOf"].iter().any(|k| {
        schema
            .get(k)
            .and_then(Node::as_array)
            .is_some_and(|branches| {
                !branches.is_empty()
                    && if *k == "allOf" {
                        branches.iter().any(required)
                    } else {
                        branches.iter().all(required)
                    }
            })
    })
}

fn is_array(schema: &Node) -> bool {
    match schema.get("type").map(|t| &t.value) {
        Some(Value::String(s)) => s == "array",
        Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some("array")),
        _ => false,
    }
}

/// Whether the destructive tool deletes something it must be told: the name's (or description's)
/// verb deletes, an operation it offers deletes, or it is declared destructive without a verb
/// that only writes. A save or write whose overwrite makes it destructive (`save_document` with
/// `destructiveHint: true`, `write_file` with a `force` switch) acts on the current document when
/// called with `{}`, which is its normal call, not a missing target.
fn deletes(effect: &ToolEffect<'_>) -> bool {
    let mut verb = None;
    for e in &effect.evidence {
        if e.basis != Basis::Inferred {
            continue;
        }
        match (e.source, e.claim) {
            ("name" | "description", Claim::Effect(x)) => {
                verb.get_or_insert(x);
            }
            ("operation", Claim::AtLeast(Effect::Destructive)) => return true,
            _ => {}
        }
    }
    verb != Some(Effect::Write)
}

pub(super) fn destructive_tool_accepts_empty_input(unit: &Unit<'_>, sink: &mut Sink) {
    for effect in unit.tool_effects() {
        let tool = effect.tool;
        let destructive = effect.effect == Effect::Destructive;
        let exec = effect.has(Capability::Exec);
        if !(destructive || exec) {
            continue;
        }
        let Some(subject) = tool_subject(effect.file, tool) else {
            continue;
        };
        let schema = subject.schema;
        let properties = schema
            .get("properties")
            .and_then(Node::as_object)
            .unwrap_or_default();
        let name = tool.display_name();
        let why = effect
            .effect_evidence()
            .map_or_else(String::new, |e| format!(": {}", e.text));
        if destructive && deletes(effect) && !properties.is_empty() && !demands_a_property(schema) {
            sink.report(
                effect.file,
                subject.key_span,
                format!("destructive tool `{name}` accepts `{{}}`: none of its parameters is required"),
            )
            .label(format!("no `required` target (destructive{why})"))
            .help("list the parameters that name what is deleted in `required`, so a call without a target fails validation instead of acting on a default or on everything")
            .tool_facts(tool_facts(effect));
        }
        for member in properties {
            let value = &member.value;
            if is_array(value) && value.get("items").is_none() && value.get("prefixItems").is_none()
            {
                let kind = if destructive { "destructive" } else { "exec" };
                sink.report(
                    effect.file,
                    member.key_span,
                    format!(
                        "{kind} tool `{name}` takes `{}`, a list without `items`",
                        member.key
                    ),
                )
                .label("any values accepted")
                .help("declare `items` (a type, and a `pattern` or `enum` where the targets have a known form) so the list cannot carry arbitrary targets or arguments")
                .tool_facts(tool_facts(effect));
            }
        }
    }
}
