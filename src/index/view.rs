//! [`UnitView`]: one folder's files and parses as the rules read them.

use super::{Parsed, Repo, Settings, UnitFiles};
use crate::model::document::MarkdownDoc;
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
    pub fn reports(&self, code: &str, file: FileId) -> bool {
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
}
