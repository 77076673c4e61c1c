//! What the plugin-surface files have in common: the host a plugin is for, and how the paths
//! they name (component paths, scripts a hook runs, files an MCP server starts) are looked up
//! from the plugin root without leaving it or the lint root. Nothing named is ever run.

use crate::model::skill::{look_up, Lookup};
use crate::source::Span;
use std::path::{Path, PathBuf};

/// The client a plugin or marketplace is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Host {
    ClaudeCode,
    Codex,
    Cursor,
}

impl Host {
    pub const ALL: [Host; 3] = [Host::ClaudeCode, Host::Codex, Host::Cursor];

    /// The client's name, for messages.
    pub fn display(self) -> &'static str {
        match self {
            Host::ClaudeCode => "Claude Code",
            Host::Codex => "Codex",
            Host::Cursor => "Cursor",
        }
    }

    /// The folder at a plugin's root that holds its manifest.
    pub fn manifest_dir(self) -> &'static str {
        match self {
            Host::ClaudeCode => ".claude-plugin",
            Host::Codex => ".codex-plugin",
            Host::Cursor => ".cursor-plugin",
        }
    }

    /// The host whose plugin manifest folder is `name`.
    pub fn of_manifest_dir(name: &str) -> Option<Host> {
        Host::ALL.into_iter().find(|h| h.manifest_dir() == name)
    }

    /// The placeholder the host replaces with the plugin's root in commands and paths.
    pub fn root_placeholders(self) -> &'static [&'static str] {
        match self {
            Host::ClaudeCode | Host::Codex => &["${CLAUDE_PLUGIN_ROOT}", "$CLAUDE_PLUGIN_ROOT"],
            Host::Cursor => &["${CURSOR_PLUGIN_ROOT}", "$CURSOR_PLUGIN_ROOT"],
        }
    }
}

/// What is wrong with a path a manifest, hook or MCP config names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathProblem {
    /// Nothing exists there.
    Missing,
    /// The path is absolute, climbs out of the plugin (or marketplace) root, or leads out of it
    /// through a symlink: it breaks when the plugin is installed on its own.
    Escapes,
    /// A marketplace source folder holds no plugin: no manifest and no component.
    NotAPlugin,
}

/// A plugin file a command or an MCP server names that is not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalRef {
    pub span: Span,
    pub written: String,
    pub problem: PathProblem,
}

/// Looks `written` up from `base` (canonical, inside `lint_root`): a path that is absolute or
/// leaves `base` escapes; one that names nothing is missing.
pub(crate) fn check_path(
    lint_root: &Path,
    base: &Path,
    written: &str,
) -> (Option<PathProblem>, Option<PathBuf>) {
    let path = written.trim();
    if path.starts_with('/') || path.starts_with('\\') || path.starts_with('~') || {
        let b = path.as_bytes();
        b.len() > 1 && b[0].is_ascii_alphabetic() && b[1] == b':'
    } {
        return (Some(PathProblem::Escapes), None);
    }
    if climbs(path) {
        return (Some(PathProblem::Escapes), None);
    }
    match look_up(lint_root, base, path) {
        Lookup::Found(found) if found.starts_with(base) => (None, Some(found)),
        Lookup::Found(_) | Lookup::Beyond => (Some(PathProblem::Escapes), None),
        Lookup::Missing => (Some(PathProblem::Missing), None),
        Lookup::Unknown => (None, None),
    }
}

/// Whether a relative path climbs above the folder it is read from (either slash separates).
pub(crate) fn climbs(path: &str) -> bool {
    crate::model::skill::climbs_above(path, &['/', '\\'])
}

/// Where the plugin files a command names are looked for: the plugin root (what the root
/// placeholder stands for and what relative paths of Codex and Cursor hooks start from) and the
/// folder of the file that names them.
#[derive(Debug, Clone)]
pub struct RefBases {
    lint_root: PathBuf,
    plugin_root: PathBuf,
    file_dir: PathBuf,
    pub(crate) host: Host,
}

