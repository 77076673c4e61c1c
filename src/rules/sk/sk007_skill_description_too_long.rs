//! SK007 `skill-description-too-long`: The skill description is longer than 1024 characters.

use super::{chars, skill_with_frontmatter};
use crate::check::{Sink, Unit};

const DESCRIPTION_MAX: usize = 1024;

pub(super) fn skill_description_too_long(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(description) = fm.root.get("description") else {
        return;
    };
    let Some(text) = description.as_str() else {
        return;
    };
    let length = chars(text);
    if length > DESCRIPTION_MAX {
        sink.report(
            file,
            description.span,
            format!("skill description is {length} characters, over the {DESCRIPTION_MAX} limit"),
        )
        .help("keep the description short and move details into the body");
    }
}
