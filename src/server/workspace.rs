//! What the server holds between messages: the editor's open documents (an overlay over the files
//! on disk), and per workspace folder its configuration, a [`Session`] (the built repository, kept
//! so that an edit relints only what it can change) and the diagnostics last published per file.
//!
//! The [`Workspace`] is linted on the lint thread; requests are answered on the main thread from a
//! [`Snapshot`]: each folder's last completed lint, shared (not copied) with the workspace until an
//! edit relints it, when the workspace's copy is cloned first ([`Arc::make_mut`]), so that the
//! snapshot never sees a half-linted session.

use super::convert::{path_to_uri, Lines};
use crate::catalog::{catalog, Catalog};
use crate::config::{self, Config, CONFIG_NAMES};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::engine::{Replaced, Session};
use crate::policy::{PolicySet, RunPoliciesError};
use crate::settings::{LintOptions, DEFAULT_MAX_FILE_SIZE};
use crate::source::FileId;
use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Uri,
};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

/// Diagnostics to send for one file.
pub(crate) struct Publish {
    pub(crate) uri: Uri,
    pub(crate) diagnostics: Vec<lsp_types::Diagnostic>,
    /// The version of the open document they are about (`None`: the file on disk).
    pub(crate) version: Option<i32>,
}

/// What was last published for one file: the findings it came from (to skip converting files
/// whose findings did not change) and what the client got.
struct Published {
    raw: Vec<(bool, Diagnostic)>,
    lsp: Vec<lsp_types::Diagnostic>,
    uri: Uri,
}

/// One workspace folder: a lint root with its own configuration.
pub(crate) struct Folder {
    pub(crate) root: PathBuf,
    /// The folder its runs read, as a `skilllint` run in the folder reads it: the git work tree
    /// around it ([`crate::settings::work_tree_of`]), else the folder itself. Paths in its
    /// session, and the relative paths this file keys by, are relative to it.
    lint_root: PathBuf,
    session: Option<Arc<Session>>,
    /// Why the folder is not linted (its configuration is broken), once shown to the user.
    pub(crate) problem: Option<String>,
    published: HashMap<String, Published>,
    /// The configuration or the set of files changed: lint afresh at the next flush.
    stale: bool,
    /// Open documents the run does not hold, and whether their last text is one skilllint
    /// reads: a fresh lint happens when that changes, not on every keystroke.
    unread: HashMap<String, bool>,
    /// Open documents the walk could not follow (a link out of the folder): the run reports
    /// that whatever their text, so an edit of one changes nothing.
    unfollowed: BTreeSet<String>,
    /// The organisation policies the folder's runs load, as the command line finds them; loaded
    /// again whenever the folder lints afresh (a config or policy file changed).
    policies: Option<Arc<PolicySet>>,
}

#[derive(Default)]
pub(crate) struct Workspace {
    pub(crate) folders: Vec<Folder>,
    /// Open documents by absolute path: the editor's text, which may not be saved.
    pub(crate) open: HashMap<PathBuf, String>,
    /// The editor's version of each open document, sent back with its diagnostics so that the
    /// client can tell which text they are about.
    versions: HashMap<PathBuf, i32>,
    /// Documents edited since the last flush.
    pending: BTreeSet<PathBuf>,
    /// The clearing of the files of folders that left the workspace, sent at the next flush.
    pub(crate) cleared: Vec<Publish>,
    /// How long the last flush spent copying sessions a snapshot shared, when it copied one.
    pub(crate) copied: Option<std::time::Duration>,
    /// Whether the last flush linted anything again (a flush that only republished says nothing
    /// about how long a lint takes).
    pub(crate) relinted: bool,
}

/// Messages for the user (a broken configuration), shown once per problem.
pub(crate) type Notices = Vec<String>;

