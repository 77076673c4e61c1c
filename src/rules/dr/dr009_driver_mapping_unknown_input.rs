//! DR009 `driver-mapping-unknown-input`: A driver's input mapping names an input the tool does
//! not define.

use super::InputLookups;
use crate::check::{Sink, Unit};
use crate::parse::node::Node;
use crate::rules::util::nearest;

pub(super) fn driver_mapping_unknown_input(unit: &Unit<'_>, sink: &mut Sink) {
    let mut lookups = InputLookups::default();
    for (driver, bindings) in unit.driver_bindings() {
        for binding in bindings {
            let contract = &binding.contract;
            let Some(properties) = contract.input_properties() else {
                continue;
            };
            let Some(mapping) = binding.entry.get("mapping").and_then(Node::as_object) else {
                continue;
            };
            let Some(names) = &lookups.of(contract).properties else {
                continue;
            };
            let name = contract.name(binding.reference);
            for member in mapping {
                // `key: provider_name` renames the tool input `key`; `key: {from: input}` builds
                // the provider's `key` from the tool input `from`.
                let (input, span) = match member.value.get("from") {
                    Some(from) => match from.as_str() {
                        Some(text) => (text, from.span),
                        None => continue,
                    },
                    None => (member.key.as_str(), member.key_span),
                };
                if names.contains(input) {
                    continue;
                }
                let diagnostic = sink
                    .report(
                        driver.file,
                        span,
                        format!("mapping names `{input}`, which is not an input of `{name}`"),
                    )
                    .label("not an input of the tool")
                    .secondary(
                        contract.file,
                        contract.inputs_span(),
                        "the contract's inputs",
                    );
                match nearest(input, properties.iter().map(|m| m.key.as_str())) {
                    Some(near) => diagnostic.help(format!("did you mean `{near}`?")),
                    None => diagnostic.help("map only inputs the contract defines; extra knobs belong in `metadata.<kind>`"),
                };
            }
        }
    }
}
