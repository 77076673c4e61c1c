//! SK001 `skill-frontmatter-missing`: SKILL.md does not begin with a YAML frontmatter block.

use crate::check::{Sink, Unit};
use crate::rules::phrasing::report_absent_frontmatter;

pub(super) fn skill_frontmatter_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    // Named SKILL.md whatever the file's case: a lowercase skill.md is read only when it has a
    // frontmatter, so it never gets here.
    report_absent_frontmatter(
        unit.text(file),
        file,
        "SKILL.md",
        &skill.doc.frontmatter,
        sink,
        "start the file with a `---` line, then `name:` and `description:`, then a closing `---`",
    );
}
