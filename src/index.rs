//! The immutable repository index: every parsed file, grouped into units (one per folder), built
//! once before any rule runs. Rules read only this.

use crate::model::requirement::RequirementDoc;
use crate::model::skill::SkillDoc;
use crate::model::tools::{Tool, ToolsDoc};
use crate::model::FileKind;
use crate::source::{FileId, SourceFile};

#[derive(Debug)]
pub enum Parsed {
    Skill(SkillDoc),
    Tools(ToolsDoc),
    Requirement(RequirementDoc),
    /// Could not be read; SL001 was reported.
    Unreadable(FileKind),
}

impl Parsed {
    pub fn kind(&self) -> FileKind {
        match self {
            Parsed::Skill(doc) => FileKind::Skill {
                lowercase: doc.lowercase_file_name,
            },
            Parsed::Tools(_) => FileKind::Tools,
            Parsed::Requirement(_) => FileKind::Requirement,
            Parsed::Unreadable(kind) => *kind,
        }
    }
}

/// Settings that change what rules consider correct (from the config file, §6).
#[derive(Debug, Clone)]
pub struct Settings {
    pub tool_use_rules_heading: String,
    /// Extra frontmatter keys accepted in SKILL.md.
    pub skill_extra_fields: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            tool_use_rules_heading: "Tool Use Rules".to_string(),
            skill_extra_fields: Vec::new(),
        }
    }
}

/// The files of one folder that are read together.
#[derive(Debug, Clone, Default)]
pub struct UnitFiles {
    /// Folder relative to the lint root (`""` for the root itself).
    pub dir: String,
    pub skill: Option<FileId>,
    /// `tools.json` first, then `*.tools.json`, by path.
    pub tools: Vec<FileId>,
    pub requirement: Option<FileId>,
}

impl UnitFiles {
    /// The file an internal error about this unit is reported on.
    pub fn primary_file(&self) -> Option<FileId> {
        self.skill
            .or_else(|| self.tools.first().copied())
            .or(self.requirement)
    }
}

#[derive(Debug)]
pub struct Repo {
    /// Sorted by relative path; `FileId(i)` is `files[i]`.
    pub files: Vec<SourceFile>,
    pub parsed: Vec<Parsed>,
    /// Sorted by folder.
    pub units: Vec<UnitFiles>,
    pub settings: Settings,
}

impl Repo {
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn text(&self, id: FileId) -> &str {
        &self.file(id).text
    }

    pub fn parsed(&self, id: FileId) -> &Parsed {
        &self.parsed[id.0 as usize]
    }

    pub fn skill(&self, id: FileId) -> Option<&SkillDoc> {
        match self.parsed(id) {
            Parsed::Skill(doc) => Some(doc),
            _ => None,
        }
    }

    pub fn skills(&self) -> impl Iterator<Item = (FileId, &SkillDoc)> {
        self.units
            .iter()
            .filter_map(|u| u.skill)
            .filter_map(|id| self.skill(id).map(|doc| (id, doc)))
    }

    pub fn skill_count(&self) -> usize {
        self.units.iter().filter(|u| u.skill.is_some()).count()
    }

    pub fn units(&self) -> impl Iterator<Item = Unit<'_>> {
        self.units.iter().map(|files| Unit { repo: self, files })
    }
}

/// One folder's files, as rules see them.
#[derive(Clone, Copy)]
pub struct Unit<'a> {
    pub repo: &'a Repo,
    pub files: &'a UnitFiles,
}

impl<'a> Unit<'a> {
    pub fn dir(&self) -> &'a str {
        &self.files.dir
    }

    pub fn settings(&self) -> &'a Settings {
        &self.repo.settings
    }

    pub fn text(&self, id: FileId) -> &'a str {
        self.repo.text(id)
    }

    pub fn skill(&self) -> Option<(FileId, &'a SkillDoc)> {
        let id = self.files.skill?;
        self.repo.skill(id).map(|doc| (id, doc))
    }

    pub fn tools_docs(&self) -> impl Iterator<Item = (FileId, &'a ToolsDoc)> + 'a {
        let repo = self.repo;
        self.files
            .tools
            .iter()
            .filter_map(move |id| match repo.parsed(*id) {
                Parsed::Tools(doc) => Some((*id, doc)),
                _ => None,
            })
    }

    /// True when the folder has a tools file, even one that failed to parse.
    pub fn has_tools_file(&self) -> bool {
        !self.files.tools.is_empty()
    }

    /// Every tool of every tools file in the folder.
    pub fn tools(&self) -> impl Iterator<Item = (FileId, &'a Tool)> + 'a {
        self.tools_docs()
            .flat_map(|(id, doc)| doc.tools.iter().map(move |t| (id, t)))
    }

    pub fn find_tool(&self, name: &str) -> Option<(FileId, &'a Tool)> {
        self.tools().find(|(_, t)| t.name() == Some(name))
    }

    pub fn requirement(&self) -> Option<(FileId, &'a RequirementDoc)> {
        let id = self.files.requirement?;
        match self.repo.parsed(id) {
            Parsed::Requirement(doc) => Some((id, doc)),
            _ => None,
        }
    }
}