impl Workspace {
    pub(crate) fn add_folder(&mut self, root: PathBuf) {
        if self.folders.iter().any(|f| f.root == root) {
            return;
        }
        let lint_root = crate::settings::work_tree_of(&root).unwrap_or_else(|| root.clone());
        self.folders.push(Folder {
            root,
            lint_root,
            session: None,
            problem: None,
            published: HashMap::new(),
            stale: true,
            unread: HashMap::new(),
            unfollowed: BTreeSet::new(),
            policies: None,
        });
        // The innermost folder owns a file: longest root first.
        self.folders
            .sort_by_key(|f| std::cmp::Reverse(f.root.as_os_str().len()));
    }

    /// Forgets a folder; returns the clearing of everything it had published.
    pub(crate) fn remove_folder(&mut self, root: &Path) -> Vec<Publish> {
        let mut cleared = Vec::new();
        self.folders.retain_mut(|folder| {
            if folder.root != root {
                return true;
            }
            cleared.extend(folder.published.drain().map(|(_, p)| Publish {
                uri: p.uri,
                diagnostics: Vec::new(),
                version: None,
            }));
            false
        });
        cleared
    }

    /// The folder a path is in, and the path relative to the root its runs read
    /// (`/`-separated).
    pub(crate) fn locate(&self, path: &Path) -> Option<(usize, String)> {
        locate_in(
            self.folders
                .iter()
                .map(|f| (f.root.as_path(), f.lint_root.as_path())),
            path,
        )
    }

    /// After an internal error: every folder lints afresh at the next flush.
    pub(crate) fn relint_everything(&mut self) {
        for folder in &mut self.folders {
            folder.stale = true;
        }
    }

