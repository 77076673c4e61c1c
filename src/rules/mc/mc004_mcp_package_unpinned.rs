//! MC004 `mcp-package-unpinned`: An MCP server runs a registry package at whatever version is
//! current.

use super::servers;
use crate::check::{Sink, Unit};
use crate::parse::Node;
use crate::semantic::commands::unpinned_packages;

pub(super) fn mcp_package_unpinned(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, server, node) in servers(unit) {
        let Some(command) = node.get("command").filter(|c| c.as_str().is_some()) else {
            continue;
        };
        let mut words = vec![(command.as_str().unwrap_or_default(), command.span)];
        for arg in node
            .get("args")
            .and_then(Node::as_array)
            .unwrap_or_default()
        {
            if let Some(text) = arg.as_str() {
                words.push((text, arg.span));
            }
        }
        for run in unpinned_packages(&words) {
            let version = match &run.version {
                Some(tag) => format!("at `{tag}`"),
                None => "without a version".to_string(),
            };
            sink.report(
                file,
                run.span,
                format!(
                    "MCP server `{}` runs `{}` through `{}` {version}",
                    server.name, run.package, run.runner
                ),
            )
            .label("fetches and runs the newest release each time the client starts")
            .help("pin an exact version (`name@1.2.3`, `name==1.2.3`) so a new release cannot change what runs with the user's rights");
        }
    }
}
