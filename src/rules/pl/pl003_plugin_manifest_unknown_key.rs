//! PL003 `plugin-manifest-unknown-key`: A plugin manifest or marketplace has a key its host does
//! not define.

use super::{parsed_manifests, schema_document, schema_name};
use crate::check::{Sink, Unit};
use crate::parse::{Node, Value};
use crate::rules::phrasing::display_path;
use crate::rules::util::nearest;
use crate::source::Span;

/// An unknown key: where the object is (`plugins[3]`), the object's place with array indices
/// dropped (`plugins[]`, so the same key in every entry is one finding), the key and its span,
/// and the keys the schema knows there.
struct Unknown<'s> {
    pointer: String,
    place: String,
    key: String,
    span: Span,
    known: Vec<&'s str>,
}

/// Walks `node` beside the schema object `schema`, collecting each key of an object whose schema
/// lists its keys (and does not leave them open) that the list lacks.
fn walk<'s>(
    schema: &'s serde_json::Value,
    node: &Node,
    pointer: &str,
    place: &str,
    out: &mut Vec<Unknown<'s>>,
) {
    match &node.value {
        Value::Object(members) => {
            let Some(properties) = schema.get("properties").and_then(|p| p.as_object()) else {
                return;
            };
            if schema.get("additionalProperties") == Some(&serde_json::Value::Bool(true)) {
                return;
            }
            for member in members {
                let token = crate::parse::node::pointer_token(&member.key);
                match properties.get(&member.key) {
                    Some(inner) => walk(
                        inner,
                        &member.value,
                        &format!("{pointer}/{token}"),
                        &format!("{place}/{token}"),
                        out,
                    ),
                    None => out.push(Unknown {
                        pointer: pointer.to_string(),
                        place: place.to_string(),
                        key: member.key.clone(),
                        span: member.key_span,
                        known: properties.keys().map(String::as_str).collect(),
                    }),
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    walk(
                        item_schema,
                        item,
                        &format!("{pointer}/{i}"),
                        &format!("{place}/*"),
                        out,
                    );
                }
            }
        }
        _ => {}
    }
}

pub(super) fn plugin_manifest_unknown_key(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc, root) in parsed_manifests(unit) {
        let Some(schema) = schema_document(schema_name(doc)) else {
            continue;
        };
        let host = doc.host.display();
        let mut unknown = Vec::new();
        walk(schema, root, "", "", &mut unknown);
        // The same key in many entries of a list is one finding, on its first use.
        let mut counts: std::collections::HashMap<(&str, &str), usize> =
            std::collections::HashMap::new();
        for u in &unknown {
            *counts
                .entry((u.place.as_str(), u.key.as_str()))
                .or_default() += 1;
        }
        for u in &unknown {
            let Some(count) = counts.remove(&(u.place.as_str(), u.key.as_str())) else {
                continue;
            };
            let place = if u.pointer.is_empty() {
                "the manifest".to_string()
            } else {
                format!("`{}`", display_path(&u.pointer))
            };
            let label = if count > 1 {
                format!("not a {host} key (also in {} more entries)", count - 1)
            } else {
                format!("not a {host} key")
            };
            let diagnostic = sink
                .report(file, u.span, format!("unknown key `{}` in {place}", u.key))
                .label(label);
            match nearest(&u.key, u.known.iter().copied()) {
                Some(known) => diagnostic.help(format!(
                    "did you mean `{known}`? {host} ignores keys it does not define"
                )),
                None => diagnostic.help(format!(
                    "remove it, or check the {host} documentation for the key you meant; {host} ignores keys it does not define"
                )),
            };
        }
    }
}
