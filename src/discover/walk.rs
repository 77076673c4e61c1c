//! The walk of the lint root: files named on the command line, the parallel walk of folders
//! honouring ignore files, the tracked files those hid, and the sort of what was found.

use super::filter::GlobFilter;
use super::names::{classify, named_source_kind, BY_CONTENT, NOT_READ_WHEN_NAMED};
use super::problems::{
    named_link_leaves_root, not_regular, resolve_symlink, too_deep, unreadable, walk_problem,
    LINK_OUT_OF_ROOT,
};
use super::{
    is_skipped_dir, kind_context, opaque_candidate, relative_path, Discovered, Kinds, PassedOver,
    MAX_DEPTH,
};
use crate::model::bundle::Candidate;
use crate::model::FileKind;
use ignore::{WalkBuilder, WalkState};
use rayon::slice::ParallelSliceMut;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// Walks `paths` (directories are walked honouring ignore files; files named explicitly are
/// always taken) and returns the classified files sorted by relative path, each with what `load`
/// made of it. `load` runs on the walking threads as files are found, so reading overlaps the
/// walk.
#[allow(clippy::too_many_arguments)]
pub fn discover<T: Send + Sync>(
    root: &Path,
    paths: &[PathBuf],
    requirement_files: &[String],
    source: bool,
    threads: usize,
    exclude: &GlobFilter,
    include: &GlobFilter,
    walked_apart: &[PathBuf],
    load: impl Fn(&Discovered) -> T + Sync,
) -> Walked<T> {
    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let kinds = Kinds {
        requirement_files,
        include,
        context: kind_context(&canonical_root),
        source,
    };
    let found: Mutex<Vec<(Discovered, T)>> = Mutex::new(Vec::new());
    // Archives and native executables the walk passes (SK022 keeps those in skill folders).
    let opaque: Mutex<Vec<Candidate>> = Mutex::new(Vec::new());
    // Files of a kind skilllint reads that `exclude` passes over (a diff compares them).
    let passed_over = PassedOver::default();
    // Configuration files below the root (each governs its folder's files).
    let configs: Mutex<Vec<(String, PathBuf)>> = Mutex::new(Vec::new());
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
    let directories = named_paths(root, paths, &canonical_root, &kinds, &push);
    let walk = Walk {
        root,
        canonical_root: &canonical_root,
        exclude,
        kinds: &kinds,
        opaque: &opaque,
        passed_over: &passed_over,
        configs: &configs,
        walked_apart,
    };
    walk.folders(&directories, threads, &push);
    let mut files = found.into_inner().unwrap_or_else(|e| e.into_inner());
    walk.tracked_hidden(&directories, &load, &mut files);
    let mut opaque = opaque.into_inner().unwrap_or_else(|e| e.into_inner());
    opaque.sort_unstable();
    sort_found(&mut files);
    let mut configs = configs.into_inner().unwrap_or_else(|e| e.into_inner());
    configs.sort_unstable();
    Walked {
        files,
        opaque,
        passed_over: passed_over.take(),
        configs,
    }
}

/// What [`discover`] found.
pub struct Walked<T> {
    /// The classified files, sorted by relative path, each with what `load` made of it.
    pub files: Vec<(Discovered, T)>,
    /// Archives and native executables the walk passed (SK022 keeps those in skill folders).
    pub opaque: Vec<Candidate>,
    /// Files of a kind skilllint reads that `exclude` passed over, sorted.
    pub passed_over: Vec<String>,
    /// Every entry named as a configuration file (`skilllint.toml`, `.skilllint.toml`) the walk
    /// met, by relative path, sorted: not read here ([`crate::config::check_candidate`] decides
    /// whether one is read).
    pub configs: Vec<(String, PathBuf)>,
}

