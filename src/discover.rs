//! Walks the lint root in parallel and classifies the files skilllint reads.

use crate::model::bundle::Candidate;
use crate::model::FileKind;
use ignore::{WalkBuilder, WalkState};
use rayon::slice::ParallelSliceMut;
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
}

impl Kinds<'_> {
    fn of(&self, rel_path: &str) -> Option<FileKind> {
        let kind = match self.context {
            Some(folder) => classify(&format!("{folder}/{rel_path}"), self.requirement_files),
            None => classify(rel_path, self.requirement_files),
        };
        kind.or_else(|| self.include.matches(rel_path).then_some(BY_CONTENT))
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
        };
        let kind = || kinds.of(rel_path);
        match entry {
            ListedEntry::File | ListedEntry::Link(LinkTarget::File) => {
                kind().map(|kind| (kind, None))
            }
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

/// Classifies a file by its `/`-separated path (relative to the lint root, or as given): the name
/// decides, and for agentproto files also the folder they sit in (`.tools/`, `.drivers/`, `.cli/`).
pub fn classify(path: &str, requirement_files: &[String]) -> Option<FileKind> {
    let (folder, file_name) = crate::source::split_path(path);
    let mut folders = folder.split('/');
    match file_name {
        "SKILL.md" => Some(FileKind::Skill { misnamed: false }),
        // Another case of the name (`skill.md`, `Skill.md`, `SKILL.MD`): what an agent on a
        // case-insensitive file system (macOS, Windows) reads as the skill file.
        _ if file_name.eq_ignore_ascii_case("SKILL.md") => Some(FileKind::Skill { misnamed: true }),
        "tools.json" => Some(FileKind::Tools { by_content: false }),
        "SECRETS.md" => Some(FileKind::Secrets),
        "TOOL.md" if folders.any(|f| f == ".tools") => Some(FileKind::Contract),
        // A builtin driver sits beside its TOOL.md.
        "DRIVER.md" if folders.any(|f| f == ".drivers" || f == ".tools") => {
            Some(FileKind::Driver { cli: false })
        }
        "CLI.md" if folders.any(|f| f == ".cli") => Some(FileKind::Driver { cli: true }),
        "AGENTS.md" | "CLAUDE.md" => Some(FileKind::Instructions),
        _ if file_name.ends_with(".tools.json") => Some(FileKind::Tools { by_content: false }),
        _ if is_tool_list_name(folder, file_name) => Some(FileKind::Tools { by_content: true }),
        _ if requirement_files.iter().any(|r| r == file_name) => Some(FileKind::Requirement),
        _ => classify_plugin_file(folder, file_name),
    }
}

/// Names tool lists are committed under besides `tools.json`, read for their content: a file of
/// one of these names that holds no tools (a library's `functions.json`) is passed over in
/// silence.
pub const TOOL_LIST_NAMES: [&str; 11] = [
    "functions.json",
    "tools-list.json",
    "tools_list.json",
    "mcp-tools.json",
    "mcp_tools.json",
    "toolDefinitions.json",
    "tool-definitions.json",
    "tool_definitions.json",
    "anthropic_tools.json",
    "openai_tools.json",
    "openai_functions.json",
];

/// The folder MCP servers keep their tool-schema snapshot tests in: one tool as JSON per file.
pub const TOOL_SNAPSHOT_DIR: &str = "__toolsnaps__";

/// A file read for its content as a tool list: one of [`TOOL_LIST_NAMES`], or a `.snap` or
/// `.json` file directly under a `__toolsnaps__/` folder.
fn is_tool_list_name(folder: &str, file_name: &str) -> bool {
    TOOL_LIST_NAMES.contains(&file_name)
        || (folder.rsplit('/').next() == Some(TOOL_SNAPSHOT_DIR)
            && (file_name.ends_with(".snap") || file_name.ends_with(".json")))
}

/// What a file no name rule claims is read as when `[tools] include` matches it or it is a JSON
/// file named on the command line: a tool list, if its content is one.
pub const BY_CONTENT: FileKind = FileKind::Tools { by_content: true };

/// The plugin surface's files: manifests and marketplaces by the folder they sit in, hook and
/// MCP configurations by name, commands and agents as Markdown under `commands/` and `agents/`.
fn classify_plugin_file(folder: &str, file_name: &str) -> Option<FileKind> {
    use crate::model::plugin::Host;
    let last = folder.rsplit('/').next().unwrap_or(folder);
    match file_name {
        "plugin.json" => Host::of_manifest_dir(last).map(|host| FileKind::PluginManifest { host }),
        "marketplace.json" => match Host::of_manifest_dir(last) {
            Some(Host::Codex) => None,
            Some(host) => Some(FileKind::Marketplace { host }),
            None if last == "plugins"
                && crate::source::parent_dir(folder).rsplit('/').next() == Some(".agents") =>
            {
                Some(FileKind::Marketplace { host: Host::Codex })
            }
            None => None,
        },
        "hooks.json" => Some(FileKind::Hooks),
        ".mcp.json" | "mcp.json" => Some(FileKind::McpConfig),
        _ if file_name.ends_with(".md") && is_instructions_file(file_name) => Some(FileKind::Prose),
        _ if file_name.ends_with(".md") && !is_project_doc(file_name) => {
            let mut kind = None;
            for segment in folder.split('/') {
                match segment {
                    "commands" => kind = Some(FileKind::Command),
                    "agents" => kind = Some(FileKind::Agent),
                    "references" if kind.is_none() => kind = Some(FileKind::Prose),
                    _ => {}
                }
            }
            kind
        }
        _ => None,
    }
}

/// The instruction files coding agents read at the start of a session in the folder they sit in.
fn is_instructions_file(file_name: &str) -> bool {
    matches!(file_name, "AGENTS.md" | "CLAUDE.md" | "CLAUDE.local.md")
}

/// Markdown files of a folder that are about the folder, never a command or an agent.
fn is_project_doc(file_name: &str) -> bool {
    let stem = &file_name[..file_name.len() - 3];
    [
        "README",
        "CHANGELOG",
        "LICENSE",
        "CONTRIBUTING",
        "AGENTS",
        "CLAUDE",
        "SKILL",
        "skill",
    ]
    .iter()
    .any(|d| stem.eq_ignore_ascii_case(d))
}

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

/// Walks `paths` (directories are walked honouring ignore files; files named explicitly are
/// always taken) and returns the classified files sorted by relative path, each with what `load`
/// made of it. `load` runs on the walking threads as files are found, so reading overlaps the
/// walk.
pub fn discover<T: Send + Sync>(
    root: &Path,
    paths: &[PathBuf],
    requirement_files: &[String],
    threads: usize,
    exclude: &GlobFilter,
    include: &GlobFilter,
    load: impl Fn(&Discovered) -> T + Sync,
) -> (Vec<(Discovered, T)>, Vec<Candidate>, Vec<String>) {
    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let kinds = Kinds {
        requirement_files,
        include,
        context: kind_context(&canonical_root),
    };
    let found: Mutex<Vec<(Discovered, T)>> = Mutex::new(Vec::new());
    // Archives and native executables the walk passes (SK022 keeps those in skill folders).
    let opaque: Mutex<Vec<Candidate>> = Mutex::new(Vec::new());
    // Files of a kind skilllint reads that `exclude` passes over (a diff compares them).
    let passed_over = PassedOver::default();
    let push = |rel_path: String, abs_path: PathBuf, kind: FileKind, problem: Option<String>| {
        let file = Discovered {
            rel_path,
            abs_path,
            kind,
            problem,
        };
        let loaded = load(&file);
        let mut guard = found.lock().unwrap_or_else(|e| e.into_inner());
        guard.push((file, loaded));
    };
    let mut directories = Vec::new();
    for path in paths {
        // `metadata` follows a link the user named (an explicit path wins) but opens nothing:
        // the type is known before anything is read.
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => directories.push(path.clone()),
            Ok(metadata) => {
                let rel_path = relative_path(root, path);
                let kind = classify(&rel_path, requirement_files).or_else(|| {
                    (include.matches(&rel_path) || rel_path.ends_with(".json"))
                        .then_some(BY_CONTENT)
                });
                let problem = if named_link_leaves_root(path, &canonical_root) {
                    // `skilllint skills/*/SKILL.md` names whatever the repository put there: a
                    // link in the repository to a file outside it is the repository's, not the
                    // user's choice, and is not read (its snippets could print a secret).
                    Some(LINK_OUT_OF_ROOT.to_string())
                } else if !metadata.is_file() {
                    Some(not_regular(metadata.file_type()))
                } else if kind.is_none() {
                    Some(NOT_READ_WHEN_NAMED.to_string())
                } else {
                    None
                };
                push(
                    rel_path,
                    path.clone(),
                    kind.unwrap_or(FileKind::Unfollowed),
                    problem,
                );
            }
            Err(error) => {
                let rel_path = relative_path(root, path);
                let kind = classify(&rel_path, requirement_files).unwrap_or(FileKind::Unfollowed);
                push(rel_path, path.clone(), kind, Some(unreadable(&error)));
            }
        }
    }
    if let Some((first, rest)) = directories.split_first() {
        let mut builder = WalkBuilder::new(first);
        for dir in rest {
            builder.add(dir);
        }
        builder
            .hidden(false)
            .git_ignore(true)
            .git_global(false)
            .git_exclude(true)
            .ignore(true)
            .parents(true)
            .require_git(false)
            // Links are never followed by the walker: a folder symlink is not walked at all (its
            // target inside the root is walked under its own name; one outside is not ours to
            // read), and a file symlink is resolved by the visitor, which can report it.
            .follow_links(false)
            .max_depth(Some(MAX_DEPTH))
            .threads(threads)
            .filter_entry(move |entry| {
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                if is_dir && entry.depth() > 0 {
                    // `file_name()` parses the path from its end: once, not once per name.
                    if is_skipped_dir(entry.file_name().as_encoded_bytes()) {
                        return false;
                    }
                }
                true
            });
        let canonical_root = &canonical_root;
        let push = &push;
        let opaque = &opaque;
        let passed_over = &passed_over;
        let kinds = &kinds;
        builder.build_parallel().run(|| {
            Box::new(move |entry| {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(error) => {
                        if let Some((path, message)) = walk_problem(&error) {
                            let rel_path = relative_path(root, &path);
                            if !exclude.matches(&rel_path) {
                                push(rel_path, path, FileKind::Unfollowed, Some(message));
                            }
                        }
                        return WalkState::Continue;
                    }
                };
                let Some(file_type) = entry.file_type() else {
                    return WalkState::Continue;
                };
                if file_type.is_dir() {
                    if entry.depth() == MAX_DEPTH {
                        let rel_path = relative_path(root, entry.path());
                        if !exclude.matches(&rel_path) {
                            push(
                                rel_path,
                                entry.into_path(),
                                FileKind::Unfollowed,
                                Some(too_deep()),
                            );
                        }
                    }
                    return WalkState::Continue;
                }
                let rel_path = relative_path(root, entry.path());
                if exclude.matches(&rel_path) {
                    passed_over.note(kinds, &rel_path);
                    return WalkState::Continue;
                }
                if file_type.is_symlink() {
                    if let Some((kind, problem)) =
                        resolve_symlink(entry.path(), &rel_path, canonical_root, kinds)
                    {
                        push(rel_path, entry.into_path(), kind, problem);
                    }
                    return WalkState::Continue;
                }
                let Some(kind) = kinds.of(&rel_path) else {
                    if file_type.is_file() {
                        if let Some(candidate) = opaque_candidate(rel_path, &entry) {
                            let mut guard = opaque.lock().unwrap_or_else(|e| e.into_inner());
                            guard.push(candidate);
                        }
                    }
                    return WalkState::Continue;
                };
                // A FIFO, socket or device under a name we read: opening it could block or
                // have side effects, so it is reported from its type alone.
                let problem = (!file_type.is_file()).then(|| not_regular(file_type));
                push(rel_path, entry.into_path(), kind, problem);
                WalkState::Continue
            })
        });
    }
    let mut files = found.into_inner().unwrap_or_else(|e| e.into_inner());
    // Ignore files decide only for files git does not track: a tracked file they hid is added
    // here, as the walk would have found it.
    let tracked = tracked_files(&directories, requirement_files);
    if !tracked.is_empty() {
        let seen: std::collections::HashSet<&Path> = files
            .iter()
            .map(|(file, _)| file.abs_path.as_path())
            .collect();
        let hidden: Vec<(PathBuf, usize)> = tracked
            .into_iter()
            .filter(|(path, _)| !seen.contains(path.as_path()))
            .collect();
        for (path, dir_len) in hidden {
            if let Some((rel_path, kind, problem)) =
                tracked_entry(root, &path, dir_len, &canonical_root, exclude, &kinds)
            {
                let file = Discovered {
                    rel_path,
                    abs_path: path,
                    kind,
                    problem,
                };
                let loaded = load(&file);
                files.push((file, loaded));
            }
        }
    }
    let mut opaque = opaque.into_inner().unwrap_or_else(|e| e.into_inner());
    opaque.sort_unstable();
    // Sorted through a permutation: the entries are large, and a sort moves each one many
    // times, where the permutation then moves each once. Inside the lint's thread pool, so the
    // sort uses its threads. Entries for one path are ordered in full: the one without a
    // problem first, as a file named on the command line is pushed.
    fn key<T>(file: &(Discovered, T)) -> (&String, &Option<String>, &PathBuf) {
        (&file.0.rel_path, &file.0.problem, &file.0.abs_path)
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.par_sort_unstable_by(|a, b| key(&files[*a]).cmp(&key(&files[*b])));
    permute(&mut files, order);
    files.dedup_by(|a, b| a.0.rel_path == b.0.rel_path);
    (files, opaque, passed_over.take())
}

