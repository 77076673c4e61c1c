//! SK006 `skill-description-missing`: The skill frontmatter has no description.

use super::{is_blank, skill_with_frontmatter};
use crate::check::{Sink, Unit};

pub(super) fn skill_description_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let help = "say what the skill does and when to use it, in one or two sentences";
    match fm.root.member("description") {
        None => {
            sink.report(file, fm.opening, "skill has no `description`")
                .label("frontmatter without `description`")
                .help(help);
        }
        Some(member) if is_blank(&member.value) => {
            sink.report(file, member.key_span, "skill `description` is empty")
                .help(help);
        }
        Some(member) if member.value.as_str().is_none() => {
            sink.report(
                file,
                member.value.span,
                format!(
                    "skill `description` must be a string, found {}",
                    member.value.type_name()
                ),
            )
            .help(help);
        }
        Some(_) => {}
    }
}
