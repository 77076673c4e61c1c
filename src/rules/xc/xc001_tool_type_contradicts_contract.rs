//! XC001 `tool-type-contradicts-contract`: A tool's read or write type contradicts the side
//! effects its TOOL.md contract declares.

use crate::check::{Sink, Unit};
use crate::model::tools::{Dialect, SideEffect};
use crate::parse::Node;

fn quoted_list(items: &[Node], max: usize) -> String {
    let names: Vec<String> = items
        .iter()
        .filter_map(Node::as_str)
        .take(max)
        .map(|s| format!("`{s}`"))
        .collect();
    let rest = items.len().saturating_sub(names.len());
    if rest > 0 {
        format!("{} and {rest} more", names.join(", "))
    } else {
        names.join(", ")
    }
}

pub(super) fn tool_type_contradicts_contract(unit: &Unit<'_>, sink: &mut Sink) {
    for link in unit.tool_links() {
        let Some(mutates) = link.contract.get("mutates") else {
            continue;
        };
        let Some(items) = mutates.as_array() else {
            continue;
        };
        let tool = link.tool;
        let span = tool.side_effect_span.unwrap_or_else(|| tool.span());
        let (how, writing) = if tool.dialect == Dialect::Mcp {
            ("annotated", "annotated as writing")
        } else {
            ("declared", "declared a write tool")
        };
        match tool.side_effect {
            SideEffect::Read if !items.is_empty() => {
                sink.report(
                    link.tools_file,
                    span,
                    format!(
                        "tool `{}` is {how} read-only but its contract `{}` mutates {}",
                        link.name(),
                        link.id,
                        quoted_list(items, 3)
                    ),
                )
                .label(format!("{how} read-only here"))
                .secondary(link.contract.file, mutates.span, "the contract declares these side effects")
                .help("make it a write tool with a confirmation gate; if the tool really changes nothing, correct the contract's `mutates` instead");
            }
            SideEffect::Write if items.is_empty() => {
                sink.report(
                    link.tools_file,
                    span,
                    format!(
                        "tool `{}` is {writing} but its contract `{}` has `mutates: []`",
                        link.name(),
                        link.id
                    ),
                )
                .severity(crate::diagnostic::Severity::Warning)
                .label(format!("{writing} here"))
                .secondary(link.contract.file, mutates.span, "the contract declares no side effects")
                .help("list what the tool changes in the contract's `mutates` (e.g. `database:events`), or declare the tool read-only if it changes nothing");
            }
            _ => {}
        }
    }
}
