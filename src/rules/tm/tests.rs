use super::tm008_tool_id_duplicate::major_version;
use super::tm012_description_lacks_when_not::says_when_not;
use super::tm014_default_implementation_unresolved::reference_names_tool;
use super::*;
use crate::schema;
use crate::schema::display_path;
use crate::source::Span;
use serde_json::json;

#[test]
fn paths_read_like_json_paths() {
    assert_eq!(
        display_path("", "/retry/max_attempts"),
        "retry.max_attempts"
    );
    assert_eq!(display_path("", "/examples/0/name"), "examples[0].name");
    assert_eq!(display_path("input", ""), "input");
    assert_eq!(display_path("input", "/a~1b/2"), "input.a/b[2]");
}

#[test]
fn embedded_tool_schema_reports_each_key() {
    let validator = schema::embedded("tool").expect("the tool schema compiles");
    let found = failures(
        validator,
        &json!({
            "name": "X", "id": "Bad_Id", "description": "d", "inputs": {}, "outputs": {},
            "retry": {"max_attempts": 99, "backoff": "fixed"}, "runner": "node",
            "approval": "sometimes"
        }),
    );
    let pointers: Vec<(&str, &Problem)> = found
        .iter()
        .map(|f| (f.pointer.as_str(), &f.problem))
        .collect();
    assert!(pointers.contains(&("", &Problem::Missing("version".to_string()))));
    assert!(pointers.contains(&("", &Problem::Unknown("runner".to_string()))));
    assert!(found.iter().any(|f| f.pointer == "/id"));
    assert!(found.iter().any(|f| f.pointer == "/approval"));
    assert!(found.iter().any(|f| f.pointer == "/retry/max_attempts"
        && f.problem == Problem::Invalid("must be at most 20, found `99`".to_string())));
}

#[test]
fn valid_contract_passes_the_embedded_schema() {
    let validator = schema::embedded("tool").expect("the tool schema compiles");
    let contract = json!({
        "name": "Append note", "id": "notes.append", "description": "Appends a line.",
        "version": "1.2.0-beta.1", "inputs": {"type": "object"}, "outputs": {"type": "object"},
        "mutates": ["workspace:/notes/*"], "approval": "policy:notes/write", "risk_level": 1,
        "default_implementation": null, "implements": "storage:commit",
        "driver_constraints": {"forbid": ["http"], "require_kind": ["sdk"]},
        "examples": [{"name": "a", "input": {}, "output": null}], "metadata": {"x": 1}
    });
    assert!(failures(validator, &contract).is_empty());
}

#[test]
fn when_not_phrases() {
    assert!(says_when_not("Reads a file. Do NOT use for binaries."));
    assert!(says_when_not("Use ONLY when the user confirmed."));
    assert!(says_when_not("Don\u{2019}t use it for images."));
    assert!(!says_when_not("Fetches the pricing tiers of a product."));
}

#[test]
fn references_resolve_by_id_and_path() {
    let tool = ".tools/pricing-snapshot/TOOL.md";
    let driver = ".drivers/apollo/DRIVER.md";
    assert!(reference_names_tool(
        "pricing-snapshot",
        driver,
        tool,
        "pricing-snapshot"
    ));
    assert!(reference_names_tool(
        "./.tools/pricing-snapshot/TOOL.md",
        driver,
        tool,
        "x"
    ));
    assert!(reference_names_tool(
        ".tools/pricing-snapshot",
        driver,
        tool,
        "x"
    ));
    assert!(reference_names_tool(
        "../../.tools/pricing-snapshot/TOOL.md",
        driver,
        tool,
        "x"
    ));
    assert!(reference_names_tool(
        "./TOOL.md",
        ".tools/pricing-snapshot/DRIVER.md",
        tool,
        "x"
    ));
    assert!(!reference_names_tool(
        "../../../x/TOOL.md",
        driver,
        tool,
        "x"
    ));
    assert!(!reference_names_tool(
        "other-tool",
        driver,
        tool,
        "pricing-snapshot"
    ));
}

#[test]
fn lines_are_inserted_only_above_top_level_keys() {
    let text = "---\nname: x\nmutates: [a:b]\n---\n";
    let at = text.find("mutates").expect("present");
    assert_eq!(line_start_of_key(text, Span::new(at, at + 7)), Some(at));
    let nested = "---\n{name: x, mutates: [a:b]}\n---\n";
    let at = nested.find("mutates").expect("present");
    assert_eq!(line_start_of_key(nested, Span::new(at, at + 7)), None);
}

#[test]
fn meta_failures_name_the_broken_keyword() {
    let broken = json!({"type": "object", "properties": {"a": {"type": "text"}}, "required": "a"});
    let found = meta_failures(&broken);
    let pointers: Vec<&str> = found.iter().map(|f| f.pointer.as_str()).collect();
    assert!(pointers.contains(&"/properties/a/type"), "{pointers:?}");
    assert!(pointers.contains(&"/required"), "{pointers:?}");
    let unknown = meta_failures(&json!({"$schema": "https://example.com/s"}));
    assert_eq!(unknown.len(), 1);
    assert!(meta_failures(&json!({"type": "object"})).is_empty());
}

#[test]
fn major_versions() {
    assert_eq!(major_version("1.2.3"), Some(1));
    assert_eq!(major_version("10.0.0-rc.1"), Some(10));
    assert_eq!(major_version("latest"), None);
}
