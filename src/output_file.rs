//! Files the run writes besides fixes: the `-o` report and the configuration's baseline. Each
//! goes to a new temporary file in the target's real folder and is renamed over the name (never
//! written through a link planted there), as `--fix` writes; a path that names a file the run
//! read, or climbs out with `..`, is refused. Also the two file primitives the fix writes share:
//! a temporary file beside a target, and a file's identity on disk.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// The identity of a file on disk (device, inode): what a rename or a link swap changes.
#[cfg(unix)]
pub(crate) fn file_identity(metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

/// Elsewhere std offers no stable file identity.
#[cfg(not(unix))]
pub(crate) fn file_identity(_metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// A new temporary file in `folder` for replacing the file `name` there: created with O_EXCL under
/// a random name (mode 0600), so an existing name, link or not, is never opened.
pub(crate) fn temp_file_in(
    folder: &Path,
    name: &std::ffi::OsStr,
) -> std::io::Result<tempfile::NamedTempFile> {
    // The target's name in the temporary one only helps a person tell what it was; cut short so
    // a long name cannot push the temporary one over the file system's limit.
    let name: String = name.to_string_lossy().chars().take(48).collect();
    tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".skilllint.tmp")
        .tempfile_in(folder)
}

/// The `-o` file, written a piece at a time: opened before the report is drawn, so that a large
/// report goes to disk as it is drawn. CI runs `-o skilllint.sarif` inside a checkout the pull
/// request wrote, so a link planted at that name, or a planted folder link on the way to it, must
/// not send the report outside: the report goes to a new temporary file in the real folder and is
/// renamed over the name (replacing a link there instead of writing through it), and a relative
/// path without `..` whose folder resolves outside the current folder is refused. An absolute path
/// (`/dev/stdout`, `/tmp/out.sarif`) is the user's own choice and is written as named; a relative
/// one with `..` is refused before the run ([`output_path_refused`]).
pub struct ReportFile {
    target: ReportTarget,
}

enum ReportTarget {
    /// An absolute path, or one that leaves the current folder: the user's own choice, written as
    /// named.
    AsNamed(std::fs::File),
    /// A temporary file beside `path`, renamed over it once complete; `mode` is the replaced
    /// file's.
    Renamed {
        temp: tempfile::NamedTempFile,
        path: PathBuf,
        mode: Option<std::fs::Permissions>,
    },
}

impl ReportFile {
    /// Opens the report's file, or says why it may not be written.
    pub fn create(path: &Path) -> std::io::Result<ReportFile> {
        let stays_below_cwd = path.is_relative()
            && path
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if !stays_below_cwd {
            return Ok(ReportFile {
                target: ReportTarget::AsNamed(std::fs::File::create(path)?),
            });
        }
        let real_folder = crate::source::folder_of(path).canonicalize()?;
        let cwd = std::env::current_dir()?.canonicalize()?;
        if !real_folder.starts_with(&cwd) {
            return Err(std::io::Error::other(
                "its folder is a symlink leading out of the current folder; nothing was written",
            ));
        }
        let Some(name) = path.file_name() else {
            return Err(std::io::Error::other("it names no file"));
        };
        Self::renamed_into(&real_folder, name)
    }

    /// A new temporary file in `folder` (real, resolved) to be renamed over `folder/name`. An
    /// existing regular file keeps its mode; a new one is readable by all, as a plain `create`
    /// under the usual umask would make it.
    fn renamed_into(folder: &Path, name: &std::ffi::OsStr) -> std::io::Result<ReportFile> {
        let target = folder.join(name);
        let mode = std::fs::symlink_metadata(&target)
            .ok()
            .filter(|m| m.file_type().is_file())
            .map(|m| m.permissions());
        Ok(ReportFile {
            target: ReportTarget::Renamed {
                temp: temp_file_in(folder, name)?,
                path: target,
                mode,
            },
        })
    }

    /// Opens `path` for writing as a file of the repository confined to `root` (canonical): the
    /// configuration's baseline, which `--add-noqa` creates or rewrites. Its real folder must be
    /// inside `root` and a link at its name must resolve inside `root` ([`confined_target`],
    /// checked again here, right before the write); the text goes to a new temporary file in that
    /// real folder and is renamed over the real target, as `--fix` writes.
    pub fn create_confined(path: &Path, root: &Path) -> std::io::Result<ReportFile> {
        let target = confined_target(path, root).map_err(std::io::Error::other)?;
        let Some(name) = target.file_name() else {
            return Err(std::io::Error::other("it names no file"));
        };
        // A folder that was missing when the target was found is looked at again: it must exist
        // now, and inside the root.
        let folder = crate::source::folder_of(&target).canonicalize()?;
        if !folder.starts_with(root) {
            return Err(std::io::Error::other(
                "its folder leads outside the configuration's folder; nothing was written",
            ));
        }
        Self::renamed_into(&folder, name)
    }

    /// Appends a piece of the report.
    pub fn write(&mut self, piece: &[u8]) -> std::io::Result<()> {
        match &mut self.target {
            ReportTarget::AsNamed(file) => file.write_all(piece),
            ReportTarget::Renamed { temp, .. } => temp.write_all(piece),
        }
    }

    /// Completes the report: a temporary file takes its mode, reaches the disk and is renamed
    /// over the name. Dropped without this, the temporary file is removed and the name is left
    /// as it was.
    pub fn finish(self) -> std::io::Result<()> {
        let ReportTarget::Renamed { temp, path, mode } = self.target else {
            return Ok(());
        };
        match mode {
            Some(permissions) => temp.as_file().set_permissions(permissions)?,
            None => set_default_mode(temp.as_file())?,
        }
        temp.as_file().sync_all()?;
        temp.persist(&path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// Where the file `path`, which a repository names (its configuration's baseline), really is,
/// when it is confined to `root` (canonical): its folder resolves inside `root`, and a symlink at
/// its name resolves to a file inside `root`. A link that leads nowhere is refused too: creating
/// the file through it would create the file wherever the link points. A missing folder is not
/// refused here (the read then says the file does not exist, and a write fails); nothing is
/// created. Returns the real path (the link's target for a link), or why it is refused.
pub fn confined_target(path: &Path, root: &Path) -> Result<PathBuf, &'static str> {
    let Some(name) = path.file_name() else {
        return Err("names no file");
    };
    let folder = match crate::source::folder_of(path).canonicalize() {
        Ok(folder) => folder,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        Err(_) => return Err("is in a folder that cannot be resolved"),
    };
    if !folder.starts_with(root) {
        return Err("is in a folder that leads outside the configuration's folder (a symlink)");
    }
    let target = folder.join(name);
    match std::fs::symlink_metadata(&target) {
        Ok(metadata) if metadata.file_type().is_symlink() => match target.canonicalize() {
            Ok(resolved) if resolved.starts_with(root) => Ok(resolved),
            Ok(_) => Err("leads outside the configuration's folder"),
            Err(_) => Err(
                "is a symlink that leads to no file (a file created through it would be created wherever it points)",
            ),
        },
        _ => Ok(target),
    }
}

/// Why a file to write named on the command line (`-o`, `--write-baseline`) is refused before the
/// run: a relative path that climbs out with `..`. `skilllint */SKILL.md` in a repository with a
/// folder named `--output=..` hands the shell's expansion `--output=../SKILL.md` to skilllint as a
/// flag; an absolute path cannot come from a glob of the current folder, so that is how a report
/// outside it is named.
pub fn output_path_refused(path: &Path) -> Option<&'static str> {
    let climbs = path.is_relative() && path.components().any(|c| c == Component::ParentDir);
    climbs.then_some("a relative path with `..` is refused (a shell glob can expand a folder name such as `--output=..` into this flag); name the file with an absolute path, or one below the current folder")
}

/// Whether `path` names a file the run read (`inputs`): a report written there would replace a
/// file of the repository, as `-ocalendar/SKILL.md` (a folder named `-ocalendar`, expanded by
/// `skilllint */SKILL.md`) would. Compared by file identity, so another spelling of the same
/// file is caught; only inputs with the same file name are looked at.
pub fn is_lint_input(path: &Path, inputs: &[crate::source::SourceFile]) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    // Device and inode where the platform has them, else the canonical path.
    let same_file = |a: &Path, b: &Path| match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a_meta), Ok(b_meta)) => match (file_identity(&a_meta), file_identity(&b_meta)) {
            (Some(a_id), Some(b_id)) => a_id == b_id,
            _ => a
                .canonicalize()
                .ok()
                .is_some_and(|a| b.canonicalize().ok() == Some(a)),
        },
        _ => false,
    };
    path.exists()
        && inputs
            .iter()
            .filter(|input| input.abs_path.file_name() == Some(name))
            .any(|input| same_file(path, &input.abs_path))
}

#[cfg(unix)]
fn set_default_mode(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_default_mode(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}
