//! DR006 `driver-drops-required-input`: A driver's schema narrowing drops an input the tool
//! requires or does not define.

use super::{dropped_inputs, InputLookups, IDEMPOTENCY_FIELD};
use crate::check::{code, Sink, Unit};
use crate::diagnostic::Severity;
use crate::rules::util::nearest;

pub(super) fn driver_drops_required_input(unit: &Unit<'_>, sink: &mut Sink) {
    let mut lookups = InputLookups::default();
    for (driver, bindings) in unit.driver_bindings() {
        for binding in bindings {
            let contract = &binding.contract;
            let name = contract.name(binding.reference);
            let dropped = dropped_inputs(binding.entry);
            if dropped.is_empty() {
                continue;
            }
            let lookup = lookups.of(contract);
            for (input, span) in dropped {
                // DR007 reports the idempotency key of an idempotent tool, when it reports in
                // this driver; else the key is judged here like any other input.
                if input == IDEMPOTENCY_FIELD
                    && contract.idempotent().is_some()
                    && unit.reports(code::DR007, driver.file)
                {
                    continue;
                }
                if let Some(required) = lookup.required.get(input) {
                    sink.report(
                        driver.file,
                        span,
                        format!("drops `{input}`, which `{name}` requires"),
                    )
                    .label("a required input")
                    .secondary(contract.file, required.span, "required by the contract")
                    .help("a driver may drop only optional inputs; support this input, or implement a different tool");
                    continue;
                }
                let (Some(properties), Some(names)) =
                    (contract.input_properties(), &lookup.properties)
                else {
                    continue;
                };
                if !names.contains(input) {
                    let diagnostic = sink
                        .report(
                            driver.file,
                            span,
                            format!("drops `{input}`, which `{name}` does not define"),
                        )
                        .severity(Severity::Warning)
                        .label("not an input of the tool")
                        .secondary(
                            contract.file,
                            contract.inputs_span(),
                            "the contract's inputs",
                        );
                    match nearest(input, properties.iter().map(|m| m.key.as_str())) {
                        Some(near) => diagnostic.help(format!("did you mean `{near}`?")),
                        None => diagnostic
                            .help("remove it: narrowing can only drop inputs the contract defines"),
                    };
                }
            }
        }
    }
}
