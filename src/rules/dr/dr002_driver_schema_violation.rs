//! DR002 `driver-schema-violation`: The driver frontmatter does not match the AIP-30 driver
//! schema.

use crate::check::{Sink, Unit};
use crate::parse::node::Node;
use crate::rules::phrasing::report_schema_errors;
use crate::schema;
use crate::semantic::bindings::drivers;

pub(super) fn driver_schema_violation(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(validator) = schema::embedded("driver") else {
        return;
    };
    for driver in drivers(unit) {
        let errors = schema::validate_at_keys(validator, &driver.to_json());
        report_schema_errors(
            driver.file,
            driver.fm,
            &errors,
            "driver frontmatter",
            "see `skilllint rule DR002` for the AIP-30 driver fields",
            sink,
        );
        if driver.cli {
            if let Some(kind) = driver.fm.root.get("kind").and_then(Node::as_str) {
                if kind != "cli" {
                    sink.report(
                        driver.file,
                        driver.kind_span(),
                        format!("a CLI.md is a `kind: cli` driver, found `kind: {kind}`"),
                    )
                    .label("not `cli`")
                    .help("write `kind: cli`, or move the driver to `.drivers/<id>/DRIVER.md`");
                }
            }
        }
    }
}
