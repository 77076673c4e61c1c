//! MC006 `mcp-command-missing`: An MCP server starts a plugin file that does not exist.

use crate::check::{Sink, Unit};
use crate::model::plugin::PathProblem;

pub(super) fn mcp_command_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, _, set) in unit.server_sets() {
        for reference in &set.broken_refs {
            let (message, label, help) = match reference.problem {
                PathProblem::Escapes => (
                    format!("MCP server starts `{}`, outside the plugin", reference.written),
                    "leaves the plugin root",
                    "ship the server inside the plugin and start it through `${CLAUDE_PLUGIN_ROOT}`",
                ),
                PathProblem::Missing | PathProblem::NotAPlugin => (
                    format!("MCP server starts `{}`, which does not exist", reference.written),
                    "no such file in the plugin",
                    "add the file (a built server must be committed, hosts do not build plugins) or fix the path",
                ),
            };
            sink.report(file, reference.span, message)
                .label(label)
                .help(help);
        }
    }
}
