//! TJ005 `idempotency-key-missing`: An idempotent tool has no required string idempotency_key
//! parameter.

use super::{forge_tools, report_field_problem, GateField, IDEMPOTENCY_FIELD};
use crate::check::{Sink, Unit};
use crate::model::tools::SideEffect;

const IDEMPOTENCY_DESCRIPTION: &str =
    "Stable key for this logical operation so retries never create duplicates.";

const IDEMPOTENCY: GateField = GateField {
    name: IDEMPOTENCY_FIELD,
    json_type: "string",
    description: IDEMPOTENCY_DESCRIPTION,
};

pub(super) fn idempotency_key_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (id, tool) in forge_tools(unit) {
        // Read tools are exempt: a lookup can be repeated safely without a key, so none is asked
        // for, whether or not TJ006 runs (TJ006 asks for a key on a read tool to be removed).
        if tool.side_effect == SideEffect::Read {
            continue;
        }
        let Some((true, flag_span)) = tool.idempotent else {
            continue;
        };
        report_field_problem(
            sink,
            (id, &unit.json_text(id)),
            tool,
            flag_span,
            ("idempotent", IDEMPOTENCY),
            "define `\"idempotency_key\": {\"type\": \"string\"}` in `inputSchema.properties` and list it in `required`, or set `\"idempotent\": false` if retries are not safe",
        );
    }
}
