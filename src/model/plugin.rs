//! Plugin manifests and marketplaces: `.claude-plugin/plugin.json` and `marketplace.json` (Claude
//! Code), `.codex-plugin/plugin.json` and `.agents/plugins/marketplace.json` (Codex),
//! `.cursor-plugin/plugin.json` and `marketplace.json` (Cursor). The JSON is kept with spans; what
//! the manifest names on disk (component paths, marketplace sources) is looked up here, in the
//! read stage, because rules do no I/O. Nothing a manifest names is ever run or fetched.

use crate::model::hooks::{hooks_view, Hooks};
use crate::model::host::{check_path, climbs, RefBases};
pub use crate::model::host::{Host, PathProblem};
use crate::model::mcp_config::{servers_view, McpServers};
use crate::parse::json::{parse_json_document, JsonDocument, JsonError};
use crate::parse::{Node, Value};
use crate::source::{SourceFile, Span};
use std::path::{Path, PathBuf};

/// A path value of a manifest that names nothing usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedPath {
    /// JSON pointer to the value (`/skills/0`, `/plugins/2/source`).
    pub pointer: String,
    pub span: Span,
    pub written: String,
    pub problem: PathProblem,
}

/// A `plugin.json` or `marketplace.json` of any host.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestDoc {
    pub host: Host,
    pub marketplace: bool,
    pub parsed: Result<JsonDocument, JsonError>,
    /// The plugin's (or marketplace's) root folder, relative to the lint root (`""`: the root).
    pub root: String,
    /// Component paths and marketplace sources that name nothing usable (looked up only when the
    /// run has a file system).
    pub path_problems: Vec<NamedPath>,
    /// For each marketplace entry with a local source: its index and the plugin folder it names,
    /// relative to the lint root (lexically, so runs without a file system have it too).
    pub sources: Vec<(usize, String)>,
    /// Hooks written inline in the manifest (`"hooks": {…}`).
    pub inline_hooks: Option<Hooks>,
    /// MCP servers written inline in the manifest (`"mcpServers": {…}`).
    pub inline_mcp: Option<McpServers>,
}

impl ManifestDoc {
    pub fn root_node(&self) -> Option<&Node> {
        self.parsed.as_ref().ok().map(|d| &d.root)
    }

    /// The manifest's `name` and the span of its value.
    pub fn name(&self) -> Option<(&str, Span)> {
        let node = self.root_node()?.get("name")?;
        node.as_str().map(|s| (s, node.span))
    }

    /// What the file is, for messages: `Claude Code plugin manifest`, `Codex marketplace`.
    pub fn what(&self) -> String {
        let kind = if self.marketplace {
            "marketplace"
        } else {
            "plugin manifest"
        };
        format!("{} {kind}", self.host.display())
    }
}

/// How the manifest expects a path to be written; the schema checks the form, this only says
/// whether a value is a path at all.
fn is_url(text: &str) -> bool {
    match text.split_once("://") {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+')
        }
        None => text.starts_with("git@") || text.starts_with("data:"),
    }
}

fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '['])
}

/// The component fields of a plugin manifest whose values are paths from the plugin root.
fn component_fields(host: Host) -> &'static [&'static str] {
    match host {
        Host::ClaudeCode => &[
            "skills",
            "commands",
            "agents",
            "hooks",
            "mcpServers",
            "outputStyles",
            "lspServers",
            "themes",
            "monitors",
        ],
        Host::Codex => &["skills", "hooks", "mcpServers", "apps"],
        Host::Cursor => &[
            "skills",
            "commands",
            "agents",
            "rules",
            "hooks",
            "mcpServers",
            "logo",
        ],
    }
}

/// Every path string under a component field: the value itself, the strings of an array, and
/// (Claude Code's object form of `commands`) each entry's `source`.
fn path_values<'a>(
    field: &str,
    node: &'a Node,
    pointer: String,
    out: &mut Vec<(String, &'a Node)>,
) {
    match &node.value {
        Value::String(_) => out.push((pointer, node)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if item.as_str().is_some() {
                    out.push((format!("{pointer}/{i}"), item));
                }
            }
        }
        Value::Object(members) if field == "commands" => {
            for member in members {
                if let Some(source) = member.value.get("source").filter(|s| s.as_str().is_some()) {
                    out.push((
                        format!(
                            "{pointer}/{}/source",
                            crate::parse::node::pointer_token(&member.key)
                        ),
                        source,
                    ));
                }
            }
        }
        _ => {}
    }
}

/// The folders on disk a manifest's paths are looked up from: the canonical lint root and the
/// canonical root the paths are relative to.
struct Disk {
    lint_root: PathBuf,
    base: PathBuf,
}

impl Disk {
    fn new(lint_root: Option<&Path>, base: &Path) -> Option<Disk> {
        let lint_root = lint_root?;
        let base = base.canonicalize().ok()?;
        base.starts_with(lint_root).then(|| Disk {
            lint_root: lint_root.to_path_buf(),
            base,
        })
    }

