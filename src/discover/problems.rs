//! What stops a path from being read, in words: too deep, unreadable, not a regular file, a
//! symlink that leaves the root, loops or leads nowhere; and how the walk resolves a symlink.

use super::{Kinds, MAX_DEPTH};
use crate::model::FileKind;
use std::path::{Path, PathBuf};

pub(super) fn too_deep() -> String {
    format!("this folder is nested deeper than {MAX_DEPTH} folders; nothing in it was linted")
}

pub(super) fn unreadable(error: &std::io::Error) -> String {
    format!("this path cannot be read ({error}); nothing in it was linted")
}

/// The problem with a path that is neither a regular file nor a folder; it is never opened.
pub(super) fn not_regular(file_type: std::fs::FileType) -> String {
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

pub(super) const LINK_OUT_OF_ROOT: &str =
    "the file is a symlink to a place outside the lint root; it was not read";

pub(super) const LINK_LOOP: &str =
    "symlink loop: this folder leads back to a folder that encloses it; it was not followed";

/// The problem of a link that leads nowhere, with the system's words for why.
pub(super) fn link_not_followed(error: &dyn std::fmt::Display) -> String {
    format!("the file is a symlink that cannot be followed ({error}); it was not read")
}

/// Whether `path`, named on the command line, is a symlink that sits inside the lint root but
/// leads out of it. A path that is itself outside the root (`skilllint /elsewhere/SKILL.md`) is
/// the user's own choice and is read.
pub(super) fn named_link_leaves_root(path: &Path, canonical_root: &Path) -> bool {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return false;
    }
    resolves_inside(crate::source::folder_of(path), canonical_root)
        && !resolves_inside(path, canonical_root)
}

/// Whether `path`, links resolved, is inside the (canonical) lint root.
pub(super) fn resolves_inside(path: &Path, canonical_root: &Path) -> bool {
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
pub(super) fn resolve_symlink(
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
pub(super) fn walk_problem(error: &ignore::Error) -> Option<(PathBuf, String)> {
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
