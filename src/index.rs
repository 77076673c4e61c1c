//! The immutable repository index: every file, grouped into units (one per folder), built once
//! before any rule runs. Rules read only this.
//!
//! Files other folders refer to (TOOL.md, DRIVER.md / CLI.md, SECRETS.md) are parsed up front and
//! stay parsed. A folder's own files (SKILL.md, tools files, requirement.yaml) are parsed while
//! their unit is checked and dropped after it: that keeps the run's peak memory near the size of
//! the texts instead of every parse tree at once.

use crate::model::requirement::RequirementDoc;
use crate::model::skill::{MarkdownDoc, SkillDoc};
use crate::model::tools::{Tool, ToolsDoc};
use crate::model::FileKind;
use crate::parse::markdown::{Section, TextBlock};
use crate::parse::Node;
use crate::source::Span;
use crate::source::{FileId, SourceFile};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

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

/// Settings that change what rules consider correct (from the config file, §6).
#[derive(Debug, Clone)]
pub struct Settings {
    pub tool_use_rules_heading: String,
    /// Extra frontmatter keys accepted in SKILL.md.
    pub skill_extra_fields: Vec<String>,
    /// `[contracts.map]`: tools.json tool name → TOOL.md `id`, for links the naming convention
    /// (`create_event` ↔ `create-event`) does not make.
    pub contract_map: BTreeMap<String, String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            tool_use_rules_heading: "Tool Use Rules".to_string(),
            skill_extra_fields: Vec::new(),
            contract_map: BTreeMap::new(),
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
    /// `TOOL.md`.
    pub contract: Option<FileId>,
    /// `DRIVER.md` and `CLI.md`.
    pub drivers: Vec<FileId>,
    pub secrets: Option<FileId>,
    /// The folder's other files: a second spelling (`skill.md` beside `SKILL.md`, both requirement
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
            .chain(self.others.iter().copied())
            .collect();
        all.sort();
        all
    }
}

