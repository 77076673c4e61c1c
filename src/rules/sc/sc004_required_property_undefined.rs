//! SC004 `required-property-undefined`: The required list of an input schema names a property
//! that is not defined.

use super::{resolve, MAX_REF_HOPS};
use crate::check::{Sink, Unit};
use crate::parse::node::Node;
use crate::semantic::schemas::{Site, Via};
use std::collections::BTreeSet;

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

pub(super) fn required_property_undefined(unit: &Unit<'_>, sink: &mut Sink) {
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
                match crate::rules::util::nearest(name, names.iter().copied()) {
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
