//! The immutable repository index: every file, grouped into units (one per folder), built once
//! before any rule runs. It knows files, models and settings, nothing derived from them: it never
//! imports `semantic`, `check` or `rules`.
//!
//! Files other folders refer to (TOOL.md, DRIVER.md / CLI.md, SECRETS.md) are parsed up front and
//! stay parsed. A folder's own files (SKILL.md, tools files, requirement.yaml) are parsed while
//! their unit is checked and dropped after it: that keeps the run's peak memory near the size of
//! the texts instead of every parse tree at once.

mod units;
mod view;

// `Parsed` lives with the models; rules name it through the index, which holds one per file.
pub use crate::model::Parsed;
pub use units::{build_units, UnitFiles};
pub use view::UnitView;

use crate::catalog::RuleCode;
use crate::model::contract::Contract;
use crate::model::document::MarkdownDoc;
use crate::model::driver::Driver;
use crate::parse::Node;
use crate::source::Span;
use crate::source::{FileId, SourceFile};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Settings that change what rules consider correct (from the config file, §6).
#[derive(Debug, Clone)]
pub struct Settings {
    pub tool_use_rules_heading: String,
    /// Extra frontmatter keys accepted in SKILL.md.
    pub skill_extra_fields: Vec<String>,
    /// `[contracts.map]`: tools.json tool name → TOOL.md `id`, for links the naming convention
    /// (`create_event` ↔ `create-event`) does not make.
    pub contract_map: BTreeMap<String, String>,
    /// `[skills] extra-fields` of the configurations below the root, by folder (relative to the
    /// root), deepest first: the nearest one decides for the skills below it.
    pub scoped_extra_fields: Vec<(String, Vec<String>)>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            tool_use_rules_heading: "Tool Use Rules".to_string(),
            skill_extra_fields: Vec::new(),
            contract_map: BTreeMap::new(),
            scoped_extra_fields: Vec::new(),
        }
    }
}

impl Settings {
    /// The extra frontmatter keys accepted in the skill file at `path` (relative to the root):
    /// its nearest configuration's.
    pub fn extra_fields_for(&self, path: &str) -> &[String] {
        crate::source::nearest(&self.scoped_extra_fields, path)
            .map_or(&self.skill_extra_fields, Vec::as_slice)
    }
}

/// Cross-file lookups for the agentproto contracts (and the plugins files sit in), built once
/// after parsing.
#[derive(Debug, Default, Clone)]
pub struct ContractIndex {
    /// The plugin roots of the run: every plugin manifest's root and every local marketplace
    /// source, with the host they are for.
    pub plugins: PluginIndex,
    /// TOOL.md files by frontmatter `id`.
    pub tools_by_id: BTreeMap<String, Vec<FileId>>,
    /// The `id` a tools.json tool name links to by the naming convention ([`link_key`]): the
    /// first id in id order per key, so a clash resolves the same way every run.
    pub tools_by_link_key: BTreeMap<String, String>,
    /// DRIVER.md / CLI.md files by frontmatter `id`.
    pub drivers_by_id: BTreeMap<String, Vec<FileId>>,
    /// Every `secrets[].slug` of every SECRETS.md, with where it is declared.
    pub secret_slugs: BTreeMap<String, Vec<(FileId, Span)>>,
}

fn frontmatter_string(doc: &MarkdownDoc, key: &str) -> Option<String> {
    doc.frontmatter()?
        .root
        .get(key)?
        .as_str()
        .map(str::to_string)
}

