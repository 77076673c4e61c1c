//! `SKILL.md`: YAML frontmatter (Agent Skills spec) and a Markdown body, read as a
//! [`MarkdownDoc`], plus what a skill adds (its folder's name, its broken references).

use crate::model::document::MarkdownDoc;
use crate::parse::markdown::Markdown;
use crate::source::Span;

/// A `SKILL.md` (or `skill.md`, `Skill.md`, `SKILL.MD`) file.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillDoc {
    pub doc: MarkdownDoc,
    /// Named other than `SKILL.md` (another case of it).
    pub misnamed_file: bool,
    /// The name of the folder holding the file (what `name` must equal).
    pub folder_name: String,
    pub broken_references: Vec<BrokenReference>,
}

/// A relative link in a SKILL.md body that does not lead to a file inside the skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenReference {
    pub destination: String,
    pub span: Span,
    pub problem: ReferenceProblem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReferenceProblem {
    /// Nothing exists at the path (SK011).
    Missing {
        /// The path climbs out of the skill folder (`../x.md`).
        leaves_folder: bool,
        /// Where the file does exist, as a path relative to the skill folder: the same path taken
        /// from an enclosing folder (`../../ADAPTER.md` for `./ADAPTER.md`), or the path written
        /// with `/` for `\`.
        found_at: Option<FoundAt>,
    },
    /// The path leads out of the skill folder (SK017).
    Outside(Outside),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FoundAt {
    /// The same relative path exists from a folder that encloses the skill folder.
    EnclosingFolder(String),
    /// The path exists once its `\` are read as `/`.
    ForwardSlashes(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outside {
    /// An existing file or folder outside the skill folder, inside the lint root. `symlink`: the
    /// symlink in the skill folder the path leaves through (relative to the skill folder).
    Existing {
        symlink: Option<String>,
        /// Where it is, relative to the lint root (`/`-separated).
        target: String,
    },
    /// The path leads out of the lint root, where nothing is looked at: whether the file exists
    /// there is not checked.
    BeyondLintRoot { symlink: Option<String> },
    /// An absolute path on the author's machine: a Windows drive or network path (`C:\`,
    /// `\\server\share`) or a home path (`~/`). Never looked at.
    MachinePath,
}

/// What a link destination is, before any file is looked at.
#[derive(Debug, PartialEq, Eq)]
enum Destination<'a> {
    /// A URL, an in-page anchor, a site-absolute path (`/docs/aip-14`): not a file of the skill.
    NotAFile,
    MachinePath,
    /// A relative path, its `?query` and `#fragment` removed and `%XX` escapes decoded.
    Relative(std::borrow::Cow<'a, str>),
    /// `${CLAUDE_PLUGIN_ROOT}/…`: a path from the root of the plugin the skill ships in.
    PluginRoot(std::borrow::Cow<'a, str>),
}

/// The placeholders hosts replace with the skill's own folder before the agent reads a link:
/// `{baseDir}` (the Agent Skills convention Claude Code documents) and `${CLAUDE_SKILL_DIR}`.
const SKILL_DIR_PLACEHOLDERS: [&str; 2] = ["{baseDir}", "${CLAUDE_SKILL_DIR}"];

/// The placeholder for the root of the plugin a skill ships in (Claude Code).
pub const PLUGIN_ROOT_PLACEHOLDER: &str = "${CLAUDE_PLUGIN_ROOT}";

/// Frontmatter keys Claude Code reads in SKILL.md beyond the Agent Skills six.
pub const CLAUDE_CODE_FIELDS: [&str; 12] = [
    "model",
    "version",
    "disable-model-invocation",
    "user-invocable",
    "argument-hint",
    "when_to_use",
    "context",
    "agent",
    "hooks",
    "effort",
    "paths",
    "shell",
];

/// Frontmatter keys Cursor reads in SKILL.md beyond the Agent Skills six.
pub const CURSOR_FIELDS: [&str; 1] = ["disable-model-invocation"];

/// Longer paths cannot be opened (the usual `PATH_MAX`): reported missing without a look.
const MAX_PATH_LEN: usize = 4096;
/// Symlinks followed while resolving one path before it counts as a loop, which opens nothing
/// (Linux's limit).
const MAX_SYMLINKS: usize = 40;
/// Missing files per skill for which enclosing folders are searched, so that a body of thousands
/// of broken links costs a bounded number of extra look-ups.
const MAX_SEARCHES: usize = 64;

/// Whether a link destination is a URL (`https:`, `mailto:`, …) rather than a file path.
fn has_scheme(destination: &str) -> bool {
    match destination.split_once(':') {
        Some((scheme, _)) => {
            scheme.len() > 1
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
        }
        None => false,
    }
}

/// `C:\…`, `C:/…`, `\\server\share`, `\…` (the current drive's root) or `~/…`: a path that names
/// a place on one machine, never a file the skill carries.
fn is_machine_path(destination: &str) -> bool {
    let bytes = destination.as_bytes();
    let drive = bytes.len() > 2
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && matches!(bytes[2], b'\\' | b'/');
    drive || destination.starts_with('\\') || destination.starts_with("~/")
}

/// Decodes `%XX` escapes (`my%20notes.md`); the text as written when they do not decode to UTF-8.
fn percent_decode(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('%') {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                i += 3;
            }
            None => {
                decoded.push(bytes[i]);
                i += 1;
            }
        }
    }
    match String::from_utf8(decoded) {
        Ok(decoded) => std::borrow::Cow::Owned(decoded),
        Err(_) => std::borrow::Cow::Borrowed(text),
    }
}

fn destination_kind(destination: &str) -> Destination<'_> {
    let destination = destination.trim();
    for placeholder in SKILL_DIR_PLACEHOLDERS {
        if let Some(rest) = destination.strip_prefix(placeholder) {
            let rest = rest.trim_start_matches('/');
            return if rest.is_empty() {
                Destination::NotAFile
            } else {
                destination_kind(rest)
            };
        }
    }
    if let Some(rest) = destination.strip_prefix(PLUGIN_ROOT_PLACEHOLDER) {
        let rest = rest.trim_start_matches('/');
        let path = rest.split(['#', '?']).next().unwrap_or(rest);
        return if path.is_empty() {
            Destination::NotAFile
        } else {
            Destination::PluginRoot(percent_decode(path))
        };
    }
    if destination.is_empty() || destination.starts_with('#') || has_scheme(destination) {
        return Destination::NotAFile;
    }
    if is_machine_path(destination) {
        return Destination::MachinePath;
    }
    // Site-absolute (`/docs/aip-14`) and protocol-relative (`//cdn.example.com/x`) links name a
    // page of a website, resolved against wherever the Markdown is published.
    if destination.starts_with('/') {
        return Destination::NotAFile;
    }
    let path = destination.split(['#', '?']).next().unwrap_or(destination);
    if path.is_empty() {
        return Destination::NotAFile;
    }
    Destination::Relative(percent_decode(path))
}

/// Whether a relative path climbs above the folder it starts from, read name by name.
fn climbs_out(path: &str) -> bool {
    climbs_above(path, &['/'])
}

/// Whether a relative path, split on `separators`, climbs above the folder it starts from.
pub(crate) fn climbs_above(path: &str, separators: &[char]) -> bool {
    let mut depth: i64 = 0;
    for part in path.split(separators) {
        match part {
            "" | "." => {}
            ".." => depth -= 1,
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// One name of a path being resolved.
enum Step {
    Parent,
    Name(std::ffi::OsString),
}

/// Pushes the names of a relative `path` so that the first is popped first; `false` for a path
/// with a root or a drive, which this resolution does not take.
fn push_steps(stack: &mut Vec<Step>, path: &std::path::Path) -> bool {
    use std::path::Component;
    let mut steps = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => steps.push(Step::Parent),
            Component::Normal(name) => steps.push(Step::Name(name.to_os_string())),
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    stack.extend(steps.into_iter().rev());
    true
}

#[derive(Debug, PartialEq, Eq)]
enum Resolution {
    /// Something exists there: its canonical path, and the last symlink inside the skill folder
    /// that was followed on the way.
    Found {
        path: std::path::PathBuf,
        symlink: Option<std::path::PathBuf>,
    },
    Missing,
    /// The path leads out of the lint root (itself, or through a symlink).
    Beyond {
        symlink: Option<std::path::PathBuf>,
    },
    /// Cannot be told: a folder on the way may not be read.
    Unknown,
}

/// Folders and the lint root a link is resolved against, all canonical.
struct Resolver<'a> {
    lint_root: &'a std::path::Path,
    skill_dir: &'a std::path::Path,
}

impl Resolver<'_> {
    /// Resolves `relative` from the folder `start` name by name, as the operating system would
    /// open it, reading each symlink met on the way (never its target) and looking at nothing
    /// outside the lint root: a path that leaves it is answered without a look. `start` is inside
    /// the lint root.
    fn resolve(&self, start: &std::path::Path, relative: &std::path::Path) -> Resolution {
        let mut current = start.to_path_buf();
        let mut stack = Vec::new();
        let mut symlink = None;
        let mut links_followed = 0;
        if !push_steps(&mut stack, relative) {
            return Resolution::Beyond { symlink };
        }
        while let Some(step) = stack.pop() {
            let name = match step {
                Step::Parent => {
                    // `current` holds no symlink, so its parent is where `..` leads.
                    current.pop();
                    if !current.starts_with(self.lint_root) {
                        return Resolution::Beyond { symlink };
                    }
                    continue;
                }
                Step::Name(name) => name,
            };
            let candidate = current.join(name);
            let metadata = match std::fs::symlink_metadata(&candidate) {
                Ok(metadata) => metadata,
                Err(error) if error.kind() == std::io::ErrorKind::PermissionDenied => {
                    return Resolution::Unknown
                }
                // Not found, a name under a file, a name too long: nothing can be opened there.
                Err(_) => return Resolution::Missing,
            };
            if !metadata.file_type().is_symlink() {
                current = candidate;
                continue;
            }
            links_followed += 1;
            if links_followed > MAX_SYMLINKS {
                // A loop: nothing can be opened there.
                return Resolution::Missing;
            }
            let Ok(target) = std::fs::read_link(&candidate) else {
                return Resolution::Unknown;
            };
            if candidate.starts_with(self.skill_dir) {
                symlink = Some(candidate);
            }
            let followed = if target.is_absolute() {
                // An absolute target is taken only when it names a place inside the lint root
                // as written; anything else is not looked at.
                match target.strip_prefix(self.lint_root) {
                    Ok(rest) => {
                        current = self.lint_root.to_path_buf();
                        push_steps(&mut stack, rest)
                    }
                    Err(_) => false,
                }
            } else {
                push_steps(&mut stack, &target)
            };
            if !followed {
                return Resolution::Beyond { symlink };
            }
        }
        Resolution::Found {
            path: current,
            symlink,
        }
    }

    /// A symlink's path relative to the skill folder, `/`-separated, for messages.
    fn shown(&self, symlink: Option<std::path::PathBuf>) -> Option<String> {
        let symlink = symlink?;
        let relative = symlink.strip_prefix(self.skill_dir).ok()?;
        let parts: Vec<String> = relative
            .components()
            .map(|c| crate::escape::display_path(std::path::Path::new(c.as_os_str())).into_owned())
            .collect();
        Some(parts.join("/"))
    }

    /// What is wrong with a link to the relative `path`, if anything. `search`: whether the
    /// enclosing folders may be searched for a missing file.
    fn check(&self, path: &str, search: bool) -> Option<ReferenceProblem> {
        let leaves_folder = climbs_out(path);
        if path.len() > MAX_PATH_LEN {
            return Some(ReferenceProblem::Missing {
                leaves_folder,
                found_at: None,
            });
        }
        match self.resolve(self.skill_dir, std::path::Path::new(path)) {
            Resolution::Found { path, .. } if path.starts_with(self.skill_dir) => None,
            Resolution::Found { symlink, path } => {
                let target = path
                    .strip_prefix(self.lint_root)
                    .map(|rest| {
                        rest.components()
                            .map(|c| {
                                crate::escape::display_path(std::path::Path::new(c.as_os_str()))
                                    .into_owned()
                            })
                            .collect::<Vec<_>>()
                            .join("/")
                    })
                    .unwrap_or_default();
                Some(ReferenceProblem::Outside(Outside::Existing {
                    symlink: self.shown(symlink),
                    target,
                }))
            }
            Resolution::Beyond { symlink } => {
                Some(ReferenceProblem::Outside(Outside::BeyondLintRoot {
                    symlink: self.shown(symlink),
                }))
            }
            Resolution::Unknown => None,
            Resolution::Missing => Some(ReferenceProblem::Missing {
                leaves_folder,
                found_at: if search {
                    self.find_elsewhere(path)
                } else {
                    None
                },
            }),
        }
    }

    /// Where a missing file does exist: written with `/` for `\`, or (for a path that stays in
    /// the skill folder) the same path from the nearest enclosing folder inside the lint root,
    /// as a link from the skill folder would write it.
    fn find_elsewhere(&self, path: &str) -> Option<FoundAt> {
        if path.contains('\\') {
            let forward = path.replace('\\', "/");
            if self.check(&forward, false).is_none() {
                return Some(FoundAt::ForwardSlashes(forward));
            }
        }
        if climbs_out(path) || path.split('/').any(|part| part == "..") {
            return None;
        }
        let written = path.trim_start_matches("./");
        let mut folder = self.skill_dir.to_path_buf();
        let mut climbed = String::new();
        while folder.pop() && folder.starts_with(self.lint_root) {
            climbed.push_str("../");
            if let Resolution::Found { .. } = self.resolve(&folder, std::path::Path::new(path)) {
                return Some(FoundAt::EnclosingFolder(format!("{climbed}{written}")));
            }
        }
        None
    }
}

/// What a relative path names, looked up from `base_dir` (canonical, inside `lint_root`) as the
/// link resolution above does: name by name, reading symlinks, never looking outside the lint
/// root. For the other files that name paths (plugin manifests, hooks, MCP configs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// Something exists there, inside the lint root: its canonical path.
    Found(std::path::PathBuf),
    Missing,
    /// The path leads out of the lint root, where nothing is looked at.
    Beyond,
    /// Cannot be told (a folder on the way cannot be read).
    Unknown,
}

pub(crate) fn look_up(
    lint_root: &std::path::Path,
    base_dir: &std::path::Path,
    relative: &str,
) -> Lookup {
    if relative.len() > MAX_PATH_LEN {
        return Lookup::Missing;
    }
    let resolver = Resolver {
        lint_root,
        skill_dir: base_dir,
    };
    match resolver.resolve(base_dir, std::path::Path::new(relative)) {
        Resolution::Found { path, .. } => Lookup::Found(path),
        Resolution::Missing => Lookup::Missing,
        Resolution::Beyond { .. } => Lookup::Beyond,
        Resolution::Unknown => Lookup::Unknown,
    }
}

/// The nearest folder enclosing `dir` (itself included) that holds a `.claude-plugin` folder:
/// the root of the Claude Code plugin a skill ships in, when it ships in one.
pub(crate) fn enclosing_plugin_root(
    lint_root: &std::path::Path,
    dir: &std::path::Path,
) -> Option<std::path::PathBuf> {
    let mut folder = dir.to_path_buf();
    loop {
        if !folder.starts_with(lint_root) {
            return None;
        }
        if folder.join(".claude-plugin").is_dir() {
            return Some(folder);
        }
        if !folder.pop() {
            return None;
        }
    }
}

/// Checks the body's relative links against the skill folder `skill_dir`: the one rule input
/// that needs the file system, so it runs in the read stage, not in a rule. `lint_root` bounds
/// what may be looked at: nothing outside it is (`None`: the run has no file system, nothing is
/// checked). Each destination is looked up once per skill.
pub fn find_broken_references(
    body: &Markdown,
    skill_dir: &std::path::Path,
    lint_root: Option<&std::path::Path>,
) -> Vec<BrokenReference> {
    let mut broken = Vec::new();
    let (Some(lint_root), false) = (lint_root, body.links.is_empty()) else {
        return broken;
    };
    let Ok(skill_dir) = skill_dir.canonicalize() else {
        return broken;
    };
    // A skill named from outside the lint root is bounded by its own folder.
    let lint_root = if skill_dir.starts_with(lint_root) {
        lint_root
    } else {
        skill_dir.as_path()
    };
    let resolver = Resolver {
        lint_root,
        skill_dir: &skill_dir,
    };
    let mut checked: std::collections::HashMap<String, Option<ReferenceProblem>> =
        std::collections::HashMap::new();
    let mut searches = 0;
    let mut plugin_root: Option<Option<std::path::PathBuf>> = None;
    for link in &body.links {
        let problem = match destination_kind(&link.destination) {
            Destination::NotAFile => None,
            Destination::MachinePath => Some(ReferenceProblem::Outside(Outside::MachinePath)),
            Destination::PluginRoot(path) => {
                let plugin_root =
                    plugin_root.get_or_insert_with(|| enclosing_plugin_root(lint_root, &skill_dir));
                match plugin_root {
                    // Outside a plugin the placeholder stands for nothing this run can see.
                    None => None,
                    Some(plugin_root) => match look_up(lint_root, plugin_root, &path) {
                        Lookup::Missing => Some(ReferenceProblem::Missing {
                            leaves_folder: false,
                            found_at: None,
                        }),
                        Lookup::Beyond => {
                            Some(ReferenceProblem::Outside(Outside::BeyondLintRoot {
                                symlink: None,
                            }))
                        }
                        Lookup::Found(_) | Lookup::Unknown => None,
                    },
                }
            }
            Destination::Relative(path) => {
                if let Some(known) = checked.get(path.as_ref()) {
                    known.clone()
                } else {
                    let search = searches < MAX_SEARCHES;
                    let problem = resolver.check(&path, search);
                    if search && matches!(problem, Some(ReferenceProblem::Missing { .. })) {
                        searches += 1;
                    }
                    checked.insert(path.into_owned(), problem.clone());
                    problem
                }
            }
        };
        if let Some(problem) = problem {
            broken.push(BrokenReference {
                destination: link.destination.trim().to_string(),
                span: link.span,
                problem,
            });
        }
    }
    broken
}

/// The relative links of a Markdown `body` whose target does not exist, read from `base_dir`
/// (the file's folder) and looked up only inside `lint_root`, each destination once: for files
/// other than SKILL.md that an agent reads (`AGENTS.md`, `CLAUDE.md`). URLs, anchors,
/// site-absolute paths, machine paths and `${CLAUDE_PLUGIN_ROOT}` links are not looked up.
pub fn find_missing_link_targets(
    body: &Markdown,
    base_dir: &std::path::Path,
    lint_root: Option<&std::path::Path>,
) -> Vec<(String, Span)> {
    let mut missing = Vec::new();
    let (Some(lint_root), false) = (lint_root, body.links.is_empty()) else {
        return missing;
    };
    let Ok(base_dir) = base_dir.canonicalize() else {
        return missing;
    };
    let lint_root = if base_dir.starts_with(lint_root) {
        lint_root
    } else {
        base_dir.as_path()
    };
    let mut checked: std::collections::HashMap<String, bool> = std::collections::HashMap::new();
    for link in &body.links {
        let Destination::Relative(path) = destination_kind(&link.destination) else {
            continue;
        };
        let is_missing = match checked.get(path.as_ref()) {
            Some(known) => *known,
            None => {
                let found = look_up(lint_root, &base_dir, &path) == Lookup::Missing;
                checked.insert(path.into_owned(), found);
                found
            }
        };
        if is_missing {
            missing.push((link.destination.trim().to_string(), link.span));
        }
    }
    missing
}

/// A link, in a Markdown file that SKILL.md links to, to a file that does not exist (SK023).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct LinkedBroken {
    /// The skill folder, relative to the lint root (`""` for the root).
    pub skill_dir: String,
    /// The link in SKILL.md that leads to the Markdown file.
    pub via_span: Span,
    /// The Markdown file, relative to the skill folder, `/`-separated.
    pub file: String,
    /// The broken link in that file: its line (1-based) and destination as written.
    pub line: usize,
    pub destination: String,
}

