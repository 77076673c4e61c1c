//! Tool lists as people commit them: which files are read (by name, by content, by `[tools]
//! include`, named on the command line), the dialects they are normalised from, and linear time on
//! 1 MB lists (asserted as a ratio: time(2x) < 3 × time(x), the least of three runs).

use skilllint::model::tools::{parse_tools, parse_tools_by_content, Dialect};
use skilllint::model::FileKind;
use skilllint::{lint, LintOptions, LintOutcome};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, content).expect("write file");
}

fn options(paths: Vec<PathBuf>) -> LintOptions {
    LintOptions {
        paths,
        select: vec!["ALL".to_string()],
        threads: Some(2),
        ..LintOptions::default()
    }
}

/// The tool lists of the run, each with its dialect and tool names.
fn tool_lists(outcome: &LintOutcome) -> Vec<(String, Option<Dialect>, Vec<String>)> {
    outcome
        .repo
        .files
        .iter()
        .enumerate()
        .filter_map(|(i, file)| {
            let id = skilllint::source::FileId(i as u32);
            let by_content = match outcome.repo.parsed(id).kind() {
                FileKind::Tools { by_content } => by_content,
                FileKind::ToolsByShape(_) => true,
                _ => return None,
            };
            let doc = if by_content {
                parse_tools_by_content(&file.text)
            } else {
                parse_tools(&file.text)
            };
            Some((
                file.rel_path.clone(),
                doc.dialect,
                doc.tools.iter().map(|t| t.display_name()).collect(),
            ))
        })
        .collect()
}

fn codes_on(outcome: &LintOutcome, rel_path: &str) -> Vec<&'static str> {
    outcome
        .diagnostics
        .iter()
        .filter(|d| outcome.repo.file(d.primary.file).rel_path == rel_path)
        .map(|d| d.code)
        .collect()
}

const OPENAI_FUNCTIONS: &str = r#"[
  {"type": "function", "function": {"name": "get_rate", "description": "Exchange rate between two currencies.",
   "parameters": {"type": "object", "properties": {"pair": {"type": "string", "description": "Pair as BASE/QUOTE."}}, "required": ["pair"], "additionalProperties": false}}}
]"#;

const SNAPSHOT: &str = r#"{
  "annotations": {"readOnlyHint": true, "title": "Get a label"},
  "description": "Get one label of a repository.",
  "inputSchema": {"type": "object", "properties": {"label": {"type": "string", "description": "Label name."}}, "required": ["label"], "additionalProperties": false},
  "name": "get_label"
}"#;

/// A library's function index under a tool-list name: no tools, so never read.
const FUNCTION_INDEX: &str =
    r#"{"Formatting": [{"name": "wrap_text (deprecated)", "children": [{"name": "wrap"}]}]}"#;

#[test]
fn tool_lists_are_found_by_name_and_by_content() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(root, "assistant/functions.json", OPENAI_FUNCTIONS);
    write(root, "docs/functions.json", FUNCTION_INDEX);
    write(root, "server/__toolsnaps__/get_label.snap", SNAPSHOT);
    // A Jest snapshot is JavaScript, and outside `__toolsnaps__/`.
    write(
        root,
        "web/__snapshots__/app.test.js.snap",
        "exports[`app 1`] = `<div />`;\n",
    );
    write(
        root,
        "registry/builds/tools.json",
        r#"[{"name": "retry_build", "description": "Retry one build.", "arguments": [{"name": "build", "type": "integer", "desc": "Build number"}]}]"#,
    );
    write(
        root,
        "catalogs/images.json",
        r#"[{"name": "prune_images", "description": "Remove every unused image.", "category": "images"}]"#,
    );
    let outcome = lint(&options(vec![root.to_path_buf()])).expect("lints");
    let lists = tool_lists(&outcome);
    assert_eq!(
        lists,
        [
            (
                "assistant/functions.json".to_string(),
                Some(Dialect::OpenAi),
                vec!["get_rate".to_string()]
            ),
            (
                "registry/builds/tools.json".to_string(),
                Some(Dialect::Docker),
                vec!["retry_build".to_string()]
            ),
            (
                "server/__toolsnaps__/get_label.snap".to_string(),
                Some(Dialect::Mcp),
                vec!["get_label".to_string()]
            ),
        ]
    );
    // Nothing else was read, and nothing said about what was passed over.
    let paths: Vec<&str> = outcome
        .repo
        .files
        .iter()
        .map(|f| f.rel_path.as_str())
        .collect();
    assert_eq!(paths.len(), 3, "{paths:?}");
    assert!(codes_on(&outcome, "docs/functions.json").is_empty());

    // `[tools] include` reads a tool list under a name of its own.
    let mut included = options(vec![root.to_path_buf()]);
    included.glob_base = Some(root.to_path_buf());
    included.tool_include = vec!["catalogs/*.json".to_string()];
    let outcome = lint(&included).expect("lints");
    assert!(tool_lists(&outcome).contains(&(
        "catalogs/images.json".to_string(),
        Some(Dialect::Catalogue),
        vec!["prune_images".to_string()]
    )));
}

