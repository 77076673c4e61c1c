//! Walks the lint root in parallel and classifies the files skilllint reads.
//!
//! The room: this module holds what discovery yields (`Discovered`), how a name becomes a file
//! kind in a walk (`Kinds`, `Decisions`), and the paths shown for files; [`names`] classifies a
//! path by its name (and says why a file is not read); [`walk`] walks the lint root and adds the
//! tracked files ignore files hid; [`filter`] holds the `exclude`/`include` globs; [`problems`]
//! words what stops a path from being read (links, loops, depth, special files).

mod filter;
mod names;
mod problems;
mod walk;

pub use filter::GlobFilter;
pub use names::{
    classify, name_patterns, not_read_reason, regex_literal, source_kind, unread_tools_note,
    BY_CONTENT, LOCK_FILE_NAME, NOT_READ_PREFIX, PROSE_SECRETS_NOT_READ, TOOL_LIST_NAMES,
    TOOL_SNAPSHOT_DIR,
};
pub use walk::{discover, Walked};

use problems::{link_not_followed, too_deep, LINK_LOOP, LINK_OUT_OF_ROOT};

use crate::model::bundle::Candidate;
use crate::model::FileKind;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discovered {
    /// Relative to the lint root, `/`-separated.
    pub rel_path: String,
    pub abs_path: PathBuf,
    pub kind: FileKind,
    /// Why the file is not read (a symlink out of the lint root, a symlink loop).
    pub problem: Option<String>,
}

/// A file skilllint does not read that may be opaque to a reviewer: an archive or native
/// executable by its name, or a file without an extension that has an executable bit (its first
/// bytes decide later, and only for one inside a skill folder). The bit costs a `stat`, asked
/// only of extensionless files.
fn opaque_candidate(rel_path: String, entry: &ignore::DirEntry) -> Option<Candidate> {
    let file_name = crate::source::split_path(&rel_path).1;
    let kind = match crate::model::bundle::kind_by_name(file_name) {
        Some(kind) => Some(kind),
        None if !file_name.contains('.') && has_executable_bit(entry) => None,
        None => return None,
    };
    Some(Candidate {
        abs_path: entry.path().to_path_buf(),
        rel_path,
        kind,
    })
}

#[cfg(unix)]
fn has_executable_bit(entry: &ignore::DirEntry) -> bool {
    use std::os::unix::fs::PermissionsExt;
    entry
        .metadata()
        .is_ok_and(|metadata| metadata.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn has_executable_bit(_: &ignore::DirEntry) -> bool {
    false
}

/// Folders never worth walking: VCS metadata, dependencies and build output.
const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

/// Whether a folder of this name is passed over, by the walk and in a listing.
pub(crate) fn is_skipped_dir(name: &[u8]) -> bool {
    SKIPPED_DIRS.iter().any(|d| name == d.as_bytes())
}

/// What decides the kind a file met at `rel_path` is read as: by its name (with the lint root's
/// own name in front when it gives kinds, [`kind_context`]), else as a tool list when
/// `[tools] include` matches it. The walk, the tracked files and a listing decide alike.
struct Kinds<'a> {
    requirement_files: &'a [String],
    include: &'a GlobFilter,
    context: Option<&'a str>,
    /// Whether source files are read for the tools they register (`[source] enabled`).
    source: bool,
}

impl Kinds<'_> {
    fn of(&self, rel_path: &str) -> Option<FileKind> {
        let kind = match self.context {
            Some(folder) => classify(&format!("{folder}/{rel_path}"), self.requirement_files),
            None => classify(rel_path, self.requirement_files),
        };
        kind.or_else(|| self.include.matches(rel_path).then_some(BY_CONTENT))
    }

    /// The kind of a regular file met at `rel_path`: [`Kinds::of`], else, for any other JSON
    /// file, a tool list if its content is MCP tools. Only files met as such: a link, an excluded
    /// file and a tracked file an ignore file hid are decided by [`Kinds::of`] alone, so a JSON
    /// file that may hold nothing is never reported as a link out of the root or as excluded.
    fn of_file(&self, rel_path: &str) -> Option<FileKind> {
        self.of(rel_path)
            .or_else(|| rel_path.ends_with(".json").then_some(names::ANY_JSON))
            .or_else(|| self.source.then(|| names::source_kind(rel_path)).flatten())
    }
}

/// Folders whose name gives the files below them their kind: subagents, slash commands, tool
/// contracts and drivers, MCP tool snapshots.
const KIND_FOLDERS: [&str; 6] = [
    "agents",
    "commands",
    ".tools",
    ".drivers",
    ".cli",
    "__toolsnaps__",
];

