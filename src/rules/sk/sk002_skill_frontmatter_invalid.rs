//! SK002 `skill-frontmatter-invalid`: The SKILL.md frontmatter is not a valid YAML mapping.

use crate::check::{Sink, Unit};
use crate::model::document::FrontmatterState;
use crate::rules::phrasing::report_duplicate_key;

pub(super) fn skill_frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    let FrontmatterState::Invalid { error } = &skill.doc.frontmatter else {
        return;
    };
    match error.first_definition {
        Some(first) => report_duplicate_key(sink, file, error, first),
        None => {
            sink.report(
                file,
                error.span,
                format!("frontmatter is not valid YAML: {}", error.message),
            )
            .label("the YAML parser stopped here");
        }
    }
}