#[test]
fn a_named_json_file_is_linted_by_its_content() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(root, "export/tool-defs.json", OPENAI_FUNCTIONS);
    write(
        root,
        "export/package.json",
        r#"{"name": "exporter", "version": "1.0.0"}"#,
    );
    write(root, "docs/functions.json", FUNCTION_INDEX);
    let named = |rel: &str| root.join(rel);
    let outcome = lint(&options(vec![
        named("export/tool-defs.json"),
        named("export/package.json"),
        named("docs/functions.json"),
    ]))
    .expect("lints");
    let on = |rel: &str| {
        outcome
            .diagnostics
            .iter()
            .filter(|d| outcome.repo.file(d.primary.file).abs_path == named(rel))
            .map(|d| (d.code, d.message.clone()))
            .collect::<Vec<_>>()
    };
    // The tool list is read and linted; nothing about it is SL001 or SL004.
    assert!(on("export/tool-defs.json")
        .iter()
        .all(|(code, _)| !code.starts_with("SL")));
    for rel in ["export/package.json", "docs/functions.json"] {
        let found = on(rel);
        assert_eq!(found.len(), 1, "{rel}: {found:?}");
        assert_eq!(found[0].0, "SL004", "{rel}");
        assert!(
            found[0].1.contains("not a file kind skilllint reads"),
            "{rel}: {}",
            found[0].1
        );
    }
}

#[test]
fn bundle_manifests_are_read_and_other_manifests_are_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // A DXT manifest (`dxt_version`) and an MCP Bundle template (`manifest_version`), with a
    // name-only tool as the format allows.
    write(
        root,
        "desktop/manifest.json",
        r#"{"dxt_version": "0.1", "name": "shell", "server": {"type": "node", "entry_point": "index.js"},
  "tools": [{"name": "start_process", "description": "Start a terminal process."}, {"name": "kill_process"}]}"#,
    );
    write(
        root,
        "bundle/manifest.template.json",
        r#"{"manifest_version": "0.2", "name": "billing", "tools": [{"name": "create_refund", "description": "Refund a charge."}]}"#,
    );
    // A browser extension, a web app manifest, and a manifest of some other program with a
    // `tools` array but no bundle version: never read, and nothing is said about them.
    write(
        root,
        "extension/manifest.json",
        r#"{"manifest_version": 3, "name": "Tab notes", "permissions": ["tabs"]}"#,
    );
    write(
        root,
        "web/manifest.json",
        r#"{"name": "App", "short_name": "App", "start_url": "/", "display": "standalone"}"#,
    );
    write(
        root,
        "build/manifest.json",
        r#"{"tools": [{"name": "cmake", "version": "3.28"}]}"#,
    );
    let outcome = lint(&options(vec![root.to_path_buf()])).expect("lints");
    assert_eq!(
        tool_lists(&outcome),
        [
            (
                "bundle/manifest.template.json".to_string(),
                Some(Dialect::Catalogue),
                vec!["create_refund".to_string()]
            ),
            (
                "desktop/manifest.json".to_string(),
                Some(Dialect::Catalogue),
                vec!["start_process".to_string(), "kill_process".to_string()]
            ),
        ]
    );
    assert!(codes_on(&outcome, "desktop/manifest.json").contains(&"SC015"));
    assert!(!codes_on(&outcome, "desktop/manifest.json").contains(&"TJ002"));
    for rel in [
        "extension/manifest.json",
        "web/manifest.json",
        "build/manifest.json",
    ] {
        assert_eq!(codes_on(&outcome, rel), Vec::<&str>::new(), "{rel}");
    }
}

const MCP_TOOL: &str = r#"{"name": "create_flag", "description": "Create a feature flag.",
  "inputSchema": {"type": "object", "properties": {"key": {"type": "string", "description": "Flag key."}}, "required": ["key"], "additionalProperties": false}}"#;

