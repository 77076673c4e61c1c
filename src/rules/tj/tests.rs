use super::tj011_tool_conflicts_non_goal::non_goal_verb;
use super::tj012_multi_capability_tool::is_selector_parameter;
use crate::diagnostic::Edit;
use crate::rules::util::name_words;

/// Lints `files` with only `code` selected and returns (message, primary text) pairs.
fn run(code: &str, files: &[(&str, &str)]) -> Vec<(String, String)> {
    crate::rule_testing::findings(code, files)
        .into_iter()
        .map(|(d, text)| (d.message, text))
        .collect()
}

/// Runs the fix loop over `s/tools.json` with `codes` selected; returns the fixed file (the
/// original when nothing changed) and the codes that still fire.
fn fixed(codes: &[&str], tools: &str) -> (String, Vec<&'static str>) {
    let files = [("s/tools.json", tools)];
    crate::rule_testing::fix_files(codes, &files, "tools.json", tools)
}

const GATES: [&str; 4] = ["TJ003", "TJ004", "TJ005", "TJ006"];

#[test]
fn tj003_restores_the_whole_gate_in_one_pass() {
    let tools = r#"[{"name": "a", "type": "write", "description": "d", "inputSchema": {"type": "object"}}]"#;
    let outcome = crate::rule_testing::lint_files("TJ003", &[("s/tools.json", tools)]);
    let fix = outcome.diagnostics[0].fix.as_ref().expect("a fix");
    let edits: Vec<&Edit> = fix.edits.iter().collect();
    let (text, skipped) = crate::edit::apply_edits(tools, &edits);
    assert!(skipped.is_empty());
    assert_eq!(
        text,
        r#"[{"name": "a", "type": "write", "requiresConfirmation": true, "description": "d", "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "boolean", "description": "Must be true. Set only after the user explicitly confirmed this exact operation."}}, "required": ["user_confirmed"]}}]"#
    );
    assert!(fixed(&["TJ003", "TJ004"], tools).1.is_empty());
}

#[test]
fn tj003_corrects_a_misspelled_flag_instead_of_adding_one() {
    let tools = r#"[{"name": "a", "type": "write", "description": "d", "requires_confirmation" : false,
            "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "boolean"}}, "required": ["user_confirmed"]}}]"#;
    let (text, remaining) = fixed(&["TJ002", "TJ003", "TJ004"], tools);
    assert!(remaining.is_empty(), "{remaining:?}");
    assert_eq!(
        text,
        tools.replace(
            "\"requires_confirmation\" : false",
            "\"requiresConfirmation\" : true"
        )
    );
}

#[test]
fn gate_fields_are_retyped_only_when_nothing_depends_on_the_old_type() {
    let tools = "[\n  {\n    \"name\": \"a\",\n    \"type\": \"write\",\n    \"description\": \"d\",\n    \"requiresConfirmation\": true,\n    \"inputSchema\": {\n      \"type\": \"object\",\n      \"properties\": {\n        \"user_confirmed\": {\n          \"description\": \"Yes.\",\n          \"type\": \"string\"\n        }\n      }\n    }\n  }\n]\n";
    let (text, remaining) = fixed(&GATES, tools);
    assert!(remaining.is_empty(), "{remaining:?}");
    assert!(
        text.contains("\"type\": \"boolean\"\n        }\n      },\n      \"required\": [\"user_confirmed\"]\n    }"),
        "{text}"
    );
    let constrained = tools.replace("\"description\": \"Yes.\"", "\"enum\": [\"yes\"]");
    let (text, remaining) = fixed(&GATES, &constrained);
    assert_eq!(text, constrained);
    assert_eq!(remaining, vec!["TJ004"]);
}

