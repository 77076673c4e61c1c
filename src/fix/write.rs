//! Writing fixes to disk in a repository that may have been written by an attacker: every file
//! name, link and mode in it is hostile. A fix writes only inside the lint root, only to the file
//! it fixed, and never through a link:
//!
//! - the new text goes to a temporary file created exclusively (`O_EXCL`, random name, mode
//!   0600) in the target's real folder, gets the target's mode (and owner, when running as root)
//!   on the open handle, and replaces the target by a rename, so nothing planted at a predictable
//!   name can redirect the write;
//! - a target that is a symlink is fixed at the file it resolves to when that is inside the lint
//!   root (the link itself stays as it is), and refused otherwise;
//! - a target with several hard links is refused: writing it in place would change the other
//!   names too, possibly outside the root, and replacing it would silently break the links;
//! - right before the rename the target must still be the file that was checked, holding the
//!   text that was linted: a concurrent edit is never overwritten;
//! - a rename (SK012) moves only a regular file whose folder is reached from the lint root
//!   without a symlinked folder, and never replaces an existing file.
//!
//! One file that cannot be written does not stop the others: [`apply`] reports each file.

use super::FixRun;
use std::collections::BTreeMap;
use std::fmt;
use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

/// The folders fixes may write into: the lint root and the paths named on the command line, each
/// canonical (links resolved), so a path is inside when its canonical form starts with one.
#[derive(Debug, Clone)]
pub struct WriteScope {
    /// The canonical lint root, which relative paths start from.
    root: Option<PathBuf>,
    /// Folders named on the command line (or holding a file named there), canonical.
    named: Vec<PathBuf>,
}

impl WriteScope {
    /// The scope of a run over `named_paths` reported relative to `lint_root`. A named folder is
    /// taken as it resolves (the user chose it); a named file vouches only for its own folder,
    /// not for where a link at its name points.
    pub fn new(lint_root: &Path, named_paths: &[PathBuf]) -> Self {
        let named = named_paths
            .iter()
            .filter_map(|path| {
                if path.is_dir() {
                    path.canonicalize().ok()
                } else {
                    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
                    parent.unwrap_or(Path::new(".")).canonicalize().ok()
                }
            })
            .collect();
        WriteScope {
            root: lint_root.canonicalize().ok(),
            named,
        }
    }

    fn contains(&self, canonical: &Path) -> bool {
        self.root.iter().chain(&self.named).any(|folder| canonical.starts_with(folder))
    }
}

/// Why a fixed file was not written (or a file not renamed). Worded to follow "`path` not
/// fixed: ".
#[derive(Debug)]
pub enum NotFixed {
    /// The path resolves to a place outside the lint root.
    OutsideRoot,
    /// The path (or what it resolves to) is not a regular file.
    NotRegularFile,
    /// The file has this many hard links.
    HardLinked(u64),
    /// The file's bytes are no longer the text that was linted.
    ChangedSinceLinted,
    /// The file was replaced by another one while the fix was being written.
    Replaced,
    /// A rename's source is a symlink.
    Symlink,
    /// A rename's folder is reached through a symlinked folder (an alias of the real one).
    SymlinkedFolder,
    /// A rename's new name is taken.
    TargetExists(String),
    /// The same file was reached by several paths whose fixes differ.
    FixedDifferentlyAs(String),
    /// The same file as another path, which could not be fixed (the reason is given there).
    SameFileAs(String),
    /// The operation failed: what was being done, and the error.
    Io(&'static str, std::io::Error),
}

impl fmt::Display for NotFixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotFixed::OutsideRoot => write!(f, "it leads outside the lint root"),
            NotFixed::NotRegularFile => write!(f, "it is not a regular file"),
            NotFixed::HardLinked(links) => write!(
                f,
                "it has {links} hard links: writing it in place would change the other names \
                 too (maybe outside the lint root), and replacing it would break the links"
            ),
            NotFixed::ChangedSinceLinted => write!(
                f,
                "it changed since it was linted; the new content is kept, lint it again"
            ),
            NotFixed::Replaced => write!(f, "it was replaced while the fix was being written"),
            NotFixed::Symlink => write!(
                f,
                "it is a symlink: renaming it would rename the link, not the file"
            ),
            NotFixed::SymlinkedFolder => write!(
                f,
                "it is reached through a symlinked folder; the real file is not renamed \
                 through an alias"
            ),
            NotFixed::TargetExists(name) => write!(f, "`{name}` already exists"),
            NotFixed::FixedDifferentlyAs(other) => write!(
                f,
                "it is the same file as {other}, whose fixes differ; neither is written"
            ),
            NotFixed::SameFileAs(other) => {
                write!(f, "it is the same file as {other}, which was not fixed")
            }
            NotFixed::Io(action, error) => write!(f, "cannot {action} it: {error}"),
        }
    }
}

