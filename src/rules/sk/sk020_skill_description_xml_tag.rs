//! SK020 `skill-description-xml-tag`: The skill description contains an XML or HTML tag.

use super::skill_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::source::Span;

/// The first `<tag>`, `</tag>` or `<tag/>` in `text`, as a byte range.
fn first_tag(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(open) = text[from..].find('<').map(|i| from + i) {
        let name_start = open + 1 + usize::from(bytes.get(open + 1) == Some(&b'/'));
        let starts_name = bytes
            .get(name_start)
            .is_some_and(|b| b.is_ascii_alphabetic());
        if starts_name {
            if let Some(close) = text[name_start..].find('>').map(|i| name_start + i) {
                let inner = &text[name_start..close];
                if !inner.contains(['<', '\n']) {
                    return Some((open, close + 1));
                }
            }
        }
        from = open + 1;
    }
    None
}

pub(super) fn skill_description_xml_tag(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    // The limit is an upload's: a skill a plugin host installs from its plugin is not uploaded.
    if unit.repo.contracts.plugins.plugin_of(unit.dir()).is_some() {
        return;
    }
    let Some(node) = fm.root.get("description") else {
        return;
    };
    let Some(description) = node.as_str() else {
        return;
    };
    let Some((start, end)) = first_tag(description) else {
        return;
    };
    let tag = &description[start..end];
    let source = unit
        .text(file)
        .get(node.span.start..node.span.end)
        .unwrap_or_default();
    let span = source.find(tag).map_or(node.span, |i| {
        Span::new(node.span.start + i, node.span.start + i + tag.len())
    });
    sink.report(file, span, format!("the skill description contains the tag `{tag}`"))
        .label("angle-bracket tag in the description")
        .help("write it without angle brackets (e.g. `FILE` or `[file]`): skill uploads reject a description with XML tags, and the model may read it as markup");
}
