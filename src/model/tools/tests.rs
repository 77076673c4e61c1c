use super::dialect::{is_dated_tool_type, is_openai_builtin_type};
use super::*;

#[test]
fn detects_each_dialect() {
    let forge = parse_tools(
        r#"[{"name": "a", "type": "write", "requiresConfirmation": true, "inputSchema": {"type": "object"}}]"#,
    );
    assert_eq!(forge.dialect, Some(Dialect::Forge));
    assert!(forge.tools[0].is_write() && forge.tools[0].is_confirmation_gated());

    let mcp = parse_tools(
        r#"{"server_info": {}, "tools": [{"name": "a", "inputSchema": {}, "annotations": {"readOnlyHint": true}}]}"#,
    );
    assert_eq!(mcp.dialect, Some(Dialect::Mcp));
    assert_eq!(mcp.tools[0].side_effect, SideEffect::Read);
    assert_eq!(mcp.tools[0].pointer, "/tools/0");

    let rpc = parse_tools(
        r#"{"jsonrpc": "2.0", "result": {"tools": [{"name": "a", "inputSchema": {}}]}}"#,
    );
    assert_eq!(rpc.dialect, Some(Dialect::Mcp));

    let openai = parse_tools(
        r#"[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]"#,
    );
    assert_eq!(openai.dialect, Some(Dialect::OpenAi));
    assert_eq!(openai.tools[0].name(), Some("f"));
    assert!(openai.tools[0].schema().is_some());

    let script = parse_tools(
        r#"[{"name": "s", "script": "run.sh", "parameters": {"p": {"type": "string"}, "q": {"type": "string", "optional": true}}}]"#,
    );
    assert_eq!(script.dialect, Some(Dialect::Script));
    let tool = &script.tools[0];
    assert!(tool.required_entry("p").is_some());
    assert!(tool.required_entry("q").is_none());
    assert!(tool
        .property("q")
        .is_some_and(|m| m.value.get("optional").is_none()));
}

#[test]
fn anthropic_tools_and_provider_defined_tools() {
    let doc = parse_tools(
        r#"{"tools": [
                {"name": "get_forecast", "description": "d", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}, "cache_control": {"type": "ephemeral"}},
                {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
                {"type": "bash_20250124", "name": "bash"}
            ]}"#,
    );
    assert!(doc.problems.is_empty(), "{:?}", doc.problems);
    assert_eq!(doc.dialect, Some(Dialect::Anthropic));
    let [client, search, bash] = doc.tools.as_slice() else {
        panic!("three tools expected, got {}", doc.tools.len());
    };
    assert!(client.schema().is_some() && client.property("city").is_some());
    assert!(!client.provider_defined);
    assert_eq!(
        property_pointer(client, "city"),
        "/tools/0/input_schema/properties/city"
    );
    assert!(search.provider_defined && search.schema().is_none());
    assert_eq!(search.side_effect, SideEffect::Read);
    assert!(bash.provider_defined);
    assert_eq!(bash.side_effect, SideEffect::Unknown);
    assert_eq!(bash.name(), Some("bash"));
}

#[test]
fn openai_flat_forms_and_the_functions_container() {
    let responses = parse_tools(
        r#"[{"type": "function", "name": "f", "description": "d", "parameters": {"type": "object"}, "strict": true}]"#,
    );
    assert_eq!(responses.dialect, Some(Dialect::OpenAi));
    assert_eq!(responses.tools[0].name(), Some("f"));
    assert_eq!(
        property_pointer(&responses.tools[0], "x"),
        "/0/parameters/properties/x"
    );

    // The legacy `functions` list: bare definitions, `parameters` optional.
    let legacy = parse_tools(
        r#"{"functions": [{"name": "f", "description": "d", "parameters": {"type": "object"}}, {"name": "g", "description": "no arguments"}]}"#,
    );
    assert!(legacy.problems.is_empty(), "{:?}", legacy.problems);
    assert_eq!(legacy.tools.len(), 2);
    assert_eq!(legacy.tools[1].pointer, "/functions/1");
    assert!(legacy.tools[1].schema().is_none());

    // Wrapped and flat OpenAI tools in one list suit no API.
    let mixed = parse_tools(
        r#"[{"type": "function", "function": {"name": "f"}}, {"type": "function", "name": "g", "parameters": {}}]"#,
    );
    assert_eq!(mixed.problems.len(), 1);
    assert_eq!(mixed.problems[0].kind, ShapeProblemKind::Mixed);
}