#[test]
fn tj006_takes_the_gates_off_a_read_tool() {
    let tools = "[\n    {\n        \"name\": \"a\",\n        \"type\": \"read\",\n        \"description\": \"d\",\n        \"requiresConfirmation\": true,\n        \"idempotent\": true,\n        \"inputSchema\": {\n            \"type\": \"object\",\n            \"properties\": {\n                \"q\": { \"type\": \"string\" },\n                \"user_confirmed\": { \"type\": \"boolean\" },\n                \"idempotency_key\": { \"type\": \"string\" }\n            },\n            \"required\": [\"user_confirmed\", \"q\", \"idempotency_key\"]\n        }\n    }\n]\n";
    let (text, remaining) = fixed(&GATES, tools);
    assert!(remaining.is_empty(), "{remaining:?}");
    assert_eq!(
        text,
        "[\n    {\n        \"name\": \"a\",\n        \"type\": \"read\",\n        \"description\": \"d\",\n        \"requiresConfirmation\": false,\n        \"idempotent\": true,\n        \"inputSchema\": {\n            \"type\": \"object\",\n            \"properties\": {\n                \"q\": { \"type\": \"string\" }\n            },\n            \"required\": [\"q\"]\n        }\n    }\n]\n"
    );
}

#[test]
fn tj005_adds_the_key_beside_existing_properties() {
    let tools = "[\r\n  {\r\n    \"name\": \"a\",\r\n    \"type\": \"write\",\r\n    \"description\": \"d\",\r\n    \"requiresConfirmation\": true,\r\n    \"idempotent\": true,\r\n    \"inputSchema\": {\r\n      \"type\": \"object\",\r\n      \"properties\": {\r\n        \"user_confirmed\": { \"type\": \"boolean\" }\r\n      },\r\n      \"required\": [\r\n        \"user_confirmed\"\r\n      ]\r\n    }\r\n  }\r\n]\r\n";
    let (text, remaining) = fixed(&GATES, tools);
    assert!(remaining.is_empty(), "{remaining:?}");
    assert!(
        text.contains(
            "\"user_confirmed\": { \"type\": \"boolean\" },\r\n        \"idempotency_key\": { \"type\": \"string\", \"description\": \"Stable key for this logical operation so retries never create duplicates.\" }\r\n      },\r\n      \"required\": [\r\n        \"user_confirmed\",\r\n        \"idempotency_key\"\r\n      ]"
        ),
        "{text}"
    );
}

#[test]
fn splits_names_into_words() {
    assert_eq!(name_words("delete_event"), ["delete", "event"]);
    assert_eq!(name_words("bulkDelete"), ["bulk", "delete"]);
    assert_eq!(
        name_words("HTTPRequest.send-now"),
        ["http", "request", "send", "now"]
    );
    assert_eq!(name_words("undelete_note"), ["undelete", "note"]);
    assert_eq!(name_words("v2Delete"), ["v2", "delete"]);
}

#[test]
fn parses_non_goal_verbs() {
    assert_eq!(
        non_goal_verb("Do not delete existing events."),
        Some("delete".into())
    );
    assert_eq!(
        non_goal_verb("  DO NOT Invite attendees"),
        Some("invite".into())
    );
    assert_eq!(non_goal_verb("Don't delete events"), None);
    assert_eq!(non_goal_verb("Do nothing"), None);
    assert_eq!(non_goal_verb("Do not"), None);
    assert_eq!(non_goal_verb("Dö"), None);
}

#[test]
fn forge_contract_reports_each_violation_at_its_key() {
    let tools = r#"[{"name": "a", "type": "write", "description": 3, "requiresConfirmation": "yes", "extra": 1}]"#;
    let found = run("TJ002", &[("s/tools.json", tools)]);
    let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert!(messages.contains(&"`/0/description` must be a string, found integer `3`"));
    assert!(messages.contains(&"`/0/inputSchema` is missing: expected a JSON Schema object"));
    assert!(
        messages.contains(&"`/0/requiresConfirmation` must be a boolean, found string `\"yes\"`")
    );
    assert!(messages.contains(&"`/0/extra` is not a forge contract key"));
    let missing = found.iter().find(|(m, _)| m.contains("inputSchema"));
    assert_eq!(missing.map(|(_, t)| t.as_str()), Some("\"a\""));
}