#[test]
fn mcp_tool_lists_are_read_under_any_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // A `tools/list` snapshot as test data, bare and as a JSON-RPC response.
    write(
        root,
        "pkg/testdata/toolsets-core-tools.json",
        &format!("[{MCP_TOOL}]"),
    );
    write(
        root,
        "e2e/golden/list.json",
        &format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"tools": [{MCP_TOOL}]}}}}"#),
    );
    write(
        root,
        "e2e/golden/result.json",
        &format!(r#"{{"tools": [{MCP_TOOL}], "nextCursor": null}}"#),
    );
    // JSON files that are no MCP tool list: never read, never reported.
    write(
        root,
        "package.json",
        r#"{"name": "flags-server", "version": "1.0.0", "scripts": {"test": "jest"}}"#,
    );
    write(
        root,
        ".vscode/settings.json",
        r#"{"tools": [{"name": "prettier", "version": "3"}], "inputSchema": "unused"}"#,
    );
    write(
        root,
        "data/people.json",
        r#"[{"name": "ada", "description": "mathematician", "inputSchema": null}]"#,
    );
    write(root, "schemas/one-tool.json", MCP_TOOL);
    write(
        root,
        "openai/export.json",
        &format!("{OPENAI_FUNCTIONS}\n// \"inputSchema\""),
    );
    let outcome = lint(&options(vec![root.to_path_buf()])).expect("lints");
    let names = |rel: &str| {
        (
            rel.to_string(),
            Some(Dialect::Mcp),
            vec!["create_flag".to_string()],
        )
    };
    assert_eq!(
        tool_lists(&outcome),
        [
            names("e2e/golden/list.json"),
            names("e2e/golden/result.json"),
            names("pkg/testdata/toolsets-core-tools.json"),
        ]
    );
    for rel in [
        "package.json",
        ".vscode/settings.json",
        "data/people.json",
        "schemas/one-tool.json",
        "openai/export.json",
    ] {
        assert_eq!(codes_on(&outcome, rel), Vec::<&str>::new(), "{rel}");
    }
}

#[test]
fn a_catalogue_keyed_by_tool_name_is_read_as_tools_named_by_their_keys() {
    let keyed = r#"{
  "create_flag": {"description": "Create a flag.", "inputSchema": {"type": "object", "properties": {}}},
  "search_docs": {"description": "Search the docs.", "inputSchema": {"type": "object", "properties": {}}}
}"#;
    let doc = parse_tools(keyed);
    assert_eq!(doc.problems, Vec::new());
    let tools: Vec<(String, String, Dialect)> = doc
        .tools
        .iter()
        .map(|t| (t.display_name(), t.pointer.clone(), t.dialect))
        .collect();
    assert_eq!(
        tools,
        [
            (
                "create_flag".to_string(),
                "/create_flag".to_string(),
                Dialect::Mcp
            ),
            (
                "search_docs".to_string(),
                "/search_docs".to_string(),
                Dialect::Mcp
            ),
        ]
    );
    let openai = parse_tools(
        r#"{"get_rate": {"description": "Get a rate.", "parameters": {"type": "object"}}}"#,
    );
    assert_eq!(openai.dialect, Some(Dialect::OpenAi));
    assert_eq!(openai.tools[0].display_name(), "get_rate");
    // The name points at the key, quotes included, as a `name` value would.
    let span = doc.tools[0].span();
    assert_eq!(&keyed[span.start..span.end], "\"create_flag\"");

    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(root, "flags/tools.json", keyed);
    write(
        root,
        "flags/testdata/catalog.json",
        r#"{"toggle_flag": {"description": "Toggle a flag.", "inputSchema": {"type": "object", "properties": {}}}}"#,
    );
    // One member that is no tool: not a keyed catalogue (a `tools.json` says so with TJ014).
    write(
        root,
        "other/tools.json",
        r#"{"create_flag": {"inputSchema": {"type": "object"}}, "version": "1"}"#,
    );
    write(
        root,
        "other/functions.json",
        r#"{"create_flag": {"inputSchema": {"type": "object"}}, "version": "1"}"#,
    );
    let outcome = lint(&options(vec![root.to_path_buf()])).expect("lints");
    let lists: Vec<(String, Vec<String>)> = tool_lists(&outcome)
        .into_iter()
        .filter(|(_, _, names)| !names.is_empty())
        .map(|(rel, _, names)| (rel, names))
        .collect();
    assert_eq!(
        lists,
        [
            (
                "flags/testdata/catalog.json".to_string(),
                vec!["toggle_flag".to_string()]
            ),
            (
                "flags/tools.json".to_string(),
                vec!["create_flag".to_string(), "search_docs".to_string()]
            ),
        ]
    );
    assert!(!codes_on(&outcome, "flags/tools.json").contains(&"TJ014"));
    assert_eq!(codes_on(&outcome, "other/tools.json"), ["TJ014"]);
    assert_eq!(
        codes_on(&outcome, "other/functions.json"),
        Vec::<&str>::new()
    );
}

