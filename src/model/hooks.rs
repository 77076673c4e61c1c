//! Hook configurations: `hooks/hooks.json` (Claude Code and Codex: events → matcher groups →
//! hooks), Cursor's `hooks.json` (`version: 1`, events → hooks), and the `hooks` object a plugin
//! manifest may carry inline. Each command hook's `command` is split into shell words with their
//! file spans, and the plugin files it names are looked up, because that is code the client runs
//! on the user's machine. Nothing here is ever run.

use crate::model::host::{local_refs_in_words, Host};
pub use crate::model::host::{LocalRef, RefBases};
use crate::parse::json::{parse_json_document, string_offsets, JsonDocument, JsonError};
use crate::parse::shell::{tokenize, Token};
use crate::parse::{Node, Value};
use crate::source::{SourceFile, Span};
use std::path::Path;

/// One `command` of a command hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookCommand {
    /// The event the hook runs on, as written.
    pub event: String,
    /// The JSON string's span (quotes included).
    pub span: Span,
    /// The command as the client reads it (JSON escapes decoded).
    pub text: String,
    /// Its shell words and operators, in file coordinates.
    pub tokens: Vec<Token>,
    /// The matcher of its group as written (`None`: no matcher, or Cursor's flat dialect).
    pub matcher: Option<String>,
}

/// A group's `matcher` string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookMatcher {
    /// The event the group is under, as written.
    pub event: String,
    /// The matcher as the client reads it (JSON escapes decoded).
    pub text: String,
    /// The JSON string's span (quotes included).
    pub span: Span,
}

/// What the hooks of one file (or one manifest's inline `hooks`) run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hooks {
    /// JSON pointer to the `hooks` object.
    pub pointer: String,
    /// Cursor's dialect: hooks straight under each event, no matcher groups.
    pub flat: bool,
    pub commands: Vec<HookCommand>,
    /// Every group's string `matcher`, in file order.
    pub matchers: Vec<HookMatcher>,
    /// Plugin files the commands name that do not exist or lead out of the plugin.
    pub broken_refs: Vec<LocalRef>,
}

/// A hooks file.
#[derive(Debug, Clone, PartialEq)]
pub struct HooksDoc {
    pub parsed: Result<JsonDocument, JsonError>,
    /// `None` when the root has no `hooks` object (HK002 says so).
    pub hooks: Option<Hooks>,
}

/// The hooks of the object `hooks` (at `pointer`), whose command strings are in `text`.
pub(crate) fn hooks_view(
    hooks: &Node,
    pointer: &str,
    text: &str,
    bases: Option<&RefBases>,
) -> Hooks {
    let mut view = Hooks {
        pointer: pointer.to_string(),
        ..Hooks::default()
    };
    let Some(events) = hooks.as_object() else {
        return view;
    };
    let mut command_nodes: Vec<(&str, &Node, Option<&str>)> = Vec::new();
    for event in events {
        for group in event.value.as_array().unwrap_or_default() {
            match group.get("hooks").and_then(Node::as_array) {
                Some(inner) => {
                    let matcher = group.get("matcher").and_then(|m| {
                        let text = m.as_str()?;
                        view.matchers.push(HookMatcher {
                            event: event.key.clone(),
                            text: text.to_string(),
                            span: m.span,
                        });
                        Some(text)
                    });
                    for hook in inner {
                        if let Some(command) = hook.get("command") {
                            command_nodes.push((&event.key, command, matcher));
                        }
                    }
                }
                None => {
                    if let Some(command) = group.get("command") {
                        view.flat = true;
                        command_nodes.push((&event.key, command, None));
                    }
                }
            }
        }
    }
    for (event, node, matcher) in command_nodes {
        let Value::String(command) = &node.value else {
            continue;
        };
        let tokens = file_tokens(text, node.span, command);
        let words: Vec<(String, Span)> = tokens
            .iter()
            .filter_map(|t| match t {
                Token::Word { text, span } => Some((text.clone(), *span)),
                Token::Operator { .. } => None,
            })
            .collect();
        local_refs_in_words(&words, bases, &mut view.broken_refs);
        view.commands.push(HookCommand {
            event: event.to_string(),
            span: node.span,
            text: command.clone(),
            tokens,
            matcher: matcher.map(str::to_string),
        });
    }
    view
}

