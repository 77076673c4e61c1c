//! The tool grants of an `allowed-tools` value (SKILL.md, slash commands, agents): each tool name
//! with its scope (`Bash(git status:*)` → `Bash`, `git status:*`) and its span in the file.
//! Claude Code runs a granted tool without asking the user, so a grant without a scope on the
//! shell or the file-writing tools pre-approves anything. SK021 and AG004 read this.

use crate::parse::node::{Node, Value};
use crate::source::Span;

/// One tool a frontmatter value pre-approves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub tool: String,
    /// What is inside the parentheses, if any.
    pub scope: Option<String>,
    pub span: Span,
}

/// The built-in tools whose unscoped grant lets the agent run any command or write any file.
pub const UNRESTRICTED_WHEN_BARE: [&str; 5] =
    ["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit"];

impl Grant {
    /// Whether the grant is a shell or file-writing tool with no scope (or a scope of only
    /// wildcards: `Bash(*)`, `Write(**)`).
    pub fn is_unrestricted(&self) -> bool {
        UNRESTRICTED_WHEN_BARE.contains(&self.tool.as_str())
            && self.scope.as_deref().is_none_or(|scope| {
                scope
                    .chars()
                    .all(|c| matches!(c, '*' | ':' | '/' | ' ' | '.'))
            })
    }
}

/// Splits a tool list on whitespace and commas outside parentheses.
fn split_tools(list: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    for (i, c) in list.char_indices() {
        match c {
            '(' => {
                depth += 1;
                start.get_or_insert(i);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                start.get_or_insert(i);
            }
            c if depth == 0 && (c.is_whitespace() || c == ',') => {
                if let Some(s) = start.take() {
                    out.push((s, &list[s..i]));
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = start {
        out.push((s, &list[s..]));
    }
    out
}

/// The grants of a frontmatter value (a string, or a YAML list of strings), with spans found in
/// the file `text`.
pub fn grants(value: &Node, text: &str) -> Vec<Grant> {
    let strings: Vec<&Node> = match &value.value {
        Value::String(_) => vec![value],
        Value::Array(items) => items.iter().filter(|n| n.as_str().is_some()).collect(),
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    for node in strings {
        let Some(list) = node.as_str() else {
            continue;
        };
        let source = text.get(node.span.start..node.span.end).unwrap_or_default();
        let mut cursor = 0;
        for (_, raw) in split_tools(list) {
            let name = raw.trim_matches(['"', '\'']);
            if name.is_empty() {
                continue;
            }
            let span = match source.get(cursor..).and_then(|rest| rest.find(name)) {
                Some(i) => {
                    let start = cursor + i;
                    cursor = start + name.len();
                    Span::new(node.span.start + start, node.span.start + cursor)
                }
                None => node.span,
            };
            let (tool, scope) = match name.split_once('(') {
                Some((tool, rest)) => (
                    tool.trim().to_string(),
                    Some(rest.strip_suffix(')').unwrap_or(rest).trim().to_string()),
                ),
                None => (name.to_string(), None),
            };
            out.push(Grant { tool, scope, span });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_lists_split_outside_parentheses() {
        let tools: Vec<&str> = split_tools("Read, Bash(git status:*) Bash(npm run test:*),Write")
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert_eq!(
            tools,
            [
                "Read",
                "Bash(git status:*)",
                "Bash(npm run test:*)",
                "Write"
            ]
        );
    }

    #[test]
    fn bare_shell_and_write_grants_are_unrestricted() {
        let grant = |tool: &str, scope: Option<&str>| Grant {
            tool: tool.to_string(),
            scope: scope.map(str::to_string),
            span: Span::empty(0),
        };
        assert!(grant("Bash", None).is_unrestricted());
        assert!(grant("Bash", Some("*")).is_unrestricted());
        assert!(grant("Write", Some("**")).is_unrestricted());
        assert!(!grant("Bash", Some("git status:*")).is_unrestricted());
        assert!(!grant("Edit", Some("docs/**")).is_unrestricted());
        assert!(!grant("Read", None).is_unrestricted());
    }
}