/// The identity of a file on disk: what a rename or a link swap changes.
fn identity(metadata: &std::fs::Metadata) -> (u64, u64) {
    (metadata.dev(), metadata.ino())
}

/// Resolves `path` to the real file it names, and checks it may be written: inside the scope, a
/// regular file, with a single link. Returns the canonical path and the file's metadata.
fn resolve_target(
    path: &Path,
    scope: &WriteScope,
) -> Result<(PathBuf, std::fs::Metadata), NotFixed> {
    let canonical = path
        .canonicalize()
        .map_err(|error| NotFixed::Io("resolve", error))?;
    if !scope.contains(&canonical) {
        return Err(NotFixed::OutsideRoot);
    }
    let metadata = std::fs::symlink_metadata(&canonical)
        .map_err(|error| NotFixed::Io("inspect", error))?;
    if !metadata.file_type().is_file() {
        return Err(NotFixed::NotRegularFile);
    }
    if metadata.nlink() > 1 {
        return Err(NotFixed::HardLinked(metadata.nlink()));
    }
    Ok((canonical, metadata))
}

/// Checks that `canonical` is still the file `expected` described and still holds
/// `expected_original`, reading through a handle whose identity is checked too (so a swap
/// between the look-up and the open is seen).
fn still_as_linted(
    canonical: &Path,
    expected: &std::fs::Metadata,
    expected_original: &str,
) -> Result<(), NotFixed> {
    let now = std::fs::symlink_metadata(canonical).map_err(|_| NotFixed::Replaced)?;
    if !now.file_type().is_file() || identity(&now) != identity(expected) {
        return Err(NotFixed::Replaced);
    }
    if now.nlink() > 1 {
        return Err(NotFixed::HardLinked(now.nlink()));
    }
    let handle = std::fs::File::open(canonical).map_err(|error| NotFixed::Io("read", error))?;
    let opened = handle
        .metadata()
        .map_err(|error| NotFixed::Io("read", error))?;
    if identity(&opened) != identity(expected) {
        return Err(NotFixed::Replaced);
    }
    // One byte more than the original is enough to tell a longer file, and bounds the read of a
    // file that grew meanwhile.
    let limit = expected_original.len() as u64 + 1;
    let mut current = Vec::with_capacity(expected_original.len());
    handle
        .take(limit)
        .read_to_end(&mut current)
        .map_err(|error| NotFixed::Io("read", error))?;
    if current != expected_original.as_bytes() {
        return Err(NotFixed::ChangedSinceLinted);
    }
    Ok(())
}

/// Gives the temporary file the target's owner (when running as root) and mode, on the open
/// handle: never by path, which a link could redirect.
fn copy_owner_and_mode(temp: &std::fs::File, target: &std::fs::Metadata) -> Result<(), NotFixed> {
    let created = temp
        .metadata()
        .map_err(|error| NotFixed::Io("write", error))?;
    let same_owner = (created.uid(), created.gid()) == (target.uid(), target.gid());
    if !same_owner {
        if created.uid() == 0 {
            // Root fixing another user's file hands it back to that user: fail rather than leave
            // a root-owned file in their repository.
            std::os::unix::fs::fchown(temp, Some(target.uid()), Some(target.gid()))
                .map_err(|error| NotFixed::Io("keep the owner of", error))?;
        } else if created.gid() != target.gid() {
            // Another user may keep the group when they belong to it; when they do not, the
            // file is theirs with their group, as any editor would leave it.
            let _ = std::os::unix::fs::fchown(temp, None, Some(target.gid()));
        }
    }
    // After the ownership change, which clears set-id bits.
    temp.set_permissions(target.permissions())
        .map_err(|error| NotFixed::Io("keep the mode of", error))
}

/// Writes `fixed` over the file at `path`, which was linted holding `expected_original`.
/// Returns the real path written (the resolved target when `path` is a symlink inside the
/// scope). Nothing is written when any check fails; a temporary file is never left behind.
pub fn write_fixed(
    path: &Path,
    expected_original: &str,
    fixed: &str,
    scope: &WriteScope,
) -> Result<PathBuf, NotFixed> {
    let (canonical, target) = resolve_target(path, scope)?;
    let folder = canonical.parent().ok_or(NotFixed::NotRegularFile)?;
    let name = canonical
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Created with O_EXCL under a random name: an existing name, link or not, is never opened.
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".skilllint.tmp")
        .tempfile_in(folder)
        .map_err(|error| NotFixed::Io("write", error))?;
    temp.write_all(fixed.as_bytes())
        .map_err(|error| NotFixed::Io("write", error))?;
    copy_owner_and_mode(temp.as_file(), &target)?;
    temp.as_file()
        .sync_all()
        .map_err(|error| NotFixed::Io("write", error))?;
    // Checked as late as possible, so an edit made while the lint ran is seen.
    still_as_linted(&canonical, &target, expected_original)?;
    // `persist` renames; on failure the temporary file is removed when the error is dropped.
    temp.persist(&canonical)
        .map_err(|error| NotFixed::Io("write", error.error))?;
    sync_folder(folder);
    Ok(canonical)
}