    /// What requests are answered from until the next lint lands: each folder's results now.
    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot {
            folders: self.folders.iter().map(Folder::view).collect(),
        }
    }

    /// Records an edit of an open document (or its opening, or closing with `None`), to be
    /// linted at the next [`Workspace::flush`].
    pub(crate) fn set_text(&mut self, path: PathBuf, text: Option<(String, i32)>) {
        match text {
            Some((text, version)) => {
                self.open.insert(path.clone(), text);
                self.versions.insert(path.clone(), version);
            }
            // Closed: the file on disk takes over again (read at the next flush).
            None => {
                self.open.remove(&path);
                self.versions.remove(&path);
            }
        }
        self.pending.insert(path);
    }

    /// A file changed on disk (or was created or deleted): a configuration file or a file that
    /// skilllint reads makes its folder lint afresh; an open document keeps the editor's text.
    pub(crate) fn disk_changed(&mut self, path: &Path) {
        // Every folder whose runs read the file: a marketplace at the top of a work tree is read
        // by each plugin folder open below it.
        for folder in &mut self.folders {
            let Some((_, rel)) = locate_in(
                std::iter::once((folder.root.as_path(), folder.lint_root.as_path())),
                path,
            ) else {
                continue;
            };
            let config = is_setup_file(&rel);
            // An open document the run already holds keeps the editor's text; one it does not
            // hold (saved for the first time) is found by a fresh walk.
            let known = self.open.contains_key(path) && folder.holds(&rel);
            if config || !known && reads(folder, &rel) {
                folder.stale = true;
            }
        }
    }

    /// Lints what changed since the last flush and returns the diagnostics to publish: every
    /// file whose findings changed, and an empty list for each file whose findings are gone.
    pub(crate) fn flush(&mut self, notices: &mut Notices) -> Vec<Publish> {
        let pending = std::mem::take(&mut self.pending);
        self.copied = None;
        self.relinted = false;
        // The edited documents are published whatever their findings: the client then knows
        // that its last text was linted.
        let mut edited: Vec<BTreeSet<String>> = vec![BTreeSet::new(); self.folders.len()];
        for path in pending {
            let Some((index, rel)) = self.locate(&path) else {
                continue;
            };
            edited[index].insert(rel.clone());
            if is_setup_file(&rel) {
                self.folders[index].stale = true;
                continue;
            }
            let folder = &mut self.folders[index];
            if folder.stale || folder.unfollowed.contains(&rel) {
                continue;
            }
            let on_disk;
            let text = match self.open.get(&path) {
                Some(text) => text,
                None => {
                    // Closed: what a run reads from disk now, read as a run reads it. A file
                    // the walk could not follow (a link out of the folder) is never opened here:
                    // a fresh lint reports it as the command line does.
                    let cap = folder
                        .session
                        .as_ref()
                        .filter(|_| folder.holds_readable(&rel))
                        .map(|s| s.options().max_file_size);
                    match cap.map(|cap| crate::read::read_text(&path, cap)) {
                        Some(Ok(text)) => {
                            on_disk = text;
                            &on_disk
                        }
                        _ => {
                            folder.stale |=
                                folder.holds(&rel) || reads(folder, &rel) && path.exists();
                            continue;
                        }
                    }
                }
            };
            let replaced = match &mut folder.session {
                Some(session) => replace_text(session, &rel, text, &mut self.copied),
                None => Replaced::NeedsFreshLint,
            };
            match replaced {
                Replaced::Relinted => self.relinted = true,
                Replaced::Unchanged => {}
                Replaced::NotInRun => {
                    // A file the walk did not find: not on disk yet (the walk cannot find it
                    // before it is saved), excluded, or a `skill.md` or SECRETS.md whose text
                    // made it one skilllint does not read. Only the last can change with an
                    // edit: lint afresh when the text turns it into one that is read, or back.
                    let kind = crate::discover::classify(&rel, folder.requirement_files())
                        .or_else(|| crate::discover::source_kind(&rel));
                    if let (Some(kind), true) = (kind, path.exists()) {
                        let read = crate::discover::not_read_reason(kind, text).is_none();
                        if folder.unread.insert(rel.clone(), read) != Some(read) {
                            folder.stale = true;
                        }
                    }
                }
                Replaced::NeedsFreshLint => folder.stale = true,
            }
        }
        let mut publish = std::mem::take(&mut self.cleared);
        let mut by_folder = Vec::with_capacity(self.folders.len());
        for (folder, edited) in self.folders.iter_mut().zip(&edited) {
            if folder.stale {
                folder.stale = false;
                folder.lint_afresh(&self.open, notices);
                self.relinted = true;
            }
            by_folder.push(folder.republish(edited));
        }
        // A file inside nested workspace folders is published by the innermost one only.
        for (index, found) in by_folder.into_iter().enumerate() {
            for mut item in found {
                let path = super::convert::uri_to_path(&item.uri);
                let owner = path.as_ref().and_then(|path| self.locate(path));
                if owner.is_some_and(|(owner, _)| owner != index) {
                    continue;
                }
                item.version = path.and_then(|path| self.versions.get(&path).copied());
                publish.push(item);
            }
        }
        publish
    }
}

/// The folder of `folders` (each its root and the root its runs read, innermost first) that
/// owns `path`, and the path relative to the root its runs read (`/`-separated): the first
/// whose root holds it, else (a file read only as context, such as a marketplace above a plugin
/// folder) the first whose runs read it.
fn locate_in<'r>(
    folders: impl Iterator<Item = (&'r Path, &'r Path)> + Clone,
    path: &Path,
) -> Option<(usize, String)> {
    let below = |root: &Path| -> Option<String> {
        let rel = path.strip_prefix(root).ok()?;
        // Only plain names below the root: `..` or `.` could name a file outside it.
        let parts: Option<Vec<&str>> = rel
            .components()
            .map(|c| match c {
                std::path::Component::Normal(name) => name.to_str(),
                _ => None,
            })
            .collect();
        Some(parts?.join("/"))
    };
    folders
        .clone()
        .enumerate()
        .find_map(|(index, (root, lint_root))| {
            below(root)?;
            Some((index, below(lint_root)?))
        })
        .or_else(|| {
            folders
                .enumerate()
                .find_map(|(index, (_, lint_root))| Some((index, below(lint_root)?)))
        })
}

