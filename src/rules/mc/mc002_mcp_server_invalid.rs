//! MC002 `mcp-server-invalid`: An MCP server entry is not shaped as clients read it.

use super::servers;
use crate::check::{Sink, Unit};
use crate::model::mcp_config::servers_key;
use crate::parse::{Node, Value};

const TYPES: [&str; 5] = ["stdio", "http", "sse", "ws", "streamable-http"];

fn must_be(sink: &mut Sink, file: crate::source::FileId, node: &Node, what: String, help: &str) {
    sink.report(file, node.span, what)
        .label("not what MCP clients read here")
        .help(help.to_string());
}

pub(super) fn mcp_server_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.mcp_configs() {
        let Ok(json) = &doc.parsed else {
            continue;
        };
        if let Some(key) = servers_key(&json.root) {
            if let Some(node) = json.root.get(key).filter(|n| !n.is_object()) {
                must_be(
                    sink,
                    file,
                    node,
                    format!(
                        "`{key}` must be an object of servers, found {}",
                        node.type_name()
                    ),
                    "map each server's name to its configuration",
                );
            }
        }
    }
    for (file, server, node) in servers(unit) {
        let name = &server.name;
        if !node.is_object() {
            must_be(
                sink,
                file,
                node,
                format!(
                    "MCP server `{name}` must be an object, found {}",
                    node.type_name()
                ),
                "give the server a `command` (local) or a `url` (remote)",
            );
            continue;
        }
        let kind = node.get("type").and_then(Node::as_str);
        if let Some(type_node) = node.get("type") {
            if !kind.is_some_and(|k| TYPES.contains(&k)) {
                must_be(
                    sink,
                    file,
                    type_node,
                    format!("MCP server `{name}` has an unknown `type`"),
                    "use `stdio` for a local command, `http` (or `sse`) for a remote server",
                );
            }
        }
        let command = node.get("command");
        let url = node.get("url");
        if command.is_none() && url.is_none() {
            sink.report(
                file,
                server.name_span,
                format!("MCP server `{name}` has neither `command` nor `url`"),
            )
            .label("the client cannot start or reach this server")
            .help("add `command` (and `args`) for a local server, or `url` for a remote one");
        }
        for (key, value) in [("command", command), ("url", url)] {
            if let Some(value) = value {
                // An empty string is a placeholder the user fills in (a template's `"url": ""`).
                if value.as_str().is_none() {
                    must_be(
                        sink,
                        file,
                        value,
                        format!(
                            "`{key}` of MCP server `{name}` must be a string, found {}",
                            value.type_name()
                        ),
                        "write it as one string; arguments go in `args`",
                    );
                }
            }
        }
        if let Some(args) = node.get("args") {
            match &args.value {
                Value::Array(items) => {
                    for item in items.iter().filter(|i| i.as_str().is_none()) {
                        must_be(
                            sink,
                            file,
                            item,
                            format!(
                                "argument of MCP server `{name}` must be a string, found {}",
                                item.type_name()
                            ),
                            "quote the argument: clients pass `args` as strings",
                        );
                    }
                }
                _ => must_be(
                    sink,
                    file,
                    args,
                    format!("`args` of MCP server `{name}` must be a list of strings"),
                    "write the arguments as a JSON array of strings",
                ),
            }
        }
        for key in ["env", "headers"] {
            let Some(map) = node.get(key) else {
                continue;
            };
            match map.as_object() {
                Some(members) => {
                    for member in members.iter().filter(|m| m.value.as_str().is_none()) {
                        must_be(
                            sink,
                            file,
                            &member.value,
                            format!(
                                "`{key}.{}` of MCP server `{name}` must be a string, found {}",
                                member.key,
                                member.value.type_name()
                            ),
                            "quote the value: clients pass these as strings",
                        );
                    }
                }
                None => must_be(
                    sink,
                    file,
                    map,
                    format!("`{key}` of MCP server `{name}` must be an object of strings"),
                    "map each name to a string value",
                ),
            }
        }
    }
}
