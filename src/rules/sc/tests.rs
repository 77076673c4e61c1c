use super::sc008_tool_name_not_portable::is_snake_case;
use crate::diagnostic::Edit;
use crate::parse::node::Member;
use crate::parse::node::{Node, Value};
use crate::rules::util::name_words;
use crate::semantic::schemas::{sites, MAX_SCHEMA_DEPTH};
use crate::source::Span;

/// Lints `files` with only `code` selected and returns (message, primary text) pairs.
fn run(code: &str, files: &[(&str, &str)]) -> Vec<(String, String)> {
    run_among(&[code], code, files)
}

/// The findings of `code` with `selected` selected: the rules it leaves findings to run too.
fn run_among(selected: &[&str], code: &str, files: &[(&str, &str)]) -> Vec<(String, String)> {
    crate::rule_testing::findings_among(selected, code, files)
        .into_iter()
        .map(|(d, text)| (d.message, text))
        .collect()
}

/// One MCP tool with `schema` as its input schema, in `tools.json`. Its description starts with
/// a writing verb, so SC003 (tools that write) judges it.
fn mcp(schema: &str) -> String {
    format!(
        r#"{{"tools": [{{"name": "t", "description": "Updates d.", "inputSchema": {schema}}}]}}"#
    )
}

fn primaries(code: &str, schema: &str) -> Vec<String> {
    run(code, &[("s/tools.json", &mcp(schema))])
        .into_iter()
        .map(|(_, primary)| primary)
        .collect()
}

#[test]
fn meta_validation_reports_each_place_once() {
    let typos = [(
        "s/tools.json",
        &*mcp(r#"{"type": "objekt", "properties": {"a": {"type": "int"}}}"#),
    )];
    let found = run_among(&["SC001", "SC002"], "SC001", &typos);
    // The root `type` is SC002's finding; the nested one is reported here.
    let places: Vec<&str> = found.iter().map(|(_, p)| p.as_str()).collect();
    assert_eq!(places, [r#""type""#]);
    assert!(found[0].0.contains("at `/properties/a/type`"));
    // With SC002 off, the root `type` is an invalid schema like the nested one.
    let alone = run("SC001", &typos);
    let messages: Vec<&str> = alone.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].ends_with("at `/type`"), "{messages:?}");
    assert!(
        messages[1].ends_with("at `/properties/a/type`"),
        "{messages:?}"
    );
    let unknown = run(
        "SC001",
        &[(
            "s/tools.json",
            &mcp(r#"{"$schema": "https://example.com/s", "type": "object"}"#),
        )],
    );
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].1, r#""$schema""#);
    assert!(primaries(
        "SC001",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "definitions": {}}"#
    )
    .is_empty());
}

