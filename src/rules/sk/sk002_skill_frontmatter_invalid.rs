//! SK002 `skill-frontmatter-invalid`: The SKILL.md frontmatter is not a valid YAML mapping.

use crate::check::{Sink, Unit};
use crate::model::document::FrontmatterState;

pub(super) fn skill_frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    let FrontmatterState::Invalid { error } = &skill.doc.frontmatter else {
        return;
    };
    match error.first_definition {
        Some(first) => {
            sink.report(
                file,
                error.span,
                format!("{} in the frontmatter", error.message),
            )
            .label("defined again here")
            .secondary(file, first, "first defined here")
            .help("keep one definition; YAML tools disagree on which duplicate wins");
        }
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
