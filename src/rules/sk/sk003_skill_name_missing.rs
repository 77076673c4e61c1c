//! SK003 `skill-name-missing`: The skill frontmatter has no name.

use super::{is_blank, skill_with_frontmatter};
use crate::check::{Sink, Unit};

pub(super) fn skill_name_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    match fm.root.member("name") {
        None => {
            sink.report(file, fm.opening, "skill has no `name`")
                .label("frontmatter without `name`")
                .help("add `name:` with the skill folder's name");
        }
        Some(member) if is_blank(&member.value) => {
            sink.report(file, member.key_span, "skill `name` is empty")
                .help("set `name:` to the skill folder's name");
        }
        Some(_) => {}
    }
}