/// Flushes a folder's entries, so a rename survives a crash. Best effort: some file systems do
/// not allow it, and the rename itself has happened either way.
fn sync_folder(folder: &Path) {
    if let Ok(handle) = std::fs::File::open(folder) {
        let _ = handle.sync_all();
    }
}

/// The folder part of a lint-root-relative path, when it is clean (only plain names): the path a
/// folder has when it is reached from the root without `..`.
fn clean_folder(rel_path: &str) -> Option<PathBuf> {
    let folder = Path::new(rel_path).parent()?;
    folder
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| folder.to_path_buf())
}

/// Where the rename of `from` (found at `rel_path` below the lint root) may happen: its real
/// folder, checked to be inside the scope and reached without a symlinked folder.
fn rename_folder(from: &Path, rel_path: &str, scope: &WriteScope) -> Result<PathBuf, NotFixed> {
    let metadata = std::fs::symlink_metadata(from).map_err(|error| NotFixed::Io("rename", error))?;
    if metadata.file_type().is_symlink() {
        return Err(NotFixed::Symlink);
    }
    if !metadata.file_type().is_file() {
        return Err(NotFixed::NotRegularFile);
    }
    let parent = from
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let folder = parent
        .canonicalize()
        .map_err(|error| NotFixed::Io("rename", error))?;
    if !scope.contains(&folder) {
        return Err(NotFixed::OutsideRoot);
    }
    // Reached from the root by plain names, the real folder is the root joined with them; a
    // symlinked folder on the way makes them differ.
    let reached_plainly = match (&scope.root, clean_folder(rel_path)) {
        (Some(root), Some(rel_folder)) => root.join(rel_folder) == folder,
        // Outside the root (a file named on the command line): its own folder must not be a link.
        _ => std::fs::symlink_metadata(parent).is_ok_and(|m| !m.file_type().is_symlink()),
    };
    if !reached_plainly {
        return Err(NotFixed::SymlinkedFolder);
    }
    Ok(folder)
}

/// Renames the file at `from` (found at `rel_path`) to `new_name` in the same folder, never
/// replacing an existing file.
pub fn rename_fixed(
    from: &Path,
    rel_path: &str,
    new_name: &str,
    scope: &WriteScope,
) -> Result<(), NotFixed> {
    let folder = rename_folder(from, rel_path, scope)?;
    let file_name = from.file_name().ok_or(NotFixed::NotRegularFile)?;
    let plain_name = Path::new(new_name)
        .components()
        .eq([Component::Normal(new_name.as_ref())]);
    if !plain_name {
        return Err(NotFixed::OutsideRoot);
    }
    let source = folder.join(file_name);
    let target = folder.join(new_name);
    // A hard link fails atomically when the new name exists; the old name is removed after.
    match std::fs::hard_link(&source, &target) {
        Ok(()) => {
            let linked = (
                std::fs::symlink_metadata(&source),
                std::fs::symlink_metadata(&target),
            );
            match linked {
                (Ok(a), Ok(b)) if identity(&a) == identity(&b) => std::fs::remove_file(&source)
                    .map_err(|error| NotFixed::Io("rename", error)),
                _ => Err(NotFixed::Replaced),
            }
        }
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(NotFixed::TargetExists(new_name.to_string()))
        }
        // A file system without hard links: a plain rename, after checking the name is free.
        Err(_) => match std::fs::symlink_metadata(&target) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                std::fs::rename(&source, &target).map_err(|error| NotFixed::Io("rename", error))
            }
            _ => Err(NotFixed::TargetExists(new_name.to_string())),
        },
    }
}

/// What writing a fix run did, per file, by path relative to the lint root.
#[derive(Debug, Default)]
pub struct Applied {
    /// Files written or renamed, sorted.
    pub fixed: Vec<String>,
    /// Files left as they were, sorted, with the reason.
    pub not_fixed: Vec<(String, NotFixed)>,
    /// Findings fixed in the files that were written.
    pub findings: usize,
}