#[test]
fn openai_builtin_tools_are_named_by_their_type() {
    let doc = parse_tools(
        r#"{"tools": [{"type": "web_search_preview_2025_03_11"}, {"type": "code_interpreter", "container": {"type": "auto"}}, {"type": "function", "name": "f", "parameters": {"type": "object"}}]}"#,
    );
    assert!(doc.problems.is_empty(), "{:?}", doc.problems);
    assert_eq!(doc.dialect, Some(Dialect::OpenAi));
    let search = &doc.tools[0];
    assert!(search.provider_defined && search.schema().is_none());
    assert_eq!(search.name(), Some("web_search_preview_2025_03_11"));
    assert_eq!(search.side_effect, SideEffect::Read);
    let interpreter = &doc.tools[1];
    assert!(interpreter.provider_defined);
    assert_eq!(interpreter.side_effect, SideEffect::Unknown);
    assert!(!doc.tools[2].provider_defined);

    // Only the known types: an unknown type stays a function without a name (SC007).
    let unknown = parse_tools(r#"[{"type": "function", "name": "f"}, {"type": "teleport"}]"#);
    assert!(!unknown.tools[1].provider_defined);
    assert_eq!(unknown.tools[1].name(), None);
    assert!(!is_openai_builtin_type("web_search_2025"));
    assert!(is_openai_builtin_type("web_search_preview_2025_03_11"));
}

#[test]
fn detection_order_decides_ambiguous_entries() {
    let shape = |entry: &str| {
        let doc = parse_tools(&format!("[{entry}]"));
        doc.tools.first().map(|t| t.dialect)
    };
    // A script entry also has `parameters`.
    assert_eq!(
        shape(r#"{"name": "s", "script": "s.sh", "parameters": {}}"#),
        Some(Dialect::Script)
    );
    // Forge keys win over a stray Anthropic schema key (which TJ002 then reports).
    assert_eq!(
        shape(r#"{"name": "a", "type": "read", "input_schema": {}}"#),
        Some(Dialect::Forge)
    );
    assert_eq!(
        shape(r#"{"name": "a", "inputSchema": {}, "input_schema": {}}"#),
        Some(Dialect::Mcp)
    );
    assert_eq!(
        shape(r#"{"name": "a", "input_schema": {}, "parameters": {}}"#),
        Some(Dialect::Anthropic)
    );
    // Not dated: no Anthropic type.
    assert_eq!(shape(r#"{"name": "a", "type": "web_search"}"#), None);
    assert!(is_dated_tool_type("text_editor_20250728"));
    assert!(!is_dated_tool_type("text_editor_2025072"));
    assert!(!is_dated_tool_type("_20250728"));
    assert!(!is_dated_tool_type("Bash_20250124"));
}

#[test]
fn mixed_and_unknown_shapes_are_problems() {
    let mixed =
        parse_tools(r#"[{"name": "a", "type": "read"}, {"type": "function", "function": {}}]"#);
    assert_eq!(mixed.problems.len(), 1);
    assert_eq!(mixed.tools.len(), 1);
    // The mismatch points at the deciding key, with the first tool's key as context.
    let problem = &mixed.problems[0];
    assert_eq!(problem.span.len(), "\"function\"".len());
    assert!(problem.secondary.is_some());

    let unknown = parse_tools(r#"{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b"}]}"#);
    assert_eq!(unknown.problems.len(), 1);
    assert_eq!(unknown.problems[0].label, "expected `inputSchema`");
    assert_eq!(unknown.problems[0].span.len(), "\"b\"".len());

    let single = parse_tools(r#"{"name": "a", "inputSchema": {"type": "object"}}"#);
    assert_eq!(single.problems[0].kind, ShapeProblemKind::Container);
    assert_eq!(single.problems[0].span.len(), 1);
    let keyed = parse_tools(r#"{"tools": {"a": {"inputSchema": {}}}}"#);
    assert_eq!(keyed.problems[0].kind, ShapeProblemKind::Container);
    assert!(keyed.not_a_tool_list.is_none());
}

#[test]
fn files_that_are_no_tool_list() {
    let not_a_list = |text: &str| {
        let doc = parse_tools(text);
        assert!(doc.tools.is_empty() && doc.problems.is_empty(), "{text}");
        doc.not_a_tool_list.map(|n| n.label)
    };
    assert_eq!(
        not_a_list(
            r#"{"name": "site", "version": "1.0.0", "tools": {"eslint": {"version": "9"}}}"#
        )
        .as_deref(),
        Some("`tools` holds an object, not an array of tools")
    );
    assert_eq!(
        not_a_list(r#"["eslint", "prettier"]"#).as_deref(),
        Some("an array of strings")
    );
    assert_eq!(
        not_a_list(r#"[{"name": "node", "version": "22"}]"#).as_deref(),
        Some("an array whose entries are not tools")
    );
    // Another program's tool format: named entries, but keys no dialect defines.
    assert_eq!(
        not_a_list(r#"{"name": "svc", "tools": [{"name": "ping", "description": "d", "method": "GET", "path": "/v1/ping"}]}"#).as_deref(),
        Some("`tools` holds an array whose entries are not tools")
    );
    assert!(not_a_list(r#"[{"name": "a"}]"#).is_some());
    assert_eq!(
        not_a_list(r#"{"compilerOptions": {}}"#).as_deref(),
        Some("an object with no `tools` array")
    );
    assert_eq!(not_a_list(r#""tools""#).as_deref(), Some("a JSON string"));
    // Duplicate keys of a file that is not linted are not reported either.
    assert!(parse_tools(r#"{"a": 1, "a": 2}"#).duplicate_keys.is_empty());

    // Plainly tool lists, however broken: these stay TJ002 material.
    for text in [
        "[]",
        r#"{"tools": []}"#,
        r#"{"tools": [{"name": "a"}, {"name": "b", "description": "d"}]}"#,
        r#"[{"name": "a", "description": "d"}]"#,
        r#"[{"name": "a", "description": "d"}, {"name": "b", "title": "B"}, "stray"]"#,
        r#"[{"name": "node", "version": "22"}, {"name": "a", "inputSchema": {}}]"#,
    ] {
        assert_eq!(not_a_list_or_none(text), None, "{text}");
    }
}

#[test]
fn docker_catalogue_arguments_become_a_schema() {
    let doc = parse_tools(
        r#"[
                {"name": "whoami", "description": "Who the token belongs to.", "annotations": {"readOnlyHint": true}},
                {"name": "start_job", "description": "Start a job.", "arguments": [
                    {"name": "queue", "type": "string", "desc": "Queue to run on"},
                    {"name": "labels", "type": "array", "items": {"type": "string"}, "desc": "", "optional": true}
                ]}
            ]"#,
    );
    assert!(doc.problems.is_empty(), "{:?}", doc.problems);
    assert_eq!(doc.dialect, Some(Dialect::Docker));
    let [whoami, start] = doc.tools.as_slice() else {
        panic!("two tools expected, got {}", doc.tools.len());
    };
    // No `arguments`: a tool that takes none, its schema absent for the schema rules.
    assert_eq!(whoami.dialect, Dialect::Docker);
    assert!(whoami.schema().is_none());
    assert_eq!(whoami.side_effect, SideEffect::Read);
    assert!(start.has_synthesised_schema());
    assert!(start.required_entry("queue").is_some());
    assert!(start.required_entry("labels").is_none());
    let queue = start.property("queue").expect("queue is a property");
    assert_eq!(
        queue.value.get("description").and_then(Node::as_str),
        Some("Queue to run on")
    );
    assert!(queue.value.get("name").is_none() && queue.value.get("desc").is_none());
    assert_eq!(property_pointer(start, "labels"), "/1/arguments/1");
    assert_eq!(
        start.schema_member().map(|m| m.key.as_str()),
        Some("arguments")
    );
}

#[test]
fn manifests_catalogues_and_rpc_responses() {
    let manifest = parse_tools(
        r#"{"tools": [{"name": "clock", "description": "Time now.", "schema": {"type": "object", "properties": {"tz": {"type": "string"}}}, "command": ["./bin/clock"], "timeoutSec": 5}]}"#,
    );
    assert_eq!(manifest.dialect, Some(Dialect::Manifest));
    assert!(manifest.tools[0].property("tz").is_some());
    assert_eq!(
        property_pointer(&manifest.tools[0], "tz"),
        "/tools/0/schema/properties/tz"
    );

    // Names and descriptions only (grouping keys allowed): a catalogue, no schema.
    let catalogue = parse_tools(
        r#"[{"name": "prune_images", "description": "Remove unused images.", "category": "images"}, {"name": "list_images", "description": "List images."}]"#,
    );
    assert!(catalogue.problems.is_empty(), "{:?}", catalogue.problems);
    assert_eq!(catalogue.dialect, Some(Dialect::Catalogue));
    assert!(catalogue.tools.iter().all(|t| t.schema().is_none()));

    // A `tools/list` response, with and without its envelope.
    for text in [
        r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "x"}}"#,
        r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#,
    ] {
        let doc = parse_tools_by_content(text);
        assert_eq!(doc.dialect, Some(Dialect::Mcp), "{text}");
        assert!(reads_as_tool_list(text), "{text}");
    }
}

#[test]
fn files_read_for_their_content() {
    // A snapshot: one tool object is a list of one, at the root.
    let snapshot = r#"{"annotations": {"readOnlyHint": true}, "description": "d", "inputSchema": {"type": "object"}, "name": "get_me"}"#;
    let doc = parse_tools_by_content(snapshot);
    assert!(doc.problems.is_empty(), "{:?}", doc.problems);
    assert_eq!(doc.tools.len(), 1);
    assert_eq!(doc.tools[0].pointer, "");
    assert_eq!(
        property_pointer(&doc.tools[0], "x"),
        "/inputSchema/properties/x"
    );
    assert!(reads_as_tool_list(snapshot));
    // Under `tools.json` the same object is still a broken list.
    assert_eq!(
        parse_tools(snapshot).problems[0].kind,
        ShapeProblemKind::Container
    );

    for (text, tools) in [
        (
            r#"[{"type": "function", "function": {"name": "f", "parameters": {}}}]"#,
            true,
        ),
        (r#"[{"name": "f", "parameters": {"type": "object"}}]"#, true),
        (r#"[{"name": "get_ids", "description": "Ids."}]"#, true),
        // Not tools: documented functions, a package manifest, nothing at all.
        (
            r#"[{"name": "get_ids (deprecated)", "description": "Ids."}]"#,
            false,
        ),
        (
            r#"{"Category Functions": [{"name": "Categories", "children": [{"name": "a"}]}]}"#,
            false,
        ),
        (
            r#"{"name": "site", "version": "1.0.0", "scripts": {}}"#,
            false,
        ),
        (r#"[]"#, false),
        (r#"{"tools": []}"#, false),
        (
            r#"[{"name": "a", "parameters": {}}, {"x": 1}, {"y": 2}]"#,
            false,
        ),
        ("not json", false),
    ] {
        assert_eq!(reads_as_tool_list(text), tools, "{text}");
    }
}

#[test]
fn entries_of_no_dialect_are_one_problem_per_file_named_by_name() {
    let doc = parse_tools(r#"{"tools": [{"name": "a"}, {"name": "b"}, {"title": "c"}]}"#);
    assert_eq!(doc.problems.len(), 1, "{:?}", doc.problems);
    let problem = &doc.problems[0];
    assert_eq!(
        problem.message,
        "3 entries match no tools.json dialect: `a`, `b` and `/tools/2`"
    );
    // On the list's key, since no entry says what the file should be.
    assert_eq!(problem.span.len(), "\"tools\"".len());

    let many = (0..8)
        .map(|i| format!(r#"{{"name": "t{i}"}}"#))
        .collect::<Vec<_>>()
        .join(",");
    let doc = parse_tools(&format!(
        r#"[{{"name": "ok", "inputSchema": {{}}}}, {many}]"#
    ));
    assert_eq!(doc.problems.len(), 1);
    assert!(
        doc.problems[0]
            .message
            .starts_with("8 entries match no tools.json dialect: `t0`, `t1`, `t2`, `t3`, `t4` and 3 more; the file's first tool is an MCP tool"),
        "{}",
        doc.problems[0].message
    );
    // On the first of them, with the key the file's tools have.
    assert_eq!(
        doc.problems[0].label,
        "expected `inputSchema` (the first of 8)"
    );
}

fn not_a_list_or_none(text: &str) -> Option<String> {
    parse_tools(text).not_a_tool_list.map(|n| n.label)
}
