//! SC008 `tool-name-not-portable`: A tool name is not portable snake_case.

use super::{describe_char, join_and, mcp_name_problem, name_left_to_contract};
use crate::check::{code, Sink, Unit};
use crate::rules::util::name_words;

/// OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`.
const PORTABLE_NAME_MAX: usize = 64;

/// OpenAI and Anthropic: MCP's characters less `.`.
fn is_portable_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-')
}

/// `lower_snake_case`: lowercase ASCII words of letters and digits joined by single `_`.
pub(super) fn is_snake_case(name: &str) -> bool {
    name.split('_').all(|w| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    }) && name.starts_with(|c: char| c.is_ascii_lowercase())
}

pub(super) fn tool_name_not_portable(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        let Some(node) = tool.name_node() else {
            continue;
        };
        let Some(name) = node.as_str() else {
            continue;
        };
        // SC007 reports names MCP itself rejects, while it runs for the file (and TJ002 a forge
        // tool's empty name); otherwise they are reported here: OpenAI and Anthropic accept a
        // subset of MCP's names, so they reject these too.
        if mcp_name_problem(name).is_some()
            && (unit.reports(code::SC007, file) || name_left_to_contract(unit, file, tool))
        {
            continue;
        }
        let length = name.chars().count();
        let mut bad: Vec<char> = name
            .chars()
            .filter(|c| !is_portable_name_char(*c))
            .collect();
        bad.sort_unstable();
        bad.dedup();
        let problem = if length == 0 {
            "tool name is empty".to_string()
        } else if length > PORTABLE_NAME_MAX {
            format!(
                "tool name is {length} characters long; OpenAI and Anthropic allow at most {PORTABLE_NAME_MAX}"
            )
        } else if !bad.is_empty() {
            let shown: Vec<String> = bad.iter().take(5).map(|c| describe_char(*c)).collect();
            format!(
                "tool name `{name}` contains {}, which OpenAI and Anthropic reject",
                join_and(&shown)
            )
        } else if !is_snake_case(name) {
            format!("tool name `{name}` is not snake_case")
        } else {
            continue;
        };
        let suggestion = name_words(name).join("_");
        let help = if !suggestion.is_empty()
            && suggestion != name
            && suggestion.len() <= PORTABLE_NAME_MAX
            && is_snake_case(&suggestion)
        {
            format!("rename it to `{suggestion}` and update every reference to it")
        } else {
            "use at most 64 characters of lowercase letters, digits and `_` (snake_case verbs scoped by domain, e.g. `orders_get_by_id`)".to_string()
        };
        sink.report(file, node.span, problem)
            .label("not portable")
            .help(help);
    }
}