/// Cross-file lookups for the agentproto contracts, built once after parsing.
#[derive(Debug, Default)]
pub struct ContractIndex {
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

/// The naming convention that links a tools.json tool to a TOOL.md contract: `.` and `-` become
/// `_` (`create_event` ↔ `create-event`).
pub fn link_key(name: &str) -> std::borrow::Cow<'_, str> {
    if name.contains(['.', '-']) {
        std::borrow::Cow::Owned(name.replace(['.', '-'], "_"))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

#[derive(Debug)]
pub struct Repo {
    /// Sorted by relative path; `FileId(i)` is `files[i]`.
    pub files: Vec<SourceFile>,
    /// By file; a folder's own files stay [`Parsed::Pending`] here (their unit holds the parse).
    pub parsed: Vec<Parsed>,
    /// Sorted by folder.
    pub units: Vec<UnitFiles>,
    pub contracts: ContractIndex,
    pub settings: Settings,
    /// Every skill's non-empty frontmatter `name`, in file order: what is left of the skills for
    /// the repository-wide rules, which run after the units.
    pub skill_names: Vec<SkillName>,
    /// Which rules report in which files (selection and `per-file-ignores`).
    pub reporting: crate::selection::Reporting,
    /// The canonical lint root: a skill's links are looked up on disk inside it, and nowhere
    /// else (`None`: a run without a file system, where they are not looked up).
    pub reference_root: Option<PathBuf>,
}

/// A skill's frontmatter `name` and where it is written.
#[derive(Debug, Clone)]
pub struct SkillName {
    pub file: FileId,
    pub name: String,
    pub span: Span,
}

impl Repo {
    /// Whether a finding of `code` with its primary location in `file` is reported: the rule
    /// is selected, not ignored, and not silenced in that file by `per-file-ignores`. A rule asks
    /// this before it leaves a finding to another rule, so that the finding is never lost.
    pub fn reports(&self, code: &str, file: FileId) -> bool {
        let path = self
            .files
            .get(file.0 as usize)
            .map_or("", |f| f.rel_path.as_str());
        self.reporting.reports(code, path)
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

    pub fn skill_count(&self) -> usize {
        self.units.iter().filter(|u| u.skill.is_some()).count()
    }
}

/// One folder's files, as rules see them.
#[derive(Clone, Copy)]
pub struct Unit<'a> {
    pub repo: &'a Repo,
    pub files: &'a UnitFiles,
    /// The parses of the folder's own files (those [`Parsed::Pending`] in the repository).
    pub local: &'a [(FileId, Parsed)],
    /// What several rules of the unit derive alike, derived once.
    pub shared: &'a UnitShared<'a>,
}

/// Per-unit results that several rules need, computed by the first of them that runs.
#[derive(Debug, Default)]
pub struct UnitShared<'a> {
    /// Every tools-file tool linked to a TOOL.md contract, in file and entry order (XC rules).
    pub(crate) tool_links: std::cell::OnceCell<Vec<crate::rules::xc::Link<'a>>>,
    /// Every driver of the unit with the contracts its entries resolve to (DR rules).
    pub(crate) driver_bindings: std::cell::OnceCell<Vec<crate::rules::dr::DriverBindings<'a>>>,
    /// The SKILL.md's Tool Use Rules section and its items, if it has one.
    pub tool_use_rules: std::cell::OnceCell<Option<(Section<'a>, Vec<&'a TextBlock>)>>,
    /// For each tool name a TR rule asked about, the positions of the section's items that name
    /// it as a whole word.
    pub(crate) rule_mentions: UnitMemo<&'a str, usize>,
    /// Every word of the section's items with the position of its item, sorted and without
    /// repeats: a tool name's items are then a binary search away, not a scan of every item.
    pub(crate) rule_words: std::cell::OnceCell<Vec<(&'a str, u32)>>,
    /// One editable view of each JSON file a rule fixed, so the file's layout is read once.
    pub(crate) json_texts:
        std::cell::RefCell<Vec<(FileId, std::rc::Rc<crate::edit::json::JsonText<'a>>)>>,
    /// The object subschemas of each schema an SC rule walked, by the schema's address (never
    /// dereferenced: only compared).
    pub(crate) schema_sites: UnitMemo<*const Node, crate::rules::sc::Site<'a>>,
    /// The schemas the SC rules check: the tools' input schemas, then the TOOL.md `inputs`.
    pub(crate) schema_subjects: std::cell::OnceCell<Vec<crate::rules::sc::Subject<'a>>>,
}

/// Lists that rules of a unit ask for by key: the first to ask computes one, the others share it.
/// A unit is checked on one thread, so a `RefCell` serves. Hashed: a unit of many tools asks for
/// as many keys, and a list searched per key made that quadratic.
#[derive(Debug)]
pub(crate) struct UnitMemo<K, V>(std::cell::RefCell<HashMap<K, std::rc::Rc<[V]>>>);

impl<K, V> Default for UnitMemo<K, V> {
    fn default() -> Self {
        UnitMemo(std::cell::RefCell::new(HashMap::new()))
    }
}

impl<K: Copy + Eq + std::hash::Hash, V> UnitMemo<K, V> {
    /// The list for `key`, computed by `compute` the first time.
    pub(crate) fn get(&self, key: K, compute: impl FnOnce() -> Vec<V>) -> std::rc::Rc<[V]> {
        if let Some(found) = self.0.borrow().get(&key) {
            return std::rc::Rc::clone(found);
        }
        // Computed without holding the borrow, so a computation may itself ask the memo.
        let found: std::rc::Rc<[V]> = compute().into();
        self.0.borrow_mut().insert(key, std::rc::Rc::clone(&found));
        found
    }
}

impl<'a> Unit<'a> {
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

    /// The editable view of a JSON file, shared by every rule of the unit that fixes it.
    pub(crate) fn json_text(&self, id: FileId) -> std::rc::Rc<crate::edit::json::JsonText<'a>> {
        let mut texts = self.shared.json_texts.borrow_mut();
        if let Some((_, found)) = texts.iter().find(|(file, _)| *file == id) {
            return std::rc::Rc::clone(found);
        }
        let made = std::rc::Rc::new(crate::edit::json::JsonText::new(self.text(id), id));
        texts.push((id, std::rc::Rc::clone(&made)));
        made
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
