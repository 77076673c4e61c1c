//! XC004 `contract-input-missing`: A tool's input schema lacks an input its TOOL.md contract
//! requires.

use crate::check::{Sink, Unit};
use crate::model::tools::{Dialect, Tool};
use crate::parse::Node;
use crate::source::Span;

/// Where "this schema lacks an input" points: the schema's `properties` key, else the key holding
/// the schema, else the tool's name.
fn properties_anchor(tool: &Tool) -> (Span, &'static str) {
    // Script parameters and Docker arguments are the properties themselves.
    if tool.has_synthesised_schema() {
        let key = if tool.dialect == Dialect::Script {
            "the tool has no `parameters`"
        } else {
            "the tool has no `arguments`"
        };
        return tool.schema_member().map_or((tool.span(), key), |m| {
            (m.key_span, "not among these parameters")
        });
    }
    let schema_member = tool.schema_member();
    match schema_member {
        Some(member) => match member.value.member("properties") {
            Some(properties) => (properties.key_span, "not among these properties"),
            None => (member.key_span, "this schema declares no properties"),
        },
        None => (tool.span(), "the tool has no input schema"),
    }
}

pub(super) fn contract_input_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for link in unit.tool_links() {
        let Some(required) = link
            .contract
            .get("inputs")
            .and_then(|i| i.get("required"))
            .and_then(Node::as_array)
        else {
            continue;
        };
        let tool = link.tool;
        for entry in required {
            let Some(input) = entry.as_str() else {
                continue;
            };
            if tool.property(input).is_some() {
                continue;
            }
            let (span, label) = properties_anchor(tool);
            sink.report(
                link.tools_file,
                span,
                format!(
                    "tool `{}` has no `{input}` input, which its contract `{}` requires",
                    link.name(),
                    link.id
                ),
            )
            .label(label)
            .secondary(link.contract.file, entry.span, "required by the contract")
            .help(format!(
                "add `{input}` to the tool's input schema with the type the contract gives it, and list it in `required`"
            ));
        }
    }
}
