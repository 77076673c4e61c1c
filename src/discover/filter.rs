//! The `exclude` and `include` globs, written relative to a folder and matched against paths
//! relative to the lint root.

use super::relative_path;
use std::path::Path;

/// Globs written relative to a folder (the config file's, or the current folder for `--exclude`),
/// matched against paths relative to the lint root.
#[derive(Debug, Clone)]
pub struct GlobFilter {
    /// Each set of globs with where its folder is: the lint root's path below that folder
    /// (`/`-terminated, put before a path), or that folder's path below the lint root (a run
    /// widened to the repository above the folder: a path must start with it, and the rest is
    /// matched). A set whose folder and the lint root hold neither the other is left out.
    parts: Vec<(globset::GlobSet, Relative)>,
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
        let folder = |rel: &Path| {
            let rel = relative_path(Path::new(""), rel);
            if rel.is_empty() {
                String::new()
            } else {
                format!("{rel}/")
            }
        };
        let relative = match (base.canonicalize(), root.canonicalize()) {
            (Ok(base), Ok(root)) => match root.strip_prefix(&base) {
                Ok(rel) => Some(Relative::RootBelow(folder(rel))),
                Err(_) => base
                    .strip_prefix(&root)
                    .ok()
                    .map(|rel| Relative::FolderBelow(folder(rel))),
            },
            _ => None,
        };
        if let Some(relative) = relative {
            self.parts.push((set, relative));
        }
        Ok(self)
    }

    /// Globs written relative to the lint root itself (a git revision's configuration, at the
    /// top of its tree): nothing on disk is asked where they are relative to.
    pub fn rooted(globs: &[String]) -> Result<Self, String> {
        let mut filter = GlobFilter::none();
        if let Some(set) = glob_set(globs)? {
            filter.parts.push((set, Relative::RootBelow(String::new())));
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
            && self.parts.iter().any(|(set, relative)| match relative {
                Relative::RootBelow(prefix) => set.is_match(format!("{prefix}{rel_path}")),
                Relative::FolderBelow(folder) => rel_path
                    .strip_prefix(folder.as_str())
                    .is_some_and(|rest| set.is_match(rest)),
            })
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

/// Where the folder a set of globs is written relative to is, from the lint root.
#[derive(Debug, Clone)]
enum Relative {
    /// The lint root is at or below the folder: its path there, `/`-terminated (`""`: the same).
    RootBelow(String),
    /// The folder is below the lint root: its path there, `/`-terminated.
    FolderBelow(String),
}

/// The globs compiled as `exclude` and `include` globs are (`*` stops at `/`); `None` for none.
pub(super) fn glob_set(globs: &[String]) -> Result<Option<globset::GlobSet>, String> {
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