/// The lint root's own name, when it is one of [`KIND_FOLDERS`] inside a repository (not the
/// repository's top, which holds `.git`): its files are classified as a run from the folder
/// above would classify them, so `skilllint .claude/agents` reads the agents there. The paths
/// reported stay relative to the root.
fn kind_context(canonical_root: &Path) -> Option<&str> {
    let name = canonical_root.file_name()?.to_str()?;
    let repository_top = std::fs::symlink_metadata(canonical_root.join(".git")).is_ok();
    (KIND_FOLDERS.contains(&name) && !repository_top).then_some(name)
}

/// What an entry of a listing that is not a folder on disk (a git revision's tree) is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ListedEntry {
    File,
    /// A symbolic link, resolved inside the listing (never on disk) to where it leads.
    Link(LinkTarget),
    /// A submodule (a commit in the tree): its files are another repository's.
    Submodule,
    /// A folder at [`MAX_DEPTH`], not listed further.
    TooDeep,
}

/// Where a symbolic link of a listing leads, resolved within the listing as the system resolves
/// one on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LinkTarget {
    /// A file of the listing: read as the link's text.
    File,
    /// A folder: never walked, as on disk; `true` when it encloses the link (a loop).
    Folder { encloses: bool },
    /// Out of the listing's top (an absolute path, or more `..` than folders).
    Outside,
    /// Nowhere (a dangling link, a cycle, a file used as a folder): the error the system would
    /// give, as it words it.
    Unfollowable(String),
}

/// The decisions discovery makes for each file, for a listing to apply to its entries.
pub(crate) struct Decisions<'a> {
    pub(crate) requirement_files: &'a [String],
    /// Whether source files are read for the tools they register.
    pub(crate) source: bool,
    pub(crate) exclude: GlobFilter,
    pub(crate) include: GlobFilter,
    /// Files larger than this are not read (SL001), wherever they come from.
    pub(crate) max_file_size: u64,
    /// The files of a kind skilllint reads that `exclude` passed over, as met (see
    /// [`Decisions::pass_over`]).
    pub(crate) passed_over: PassedOver,
}

impl Decisions<'_> {
    /// What discovery makes of an entry met at `rel_path` in a listing, as the walk decides for
    /// a file on disk: `None` to pass over it (excluded, or of no kind skilllint reads), else
    /// the kind and the problem that stops it being read. A link is decided as
    /// [`resolve_symlink`] decides one on disk, from where the listing resolved it.
    pub(crate) fn entry(
        &self,
        rel_path: &str,
        entry: ListedEntry,
    ) -> Option<(FileKind, Option<String>)> {
        if self.exclude.matches(rel_path) {
            self.pass_over(rel_path);
            return None;
        }
        let kinds = Kinds {
            requirement_files: self.requirement_files,
            include: &self.include,
            context: None,
            source: self.source,
        };
        let kind = || kinds.of(rel_path);
        match entry {
            ListedEntry::File => kinds.of_file(rel_path).map(|kind| (kind, None)),
            ListedEntry::Link(LinkTarget::File) => kind().map(|kind| (kind, None)),
            ListedEntry::Link(LinkTarget::Folder { encloses }) => {
                encloses.then(|| (FileKind::Unfollowed, Some(LINK_LOOP.to_string())))
            }
            ListedEntry::Link(LinkTarget::Outside) => {
                kind().map(|kind| (kind, Some(LINK_OUT_OF_ROOT.to_string())))
            }
            ListedEntry::Link(LinkTarget::Unfollowable(error)) => {
                kind().map(|kind| (kind, Some(link_not_followed(&error))))
            }
            ListedEntry::Submodule => Some((FileKind::Unfollowed, Some(SUBMODULE.to_string()))),
            ListedEntry::TooDeep => Some((FileKind::Unfollowed, Some(too_deep()))),
        }
    }
}

impl Decisions<'_> {
    /// Notes that `exclude` passed over the entry at `rel_path`, when it is of a kind skilllint
    /// reads: a diff compares what each side's exclusions hid.
    pub(crate) fn pass_over(&self, rel_path: &str) {
        let kinds = Kinds {
            requirement_files: self.requirement_files,
            include: &self.include,
            context: None,
            source: self.source,
        };
        self.passed_over.note(&kinds, rel_path);
    }

    /// What [`Decisions::pass_over`] noted since the last call, sorted, once each.
    pub(crate) fn take_passed_over(&self) -> Vec<String> {
        self.passed_over.take()
    }
}

/// The files of a kind skilllint reads that `exclude` passed over, noted by the threads of a walk
/// or a listing as they meet them: a diff compares what each side's exclusions hid.
#[derive(Default)]
pub(crate) struct PassedOver(Mutex<Vec<String>>);