/// Takes each path named on the command line that is not a folder (a file, or one that cannot
/// be read) through `push`, and returns the folders, to be walked.
fn named_paths<P>(
    root: &Path,
    paths: &[PathBuf],
    canonical_root: &Path,
    kinds: &Kinds<'_>,
    push: &P,
) -> Vec<PathBuf>
where
    P: Fn(String, PathBuf, FileKind, Option<String>),
{
    let (requirement_files, include) = (kinds.requirement_files, kinds.include);
    let mut directories = Vec::new();
    for path in paths {
        // `metadata` follows a link the user named (an explicit path wins) but opens nothing:
        // the type is known before anything is read.
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => directories.push(path.clone()),
            Ok(metadata) => {
                let rel_path = relative_path(root, path);
                let kind = classify(&rel_path, requirement_files)
                    .or_else(|| {
                        (include.matches(&rel_path) || rel_path.ends_with(".json"))
                            .then_some(BY_CONTENT)
                    })
                    .or_else(|| kinds.source.then(|| named_source_kind(&rel_path)).flatten());
                let problem = if named_link_leaves_root(path, canonical_root) {
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
    directories
}

/// What the walk of the folders reads and where it puts what it passes.
struct Walk<'w> {
    root: &'w Path,
    canonical_root: &'w Path,
    exclude: &'w GlobFilter,
    kinds: &'w Kinds<'w>,
    /// Archives and native executables the walk passes.
    opaque: &'w Mutex<Vec<Candidate>>,
    /// Files of a kind skilllint reads that `exclude` passes over.
    passed_over: &'w PassedOver,
    /// Entries named as configuration files.
    configs: &'w Mutex<Vec<(String, PathBuf)>>,
    /// Folders walked on their own (the folders named in a run widened to the repository
    /// around them): another walk that meets one passes it, so that each is walked once, as
    /// named (an excluded or ignored folder that is named is still read).
    walked_apart: &'w [PathBuf],
}

impl Walk<'_> {
    /// Walks `directories` in parallel, honouring ignore files, and takes every file of a kind
    /// skilllint reads (and every problem met) through `push`.
    fn folders<P>(&self, directories: &[PathBuf], threads: usize, push: &P)
    where
        P: Fn(String, PathBuf, FileKind, Option<String>) + Sync,
    {
        let Some((first, rest)) = directories.split_first() else {
            return;
        };
        let apart: std::sync::Arc<Vec<PathBuf>> = std::sync::Arc::new(
            self.walked_apart
                .iter()
                .map(|dir| crate::source::without_cur_dir(dir))
                .collect(),
        );
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
                    if !apart.is_empty()
                        && apart.contains(&crate::source::without_cur_dir(entry.path()))
                    {
                        return false;
                    }
                }
                true
            });
        builder
            .build_parallel()
            .run(|| Box::new(move |entry| self.visit(entry, push)));
    }

    /// One entry of the walk.
    fn visit<P>(&self, entry: Result<ignore::DirEntry, ignore::Error>, push: &P) -> WalkState
    where
        P: Fn(String, PathBuf, FileKind, Option<String>),
    {
        let (root, exclude) = (self.root, self.exclude);
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
            self.passed_over.note(self.kinds, &rel_path);
            return WalkState::Continue;
        }
        if crate::config::CONFIG_NAMES
            .iter()
            .any(|name| entry.file_name().as_encoded_bytes() == name.as_bytes())
        {
            let mut guard = self.configs.lock().unwrap_or_else(|e| e.into_inner());
            guard.push((rel_path, entry.into_path()));
            return WalkState::Continue;
        }
        if file_type.is_symlink() {
            if let Some((kind, problem)) =
                resolve_symlink(entry.path(), &rel_path, self.canonical_root, self.kinds)
            {
                push(rel_path, entry.into_path(), kind, problem);
            }
            return WalkState::Continue;
        }
        let kind = if file_type.is_file() {
            self.kinds.of_file(&rel_path)
        } else {
            self.kinds.of(&rel_path)
        };
        let Some(kind) = kind else {
            if file_type.is_file() {
                if let Some(candidate) = opaque_candidate(rel_path, &entry) {
                    let mut guard = self.opaque.lock().unwrap_or_else(|e| e.into_inner());
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
    }

    /// Ignore files decide only for files git does not track: a tracked file they hid is added
    /// to `files` here, as the walk would have found it.
    fn tracked_hidden<T>(
        &self,
        directories: &[PathBuf],
        load: &impl Fn(&Discovered) -> T,
        files: &mut Vec<(Discovered, T)>,
    ) {
        let tracked = tracked_files(directories, self.kinds.requirement_files);
        if tracked.is_empty() {
            return;
        }
        let seen: std::collections::HashSet<&Path> = files
            .iter()
            .map(|(file, _)| file.abs_path.as_path())
            .collect();
        let hidden: Vec<(PathBuf, usize)> = tracked
            .into_iter()
            .filter(|(path, _)| !seen.contains(path.as_path()))
            .collect();
        for (path, dir_len) in hidden {
            if let Some((rel_path, kind, problem)) = tracked_entry(
                self.root,
                &path,
                dir_len,
                self.canonical_root,
                self.exclude,
                self.kinds,
            ) {
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
}

/// Sorts what was found by relative path and keeps one entry a path.
fn sort_found<T: Send + Sync>(files: &mut Vec<(Discovered, T)>) {
    // Sorted through a permutation: the entries are large, and a sort moves each one many
    // times, where the permutation then moves each once. Inside the lint's thread pool, so the
    // sort uses its threads. Entries for one path are ordered in full: the one without a
    // problem first, as a file named on the command line is pushed.
    fn key<T>(file: &(Discovered, T)) -> (&String, &Option<String>, &PathBuf) {
        (&file.0.rel_path, &file.0.problem, &file.0.abs_path)
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.par_sort_unstable_by(|a, b| key(&files[*a]).cmp(&key(&files[*b])));
    permute(files, order);
    files.dedup_by(|a, b| a.0.rel_path == b.0.rel_path);
}

/// The files git tracks under each walked folder that skilllint may read (by name), from the
/// index of the work tree the folder is in (the nearest folder above it with a `.git` folder), as
/// paths the walk would have produced (the folder as given, then the tracked path below it), each
/// with the length in components of the folder part. Empty outside a git work tree, in a linked
/// work tree or submodule (a `.git` file is not followed), and when the index cannot be read.
pub(super) fn tracked_files(
    directories: &[PathBuf],
    requirement_files: &[String],
) -> Vec<(PathBuf, usize)> {
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
pub(super) fn git_path_bytes(path: &Path) -> Option<Vec<u8>> {
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
pub(super) fn path_of_git_bytes(bytes: &[u8]) -> Option<PathBuf> {
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
pub(super) fn tracked_entry(
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
pub(super) fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
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
