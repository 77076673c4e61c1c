//! Input schemas compared at any depth: what a tool's schema accepts now that it did not (a
//! property no longer required, `additionalProperties: false` gone, an `enum` or a bound
//! loosened, a `pattern` gone), and new free-form strings on a tool that runs commands. The
//! walks are bounded in depth ([`MAX_SCHEMA_DEPTH`]).

use super::{change, Change, ChangeKind};
use crate::inventory::Row;
use crate::semantic::effect::Capability;
use std::collections::HashSet;

/// A string property added to a tool that runs commands (`exec`), with nothing that bounds it
/// (no `enum`, `const`, `pattern`, `format` or `maxLength`): a new way to hand the tool any text.
pub(super) fn exec_free_strings(old: &Row, new: &Row, out: &mut Vec<Change>) {
    if !new.capabilities.contains(&Capability::Exec) {
        return;
    }
    let Some(ns) = &new.schema else {
        return;
    };
    if old.schema.as_ref() == Some(ns) {
        return;
    }
    let mut before = Vec::new();
    if let Some(os) = &old.schema {
        properties(os, String::new(), 0, &mut before);
    }
    let known: HashSet<&str> = before.iter().map(|(p, _)| p.as_str()).collect();
    let mut after = Vec::new();
    properties(ns, String::new(), 0, &mut after);
    for (path, schema) in after {
        let free = schema.get("type").and_then(serde_json::Value::as_str) == Some("string")
            && ["enum", "const", "pattern", "format", "maxLength"]
                .iter()
                .all(|k| schema.get(*k).is_none());
        if free && !known.contains(path.as_str()) {
            let mut c = change(
                ChangeKind::ExecFreeStringAdded,
                true,
                new,
                format!("new free-form string parameter `{path}` on a tool that runs commands (no enum, pattern, format or maxLength)"),
            );
            c.after = Some(path);
            out.push(c);
        }
    }
}

/// The keywords that constrain how a schema's properties combine (one of these is required, this
/// one excludes that one): one dropped accepts inputs it ruled out.
const COMBINING: [&str; 8] = [
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "dependentSchemas",
    "dependentRequired",
    "dependencies",
];

/// How deep [`properties`] and [`schema_widenings`] follow nested schemas.
const MAX_SCHEMA_DEPTH: usize = 32;

/// Every property of an object schema at any depth, with its path (`/filter/labels[]/name`).
fn properties<'v>(
    schema: &'v serde_json::Value,
    path: String,
    depth: usize,
    out: &mut Vec<(String, &'v serde_json::Value)>,
) {
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    if let Some(items) = schema.get("items") {
        properties(items, format!("{path}[]"), depth + 1, out);
    }
    let Some(props) = schema
        .get("properties")
        .and_then(serde_json::Value::as_object)
    else {
        return;
    };
    for (name, sub) in props {
        let sub_path = format!("{path}/{}", crate::parse::node::pointer_token(name));
        out.push((sub_path.clone(), sub));
        properties(sub, sub_path, depth + 1, out);
    }
}

/// How the input schema accepts more than it did, at any depth: a property no longer required
/// (gate parameters aside: those are dropped gates), `additionalProperties: false` gone, a
/// combining constraint gone (`anyOf`, `dependentSchemas`, …), an
/// `enum` removed or grown, a `maxLength`/`maximum`/`maxItems` bound removed or raised, a
/// `pattern` removed. Each message names the property by its path (`/filter/labels[]`).
pub(super) fn schema_widenings(
    old: &Row,
    new: &Row,
) -> Vec<(String, Option<String>, Option<String>)> {
    let (Some(os), Some(ns)) = (&old.schema, &new.schema) else {
        return Vec::new();
    };
    // Most tools of a change keep their schema: comparing is cheaper than walking.
    if os == ns {
        return Vec::new();
    }
    let mut out = Vec::new();
    widenings(old, os, ns, "", 0, &mut out);
    out
}