/// The files git tracks under each walked folder that skilllint may read (by name), from the
/// index of the work tree the folder is in (the nearest folder above it with a `.git` folder), as
/// paths the walk would have produced (the folder as given, then the tracked path below it), each
/// with the length in components of the folder part. Empty outside a git work tree, in a linked
/// work tree or submodule (a `.git` file is not followed), and when the index cannot be read.
fn tracked_files(directories: &[PathBuf], requirement_files: &[String]) -> Vec<(PathBuf, usize)> {
    let mut out = Vec::new();
    for dir in directories {
        let Ok(canonical) = dir.canonicalize() else {
            continue;
        };
        let Some(work_tree) = canonical
            .ancestors()
            .find(|a| std::fs::symlink_metadata(a.join(".git")).is_ok())
        else {
            continue;
        };
        let Ok(below) = canonical.strip_prefix(work_tree) else {
            continue;
        };
        let Some(prefix) = git_path_bytes(below) else {
            continue;
        };
        let under_dir = |path: &[u8]| -> Option<usize> {
            if prefix.is_empty() {
                Some(0)
            } else {
                path.strip_prefix(prefix.as_slice())?
                    .starts_with(b"/")
                    .then_some(prefix.len() + 1)
            }
        };
        let keep = |path: &[u8]| {
            under_dir(path).is_some()
                && classify(&String::from_utf8_lossy(path), requirement_files).is_some()
        };
        let Some(paths) = crate::git_index::tracked_paths(&work_tree.join(".git"), keep) else {
            continue;
        };
        let dir_len = dir.components().count();
        for path in paths {
            let Some(start) = under_dir(&path) else {
                continue;
            };
            let Some(rest) = path_of_git_bytes(&path[start..]) else {
                continue;
            };
            let mut folders = rest.components().rev().skip(1);
            let walked = rest.components().count() <= MAX_DEPTH
                && rest.components().all(|c| matches!(c, Component::Normal(_)))
                && !folders.any(|c| is_skipped_dir(c.as_os_str().as_encoded_bytes()));
            if walked {
                out.push((dir.join(rest), dir_len));
            }
        }
    }
    out
}

