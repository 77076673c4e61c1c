//! PL002 `plugin-manifest-schema-violation`: A plugin manifest or marketplace breaks its host's
//! schema.

use super::{parsed_manifests, schema_name};
use crate::check::{Sink, Unit};
use crate::rules::phrasing::display_path;
use crate::schema;
use crate::source::Span;

/// A pattern failure restated as what the key must be, with what to write instead.
fn pattern_message(
    pointer: &str,
    message: &str,
    value: Option<&str>,
    base: &str,
) -> (String, String) {
    let key = pointer.rsplit('/').next().unwrap_or_default();
    if message.contains(r"\.md$") {
        (
            "must name a `.md` agent file: Claude Code does not read a folder here".to_string(),
            "list each agent file (`./agents/reviewer.md`), or drop the key: `agents/` is read by default".to_string(),
        )
    } else if message.contains(r"^\./") || message.contains(r"^\.(/") {
        let written = value.unwrap_or_default().trim_start_matches('/');
        (
            format!("must start with `./`: paths are read from the {base} root"),
            format!("write `./{written}`"),
        )
    } else if key == "name" {
        (
            "must be kebab-case: lowercase letters and digits, words joined by single `-`"
                .to_string(),
            "the host uses the name as an identifier and a command namespace, e.g. `deploy-tools`"
                .to_string(),
        )
    } else if key == "version" {
        (
            "must be a semantic version (`MAJOR.MINOR.PATCH`)".to_string(),
            "write all three parts, e.g. `1.2.0`".to_string(),
        )
    } else if key == "sha" {
        (
            "must be a full 40-character commit hash".to_string(),
            "copy the whole hash of the commit to install".to_string(),
        )
    } else {
        (
            message.to_string(),
            "see the host's documentation of this key".to_string(),
        )
    }
}

pub(super) fn plugin_manifest_schema_violation(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc, root) in parsed_manifests(unit) {
        let Some(validator) = schema::embedded(schema_name(doc)) else {
            continue;
        };
        let mut pointers = schema::Pointers::new(root);
        let what = doc.what();
        for error in schema::validate_at_keys(validator, &root.to_json()) {
            let (parent, last) = error.pointer.rsplit_once('/').unwrap_or(("", ""));
            let key = last.replace("~1", "/").replace("~0", "~");
            match error.keyword.as_str() {
                // Unknown keys are PL003's, a warning naming the nearest known key.
                "additionalProperties" => {}
                "required" => {
                    let (span, message) = if parent.is_empty() {
                        (
                            Span::new(root.span.start, root.span.start + 1),
                            format!("the {what} lacks required `{key}`"),
                        )
                    } else {
                        (
                            pointers
                                .key_span(parent)
                                .unwrap_or_else(|| pointers.span(parent)),
                            format!("`{}` lacks required `{key}`", display_path(parent)),
                        )
                    };
                    sink.report(file, span, message)
                        .label(format!("no `{key}` here"))
                        .help(format!(
                            "add `{key}`; {} does not load the {} without it",
                            doc.host.display(),
                            if doc.marketplace {
                                "marketplace entry"
                            } else {
                                "plugin"
                            }
                        ));
                }
                keyword => {
                    let node = root.pointer(&error.pointer);
                    let base = if doc.marketplace {
                        "marketplace"
                    } else {
                        "plugin"
                    };
                    let (text, help) = if keyword == "pattern" {
                        pattern_message(
                            &error.pointer,
                            &error.message,
                            node.and_then(|n| n.as_str()),
                            base,
                        )
                    } else {
                        (
                            error.message.clone(),
                            format!(
                                "see the {} documentation of this key; skilllint's bundled schema is written from it",
                                doc.host.display()
                            ),
                        )
                    };
                    sink.report(
                        file,
                        node.map_or_else(|| pointers.span(&error.pointer), |n| n.span),
                        format!("`{}` {text}", display_path(&error.pointer)),
                    )
                    .label(format!("fails the {what} schema"))
                    .help(help);
                }
            }
        }
    }
}
