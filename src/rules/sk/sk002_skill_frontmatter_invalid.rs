//! SK002 `skill-frontmatter-invalid`: The SKILL.md frontmatter is not a valid YAML mapping.

use crate::check::{Sink, Unit};
use crate::model::document::FrontmatterState;
use crate::rules::phrasing::DUPLICATE_YAML_KEY_HELP;

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
            .help(DUPLICATE_YAML_KEY_HELP);
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
