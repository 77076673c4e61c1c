//! MC001 `mcp-config-invalid`: An MCP configuration is not valid JSON.

use crate::check::{Sink, Unit};
use crate::rules::phrasing::report_json_problems;

pub(super) fn mcp_config_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.mcp_configs() {
        report_json_problems(sink, file, &doc.parsed, "the MCP configuration");
    }
}