/// [`Session::replace_text`] on a session a snapshot may share: copied first only when the text
/// really changes (the copy is what the snapshot keeps answering from meanwhile), the time the
/// copy took added to `copied`.
fn replace_text(
    session: &mut Arc<Session>,
    rel: &str,
    text: &str,
    copied: &mut Option<std::time::Duration>,
) -> Replaced {
    let repo = &session.outcome().repo;
    match repo.file_by_path(rel) {
        None => Replaced::NotInRun,
        Some(id) if repo.text(id) == text => Replaced::Unchanged,
        Some(_) => {
            if Arc::strong_count(session) > 1 {
                let started = std::time::Instant::now();
                *session = Arc::new(Session::clone(session));
                *copied = Some(copied.unwrap_or_default() + started.elapsed());
            }
            Arc::make_mut(session).replace_text(rel, text.to_string())
        }
    }
}

/// What requests are answered from while the workspace is linted: each folder's last completed
/// lint, in the workspace's order (innermost first).
#[derive(Clone, Default)]
pub(crate) struct Snapshot {
    folders: Vec<FolderView>,
}

impl Snapshot {
    /// As [`Workspace::locate`], over the folders of the snapshot.
    pub(crate) fn locate(&self, path: &Path) -> Option<(usize, String)> {
        locate_in(
            self.folders
                .iter()
                .map(|f| (f.root.as_path(), f.lint_root.as_path())),
            path,
        )
    }

    pub(crate) fn folder(&self, index: usize) -> Option<&FolderView> {
        self.folders.get(index)
    }
}

/// One folder as a completed lint left it: what hover and code actions read.
#[derive(Clone)]
pub(crate) struct FolderView {
    pub(crate) root: PathBuf,
    /// The root its runs read: paths in its session are relative to it.
    pub(crate) lint_root: PathBuf,
    session: Option<Arc<Session>>,
    policies: Option<Arc<PolicySet>>,
}

impl FolderView {
    pub(crate) fn session(&self) -> Option<&Session> {
        self.session.as_deref()
    }

    /// The rules of the folder's runs: the built-in ones and its policies'.
    pub(crate) fn catalog(&self) -> &Catalog {
        self.policies
            .as_deref()
            .map_or(catalog(), PolicySet::catalog)
    }

    /// The folder's configuration: the open document's text if the config file is open in the
    /// editor, else the file on disk, found as the command line finds it.
    fn config(&self, open: &HashMap<PathBuf, String>) -> Result<Config, String> {
        let found = config::discover(&self.root).map_err(|e| e.to_string())?;
        let Some(path) = found else {
            return Ok(Config {
                base: self.root.clone(),
                ..Config::default()
            });
        };
        match open.get(&path) {
            Some(text) => {
                let base = crate::source::folder_of(&path).to_path_buf();
                config::parse(text, &path, base, self.catalog()).map_err(|e| e.to_string())
            }
            None => config::load(&path, self.catalog(), DEFAULT_MAX_FILE_SIZE)
                .map_err(|e| e.to_string()),
        }
    }

    /// The options a `skilllint` run in this folder would use, with the open documents in it as
    /// the overlay.
    pub(crate) fn options(&self, open: &HashMap<PathBuf, String>) -> Result<LintOptions, String> {
        let config = self.config(open)?;
        let mut options = crate::settings::options(Some(&config), self.policies.clone());
        options.paths = vec![self.root.clone()];
        // As the command line does in a folder inside a git work tree: the whole work tree is
        // read, the folder's files reported.
        if self.lint_root != self.root {
            options.project_root = Some(self.lint_root.clone());
        }
        let overlay: HashMap<PathBuf, String> = open
            .iter()
            .filter(|(path, _)| path.starts_with(&self.lint_root))
            .map(|(path, text)| (path.clone(), text.clone()))
            .collect();
        options.overlay = Arc::new(overlay);
        Ok(options)
    }
}

