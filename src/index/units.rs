//! A repository's units: the files of one folder that are read and checked together, grouped
//! once from the sorted file list.

use crate::model::{FileKind, Parsed};
use crate::source::{FileId, SourceFile};

/// The files of one folder that are read together.
#[derive(Debug, Clone, Default)]
pub struct UnitFiles {
    /// Folder relative to the lint root (`""` for the root itself).
    pub dir: String,
    pub skill: Option<FileId>,
    /// `tools.json` first, then `*.tools.json`, by path.
    pub tools: Vec<FileId>,
    pub requirement: Option<FileId>,
    /// `TOOL.md`.
    pub contract: Option<FileId>,
    /// `DRIVER.md` and `CLI.md`.
    pub drivers: Vec<FileId>,
    pub secrets: Option<FileId>,
    /// Plugin manifests, marketplaces, hook and MCP configurations, commands and agents, and
    /// `AGENTS.md`/`CLAUDE.md`, by path.
    pub surface: Vec<FileId>,
    /// Agent-read Markdown without a schema (`AGENTS.md`, `CLAUDE.md`, `references/*.md`), by path.
    pub prose: Vec<FileId>,
    /// The folder's other files: a second spelling (`skill.md` or `SKILL.MD` beside `SKILL.md`, both requirement
    /// names) and paths that could not be followed. No rule reads them; suppressions still do.
    pub others: Vec<FileId>,
}

impl UnitFiles {
    /// The file an internal error about this unit is reported on.
    pub fn primary_file(&self) -> Option<FileId> {
        self.skill
            .or_else(|| self.tools.first().copied())
            .or(self.requirement)
            .or(self.contract)
            .or_else(|| self.drivers.first().copied())
            .or(self.secrets)
            .or_else(|| self.surface.first().copied())
            .or_else(|| self.prose.first().copied())
    }

    /// Every file of the folder, in path order.
    pub fn all(&self) -> Vec<FileId> {
        let mut all: Vec<FileId> = self
            .skill
            .into_iter()
            .chain(self.tools.iter().copied())
            .chain(self.requirement)
            .chain(self.contract)
            .chain(self.drivers.iter().copied())
            .chain(self.secrets)
            .chain(self.surface.iter().copied())
            .chain(self.prose.iter().copied())
            .chain(self.others.iter().copied())
            .collect();
        all.sort();
        all
    }
}

/// Groups files (sorted by path) into one unit per folder, sorted by folder.
pub fn build_units(files: &[SourceFile], parsed: &[Parsed]) -> Vec<UnitFiles> {
    // Sized for the worst case (a folder per file): memory reserved but never written costs
    // nothing, while growing by doubling copies every unit and touches fresh pages each time.
    let mut units: Vec<UnitFiles> = Vec::with_capacity(files.len());
    // Files arrive sorted by path, and the paths under a folder sort into one run, where the
    // folder's own files mix only with its subfolders' files. So the folders enclosing the last
    // file (outermost first, each with its unit) are the only ones a later file can be in.
    let mut open: Vec<(&str, usize)> = Vec::new();
    let encloses = |outer: &str, dir: &str| {
        outer.is_empty()
            || dir
                .strip_prefix(outer)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    for (index, (file, model)) in files.iter().zip(parsed).enumerate() {
        let id = FileId(index as u32);
        let (dir, name) = crate::source::split_path(&file.rel_path);
        while open.last().is_some_and(|(outer, _)| !encloses(outer, dir)) {
            open.pop();
        }
        let slot = match open.last() {
            Some((outer, slot)) if *outer == dir => *slot,
            _ => {
                units.push(UnitFiles {
                    dir: dir.to_string(),
                    ..UnitFiles::default()
                });
                open.push((dir, units.len() - 1));
                units.len() - 1
            }
        };
        let unit = &mut units[slot];
        let role = match model.kind() {
            // `SKILL.md` takes the role from another spelling that sorts before it (`SKILL.MD`).
            FileKind::Skill { misnamed: false } => {
                if let Some(first) = unit.skill.replace(id) {
                    unit.others.push(first);
                }
                continue;
            }
            FileKind::Skill { misnamed: true } => &mut unit.skill,
            FileKind::Tools { .. } | FileKind::ToolsByShape(_) | FileKind::Source(_) => {
                if name == "tools.json" {
                    unit.tools.insert(0, id);
                } else {
                    unit.tools.push(id);
                }
                continue;
            }
            FileKind::Requirement => &mut unit.requirement,
            FileKind::Contract => &mut unit.contract,
            FileKind::Driver { .. } => {
                unit.drivers.push(id);
                continue;
            }
            FileKind::Secrets => &mut unit.secrets,
            FileKind::Unfollowed => {
                unit.others.push(id);
                continue;
            }
            // The lock is the run's, not a folder's: no unit rule reads it.
            FileKind::Lock => continue,
            FileKind::Prose => {
                unit.prose.push(id);
                continue;
            }
            FileKind::PluginManifest { .. }
            | FileKind::Marketplace { .. }
            | FileKind::Hooks
            | FileKind::McpConfig
            | FileKind::Command
            | FileKind::Agent
            | FileKind::Instructions => {
                unit.surface.push(id);
                continue;
            }
        };
        // The first file of a role takes it (`SKILL.md` before `skill.md`).
        if role.is_none() {
            *role = Some(id);
        } else {
            unit.others.push(id);
        }
    }
    units.sort_unstable_by(|a, b| a.dir.cmp(&b.dir));
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn units_gather_a_folders_files_between_its_subfolders_files() {
        // Sorted by path, as the engine hands them over: `a`'s files sit on both sides of
        // `a/b`'s, and `a.b` and `a-b` sort around `a/` as byte order has it.
        let mut paths = vec![
            "SKILL.md",
            "a-b/SKILL.md",
            "a.b/tools.json",
            "a/SKILL.md",
            "a/b/SKILL.md",
            "a/b/c/tools.json",
            "a/b/tools.json",
            "a/requirement.yaml",
            "a/tools.json",
            "a0/SKILL.md",
            "tools.json",
        ];
        paths.sort();
        let files: Vec<SourceFile> = paths
            .iter()
            .map(|p| SourceFile {
                rel_path: p.to_string(),
                abs_path: PathBuf::from(p),
                text: String::new(),
            })
            .collect();
        let parsed: Vec<Parsed> = paths
            .iter()
            .map(|p| {
                let kind = crate::discover::classify(p, &["requirement.yaml".to_string()]);
                Parsed::Pending(kind.expect("a known file name"))
            })
            .collect();
        let grouped: Vec<(String, Vec<&str>)> = build_units(&files, &parsed)
            .iter()
            .map(|unit| {
                let members = unit.all().iter().map(|id| paths[id.0 as usize]).collect();
                (unit.dir.clone(), members)
            })
            .collect();
        let expected: Vec<(String, Vec<&str>)> = vec![
            ("".into(), vec!["SKILL.md", "tools.json"]),
            (
                "a".into(),
                vec!["a/SKILL.md", "a/requirement.yaml", "a/tools.json"],
            ),
            ("a-b".into(), vec!["a-b/SKILL.md"]),
            ("a.b".into(), vec!["a.b/tools.json"]),
            ("a/b".into(), vec!["a/b/SKILL.md", "a/b/tools.json"]),
            ("a/b/c".into(), vec!["a/b/c/tools.json"]),
            ("a0".into(), vec!["a0/SKILL.md"]),
        ];
        assert_eq!(grouped, expected);
    }
}
