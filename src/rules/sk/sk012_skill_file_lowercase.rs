//! SK012 `skill-file-lowercase`: The skill file is named skill.md (or Skill.md, SKILL.MD) instead of SKILL.md.

use crate::check::{Sink, Unit};
use crate::diagnostic::Fix;
use crate::source::Span;

pub(super) fn skill_file_lowercase(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    if skill.misnamed_file {
        // `skill.md`, `Skill.md`, `SKILL.MD`: the name as it is in the repository.
        let name = unit.repo.file_name(file);
        sink.report(
            file,
            Span::empty(0),
            format!("skill file is named `{name}`; the specification expects `SKILL.md`"),
        )
        .help("rename the file to `SKILL.md`; case-sensitive systems will not find it")
        .fix(Fix {
            rename_to: Some("SKILL.md".into()),
            ..Fix::safe(format!("rename `{name}` to `SKILL.md`"), vec![])
        });
    }
}
