//! Finding a repository and checking its git folder before gix reads any of it.
//!
//! gix reads the files of a git folder whole and with blocking opens (`config`, `HEAD`,
//! `packed-refs`, loose refs, `objects/info/alternates`, loose objects). In a downloaded
//! repository `.git` holds whatever its author put there: a FIFO would hang the run forever, a
//! link to `/dev/zero` or a sparse file of a terabyte would be read until memory runs out, a link
//! or an alternate object database could make the diff read files outside the repository. So
//! every file gix may read is looked at first, without opening anything that is not a regular
//! file, and a repository with one that is not plain is refused with what it holds.
//!
//! Discovery is git's, upwards from the starting folder, with one difference: a folder laid out
//! as a bare repository (`HEAD`, `objects/`, `refs/`) inside a work tree is passed over, and the
//! work tree's own `.git` is read. A pull request can commit that layout into the folder the
//! diff runs in; git would read it as the repository.

use crate::escape::display_path;
use crate::read::{read_regular_bounded, Refused};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A file gix reads whole (`config`, `HEAD`, `packed-refs`, a ref, a reflog, an alternates
/// list) larger than this is refused: far beyond a real repository's, and still a bounded read.
pub const MAX_GIT_FILE: u64 = 64 * 1024 * 1024;

/// A `.git` file (`gitdir: …`) or `commondir` longer than this is no path.
const MAX_POINTER_FILE: u64 = 4096;

/// More entries than this in the folders of a git folder that gix reads (`refs/`, `logs/`,
/// `objects/`) and the check stops: a repository that many loose objects is not read.
const MAX_GIT_DIR_ENTRIES: usize = 1_000_000;

/// Object databases an alternates list may chain (git stops at 5 as well).
const MAX_ALTERNATE_DEPTH: usize = 5;

/// The folder of a repository to open, as found upwards from where the diff started.
#[derive(Debug)]
pub struct Found {
    /// A work tree holding `.git`, or a bare repository's own folder.
    pub dir: PathBuf,
    /// A folder laid out as a bare repository inside a work tree, met on the way up and not
    /// read.
    pub passed_over: Option<PathBuf>,
}

/// The repository holding `start`, found upwards as git finds it: at each folder its `.git`
/// first, then the folder itself as a bare repository, unless that folder is inside a work tree
/// (a `.git` above it) and was not named by the user (`named`: `--repo` names `start`).
pub fn find(start: &Path, named: bool) -> Result<Found, String> {
    let start = start.canonicalize().map_err(|e| e.to_string())?;
    let mut passed_over = None;
    for dir in start.ancestors() {
        if std::fs::symlink_metadata(dir.join(".git")).is_ok() {
            return Ok(Found {
                dir: dir.to_path_buf(),
                passed_over,
            });
        }
        // A work tree's own git folder, started in: its work tree is the next folder up.
        if dir.file_name().is_some_and(|name| name == ".git") {
            continue;
        }
        if looks_bare(dir) {
            let in_work_tree = dir
                .ancestors()
                .skip(1)
                .any(|above| std::fs::symlink_metadata(above.join(".git")).is_ok());
            if !in_work_tree || (named && dir == start) {
                return Ok(Found {
                    dir: dir.to_path_buf(),
                    passed_over,
                });
            }
            passed_over.get_or_insert_with(|| dir.to_path_buf());
        }
    }
    Err("no .git folder or bare repository found".to_string())
}

/// Whether `dir` is laid out as a git folder (what git looks for, by names only: nothing is
/// opened).
fn looks_bare(dir: &Path) -> bool {
    let has = |name: &str| std::fs::symlink_metadata(dir.join(name)).is_ok();
    has("HEAD") && ((dir.join("objects").is_dir() && dir.join("refs").is_dir()) || has("commondir"))
}

/// Checks every file gix may read of the repository at `dir` (a work tree or a bare
/// repository's folder, as [`find`] gives it): each a regular file (a link only to a regular
/// file inside the repository), the ones read whole within [`MAX_GIT_FILE`], and alternate
/// object databases inside the repository. `Err` says which file and why, for people.
pub fn check(dir: &Path) -> Result<(), String> {
    let dot_git = dir.join(".git");
    let (git_dir, work_tree) = match std::fs::symlink_metadata(&dot_git) {
        Err(_) => (dir.to_path_buf(), None),
        Ok(meta) if meta.is_dir() => (dot_git, Some(dir.to_path_buf())),
        // A `.git` file points at the git folder (a linked work tree, a submodule).
        Ok(meta) if meta.is_file() => (pointed_to(&dot_git, dir)?, Some(dir.to_path_buf())),
        Ok(_) => {
            return Err(format!(
                "{} is not a folder or a regular file (a link, a FIFO, a device or a socket); \
                 the repository was not read",
                display_path(&dot_git)
            ))
        }
    };
    let common_dir = match std::fs::symlink_metadata(git_dir.join("commondir")) {
        Ok(_) => pointed_to(&git_dir.join("commondir"), &git_dir)?,
        Err(_) => git_dir.clone(),
    };
    let mut roots: Vec<PathBuf> = [Some(&git_dir), Some(&common_dir), work_tree.as_ref()]
        .into_iter()
        .flatten()
        .filter_map(|path| path.canonicalize().ok())
        .collect();
    roots.dedup();
    let mut walk = Walk {
        roots: &roots,
        entries: 0,
    };
    let folders = if common_dir == git_dir {
        vec![&git_dir]
    } else {
        vec![&git_dir, &common_dir]
    };
    for folder in folders {
        walk.top(folder)?;
        for sub in ["refs", "logs"] {
            walk.tree(&folder.join(sub), true)?;
        }
    }
    // The object databases: the repository's own, then those its alternates lists name, each
    // kept only inside the repository.
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut pending = vec![(common_dir.join("objects"), 0usize)];
    while let Some((objects, depth)) = pending.pop() {
        let Ok(real) = objects.canonicalize() else {
            continue;
        };
        if !seen.insert(real) {
            continue;
        }
        // Objects and packs are read by header or mapped, never whole: their kind is checked;
        // the alternates list is read whole, below, bounded.
        walk.tree(&objects, false)?;
        let list = objects.join("info").join("alternates");
        if std::fs::symlink_metadata(&list).is_err() {
            continue;
        }
        let text = read_regular_bounded(&list, MAX_GIT_FILE).map_err(|why| refused(&list, &why))?;
        for line in text.split(|b| *b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            let named = String::from_utf8_lossy(line);
            // A quoted path (C escapes) or one that does not resolve is not followed; gix would
            // follow the first and fail on the second.
            let inside = !line.starts_with(b"\"")
                && objects
                    .join(named.as_ref())
                    .canonicalize()
                    .is_ok_and(|real| walk.inside(&real));
            if !inside {
                return Err(format!(
                    "{} names an object database outside the repository ({}): skilllint reads \
                     only a repository's own objects; the repository was not read (a clone made \
                     with --reference or --shared borrows objects: `git repack -a -d` copies them \
                     in, then remove the alternates file)",
                    display_path(&list),
                    crate::escape::escape_text(&named)
                ));
            }
            if depth + 1 > MAX_ALTERNATE_DEPTH {
                return Err(format!(
                    "{} chains more than {MAX_ALTERNATE_DEPTH} object databases; the repository \
                     was not read",
                    display_path(&list)
                ));
            }
            pending.push((objects.join(named.as_ref()), depth + 1));
        }
    }
    Ok(())
}

/// The folder a `.git` or `commondir` file names, relative to `base` when not absolute.
fn pointed_to(file: &Path, base: &Path) -> Result<PathBuf, String> {
    let bytes = read_regular_bounded(file, MAX_POINTER_FILE).map_err(|why| refused(file, &why))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        format!(
            "{} is not valid UTF-8; the repository was not read",
            display_path(file)
        )
    })?;
    let text = text.trim_end_matches(['\n', '\r']);
    let path = text.strip_prefix("gitdir: ").unwrap_or(text);
    if path.is_empty() {
        return Err(format!(
            "{} names no folder; the repository was not read",
            display_path(file)
        ));
    }
    Ok(base.join(path))
}

