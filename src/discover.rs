//! Walks the lint root in parallel and classifies the files skilllint reads.

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

/// Folders never worth walking: VCS metadata, dependencies and build output.
const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

/// Classifies a file by its `/`-separated path (relative to the lint root, or as given): the name
/// decides, and for agentproto files also the folder they sit in (`.tools/`, `.drivers/`, `.cli/`).
pub fn classify(path: &str, requirement_files: &[String]) -> Option<FileKind> {
    let (folder, file_name) = crate::source::split_path(path);
    let mut folders = folder.split('/');
    match file_name {
        "SKILL.md" => Some(FileKind::Skill { lowercase: false }),
        "skill.md" => Some(FileKind::Skill { lowercase: true }),
        "tools.json" => Some(FileKind::Tools),
        "SECRETS.md" => Some(FileKind::Secrets),
        "TOOL.md" if folders.any(|f| f == ".tools") => Some(FileKind::Contract),
        // A builtin driver sits beside its TOOL.md.
        "DRIVER.md" if folders.any(|f| f == ".drivers" || f == ".tools") => {
            Some(FileKind::Driver { cli: false })
        }
        "CLI.md" if folders.any(|f| f == ".cli") => Some(FileKind::Driver { cli: true }),
        _ if file_name.ends_with(".tools.json") => Some(FileKind::Tools),
        _ if requirement_files.iter().any(|r| r == file_name) => Some(FileKind::Requirement),
        _ => None,
    }
}

/// A relative, `/`-separated path for output, computed lexically (no file system access).
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
    let mut parts: Vec<String> = Vec::new();
    for component in stripped.components() {
        match component {
            Component::CurDir => {}
            Component::Normal(part) => parts.push(name_form(part)),
            Component::ParentDir => parts.push("..".to_string()),
            Component::RootDir | Component::Prefix(_) => parts.clear(),
        }
    }
    if parts.is_empty() {
        path.file_name().map(name_form).unwrap_or_default()
    } else {
        parts.join("/")
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
    load: impl Fn(&Discovered) -> T + Sync,
) -> Vec<(Discovered, T)> {
    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let found: Mutex<Vec<(Discovered, T)>> = Mutex::new(Vec::new());
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
        if path.is_dir() {
            directories.push(path.clone());
        } else {
            let rel_path = relative_path(root, path);
            if let Some(kind) = classify(&rel_path, requirement_files) {
                push(rel_path, path.clone(), kind, None);
            }
        }
    }
    if let Some((first, rest)) = directories.split_first() {
        let mut builder = WalkBuilder::new(first);
        for dir in rest {
            builder.add(dir);
        }
        let filter_root = canonical_root.clone();
        builder
            .hidden(false)
            .git_ignore(true)
            .git_global(false)
            .git_exclude(true)
            .ignore(true)
            .parents(true)
            .require_git(false)
            .follow_links(true)
            .threads(threads)
            .filter_entry(move |entry| {
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                if is_dir && entry.depth() > 0 {
                    // `file_name()` parses the path from its end: once, not once per name.
                    let name = entry.file_name();
                    if SKIPPED_DIRS.iter().any(|d| name == *d) {
                        return false;
                    }
                }
                // A symlinked folder is followed only while it stays inside the lint root.
                // (Symlinked files are checked by the visitor, which can report them.)
                if is_dir && entry.path_is_symlink() {
                    return entry
                        .path()
                        .canonicalize()
                        .is_ok_and(|target| target.starts_with(&filter_root));
                }
                true
            });
        let canonical_root = &canonical_root;
        let push = &push;
        builder.build_parallel().run(|| {
            Box::new(move |entry| {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(error) => {
                        if let Some((path, message)) = walk_problem(&error) {
                            let rel_path = relative_path(root, &path);
                            push(rel_path, path, FileKind::Unfollowed, Some(message));
                        }
                        return WalkState::Continue;
                    }
                };
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    return WalkState::Continue;
                }
                let rel_path = relative_path(root, entry.path());
                if exclude.matches(&rel_path) {
                    return WalkState::Continue;
                }
                let Some(kind) = classify(&rel_path, requirement_files) else {
                    return WalkState::Continue;
                };
                if entry.path_is_symlink()
                    && !entry
                        .path()
                        .canonicalize()
                        .is_ok_and(|target| target.starts_with(canonical_root))
                {
                    let problem =
                        "the file is a symlink to a place outside the lint root; it was not read";
                    push(rel_path, entry.into_path(), kind, Some(problem.to_string()));
                    return WalkState::Continue;
                }
                push(rel_path, entry.into_path(), kind, None);
                WalkState::Continue
            })
        });
    }
    let mut files = found.into_inner().unwrap_or_else(|e| e.into_inner());
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
    files
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

/// Globs written relative to one folder (the config file's), matched against paths relative to
/// the lint root.
#[derive(Debug, Clone)]
pub struct GlobFilter {
    set: globset::GlobSet,
    /// The lint root's path below the glob folder, `/`-terminated; `None` when the lint root is
    /// not inside it (no glob can match then).
    prefix: Option<String>,
    empty: bool,
}

impl GlobFilter {
    pub fn new(base: &Path, root: &Path, globs: &[String]) -> Result<Self, String> {
        let mut builder = globset::GlobSetBuilder::new();
        for glob in globs {
            let compiled = globset::GlobBuilder::new(glob)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("invalid glob `{glob}`: {}", e.kind()))?;
            builder.add(compiled);
        }
        let set = builder.build().map_err(|e| e.to_string())?;
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
        Ok(GlobFilter {
            set,
            prefix,
            empty: globs.is_empty(),
        })
    }

    pub fn none() -> Self {
        GlobFilter {
            set: globset::GlobSet::empty(),
            prefix: None,
            empty: true,
        }
    }

    /// Whether `rel_path` (relative to the lint root) matches one of the globs.
    pub fn matches(&self, rel_path: &str) -> bool {
        if self.empty {
            return false;
        }
        match &self.prefix {
            Some(prefix) => self.set.is_match(format!("{prefix}{rel_path}")),
            None => false,
        }
    }
}

/// The path and a message for a walk error worth reporting (a symlink loop); other errors, such
/// as a folder that cannot be listed, are reported when a file in it cannot be read.
fn walk_problem(error: &ignore::Error) -> Option<(PathBuf, String)> {
    match error {
        ignore::Error::Loop { child, ancestor } => Some((
            child.clone(),
            format!(
                "symlink loop: this folder leads back to {}; it was not followed",
                ancestor.display()
            ),
        )),
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => walk_problem(err),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            Some(FileKind::Skill { lowercase: false })
        );
        assert_eq!(classify("github.tools.json", &req), Some(FileKind::Tools));
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
