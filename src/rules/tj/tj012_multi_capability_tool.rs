//! TJ012 `multi-capability-tool`: One tool bundles several capabilities behind a single name.

use crate::check::{Sink, Unit};
use crate::parse::node::Node;
use crate::rules::util::name_words;

/// Words that make a parameter an operation selector: its whole name (`action`, `method`), its
/// last word (`sub_action`, `fileOperation`), or its first word before a qualifier (`action_type`,
/// `op_name`). `type`, `kind` and `name` alone are not selectors: they usually name a kind of thing
/// (`type: ["blocked_by", "blocking"]`), and an enum of them is rarely a list of operations.
const SELECTOR_WORDS: [&str; 8] = [
    "action",
    "operation",
    "op",
    "mode",
    "command",
    "cmd",
    "method",
    "verb",
];

/// The words that may follow a selector word in a two-word selector name (`action_type`).
const SELECTOR_QUALIFIERS: [&str; 3] = ["type", "name", "kind"];

/// HTTP methods: an enum of only these (`GET`, `POST`, `DELETE`) picks a transport verb for a
/// request tool, not one of several operations the tool implements.
const HTTP_METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
];

/// Whether a parameter name says that its value selects an operation.
pub(super) fn is_selector_parameter(name: &str) -> bool {
    let words = name_words(name);
    let selector = |word: &String| SELECTOR_WORDS.contains(&word.as_str());
    match words.as_slice() {
        [.., last] if selector(last) => true,
        [first, qualifier] => selector(first) && SELECTOR_QUALIFIERS.contains(&qualifier.as_str()),
        _ => false,
    }
}

/// Whether every value of an `enum` is an HTTP method written the HTTP way (upper case).
fn is_http_method_enum(values: &Node) -> bool {
    values.as_array().is_some_and(|items| {
        !items.is_empty()
            && items
                .iter()
                .all(|v| v.as_str().is_some_and(|m| HTTP_METHODS.contains(&m)))
    })
}

/// Verbs that name distinct operations.
const OPERATION_VERBS: [&str; 30] = [
    "create", "add", "insert", "new", "update", "edit", "modify", "patch", "set", "upsert",
    "delete", "remove", "destroy", "cancel", "archive", "search", "find", "query", "get", "fetch",
    "list", "read", "view", "show", "write", "send", "post", "move", "copy", "rename",
];

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
            if verbs.len() < 2 {
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
            .label("several operations in one tool")
            .help(HELP);
        }
    }
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
        if OPERATION_VERBS.contains(&first.as_str()) && !verbs.contains(&first) {
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