fn refused(path: &Path, why: &Refused) -> String {
    let why = match why {
        Refused::Io(e) => format!("cannot be read: {e}"),
        Refused::NotRegular => "is not a regular file (a FIFO, a device or a socket)".to_string(),
        Refused::TooLarge(_) => format!("is over the {MAX_GIT_FILE} byte limit"),
    };
    format!("{} {why}; the repository was not read", display_path(path))
}

/// The entries of a git folder looked at, bounded in number.
struct Walk<'a> {
    /// The folders of the repository (its git folder, common folder and work tree), real paths:
    /// a link in the git folder may lead only inside them.
    roots: &'a [PathBuf],
    entries: usize,
}

impl Walk<'_> {
    fn inside(&self, real: &Path) -> bool {
        self.roots.iter().any(|root| real.starts_with(root))
    }

    /// The files at the top of a git folder that gix may read (`config`, `packed-refs`,
    /// `shallow`, `commondir`, and the refs named in capitals: `HEAD`, `FETCH_HEAD`…): each plain
    /// and bounded. `index` is read by the work tree's lint, which bounds it itself; only its
    /// kind is checked here. Other files are not read and left alone (git's fsmonitor daemon
    /// keeps a socket there).
    fn top(&mut self, folder: &Path) -> Result<(), String> {
        let entries = std::fs::read_dir(folder).map_err(|e| {
            format!(
                "cannot read {}: {e}; the repository was not read",
                display_path(folder)
            )
        })?;
        for entry in entries {
            let entry = entry.map_err(|e| e.to_string())?;
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
            // Folders (a linked `hooks/` too) are not read here; `refs/`, `logs/` and
            // `objects/` are walked after, and refused there when they are links.
            if std::fs::metadata(&path).is_ok_and(|target| target.is_dir()) {
                continue;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let read = matches!(
                name.as_ref(),
                "config" | "config.worktree" | "commondir" | "packed-refs" | "shallow" | "index"
            ) || name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
            if read {
                self.file(&path, meta, name != "index")?;
            }
        }
        Ok(())
    }

    /// Every entry below `folder` (absent is fine); `whole` when gix reads its files whole
    /// (refs, reflogs, object lists), not by header or by mapping (objects, packs).
    fn tree(&mut self, folder: &Path, whole: bool) -> Result<(), String> {
        let mut pending = vec![folder.to_path_buf()];
        while let Some(folder) = pending.pop() {
            let meta = match std::fs::symlink_metadata(&folder) {
                Ok(meta) => meta,
                Err(_) => continue,
            };
            if !meta.is_dir() {
                self.file(&folder, meta, whole)?;
                continue;
            }
            let entries = std::fs::read_dir(&folder).map_err(|e| {
                format!(
                    "cannot read {}: {e}; the repository was not read",
                    display_path(&folder)
                )
            })?;
            for entry in entries {
                let entry = entry.map_err(|e| e.to_string())?;
                self.entries += 1;
                if self.entries > MAX_GIT_DIR_ENTRIES {
                    return Err(format!(
                        "the git folder holds more than {MAX_GIT_DIR_ENTRIES} files in refs/, \
                         logs/ and objects/; the repository was not read (`git gc` packs them)"
                    ));
                }
                let path = entry.path();
                let meta = std::fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
                if meta.is_dir() {
                    pending.push(path);
                } else {
                    self.file(&path, meta, whole)?;
                }
            }
        }
        Ok(())
    }

    /// One file of the git folder: regular (a link only to a regular file inside the
    /// repository), within [`MAX_GIT_FILE`] when read whole.
    fn file(&mut self, path: &Path, meta: std::fs::Metadata, whole: bool) -> Result<(), String> {
        let meta = if meta.file_type().is_symlink() {
            let target = path.canonicalize().ok().filter(|real| self.inside(real));
            match (target, std::fs::metadata(path)) {
                (Some(_), Ok(meta)) => meta,
                _ => {
                    return Err(format!(
                        "{} is a link that leads outside the repository or nowhere; the \
                         repository was not read",
                        display_path(path)
                    ))
                }
            }
        } else {
            meta
        };
        if !meta.is_file() {
            return Err(format!(
                "{} is not a regular file (a FIFO, a device, a socket or a link to a folder); \
                 the repository was not read",
                display_path(path)
            ));
        }
        if whole && meta.len() > MAX_GIT_FILE {
            return Err(format!(
                "{} is {} bytes, over the {MAX_GIT_FILE} byte limit; the repository was not read",
                display_path(path),
                meta.len()
            ));
        }
        Ok(())
    }
}
