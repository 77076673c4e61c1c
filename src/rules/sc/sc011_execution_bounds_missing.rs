//! SC011 `execution-bounds-missing`: A tool declares no timeout or output size limit.

use super::takes_annotations;
use crate::check::{Sink, Unit};
use crate::model::tools::{Dialect, Tool};

/// Whether `key` (or its snake_case spelling) is set on the entry, its annotations or its `_meta`
/// (where MCP keeps extensions, possibly behind a `vendor/` prefix).
fn has_bound(tool: &Tool, camel: &str, snake: &str) -> bool {
    let matches = |key: &str| {
        let last = key.rsplit('/').next().unwrap_or(key);
        last == camel || last == snake
    };
    let holders = [
        Some(&tool.entry),
        Some(tool.definition()),
        tool.annotations(),
        tool.entry.get("_meta"),
        tool.definition().get("_meta"),
    ];
    holders
        .into_iter()
        .flatten()
        .flat_map(|n| n.as_object().unwrap_or_default())
        .any(|m| matches(&m.key))
}

pub(super) fn execution_bounds_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        if !takes_annotations(tool) {
            continue;
        }
        let missing: Vec<&str> = [
            ("timeoutMs", "timeout_ms"),
            ("maxOutputBytes", "max_output_bytes"),
        ]
        .into_iter()
        .filter(|(camel, snake)| !has_bound(tool, camel, snake))
        .map(|(camel, _)| camel)
        .collect();
        let (message, label) = match missing.as_slice() {
            [] => continue,
            ["timeoutMs"] => (
                format!("tool `{}` declares no `timeoutMs`", tool.display_name()),
                "no timeout",
            ),
            [_] => (
                format!(
                    "tool `{}` declares no `maxOutputBytes`",
                    tool.display_name()
                ),
                "no output size limit",
            ),
            _ => (
                format!(
                    "tool `{}` declares no `timeoutMs` or `maxOutputBytes`",
                    tool.display_name()
                ),
                "no timeout or output size limit",
            ),
        };
        let help = match tool.dialect {
            Dialect::Mcp => "declare the bounds the dispatcher enforces, e.g. `\"_meta\": {\"timeoutMs\": 30000, \"maxOutputBytes\": 32768}`",
            _ => "declare the bounds the dispatcher enforces, e.g. `\"timeoutMs\": 30000, \"maxOutputBytes\": 32768`",
        };
        sink.report(file, tool.span(), message)
            .label(label)
            .help(help);
    }
}