impl ContractIndex {
    pub fn build(parsed: &[Parsed]) -> Self {
        let mut index = ContractIndex::default();
        for (i, model) in parsed.iter().enumerate() {
            let id = FileId(i as u32);
            match model {
                Parsed::Contract(doc) => {
                    if let Some(tool_id) = frontmatter_string(doc, "id") {
                        index.tools_by_id.entry(tool_id).or_default().push(id);
                    }
                }
                Parsed::Driver { doc, .. } => {
                    if let Some(driver_id) = frontmatter_string(doc, "id") {
                        index.drivers_by_id.entry(driver_id).or_default().push(id);
                    }
                }
                Parsed::Manifest(doc) => index.plugins.add(doc),
                Parsed::Secrets(doc) => {
                    let entries = doc
                        .frontmatter()
                        .and_then(|f| f.root.get("secrets"))
                        .and_then(Node::as_array)
                        .unwrap_or_default();
                    for entry in entries {
                        if let Some(slug) = entry.get("slug") {
                            if let Some(text) = slug.as_str() {
                                index
                                    .secret_slugs
                                    .entry(text.to_string())
                                    .or_default()
                                    .push((id, slug.span));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for id in index.tools_by_id.keys() {
            index
                .tools_by_link_key
                .entry(link_key(id).into_owned())
                .or_insert_with(|| id.clone());
        }
        index
    }
}

/// Where the plugins of the run are: folders relative to the lint root, by the host they are
/// written for. A folder is a plugin when a manifest sits in it or a marketplace names it.
#[derive(Debug, Default, Clone)]
pub struct PluginIndex {
    roots: BTreeMap<String, Hosts>,
}

/// The hosts a plugin folder is written for: a folder may carry a manifest for each.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Hosts(u8);

impl Hosts {
    fn with(self, host: crate::model::plugin::Host) -> Hosts {
        Hosts(self.0 | (1 << host as u8))
    }

    pub fn contains(self, host: crate::model::plugin::Host) -> bool {
        self.0 & (1 << host as u8) != 0
    }
}

impl PluginIndex {
    fn add(&mut self, doc: &crate::model::plugin::ManifestDoc) {
        let roots: Vec<&String> = if doc.marketplace {
            doc.sources.iter().map(|(_, root)| root).collect()
        } else {
            vec![&doc.root]
        };
        for root in roots {
            let hosts = self.roots.entry(root.clone()).or_default();
            *hosts = hosts.with(doc.host);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The innermost plugin enclosing the folder `dir` (itself included): its root and hosts.
    pub fn plugin_of<'a>(&'a self, dir: &'a str) -> Option<(&'a str, Hosts)> {
        if self.roots.is_empty() {
            return None;
        }
        let mut folder = dir;
        loop {
            if let Some((root, hosts)) = self.roots.get_key_value(folder) {
                return Some((root.as_str(), *hosts));
            }
            if folder.is_empty() {
                return None;
            }
            folder = crate::source::parent_dir(folder);
        }
    }
}

/// The naming convention that links a tools.json tool to a TOOL.md contract: `.` and `-` become
/// `_` (`create_event` ↔ `create-event`).
pub fn link_key(name: &str) -> std::borrow::Cow<'_, str> {
    if name.contains(['.', '-']) {
        std::borrow::Cow::Owned(name.replace(['.', '-'], "_"))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

#[derive(Debug, Clone)]
pub struct Repo {
    /// Sorted by relative path; `FileId(i)` is `files[i]`.
    pub files: Vec<SourceFile>,
    /// By file; a folder's own files stay [`Parsed::Pending`] here (their unit holds the parse).
    pub parsed: Vec<Parsed>,
    /// Sorted by folder.
    pub units: Vec<UnitFiles>,
    pub contracts: ContractIndex,
    pub settings: Settings,
    /// Which rules report in which files (selection and `per-file-ignores`).
    pub reporting: crate::selection::Reporting,
    /// The paths (relative, `""` for all) whose files' findings a run over part of a repository
    /// reports ([`crate::settings::widen_to_project`]); `None`: every file's.
    pub scope: Option<Vec<String>>,
    /// The canonical lint root: a skill's links are looked up on disk inside it, and nowhere
    /// else (`None`: a run without a file system, where they are not looked up).
    pub reference_root: Option<PathBuf>,
    /// Archives and native executables in skill folders that nothing in their skill names,
    /// sorted by skill folder (found on disk by the walk; none in a run without a file system).
    pub bundled: Vec<crate::model::bundle::BundledFile>,
    /// Broken links in the Markdown files skills link to, sorted by skill folder (none in a run
    /// without a file system).
    pub linked_breaks: Vec<crate::model::skill::LinkedBroken>,
    /// What source files tell the reader of others (the project's tool wrappers).
    pub code: crate::parse::code::Context,
}

impl Repo {
    /// Whether a finding of `code` with its primary location in `file` is reported: the rule
    /// is selected, not ignored, and not silenced in that file by `per-file-ignores`. A rule asks
    /// this before it leaves a finding to another rule, so that the finding is never lost.
    pub fn reports(&self, code: RuleCode, file: FileId) -> bool {
        self.reports_str(code.as_str(), file)
    }

    /// The path of `file` relative to the root (`""` for one the repository does not hold: the
    /// baseline file of the run).
    fn rel_path_of(&self, file: FileId) -> &str {
        self.files
            .get(file.0 as usize)
            .map_or("", |f| f.rel_path.as_str())
    }

    /// [`Repo::reports`] for a code held as text: a finding's, or a policy rule's.
    pub fn reports_str(&self, code: &str, file: FileId) -> bool {
        let path = self.rel_path_of(file);
        self.reporting.reports(code, path)
    }

    /// Whether the configuration governing `file` enables `code` (`per-file-ignores` aside).
    pub fn enables_in(&self, code: &str, file: FileId) -> bool {
        let path = self.rel_path_of(file);
        self.reporting.enables(code, path)
    }

    /// The severity the configuration governing `file` sets for `code`, if it sets one.
    pub fn severity_in(&self, code: &str, file: FileId) -> Option<crate::diagnostic::Severity> {
        let path = self.rel_path_of(file);
        self.reporting.severity(code, path)
    }

    /// The files alone, as renderers read them.
    pub fn sources(&self) -> crate::source::Sources<'_> {
        crate::source::Sources::new(&self.files)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// The last segment of a file's path (`SKILL.md`, `calendar.tools.json`), for messages.
    pub fn file_name(&self, id: FileId) -> &str {
        crate::source::split_path(&self.file(id).rel_path).1
    }

    pub fn text(&self, id: FileId) -> &str {
        &self.file(id).text
    }

    pub fn parsed(&self, id: FileId) -> &Parsed {
        &self.parsed[id.0 as usize]
    }

    /// The file at `rel_path` (relative to the lint root, `/`-separated), if it is in the run.
    pub fn file_by_path(&self, rel_path: &str) -> Option<FileId> {
        self.files
            .binary_search_by(|f| f.rel_path.as_str().cmp(rel_path))
            .ok()
            .map(|i| FileId(i as u32))
    }

    /// A TOOL.md's parsed document.
    pub fn contract(&self, id: FileId) -> Option<&MarkdownDoc> {
        match self.parsed(id) {
            Parsed::Contract(doc) => Some(doc),
            _ => None,
        }
    }

    /// A DRIVER.md's or CLI.md's parsed document.
    pub fn driver(&self, id: FileId) -> Option<&MarkdownDoc> {
        match self.parsed(id) {
            Parsed::Driver { doc, .. } => Some(doc),
            _ => None,
        }
    }

    /// The typed view of a TOOL.md (its frontmatter is `None` when it could not be read, or when
    /// `id` is no TOOL.md).
    pub fn contract_view(&self, id: FileId) -> Contract<'_> {
        Contract::new(id, self.contract(id))
    }

    /// The typed view of a DRIVER.md or CLI.md whose frontmatter could be read.
    pub fn driver_view(&self, id: FileId) -> Option<Driver<'_>> {
        match self.parsed(id) {
            Parsed::Driver { doc, cli } => Driver::new(id, doc, *cli),
            _ => None,
        }
    }

    pub fn skill_count(&self) -> usize {
        self.units
            .iter()
            .filter(|u| u.skill.is_some_and(|skill| self.in_scope(skill)))
            .count()
    }

    /// How many of the files read the run reports on (all of them, unless it was widened).
    pub fn files_in_scope(&self) -> usize {
        match &self.scope {
            None => self.files.len(),
            Some(_) => (0..self.files.len())
                .filter(|i| self.in_scope(FileId(*i as u32)))
                .count(),
        }
    }

    /// Whether the run reports findings in `file`: every file, unless the run was widened from
    /// part of the repository to the whole ([`Repo::scope`]). A file the repository does not
    /// hold (the baseline file of the run) is in scope.
    pub fn in_scope(&self, file: FileId) -> bool {
        let (Some(scope), Some(file)) = (&self.scope, self.files.get(file.0 as usize)) else {
            return true;
        };
        let path = file.rel_path.as_str();
        scope.iter().any(|named| {
            named.is_empty()
                || path
                    .strip_prefix(named.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }

    /// What the run read, for the summary: the skills, then the plugin surface by kind (plugin
    /// manifests, marketplaces, commands, agents, hook files, MCP configurations).
    pub fn inventory(&self) -> Vec<(usize, &'static str)> {
        use crate::model::FileKind;
        let mut counts = [0usize; 6];
        for (index, parsed) in self.parsed.iter().enumerate() {
            if !self.in_scope(FileId(index as u32)) {
                continue;
            }
            let slot = match parsed.kind() {
                FileKind::PluginManifest { .. } => 0,
                FileKind::Marketplace { .. } => 1,
                FileKind::Command => 2,
                FileKind::Agent => 3,
                FileKind::Hooks => 4,
                FileKind::McpConfig => 5,
                _ => continue,
            };
            counts[slot] += 1;
        }
        let words = [
            "plugin manifest",
            "marketplace",
            "command",
            "agent",
            "hook file",
            "MCP config",
        ];
        std::iter::once((self.skill_count(), "skill"))
            .chain(counts.into_iter().zip(words))
            .collect()
    }
}

/// The parse of a file the repository holds as [`Parsed::Pending`]; `None` for the others.
pub(crate) fn parse_pending(repo: &Repo, id: FileId) -> Option<Parsed> {
    match repo.parsed(id) {
        Parsed::Pending(kind) => Some(crate::model::parse_file_in(
            *kind,
            repo.file(id),
            repo.reference_root.as_deref(),
            &repo.code,
        )),
        _ => None,
    }
}
