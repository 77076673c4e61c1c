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
    /// The plugin files it runs (through the plugin root placeholder, in its pre-approved tools
    /// or in the shell commands the host runs before the model reads it) that do not exist or
    /// leave the plugin; looked up on disk (none without a file system).
    pub broken_refs: Vec<crate::model::host::LocalRef>,
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
        broken_refs: Vec::new(),
    }
}

/// [`parse_agent_doc`] of a file on disk, with the plugin files it runs looked up inside
/// `lint_root`.
pub fn parse_agent_file(
    source: &crate::source::SourceFile,
    command: bool,
    lint_root: Option<&std::path::Path>,
) -> AgentDoc {
    let mut agent = parse_agent_doc(&source.text, command);
    if source.text.contains("PLUGIN_ROOT") {
        if let Some(bases) = crate::model::host::RefBases::for_file(lint_root, &source.abs_path) {
            let words = run_paths(&source.text, &agent);
            crate::model::host::local_refs_in_words(&words, Some(&bases), &mut agent.broken_refs);
        }
    }
    agent
}

/// The words naming a file through the plugin root placeholder in what the host runs: the
/// pre-approved tools of the frontmatter (`allowed-tools`, an agent's `tools`), the ```` ```! ````
/// blocks and the ``!`…` `` commands of the body, which run before the model reads the text.
/// Prose that only mentions such a path (a guide to writing plugins) is not read.
fn run_paths(text: &str, agent: &AgentDoc) -> Vec<(String, crate::source::Span)> {
    let mut regions: Vec<(usize, usize)> = Vec::new();
    for key in ["allowed-tools", "tools"] {
        if let Some(node) = agent.field(key) {
            regions.push((node.span.start, node.span.end));
        }
    }
    let body = agent.doc.body_span;
    let mut offset = body.start;
    let mut fence: Option<(&str, bool)> = None;
    for line in text
        .get(body.start..body.end)
        .unwrap_or("")
        .split_inclusive('\n')
    {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let fence_char = |m: &str| m.as_bytes()[0] as char;
        let marker = ["```", "~~~"]
            .into_iter()
            .find(|m| indent <= 3 && trimmed.starts_with(m));
        match (fence, marker) {
            (Some((open, _)), Some(m))
                if m == open
                    && trimmed
                        .trim_end()
                        .trim_start_matches(fence_char(m))
                        .is_empty() =>
            {
                fence = None;
            }
            (Some((_, true)), _) => regions.push((offset, offset + line.len())),
            (Some(_), _) => {}
            (None, Some(m)) => {
                let info = trimmed.trim_start_matches(fence_char(m)).trim();
                fence = Some((m, info == "!"));
            }
            (None, None) => {
                // `!`cmd`` runs the command and puts its output in the text.
                let mut from = 0;
                while let Some(at) = line[from..].find("!`") {
                    let start = from + at + 2;
                    let Some(len) = line[start..].find('`') else {
                        break;
                    };
                    regions.push((offset + start, offset + start + len));
                    from = start + len + 1;
                }
            }
        }
        offset += line.len();
    }
    let mut words = Vec::new();
    for (start, end) in regions {
        let Some(region) = text.get(start..end) else {
            continue;
        };
        for placeholder in ["${CLAUDE_PLUGIN_ROOT}", "$CLAUDE_PLUGIN_ROOT"] {
            let mut from = 0;
            while let Some(at) = region[from..].find(placeholder) {
                let begin = from + at;
                let after = begin + placeholder.len();
                let path_len = region[after..]
                    .find(|c: char| {
                        !(c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
                    })
                    .unwrap_or(region.len() - after);
                let mut word = &region[begin..after + path_len];
                // A sentence's full stop, or a folder's trailing `/`, is not part of the name.
                word = word.trim_end_matches(['.', '/']);
                if region[after..].starts_with('/') && word.len() > placeholder.len() {
                    let span = crate::source::Span::new(start + begin, start + begin + word.len());
                    words.push((word.to_string(), span));
                }
                from = after;
            }
        }
    }
    words.sort_by_key(|(_, span)| (span.start, span.end));
    words.dedup();
    words
}
