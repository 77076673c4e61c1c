//! TJ004 `confirmation-field-missing`: A confirmation-gated tool has no required boolean
//! user_confirmed parameter.

use super::{forge_tools, report_field_problem, CONFIRMATION};
use crate::check::{code, Sink, Unit};
use crate::model::tools::SideEffect;

pub(super) fn confirmation_field_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, tool) in forge_tools(unit) {
        let Some((true, flag_span)) = tool.confirmation else {
            continue;
        };
        // A gated read tool is TJ006's while it runs for the file: the gate should go, not be
        // completed. With TJ006 off the gate is kept on purpose, and must be complete.
        if tool.side_effect == SideEffect::Read && unit.reports(code::TJ006, id) {
            continue;
        }
        report_field_problem(
            sink,
            (id, &unit.json_text(id)),
            tool,
            flag_span,
            ("confirmation-gated", CONFIRMATION),
            "define `\"user_confirmed\": {\"type\": \"boolean\"}` in `inputSchema.properties` and list it in `required`",
        );
    }
}
