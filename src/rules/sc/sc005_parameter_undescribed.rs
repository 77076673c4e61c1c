//! SC005 `parameter-undescribed`: A parameter of an input schema has no description.

use super::{declared_types, parameters, resolve};
use crate::check::{Sink, Unit};
use crate::parse::node::Node;

pub(super) fn parameter_undescribed(unit: &Unit<'_>, sink: &mut Sink) {
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
            if resolved.is_some_and(|node| branches_described(subject.schema, node, described)) {
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

/// A parameter written as a union whose every branch but `{"type": "null"}` carries the
/// description: Zod's `.nullable()` (`{"anyOf": [{"type": "string", "description": "…"},
/// {"type": "null"}]}`) and its `oneOf` form. At least one branch must be described.
fn branches_described(root: &Node, node: &Node, described: impl Fn(&Node) -> bool) -> bool {
    ["anyOf", "oneOf"].iter().any(|key| {
        let Some(branches) = node.get(key).and_then(Node::as_array) else {
            return false;
        };
        let mut values = branches
            .iter()
            .map(|b| resolve(root, b).unwrap_or(b))
            .filter(|b| declared_types(b) != ["null"])
            .peekable();
        values.peek().is_some() && values.all(&described)
    })
}
