//! Tools registered in source code (TypeScript, JavaScript, Python, Go), read statically: what
//! `skilllint tools` lists from tests/fixtures/source/servers, what it counts as not read, that
//! look-alikes (a CLI, an HTTP router, a test double, an unrelated `tool()` helper, a dataclass
//! named `Tool`) give no tool, that `[source] enabled = false` turns reading off, and that a
//! `// skilllint: ignore[…]` comment in the source silences a finding.

#[path = "support/binary.rs"]
mod binary;

use binary::{skilllint, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/source")
}

fn inventory(args: &[&str]) -> Value {
    let mut all = vec!["tools", "--format", "json"];
    all.extend_from_slice(args);
    let output = skilllint(&all, &fixtures());
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    serde_json::from_str(&stdout(&output)).expect("the inventory is JSON")
}

fn rows(inventory: &Value) -> Vec<(String, String, u64)> {
    inventory["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap_or_default().to_string(),
                t["path"].as_str().unwrap_or_default().to_string(),
                t["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn registrations_are_listed_with_their_place_in_the_source() {
    let inventory = inventory(&["servers"]);
    let found = rows(&inventory);
    let expected = [
        // OpenAI Agents: an agent as a tool (`asTool`, `as_tool`), `FunctionTool(…)`; LangChain:
        // `StructuredTool.from_function` read as the function, a `BaseTool` subclass.
        ("billing_expert", "agents/handoff.ts", 9),
        ("docs_search", "agents/research.py", 13),
        ("wipe_index", "agents/research.py", 21),
        ("translate_to_spanish", "agents/triage.py", 15),
        ("lookup_order", "agents/triage.py", 21),
        // A name held in a package-level constant is listed where its value is written.
        // FastMCP's `addTool`, OpenAI Agents' `@function_tool`, LangChain's `@tool("name")`,
        // the AI SDK's `tool()` named by its key, OpenAI Agents JS's `tool({name})`.
        ("archive_project", "assistant/agent.py", 8),
        ("lookup_word", "assistant/agent.py", 14),
        ("forget_note", "assistant/tools.ts", 10),
        ("weather", "assistant/tools.ts", 21),
        ("translate_text", "assistant/tools.ts", 29),
        // An array of tool objects typed as the SDK's `Tool[]`.
        ("browser_open", "browser/definitions.ts", 9),
        ("browser_click", "browser/definitions.ts", 18),
        // Names bound by the code around the registration: the entries of an object literal
        // in a `forEach`; a function with fixed names called twice is one registration.
        ("registry_get", "catalog/registry.ts", 7),
        ("registry_put", "catalog/registry.ts", 8),
        ("registry_ping", "catalog/registry.ts", 17),
        // A local function that registers the tool object it is given, called with a literal,
        // in a loop over a literal list (destructured, the name a template of its field) and
        // in a loop over a list a module exports under another name.
        ("shelf_lookup", "catalog/server.js", 18),
        ("feed_prices", "catalog/server.js", 31),
        ("feed_stock", "catalog/server.js", 31),
        ("page_discard", "catalog/server.js", 41),
        ("page_open", "catalog/server.js", 41),
        // Calls of a wrapper another package declares (`MustTool(name, description, handler,
        // options...)` filling a `mcp.Tool{}`); the wrapper's own literal is no tool.
        // A handler and input struct declared in another file of the package are read there.
        ("export_panels", "dashboards/tools/exports.go", 11),
        ("list_panels", "dashboards/tools/panels.go", 23),
        ("purge_renders", "dashboards/tools/panels.go", 38),
        // Name, description and schema from constants of a module imported by relative path,
        // through a module that re-exports them.
        ("render_figure", "figures/index.ts", 7),
        ("export_figure", "figures/index.ts", 17),
        ("files_read", "files/main.go", 12),
        ("files_search", "files/main.go", 23),
        // Tool classes: mcp-framework's `MCPTool`, and a class with a tool's whole shape (a
        // `static toolName`, a description, an argument shape, an `execute…` method); an
        // abstract base is none.
        ("purge_cache", "framework/PurgeCacheTool.ts", 10),
        ("desk_close_ticket", "framework/tickets.ts", 5),
        // `Tool(name=self.name)` in handler classes: the name a subclass passes its base's
        // `__init__` (`super().__init__(ARCHIVE_TOOL)`), or a class attribute.
        ("vault_archive", "handlers/handlers.py", 3),
        ("vault_stats", "handlers/handlers.py", 32),
        // Python functions registered by calling the server: `self.tool(fn, name=…)`,
        // `add_tool(self.method, "name")`, `tool(name=…)(fn)`.
        ("memory_store", "memory/server.py", 35),
        ("memory_find", "memory/server.py", 36),
        ("memory_recall", "memory/server.py", 37),
        ("memory_forget", "memory/server.py", 38),
        ("notes_append", "notes/index.ts", 18),
        ("notes_list", "notes/index.ts", 32),
        ("notes_search", "notes/index.ts", 41),
        ("ops_cleanup", "ops/server.py", 13),
        ("ops_status", "ops/server.py", 25),
        ("ops_restart", "ops/server.py", 31),
        ("ops_ping", "ops/server.py", 52),
        // Tool configs spread from a shared object; a project's own wrapper of `tool`.
        ("list_tables", "tables/tools.ts", 26),
        ("drop_table", "tables/tools.ts", 30),
    ];
    let expected: Vec<(String, String, u64)> = expected
        .iter()
        .map(|(n, p, l)| (n.to_string(), p.to_string(), *l))
        .collect();
    assert_eq!(found, expected, "{inventory:#}");
    // The registration whose name is computed at run time is counted, and the schema imported
    // from another module is said to be unread; neither is guessed.
    let unread = inventory["unread"].to_string();
    assert!(
        unread.contains("line 36: `tool(…)` is not the value of a key that names it"),
        "{unread}"
    );
    // A loop over a list fetched at run time binds nothing: one registration not read, at the
    // call in the loop, however many branches of the local function register.
    assert!(
        unread.contains(
            "1 tool registration not read (line 46: `entry` is not a constant of this file)"
        ),
        "{unread}"
    );
    // The hints of a class whose base may set them are not read, not taken to be absent.
    assert!(
        unread.contains("annotations not read at line 4 (the base class `DeskToolBase` may set hints of its own)"),
        "{unread}"
    );
    assert!(
        unread.contains(
            "line 19: `as_tool` without `tool_name` is named after the agent at run time"
        ),
        "{unread}"
    );
    // A generic tool class named per instance.
    assert!(
        unread
            .contains("line 30: `ApiTool.name` is empty: each instance is named where it is made"),
        "{unread}"
    );
    // A handler class whose name only the code that builds it knows.
    assert!(
        unread.contains(
            "1 tool registration not read (line 44: `name` is not a constant of this file)"
        ),
        "{unread}"
    );
    // Go: a name from a loop over a run-time list, and a schema option of the program's own.
    assert!(
        unread.contains("line 28: `name` is not a constant of this file"),
        "{unread}"
    );
    assert!(
        unread.contains("`files_search`: inputSchema not read at line 25 (`WithPagination()`"),
        "{unread}"
    );
    assert!(unread.contains("1 tool registration not read"), "{unread}");
    // A description a module computes at run time is not read there either.
    assert!(
        unread.contains("`export_figure`: description not read at line 19"),
        "{unread}"
    );
    // Tool objects handed to code of another file.
    assert!(
        unread.contains("line 27: `browser_evaluate` is handed to code of another file"),
        "{unread}"
    );
    // A function imported from another module, and one wrapped before it is registered.
    assert!(
        unread.contains("line 39: `export_all` is imported from another module"),
        "{unread}"
    );
    assert!(
        unread.contains(
            "`memory_find`: inputSchema not read at line 36 (`search` is bound more than once"
        ),
        "{unread}"
    );
    assert!(unread.contains("line 48"), "{unread}");
    assert!(
        unread.contains("`notes_search`: inputSchema not read at line 42"),
        "{unread}"
    );
}

#[test]
fn what_the_registrations_declare_and_do_is_the_effect() {
    let inventory = inventory(&["servers"]);
    let tool = |name: &str| {
        inventory["tools"]
            .as_array()
            .and_then(|t| t.iter().find(|t| t["name"] == name))
            .cloned()
            .unwrap_or_else(|| panic!("no {name}"))
    };
    assert_eq!(tool("ops_cleanup")["effect"], "destructive");
    let wipe = tool("wipe_index")["evidence"].to_string();
    assert!(wipe.contains("`shutil.rmtree` in the handler"), "{wipe}");
    let purge = tool("purge_cache")["evidence"].to_string();
    assert!(purge.contains("`fs/promises.rm` in the handler"), "{purge}");
    // A tool object read from the list a module exports, its handler there.
    let discard = tool("page_discard")["evidence"].to_string();
    assert!(
        discard.contains("`fs/promises.rm` in the handler"),
        "{discard}"
    );
    assert_eq!(tool("notes_list")["effect"], "read");
    assert_eq!(tool("notes_append")["effect"], "write");
    // Hints read through a spread.
    assert_eq!(tool("list_tables")["effect"], "read");
    assert_eq!(tool("drop_table")["effect"], "destructive");
    // A wrapper's call: the hint passed among its options, the handler's deletion as evidence.
    assert_eq!(tool("list_panels")["effect"], "read");
    let purge = tool("purge_renders")["evidence"].to_string();
    assert!(purge.contains("`os.RemoveAll` in the handler"), "{purge}");
    assert_eq!(tool("export_panels")["effect"], "write");
    let export = tool("export_panels")["evidence"].to_string();
    assert!(export.contains("`os.WriteFile` in the handler"), "{export}");
    let evidence = tool("ops_cleanup")["evidence"].to_string();
    assert!(
        evidence.contains("`shutil.rmtree` in the handler"),
        "{evidence}"
    );
}

#[test]
fn look_alikes_register_no_tool() {
    let output = skilllint(&["tools", "lookalikes"], &fixtures());
    assert_eq!(stdout(&output), "No tools found.\n", "{output:?}");
}

#[test]
fn source_reading_can_be_turned_off() {
    let root = tempfile::tempdir().expect("tempdir");
    let server = fixtures().join("servers/notes/index.ts");
    std::fs::copy(server, root.path().join("index.ts")).expect("copy");
    let tools = || stdout(&skilllint(&["tools", "."], root.path()));
    assert!(tools().contains("notes_append"), "{}", tools());
    std::fs::write(
        root.path().join("skilllint.toml"),
        "[source]\nenabled = false\n",
    )
    .expect("write");
    assert_eq!(tools(), "No tools found.\n");
    // And as a setting on the command line of a lint. Copied out of the checkout: linted in
    // place, the fixture is a file of this repository's test folders, which are not read for
    // tools whatever folder is named.
    let fires = tempfile::tempdir().expect("tempdir");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/SC009/fires/servers/workspace/server.ts"),
        fires.path().join("server.ts"),
    )
    .expect("copy");
    let lint = |extra: &[&str]| {
        let mut args = vec!["--select", "SC009", "--format", "concise", "."];
        args.extend_from_slice(extra);
        stdout(&skilllint(&args, fires.path()))
    };
    assert!(lint(&[]).contains("SC009"));
    assert!(!lint(&["--config", "source.enabled=false"]).contains("SC009"));
}

#[test]
fn a_comment_in_the_source_silences_a_finding() {
    let root = tempfile::tempdir().expect("tempdir");
    let server = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/SC009/fires/servers/workspace/server.ts");
    let text = std::fs::read_to_string(server).expect("fixture");
    std::fs::write(root.path().join("server.ts"), &text).expect("write");
    let lint = |root: &Path| {
        let output = skilllint(&["--select", "SC009", "--format", "concise", "."], root);
        stdout(&output)
    };
    assert!(lint(root.path()).contains("SC009"), "the fixture fires");
    let silenced = text.replace(
        "    annotations: { readOnlyHint: true",
        "    // skilllint: ignore[SC009] the tidy only removes build output\n    annotations: { readOnlyHint: true",
    );
    assert_ne!(silenced, text);
    std::fs::write(root.path().join("server.ts"), silenced).expect("write");
    let out = lint(root.path());
    assert!(!out.contains("SC009"), "{out}");
}
