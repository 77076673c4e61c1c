//! Typed, span-keeping models of every file kind skilllint reads, and [`parse_file`], which
//! builds the one a file's kind calls for. Models know no index: nothing here imports `index` or
//! anything above it.

pub mod contract;
pub mod document;
pub mod driver;
pub mod requirement;
pub mod skill;
pub mod tools;

use crate::parse::yaml::YamlError;
use crate::parse::Node;
use crate::source::{SourceFile, Span};
use document::{parse_markdown_doc, MarkdownDoc};
use requirement::{parse_requirement, RequirementDoc};
use skill::{find_broken_references, SkillDoc};
use std::path::Path;
use tools::{parse_tools, ToolsDoc};

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

#[derive(Debug)]
/// The documents are boxed: the repository keeps one `Parsed` per file, most of them `Pending`,
/// and inline documents would make each of those hundreds of bytes.
pub enum Parsed {
    Skill(Box<SkillDoc>),
    Tools(Box<ToolsDoc>),
    Requirement(Box<RequirementDoc>),
    /// AIP-14 `TOOL.md`.
    Contract(Box<MarkdownDoc>),
    /// AIP-30 `DRIVER.md` or `CLI.md`.
    Driver {
        doc: Box<MarkdownDoc>,
        cli: bool,
    },
    /// AIP-19 `SECRETS.md`.
    Secrets(Box<MarkdownDoc>),
    /// Could not be read; SL001 was reported.
    Unreadable(FileKind),
    /// Read, and parsed only while its unit is checked (see [`FileKind::parsed_up_front`]).
    Pending(FileKind),
}

impl Parsed {
    pub fn kind(&self) -> FileKind {
        match self {
            Parsed::Skill(doc) => FileKind::Skill {
                lowercase: doc.lowercase_file_name,
            },
            Parsed::Tools(_) => FileKind::Tools,
            Parsed::Requirement(_) => FileKind::Requirement,
            Parsed::Contract(_) => FileKind::Contract,
            Parsed::Driver { cli, .. } => FileKind::Driver { cli: *cli },
            Parsed::Secrets(_) => FileKind::Secrets,
            Parsed::Unreadable(kind) | Parsed::Pending(kind) => *kind,
        }
    }
}

/// Parses the kinds other folders refer to; leaves the rest [`Parsed::Pending`] for their unit.
pub(crate) fn parse_up_front(kind: FileKind, source: &SourceFile) -> Parsed {
    if kind.parsed_up_front() {
        // No kind parsed up front checks links.
        parse_file(kind, source, None)
    } else {
        Parsed::Pending(kind)
    }
}

/// Parses one file's text according to its kind. `reference_root`: the canonical lint root, inside
/// which a skill's links are looked up (`None`: they are not).
pub fn parse_file(kind: FileKind, source: &SourceFile, reference_root: Option<&Path>) -> Parsed {
    match kind {
        FileKind::Skill { lowercase } => {
            let doc = parse_markdown_doc(&source.text);
            let dir = crate::source::folder_of(&source.abs_path);
            Parsed::Skill(Box::new(SkillDoc {
                broken_references: find_broken_references(&doc.body, dir, reference_root),
                folder_name: folder_name(dir),
                doc,
                lowercase_file_name: lowercase,
            }))
        }
        FileKind::Tools => Parsed::Tools(Box::new(parse_tools(&source.text))),
        FileKind::Requirement => Parsed::Requirement(Box::new(parse_requirement(&source.text))),
        FileKind::Contract => Parsed::Contract(Box::new(parse_markdown_doc(&source.text))),
        FileKind::Driver { cli } => Parsed::Driver {
            doc: Box::new(parse_markdown_doc(&source.text)),
            cli,
        },
        FileKind::Secrets => Parsed::Secrets(Box::new(parse_markdown_doc(&source.text))),
        FileKind::Unfollowed => Parsed::Unreadable(kind),
    }
}

/// The folder's own name, resolving `.` and `..` (a skill at the lint root is named after it).
fn folder_name(dir: &Path) -> String {
    let named = dir.file_name().filter(|_| {
        !matches!(
            dir.components().next_back(),
            Some(std::path::Component::ParentDir)
        )
    });
    match named {
        Some(name) => name.to_string_lossy().into_owned(),
        None => dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default(),
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
