//! The skill's Tool Use Rules section: the heading configured in `tool_use_rules_heading` and the
//! list items and paragraphs under it. The TR rules read it.

use crate::index::UnitView;
use crate::parse::markdown::{Section, TextBlock};

/// The unit's SKILL.md section under the configured heading, with its items; `None` without a
/// SKILL.md or without such a section.
pub(crate) fn find_section<'a>(unit: &UnitView<'a>) -> Option<(Section<'a>, Vec<&'a TextBlock>)> {
    let (_, doc) = unit.skill()?;
    let name = unit.settings().tool_use_rules_heading.as_str();
    let section = doc.doc.body.section(name)?;
    Some((section, doc.doc.body.blocks_in(section.content).collect()))
}
