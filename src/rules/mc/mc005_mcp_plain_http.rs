//! MC005 `mcp-plain-http`: An MCP server is reached over plain `http://` on another machine.

use super::servers;
use crate::check::{Sink, Unit};

/// The host of an `http://` URL.
fn http_host(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("http://").or_else(|| {
        url.get(..7)
            .filter(|p| p.eq_ignore_ascii_case("http://"))
            .map(|_| &url[7..])
    })?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = if let Some(inner) = host.strip_prefix('[') {
        inner.split(']').next().unwrap_or(inner)
    } else {
        host.split(':').next().unwrap_or(host)
    };
    Some(host)
}

fn is_loopback(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "::1"
        || host == "0.0.0.0"
        || host.contains("${")
}

pub(super) fn mcp_plain_http(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, server, node) in servers(unit) {
        let Some(url) = node.get("url") else {
            continue;
        };
        let Some(host) = url.as_str().and_then(http_host) else {
            continue;
        };
        if host.is_empty() || is_loopback(host) {
            continue;
        }
        sink.report(
            file,
            url.span,
            format!(
                "MCP server `{}` is reached over plain HTTP at `{host}`",
                server.name
            ),
        )
        .label("requests, tool results and any credentials cross the network unencrypted")
        .help("use an `https://` URL; plain HTTP is for a server on this machine (`localhost`)");
    }
}
