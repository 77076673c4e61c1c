//! MC003 `mcp-inline-secret`: An MCP server configuration has a secret written inline.

use super::servers;
use crate::check::{code, Sink, Unit};
use crate::semantic::credentials::{find_credentials, looks_random};

/// Names under which a value is a secret.
fn secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    [
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "API_KEY",
        "APIKEY",
        "ACCESS_KEY",
        "PRIVATE_KEY",
        "CREDENTIAL",
        "AUTHORIZATION",
        "X-API-KEY",
        "COOKIE",
    ]
    .iter()
    .any(|word| upper.contains(word))
        || upper.ends_with("_KEY")
        || upper.ends_with("-KEY")
}

/// Whether a value refers to a secret held elsewhere rather than holding one: an environment
/// reference (`${VAR}`, `$VAR`, `${env:VAR}`), a user-config substitution, or an input prompt.
fn is_reference(value: &str) -> bool {
    value.contains("${")
        || value.contains("$(")
        || {
            let bytes = value.as_bytes();
            bytes
                .windows(2)
                .any(|w| w[0] == b'$' && (w[1].is_ascii_uppercase() || w[1] == b'_'))
        }
        || value.contains("{{")
}

pub(super) fn mcp_inline_secret(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, server, node) in servers(unit) {
        for key in ["env", "headers"] {
            for member in node
                .get(key)
                .and_then(|m| m.as_object())
                .unwrap_or_default()
            {
                let Some(value) = member.value.as_str() else {
                    continue;
                };
                if is_reference(value) {
                    continue;
                }
                let known = find_credentials(value);
                // SE002 reports well-known token formats in every file; it keeps those here.
                if !known.is_empty() && unit.reports(code::SE002, file) {
                    continue;
                }
                let body = value
                    .trim()
                    .trim_start_matches("Bearer ")
                    .trim_start_matches("bearer ")
                    .trim_start_matches("Basic ")
                    .trim_start_matches("token ");
                let secret_like =
                    secret_name(&member.key) && body.len() >= 16 && looks_random(body);
                if known.is_empty() && !secret_like {
                    continue;
                }
                sink.report(
                    file,
                    member.value.span,
                    format!(
                        "`{key}.{}` of MCP server `{}` holds a secret in plain text",
                        member.key, server.name
                    ),
                )
                .label("committed with the configuration")
                .help(format!(
                    "write `\"${{{}}}\"` and set the variable where the client runs; if a real secret was committed, revoke it: it stays in the repository history",
                    member.key.to_ascii_uppercase().replace('-', "_")
                ));
            }
        }
    }
}
