//! SK015 `skill-yaml-not-portable`: The skill frontmatter uses YAML that the reference
//! validator rejects.

use super::skill_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::source::Span;

pub(super) fn skill_yaml_not_portable(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let features = &fm.features;
    let groups: [(&[Span], &str, &str); 4] = [
        (
            &features.flow_collections,
            "flow-style collection",
            "write it in block style, one item per line",
        ),
        (
            &features.anchors,
            "YAML anchor",
            "repeat the value instead of anchoring it",
        ),
        (
            &features.aliases,
            "YAML alias",
            "repeat the value instead of aliasing it",
        ),
        (
            &features.tags,
            "YAML tag",
            "remove the tag; quote the value if it must be a string",
        ),
    ];
    let mut found: Vec<(Span, &str, &str)> = groups
        .iter()
        .flat_map(|(spans, what, help)| spans.iter().map(move |s| (*s, *what, *help)))
        .collect();
    found.sort_by_key(|(span, _, _)| *span);
    for (span, what, help) in found {
        sink.report(
            file,
            span,
            format!("{what} in frontmatter is rejected by the reference validator"),
        )
        .label("valid YAML, but not StrictYAML")
        .help(help);
    }
}
