//! DR004 `driver-version-range-mismatch`: An implements entry's version range does not admit
//! the tool contract's version.

use crate::check::{Sink, Unit};
use crate::semantic::bindings::{parse_range, range_admits};

pub(super) fn driver_version_range_mismatch(unit: &Unit<'_>, sink: &mut Sink) {
    for (driver, bindings) in unit.driver_bindings() {
        for binding in bindings {
            let Some(range_node) = binding.entry.get("version") else {
                continue;
            };
            let Some(range_text) = range_node.as_str() else {
                continue;
            };
            let name = binding.contract.name(binding.reference);
            let Some(range) = parse_range(range_text) else {
                sink.report(
                    driver.file,
                    range_node.span,
                    format!(
                        "`{range_text}` is not a semver range, so it admits no version of `{name}`"
                    ),
                )
                .label("not a semver range")
                .secondary(
                    binding.contract.file,
                    binding.contract.anchor(),
                    "the contract it binds to",
                )
                .help("write a range such as `^1.0.0`, `~1.2`, `>=1.2 <2` or `1.x`");
                continue;
            };
            let Some(version) = binding.contract.version() else {
                continue;
            };
            if range_admits(&range, &version) {
                continue;
            }
            let version_span = binding
                .contract
                .get("version")
                .map_or(binding.contract.anchor(), |n| n.span);
            sink.report(
                driver.file,
                range_node.span,
                format!("`{range_text}` does not admit version {version} of `{name}`"),
            )
            .label(format!("excludes {version}"))
            .secondary(
                binding.contract.file,
                version_span,
                format!("the contract is at {version}"),
            )
            .help(format!(
                "review the driver against version {version} of the contract, then widen the range to admit it (e.g. `^{}.{}.0`)",
                version.major, version.minor
            ));
        }
    }
}