/// A pattern no engine compiles is reported whatever else is wrong with the schema: in a draft 7
/// schema the meta-schema fails it too (`format: regex`), and when it was the sixth failure, past
/// the cap of five, it was reported nowhere.
#[test]
fn an_uncompilable_pattern_past_the_cap_is_still_reported() {
    let typos: String = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|name| format!(r#""{name}": {{"type": "int"}}, "#))
        .collect();
    for dialect in [
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2020-12/schema",
    ] {
        let schema = format!(
            r#"{{"$schema": "{dialect}", "type": "object", "properties": {{{typos}"z": {{"type": "string", "pattern": "["}}}}}}"#
        );
        let found = run("SC001", &[("s/tools.json", &mcp(&schema))]);
        let at_pattern: Vec<&(String, String)> = found
            .iter()
            .filter(|(message, _)| message.contains("at `/properties/z/pattern`"))
            .collect();
        assert_eq!(at_pattern.len(), 1, "{dialect}: {found:?}");
        assert_eq!(at_pattern[0].1, r#""[""#, "{dialect}");
        assert_eq!(
            found.len(),
            6,
            "{dialect}: five typos and the pattern: {found:?}"
        );
    }
}

#[test]
fn meta_validation_skips_tool_md() {
    let tool_md = "---\nid: x-y\ninputs:\n  type: objekt\n---\n";
    assert!(run("SC001", &[(".tools/x-y/TOOL.md", tool_md)]).is_empty());
    // The other schema rules do read TOOL.md `inputs`.
    let found = run_among(
        &["SC002", "TM009"],
        "SC002",
        &[(".tools/x-y/TOOL.md", tool_md)],
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "objekt");
    assert_eq!(
        found[0].0,
        "`inputs` of contract `x-y` has root type `objekt`, which is not a JSON type; the root must be `object`"
    );
    // One typo, one error: TM009 leaves the root `type` of `inputs` to SC002, and keeps the
    // root `type` of `outputs`, which SC002 does not judge.
    let both = ["SC002", "TM009"];
    assert!(run_among(&both, "TM009", &[(".tools/x-y/TOOL.md", tool_md)]).is_empty());
    let outputs = "---\nid: x-y\ninputs:\n  type: objekt\noutputs:\n  type: objekt\n---\n";
    let found = run_among(&both, "TM009", &[(".tools/x-y/TOOL.md", outputs)]);
    assert_eq!(found.len(), 1);
    assert!(found[0].0.contains("`outputs.type`"), "{}", found[0].0);
    // With SC002 off, TM009 reports the root `type` of `inputs` as well.
    let found = run("TM009", &[(".tools/x-y/TOOL.md", tool_md)]);
    assert_eq!(found.len(), 1);
    assert!(found[0].0.contains("`inputs.type`"), "{}", found[0].0);
}

#[test]
fn root_must_be_an_object_schema() {
    assert_eq!(primaries("SC002", r#"{"type": "array"}"#), [r#""array""#]);
    assert_eq!(primaries("SC002", "true"), ["true"]);
    assert_eq!(
        primaries("SC002", r#"{"properties": {}}"#),
        [r#""inputSchema""#]
    );
    // Not a schema at all: SC001 reports it, and this rule while SC001 is off.
    let string = [("s/tools.json", &*mcp(r#""object""#))];
    assert!(run_among(&["SC001", "SC002"], "SC002", &string).is_empty());
    assert_eq!(
        run("SC002", &string),
        [(
            "input schema of tool `t` is a string, not an object schema".to_string(),
            r#""object""#.to_string()
        )]
    );
    // A forge `inputSchema` that is not an object is TJ002's finding, while TJ002 runs.
    let forge = r#"[{"name": "f", "type": "read", "description": "d", "inputSchema": true}]"#;
    let forge = [("f/tools.json", forge)];
    for code in ["SC001", "SC002"] {
        assert!(
            run_among(&[code, "TJ002"], code, &forge).is_empty(),
            "{code}"
        );
    }
    // Without it, `true` is a valid schema (SC001) but not an object one (SC002).
    assert!(run("SC001", &forge).is_empty());
    assert_eq!(run("SC002", &forge)[0].1, "true");
    assert!(primaries("SC002", r#"{"type": "object"}"#).is_empty());
    let found = run("SC002", &[("s/tools.json", &mcp(r#"{"type": 5}"#))]);
    assert_eq!(
        found[0].0,
        "input schema of tool `t` has root type an integer, not `object`"
    );
    let openai = r#"[{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "string"}}}]"#;
    assert_eq!(
        run("SC002", &[("o/tools.json", openai)])[0].1,
        r#""string""#
    );
}

#[test]
fn open_objects_and_what_counts_as_closed() {
    assert_eq!(primaries("SC003", r#"{"type": "object"}"#), [r#""type""#]);
    assert_eq!(
        primaries(
            "SC003",
            r#"{"type": "object", "additionalProperties": true}"#
        ),
        ["true"]
    );
    assert!(primaries(
        "SC003",
        r#"{"type": "object", "unevaluatedProperties": false}"#
    )
    .is_empty());
    assert!(primaries(
        "SC003",
        r#"{"type": "object", "additionalProperties": {"type": "string"}}"#
    )
    .is_empty());
    // Nested objects with properties are checked; composition branches are not.
    let nested = r#"{"type": "object", "additionalProperties": false, "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string"}}},
            "c": {"type": "object"}},
            "allOf": [{"properties": {"a": {}}}]}"#;
    assert_eq!(primaries("SC003", nested), [r#""type""#]);
    let composed = r#"{"type": "object", "oneOf": [
            {"properties": {"a": {"type": "string"}}, "additionalProperties": false},
            {"properties": {"b": {"type": "string"}}, "additionalProperties": false}]}"#;
    assert!(primaries("SC003", composed).is_empty());
    // Script parameters cannot declare `additionalProperties`.
    let script = r#"[{"name": "s", "description": "d", "script": "s.sh", "parameters": {"p": {"type": "string", "description": "p"}}}]"#;
    assert!(run("SC003", &[("s/tools.json", script)]).is_empty());
}

#[test]
fn open_objects_are_reported_once_per_tool_and_free_form_maps_never() {
    // The shape of a workflow-dispatch tool: an open root, a free-form `inputs` map, an open
    // filter object and open array items.
    let schema = r#"{"type": "object", "properties": {
            "inputs": {"type": "object", "description": "Workflow inputs.", "properties": {}},
            "env": {"type": "object"},
            "labels": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": {"type": "string"}},
            "extra": {"type": "object", "properties": {}, "additionalProperties": true},
            "filter": {"type": "object", "properties": {"actor": {"type": "string"}}},
            "steps": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": true}}}}"#;
    let text = mcp(schema);
    let found = crate::rule_testing::findings("SC003", &[("s/tools.json", &text)]);
    assert_eq!(found.len(), 1, "one finding per tool");
    let (diagnostic, primary) = &found[0];
    assert_eq!(primary, r#""type""#);
    assert_eq!(
        diagnostic.primary.span.start,
        text.find(r#""type""#).unwrap_or_default()
    );
    assert_eq!(
        diagnostic.message,
        "input schema of tool `t` accepts undeclared properties, as do 2 nested objects"
    );
    let secondaries: Vec<(&str, Option<&str>)> = diagnostic
        .secondary
        .iter()
        .map(|l| (&text[l.span.start..l.span.end], l.message.as_deref()))
        .collect();
    assert_eq!(
        secondaries,
        [
            (
                r#""type""#,
                Some("parameter `filter` of tool `t` also accepts undeclared properties")
            ),
            (
                "true",
                Some("`/properties/steps/items` in the input schema of tool `t` also accepts undeclared properties")
            ),
        ]
    );
    // The fix closes exactly the reported objects; the maps keep accepting any key.
    let Some(fix) = &diagnostic.fix else {
        panic!("SC003 offers a fix");
    };
    assert_eq!(fix.applicability, crate::diagnostic::Applicability::Unsafe);
    let edits: Vec<&Edit> = fix.edits.iter().collect();
    let (fixed, skipped) = crate::edit::apply_edits(&text, &edits);
    assert!(skipped.is_empty());
    let fixed: serde_json::Value = serde_json::from_str(&fixed).unwrap_or_default();
    let schema = &fixed["tools"][0]["inputSchema"];
    let closed = |pointer: &str| schema.pointer(pointer).cloned();
    let f = Some(serde_json::Value::Bool(false));
    assert_eq!(closed("/additionalProperties"), f);
    assert_eq!(closed("/properties/filter/additionalProperties"), f);
    assert_eq!(closed("/properties/steps/items/additionalProperties"), f);
    assert_eq!(closed("/properties/inputs/additionalProperties"), None);
    assert_eq!(closed("/properties/env/additionalProperties"), None);
    assert_eq!(
        closed("/properties/extra/additionalProperties"),
        Some(serde_json::Value::Bool(true))
    );
    // A tool without parameters is still in scope; an open nested object of a closed root is
    // reported where it is.
    assert_eq!(
        primaries("SC003", r#"{"type": "object", "properties": {}}"#),
        [r#""type""#]
    );
    let nested_only = r#"{"type": "object", "additionalProperties": false, "properties": {
            "m": {"type": "object", "additionalProperties": {}},
            "o": {"properties": {"k": {"type": "string"}}, "additionalProperties": {}}}}"#;
    let found = run("SC003", &[("s/tools.json", &mcp(nested_only))]);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0],
        (
            "parameter `o` of tool `t` accepts undeclared properties".to_string(),
            "{}".to_string()
        )
    );
}

#[test]
fn closing_nested_yaml_objects_keeps_the_lines_in_order() {
    // `options` ends the root, and `cache` ends `options`: all three close at one offset.
    let tool_md = "---\nid: x-y\ninputs:\n  type: object\n  properties:\n    options:\n      type: object\n      properties:\n        cache:\n          type: object\n          properties:\n            key: {type: string}\n---\n";
    let found = crate::rule_testing::findings("SC003", &[(".tools/x-y/TOOL.md", tool_md)]);
    assert_eq!(found.len(), 1);
    let Some(fix) = &found[0].0.fix else {
        panic!("SC003 offers a fix");
    };
    let edits: Vec<&Edit> = fix.edits.iter().collect();
    let (fixed, skipped) = crate::edit::apply_edits(tool_md, &edits);
    assert!(skipped.is_empty());
    assert!(
        fixed.contains("            key: {type: string}\n          additionalProperties: false\n      additionalProperties: false\n  additionalProperties: false\n---"),
        "{fixed}"
    );
}

#[test]
fn required_names_follow_composition_and_refs() {
    let typo = r#"{"type": "object", "properties": {"start": {}}, "required": ["strat"]}"#;
    let found = run("SC004", &[("s/tools.json", &mcp(typo))]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, r#""strat""#);
    let fine = [
        // Declared in an `allOf` branch.
        r#"{"type": "object", "allOf": [{"properties": {"a": {}}}], "required": ["a"]}"#,
        // A branch requiring one of the parent's properties.
        r#"{"type": "object", "properties": {"a": {}, "b": {}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}"#,
        // Through a local reference.
        r##"{"type": "object", "$defs": {"base": {"properties": {"a": {}}}}, "allOf": [{"$ref": "#/$defs/base"}], "required": ["a"]}"##,
        // Names that cannot be known statically.
        r#"{"type": "object", "patternProperties": {"^x_": {}}, "required": ["x_a"]}"#,
        r#"{"type": "object", "additionalProperties": {"type": "string"}, "required": ["k"]}"#,
        r#"{"type": "object", "allOf": [{"$ref": "https://example.com/s.json"}], "required": ["a"]}"#,
    ];
    for schema in fine {
        assert!(primaries("SC004", schema).is_empty(), "{schema}");
    }
    let nested = r#"{"type": "object", "properties": {"o": {"type": "object", "properties": {"x": {}}, "required": ["y"]}}}"#;
    let found = run("SC004", &[("s/tools.json", &mcp(nested))]);
    assert!(
        found[0]
            .0
            .starts_with("parameter `o` of tool `t` requires `y`"),
        "{}",
        found[0].0
    );
}

#[test]
fn descriptions_of_parameters_not_of_conditions() {
    let schema = r##"{"type": "object", "$defs": {"when": {"type": "string", "description": "A date."}},
            "properties": {
              "a": {"type": "string"},
              "b": {"$ref": "#/$defs/when"},
              "c": {"type": "object", "description": "C.", "properties": {"d": {"type": "string", "description": " "}}}},
            "if": {"properties": {"a": {"const": "x"}}}, "then": {"required": ["b"]}}"##;
    let found = run("SC005", &[("s/tools.json", &mcp(schema))]);
    let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "parameter `a` of tool `t` has no description",
            "parameter `c.d` of tool `t` has a blank description"
        ]
    );
}

#[test]
fn bounds_of_numbers_and_strings() {
    let schema = r##"{"type": "object", "$defs": {"n": {"type": "integer", "minimum": 0, "maximum": 9}},
            "properties": {
              "a": {"type": "integer", "minimum": 1},
              "b": {"type": "number"},
              "c": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
              "d": {"type": ["string", "null"]},
              "e": {"type": "string", "enum": ["x"]},
              "f": {"type": "string", "format": "uri"},
              "g": {"$ref": "#/$defs/n"},
              "h": {"type": "boolean"}}}"##;
    let found = run("SC006", &[("s/tools.json", &mcp(schema))]);
    let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "parameter `a` of tool `t` is an unbounded integer: no `maximum`",
            "parameter `b` of tool `t` is an unbounded number: neither `minimum` nor `maximum`",
            "parameter `d` of tool `t` is a free-form string",
        ]
    );
}

fn names(code: &str, names: &[&str]) -> Vec<String> {
    names_among(&[code], code, names)
}

fn names_among(selected: &[&str], code: &str, names: &[&str]) -> Vec<String> {
    let tools: Vec<String> = names
        .iter()
        .map(|n| {
            format!(r#"{{"name": {n}, "description": "d", "inputSchema": {{"type": "object"}}}}"#)
        })
        .collect();
    let tools = format!("[{}]", tools.join(","));
    run_among(selected, code, &[("s/tools.json", &tools)])
        .into_iter()
        .map(|(m, _)| m)
        .collect()
}

#[test]
fn mcp_name_rules() {
    let long = format!("\"{}\"", "a".repeat(129));
    let found = names(
        "SC007",
        &[
            r#""ok_name""#,
            r#""Data.v2-x""#,
            r#""""#,
            r#""naïve""#,
            "3",
            &long,
        ],
    );
    assert_eq!(
        found,
        [
            "tool name is empty",
            "tool name `naïve` contains `ï`; MCP allows only ASCII letters, digits, `_`, `-` and `.`",
            "tool name must be a string, found integer",
            "tool name is 129 characters long; MCP allows at most 128",
        ]
    );
    let unnamed = r#"{"tools": [{"description": "d", "inputSchema": {"type": "object"}}]}"#;
    let found = run("SC007", &[("s/tools.json", unnamed)]);
    assert_eq!(found[0].0, "MCP tool at `/tools/0` has no `name`");
    assert_eq!(found[0].1, "{");
    // The forge contract reports its own missing names (TJ002), while TJ002 runs.
    let forge = r#"[{"type": "read", "description": "d", "inputSchema": {"type": "object"}}]"#;
    let forge = [("s/tools.json", forge)];
    assert!(run_among(&["SC007", "TJ002"], "SC007", &forge).is_empty());
    assert_eq!(
        run("SC007", &forge)[0].0,
        "forge tool at `/0` has no `name`"
    );
}

#[test]
fn portable_names() {
    let long = format!("\"{}\"", "a".repeat(65));
    let found = names_among(
        &["SC007", "SC008"],
        "SC008",
        &[
            r#""search_issues""#,
            r#""v2""#,
            r#""getUser""#,
            r#""a.b""#,
            r#""a__b""#,
            r#""bad name""#,
            &long,
        ],
    );
    assert_eq!(
        found,
        [
            "tool name `getUser` is not snake_case",
            "tool name `a.b` contains `.`, which OpenAI and Anthropic reject",
            "tool name `a__b` is not snake_case",
            "tool name is 65 characters long; OpenAI and Anthropic allow at most 64",
        ]
    );
    // Names MCP rejects are SC007's while it runs; otherwise they are not portable either.
    let found = names("SC008", &[r#""bad name""#, r#""""#, r#""naïve.v2""#]);
    assert_eq!(
        found,
        [
            "tool name `bad name` contains a space, which OpenAI and Anthropic reject",
            "tool name is empty",
            "tool name `naïve.v2` contains `.` and `ï`, which OpenAI and Anthropic reject",
        ]
    );
    assert_eq!(
        name_words("HTTPRequest.send-now"),
        ["http", "request", "send", "now"]
    );
    assert!(is_snake_case("orders_get_by_id") && is_snake_case("v2"));
    assert!(!is_snake_case("_x") && !is_snake_case("x_") && !is_snake_case("2x"));
}

#[test]
fn annotation_contradictions_with_the_forge_flags() {
    let forge = r#"[
          {"name": "w", "type": "write", "description": "d", "requiresConfirmation": true, "idempotent": false,
           "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "idempotentHint": true}},
          {"name": "r", "type": "read", "description": "d", "inputSchema": {"type": "object"},
           "annotations": {"destructiveHint": true}}]"#;
    let found = run("SC009", &[("s/tools.json", forge)]);
    let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "write tool `w` is annotated `readOnlyHint: true`",
            "tool `w` is annotated `idempotentHint: true` but declared `idempotent: false`",
            "read tool `r` is annotated `destructiveHint: true`",
        ]
    );
}

#[test]
fn annotations_and_bounds_only_where_the_dialect_has_room() {
    let forge =
        r#"[{"name": "r", "type": "read", "description": "d", "inputSchema": {"type": "object"}}]"#;
    let openai = r#"[{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}}}]"#;
    for code in ["SC010", "SC011"] {
        assert!(run(code, &[("a/tools.json", forge), ("b/tools.json", openai)]).is_empty());
    }
    let prefixed = r#"{"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"},
            "annotations": {"idempotentHint": false, "max_output_bytes": 10},
            "_meta": {"example.com/timeoutMs": 5}}]}"#;
    assert!(run("SC010", &[("s/tools.json", prefixed)]).is_empty());
    assert!(run("SC011", &[("s/tools.json", prefixed)]).is_empty());
}

#[test]
fn destructive_tools() {
    let tools = r#"{"tools": [
          {"name": "purgeCache", "description": "d", "inputSchema": {"type": "object"}},
          {"name": "delete_soft", "description": "d", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": false}},
          {"name": "delete_view", "description": "d", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
          {"name": "drop_table", "description": "d", "inputSchema": {"type": "object", "properties": {"dryRun": {"type": "boolean"}}}},
          {"name": "reset", "description": "d", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}},
          {"name": "dropdown_options", "description": "d", "inputSchema": {"type": "object"}}]}"#;
    let found = run("SC012", &[("s/tools.json", tools)]);
    let primaries: Vec<&str> = found.iter().map(|(_, p)| p.as_str()).collect();
    assert_eq!(primaries, [r#""purgeCache""#, r#""reset""#]);
}

#[test]
fn remote_refs_in_schema_positions_only() {
    let schema = r##"{"type": "object", "$defs": {"l": {"type": "string"}}, "properties": {
            "a": {"$ref": "HTTPS://example.com/a.json"},
            "b": {"items": {"$ref": "file:schemas/b.json"}},
            "c": {"$ref": "#/$defs/l"},
            "d": {"type": "object", "default": {"$ref": "http://example.com/not-a-schema"}},
            "e": {"$ref": "https://agentproto.sh/docs/aip-27/REF.schema.json"},
            "f": {"$ref": "https://agentproto.sh/schemas/aip-27/REF.schema.json#/$defs/local"},
            "g": {"$ref": "https://agentproto.sh/docs/aip-27/REF.schema.json#/$defs/nothing"},
            "h": {"$ref": "https://agentproto.sh/docs/aip-99/OTHER.schema.json"}}}"##;
    // The bundled AIP schemas are checked offline; any other URL, and a place the bundled
    // schema does not have, stay remote.
    assert_eq!(
        primaries("SC013", schema),
        [
            r#""HTTPS://example.com/a.json""#,
            r#""file:schemas/b.json""#,
            r##""https://agentproto.sh/docs/aip-27/REF.schema.json#/$defs/nothing""##,
            r#""https://agentproto.sh/docs/aip-99/OTHER.schema.json""#
        ]
    );
}

#[test]
fn references_out_of_the_document_in_every_spelling() {
    let schema = r##"{"type": "object", "properties": {
            "a": {"$ref": "//evil.example/a.json"},
            "b": {"$ref": "ftp://files.example/b.json"},
            "c": {"$ref": "../../etc/passwd"},
            "d": {"$ref": "/etc/passwd"},
            "e": {"$ref": "file:/etc/passwd"},
            "f": {"$ref": "defs.json#/$defs/x"},
            "g": {"$ref": "C:/schemas/g.json"},
            "h": {"$ref": "urn:example:h"},
            "i": {"$ref": ""},
            "j": {"$ref": "#"},
            "k": {"$ref": "urn:example:k"},
            "l": {"$ref": "address.json#/properties/zip"},
            "m": {"$ref": "\\\\share\\m.json"}},
          "$defs": {
            "k": {"$id": "urn:example:k", "type": "string"},
            "l": {"$id": "https://example.com/schemas/address.json", "type": "object"}}}"##;
    // Anything but a fragment of this document, or a `$id` this document declares, is loaded
    // from somewhere else.
    assert_eq!(
        primaries("SC013", schema),
        [
            r#""//evil.example/a.json""#,
            r#""ftp://files.example/b.json""#,
            r#""../../etc/passwd""#,
            r#""/etc/passwd""#,
            r#""file:/etc/passwd""#,
            r##""defs.json#/$defs/x""##,
            r#""C:/schemas/g.json""#,
            r#""urn:example:h""#,
            r#""\\\\share\\m.json""#,
        ]
    );
}

#[test]
fn openai_strict_mode() {
    let tool = |strict: &str| {
        format!(
            r##"{{"tools": [{{"type": "function", "function": {{"name": "f", "description": "d", "strict": {strict},
                "parameters": {{"type": "object", "additionalProperties": false, "properties": {{"a": {{"type": "string"}}, "b": {{"$ref": "#/$defs/x"}}}},
                "required": ["a", "b"], "$defs": {{"x": {{"type": "object", "properties": {{"y": {{"type": "string"}}}}}}}}}}}}}}]}}"##
        )
    };
    let found = run("SC014", &[("o/tools.json", &tool("true"))]);
    let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`/$defs/x` in the input schema of tool `f` lacks `additionalProperties: false`, which strict mode requires",
            "`/$defs/x` in the input schema of tool `f` does not require `y`; strict mode requires every property",
        ]
    );
    assert!(run("SC014", &[("o/tools.json", &tool("false"))]).is_empty());
}