impl RefBases {
    /// `None` without a file system, or when the folders are outside the lint root.
    pub fn new(
        lint_root: Option<&Path>,
        plugin_root: &Path,
        file_dir: &Path,
        host: Host,
    ) -> Option<RefBases> {
        let lint_root = lint_root?.to_path_buf();
        let plugin_root = plugin_root.canonicalize().ok()?;
        let file_dir = file_dir.canonicalize().ok()?;
        (plugin_root.starts_with(&lint_root) && file_dir.starts_with(&lint_root)).then_some(
            RefBases {
                lint_root,
                plugin_root,
                file_dir,
                host,
            },
        )
    }

    /// For a file inside a plugin (or a project's `.cursor/`, `.claude/`): the nearest folder
    /// above it with a plugin manifest folder of any host, else the folder above `hooks/`,
    /// `commands/` or `agents/` (a plugin a marketplace declares needs no manifest), else the
    /// file's own folder.
    pub fn for_file(lint_root: Option<&Path>, abs_path: &Path) -> Option<RefBases> {
        let lint_root = lint_root?;
        let file_dir = crate::source::folder_of(abs_path).canonicalize().ok()?;
        let mut host = Host::ClaudeCode;
        let mut plugin_root = None;
        let mut folder = file_dir.clone();
        while folder.starts_with(lint_root) {
            if let Some(found) = Host::ALL
                .into_iter()
                .find(|h| folder.join(h.manifest_dir()).is_dir())
            {
                host = found;
                plugin_root = Some(folder.clone());
                break;
            }
            if !folder.pop() {
                break;
            }
        }
        let plugin_root = plugin_root.unwrap_or_else(|| {
            let name = file_dir.file_name().and_then(|n| n.to_str());
            match (name, file_dir.parent()) {
                (
                    Some("hooks" | ".cursor" | ".claude" | ".codex" | "commands" | "agents"),
                    Some(parent),
                ) if parent.starts_with(lint_root) => {
                    if name == Some(".cursor") {
                        host = Host::Cursor;
                    }
                    parent.to_path_buf()
                }
                _ => file_dir.clone(),
            }
        });
        RefBases::new(Some(lint_root), &plugin_root, &file_dir, host)
    }
}

/// Whether a word names a file of the plugin: the root placeholder followed by a path, or a
/// `./` path whose last name has an extension (`./scripts/stop.sh`). Words that expand anything
/// else (`$HOME`, `${NAME}.sh`) or hold a glob are not paths this run can look up.
pub(crate) fn plugin_path(word: &str, host: Host) -> Option<(bool, &str)> {
    let placeholders = host
        .root_placeholders()
        .iter()
        .chain(Host::ClaudeCode.root_placeholders());
    for placeholder in placeholders {
        if let Some(rest) = word.strip_prefix(placeholder) {
            let rest = rest.strip_prefix('/')?;
            return plain_path(rest).map(|p| (true, p));
        }
    }
    let rest = word.strip_prefix("./")?;
    let last = rest.rsplit('/').next().unwrap_or(rest);
    (last.contains('.') && !last.starts_with('.') && !last.ends_with('.'))
        .then(|| plain_path(rest).map(|p| (false, p)))
        .flatten()
}

fn plain_path(rest: &str) -> Option<&str> {
    let rest = rest.trim_end_matches('/');
    (!rest.is_empty() && !rest.contains(['$', '*', '?', '[', '`', '{', '}', '=', ':']))
        .then_some(rest)
}

/// The plugin files `words` name that are missing or lead out of the plugin.
pub(crate) fn local_refs_in_words(
    words: &[(String, Span)],
    bases: Option<&RefBases>,
    out: &mut Vec<LocalRef>,
) {
    let Some(bases) = bases else {
        return;
    };
    for (word, span) in words {
        // `KEY=${CLAUDE_PLUGIN_ROOT}/x` in front of a command sets a variable to a path.
        let word = word.split_once('=').map_or(word.as_str(), |(name, value)| {
            if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                value
            } else {
                word
            }
        });
        let Some((from_root, path)) = plugin_path(word, bases.host) else {
            continue;
        };
        let (problem, _) = check_path(&bases.lint_root, &bases.plugin_root, path);
        let problem = match problem {
            // A relative path of a hook may also be read from the file's own folder.
            Some(PathProblem::Missing) if !from_root => {
                check_path(&bases.lint_root, &bases.file_dir, path).0
            }
            other => other,
        };
        if let Some(problem) = problem {
            out.push(LocalRef {
                span: *span,
                written: word.to_string(),
                problem,
            });
        }
    }
}
