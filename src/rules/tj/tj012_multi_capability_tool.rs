//! TJ012 `multi-capability-tool`: One tool bundles several capabilities behind a single name.

use crate::check::{Sink, Unit};
use crate::parse::node::Node;
use crate::rules::util::name_words;
use crate::semantic::operations::is_http_method_enum;
pub(super) use crate::semantic::operations::is_selector_parameter;

/// Verbs that name distinct operations, by what calling them does: reads, writes, deletes.
const READING_OPERATIONS: [&str; 9] = [
    "search", "find", "query", "get", "fetch", "list", "read", "view", "show",
];
#[rustfmt::skip]
const WRITING_OPERATIONS: [&str; 18] = [
    "create", "add", "insert", "new", "update", "edit", "modify", "patch", "set", "upsert",
    "cancel", "archive", "write", "send", "post", "move", "copy", "rename",
];
const DELETING_OPERATIONS: [&str; 3] = ["delete", "remove", "destroy"];

/// What an operation verb does: `reads`, `writes` or `deletes`.
fn operation_effect(verb: &str) -> Option<&'static str> {
    if READING_OPERATIONS.contains(&verb) {
        Some("reads")
    } else if WRITING_OPERATIONS.contains(&verb) {
        Some("writes")
    } else if DELETING_OPERATIONS.contains(&verb) {
        Some("deletes")
    } else {
        None
    }
}

pub(super) fn multi_capability_tool(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "split it into one tool per operation, each with its own read/write classification and confirmation gate";
    for (id, tool) in unit.tools() {
        let name = tool.display_name();
        if tool
            .name()
            .is_some_and(|n| name_words(n).first().is_some_and(|w| w == "manage"))
        {
            sink.report(
                id,
                tool.span(),
                format!("tool `{name}` bundles several capabilities behind one name"),
            )
            .label("`manage` names no single capability")
            .help(HELP);
        }
        let Some(properties) = tool
            .schema()
            .and_then(|s| s.get("properties"))
            .and_then(Node::as_object)
        else {
            continue;
        };
        for property in properties {
            if !is_selector_parameter(&property.key) {
                continue;
            }
            let Some(values) = property.value.get("enum") else {
                continue;
            };
            if is_http_method_enum(values) {
                continue;
            }
            let verbs = enum_verbs(values);
            // Operations that do the same kind of thing share one classification and one gate:
            // `list` and `get` on a reading tool, `create` and `update` on a writing one.
            let mut effects: Vec<&str> = verbs.iter().filter_map(|v| operation_effect(v)).collect();
            effects.sort_unstable();
            effects.dedup();
            if effects.len() < 2 {
                continue;
            }
            sink.report(
                id,
                values.span,
                format!(
                    "tool `{name}` selects one of {} through its `{}` parameter",
                    join_verbs(&verbs),
                    property.key
                ),
            )
            .label(differing_label(&verbs))
            .help(HELP);
        }
    }
}

/// "`list` reads, `delete` deletes": the first verb of each effect, in the enum's order.
fn differing_label(verbs: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    let mut parts = Vec::new();
    for verb in verbs {
        let Some(effect) = operation_effect(verb) else {
            continue;
        };
        if !seen.contains(&effect) {
            seen.push(effect);
            parts.push(format!("`{verb}` {effect}"));
        }
    }
    format!("operations that differ in effect: {}", parts.join(", "))
}

/// The distinct operation verbs an `enum` offers, in order (`"create_task"` counts as `create`).
fn enum_verbs(values: &Node) -> Vec<String> {
    let mut verbs: Vec<String> = Vec::new();
    for value in values.as_array().unwrap_or_default() {
        let Some(text) = value.as_str() else {
            continue;
        };
        let Some(first) = name_words(text).into_iter().next() else {
            continue;
        };
        if operation_effect(&first).is_some() && !verbs.contains(&first) {
            verbs.push(first);
        }
    }
    verbs
}

/// "`create`, `delete` and `list`".
fn join_verbs(verbs: &[String]) -> String {
    let quoted: Vec<String> = verbs.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}
