//! AG004 `command-allowed-tools-unrestricted`: A command or agent pre-approves an unrestricted
//! shell or arbitrary file writes.

use crate::check::{Sink, Unit};
use crate::rules::phrasing::unrestricted_grant_help;
use crate::semantic::permissions::grants;

pub(super) fn command_allowed_tools_unrestricted(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.agent_docs() {
        let Some(allowed) = doc.field("allowed-tools") else {
            continue;
        };
        let text = unit.text(file);
        for grant in grants(allowed, text)
            .into_iter()
            .filter(|g| g.is_unrestricted())
        {
            let (label, help) = unrestricted_grant_help(&grant.tool);
            sink.report(
                file,
                grant.span,
                format!(
                    "`allowed-tools` of this {} pre-approves `{}` without a scope",
                    doc.what(),
                    grant.tool
                ),
            )
            .label(label)
            .help(help);
        }
    }
}