#[test]
fn duplicate_keys_are_contract_violations_with_a_path() {
    let tools = r#"{"tools": [{"name": "a", "type": "read", "type": "write", "description": "d", "inputSchema": {}}]}"#;
    let found = run("TJ002", &[("s/tools.json", tools)]);
    assert_eq!(
        found,
        vec![(
            "`/tools/0/type` is defined twice".to_string(),
            "\"type\"".to_string()
        )]
    );
}

#[test]
fn missing_name_points_at_the_entry() {
    let tools = r#"[{"type": "read", "description": "d", "inputSchema": {}}]"#;
    let found = run("TJ002", &[("s/tools.json", tools)]);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].0,
        "`/0/name` is missing: expected a non-empty string"
    );
    assert!(found[0].1.starts_with('{'));
}

#[test]
fn confirmation_field_must_be_a_required_boolean() {
    let tools = r#"[{"name": "a", "type": "write", "description": "d", "requiresConfirmation": true,
            "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "string"}}}}]"#;
    let found = run("TJ004", &[("s/tools.json", tools)]);
    assert_eq!(
        found,
        vec![(
            "`user_confirmed` of confirmation-gated tool `a` is neither a boolean nor required"
                .to_string(),
            "true".to_string()
        )]
    );
}

#[test]
fn read_tools_are_exempt_from_idempotency_keys() {
    let tools = r#"[{"name": "a", "type": "read", "description": "d", "idempotent": true, "inputSchema": {}}]"#;
    assert!(run("TJ005", &[("s/tools.json", tools)]).is_empty());
}

#[test]
fn duplicates_across_tools_files_of_one_folder() {
    let first = r#"[{"name": "a", "type": "read", "description": "d", "inputSchema": {}}]"#;
    let found = run(
        "TJ007",
        &[
            ("s/tools.json", first),
            ("s/extra.tools.json", first),
            ("t/tools.json", first),
        ],
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "tool `a` is also defined in `s/tools.json`");
}

#[test]
fn requirement_rules_stay_quiet_when_tools_json_does_not_parse() {
    let requirement = "tools:\n  - name: a\n    type: write\n";
    let files = [("s/tools.json", "[{"), ("s/requirement.yaml", requirement)];
    assert!(run("TJ008", &files).is_empty());
    assert_eq!(run("TJ001", &files).len(), 1);
}

#[test]
fn truncated_json_is_reported_at_the_end_of_the_file() {
    for (text, opening) in [
        ("[\n  {\"name\": \"a\",\n", "{"),
        ("[{\"name\": \"a\"}, \n", "["),
        ("[{\"name\": \"abc", "\""),
    ] {
        let outcome = crate::rule_testing::lint_files("TJ001", &[("s/tools.json", text)]);
        let [diagnostic] = outcome.diagnostics.as_slice() else {
            panic!("one TJ001 expected for {text:?}: {:?}", outcome.diagnostics);
        };
        assert_eq!(
            diagnostic.primary.span.end,
            text.trim_end().len(),
            "{text:?}"
        );
        let secondary = diagnostic.secondary.first().map(|l| l.span);
        let opened = secondary.and_then(|s| text.get(s.start..s.end));
        assert_eq!(opened, Some(opening), "{text:?}: {}", diagnostic.message);
    }
    let found = run("TJ001", &[("s/tools.json", "[1,,]")]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, ",");
}

#[test]
fn requirement_without_tools_file_reports_each_tool() {
    let requirement = "tools:\n  - name: a\n    type: write\n";
    let found = run("TJ008", &[("s/requirement.yaml", requirement)]);
    assert_eq!(
        found,
        vec![(
            "requirement tool `a` is not defined: the folder has no tools.json".to_string(),
            "a".to_string()
        )]
    );
}

#[test]
fn idempotency_obligation_on_mcp_write_tools() {
    let tools = r#"{"tools": [{"name": "pay", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": false, "idempotentHint": false}}]}"#;
    let requirement = "tools:\n  - name: pay\n    type: write\nsafety_requirements:\n  - Use an idempotency key.\n";
    let found = run(
        "TJ009",
        &[("s/tools.json", tools), ("s/requirement.yaml", requirement)],
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "false");
}

