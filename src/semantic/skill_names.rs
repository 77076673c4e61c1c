//! Each skill's frontmatter `name`, gathered per unit for the repository-wide rules (SK014), which
//! run after the units and their parses are gone.

use crate::index::UnitView;
use crate::source::{FileId, Span};

/// A skill's frontmatter `name` and where it is written.
#[derive(Debug, Clone)]
pub struct SkillName {
    pub file: FileId,
    pub name: String,
    pub span: Span,
}

/// The skill's non-empty frontmatter `name`, which each unit leaves behind for SK014 (the
/// parses are gone by the time repository-wide rules run).
pub(crate) fn skill_name(unit: &UnitView<'_>) -> Option<SkillName> {
    let (file, skill) = unit.skill()?;
    let name = skill.doc.frontmatter()?.root.get("name")?;
    let text = name.as_str().filter(|t| !t.trim().is_empty())?;
    Some(SkillName {
        file,
        name: text.to_string(),
        span: name.span,
    })
}
