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
//! One file that cannot be written does not stop the others: [`apply`] reports each file. The
//! `-o` report and the baseline go through the same temporary-file-and-rename route
//! ([`crate::output_file`]).

use super::FixRun;
use crate::english::plural;
use std::collections::BTreeMap;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

/// Where fixes may write: inside the lint root (a single folder argument, else the current
/// folder), taken canonical (links resolved), so a path is inside when its canonical form
/// starts with it. Files named on the command line outside the root are linted but not fixed:
/// a name the shell expanded from the repository (`skills/*`) may be a link leading anywhere.
#[derive(Debug, Clone)]
pub struct WriteScope {
    /// The canonical lint root; `None` when it cannot be resolved, and then nothing is written.
    root: Option<PathBuf>,
}

impl WriteScope {
    pub fn new(lint_root: &Path) -> Self {
        WriteScope {
            root: lint_root.canonicalize().ok(),
        }
    }

    fn contains(&self, canonical: &Path) -> bool {
        self.root
            .as_ref()
            .is_some_and(|root| canonical.starts_with(root))
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

/// What the checks need from the platform: a file's link count, its owner (its identity is
/// [`crate::output_file::file_identity`]).
#[cfg(unix)]
mod platform {
    use super::NotFixed;
    use std::os::unix::fs::MetadataExt;

    pub fn link_count(metadata: &std::fs::Metadata) -> u64 {
        metadata.nlink()
    }

    /// Gives `temp` the owner of `target` when running as root, on the open handle.
    pub fn copy_owner(temp: &std::fs::File, target: &std::fs::Metadata) -> Result<(), NotFixed> {
        let created = temp
            .metadata()
            .map_err(|error| NotFixed::Io("write", error))?;
        if (created.uid(), created.gid()) == (target.uid(), target.gid()) {
            return Ok(());
        }
        if created.uid() == 0 {
            // Root fixing another user's file hands it back to that user: fail rather than
            // leave a root-owned file in their repository.
            std::os::unix::fs::fchown(temp, Some(target.uid()), Some(target.gid()))
                .map_err(|error| NotFixed::Io("keep the owner of", error))
        } else {
            // Another user keeps the group when they belong to it; when they do not, the file
            // is theirs with their group, as any editor would leave it.
            let _ = std::os::unix::fs::fchown(temp, None, Some(target.gid()));
            Ok(())
        }
    }
}

/// Elsewhere std offers no stable link count nor owner: the content check still
/// guards against a concurrent edit, but a swapped file or a hard link is not detected.
#[cfg(not(unix))]
mod platform {
    use super::NotFixed;

    pub fn link_count(_metadata: &std::fs::Metadata) -> u64 {
        1
    }

    pub fn copy_owner(_temp: &std::fs::File, _target: &std::fs::Metadata) -> Result<(), NotFixed> {
        Ok(())
    }
}

use crate::output_file::{file_identity, temp_file_in};
use platform::link_count;

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
    let metadata =
        std::fs::symlink_metadata(&canonical).map_err(|error| NotFixed::Io("inspect", error))?;
    if !metadata.file_type().is_file() {
        return Err(NotFixed::NotRegularFile);
    }
    if link_count(&metadata) > 1 {
        return Err(NotFixed::HardLinked(link_count(&metadata)));
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
    if !now.file_type().is_file() || file_identity(&now) != file_identity(expected) {
        return Err(NotFixed::Replaced);
    }
    if link_count(&now) > 1 {
        return Err(NotFixed::HardLinked(link_count(&now)));
    }
    let handle = std::fs::File::open(canonical).map_err(|error| NotFixed::Io("read", error))?;
    let opened = handle
        .metadata()
        .map_err(|error| NotFixed::Io("read", error))?;
    if file_identity(&opened) != file_identity(expected) {
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
    platform::copy_owner(temp, target)?;
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
    let name = canonical.file_name().unwrap_or_default();
    let mut temp = temp_file_in(folder, name).map_err(|error| NotFixed::Io("write", error))?;
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

/// The folder part of a shown path, when it is clean (only plain names, after the root of an
/// absolute path named on the command line): the path a folder has when it is reached from the
/// lint root, or from the file system root, without `..`.
fn clean_folder(rel_path: &str) -> Option<PathBuf> {
    let folder = Path::new(rel_path).parent()?;
    let mut components = folder.components().peekable();
    if matches!(components.peek(), Some(Component::Prefix(_))) {
        components.next();
    }
    if matches!(components.peek(), Some(Component::RootDir)) {
        components.next();
    }
    components
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| folder.to_path_buf())
}

/// Where the rename of `from` (found at `rel_path` below the lint root) may happen: its real
/// folder, checked to be inside the scope and reached without a symlinked folder.
fn rename_folder(from: &Path, rel_path: &str, scope: &WriteScope) -> Result<PathBuf, NotFixed> {
    let metadata =
        std::fs::symlink_metadata(from).map_err(|error| NotFixed::Io("rename", error))?;
    if metadata.file_type().is_symlink() {
        return Err(NotFixed::Symlink);
    }
    if !metadata.file_type().is_file() {
        return Err(NotFixed::NotRegularFile);
    }
    let folder = crate::source::folder_of(from)
        .canonicalize()
        .map_err(|error| NotFixed::Io("rename", error))?;
    if !scope.contains(&folder) {
        return Err(NotFixed::OutsideRoot);
    }
    // Reached from the root by plain names, the real folder is the root joined with them; a
    // symlinked folder on the way makes them differ.
    let reached_plainly = match (&scope.root, clean_folder(rel_path)) {
        (Some(root), Some(rel_folder)) => root.join(rel_folder) == folder,
        // A path with `..` in it is not reached plainly from the root.
        _ => false,
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
                (Ok(a), Ok(b)) if file_identity(&a) == file_identity(&b) => {
                    std::fs::remove_file(&source).map_err(|error| NotFixed::Io("rename", error))
                }
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

/// One discovered path to a file the run changes.
#[derive(Clone)]
struct Reached<'a> {
    /// Relative to the lint root, for messages.
    rel_path: String,
    path: &'a Path,
}

/// Collects the outcome of each file, and the findings of the files that were not written.
struct Outcome<'a> {
    run: &'a FixRun,
    applied: Applied,
    unfixed_findings: usize,
}

impl<'a> Outcome<'a> {
    fn reached(&self, path: &'a Path) -> Reached<'a> {
        let rel_path = self
            .run
            .rel_paths
            .get(path)
            .cloned()
            .unwrap_or_else(|| path.display().to_string());
        Reached { rel_path, path }
    }

    fn fixed(&mut self, paths: &[Reached]) {
        self.applied
            .fixed
            .extend(paths.iter().map(|p| p.rel_path.clone()));
    }

    fn not_fixed(&mut self, reached: &Reached, why: NotFixed) {
        self.unfixed_findings += self
            .run
            .fixed_by_file
            .get(reached.path)
            .copied()
            .unwrap_or(0);
        self.applied.not_fixed.push((reached.rel_path.clone(), why));
    }

    /// `first` failed for `why`; the other paths to the same file point at it.
    fn not_fixed_all(&mut self, first: &Reached, others: &[Reached], why: NotFixed) {
        self.not_fixed(first, why);
        for other in others {
            self.not_fixed(other, NotFixed::SameFileAs(first.rel_path.clone()));
        }
    }

    /// Groups `paths` by the real file each resolves to, each group sorted by relative path. A
    /// path that does not resolve is a group of its own (writing it then says why).
    fn by_file<T>(
        &self,
        paths: impl Iterator<Item = (&'a Path, T)>,
    ) -> BTreeMap<PathBuf, Vec<(Reached<'a>, T)>> {
        let mut groups: BTreeMap<PathBuf, Vec<(Reached<'a>, T)>> = BTreeMap::new();
        for (path, item) in paths {
            let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            groups
                .entry(key)
                .or_default()
                .push((self.reached(path), item));
        }
        for group in groups.values_mut() {
            group.sort_by(|a, b| a.0.rel_path.cmp(&b.0.rel_path));
        }
        groups
    }
}

/// Writes the changed files and does the renames of `run`, each file on its own: one that cannot
/// be written is reported and the others are still fixed. Two paths that resolve to the same
/// file write it once.
pub fn apply(run: &FixRun, scope: &WriteScope) -> Applied {
    let mut outcome = Outcome {
        run,
        applied: Applied::default(),
        unfixed_findings: 0,
    };
    let changes = outcome.by_file(run.changed.iter().map(|(p, c)| (p.as_path(), c)));
    for group in changes.into_values() {
        let paths: Vec<Reached> = group.iter().map(|(r, _)| r.clone()).collect();
        let Some((first, change)) = group.first() else {
            continue;
        };
        let (original, text) = *change;
        if group.iter().any(|(_, other)| other != change) {
            // Linted twice and fixed differently: which text is right is not ours to pick.
            for (index, reached) in paths.iter().enumerate() {
                let other = paths
                    .get(usize::from(index == 0))
                    .map_or_else(String::new, |p| p.rel_path.clone());
                outcome.not_fixed(reached, NotFixed::FixedDifferentlyAs(other));
            }
            continue;
        }
        match write_fixed(first.path, original, text, scope) {
            Ok(_) => outcome.fixed(&paths),
            Err(why) => outcome.not_fixed_all(first, &paths[1..], why),
        }
    }

    // A file reached by several paths (a folder alias) is renamed once, through the path that
    // reaches it without a symlinked folder; the aliases are the same file, renamed with it.
    let renames = outcome.by_file(run.renames.iter().map(|(from, to)| (from.as_path(), to)));
    for group in renames.into_values() {
        let mut paths: Vec<Reached> = group.iter().map(|(r, _)| r.clone()).collect();
        let plain = paths
            .iter()
            .position(|p| rename_folder(p.path, &p.rel_path, scope).is_ok())
            .unwrap_or(0);
        let Some((_, to)) = group.get(plain) else {
            continue;
        };
        let first = paths.remove(plain);
        let new_name = to
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match rename_fixed(first.path, &first.rel_path, &new_name, scope) {
            Ok(()) => {
                outcome.fixed(&paths);
                outcome.fixed(std::slice::from_ref(&first));
            }
            Err(why) => outcome.not_fixed_all(&first, &paths, why),
        }
    }

    let Outcome {
        mut applied,
        unfixed_findings,
        ..
    } = outcome;
    // A file both edited and renamed is one fixed file.
    applied.fixed.sort();
    applied.fixed.dedup();
    applied.not_fixed.sort_by(|a, b| a.0.cmp(&b.0));
    // Counted from the run's total, so a run that writes everything reports what it always did.
    applied.findings = run.fixed.saturating_sub(unfixed_findings);
    applied
}
