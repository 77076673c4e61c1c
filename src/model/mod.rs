//! Typed, span-keeping models of every file kind skilllint reads.

pub mod requirement;
pub mod skill;
pub mod tools;

use crate::parse::yaml::YamlError;
use crate::parse::Node;
use crate::source::Span;

/// What a discovered file is, decided from its name and place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileKind {
    /// `SKILL.md`; `lowercase` for the tolerated `skill.md` spelling.
    Skill { lowercase: bool },
    /// `tools.json` or `*.tools.json`.
    Tools,
    /// `requirement.yaml` / `requirement.yml` (names configurable).
    Requirement,
    /// An agentproto AIP-14 `TOOL.md` contract under `.tools/`.
    Contract,
    /// An AIP-30 `DRIVER.md` (under `.drivers/` or beside a `TOOL.md`) or `CLI.md` (under `.cli/`).
    Driver { cli: bool },
    /// An AIP-19 `SECRETS.md`.
    Secrets,
    /// A path the walker would not or could not follow (a symlink loop); only ever unreadable.
    Unfollowed,
}

impl FileKind {
    /// Whether files of this kind are parsed before any rule runs: the agentproto files that
    /// rules of other folders resolve references to. The others (skills, tools files,
    /// requirements) are only ever read by their own folder's rules.
    pub fn parsed_up_front(self) -> bool {
        matches!(
            self,
            FileKind::Contract | FileKind::Driver { .. } | FileKind::Secrets
        )
    }
}

/// Finds a string member and returns it with the span of its value.
pub fn string_member<'a>(node: &'a Node, key: &str) -> Option<(&'a str, Span)> {
    let value = node.get(key)?;
    value.as_str().map(|s| (s, value.span))
}

/// A YAML parse failure as rules need it: a message and where the parser stopped.
pub fn yaml_error_message(error: &YamlError) -> String {
    format!("frontmatter is not valid YAML: {}", error.message)
}