/// Whether the file at `rel` decides how the folder is linted: a configuration file, or a policy
/// file in a `.skilllint/policies/` folder. A change to one lints the folder afresh.
fn is_setup_file(rel: &str) -> bool {
    let (dir, name) = crate::source::split_path(rel);
    let policy_dir = crate::policy::POLICY_DIR;
    let in_policy_dir = dir == policy_dir || dir.ends_with(&format!("/{policy_dir}"));
    CONFIG_NAMES.contains(&name)
        || in_policy_dir && (name.ends_with(".yaml") || name.ends_with(".yml"))
}

/// Whether the file at `rel` is a kind skilllint reads, under the folder's configuration.
fn reads(folder: &Folder, rel: &str) -> bool {
    crate::discover::classify(rel, folder.requirement_files())
        .or_else(|| crate::discover::source_kind(rel))
        .is_some()
}

/// The requirement file names when the folder has no configuration (or it is broken).
static DEFAULT_REQUIREMENT_FILES: std::sync::LazyLock<Vec<String>> =
    std::sync::LazyLock::new(|| crate::settings::options(None, None).requirement_files);

impl Folder {
    fn requirement_files(&self) -> &[String] {
        self.session
            .as_ref()
            .map_or(&DEFAULT_REQUIREMENT_FILES, |s| {
                &s.options().requirement_files
            })
    }

    /// Whether the folder's run holds the file at `rel` and could read it.
    fn holds_readable(&self, rel: &str) -> bool {
        self.session.as_ref().is_some_and(|s| {
            let repo = &s.outcome().repo;
            repo.file_by_path(rel)
                .is_some_and(|id| !matches!(repo.parsed(id), crate::index::Parsed::Unreadable(_)))
        })
    }

    /// Whether the folder's run holds the file at `rel`.
    fn holds(&self, rel: &str) -> bool {
        self.session
            .as_ref()
            .is_some_and(|s| s.outcome().repo.file_by_path(rel).is_some())
    }

    /// The folder as requests read it: its last lint, shared.
    fn view(&self) -> FolderView {
        FolderView {
            root: self.root.clone(),
            lint_root: self.lint_root.clone(),
            session: self.session.clone(),
            policies: self.policies.clone(),
        }
    }

    /// Loads the policies a `skilllint` run in this folder loads (`.skilllint/policies/` beside
    /// the config file, its `[policies] paths`), read from disk.
    fn load_policies(&mut self) -> Result<(), String> {
        let found = config::discover(&self.root).map_err(|e| e.to_string())?;
        // A discovered config is the workspace's own: its policies stay inside it.
        let set = crate::policy::for_run(
            found.as_deref(),
            false,
            &self.root,
            false,
            &[],
            DEFAULT_MAX_FILE_SIZE,
        )
        .map_err(|error| match error {
            RunPoliciesError::Config(e) | RunPoliciesError::Policy(e) => e.to_string(),
        })?;
        self.policies = (!set.is_empty()).then(|| Arc::new(set));
        Ok(())
    }

    fn lint_afresh(&mut self, open: &HashMap<PathBuf, String>, notices: &mut Notices) {
        let result = self
            .load_policies()
            .and_then(|()| self.view().options(open))
            .and_then(|options| Session::lint(&options).map_err(|e| e.to_string()));
        match result {
            Ok(session) => {
                self.problem = None;
                // With the editor's texts as the overlay, an open file that is still unreadable
                // is one the walk could not follow: its text plays no part.
                let repo = &session.outcome().repo;
                self.unfollowed = open
                    .keys()
                    .filter_map(|path| path.strip_prefix(&self.lint_root).ok())
                    .filter_map(|rel| rel.to_str())
                    .filter(|rel| {
                        repo.file_by_path(rel).is_some_and(|id| {
                            matches!(repo.parsed(id), crate::index::Parsed::Unreadable(_))
                        })
                    })
                    .map(str::to_string)
                    .collect();
                self.session = Some(Arc::new(session));
            }
            Err(message) => {
                // As on the command line: a folder whose configuration is broken is not linted.
                let message = format!(
                    "skilllint: {} is not linted: {message}",
                    crate::escape::display_path(&self.root)
                );
                if self.problem.as_deref() != Some(message.as_str()) {
                    notices.push(message.clone());
                }
                self.problem = Some(message);
                self.session = None;
            }
        }
        // File ids may have moved: compare what the client has, not the findings.
        for published in self.published.values_mut() {
            published.raw.clear();
        }
    }

