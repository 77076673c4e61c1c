use crate::index::Settings;
use crate::{lint, LintOptions};

use crate::rule_testing::write;

/// Lints `files` with only `code` selected; (message, primary text, secondary texts).
fn run_with(
    code: &str,
    files: &[(&str, &str)],
    settings: Settings,
) -> Vec<(String, String, Vec<String>)> {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), files);
    let options = LintOptions {
        settings,
        ..crate::rule_testing::options(dir.path(), &[code])
    };
    let outcome = lint(&options).expect("lint runs");
    let text = |file, span: crate::source::Span| {
        outcome
            .repo
            .text(file)
            .get(span.start..span.end)
            .unwrap_or("")
            .to_string()
    };
    outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| {
            (
                d.message.clone(),
                text(d.primary.file, d.primary.span),
                d.secondary.iter().map(|l| text(l.file, l.span)).collect(),
            )
        })
        .collect()
}

fn run(code: &str, files: &[(&str, &str)]) -> Vec<(String, String, Vec<String>)> {
    run_with(code, files, Settings::default())
}

fn contract(id: &str, extra: &str) -> String {
    format!(
        "---\nname: X\nid: {id}\ndescription: d\nversion: 1.0.0\n{extra}inputs:\n  type: object\n  properties:\n    a: {{ type: string }}\n  required: [a]\noutputs:\n  type: object\n---\n"
    )
}

fn forge(name: &str, kind: &str, flags: &str) -> String {
    format!(
        r#"[{{"name": "{name}", "type": "{kind}", "description": "d", {flags}"inputSchema": {{"type": "object", "properties": {{"a": {{"type": "string"}}, "user_confirmed": {{"type": "boolean"}}}}, "required": ["a", "user_confirmed"]}}}}]"#
    )
}

#[test]
fn links_by_convention_and_by_map() {
    let files = [
        (
            ".tools/cal/event-create/TOOL.md",
            contract("calendar.event-create", "mutates: [\"calendar:events\"]\n"),
        ),
        (
            ".tools/other/TOOL.md",
            contract("other-id", "mutates: [\"calendar:events\"]\n"),
        ),
        (
            "s/tools.json",
            format!(
                "[{}, {}]",
                forge("calendar_event_create", "read", "").trim_matches(['[', ']']),
                forge("mapped_tool", "read", "").trim_matches(['[', ']'])
            ),
        ),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let found = run("XC001", &files);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.contains("`calendar_event_create`"));
    assert_eq!(found[0].1, r#""read""#);
    assert_eq!(found[0].2, [r#"["calendar:events"]"#]);

    let mut settings = Settings::default();
    settings
        .contract_map
        .insert("mapped_tool".to_string(), "other-id".to_string());
    let found = run_with("XC001", &files, settings);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[1].0.contains("`mapped_tool`") && found[1].0.contains("`other-id`"));
}

#[test]
fn side_effects_against_mutates() {
    let write_empty = contract("w", "mutates: []\n");
    let no_mutates = contract("r", "");
    let tools = format!(
        "[{}, {}]",
        forge("w", "write", r#""requiresConfirmation": true, "#).trim_matches(['[', ']']),
        forge("r", "read", "").trim_matches(['[', ']'])
    );
    let found = run(
        "XC001",
        &[
            (".tools/w/TOOL.md", &write_empty),
            (".tools/r/TOOL.md", &no_mutates),
            ("s/tools.json", &tools),
        ],
    );
    assert_eq!(found.len(), 1, "a contract without `mutates` is TM004's");
    assert!(found[0].0.contains("has `mutates: []`"));
}

#[test]
fn approval_classes_that_gate() {
    let cases = [
        ("approval: always\nmutates: []\n", true),
        ("approval: \"policy:finance\"\nmutates: []\n", true),
        ("approval: on-mutate\nmutates: [\"db:x\"]\n", true),
        ("approval: on-mutate\nmutates: []\n", false),
        ("approval: auto\nmutates: [\"db:x\"]\n", false),
        ("mutates: [\"db:x\"]\n", false),
    ];
    for (extra, fires) in cases {
        let tool_md = contract("t", extra);
        let found = run(
            "XC002",
            &[
                (".tools/t/TOOL.md", &tool_md),
                ("s/tools.json", &forge("t", "write", "")),
            ],
        );
        assert_eq!(!found.is_empty(), fires, "{extra}");
    }
    // An MCP tool is gated by a required boolean `user_confirmed`.
    let tool_md = contract("t", "approval: always\nmutates: []\n");
    let gated = r#"{"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "boolean"}}, "required": ["user_confirmed"]}}]}"#;
    assert!(run(
        "XC002",
        &[(".tools/t/TOOL.md", &tool_md), ("s/tools.json", gated)]
    )
    .is_empty());
    let ungated = r#"{"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "boolean"}}}}]}"#;
    let found = run(
        "XC002",
        &[(".tools/t/TOOL.md", &tool_md), ("s/tools.json", ungated)],
    );
    assert_eq!(found[0].1, r#""t""#);
    assert_eq!(found[0].2, ["always"]);
}

#[test]
fn idempotency_defaults_to_false_on_the_contract() {
    let tool_md = contract("t", "mutates: []\n");
    let found = run(
        "XC003",
        &[
            (".tools/t/TOOL.md", &tool_md),
            (
                "s/tools.json",
                &forge("t", "write", r#""idempotent": true, "#),
            ),
        ],
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].2, ["t"], "the label sits on the contract's `id`");
    for flags in [r#""idempotent": false, "#, ""] {
        assert!(run(
            "XC003",
            &[
                (".tools/t/TOOL.md", &tool_md),
                ("s/tools.json", &forge("t", "write", flags)),
            ],
        )
        .is_empty());
    }
}

#[test]
fn required_inputs_in_every_dialect() {
    let tool_md = contract("f", "mutates: []\n");
    let openai_without_parameters =
        r#"[{"type": "function", "function": {"name": "f", "description": "d"}}]"#;
    let found = run(
        "XC004",
        &[
            (".tools/f/TOOL.md", &tool_md),
            ("s/tools.json", openai_without_parameters),
        ],
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, r#""f""#);
    assert_eq!(found[0].2, ["a"]);
    let script = r#"[{"name": "f", "description": "d", "script": "f.sh", "parameters": {"b": {"type": "string"}}}]"#;
    let found = run(
        "XC004",
        &[(".tools/f/TOOL.md", &tool_md), ("s/tools.json", script)],
    );
    assert_eq!(found[0].1, r#""parameters""#);
    let script_ok = r#"[{"name": "f", "description": "d", "script": "f.sh", "parameters": {"a": {"type": "string"}}}]"#;
    assert!(run(
        "XC004",
        &[(".tools/f/TOOL.md", &tool_md), ("s/tools.json", script_ok)]
    )
    .is_empty());
}
