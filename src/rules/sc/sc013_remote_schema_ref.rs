//! SC013 `remote-schema-ref`: An input schema references a remote URL or a local file.

use crate::check::{Sink, Unit};
use crate::schema;

fn remote_scheme(reference: &str) -> Option<&'static str> {
    let lower = reference.trim_start().to_ascii_lowercase();
    ["https://", "http://", "file:"]
        .into_iter()
        .find(|scheme| lower.starts_with(scheme))
}

pub(super) fn remote_schema_ref(unit: &Unit<'_>, sink: &mut Sink) {
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