/// A path below a work tree as git writes it in its index: `/`-separated bytes.
fn git_path_bytes(path: &Path) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for component in path.components() {
        let Component::Normal(name) = component else {
            return None;
        };
        if !out.is_empty() {
            out.push(b'/');
        }
        #[cfg(unix)]
        out.extend_from_slice(std::os::unix::ffi::OsStrExt::as_bytes(name));
        #[cfg(not(unix))]
        out.extend_from_slice(name.to_str()?.as_bytes());
    }
    Some(out)
}

/// The relative path an index path names (`/`-separated bytes).
fn path_of_git_bytes(bytes: &[u8]) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(bytes).ok().map(PathBuf::from)
    }
}

/// A tracked file the walk did not find, taken as the walk takes a file: unless `exclude`
/// matches it, never through a folder symlink (a path whose folders are not all real folders
/// is left out, as the walk leaves them), a file symlink resolved as the walk resolves it, and
/// a FIFO, socket or device reported from its type. `None` for a file that is gone from the
/// work tree (deleted, or outside a sparse checkout).
fn tracked_entry(
    root: &Path,
    path: &Path,
    dir_len: usize,
    canonical_root: &Path,
    exclude: &GlobFilter,
    kinds: &Kinds<'_>,
) -> Option<(String, FileKind, Option<String>)> {
    let rel_path = relative_path(root, path);
    if exclude.matches(&rel_path) {
        return None;
    }
    // The folders below the walked one, each a real folder (not a link to one).
    let components: Vec<Component<'_>> = path.components().collect();
    let (_, folders) = components.split_last()?;
    let mut folder = PathBuf::new();
    for (index, component) in folders.iter().enumerate() {
        folder.push(component);
        if index >= dir_len && !std::fs::symlink_metadata(&folder).ok()?.is_dir() {
            return None;
        }
    }
    let file_type = std::fs::symlink_metadata(path).ok()?.file_type();
    if file_type.is_symlink() {
        let (kind, problem) = resolve_symlink(path, &rel_path, canonical_root, kinds)?;
        return Some((rel_path, kind, problem));
    }
    let kind = kinds.of(&rel_path)?;
    let problem = (!file_type.is_file()).then(|| not_regular(file_type));
    Some((rel_path, kind, problem))
}