impl PassedOver {
    /// Notes `rel_path`, which `exclude` matched, when it is of a kind `kinds` reads.
    fn note(&self, kinds: &Kinds<'_>, rel_path: &str) {
        if kinds.of(rel_path).is_some() {
            let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
            guard.push(rel_path.to_string());
        }
    }

    /// What was noted since the last call, sorted, once each.
    fn take(&self) -> Vec<String> {
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut passed = std::mem::take(&mut *guard);
        passed.sort_unstable();
        passed.dedup();
        passed
    }
}

const SUBMODULE: &str =
    "a submodule: its files are another repository's and were not read from this revision";

/// A `/`-separated path for output, computed lexically (no file system access): relative to
/// `root` when `path` is below it, else as the user wrote it, so an absolute path stays absolute
/// (`/tmp/x/SKILL.md`, not `tmp/x/SKILL.md`) and a `..` path keeps its `..`.
pub fn relative_path(root: &Path, path: &Path) -> String {
    // The walker's paths are the root, a `/` and a clean rest (`a/b/SKILL.md`): take the rest as
    // it is, without comparing component by component.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        // Split on bytes: a closure split is a plain loop, where `str::split('/')` sets up a
        // searcher per call (once per file walked).
        let is_clean = |s: &[u8]| {
            !s.is_empty()
                && s.split(|b| *b == b'/')
                    .all(|p| !p.is_empty() && p != b"." && p != b"..")
        };
        let rest = path
            .as_os_str()
            .as_bytes()
            .strip_prefix(root.as_os_str().as_bytes())
            .and_then(|rest| rest.strip_prefix(b"/"))
            .filter(|rest| is_clean(rest));
        // A name that needs its escaped form takes the component walk below, so that every
        // path is escaped name by name, however it reaches this function.
        if let Some(std::borrow::Cow::Borrowed(clean)) = rest.map(crate::escape::path_form) {
            return clean.to_string();
        }
    }
    let stripped = path.strip_prefix(root).unwrap_or(path);
    // What comes before the names of an absolute path: `/`, or on Windows `C:/`.
    let mut lead = String::new();
    let mut parts: Vec<String> = Vec::new();
    for component in stripped.components() {
        match component {
            Component::CurDir => {}
            Component::Normal(part) => parts.push(name_form(part)),
            Component::ParentDir => parts.push("..".to_string()),
            Component::Prefix(prefix) => {
                parts.clear();
                lead = name_form(prefix.as_os_str());
            }
            Component::RootDir => {
                parts.clear();
                lead.push('/');
            }
        }
    }
    if parts.is_empty() {
        path.file_name().map(name_form).unwrap_or_default()
    } else {
        lead + &parts.join("/")
    }
}

/// One file or folder name in the form paths are shown in. Names are the repository's: in their
/// lossless escaped form, a name that is not UTF-8 or holds control characters neither collides
/// with another (as a lossy decoding would) nor reaches the terminal raw.
fn name_form(name: &std::ffi::OsStr) -> String {
    crate::escape::display_path(Path::new(name)).into_owned()
}

/// Folders nested deeper than this below a walked folder are reported, not walked: far beyond
/// any real repository, and it bounds the walker's per-entry cost, which grows with the depth.
pub const MAX_DEPTH: usize = 256;

/// A file named on the command line is read together with the files of its skill folder, so that
/// cross-file rules see the same contract as a full run would.
pub(crate) fn with_skill_siblings(paths: &[PathBuf], requirement_files: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        out.push(path.clone());
        // Only a file skilllint reads needs its folder's context; anything else named is reported
        // on its own. So is a slash command or subagent: each is whole in its file, and its
        // siblings are other commands or agents, not context (a pre-commit run naming one
        // changed agent would otherwise report the thirty others in its folder).
        let read = || {
            crate::discover::classify(
                &crate::discover::relative_path(Path::new("."), path),
                requirement_files,
            )
            .is_some_and(|kind| !matches!(kind, FileKind::Command | FileKind::Agent))
        };
        if path.is_file() && read() {
            let dir = crate::source::folder_of(path);
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut siblings: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                // A linked sibling is taken when it leads to a file (discovery then checks where
                // it leads); a link to a folder is never walked from here.
                .filter(|e| {
                    e.file_type()
                        .is_ok_and(|t| t.is_file() || (t.is_symlink() && e.path().is_file()))
                })
                .filter(|e| {
                    let sibling = e.path();
                    crate::discover::classify(
                        &crate::discover::relative_path(Path::new("."), &sibling),
                        requirement_files,
                    )
                    .is_some()
                })
                .map(|e| e.path())
                .filter(|p| p != path)
                .collect();
            siblings.sort();
            out.extend(siblings);
        }
    }
    out
}

#[cfg(test)]
mod tests;