/// Markdown files followed per skill, and broken links kept per followed file.
const MAX_LINKED_FILES: usize = 32;
const MAX_BROKEN_PER_LINKED_FILE: usize = 64;

/// The broken links of the Markdown files inside the skill folder that the SKILL.md `text` links
/// to (one hop: what those files link to in turn is not followed). A link in such a file is
/// resolved from that file's own folder (`{baseDir}/…` from the skill folder), as a reader of the
/// file would; only a target that does not exist is kept (where a link leads is SK017's question
/// for SKILL.md alone). `read` gives a file's text (bounded, never blocking; `None` when it
/// cannot be read as text). Nothing outside `lint_root` is looked at.
pub fn find_linked_markdown_breaks(
    text: &str,
    skill_rel: &str,
    skill_dir: &std::path::Path,
    lint_root: &std::path::Path,
    read: &dyn Fn(&std::path::Path) -> Option<String>,
) -> Vec<LinkedBroken> {
    let mut out = Vec::new();
    if memchr::memmem::find(text.as_bytes(), b".md").is_none() {
        return out;
    }
    let Ok(skill_dir) = skill_dir.canonicalize() else {
        return out;
    };
    let lint_root = if skill_dir.starts_with(lint_root) {
        lint_root
    } else {
        skill_dir.as_path()
    };
    let (_, body_span) = crate::model::document::parse_frontmatter(text);
    let Some(body_text) = text.get(body_span.start..body_span.end) else {
        return out;
    };
    let body = crate::parse::markdown::parse_markdown(body_text, body_span.start);
    let mut followed: Vec<(std::path::PathBuf, Span)> = Vec::new();
    for link in &body.links {
        if followed.len() >= MAX_LINKED_FILES {
            break;
        }
        let Destination::Relative(path) = destination_kind(&link.destination) else {
            continue;
        };
        let is_markdown = path.len() > 3 && path[path.len() - 3..].eq_ignore_ascii_case(".md");
        if !is_markdown || path.len() > MAX_PATH_LEN {
            continue;
        }
        let Lookup::Found(found) = look_up(lint_root, &skill_dir, &path) else {
            continue;
        };
        let is_file = std::fs::metadata(&found).is_ok_and(|m| m.is_file());
        let is_skill_md = found.parent() == Some(skill_dir.as_path())
            && found
                .file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("SKILL.md"));
        if !is_file
            || is_skill_md
            || !found.starts_with(&skill_dir)
            || followed.iter().any(|(p, _)| *p == found)
        {
            continue;
        }
        followed.push((found, link.span));
    }
    for (file, via_span) in followed {
        let Some(linked_text) = read(&file) else {
            continue;
        };
        let folder = file.parent().unwrap_or(&skill_dir).to_path_buf();
        let shown = file
            .strip_prefix(&skill_dir)
            .map(|rest| {
                rest.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .unwrap_or_default();
        let linked = crate::parse::markdown::parse_markdown(&linked_text, 0);
        let mut kept = 0;
        for link in &linked.links {
            if kept >= MAX_BROKEN_PER_LINKED_FILE {
                break;
            }
            let written = link.destination.trim();
            let from_skill = SKILL_DIR_PLACEHOLDERS
                .iter()
                .any(|placeholder| written.starts_with(placeholder));
            let Destination::Relative(path) = destination_kind(written) else {
                continue;
            };
            let base = if from_skill { &skill_dir } else { &folder };
            if look_up(lint_root, base, &path) == Lookup::Missing {
                let line = 1 + linked_text.get(..link.span.start).map_or(0, |before| {
                    memchr::memchr_iter(b'\n', before.as_bytes()).count()
                });
                out.push(LinkedBroken {
                    skill_dir: skill_rel.to_string(),
                    via_span,
                    file: shown.clone(),
                    line,
                    destination: written.to_string(),
                });
                kept += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(destination: &str) -> Destination<'_> {
        destination_kind(destination)
    }

    #[test]
    fn only_relative_paths_are_file_references() {
        for not_a_file in [
            "",
            "  ",
            "#steps",
            "https://example.com/a.md",
            "mailto:team@example.com",
            "file:///etc/passwd",
            "/docs/aip-14",
            "/spec",
            "//cdn.example.com/lib.js",
            "?tab=2",
        ] {
            assert_eq!(kind(not_a_file), Destination::NotAFile, "{not_a_file:?}");
        }
        for machine in [
            r"C:\Users\dana\notes.md",
            "d:/forms/x.md",
            r"\\server\share\x.md",
            r"\x.md",
            "~/.config/x.md",
        ] {
            assert_eq!(kind(machine), Destination::MachinePath, "{machine:?}");
        }
        for (written, path) in [
            ("scripts/run.sh", "scripts/run.sh"),
            ("./GUIDE.md#replay", "./GUIDE.md"),
            ("data.csv?raw=1#top", "data.csv"),
            ("my%20notes.md", "my notes.md"),
            ("caf%C3%A9.md", "café.md"),
            // Not UTF-8 once decoded, or not an escape: kept as written.
            ("bad%FF.md", "bad%FF.md"),
            ("100%.md", "100%.md"),
            ("../sibling/x.md", "../sibling/x.md"),
            // One letter before a colon is no scheme: a file name.
            ("a:b.md", "a:b.md"),
        ] {
            assert_eq!(
                kind(written),
                Destination::Relative(std::borrow::Cow::Borrowed(path)),
                "{written:?}"
            );
        }
    }

    #[test]
    fn climbing_out_is_read_name_by_name() {
        assert!(climbs_out("../x.md"));
        assert!(climbs_out("a/../../x.md"));
        assert!(!climbs_out("a/../x.md"));
        assert!(!climbs_out("./a//b/./x.md"));
    }

    fn links(body: &str) -> Markdown {
        crate::parse::markdown::parse_markdown(body, 0)
    }

    #[test]
    fn a_run_without_a_file_system_looks_nothing_up() {
        let body = links("[x](missing.md) [y](../other/x.md) [z](C:/x.md)");
        assert_eq!(
            find_broken_references(&body, std::path::Path::new("."), None),
            []
        );
    }

    #[test]
    fn missing_files_are_found_in_enclosing_folders_a_bounded_number_of_times() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("canonical");
        let skill = root.join("spec/draft/skills/author");
        std::fs::create_dir_all(skill.join("references")).expect("folders");
        std::fs::write(root.join("spec/draft/GUIDE.md"), "# Guide\n").expect("file");
        std::fs::write(skill.join("references/a.md"), "# A\n").expect("file");
        let mut body =
            String::from("[g](./GUIDE.md) [b](references\\a.md) [c](../draft/GUIDE.md)\n");
        // Beyond the search budget, a missing file is still reported, without a search.
        for i in 0..MAX_SEARCHES + 5 {
            body.push_str(&format!("[m](missing-{i}.md)\n"));
        }
        body.push_str("[late](GUIDE.md)\n");
        let found = find_broken_references(&links(&body), &skill, Some(&root));
        let problem = |destination: &str| {
            found
                .iter()
                .find(|r| r.destination == destination)
                .map(|r| r.problem.clone())
        };
        assert_eq!(
            problem("./GUIDE.md"),
            Some(ReferenceProblem::Missing {
                leaves_folder: false,
                found_at: Some(FoundAt::EnclosingFolder("../../GUIDE.md".to_string())),
            })
        );
        assert_eq!(
            problem("references\\a.md"),
            Some(ReferenceProblem::Missing {
                leaves_folder: false,
                found_at: Some(FoundAt::ForwardSlashes("references/a.md".to_string())),
            })
        );
        // A path that already climbs is not searched for.
        assert_eq!(
            problem("../draft/GUIDE.md"),
            Some(ReferenceProblem::Missing {
                leaves_folder: true,
                found_at: None,
            })
        );
        assert_eq!(
            problem("GUIDE.md"),
            Some(ReferenceProblem::Missing {
                leaves_folder: false,
                found_at: None,
            })
        );
        assert_eq!(found.len(), 3 + MAX_SEARCHES + 5 + 1);
    }

    #[test]
    fn an_overlong_path_is_missing_without_a_look() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("canonical");
        let long = "a/".repeat(MAX_PATH_LEN);
        let body = links(&format!("[x]({long}x.md)"));
        let found = find_broken_references(&body, &root, Some(&root));
        assert_eq!(found.len(), 1);
        assert!(matches!(
            found[0].problem,
            ReferenceProblem::Missing { found_at: None, .. }
        ));
    }
}