/// Rearranges `items` so that position `i` holds the item that was at `order[i]` (`order` a
/// permutation of the positions), following each cycle with swaps.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut current = start;
        // A position whose item is in place points at itself.
        while order[current] != current {
            let next = order[current];
            order[current] = current;
            if next == start {
                break;
            }
            items.swap(current, next);
            current = next;
        }
    }
}

/// Globs written relative to a folder (the config file's, or the current folder for `--exclude`),
/// matched against paths relative to the lint root.
#[derive(Debug, Clone)]
pub struct GlobFilter {
    /// Each set of globs with the lint root's path below the folder they are relative to,
    /// `/`-terminated; a set whose folder does not hold the lint root is left out (no glob of it
    /// can match).
    parts: Vec<(globset::GlobSet, String)>,
    /// Folders (relative to the lint root, `""` for the root itself) where nothing matches: an
    /// excluded folder named on the command line is linted all the same.
    lifted: Vec<String>,
}

impl GlobFilter {
    pub fn new(base: &Path, root: &Path, globs: &[String]) -> Result<Self, String> {
        GlobFilter::none().and(base, root, globs)
    }

    /// This filter, also matching `globs` written relative to `base`.
    pub fn and(mut self, base: &Path, root: &Path, globs: &[String]) -> Result<Self, String> {
        let Some(set) = glob_set(globs)? else {
            return Ok(self);
        };
        let prefix = match (base.canonicalize(), root.canonicalize()) {
            (Ok(base), Ok(root)) => root.strip_prefix(&base).ok().map(|rel| {
                let rel = relative_path(Path::new(""), rel);
                if rel.is_empty() {
                    String::new()
                } else {
                    format!("{rel}/")
                }
            }),
            _ => None,
        };
        if let Some(prefix) = prefix {
            self.parts.push((set, prefix));
        }
        Ok(self)
    }

