//! SC013 `remote-schema-ref`: An input schema references a remote URL or a local file.

use crate::check::{Sink, Unit};
use crate::schema;

/// The scheme of a URI reference (`https` of `https://x`, `C` of `C:/x`), when it has one: letters,
/// digits, `+`, `-` and `.` from a letter up to the first `:`, before any `/`, `?` or `#`.
fn uri_scheme(reference: &str) -> Option<&str> {
    let end = reference.find([':', '/', '?', '#'])?;
    let scheme = &reference[..end];
    let valid = reference[end..].starts_with(':')
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

/// What a reference outside its own document points at; `None` for one inside it (empty, or a
/// `#` fragment). Without a scheme a reference is a path relative to wherever the schema is loaded
/// from (`defs.json`, `../../etc/passwd`, `/etc/passwd`): a local file.
fn external_kind(reference: &str) -> Option<&'static str> {
    let reference = reference.trim_start();
    if reference.is_empty() || reference.starts_with('#') {
        return None;
    }
    if reference.starts_with("//") || reference.starts_with("\\\\") {
        return Some("a remote URL");
    }
    let Some(scheme) = uri_scheme(reference) else {
        return Some("a local file");
    };
    // A one-letter scheme is a Windows drive (`C:/schemas/x.json`).
    if scheme.len() == 1 || scheme.eq_ignore_ascii_case("file") {
        Some("a local file")
    } else if reference[scheme.len() + 1..].starts_with("//") {
        Some("a remote URL")
    } else {
        Some("an external URI")
    }
}

/// The `$id`s a schema declares: a reference to one of them (`urn:example:address`, or the last
/// path segments of one, `address.json` for `https://example.com/address.json`) names a part of
/// the same document.
fn declared_ids<'a>(sites: &[crate::semantic::schemas::Site<'a>]) -> Vec<&'a str> {
    sites
        .iter()
        .filter_map(|site| site.node.get("$id").and_then(|id| id.as_str()))
        .map(|id| id.split_once('#').map_or(id, |(base, _)| base))
        .filter(|id| !id.is_empty())
        .collect()
}

fn names_declared_id(reference: &str, ids: &[&str]) -> bool {
    let base = reference
        .split_once('#')
        .map_or(reference, |(base, _)| base);
    let base = base.trim_start_matches("./");
    !base.is_empty()
        && ids.iter().any(|id| {
            *id == base
                || id
                    .strip_suffix(base)
                    .is_some_and(|rest| rest.ends_with('/') || rest.ends_with(':'))
        })
}

pub(super) fn remote_schema_ref(unit: &Unit<'_>, sink: &mut Sink) {
    for subject in unit.schema_subjects() {
        let sites = unit.schema_sites(subject.schema);
        let ids = declared_ids(&sites);
        for site in sites.iter() {
            for keyword in ["$ref", "$dynamicRef"] {
                let Some(node) = site.node.get(keyword) else {
                    continue;
                };
                let Some(reference) = node.as_str() else {
                    continue;
                };
                let Some(kind) = external_kind(reference) else {
                    continue;
                };
                if names_declared_id(reference, &ids) {
                    continue;
                }
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