    /// The findings of each file now (its own, then those elsewhere that point into it) against
    /// what was published; the files that differ.
    fn republish(&mut self, edited: &BTreeSet<String>) -> Vec<Publish> {
        let mut now: HashMap<FileId, Vec<(bool, &Diagnostic)>> = HashMap::new();
        if let Some(session) = &self.session {
            for d in &session.outcome().diagnostics {
                now.entry(d.primary.file).or_default().push((false, d));
                let mut elsewhere: Vec<FileId> = d
                    .secondary
                    .iter()
                    .map(|l| l.file)
                    .filter(|f| *f != d.primary.file)
                    .collect();
                elsewhere.dedup();
                for file in elsewhere {
                    now.entry(file).or_default().push((true, d));
                }
            }
        }
        let mut publish = Vec::new();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        if let Some(session) = &self.session {
            let repo = &session.outcome().repo;
            let mut lines: HashMap<FileId, Lines<'_>> = HashMap::new();
            let mut ids: Vec<&FileId> = now.keys().collect();
            ids.sort();
            for id in ids {
                let found = &now[id];
                let file = repo.file(*id);
                seen.insert(file.rel_path.clone());
                let unchanged = self.published.get(&file.rel_path).is_some_and(|p| {
                    p.raw.len() == found.len()
                        && p.raw
                            .iter()
                            .zip(found)
                            .all(|(a, b)| a.0 == b.0 && a.1 == *b.1)
                });
                if unchanged && !edited.contains(&file.rel_path) {
                    continue;
                }
                let Some(uri) = file_uri(&self.lint_root, &file.abs_path) else {
                    continue;
                };
                let converted: Vec<lsp_types::Diagnostic> = found
                    .iter()
                    .map(|(mirror, d)| {
                        if *mirror {
                            mirrored(&self.lint_root, repo, &mut lines, d, *id)
                        } else {
                            to_lsp(&self.lint_root, repo, &mut lines, d)
                        }
                    })
                    .collect();
                let raw = found.iter().map(|(m, d)| (*m, (*d).clone())).collect();
                let previous = self.published.insert(
                    file.rel_path.clone(),
                    Published {
                        raw,
                        lsp: converted.clone(),
                        uri: uri.clone(),
                    },
                );
                if previous.is_none_or(|p| p.lsp != converted) || edited.contains(&file.rel_path) {
                    publish.push(Publish {
                        uri,
                        diagnostics: converted,
                        version: None,
                    });
                }
            }
        }
        // An edited document without findings, published before or not, is published empty.
        let mut forced: Vec<&String> = edited
            .iter()
            .filter(|rel| !seen.contains(*rel) && !self.published.contains_key(*rel))
            .collect();
        forced.sort();
        for rel in forced {
            if let Some(uri) = path_to_uri(&self.lint_root.join(rel)) {
                publish.push(Publish {
                    uri,
                    diagnostics: Vec::new(),
                    version: None,
                });
            }
        }
        self.published.retain(|rel, published| {
            if seen.contains(rel) {
                return true;
            }
            publish.push(Publish {
                uri: published.uri.clone(),
                diagnostics: Vec::new(),
                version: None,
            });
            false
        });
        publish
    }
}

fn file_uri(root: &Path, abs_path: &Path) -> Option<Uri> {
    if abs_path.is_absolute() {
        path_to_uri(abs_path)
    } else {
        path_to_uri(&root.join(abs_path))
    }
}