    /// Globs written relative to the lint root itself (a git revision's configuration, at the
    /// top of its tree): nothing on disk is asked where they are relative to.
    pub fn rooted(globs: &[String]) -> Result<Self, String> {
        let mut filter = GlobFilter::none();
        if let Some(set) = glob_set(globs)? {
            filter.parts.push((set, String::new()));
        }
        Ok(filter)
    }

    pub fn none() -> Self {
        GlobFilter {
            parts: Vec::new(),
            lifted: Vec::new(),
        }
    }

    /// Whether `rel_path` (relative to the lint root) matches one of the globs.
    pub fn matches(&self, rel_path: &str) -> bool {
        let lifted = self.lifted.iter().any(|folder| {
            folder.is_empty()
                || rel_path
                    .strip_prefix(folder.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        });
        !lifted
            && self
                .parts
                .iter()
                .any(|(set, prefix)| set.is_match(format!("{prefix}{rel_path}")))
    }

    /// Whether the folder at `rel_folder` (relative to the lint root, `""` for the root) is
    /// excluded: its files are, as a `SKILL.md` at its top would be (the globs match files, and
    /// `vendor/**` is how a folder is excluded).
    pub fn matches_folder(&self, rel_folder: &str) -> bool {
        if rel_folder.is_empty() {
            self.matches("SKILL.md")
        } else {
            self.matches(&format!("{rel_folder}/SKILL.md"))
        }
    }

    /// Matches nothing below `rel_folder` any more (an excluded folder named on the command
    /// line).
    pub fn lift(&mut self, rel_folder: String) {
        self.lifted.push(rel_folder);
    }
}

/// The globs compiled as `exclude` and `include` globs are (`*` stops at `/`); `None` for none.
fn glob_set(globs: &[String]) -> Result<Option<globset::GlobSet>, String> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut builder = globset::GlobSetBuilder::new();
    for glob in globs {
        let compiled = globset::GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
            .map_err(|e| format!("invalid glob `{glob}`: {}", e.kind()))?;
        builder.add(compiled);
    }
    builder.build().map(Some).map_err(|e| e.to_string())
}

/// Folders nested deeper than this below a walked folder are reported, not walked: far beyond
/// any real repository, and it bounds the walker's per-entry cost, which grows with the depth.
pub const MAX_DEPTH: usize = 256;

/// Why a file whose name skilllint reads is left out once its text is known, or `None` when it
/// is read. This completes [`classify`] for what discovery found:
/// - a SECRETS.md is an AIP-19 manifest only when it opens with YAML frontmatter: the name is
///   also common for a prose security checklist;
/// - a lowercase `skill.md` (or another case of `SKILL.md`, such as `Skill.md`) is a skill only
///   when its frontmatter has a top-level `name` or `description`: the name is also common for a
///   page about skills (a site's `docs/skill.md`), and a file without those keys is no skill to
///   any agent.
///   `SKILL.md` is always a skill, and an unclosed frontmatter block is read (SK002 says what is
///   wrong with it).
///
/// A file found by the walk is then left out silently, as any other file skilllint does not
/// read; one named on the command line gets the returned reason.
pub fn not_read_reason(kind: FileKind, text: &str) -> Option<&'static str> {
    use crate::parse::frontmatter::{opens, split, Split};
    match kind {
        FileKind::Secrets if !opens(text) => Some(PROSE_SECRETS_NOT_READ),
        // A Markdown file under `agents/` without frontmatter is a prompt or a note (a skill's
        // `agents/grader.md`), not a subagent, which always has frontmatter.
        FileKind::Agent if !opens(text) => Some(NOT_AN_AGENT),
        FileKind::Hooks if !crate::model::hooks::looks_like_hooks(text) => Some(NOT_HOOKS),
        FileKind::McpConfig if !crate::model::mcp_config::looks_like_mcp_config(text) => {
            Some(NOT_AN_MCP_CONFIG)
        }
        FileKind::Tools { by_content: true } if !crate::model::tools::reads_as_tool_list(text) => {
            Some(NOT_A_TOOL_LIST)
        }
        FileKind::Skill { misnamed: true } => match split(text) {
            Split::Missing => Some(NOT_A_LOWERCASE_SKILL),
            Split::Unterminated { .. } => None,
            Split::Found(frontmatter) => {
                let yaml = text.get(frontmatter.yaml.start..frontmatter.yaml.end)?;
                let names_a_skill = yaml.lines().any(|line| {
                    let key = line
                        .split_once(':')
                        .map(|(key, _)| key.trim_end().trim_matches(['"', '\'']));
                    // Top-level only: an indented `name:` belongs to a nested mapping.
                    !line.starts_with([' ', '\t']) && matches!(key, Some("name" | "description"))
                });
                (!names_a_skill).then_some(NOT_A_LOWERCASE_SKILL)
            }
        },
        _ => None,
    }
}