fn widenings(
    old: &Row,
    os: &serde_json::Value,
    ns: &serde_json::Value,
    path: &str,
    depth: usize,
    out: &mut Vec<(String, Option<String>, Option<String>)>,
) {
    use serde_json::Value;
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    let shown = |p: &str| {
        if p.is_empty() {
            "/".to_string()
        } else {
            p.to_string()
        }
    };
    let required = |s: &Value| -> Vec<String> {
        s.get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let now_required: HashSet<String> = required(ns).into_iter().collect();
    let new_props = ns.get("properties").and_then(Value::as_object);
    for name in required(os) {
        let gate = depth == 0 && old.gates.parameter(&name).is_some();
        let still_there = new_props.is_some_and(|p| p.contains_key(&name));
        if !gate && still_there && !now_required.contains(&name) {
            out.push((
                format!(
                    "property `{path}/{}` no longer required",
                    crate::parse::node::pointer_token(&name)
                ),
                Some("required".to_string()),
                Some("optional".to_string()),
            ));
        }
    }
    let closed = |s: &Value| s.get("additionalProperties") == Some(&Value::Bool(false));
    if closed(os) && !closed(ns) {
        out.push((
            format!(
                "`additionalProperties: false` gone at `{}`: the tool accepts properties it does not declare",
                shown(path)
            ),
            Some("false".to_string()),
            ns.get("additionalProperties").map(Value::to_string),
        ));
    }
    // A constraint on how properties combine, dropped: "body or reaction", "not both".
    for keyword in COMBINING {
        if let (Some(before), None) = (os.get(keyword), ns.get(keyword)) {
            out.push((
                format!(
                    "`{keyword}` gone at `{}`: inputs it ruled out are accepted",
                    shown(path)
                ),
                Some(before.to_string()),
                None,
            ));
        }
    }
    if !path.is_empty() {
        value_widenings(os, ns, path, out);
    }
    if let (Some(before), Some(after)) = (os.get("items"), ns.get("items")) {
        widenings(old, before, after, &format!("{path}[]"), depth + 1, out);
    }
    let Some(old_props) = os.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, before) in old_props {
        let Some(after) = new_props.and_then(|p| p.get(name)) else {
            continue;
        };
        let sub = format!("{path}/{}", crate::parse::node::pointer_token(name));
        widenings(old, before, after, &sub, depth + 1, out);
    }
}

/// Whether `now` holds a value `before` does not (values compared by their JSON text, in a set:
/// an `enum` can be long).
fn grown(before: &[serde_json::Value], now: &[serde_json::Value]) -> bool {
    let before: HashSet<String> = before.iter().map(serde_json::Value::to_string).collect();
    now.iter().any(|v| !before.contains(&v.to_string()))
}

/// What one property's own keywords accept more of: its `enum`, its upper bounds, its `pattern`.
fn value_widenings(
    before: &serde_json::Value,
    after: &serde_json::Value,
    path: &str,
    out: &mut Vec<(String, Option<String>, Option<String>)>,
) {
    use serde_json::Value;
    if let Some(values) = before.get("enum").and_then(Value::as_array) {
        match after.get("enum").and_then(Value::as_array) {
            None => out.push((
                format!("property `{path}` lost its `enum`: any value is accepted"),
                Some(Value::Array(values.clone()).to_string()),
                None,
            )),
            Some(now) if grown(values, now) => out.push((
                format!("property `{path}` accepts more `enum` values"),
                Some(Value::Array(values.clone()).to_string()),
                Some(Value::Array(now.clone()).to_string()),
            )),
            Some(_) => {}
        }
    }
    for bound in ["maxLength", "maximum", "exclusiveMaximum", "maxItems"] {
        let Some(b) = before.get(bound) else {
            continue;
        };
        match after.get(bound) {
            None => out.push((
                format!("property `{path}` lost its `{bound}`"),
                Some(b.to_string()),
                None,
            )),
            Some(a) if a.as_f64().zip(b.as_f64()).is_some_and(|(a, b)| a > b) => out.push((
                format!("property `{path}` `{bound}` raised from {b} to {a}"),
                Some(b.to_string()),
                Some(a.to_string()),
            )),
            Some(_) => {}
        }
    }
    if let (Some(p), None) = (before.get("pattern"), after.get("pattern")) {
        out.push((
            format!("property `{path}` lost its `pattern`"),
            Some(p.to_string()),
            None,
        ));
    }
}
