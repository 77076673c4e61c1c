//! SK012 `skill-file-lowercase`: The skill file is named skill.md instead of SKILL.md.

use crate::check::{Sink, Unit};
use crate::diagnostic::Fix;
use crate::source::Span;

pub(super) fn skill_file_lowercase(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    if skill.lowercase_file_name {
        sink.report(
            file,
            Span::empty(0),
            "skill file is named `skill.md`; the specification expects `SKILL.md`",
        )
        .help("rename the file to `SKILL.md`; case-sensitive systems will not find it")
        .fix(Fix {
            rename_to: Some("SKILL.md".into()),
            ..Fix::safe("rename `skill.md` to `SKILL.md`", vec![])
        });
    }
}