/// How every reason a file is not read starts: a path named on the command line that gets one is
/// reported as SL004 (no file kind skilllint reads), not as SL001 (could not be read).
pub const NOT_READ_PREFIX: &str = "skilllint does not read this file:";

const NOT_A_TOOL_LIST: &str = "skilllint does not read this file: it is not a file kind skilllint reads (a JSON file is read as a tool list when it holds tools of a known dialect: MCP, OpenAI, Anthropic, forge, script, Docker's catalogue, a `schema` + `command` manifest, or a catalogue of names and descriptions; see `skilllint rule TJ002`)";

const NOT_AN_AGENT: &str = "skilllint does not read this file: a Markdown file under `agents/` is read as a subagent only when it starts with YAML frontmatter (`---` on the first line)";

const NOT_HOOKS: &str = "skilllint does not read this file: a `hooks.json` is read as a hook configuration only when it has a `hooks` key";

const NOT_AN_MCP_CONFIG: &str = "skilllint does not read this file: an `mcp.json` is read as an MCP configuration only when it has an `mcpServers` or `servers` key";

pub const PROSE_SECRETS_NOT_READ: &str = "skilllint does not read this file: a SECRETS.md is read as an AIP-19 manifest only when it starts with YAML frontmatter (`---` on the first line)";

const NOT_A_LOWERCASE_SKILL: &str = "skilllint does not read this file: a `skill.md` (or another case of `SKILL.md`) is read as a skill only when its frontmatter has a `name` or `description` (a `SKILL.md` always is)";

/// Why a file named on the command line is not read.
const NOT_READ_WHEN_NAMED: &str = "skilllint does not read this file: it is not a file kind skilllint reads (SKILL.md, tool lists: tools.json, *.tools.json, functions.json, mcp-tools.json, __toolsnaps__/*.snap and any JSON file that holds tools, requirement.yaml, TOOL.md, DRIVER.md, CLI.md, SECRETS.md, plugin manifests and marketplaces, hooks.json, .mcp.json/mcp.json, commands/*.md and agents/*.md, AGENTS.md/CLAUDE.md, and Markdown under references/)";

fn too_deep() -> String {
    format!("this folder is nested deeper than {MAX_DEPTH} folders; nothing in it was linted")
}

fn unreadable(error: &std::io::Error) -> String {
    format!("this path cannot be read ({error}); nothing in it was linted")
}

/// The problem with a path that is neither a regular file nor a folder; it is never opened.
fn not_regular(file_type: std::fs::FileType) -> String {
    #[cfg(unix)]
    let what = {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            "a FIFO"
        } else if file_type.is_socket() {
            "a socket"
        } else if file_type.is_char_device() || file_type.is_block_device() {
            "a device"
        } else {
            "not a file"
        }
    };
    #[cfg(not(unix))]
    let what = {
        let _ = file_type;
        "not a file"
    };
    format!("not a regular file ({what}); it was not read")
}

const LINK_OUT_OF_ROOT: &str =
    "the file is a symlink to a place outside the lint root; it was not read";

const LINK_LOOP: &str =
    "symlink loop: this folder leads back to a folder that encloses it; it was not followed";

/// The problem of a link that leads nowhere, with the system's words for why.
fn link_not_followed(error: &dyn std::fmt::Display) -> String {
    format!("the file is a symlink that cannot be followed ({error}); it was not read")
}

/// Whether `path`, named on the command line, is a symlink that sits inside the lint root but
/// leads out of it. A path that is itself outside the root (`skilllint /elsewhere/SKILL.md`) is
/// the user's own choice and is read.
fn named_link_leaves_root(path: &Path, canonical_root: &Path) -> bool {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return false;
    }
    resolves_inside(crate::source::folder_of(path), canonical_root)
        && !resolves_inside(path, canonical_root)
}

/// Whether `path`, links resolved, is inside the (canonical) lint root.
fn resolves_inside(path: &Path, canonical_root: &Path) -> bool {
    path.canonicalize()
        .is_ok_and(|target| target.starts_with(canonical_root))
}

