//! TR009 `allowed-tools-preapproves-write`: The allowed-tools field pre-approves a write or
//! confirmation-gated tool.

use crate::check::{Sink, Unit};
use crate::parse::node::{Node, Value};
use crate::rules::util::find_word;
use crate::source::Span;

pub(super) fn allowed_tools_preapproves_write(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, doc)) = unit.skill() else {
        return;
    };
    let Some(allowed) = doc
        .doc
        .frontmatter()
        .and_then(|f| f.root.get("allowed-tools"))
    else {
        return;
    };
    // The spec's form is one space-separated string; a list is reported by SK016 but pre-approves
    // the same tools.
    let values: Vec<&Node> = match &allowed.value {
        Value::String(_) => vec![allowed],
        Value::Array(items) => items.iter().filter(|n| n.as_str().is_some()).collect(),
        _ => return,
    };
    let text = unit.text(file);
    for value in values {
        let Some(list) = value.as_str() else {
            continue;
        };
        let source = text
            .get(value.span.start..value.span.end)
            .unwrap_or_default();
        let mut cursor = 0;
        // Commas are not the spec's separator (SK016 says so) but must not hide a write tool.
        let tokens = list.split(|c: char| c.is_whitespace() || c == ',');
        for name in tokens.map(|t| t.trim_matches(['"', '\''])) {
            if name.is_empty() {
                continue;
            }
            let found = source
                .get(cursor..)
                .and_then(|rest| find_word(rest, name).map(|i| cursor + i));
            let span = match found {
                Some(i) => {
                    cursor = i + name.len();
                    Span::new(value.span.start + i, value.span.start + i + name.len())
                }
                _ => value.span,
            };
            let Some((tool_file, tool)) = unit.find_tool(name) else {
                continue;
            };
            let (kind, flag, flag_label) = if tool.is_write() {
                (
                    "write tool",
                    tool.side_effect_span.unwrap_or_else(|| tool.span()),
                    format!("`{name}` is a write tool"),
                )
            } else if let (true, Some((_, flag))) =
                (tool.is_confirmation_gated(), tool.confirmation)
            {
                (
                    "confirmation-gated tool",
                    flag,
                    format!("`{name}` requires confirmation"),
                )
            } else {
                continue;
            };
            sink.report(
                file,
                span,
                format!("`allowed-tools` pre-approves {kind} `{name}`"),
            )
            .label("pre-approved, so the confirmation step is skipped")
            .secondary(tool_file, flag, flag_label)
            .help(format!(
                "remove `{name}` from `allowed-tools` so every call waits for the user's confirmation"
            ));
        }
    }
}
