//! SK022 `skill-opaque-file-unreferenced`: The skill folder holds an archive or a native
//! executable that nothing in the skill names.

use crate::check::{Sink, Unit};
use crate::source::Span;

pub(super) fn skill_opaque_file_unreferenced(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    let dir = unit.dir();
    let bundled = &unit.repo.bundled;
    let first = bundled.partition_point(|b| b.skill_dir.as_str() < dir);
    // At the skill's `name`, which names the skill the file ships with; at the start of a
    // SKILL.md without one.
    let span = skill
        .doc
        .frontmatter()
        .and_then(|fm| fm.root.get("name"))
        .map_or(Span::empty(0), |name| name.span);
    for opaque in bundled[first..].iter().take_while(|b| b.skill_dir == dir) {
        sink.report(
            file,
            span,
            format!(
                "the skill folder holds `{}`, {} that nothing in the skill names",
                opaque.path,
                opaque.kind.noun()
            ),
        )
        .label("ships with this skill")
        .help("delete it if it is left over; if the skill needs it, say in SKILL.md what it is, where it comes from and when to use it, or ship its source instead");
    }
}