/// What to do with a symlink the walk met (links are never followed by the walker): `None` to
/// pass over it, else the kind to record and the problem that stops it being read, if any.
///
/// A link to a folder is not walked: a target inside the root is walked under its own name (an
/// alias would lint it twice, and give a fix a second path to the same file), and one outside is
/// not ours to read. A link used from a SKILL.md is checked where it is used (SK011). Only a loop
/// is reported, as before. A link to a file is read when its target stays inside the root.
fn resolve_symlink(
    path: &Path,
    rel_path: &str,
    canonical_root: &Path,
    kinds: &Kinds<'_>,
) -> Option<(FileKind, Option<String>)> {
    let kind = kinds.of(rel_path);
    let target = match std::fs::metadata(path) {
        Ok(target) => target,
        // A dangling link is reported only under a name we read: `build -> out/` in a fresh
        // checkout is common and skips nothing we would read.
        Err(error) => return kind.map(|kind| (kind, Some(link_not_followed(&error)))),
    };
    if target.is_dir() {
        let leads_back = path.canonicalize().is_ok_and(|target| {
            path.parent()
                .and_then(|parent| parent.canonicalize().ok())
                .is_some_and(|parent| parent.starts_with(&target))
        });
        return leads_back.then(|| (FileKind::Unfollowed, Some(LINK_LOOP.to_string())));
    }
    let kind = kind?;
    if !resolves_inside(path, canonical_root) {
        return Some((kind, Some(LINK_OUT_OF_ROOT.to_string())));
    }
    if !target.is_file() {
        return Some((kind, Some(not_regular(target.file_type()))));
    }
    Some((kind, None))
}

/// The path and a message for a walk error: a folder or entry that could not be read (nothing
/// under it was linted), or a symlink loop. Errors loading an ignore file (`Partial`, a bad glob
/// in a `.gitignore`) are not reported: they make the walk exclude less, never skip a file.
fn walk_problem(error: &ignore::Error) -> Option<(PathBuf, String)> {
    fn innermost(error: &ignore::Error, path: Option<&Path>) -> Option<(PathBuf, String)> {
        match error {
            ignore::Error::Loop { child, ancestor } => Some((
                child.clone(),
                format!(
                    "symlink loop: this folder leads back to {}; it was not followed",
                    ancestor.display()
                ),
            )),
            ignore::Error::WithPath { path, err } => innermost(err, Some(path)),
            ignore::Error::WithDepth { err, .. } => innermost(err, path),
            ignore::Error::Io(io) => path.map(|path| (path.to_path_buf(), unreadable(io))),
            ignore::Error::Partial(_)
            | ignore::Error::WithLineNumber { .. }
            | ignore::Error::Glob { .. }
            | ignore::Error::UnrecognizedFileType(_)
            | ignore::Error::InvalidDefinition => None,
        }
    }
    innermost(error, None)
}

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
mod tests {
    use super::*;

    #[test]
    fn a_lowercase_skill_md_is_read_only_when_it_names_a_skill() {
        let lowercase = FileKind::Skill { misnamed: true };
        let read = |text: &str| not_read_reason(lowercase, text).is_none();
        assert!(read("---\nname: forms\n---\n"));
        assert!(read("\u{feff}---\n\"description\": fills forms\n---\n"));
        assert!(
            read("---\nname: [unterminated\n"),
            "unclosed: SK002's to report"
        );
        assert!(!read("# Writing a skill\n"), "no frontmatter");
        assert!(
            !read("---\nurl: /docs/skill/\nmeta:\n  name: x\n---\n"),
            "nested name"
        );
        // The uppercase file is always a skill, whatever it holds.
        assert!(not_read_reason(FileKind::Skill { misnamed: false }, "# Notes\n").is_none());
        assert!(not_read_reason(FileKind::Secrets, "# Checklist\n").is_some());
        assert!(not_read_reason(FileKind::Secrets, "---\nsecrets: []\n---\n").is_none());
    }

    #[test]
    fn permute_places_each_item_where_the_order_says() {
        let orders: [&[usize]; 5] = [&[], &[0], &[1, 0], &[2, 0, 1], &[3, 1, 4, 0, 2, 5]];
        for order in orders {
            let mut items: Vec<usize> = (10..10 + order.len()).collect();
            permute(&mut items, order.to_vec());
            let expected: Vec<usize> = order.iter().map(|i| i + 10).collect();
            assert_eq!(items, expected, "order {order:?}");
        }
    }

    #[test]
    fn classifies_known_files() {
        let req = vec!["requirement.yaml".to_string()];
        assert_eq!(
            classify("SKILL.md", &req),
            Some(FileKind::Skill { misnamed: false })
        );
        let by_name = Some(FileKind::Tools { by_content: false });
        assert_eq!(classify("github.tools.json", &req), by_name);
        assert_eq!(classify("a/tools.json", &req), by_name);
        // Tool lists under other names are read for their content.
        for path in [
            "functions.json",
            "server/mcp-tools.json",
            "src/toolDefinitions.json",
            "anthropic_tools.json",
            "pkg/github/__toolsnaps__/get_me.snap",
            "__toolsnaps__/get_me.json",
        ] {
            assert_eq!(classify(path, &req), Some(BY_CONTENT), "{path}");
        }
        // A Jest snapshot folder, or a `.snap` elsewhere, is not a tool snapshot.
        assert_eq!(classify("src/__snapshots__/app.snap", &req), None);
        assert_eq!(classify("get_me.snap", &req), None);
        assert_eq!(classify("package.json", &req), None);
        assert_eq!(
            classify("requirement.yaml", &req),
            Some(FileKind::Requirement)
        );
        assert_eq!(classify("requirement.yml", &req), None);
        assert_eq!(classify("README.md", &req), None);
        assert_eq!(
            classify(".tools/pricing/TOOL.md", &req),
            Some(FileKind::Contract)
        );
        assert_eq!(classify("docs/TOOL.md", &req), None);
        assert_eq!(
            classify(".drivers/a/DRIVER.md", &req),
            Some(FileKind::Driver { cli: false })
        );
        assert_eq!(
            classify(".tools/a/DRIVER.md", &req),
            Some(FileKind::Driver { cli: false })
        );
        assert_eq!(
            classify(".cli/gh/CLI.md", &req),
            Some(FileKind::Driver { cli: true })
        );
        assert_eq!(classify("CLI.md", &req), None);
        assert_eq!(classify("ops/SECRETS.md", &req), Some(FileKind::Secrets));
    }

