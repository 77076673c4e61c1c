//! Typed, span-keeping models of every file kind skilllint reads, and [`parse_file`], which
//! builds the one a file's kind calls for. Models know no index: nothing here imports `index` or
//! anything above it.

pub mod agent;
pub mod bundle;
pub mod contract;
pub mod document;
pub mod driver;
pub mod hooks;
pub mod host;
pub mod instructions;
pub mod mcp_config;
pub mod plugin;
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
    /// `SKILL.md`; `misnamed` for another spelling of it (`skill.md`, `Skill.md`, `SKILL.MD`), which
    /// an agent on a case-insensitive file system reads as its skill file and SK012 reports.
    Skill { misnamed: bool },
    /// A tool list: `tools.json` or `*.tools.json` (`by_content: false`: always read), or a file
    /// read for its content (`by_content: true`: a tool snapshot, `functions.json`, a `[tools]
    /// include` glob, a JSON file named on the command line), read only when it holds tools.
    Tools { by_content: bool },
    /// A JSON file whose name says too little to read it even for its content (`manifest.json`
    /// is also a browser extension's): read as a tool list only when its content has the shape
    /// `telltale` names ([`tools::reads_as_shaped`]); once read it is a `Tools { by_content: true }`.
    ToolsByShape(tools::Telltale),
    /// `requirement.yaml` / `requirement.yml` (names configurable).
    Requirement,
    /// An agentproto AIP-14 `TOOL.md` contract under `.tools/`.
    Contract,
    /// An AIP-30 `DRIVER.md` (under `.drivers/` or beside a `TOOL.md`) or `CLI.md` (under `.cli/`).
    Driver { cli: bool },
    /// An AIP-19 `SECRETS.md`.
    Secrets,
    /// A plugin manifest: `.claude-plugin/plugin.json`, `.codex-plugin/plugin.json`,
    /// `.cursor-plugin/plugin.json`.
    PluginManifest { host: plugin::Host },
    /// A marketplace: `.claude-plugin/marketplace.json`, `.agents/plugins/marketplace.json`
    /// (Codex), `.cursor-plugin/marketplace.json`.
    Marketplace { host: plugin::Host },
    /// A hook configuration: `hooks.json`.
    Hooks,
    /// An MCP server configuration: `.mcp.json`, `mcp.json`.
    McpConfig,
    /// A slash command: a Markdown file under `commands/`.
    Command,
    /// A subagent: a Markdown file under `agents/`.
    Agent,
    /// `AGENTS.md` or `CLAUDE.md`: instructions an agent reads for its folder.
    Instructions,
    /// Markdown an agent reads as instructions that has no schema of its own: a project's
    /// `AGENTS.md` / `CLAUDE.md`, and a skill's reference files (`.md` under a `references/`
    /// folder, the Agent Skills layout for what a skill links to). Only the text rules read it.
    Prose,
    /// `skilllint.lock`: the committed pin of the tool surface (`skilllint lock`). No rule of a
    /// unit reads it; the lock compares it with the tools the run read (`crate::lock`).
    Lock,
    /// A source file (TypeScript, JavaScript, Python) read for the MCP tools it registers; once
    /// read it is a tool list of [`tools::Dialect::Source`] tools.
    Source(crate::parse::code::Lang),
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
            FileKind::Contract
                | FileKind::Driver { .. }
                | FileKind::Secrets
                | FileKind::PluginManifest { .. }
                | FileKind::Marketplace { .. }
        )
    }

    /// Whether the kind belongs to the plugin surface (manifests, marketplaces, hooks, MCP
    /// configs, commands, agents).
    pub fn is_plugin_surface(self) -> bool {
        matches!(
            self,
            FileKind::PluginManifest { .. }
                | FileKind::Marketplace { .. }
                | FileKind::Hooks
                | FileKind::McpConfig
                | FileKind::Command
                | FileKind::Agent
        )
    }
}

#[derive(Debug, Clone)]
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
    /// A plugin manifest or a marketplace.
    Manifest(Box<plugin::ManifestDoc>),
    Hooks(Box<hooks::HooksDoc>),
    McpConfig(Box<mcp_config::McpConfigDoc>),
    /// A slash command or a subagent.
    Agent(Box<agent::AgentDoc>),
    /// `AGENTS.md` or `CLAUDE.md`.
    Instructions(Box<instructions::InstructionsDoc>),
    /// Agent-read Markdown without a schema ([`FileKind::Prose`]): its Markdown structure only.
    Prose(Box<MarkdownDoc>),
    /// `skilllint.lock`, kept as text: the lock reads it once the run's tools are known.
    Lock,
    /// Could not be read; SL001 was reported.
    Unreadable(FileKind),
    /// Read, and parsed only while its unit is checked (see [`FileKind::parsed_up_front`]).
    Pending(FileKind),
}

