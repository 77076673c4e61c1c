//! DR007 `driver-drops-idempotency-key`: A driver drops the idempotency key of an idempotent
//! tool.

use super::{dropped_inputs, IDEMPOTENCY_FIELD};
use crate::check::{Sink, Unit};

pub(super) fn driver_drops_idempotency_key(unit: &Unit<'_>, sink: &mut Sink) {
    for (driver, bindings) in unit.driver_bindings() {
        for binding in bindings {
            let contract = &binding.contract;
            let Some(idempotent) = contract.idempotent() else {
                continue;
            };
            let name = contract.name(binding.reference);
            for (input, span) in dropped_inputs(binding.entry) {
                if input != IDEMPOTENCY_FIELD {
                    continue;
                }
                sink.report(
                    driver.file,
                    span,
                    format!("drops `{IDEMPOTENCY_FIELD}` of idempotent tool `{name}`"),
                )
                .label("retries through this driver are no longer deduplicated")
                .secondary(contract.file, idempotent.span, "the contract is idempotent")
                .help("pass the key through (e.g. as an `Idempotency-Key` header); a retried write without it can run twice");
            }
        }
    }
}
