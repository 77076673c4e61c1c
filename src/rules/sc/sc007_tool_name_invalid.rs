//! SC007 `tool-name-invalid`: A tool name breaks the MCP tool name rules.

use super::{mcp_name_problem, name_left_to_contract};
use crate::check::{Sink, Unit};
use crate::source::Span;

pub(super) fn tool_name_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "use 1–128 ASCII letters, digits, `_`, `-` or `.`; snake_case (`create_event`) works with every client";
    for (file, tool) in unit.tools() {
        match tool.name_node() {
            _ if name_left_to_contract(unit, file, tool) => {}
            None => {
                let start = tool.definition().span.start;
                sink.report(
                    file,
                    Span::new(start, start + 1),
                    format!(
                        "{} tool at `{}` has no `name`",
                        tool.dialect.as_str(),
                        tool.pointer
                    ),
                )
                .label("this entry has no `name`")
                .help(HELP);
            }
            Some(node) => match node.as_str() {
                None => {
                    sink.report(
                        file,
                        node.span,
                        format!("tool name must be a string, found {}", node.type_name()),
                    )
                    .label("not a string")
                    .help(HELP);
                }
                Some(name) => {
                    if let Some(problem) = mcp_name_problem(name) {
                        sink.report(file, node.span, problem)
                            .label("invalid tool name")
                            .help(HELP);
                    }
                }
            },
        }
    }
}