impl Parsed {
    pub fn kind(&self) -> FileKind {
        match self {
            Parsed::Skill(doc) => FileKind::Skill {
                misnamed: doc.misnamed_file,
            },
            Parsed::Tools(doc) => match doc.code {
                Some(lang) => FileKind::Source(lang),
                None => FileKind::Tools {
                    by_content: doc.by_content,
                },
            },
            Parsed::Requirement(_) => FileKind::Requirement,
            Parsed::Contract(_) => FileKind::Contract,
            Parsed::Driver { cli, .. } => FileKind::Driver { cli: *cli },
            Parsed::Secrets(_) => FileKind::Secrets,
            Parsed::Manifest(doc) if doc.marketplace => FileKind::Marketplace { host: doc.host },
            Parsed::Manifest(doc) => FileKind::PluginManifest { host: doc.host },
            Parsed::Hooks(_) => FileKind::Hooks,
            Parsed::McpConfig(_) => FileKind::McpConfig,
            Parsed::Agent(doc) if doc.command => FileKind::Command,
            Parsed::Agent(_) => FileKind::Agent,
            Parsed::Instructions(_) => FileKind::Instructions,
            Parsed::Prose(_) => FileKind::Prose,
            Parsed::Lock => FileKind::Lock,
            Parsed::Unreadable(kind) | Parsed::Pending(kind) => *kind,
        }
    }

    /// The Markdown document of a file read as one (a SKILL.md, TOOL.md, SECRETS.md, DRIVER.md,
    /// instructions, an agent or command, prose): where inline suppression comments go in its
    /// frontmatter and body.
    pub fn markdown_doc(&self) -> Option<&document::MarkdownDoc> {
        match self {
            Parsed::Skill(skill) => Some(&skill.doc),
            Parsed::Contract(doc)
            | Parsed::Secrets(doc)
            | Parsed::Driver { doc, .. }
            | Parsed::Prose(doc) => Some(&**doc),
            Parsed::Instructions(instructions) => Some(&instructions.doc),
            Parsed::Agent(agent) => Some(&agent.doc),
            _ => None,
        }
    }
}

/// Parses the kinds other folders refer to; leaves the rest [`Parsed::Pending`] for their unit.
pub(crate) fn parse_up_front(
    kind: FileKind,
    source: &SourceFile,
    reference_root: Option<&Path>,
) -> Parsed {
    if kind.parsed_up_front() {
        parse_file(kind, source, reference_root)
    } else {
        Parsed::Pending(kind)
    }
}

/// Parses one file's text according to its kind. `reference_root`: the canonical lint root, inside
/// which a skill's links are looked up (`None`: they are not).
pub fn parse_file(kind: FileKind, source: &SourceFile, reference_root: Option<&Path>) -> Parsed {
    parse_file_in(
        kind,
        source,
        reference_root,
        &crate::parse::code::Context::default(),
    )
}

/// [`parse_file`] with what the project's other source files tell (the tool wrappers they
/// declare), for a source file.
pub fn parse_file_in(
    kind: FileKind,
    source: &SourceFile,
    reference_root: Option<&Path>,
    code: &crate::parse::code::Context,
) -> Parsed {
    match kind {
        FileKind::Skill { misnamed } => {
            let doc = parse_markdown_doc(&source.text);
            let dir = crate::source::folder_of(&source.abs_path);
            Parsed::Skill(Box::new(SkillDoc {
                broken_references: find_broken_references(&doc.body, dir, reference_root),
                folder_name: folder_name(dir),
                doc,
                misnamed_file: misnamed,
            }))
        }
        FileKind::Tools { by_content: false } => Parsed::Tools(Box::new(parse_tools(&source.text))),
        FileKind::Tools { by_content: true } | FileKind::ToolsByShape(_) => {
            Parsed::Tools(Box::new(tools::parse_tools_by_content(&source.text)))
        }
        FileKind::Requirement => Parsed::Requirement(Box::new(parse_requirement(&source.text))),
        FileKind::Contract => Parsed::Contract(Box::new(parse_markdown_doc(&source.text))),
        FileKind::Driver { cli } => Parsed::Driver {
            doc: Box::new(parse_markdown_doc(&source.text)),
            cli,
        },
        FileKind::Secrets => Parsed::Secrets(Box::new(parse_markdown_doc(&source.text))),
        FileKind::PluginManifest { host } => Parsed::Manifest(Box::new(plugin::parse_manifest(
            host,
            false,
            source,
            reference_root,
        ))),
        FileKind::Marketplace { host } => Parsed::Manifest(Box::new(plugin::parse_manifest(
            host,
            true,
            source,
            reference_root,
        ))),
        FileKind::Hooks => Parsed::Hooks(Box::new(hooks::parse_hooks(source, reference_root))),
        FileKind::McpConfig => Parsed::McpConfig(Box::new(mcp_config::parse_mcp_config(
            source,
            reference_root,
        ))),
        FileKind::Command => Parsed::Agent(Box::new(agent::parse_agent_file(
            source,
            true,
            reference_root,
        ))),
        FileKind::Agent => Parsed::Agent(Box::new(agent::parse_agent_file(
            source,
            false,
            reference_root,
        ))),
        FileKind::Instructions => Parsed::Instructions(Box::new(instructions::parse_instructions(
            source,
            reference_root,
        ))),
        FileKind::Prose => Parsed::Prose(Box::new(parse_markdown_doc(&source.text))),
        FileKind::Lock => Parsed::Lock,
        FileKind::Source(lang) => Parsed::Tools(Box::new(tools::parse_source(
            lang,
            &source.text,
            code,
            &source.rel_path,
        ))),
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
    // Escaped as paths are (`\xff` for a byte that is not UTF-8), never lossily: messages quote
    // this name, and two folders must not print the same.
    let shown = |name: &std::ffi::OsStr| crate::escape::display_path(Path::new(name)).into_owned();
    match named {
        Some(name) => shown(name),
        None => dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(shown))
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
