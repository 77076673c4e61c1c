//! [`UnitView`]: one folder's files and parses as the rules read them.

use super::{Parsed, Repo, Settings, UnitFiles};
use crate::catalog::RuleCode;
use crate::model::agent::AgentDoc;
use crate::model::document::MarkdownDoc;
use crate::model::hooks::{Hooks, HooksDoc};
use crate::model::mcp_config::{McpConfigDoc, McpServers};
use crate::model::plugin::ManifestDoc;
use crate::model::requirement::RequirementDoc;
use crate::model::skill::SkillDoc;
use crate::model::tools::{Tool, ToolsDoc};
use crate::source::FileId;

/// One folder's files and their parses, with typed accessors. What is derived from them and
/// shared by several rules is in `semantic::UnitFacts`; `check::Unit` puts the two together.
#[derive(Clone, Copy)]
pub struct UnitView<'a> {
    pub repo: &'a Repo,
    pub files: &'a UnitFiles,
    /// The parses of the folder's own files (those [`Parsed::Pending`] in the repository).
    pub local: &'a [(FileId, Parsed)],
}

impl<'a> UnitView<'a> {
    /// A file's parse: the unit's own for its files, the repository's for the others.
    pub fn parsed(&self, id: FileId) -> &'a Parsed {
        match self.local.iter().find(|(file, _)| *file == id) {
            Some((_, parsed)) => parsed,
            None => self.repo.parsed(id),
        }
    }

    pub fn dir(&self) -> &'a str {
        &self.files.dir
    }

    pub fn settings(&self) -> &'a Settings {
        &self.repo.settings
    }

    /// See [`Repo::reports`].
    pub fn reports(&self, code: RuleCode, file: FileId) -> bool {
        self.repo.reports(code, file)
    }

    pub fn text(&self, id: FileId) -> &'a str {
        self.repo.text(id)
    }

    pub fn skill(&self) -> Option<(FileId, &'a SkillDoc)> {
        let id = self.files.skill?;
        match self.parsed(id) {
            Parsed::Skill(doc) => Some((id, doc)),
            _ => None,
        }
    }

    pub fn tools_docs(&self) -> impl Iterator<Item = (FileId, &'a ToolsDoc)> + 'a {
        let unit = *self;
        self.files
            .tools
            .iter()
            .filter_map(move |id| match unit.parsed(*id) {
                Parsed::Tools(doc) => Some((*id, &**doc)),
                _ => None,
            })
    }

    /// True when the folder has a tools file, even one that failed to parse; a file that is no
    /// tool list in any dialect (TJ014) does not count.
    pub fn has_tools_file(&self) -> bool {
        self.files.tools.iter().any(|id| match self.parsed(*id) {
            Parsed::Tools(doc) => doc.not_a_tool_list.is_none(),
            _ => true,
        })
    }

    /// Every tool of every tools file in the folder.
    pub fn tools(&self) -> impl Iterator<Item = (FileId, &'a Tool)> + 'a {
        self.tools_docs()
            .flat_map(|(id, doc)| doc.tools.iter().map(move |t| (id, t)))
    }

    pub fn find_tool(&self, name: &str) -> Option<(FileId, &'a Tool)> {
        self.tools().find(|(_, t)| t.name() == Some(name))
    }

    /// The folder's `TOOL.md`.
    pub fn contract(&self) -> Option<(FileId, &'a MarkdownDoc)> {
        let id = self.files.contract?;
        match self.parsed(id) {
            Parsed::Contract(doc) => Some((id, doc)),
            _ => None,
        }
    }

    /// The folder's `DRIVER.md` / `CLI.md` files.
    pub fn drivers(&self) -> impl Iterator<Item = (FileId, &'a MarkdownDoc)> + 'a {
        let unit = *self;
        self.files
            .drivers
            .iter()
            .filter_map(move |id| match unit.parsed(*id) {
                Parsed::Driver { doc, .. } => Some((*id, &**doc)),
                _ => None,
            })
    }

    /// The folder's `SECRETS.md`.
    pub fn secrets(&self) -> Option<(FileId, &'a MarkdownDoc)> {
        let id = self.files.secrets?;
        match self.parsed(id) {
            Parsed::Secrets(doc) => Some((id, doc)),
            _ => None,
        }
    }

    pub fn requirement(&self) -> Option<(FileId, &'a RequirementDoc)> {
        let id = self.files.requirement?;
        match self.parsed(id) {
            Parsed::Requirement(doc) => Some((id, doc)),
            _ => None,
        }
    }

    /// The folder's plugin manifests and marketplaces.
    pub fn manifests(&self) -> impl Iterator<Item = (FileId, &'a ManifestDoc)> + 'a {
        let unit = *self;
        self.files
            .surface
            .iter()
            .filter_map(move |id| match unit.parsed(*id) {
                Parsed::Manifest(doc) => Some((*id, &**doc)),
                _ => None,
            })
    }

    /// The folder's hook configuration files.
    pub fn hooks_files(&self) -> impl Iterator<Item = (FileId, &'a HooksDoc)> + 'a {
        let unit = *self;
        self.files
            .surface
            .iter()
            .filter_map(move |id| match unit.parsed(*id) {
                Parsed::Hooks(doc) => Some((*id, &**doc)),
                _ => None,
            })
    }

    /// Every set of hooks of the folder: each hooks file's and each manifest's inline `hooks`,
    /// with the JSON root they are in.
    pub fn hook_sets(&self) -> Vec<(FileId, &'a crate::parse::Node, &'a Hooks)> {
        let mut sets = Vec::new();
        for (id, doc) in self.hooks_files() {
            if let (Ok(json), Some(hooks)) = (&doc.parsed, &doc.hooks) {
                sets.push((id, &json.root, hooks));
            }
        }
        for (id, doc) in self.manifests() {
            if let (Ok(json), Some(hooks)) = (&doc.parsed, &doc.inline_hooks) {
                sets.push((id, &json.root, hooks));
            }
        }
        sets.sort_by_key(|(id, _, _)| *id);
        sets
    }

    /// The folder's MCP configuration files.
    pub fn mcp_configs(&self) -> impl Iterator<Item = (FileId, &'a McpConfigDoc)> + 'a {
        let unit = *self;
        self.files
            .surface
            .iter()
            .filter_map(move |id| match unit.parsed(*id) {
                Parsed::McpConfig(doc) => Some((*id, &**doc)),
                _ => None,
            })
    }

    /// Every set of MCP servers of the folder: each configuration file's and each manifest's
    /// inline `mcpServers`, with the JSON root they are in.
    pub fn server_sets(&self) -> Vec<(FileId, &'a crate::parse::Node, &'a McpServers)> {
        let mut sets = Vec::new();
        for (id, doc) in self.mcp_configs() {
            if let (Ok(json), Some(servers)) = (&doc.parsed, &doc.servers) {
                sets.push((id, &json.root, servers));
            }
        }
        for (id, doc) in self.manifests() {
            if let (Ok(json), Some(servers)) = (&doc.parsed, &doc.inline_mcp) {
                sets.push((id, &json.root, servers));
            }
        }
        sets.sort_by_key(|(id, _, _)| *id);
        sets
    }

    /// The folder's `AGENTS.md` and `CLAUDE.md`.
    pub fn instruction_docs(
        &self,
    ) -> impl Iterator<Item = (FileId, &'a crate::model::instructions::InstructionsDoc)> + 'a {
        let unit = *self;
        self.files
            .surface
            .iter()
            .filter_map(move |id| match unit.parsed(*id) {
                Parsed::Instructions(doc) => Some((*id, &**doc)),
                _ => None,
            })
    }

    /// The folder's slash commands and subagents: Markdown whose body the model reads.
    pub fn agent_docs(&self) -> impl Iterator<Item = (FileId, &'a AgentDoc)> + 'a {
        let unit = *self;
        self.files
            .surface
            .iter()
            .filter_map(move |id| match unit.parsed(*id) {
                Parsed::Agent(doc) => Some((*id, &**doc)),
                _ => None,
            })
    }

    /// The folder's agent-read Markdown without a schema of its own: `AGENTS.md` and
    /// `CLAUDE.md` (instruction files, which AG005 also reads for links), `CLAUDE.local.md` and
    /// a skill's `references/*.md`.
    pub fn prose_files(&self) -> impl Iterator<Item = FileId> + 'a {
        let unit = *self;
        self.instruction_docs().map(|(id, _)| id).chain(
            self.files
                .prose
                .iter()
                .copied()
                .filter(move |id| matches!(unit.parsed(*id), Parsed::Prose(_))),
        )
    }
}
