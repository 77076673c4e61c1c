//! PL003 `plugin-manifest-unknown-key`: A plugin manifest or marketplace has a key its host does
//! not define.

use super::{parsed_manifests, schema_document, schema_name};
use crate::check::{Sink, Unit};
use crate::parse::{Node, Value};
use crate::rules::report::display_path;
use crate::rules::util::nearest;
use crate::source::FileId;

/// Walks `node` beside the schema object `schema`, reporting each key of an object whose schema
/// lists its keys (and does not leave them open) that the list lacks.
fn walk(
    sink: &mut Sink,
    file: FileId,
    host: &str,
    schema: &serde_json::Value,
    node: &Node,
    pointer: &str,
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
                let child = format!(
                    "{pointer}/{}",
                    crate::parse::node::pointer_token(&member.key)
                );
                match properties.get(&member.key) {
                    Some(inner) => walk(sink, file, host, inner, &member.value, &child),
                    None => {
                        let place = if pointer.is_empty() {
                            "the manifest".to_string()
                        } else {
                            format!("`{}`", display_path(pointer))
                        };
                        let diagnostic = sink
                            .report(
                                file,
                                member.key_span,
                                format!("unknown key `{}` in {place}", member.key),
                            )
                            .label(format!("not a {host} key"));
                        match nearest(&member.key, properties.keys().map(String::as_str)) {
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
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    walk(
                        sink,
                        file,
                        host,
                        item_schema,
                        item,
                        &format!("{pointer}/{i}"),
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
        walk(sink, file, doc.host.display(), schema, root, "");
    }
}
