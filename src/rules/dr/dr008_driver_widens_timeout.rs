//! DR008 `driver-widens-timeout`: A driver's timeout override is longer than the tool
//! contract's timeout.

use crate::check::{Sink, Unit};
use crate::parse::node::Node;

/// The contract ceiling when a TOOL.md sets no `timeout_ms` (AIP-14).
const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;

pub(super) fn driver_widens_timeout(unit: &Unit<'_>, sink: &mut Sink) {
    for (driver, bindings) in unit.driver_bindings() {
        let driver_level = driver.fm.root.get("timeout_override_ms");
        for binding in bindings {
            let contract = &binding.contract;
            if contract.fm.is_none() {
                continue;
            }
            let override_node = binding.entry.get("timeout_override_ms").or(driver_level);
            let Some(node) = override_node else {
                continue;
            };
            let Some(value) = node.as_f64() else {
                continue;
            };
            let ceiling_node = contract.get("timeout_ms");
            let ceiling = ceiling_node
                .and_then(Node::as_f64)
                .unwrap_or(DEFAULT_TIMEOUT_MS);
            if value <= ceiling {
                continue;
            }
            let name = contract.name(binding.reference);
            let (secondary_span, secondary_label) = match ceiling_node {
                Some(n) => (n.span, format!("the contract's ceiling is {ceiling} ms")),
                None => (
                    contract.anchor(),
                    format!("no `timeout_ms`: the ceiling is the default {ceiling} ms"),
                ),
            };
            sink.report(
                driver.file,
                node.span,
                format!("timeout {value} ms widens the {ceiling} ms ceiling of `{name}`"),
            )
            .label("above the contract's ceiling")
            .secondary(contract.file, secondary_span, secondary_label)
            .help(format!(
                "a driver may narrow the timeout, never widen it: use at most {ceiling} ms, or raise `timeout_ms` in the contract"
            ));
        }
    }
}