/// The tokens of a command that is the JSON string at `span` of `text`, moved to file
/// coordinates (through the string's escapes, when it has any).
pub(crate) fn file_tokens(text: &str, span: Span, command: &str) -> Vec<Token> {
    let raw = text.get(span.start..span.end).unwrap_or_default();
    let offsets = string_offsets(raw, span.start);
    let at = |i: usize| {
        offsets.as_ref().map_or(span.start + 1 + i, |o| {
            o.get(i).copied().unwrap_or(span.end)
        })
    };
    tokenize(command)
        .into_iter()
        .map(|token| match token {
            Token::Word { text, span: s } => Token::Word {
                text,
                span: Span::new(at(s.start), at(s.end)),
            },
            Token::Operator { text, span: s } => Token::Operator {
                text,
                span: Span::new(at(s.start), at(s.end)),
            },
        })
        .collect()
}

/// Parses a hooks file and looks up the plugin files its commands name.
pub fn parse_hooks(source: &SourceFile, lint_root: Option<&Path>) -> HooksDoc {
    let parsed = parse_json_document(&source.text);
    let hooks = parsed.as_ref().ok().and_then(|doc| {
        let node = doc.root.get("hooks").filter(|h| h.is_object())?;
        let bases = RefBases::for_file(lint_root, &source.abs_path);
        let mut view = hooks_view(node, "/hooks", &source.text, bases.as_ref());
        // Cursor's files say `"version": 1` and sit in `.cursor/` or a Cursor plugin.
        let in_cursor = crate::source::split_path(&source.rel_path)
            .0
            .split('/')
            .any(|f| f == ".cursor");
        view.flat |= doc.root.get("version").is_some()
            || in_cursor
            || bases.as_ref().is_some_and(|b| b.host == Host::Cursor);
        Some(view)
    });
    HooksDoc { parsed, hooks }
}

/// Whether the text of a `hooks.json` found outside `hooks/` and `.cursor/` is a hook
/// configuration (a root `hooks` key): another program's `hooks.json` is not read.
pub fn looks_like_hooks(text: &str) -> bool {
    text.contains("\"hooks\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::host::plugin_path;

    #[test]
    fn command_words_carry_file_spans_through_escapes() {
        let text = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/a.sh\" | sh"}]}]}}"#;
        let doc = parse_json_document(text).expect("valid");
        let hooks = doc.root.get("hooks").expect("hooks");
        let view = hooks_view(hooks, "/hooks", text, None);
        assert_eq!(view.commands.len(), 1);
        let tokens = &view.commands[0].tokens;
        let span = tokens[1].span();
        assert_eq!(
            &text[span.start..span.end],
            r#"\"${CLAUDE_PLUGIN_ROOT}/a.sh\""#
        );
        assert_eq!(tokens[1].word(), Some("${CLAUDE_PLUGIN_ROOT}/a.sh"));
        let last = tokens.last().expect("tokens").span();
        assert_eq!(&text[last.start..last.end], "sh");
    }

    #[test]
    fn plugin_paths_are_placeholders_or_dotted_files() {
        assert_eq!(
            plugin_path("${CLAUDE_PLUGIN_ROOT}/hooks/a.py", Host::ClaudeCode),
            Some((true, "hooks/a.py"))
        );
        assert_eq!(
            plugin_path("./hooks/stop.sh", Host::Cursor),
            Some((false, "hooks/stop.sh"))
        );
        assert_eq!(plugin_path("./dist", Host::Cursor), None);
        assert_eq!(
            plugin_path("${CLAUDE_PLUGIN_ROOT}/${X}.sh", Host::ClaudeCode),
            None
        );
        assert_eq!(plugin_path("${CLAUDE_PLUGIN_ROOT}", Host::ClaudeCode), None);
        assert_eq!(plugin_path("$HOME/x.sh", Host::ClaudeCode), None);
    }
}