impl Applied {
    /// The line for humans: unchanged from before when every file was written, else naming what
    /// was fixed and what was not.
    pub fn summary(&self) -> String {
        let findings = plural(self.findings, "finding");
        if self.not_fixed.is_empty() {
            return format!("Fixed {findings}.");
        }
        let not_fixed: Vec<&str> = self.not_fixed.iter().map(|(p, _)| p.as_str()).collect();
        let not_fixed = format!(
            "{} not fixed: {}",
            plural(not_fixed.len(), "file"),
            not_fixed.join(", ")
        );
        if self.fixed.is_empty() {
            format!("Fixed {findings}; {not_fixed}.")
        } else {
            format!(
                "Fixed {findings} in {}: {}; {not_fixed}.",
                plural(self.fixed.len(), "file"),
                self.fixed.join(", ")
            )
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Writes the changed files and does the renames of `run`, each file on its own: one that cannot
/// be written is reported and the others are still fixed. Two paths that resolve to the same
/// file write it once.
pub fn apply(run: &FixRun, scope: &WriteScope) -> Applied {
    let mut applied = Applied::default();
    let rel = |path: &Path| {
        run.rel_paths
            .get(path)
            .cloned()
            .unwrap_or_else(|| path.display().to_string())
    };
    let findings_in = |path: &Path| run.fixed_by_file.get(path).copied().unwrap_or(0);
    let mut unfixed_findings = 0;

    // Group the changed files by the real file they resolve to; paths that do not resolve are
    // reported on their own.
    let mut by_target: BTreeMap<PathBuf, Vec<(String, &Path, &(String, String))>> =
        BTreeMap::new();
    for (path, change) in &run.changed {
        match path.canonicalize() {
            Ok(canonical) => by_target
                .entry(canonical)
                .or_default()
                .push((rel(path), path, change)),
            Err(error) => {
                unfixed_findings += findings_in(path);
                applied
                    .not_fixed
                    .push((rel(path), NotFixed::Io("resolve", error)));
            }
        }
    }
    for mut paths in by_target.into_values() {
        paths.sort_by(|a, b| a.0.cmp(&b.0));
        let Some((first_rel, first_path, (original, text))) = paths.first().cloned() else {
            continue;
        };
        let differ = paths
            .iter()
            .any(|(_, _, change)| change.0 != *original || change.1 != *text);
        if differ {
            for (index, (rel_path, path, _)) in paths.iter().enumerate() {
                // Each path names another one of the same file.
                let other = paths
                    .get(if index == 0 { 1 } else { 0 })
                    .map_or_else(String::new, |p| p.0.clone());
                unfixed_findings += findings_in(path);
                applied
                    .not_fixed
                    .push((rel_path.clone(), NotFixed::FixedDifferentlyAs(other)));
            }
            continue;
        }
        match write_fixed(first_path, original, text, scope) {
            Ok(_) => applied.fixed.extend(paths.iter().map(|p| p.0.clone())),
            Err(why) => {
                unfixed_findings += paths.iter().map(|p| findings_in(p.1)).sum::<usize>();
                applied.not_fixed.push((first_rel.clone(), why));
                for (rel_path, _, _) in paths.iter().skip(1) {
                    applied
                        .not_fixed
                        .push((rel_path.clone(), NotFixed::SameFileAs(first_rel.clone())));
                }
            }
        }
    }

    // Renames: a file reached by several paths (a folder alias) is renamed once, through the
    // path that reaches it without a symlinked folder.
    let mut renames: BTreeMap<PathBuf, Vec<(String, &Path, String)>> = BTreeMap::new();
    for (from, to) in &run.renames {
        let new_name = to
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let key = from.canonicalize().unwrap_or_else(|_| from.clone());
        renames
            .entry(key)
            .or_default()
            .push((rel(from), from.as_path(), new_name));
    }
    for mut paths in renames.into_values() {
        paths.sort_by(|a, b| a.0.cmp(&b.0));
        // The plain path first: the aliases are then the same file, renamed with it.
        let plain = paths
            .iter()
            .position(|(rel_path, from, _)| rename_folder(from, rel_path, scope).is_ok());
        if let Some(index) = plain {
            let chosen = paths.remove(index);
            paths.insert(0, chosen);
        }
        let Some((rel_path, from, new_name)) = paths.first().cloned() else {
            continue;
        };
        match rename_fixed(from, &rel_path, &new_name, scope) {
            Ok(()) => applied.fixed.extend(paths.iter().map(|p| p.0.clone())),
            Err(why) => {
                unfixed_findings += paths.iter().map(|p| findings_in(p.1)).sum::<usize>();
                for (alias, _, _) in paths.iter().skip(1) {
                    applied
                        .not_fixed
                        .push((alias.clone(), NotFixed::SameFileAs(rel_path.clone())));
                }
                applied.not_fixed.push((rel_path, why));
            }
        }
    }

    // A file both edited and renamed is one fixed file.
    applied.fixed.sort();
    applied.fixed.dedup();
    applied.not_fixed.sort_by(|a, b| a.0.cmp(&b.0));
    // Counted from the run's total, so a run that writes everything reports what it always did.
    applied.findings = run.fixed.saturating_sub(unfixed_findings);
    applied
}
