//! The paths a report shows. Below the render edge every path is relative to the lint root
//! (`SourceFile::rel_path`, what rules, fingerprints and library snapshots see); a reader needs
//! a path that opens from where they stand: the current folder for the human formats, the
//! workspace for GitHub annotations. Computed lexically from each file's path as discovered
//! (no file system access), so a path through a symlink stays the path the user typed.

use crate::discover::relative_path;
pub use crate::source::absolute_in;
use crate::source::SourceFile;
use std::path::Path;

/// What to show for a file outside the folder paths are shown relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outside {
    /// The path as it was given (`../other/x/SKILL.md`, `/tmp/x/SKILL.md`).
    AsGiven,
    /// The absolute path (`/tmp/x/SKILL.md`): a workspace-relative reader has no other way in.
    Absolute,
}

/// The path each file is shown under, relative to `base` (a folder, made absolute against
/// `cwd`), for a run whose current folder is `cwd`; `outside` says what a file outside `base`
/// shows. Names are in the lossless escaped form every report uses.
pub fn shown_paths<'a>(
    files: impl IntoIterator<Item = &'a SourceFile>,
    cwd: &Path,
    base: &Path,
    outside: Outside,
) -> Vec<String> {
    let base = absolute_in(cwd, base);
    files
        .into_iter()
        .map(|file| shown_path(&file.abs_path, cwd, &base, outside))
        .collect()
}

/// [`shown_paths`] for one path as discovered (relative to `cwd` or absolute), `base` absolute.
pub fn shown_path(path: &Path, cwd: &Path, base: &Path, outside: Outside) -> String {
    let absolute = absolute_in(cwd, path);
    match absolute.strip_prefix(base) {
        Ok(rel) if !rel.as_os_str().is_empty() => relative_path(Path::new(""), rel),
        _ => match outside {
            Outside::AsGiven => relative_path(Path::new("."), path),
            Outside::Absolute => crate::escape::display_path(&absolute).into_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn file(rel: &str, abs: &str) -> SourceFile {
        SourceFile {
            rel_path: rel.to_string(),
            abs_path: PathBuf::from(abs),
            text: String::new(),
        }
    }

    #[test]
    fn paths_open_from_the_current_folder_or_show_as_given() {
        let cwd = Path::new("/home/me/repo");
        let files = [
            // `skilllint skills`: the walk's paths start with the named folder.
            file("a/SKILL.md", "skills/a/SKILL.md"),
            file("a/SKILL.md", "./skills/a/SKILL.md"),
            // An absolute path inside the current folder.
            file("b/SKILL.md", "/home/me/repo/skills/b/SKILL.md"),
            // Outside it: as given.
            file("../other/x/SKILL.md", "../other/x/SKILL.md"),
            file("/tmp/x/SKILL.md", "/tmp/x/SKILL.md"),
            file("c/SKILL.md", "skills/../skills/c/SKILL.md"),
        ];
        assert_eq!(
            shown_paths(&files, cwd, Path::new("."), Outside::AsGiven),
            [
                "skills/a/SKILL.md",
                "skills/a/SKILL.md",
                "skills/b/SKILL.md",
                "../other/x/SKILL.md",
                "/tmp/x/SKILL.md",
                "skills/c/SKILL.md",
            ]
        );
        // GitHub: relative to the workspace, which is above the current folder here.
        assert_eq!(
            shown_paths(&files, cwd, Path::new("/home/me"), Outside::Absolute),
            [
                "repo/skills/a/SKILL.md",
                "repo/skills/a/SKILL.md",
                "repo/skills/b/SKILL.md",
                "other/x/SKILL.md",
                "/tmp/x/SKILL.md",
                "repo/skills/c/SKILL.md",
            ]
        );
        assert_eq!(
            absolute_in(Path::new("/"), Path::new("../../a")),
            PathBuf::from("/a")
        );
    }
}
