//! MC: MCP server configurations (`.mcp.json`, `mcp.json`, a manifest's inline `mcpServers`). A
//! local server is a program the client starts with the user's rights; a remote one receives the
//! headers written here. Checked: the shape the client reads, secrets written inline, packages
//! run at whatever version the registry serves, plain `http://` to another machine, and local
//! files that are not there. Nothing is started or fetched.
//!
//! One file per rule, `<code>_<rule name>.rs`; what several rules of the family share stays here.

mod mc001_mcp_config_invalid;
mod mc002_mcp_server_invalid;
mod mc003_mcp_inline_secret;
mod mc004_mcp_package_unpinned;
mod mc005_mcp_plain_http;
mod mc006_mcp_command_missing;
#[cfg(test)]
mod tests;

use crate::check::Unit;
use crate::check::{code, Check, RuleImpl};
use crate::model::mcp_config::ServerRef;
use crate::parse::Node;
use crate::source::FileId;
use mc001_mcp_config_invalid::mcp_config_invalid;
use mc002_mcp_server_invalid::mcp_server_invalid;
use mc003_mcp_inline_secret::mcp_inline_secret;
use mc004_mcp_package_unpinned::mcp_package_unpinned;
use mc005_mcp_plain_http::mcp_plain_http;
use mc006_mcp_command_missing::mcp_command_missing;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::MC001, check: Check::Unit(mcp_config_invalid) },
    RuleImpl { code: code::MC002, check: Check::Unit(mcp_server_invalid) },
    RuleImpl { code: code::MC003, check: Check::Unit(mcp_inline_secret) },
    RuleImpl { code: code::MC004, check: Check::Unit(mcp_package_unpinned) },
    RuleImpl { code: code::MC005, check: Check::Unit(mcp_plain_http) },
    RuleImpl { code: code::MC006, check: Check::Unit(mcp_command_missing) },
];

/// Every server object of the unit, with its file and entry.
fn servers<'a>(unit: &Unit<'a>) -> Vec<(FileId, &'a ServerRef, &'a Node)> {
    let mut out = Vec::new();
    for (file, root, set) in unit.server_sets() {
        // The servers object is looked up once; each server by its position in it.
        let members = root
            .pointer(&set.pointer)
            .and_then(Node::as_object)
            .unwrap_or_default();
        for server in &set.servers {
            if let Some(member) = members.get(server.index) {
                out.push((file, server, &member.value));
            }
        }
    }
    out
}