#[test]
fn descriptions_of_tools() {
    let tools = r#"[
          {"name": "a", "type": "read", "inputSchema": {"type": "object"}},
          {"name": "b", "type": "read", "description": " ", "inputSchema": {"type": "object"}}]"#;
    let found = run_among(&["SC015", "TJ002"], "SC015", &[("s/tools.json", tools)]);
    assert_eq!(found.len(), 1, "a missing forge description is TJ002's");
    assert_eq!(found[0].0, "tool `b` has a blank description");
    // With TJ002 off, it is reported here.
    let found = run("SC015", &[("s/tools.json", tools)]);
    let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "tool `a` has no description",
            "tool `b` has a blank description"
        ]
    );
    let mcp = r#"[{"name": "m", "description": 3, "inputSchema": {"type": "object"}}, {"name": "n", "inputSchema": {"type": "object"}}]"#;
    let found = run("SC015", &[("s/tools.json", mcp)]);
    let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "description of tool `m` is not a string, found integer",
            "tool `n` has no description"
        ]
    );
}

#[test]
fn deep_schemas_do_not_overflow() {
    // Two JSON levels per schema level, under the JSON parser's nesting limit.
    let depth = 60;
    let mut schema = String::from(r#"{"type": "string"}"#);
    for _ in 0..depth {
        schema = format!(r#"{{"type": "object", "properties": {{"a": {schema}}}}}"#);
    }
    for code in ["SC003", "SC004", "SC005", "SC006", "SC013"] {
        let found = primaries(code, &schema);
        assert!(
            found.len() <= MAX_SCHEMA_DEPTH + 1,
            "{code}: {}",
            found.len()
        );
    }
    assert_eq!(primaries("SC005", &schema).len(), depth);
    // A tree deeper than the walk's cap (the parsers stop far earlier) is cut off, not
    // followed to the end.
    let span = Span::new(0, 0);
    let mut node = Node::new(span, Value::Object(Vec::new()));
    for _ in 0..1000 {
        let member = |key: &str, value: Node| Member {
            key: key.to_string(),
            key_span: span,
            value,
        };
        let properties = Node::new(span, Value::Object(vec![member("a", node)]));
        node = Node::new(span, Value::Object(vec![member("properties", properties)]));
    }
    assert_eq!(sites(&node).len(), MAX_SCHEMA_DEPTH + 1);
}
