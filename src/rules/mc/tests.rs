use crate::diagnostic::Diagnostic;

/// Lints `files` with only `code` selected; returns (diagnostic, primary text).
fn run_files(code: &str, files: &[(&str, &str)]) -> Vec<(Diagnostic, String)> {
    crate::rule_testing::findings(code, files)
}

/// Lints a project's `.mcp.json` holding `servers` (the members of `mcpServers`).
fn run(code: &str, servers: &str) -> Vec<(Diagnostic, String)> {
    run_files(
        code,
        &[(
            "tickets/.mcp.json",
            &format!(r#"{{"mcpServers": {{{servers}}}}}"#),
        )],
    )
}

fn messages(found: &[(Diagnostic, String)]) -> Vec<&str> {
    found.iter().map(|(d, _)| d.message.as_str()).collect()
}

#[test]
fn mc002_a_server_needs_a_command_or_a_url() {
    let found = run("MC002", r#""db": {"env": {}}"#);
    assert_eq!(
        messages(&found),
        ["MCP server `db` has neither `command` nor `url`"]
    );
    let args = run(
        "MC002",
        r#""db": {"command": "db-mcp", "args": "--read-only"}"#,
    );
    assert_eq!(
        messages(&args),
        ["`args` of MCP server `db` must be a list of strings"]
    );
    assert!(run(
        "MC002",
        r#""db": {"command": "db-mcp", "args": ["--read-only"]}"#
    )
    .is_empty());
}

#[test]
fn mc003_reports_a_random_value_under_a_secret_name_but_not_a_reference() {
    let found = run(
        "MC003",
        r#""search": {"command": "search-mcp", "env": {"SEARCH_API_KEY": "k3Jx9QpL2mZ8vRt6Wn4Yb7Hc1Fd5Gs0A"}}"#,
    );
    assert_eq!(
        messages(&found),
        ["`env.SEARCH_API_KEY` of MCP server `search` holds a secret in plain text"]
    );
    assert_eq!(found[0].1, r#""k3Jx9QpL2mZ8vRt6Wn4Yb7Hc1Fd5Gs0A""#);
    assert!(found[0]
        .0
        .help
        .as_deref()
        .is_some_and(|h| h.starts_with("write `\"${SEARCH_API_KEY}\"`")));
    // A header's help names the variable in upper case with underscores.
    let header = run(
        "MC003",
        r#""t": {"type": "http", "url": "https://t.example.com/mcp", "headers": {"X-Api-Key": "9fQ2mX7pLk4Rt8vWz3Ns6Yb1Hc5Jd0Ge"}}"#,
    );
    assert!(header[0]
        .0
        .help
        .as_deref()
        .is_some_and(|h| h.starts_with("write `\"${X_API_KEY}\"`")));
    // References to a secret held elsewhere, a short value, a value under an ordinary name.
    for env in [
        r#""SEARCH_API_KEY": "${SEARCH_API_KEY}""#,
        r#""SEARCH_API_KEY": "$SEARCH_API_KEY""#,
        r#""SEARCH_API_KEY": "changeme""#,
        r#""REGION": "k3Jx9QpL2mZ8vRt6Wn4Yb7Hc1Fd5Gs0A""#,
    ] {
        let servers = format!(r#""search": {{"command": "search-mcp", "env": {{{env}}}}}"#);
        assert!(run("MC003", &servers).is_empty(), "{env}");
    }
}

#[test]
fn mc004_reports_the_package_and_the_missing_pin() {
    let found = run(
        "MC004",
        r#""browser": {"command": "npx", "args": ["-y", "@playwright/mcp"]}"#,
    );
    assert_eq!(
        messages(&found),
        ["MCP server `browser` runs `@playwright/mcp` through `npx` without a version"]
    );
    assert_eq!(found[0].1, r#""@playwright/mcp""#);
    assert!(run(
        "MC004",
        r#""browser": {"command": "npx", "args": ["-y", "@playwright/mcp@0.0.41"]}"#
    )
    .is_empty());
}

#[test]
fn mc005_plain_http_is_reported_only_off_this_machine() {
    let found = run(
        "MC005",
        r#""t": {"type": "http", "url": "http://tickets.example.com:8080/mcp"}"#,
    );
    assert_eq!(
        messages(&found),
        ["MCP server `t` is reached over plain HTTP at `tickets.example.com`"]
    );
    assert_eq!(found[0].1, r#""http://tickets.example.com:8080/mcp""#);
    for url in [
        "https://tickets.example.com/mcp",
        "http://localhost:3000/mcp",
        "http://127.0.0.1:3000/mcp",
        "http://[::1]:3000/mcp",
        "http://${HOST}/mcp",
    ] {
        let servers = format!(r#""t": {{"type": "http", "url": "{url}"}}"#);
        assert!(run("MC005", &servers).is_empty(), "{url}");
    }
}

#[test]
fn mc006_a_plugin_server_file_must_exist_inside_the_plugin() {
    let plugin = |mcp: &str| {
        run_files(
            "MC006",
            &[
                (
                    "db-tools/.claude-plugin/plugin.json",
                    r#"{"name": "db-tools", "version": "1.0.0"}"#,
                ),
                ("db-tools/.mcp.json", mcp),
                ("db-tools/dist/server.js", "// server\n"),
            ],
        )
    };
    let missing = plugin(r#"{"mcpServers": {"local": {"command": "./bin/db-mcp.sh"}}}"#);
    assert_eq!(
        messages(&missing),
        ["MCP server starts `./bin/db-mcp.sh`, which does not exist"]
    );
    assert!(plugin(
        r#"{"mcpServers": {"db": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/dist/server.js"]}}}"#
    )
    .is_empty());
}
