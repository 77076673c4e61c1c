//! HK007 `hook-mcp-matcher-not-namespaced`: A plugin's hook matches its own MCP server's tools by
//! the name they have outside a plugin, so it never fires.

use crate::check::{Sink, Unit};
use crate::index::Parsed;
use crate::model::plugin::Host;

/// The server names a matcher's `mcp__<server>__…` patterns name, with their byte offsets in the
/// matcher: the text after each `mcp__` up to the next `__` or a character no server name has.
fn servers_named(matcher: &str) -> Vec<(usize, &str)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = matcher.get(from..).and_then(|rest| rest.find("mcp__")) {
        let start = from + at + "mcp__".len();
        let rest = matcher.get(start..).unwrap_or_default();
        let end = rest.find("__").unwrap_or(rest.len()).min(
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(rest.len()),
        );
        if let Some(name) = rest.get(..end) {
            found.push((start, name));
        }
        from = start;
    }
    found
}

/// The Claude Code plugin a folder is in: its name and the names of the MCP servers it defines
/// (in `.mcp.json` at its root or inline in its manifest).
fn plugin_servers(unit: &Unit<'_>) -> Option<(String, Vec<String>)> {
    let (root, hosts) = unit.repo.contracts.plugins.plugin_of(unit.dir())?;
    if !hosts.contains(Host::ClaudeCode) {
        return None;
    }
    let manifest_path = crate::source::join_path(root, ".claude-plugin/plugin.json");
    let Parsed::Manifest(manifest) = unit.repo.parsed(unit.repo.file_by_path(&manifest_path)?)
    else {
        return None;
    };
    let (name, _) = manifest.name()?;
    let mut servers: Vec<String> = manifest
        .inline_mcp
        .iter()
        .flat_map(|set| set.servers.iter().map(|s| s.name.clone()))
        .collect();
    let config = crate::source::join_path(root, ".mcp.json");
    // The configuration is another folder's file, parsed by its own unit: read it again here
    // (only for a plugin's hooks, and a small file).
    let parsed = unit
        .repo
        .file_by_path(&config)
        .and_then(|id| crate::index::parse_pending(unit.repo, id));
    if let Some(Parsed::McpConfig(doc)) = parsed {
        servers.extend(
            doc.servers
                .iter()
                .flat_map(|set| set.servers.iter().map(|s| s.name.clone())),
        );
    }
    Some((name.to_string(), servers))
}

pub(super) fn hook_mcp_matcher_not_namespaced(unit: &Unit<'_>, sink: &mut Sink) {
    // A Claude Code plugin's servers' tools are called `mcp__plugin_<plugin>_<server>__<tool>`.
    let sets = unit.hook_sets();
    if sets.is_empty() {
        return;
    }
    let Some((plugin, servers)) = plugin_servers(unit) else {
        return;
    };
    if servers.is_empty() {
        return;
    }
    for (file, _, hooks) in sets {
        if hooks.flat {
            continue;
        }
        for matcher in &hooks.matchers {
            let Some((_, server)) = servers_named(&matcher.text)
                .into_iter()
                .find(|(_, name)| servers.iter().any(|s| s == name))
            else {
                continue;
            };
            let namespaced = format!("mcp__plugin_{plugin}_{server}__");
            sink.report(
                file,
                matcher.span,
                format!("hook matches `mcp__{server}__…`, but this plugin's server `{server}` is called `{namespaced}…`"),
            )
            .label("never matches: the hook never runs")
            .help(format!(
                "match `{namespaced}<tool>`: a plugin's MCP tools carry the plugin's name, so a {} hook on `mcp__{server}__…` sees none of them",
                matcher.event
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::servers_named;

    #[test]
    fn server_names_are_read_from_each_mcp_prefix() {
        let names: Vec<&str> = servers_named("mcp__github__create_issue|mcp__memory.*|Bash")
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        assert_eq!(names, ["github", "memory"]);
        assert!(servers_named("Edit|Write").is_empty());
        assert_eq!(
            servers_named("mcp__plugin_kit_db__query")[0].1,
            "plugin_kit_db"
        );
    }
}
