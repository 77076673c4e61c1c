//! TM003 `driver-field-in-tool`: An implementation field that belongs on DRIVER.md appears in
//! TOOL.md.

use super::{contract_with_frontmatter, DRIVER_FIELDS};
use crate::check::{Sink, Unit};

pub(super) fn driver_field_in_tool(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    for member in fm.root.as_object().unwrap_or_default() {
        let Some((_, home)) = DRIVER_FIELDS.iter().find(|(k, _)| *k == member.key) else {
            continue;
        };
        sink.report(
            file,
            member.key_span,
            format!("`{}` belongs on DRIVER.md (AIP-30), not on TOOL.md", member.key),
        )
        .label("an implementation field")
        .help(format!(
            "move it into a DRIVER.md that implements this tool, as {home}; then point `default_implementation` at that driver"
        ));
    }
}