#[test]
fn skilllint_tools_says_which_files_hold_tools_it_does_not_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // A gateway's registry: MCP-looking tools, most of them without an `inputSchema`.
    write(
        root,
        "registries/demo.json",
        r#"{"tools": [{"name": "fetch", "description": "Fetch a page.", "inputSchema": {"type": "object"}},
  {"name": "get_page", "description": "Get a page."}, {"name": "get_text", "description": "Get text."}]}"#,
    );
    // A bundle-shaped manifest without its version key.
    write(
        root,
        "ext/manifest.json",
        r#"{"name": "shell", "tools": [{"name": "run_command", "description": "Run a command."}]}"#,
    );
    // Files that hold nothing tool-like stay out of the list.
    write(
        root,
        "package.json",
        r#"{"name": "gateway", "version": "1.0.0"}"#,
    );
    write(
        root,
        "web/manifest.json",
        r#"{"manifest_version": 3, "name": "Tab notes"}"#,
    );
    write(root, "docs/functions.json", FUNCTION_INDEX);
    write(root, "tools/tools.json", &format!("[{MCP_TOOL}]"));
    let inventory =
        skilllint::inventory::inventory(&options(vec![root.to_path_buf()])).expect("inventory");
    let unread: Vec<(&str, bool)> = inventory
        .unread
        .iter()
        .map(|u| {
            (
                u.path.as_str(),
                u.message.starts_with("holds what look like tools"),
            )
        })
        .collect();
    assert_eq!(
        unread,
        [("ext/manifest.json", true), ("registries/demo.json", true)]
    );
    assert!(inventory.unread[0].message.contains("dxt_version"));
    assert!(inventory.unread[1].message.contains("[tools] include"));
    assert_eq!(inventory.rows.len(), 1);
}

/// One lint of `root` with every rule.
fn timed(root: &Path) -> Duration {
    let start = Instant::now();
    let outcome = lint(&options(vec![root.to_path_buf()])).expect("lints");
    let elapsed = start.elapsed();
    assert!(!outcome.repo.files.is_empty());
    elapsed
}

fn assert_linear(shape: &str, size: usize, build: impl Fn(&Path, usize)) {
    let small = tempfile::tempdir().expect("temp dir");
    let large = tempfile::tempdir().expect("temp dir");
    build(small.path(), size);
    build(large.path(), 2 * size);
    let bytes = std::fs::metadata(large.path().join("tools.json")).map_or(0, |m| m.len());
    // The least of three runs of each, taken in turn, so that a burst of load on the machine
    // weighs on both sizes alike.
    let (mut x, mut two_x) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        x = x.min(timed(small.path()));
        two_x = two_x.min(timed(large.path()));
    }
    eprintln!("{shape}: x {x:?}, 2x {two_x:?} ({bytes} bytes)");
    assert!(
        two_x < x * 3,
        "{shape}: {x:?} for {size}, {two_x:?} for twice as many"
    );
}

#[test]
fn a_docker_catalogue_of_many_tools_lints_in_linear_time() {
    assert_linear("Docker catalogue", 2_500, |root, n| {
        let tools: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"name": "delete_item_{i}", "description": "Delete item {i} for good.", "arguments": [{{"name": "id", "type": "string", "desc": "Item id"}}, {{"name": "force", "type": "boolean", "desc": "", "optional": true}}, {{"name": "tags", "type": "array", "items": {{"type": "string"}}, "desc": "Tags"}}], "annotations": {{"title": "Delete {i}"}}}}"#
                )
            })
            .collect();
        write(root, "tools.json", &format!("[{}]", tools.join(",\n")));
    });
}

#[test]
fn catalogues_and_lists_of_unknown_entries_lint_in_linear_time() {
    assert_linear("catalogue", 8_000, |root, n| {
        let tools: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"name": "svc_get_{i}", "description": "Get record {i} of the service."}}"#
                )
            })
            .collect();
        write(root, "tools.json", &format!("[{}]", tools.join(",\n")));
    });
    assert_linear("entries of no dialect", 8_000, |root, n| {
        let tools: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"name": "svc_get_{i}", "title": "Get record {i}"}}"#))
            .collect();
        write(
            root,
            "tools.json",
            &format!(r#"{{"tools": [{}]}}"#, tools.join(",\n")),
        );
    });
}

#[test]
fn a_tools_list_response_of_many_tools_lints_in_linear_time() {
    assert_linear("tools/list response", 2_000, |root, n| {
        let tools: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"name": "update_record_{i}", "description": "Update record {i}.", "inputSchema": {{"type": "object", "properties": {{"id": {{"type": "string", "description": "Record id."}}, "note": {{"anyOf": [{{"type": "string", "description": "New note."}}, {{"type": "null"}}]}}}}, "required": ["id"]}}, "annotations": {{"readOnlyHint": false}}}}"#
                )
            })
            .collect();
        write(
            root,
            "tools.json",
            &format!(
                r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"tools": [{}]}}}}"#,
                tools.join(",\n")
            ),
        );
    });
}
