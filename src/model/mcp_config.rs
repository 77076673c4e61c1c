//! MCP server configurations: `.mcp.json` and `mcp.json` (`{"mcpServers": {name: server}}`, VS
//! Code's `{"servers": …}`, or a flat `{name: server}` map), and the `mcpServers` object a plugin manifest may carry inline. A
//! server is a local command the client starts (`command`, `args`, `env`) or a remote endpoint
//! (`url`, `headers`). The local files a server starts are looked up here; nothing is ever
//! started or fetched.

use crate::model::host::{local_refs_in_words, LocalRef, RefBases};
use crate::parse::json::{parse_json_document, JsonDocument, JsonError};
use crate::parse::Node;
use crate::source::{SourceFile, Span};
use std::path::Path;

/// One server of a configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerRef {
    pub name: String,
    pub name_span: Span,
    /// JSON pointer to the server object.
    pub pointer: String,
    /// Its position among the servers object's members.
    pub index: usize,
}

/// The servers of one `mcpServers` object.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct McpServers {
    /// JSON pointer to the servers object (`/mcpServers`).
    pub pointer: String,
    pub servers: Vec<ServerRef>,
    /// Plugin files a server's `command` or `args` name that do not exist or lead out of the
    /// plugin.
    pub broken_refs: Vec<LocalRef>,
}

/// An MCP configuration file.
#[derive(Debug, Clone, PartialEq)]
pub struct McpConfigDoc {
    pub parsed: Result<JsonDocument, JsonError>,
    /// `None` when the root has no servers object (MC002 says so).
    pub servers: Option<McpServers>,
}

/// The servers of `servers` (the object at `pointer`).
pub(crate) fn servers_view(servers: &Node, pointer: &str, bases: Option<&RefBases>) -> McpServers {
    let mut view = McpServers {
        pointer: pointer.to_string(),
        ..McpServers::default()
    };
    for (index, member) in servers.as_object().unwrap_or_default().iter().enumerate() {
        view.servers.push(ServerRef {
            index,
            name: member.key.clone(),
            name_span: member.key_span,
            pointer: format!(
                "{pointer}/{}",
                crate::parse::node::pointer_token(&member.key)
            ),
        });
        let mut words: Vec<(String, Span)> = Vec::new();
        if let Some(command) = member.value.get("command") {
            if let Some(text) = command.as_str() {
                words.push((text.to_string(), command.span));
            }
        }
        for arg in member
            .value
            .get("args")
            .and_then(Node::as_array)
            .unwrap_or_default()
        {
            if let Some(text) = arg.as_str() {
                words.push((text.to_string(), arg.span));
            }
        }
        local_refs_in_words(&words, bases, &mut view.broken_refs);
    }
    view
}

/// The key holding the servers: `mcpServers`, or VS Code's `servers`.
pub fn servers_key(root: &Node) -> Option<&'static str> {
    ["mcpServers", "servers"]
        .into_iter()
        .find(|key| root.get(key).is_some())
}

/// Parses an MCP configuration and looks up the local files its servers start.
pub fn parse_mcp_config(source: &SourceFile, lint_root: Option<&Path>) -> McpConfigDoc {
    let parsed = parse_json_document(&source.text);
    let servers = parsed.as_ref().ok().and_then(|doc| {
        let bases = RefBases::for_file(lint_root, &source.abs_path);
        if is_flat_server_map(&doc.root) {
            return Some(servers_view(&doc.root, "", bases.as_ref()));
        }
        let key = servers_key(&doc.root)?;
        let node = doc.root.get(key).filter(|s| s.is_object())?;
        Some(servers_view(node, &format!("/{key}"), bases.as_ref()))
    });
    McpConfigDoc { parsed, servers }
}

/// A root that is itself the servers object, as a plugin's `.mcp.json` may be written (`{"db":
/// {"command": "db-mcp"}}`; Claude Code reads it, and Anthropic's marketplace ships it): no
/// `mcpServers` or `servers` key, at least one member, and every member an object with a
/// string `command` or `url`.
pub fn is_flat_server_map(root: &Node) -> bool {
    let Some(members) = root.as_object() else {
        return false;
    };
    servers_key(root).is_none()
        && !members.is_empty()
        && members.iter().all(|member| {
            member.value.is_object()
                && ["command", "url"]
                    .iter()
                    .any(|key| member.value.get(key).and_then(Node::as_str).is_some())
        })
}

/// Whether an `mcp.json` found outside the places clients read it from configures servers: a
/// `mcpServers` or `servers` key, or (parsed, as only these files are) a flat map of servers.
pub fn looks_like_mcp_config(text: &str) -> bool {
    text.contains("\"mcpServers\"")
        || text.contains("\"servers\"")
        || ((text.contains("\"command\"") || text.contains("\"url\""))
            && parse_json_document(text).is_ok_and(|doc| is_flat_server_map(&doc.root)))
}
