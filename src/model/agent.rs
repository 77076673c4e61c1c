//! Slash commands (`commands/*.md`) and subagents (`agents/*.md`) of Claude Code, Cursor and
//! Codex plugins: Markdown with optional YAML frontmatter (`description`, `allowed-tools`,
//! `argument-hint`, `model` for a command; `name`, `description`, `tools`, `model` for an agent).
//! The body is text the model reads, as a skill's is.

use crate::model::document::{parse_markdown_doc, MarkdownDoc};
use crate::parse::Node;
use crate::source::Span;

/// A command or an agent file.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentDoc {
    pub doc: MarkdownDoc,
    /// A slash command (`commands/`) rather than a subagent (`agents/`).
    pub command: bool,
}

impl AgentDoc {
    /// `command` or `agent`, for messages.
    pub fn what(&self) -> &'static str {
        if self.command {
            "command"
        } else {
            "agent"
        }
    }

    /// A frontmatter key's value.
    pub fn field(&self, key: &str) -> Option<&Node> {
        self.doc.frontmatter()?.root.get(key)
    }

    /// The body: text the model reads when the command or agent runs.
    pub fn body_span(&self) -> Span {
        self.doc.body_span
    }
}

pub fn parse_agent_doc(text: &str, command: bool) -> AgentDoc {
    AgentDoc {
        doc: parse_markdown_doc(text),
        command,
    }
}