    fn io_error_at(path: &str, depth: usize, kind: std::io::ErrorKind) -> ignore::Error {
        ignore::Error::WithPath {
            path: PathBuf::from(path),
            err: Box::new(ignore::Error::WithDepth {
                depth,
                err: Box::new(ignore::Error::Io(std::io::Error::from(kind))),
            }),
        }
    }

    #[test]
    fn a_folder_the_walk_cannot_read_is_a_problem_at_that_folder() {
        // As the walker reports a folder it cannot list.
        for kind in [
            std::io::ErrorKind::PermissionDenied,
            std::io::ErrorKind::InvalidFilename,
            std::io::ErrorKind::Other,
        ] {
            let (path, message) =
                walk_problem(&io_error_at("root/locked", 1, kind)).expect("reported");
            assert_eq!(path, PathBuf::from("root/locked"));
            assert!(message.contains("cannot be read"), "{message}");
            assert!(message.contains("nothing in it was linted"), "{message}");
        }
        // Loops keep their own message.
        let (path, message) = walk_problem(&ignore::Error::WithDepth {
            depth: 2,
            err: Box::new(ignore::Error::Loop {
                ancestor: PathBuf::from("root"),
                child: PathBuf::from("root/a/back"),
            }),
        })
        .expect("reported");
        assert_eq!(path, PathBuf::from("root/a/back"));
        assert!(message.contains("symlink loop"), "{message}");
    }

    #[test]
    fn ignore_file_problems_skip_nothing_and_are_not_reported() {
        // An unreadable `.gitignore` or a bad glob in one makes the walk exclude less.
        let partial = ignore::Error::Partial(vec![io_error_at(
            "root/.gitignore",
            1,
            std::io::ErrorKind::PermissionDenied,
        )]);
        assert_eq!(walk_problem(&partial), None);
        let bad_glob = ignore::Error::WithPath {
            path: PathBuf::from("root/.gitignore"),
            err: Box::new(ignore::Error::WithLineNumber {
                line: 3,
                err: Box::new(ignore::Error::Glob {
                    glob: Some("[".to_string()),
                    err: "unclosed character class".to_string(),
                }),
            }),
        };
        assert_eq!(walk_problem(&bad_glob), None);
        // An I/O error with no path names nothing to put the diagnostic on.
        let pathless = ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::Other));
        assert_eq!(walk_problem(&pathless), None);
    }

    #[test]
    fn relative_paths_use_forward_slashes() {
        assert_eq!(
            relative_path(Path::new("."), Path::new("./a/b/SKILL.md")),
            "a/b/SKILL.md"
        );
        assert_eq!(
            relative_path(Path::new("root"), Path::new("root/x.json")),
            "x.json"
        );
    }

    #[cfg(unix)]
    #[test]
    fn paths_outside_the_root_print_as_written() {
        // Absolute stays absolute, `..` stays `..`: the user recognises what they typed.
        assert_eq!(
            relative_path(Path::new("."), Path::new("/tmp/x/s/SKILL.md")),
            "/tmp/x/s/SKILL.md"
        );
        assert_eq!(
            relative_path(Path::new("."), Path::new("/tmp/./x/s/SKILL.md")),
            "/tmp/x/s/SKILL.md"
        );
        assert_eq!(
            relative_path(Path::new("."), Path::new("../x/s/SKILL.md")),
            "../x/s/SKILL.md"
        );
        assert_eq!(
            relative_path(Path::new("/tmp/x"), Path::new("/tmp/x/s/SKILL.md")),
            "s/SKILL.md"
        );
    }

    #[cfg(unix)]
    #[test]
    fn relative_paths_escape_each_name_the_same_way_on_every_route() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(OsStr::from_bytes(b"root/a\\b/c\xff\x1b/SKILL.md"));
        let expected = r"a\b/c\xff\u{1b}/SKILL.md";
        // The walker's clean paths and a path that needs the component walk (`./`).
        assert_eq!(relative_path(Path::new("root"), path), expected);
        let dotted = Path::new(OsStr::from_bytes(b"./root/a\\b/c\xff\x1b/SKILL.md"));
        assert_eq!(
            relative_path(Path::new("."), dotted),
            format!("root/{expected}")
        );
    }
}