    /// What is wrong with `written` read from `self.base` (`None`: it names something inside
    /// the base, or cannot be told), and the canonical path it names.
    fn check(&self, written: &str) -> (Option<PathProblem>, Option<PathBuf>) {
        check_path(&self.lint_root, &self.base, written)
    }
}

/// Whether the folder `dir` holds a plugin: a manifest of any host, or one of the components
/// hosts find without one.
fn holds_plugin(dir: &Path) -> bool {
    const COMPONENTS: [&str; 11] = [
        ".claude-plugin",
        ".codex-plugin",
        ".cursor-plugin",
        "plugin.json",
        "skills",
        "commands",
        "agents",
        "hooks",
        "rules",
        ".mcp.json",
        "mcp.json",
    ];
    dir.is_dir() && COMPONENTS.iter().any(|c| dir.join(c).exists())
}

/// The root a manifest's paths are relative to, as a path relative to the lint root: the folder
/// above `.claude-plugin/` (two folders above `.agents/plugins/` for a Codex marketplace).
fn manifest_root(rel_path: &str, host: Host, marketplace: bool) -> String {
    let mut dir = crate::source::parent_dir(rel_path);
    let levels = if marketplace && host == Host::Codex {
        2
    } else {
        1
    };
    for _ in 0..levels {
        dir = crate::source::parent_dir(dir);
    }
    dir.to_string()
}

/// The same, on disk.
fn manifest_root_abs(abs_path: &Path, host: Host, marketplace: bool) -> PathBuf {
    let levels = if marketplace && host == Host::Codex {
        3
    } else {
        2
    };
    let mut dir = abs_path.to_path_buf();
    for _ in 0..levels {
        if !dir.pop() {
            return PathBuf::from(".");
        }
    }
    if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    }
}

/// Parses a manifest or marketplace and looks up what it names. `lint_root`: the canonical lint
/// root (`None`: nothing is looked up).
pub fn parse_manifest(
    host: Host,
    marketplace: bool,
    source: &SourceFile,
    lint_root: Option<&Path>,
) -> ManifestDoc {
    let parsed = parse_json_document(&source.text);
    let root = manifest_root(&source.rel_path, host, marketplace);
    let abs_root = manifest_root_abs(&source.abs_path, host, marketplace);
    let mut doc = ManifestDoc {
        host,
        marketplace,
        parsed,
        root,
        path_problems: Vec::new(),
        sources: Vec::new(),
        inline_hooks: None,
        inline_mcp: None,
    };
    let Ok(json) = &doc.parsed else {
        return doc;
    };
    let disk = Disk::new(lint_root, &abs_root);
    let mut problems = Vec::new();
    let mut sources = Vec::new();
    if marketplace {
        marketplace_paths(
            host,
            &json.root,
            &doc.root,
            disk.as_ref(),
            &mut problems,
            &mut sources,
        );
    } else {
        if let Some(disk) = &disk {
            component_paths(host, &json.root, "", disk, &mut problems);
        }
        let bases = RefBases::new(lint_root, &abs_root, &abs_root, host);
        doc.inline_hooks = json
            .root
            .get("hooks")
            .filter(|h| h.is_object())
            .map(|h| hooks_view(h, "/hooks", &source.text, bases.as_ref()));
        doc.inline_mcp = json
            .root
            .get("mcpServers")
            .filter(|m| m.is_object())
            .map(|m| servers_view(m, "/mcpServers", bases.as_ref()));
    }
    doc.path_problems = problems;
    doc.sources = sources;
    doc
}

/// Checks every component path of a plugin manifest (or of a marketplace entry that carries the
/// manifest, `pointer` then being the entry's) against `disk`.
fn component_paths(
    host: Host,
    root: &Node,
    pointer: &str,
    disk: &Disk,
    problems: &mut Vec<NamedPath>,
) {
    let Some(members) = root.as_object() else {
        return;
    };
    for member in members {
        if !component_fields(host).contains(&member.key.as_str()) {
            continue;
        }
        let mut values = Vec::new();
        path_values(
            &member.key,
            &member.value,
            format!(
                "{pointer}/{}",
                crate::parse::node::pointer_token(&member.key)
            ),
            &mut values,
        );
        for (value_pointer, node) in values {
            check_value(disk, value_pointer, node, problems);
        }
    }
    if host == Host::Codex {
        if let Some(interface) = root.get("interface") {
            for key in ["composerIcon", "logo", "logoDark", "screenshots"] {
                let mut values = Vec::new();
                if let Some(node) = interface.get(key) {
                    path_values(key, node, format!("{pointer}/interface/{key}"), &mut values);
                }
                for (value_pointer, node) in values {
                    check_value(disk, value_pointer, node, problems);
                }
            }
        }
    }
}

fn check_value(disk: &Disk, pointer: String, node: &Node, problems: &mut Vec<NamedPath>) {
    let Some(written) = node.as_str() else {
        return;
    };
    if written.trim().is_empty() || is_url(written) || is_glob(written) || written.contains('$') {
        return;
    }
    if let (Some(problem), _) = disk.check(written) {
        problems.push(NamedPath {
            pointer,
            span: node.span,
            written: written.to_string(),
            problem,
        });
    }
}

