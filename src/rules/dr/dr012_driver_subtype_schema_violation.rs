//! DR012 `driver-subtype-schema-violation`: A driver does not match the subtype schema of its
//! kind (AIP-31 HTTP, AIP-32 MCP, AIP-33 SDK).

use crate::check::{Sink, Unit};
use crate::rules::phrasing::report_schema_errors;
use crate::schema;
use crate::semantic::bindings::drivers;

pub(super) fn driver_subtype_schema_violation(unit: &Unit<'_>, sink: &mut Sink) {
    for driver in drivers(unit) {
        let (schema_name, aip) = match driver.kind() {
            Some("http") => ("driver-http", "AIP-31"),
            Some("mcp") => ("driver-mcp", "AIP-32"),
            Some("sdk") => ("driver-sdk", "AIP-33"),
            _ => continue,
        };
        let Some(validator) = schema::embedded(schema_name) else {
            continue;
        };
        let errors = schema::validate_at_keys(validator, &driver.to_json());
        let kind = driver.kind().unwrap_or_default();
        report_schema_errors(
            driver.file,
            driver.fm,
            &errors,
            &format!("`kind: {kind}` driver ({aip})"),
            &format!("see `skilllint rule DR012` for the {aip} fields of a `kind: {kind}` driver"),
            sink,
        );
    }
}