fn lines_of<'a, 'r>(
    repo: &'r crate::index::Repo,
    lines: &'a mut HashMap<FileId, Lines<'r>>,
    file: FileId,
) -> &'a Lines<'r> {
    lines
        .entry(file)
        .or_insert_with(|| Lines::new(repo.text(file)))
}

fn location<'r>(
    root: &Path,
    repo: &'r crate::index::Repo,
    lines: &mut HashMap<FileId, Lines<'r>>,
    label: &Label,
) -> Option<Location> {
    let uri = file_uri(root, &repo.file(label.file).abs_path)?;
    let range = lines_of(repo, lines, label.file).range(label.span);
    Some(Location::new(uri, range))
}

/// The rule's page in the rule reference, as SARIF's `helpUri`.
fn code_description(code: &str) -> Option<CodeDescription> {
    // A policy rule has no page in the rule reference (its docs are in its own file): no link.
    let meta = catalog().get(code)?;
    let href = Uri::from_str(&crate::render::sarif::help_uri(meta)).ok()?;
    Some(CodeDescription { href })
}

/// A finding as the protocol has it: the same code, message, severity and range as the command
/// line's, its secondary labels as related information.
pub(crate) fn to_lsp<'r>(
    root: &Path,
    repo: &'r crate::index::Repo,
    lines: &mut HashMap<FileId, Lines<'r>>,
    d: &Diagnostic,
) -> lsp_types::Diagnostic {
    let range = lines_of(repo, lines, d.primary.file).range(d.primary.span);
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .filter_map(|label| {
            Some(DiagnosticRelatedInformation {
                location: location(root, repo, lines, label)?,
                message: label.message.clone().unwrap_or_default(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: code_description(d.code),
        source: Some("skilllint".to_string()),
        message: d.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// A finding of another file shown, as a hint, where one of its labels points in `file` (a
/// tools.json tool's TR003 on its SKILL.md's section), pointing back at the finding.
pub(crate) fn mirrored<'r>(
    root: &Path,
    repo: &'r crate::index::Repo,
    lines: &mut HashMap<FileId, Lines<'r>>,
    d: &Diagnostic,
    file: FileId,
) -> lsp_types::Diagnostic {
    let label = d.secondary.iter().find(|l| l.file == file);
    let range = label.map_or_else(Default::default, |l| {
        lines_of(repo, lines, file).range(l.span)
    });
    let message = match label.and_then(|l| l.message.as_deref()) {
        Some(text) => format!("{} ({text})", d.message),
        None => d.message.clone(),
    };
    let back = location(root, repo, lines, &d.primary).map(|location| {
        vec![DiagnosticRelatedInformation {
            location,
            message: format!("{} is reported here", d.code),
        }]
    });
    lsp_types::Diagnostic {
        range,
        severity: Some(DiagnosticSeverity::HINT),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: code_description(d.code),
        source: Some("skilllint".to_string()),
        message,
        related_information: back,
        tags: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_belongs_to_the_innermost_folder_and_never_climbs_out_of_it() {
        let mut workspace = Workspace::default();
        workspace.add_folder(PathBuf::from("/repo"));
        workspace.add_folder(PathBuf::from("/repo/skills"));
        let inner = workspace
            .folders
            .iter()
            .position(|f| f.root.ends_with("skills"));
        assert_eq!(
            workspace.locate(Path::new("/repo/skills/a/SKILL.md")),
            inner.map(|i| (i, "a/SKILL.md".to_string()))
        );
        let outer = workspace.locate(Path::new("/repo/tools.json"));
        assert_eq!(outer.map(|(_, rel)| rel), Some("tools.json".to_string()));
        assert_eq!(workspace.locate(Path::new("/repo/../etc/passwd")), None);
        assert_eq!(
            workspace
                .locate(Path::new("/repo/a/./SKILL.md"))
                .map(|(_, r)| r),
            Some("a/SKILL.md".to_string())
        );
        assert_eq!(workspace.locate(Path::new("/elsewhere/SKILL.md")), None);
    }
}