#[test]
fn non_goal_verbs_match_whole_name_words() {
    let tools = r#"[{"name": "bulkDelete", "type": "write", "description": "d", "inputSchema": {}},
            {"name": "undelete_note", "type": "write", "description": "d", "inputSchema": {}}]"#;
    let requirement = "non_goals:\n  - do NOT delete notes\n";
    let found = run(
        "TJ011",
        &[("s/tools.json", tools), ("s/requirement.yaml", requirement)],
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "\"bulkDelete\"");
}

#[test]
fn a_file_that_is_no_tool_list_is_reported_once_and_is_no_tools_file() {
    let skill = "---\nname: s\ndescription: Builds the site.\n---\n\n# Site\n";
    let manifest = r#"{"name": "site", "version": "1.0.0", "tools": {"eslint": {"version": "9"}}}"#;
    let files = [("s/SKILL.md", skill), ("s/tools.json", manifest)];
    let found = run("TJ014", &files);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "\"tools\"");
    for code in ["TJ002", "TR001"] {
        assert!(run(code, &files).is_empty(), "{code}");
    }
    // A broken tool list is still one: TJ002, not TJ014, and TR001 asks for the rules. (A
    // `{name, description}` entry alone is a catalogue, a dialect of its own.)
    let broken = r#"{"tools": [{"name": "build_site", "title": "Build the site."}]}"#;
    let files = [("s/SKILL.md", skill), ("s/tools.json", broken)];
    assert!(run("TJ014", &files).is_empty());
    assert_eq!(run("TJ002", &files).len(), 1);
    assert_eq!(run("TR001", &files).len(), 1);
}

#[test]
fn selector_parameter_names() {
    for name in [
        "action",
        "Method",
        "merge_method",
        "subAction",
        "action_type",
        "opType",
        "operation_name",
        "cmd",
    ] {
        assert!(is_selector_parameter(name), "{name}");
    }
    for name in [
        "type",
        "kind",
        "name",
        "state",
        "method_count",
        "event",
        "actions",
    ] {
        assert!(!is_selector_parameter(name), "{name}");
    }
}

#[test]
fn multi_capability_through_method_parameters() {
    // The shape of a real MCP server's label tool: `method` selects create/update/delete.
    let tools = r#"{"tools": [
            {"name": "badge_write", "inputSchema": {"type": "object", "properties": {
                "method": {"type": "string", "enum": ["create", "update", "delete"]},
                "kind": {"type": "string", "enum": ["create", "delete"]}}}},
            {"name": "badge_read", "inputSchema": {"type": "object", "properties": {
                "method": {"type": "string", "enum": ["get", "get_history"]}}}},
            {"name": "http_call", "inputSchema": {"type": "object", "properties": {
                "http_method": {"type": "string", "enum": ["GET", "POST", "DELETE"]}}}}
        ]}"#;
    let found = run("TJ012", &[("s/tools.json", tools)]);
    let spans: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(spans, vec!["[\"create\", \"update\", \"delete\"]"]);
}

#[test]
fn multi_capability_on_other_dialects_and_non_verbs() {
    let tools = r#"[{"type": "function", "function": {"name": "manageFiles", "parameters": {"type": "object",
            "properties": {"mode": {"type": "string", "enum": ["fast", "thorough"]},
                           "op": {"type": "string", "enum": ["get_file", "remove_file", "get_dir"]}}}}}]"#;
    let found = run("TJ012", &[("s/tools.json", tools)]);
    let spans: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        spans,
        vec![
            "\"manageFiles\"",
            "[\"get_file\", \"remove_file\", \"get_dir\"]"
        ]
    );
    assert!(found[1].0.contains("`get` and `remove`"), "{}", found[1].0);
}

#[test]
fn requirement_shape_problems_and_yaml_errors() {
    let found = run(
        "TJ013",
        &[("s/requirement.yaml", "tools: x\nnon_goal: []\n")],
    );
    let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    let broken = run("TJ013", &[("s/requirement.yaml", "tools: [\n")]);
    assert_eq!(broken.len(), 1);
    assert!(broken[0]
        .0
        .starts_with("`requirement.yaml` is not valid YAML"));
}