/// The local source of a marketplace entry: the string, or Codex's `{"source": "local", "path":
/// …}`, with the pointer to it. Remote sources (GitHub, git URLs, npm) are `None`.
fn local_source<'a>(host: Host, entry: &'a Node, pointer: &str) -> Option<(String, &'a Node)> {
    let source = entry.get("source")?;
    match &source.value {
        Value::String(text) if !is_url(text) => {
            // A Cursor source may be a bare folder name; Claude Code's and Codex's start `./`.
            Some((format!("{pointer}/source"), source))
        }
        Value::Object(_) if host == Host::Codex || host == Host::ClaudeCode => {
            let kind = source.get("source").and_then(Node::as_str)?;
            let path = source.get("path").filter(|p| p.as_str().is_some())?;
            (kind == "local").then(|| (format!("{pointer}/source/path"), path))
        }
        _ => None,
    }
}

fn marketplace_paths(
    host: Host,
    root: &Node,
    root_rel: &str,
    disk: Option<&Disk>,
    problems: &mut Vec<NamedPath>,
    sources: &mut Vec<(usize, String)>,
) {
    // Claude Code reads relative sources from `metadata.pluginRoot` when it is set.
    let plugin_root = root
        .get("metadata")
        .and_then(|m| m.get("pluginRoot"))
        .and_then(Node::as_str)
        .filter(|p| !is_url(p) && !climbs(p) && !p.starts_with('/'))
        .unwrap_or("");
    let entries = root
        .get("plugins")
        .and_then(Node::as_array)
        .unwrap_or_default();
    for (index, entry) in entries.iter().enumerate() {
        let pointer = format!("/plugins/{index}");
        let Some((source_pointer, node)) = local_source(host, entry, &pointer) else {
            continue;
        };
        let Some(written) = node.as_str() else {
            continue;
        };
        let from_base = if written.starts_with("./") || written.starts_with("../") {
            written.to_string()
        } else {
            crate::source::join_path(plugin_root, written)
        };
        let lexical =
            crate::source::normalize_path(&crate::source::join_path(root_rel, &from_base))
                .filter(|p| !p.starts_with("..") && !p.starts_with('/'));
        if let Some(rel) = &lexical {
            sources.push((index, rel.clone()));
        }
        let Some(disk) = disk else {
            continue;
        };
        let problem = match disk.check(&from_base) {
            (Some(problem), _) => Some(problem),
            (None, Some(found)) if !holds_plugin(&found) && !carries_manifest(entry) => {
                Some(PathProblem::NotAPlugin)
            }
            (None, Some(found)) => {
                // An entry that carries the manifest (`"strict": false`) names its components
                // from the plugin folder.
                if carries_manifest(entry) {
                    if let Some(plugin_disk) = Disk::new(Some(&disk.lint_root), &found) {
                        component_paths(host, entry, &pointer, &plugin_disk, problems);
                    }
                }
                None
            }
            (None, None) => None,
        };
        if let Some(problem) = problem {
            problems.push(NamedPath {
                pointer: source_pointer,
                span: node.span,
                written: written.to_string(),
                problem,
            });
        }
    }
}

/// Whether a marketplace entry is the plugin's manifest itself (`"strict": false`).
pub fn carries_manifest(entry: &Node) -> bool {
    entry.get("strict").and_then(Node::as_bool) == Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_roots_are_above_the_manifest_folder() {
        assert_eq!(
            manifest_root(
                "plugins/a/.claude-plugin/plugin.json",
                Host::ClaudeCode,
                false
            ),
            "plugins/a"
        );
        assert_eq!(
            manifest_root(".claude-plugin/marketplace.json", Host::ClaudeCode, true),
            ""
        );
        assert_eq!(
            manifest_root(".agents/plugins/marketplace.json", Host::Codex, true),
            ""
        );
        assert_eq!(
            manifest_root("x/.agents/plugins/marketplace.json", Host::Codex, true),
            "x"
        );
    }

    #[test]
    fn paths_that_climb_or_are_absolute_escape() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("canonical");
        std::fs::create_dir_all(root.join("p/skills")).expect("folders");
        let base = root.join("p");
        assert_eq!(check_path(&root, &base, "./skills").0, None);
        assert_eq!(
            check_path(&root, &base, "./nope").0,
            Some(PathProblem::Missing)
        );
        assert_eq!(
            check_path(&root, &base, "../p/skills").0,
            Some(PathProblem::Escapes)
        );
        assert_eq!(
            check_path(&root, &base, "/etc").0,
            Some(PathProblem::Escapes)
        );
        assert_eq!(
            check_path(&root, &base, "C:\\x").0,
            Some(PathProblem::Escapes)
        );
        assert!(climbs("a/../../b"));
        assert!(!climbs("a/../b"));
    }
}
