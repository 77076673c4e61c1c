//! SK021 `skill-allowed-tools-unrestricted`: The skill pre-approves an unrestricted shell or
//! arbitrary file writes.

use super::skill_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::rules::phrasing::unrestricted_grant_help;
use crate::semantic::permissions::grants;

pub(super) fn skill_allowed_tools_unrestricted(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(allowed) = fm.root.get("allowed-tools") else {
        return;
    };
    for grant in grants(allowed, unit.text(file))
        .into_iter()
        .filter(|g| g.is_unrestricted())
    {
        let (label, help) = unrestricted_grant_help(&grant.tool);
        sink.report(
            file,
            grant.span,
            format!(
                "`allowed-tools` pre-approves `{}` without a scope",
                grant.tool
            ),
        )
        .label(label)
        .help(help);
    }
}
