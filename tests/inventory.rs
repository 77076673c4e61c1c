//! `skilllint tools`: the capability inventory, run as a user runs it, against
//! tests/fixtures/inventory (an MCP server list behind a skill that pre-approves two of its tools,
//! a forge ledger, an OpenAI list whose tool name holds an escape sequence, a tools file that
//! is not valid JSON, and one that is some other program's list).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skilllint(args: &[&str], cwd: &Path) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("GITHUB_WORKSPACE")
        .output();
    match output {
        Ok(output) => output,
        Err(error) => panic!("cannot run skilllint: {error}"),
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn json(args: &[&str]) -> Value {
    let mut all = vec!["tools", "inventory", "--format", "json"];
    all.extend_from_slice(args);
    let output = skilllint(&all, &fixtures());
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    serde_json::from_str(&stdout(&output)).expect("the inventory is JSON")
}

fn tool<'a>(inventory: &'a Value, name: &str) -> &'a Value {
    inventory["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == name))
        .unwrap_or_else(|| panic!("no tool {name} in {inventory:#}"))
}

/// Validates `instance` against the JSON Schema at `schema` (relative to the crate).
fn assert_matches_schema(schema: &str, instance: &Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(schema);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("schema"))
        .expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn every_tool_is_one_row_sorted_by_path_then_place() {
    let inventory = json(&[]);
    let rows: Vec<(&str, &str)> = inventory["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            (
                t["path"].as_str().unwrap_or(""),
                t["name"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("ledger/tools.json", "read_balance"),
            ("ledger/tools.json", "post_journal_entry"),
            ("relay/tools.json", "send_\u{1b}[31mdigest"),
            ("storefront/SKILL.md", "Bash(git status:*)"),
            ("storefront/tools.json", "list_orders"),
            ("storefront/tools.json", "issue_refund"),
            ("storefront/tools.json", "deleteCustomer"),
            ("storefront/tools.json", "run_report_query"),
        ]
    );
}

#[test]
fn effect_capabilities_and_evidence_come_from_the_effect_model() {
    let inventory = json(&[]);
    let refund = tool(&inventory, "issue_refund");
    assert_eq!(refund["effect"], "write");
    assert_eq!(refund["capabilities"], serde_json::json!(["financial"]));
    assert_eq!(refund["dialect"], "MCP");
    assert_eq!(refund["folder"], "storefront");
    assert_eq!(
        (refund["line"].as_u64(), refund["column"].as_u64()),
        (Some(15), Some(15))
    );
    let financial = refund["evidence"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["claim"] == "capability:financial"))
        .expect("evidence for the financial capability");
    assert_eq!(financial["basis"], "inferred");
    assert_eq!(financial["source"], "name");
    assert!(financial["text"].as_str().unwrap_or("").contains("refund"));

    let delete = tool(&inventory, "deleteCustomer");
    assert_eq!(delete["effect"], "destructive");
    let query = tool(&inventory, "run_report_query");
    assert_eq!(query["capabilities"], serde_json::json!(["exec"]));
    assert_eq!(tool(&inventory, "list_orders")["effect"], "read");
    // The skill's grant of a scoped shell is a row of its own: the agent runs it unasked. Its
    // grant of MCP tools shows in those tools' gates instead.
    let shell = tool(&inventory, "Bash(git status:*)");
    assert_eq!(shell["dialect"], "allowed-tools");
    assert_eq!(shell["effect"], "write");
    assert_eq!(shell["capabilities"], serde_json::json!(["exec"]));
    assert_eq!(
        shell["evidence"][0]["text"],
        "`allowed-tools` grants `Bash` scoped to `git status:*`"
    );
    assert_eq!(
        (shell["line"].as_u64(), shell["column"].as_u64()),
        (Some(4), Some(75))
    );
}

#[test]
fn gates_are_listed_as_written() {
    let inventory = json(&[]);
    let refund = &tool(&inventory, "issue_refund")["gates"];
    assert_eq!(refund["annotations"]["destructiveHint"], false);
    assert_eq!(refund["idempotent"], true);
    assert_eq!(
        refund["parameters"],
        serde_json::json!([
            {"kind": "confirmation", "name": "user_confirmed", "required": true},
            {"kind": "idempotency", "name": "idempotency_key", "required": true},
        ])
    );
    // The skill's allowed-tools names the MCP tool: the agent calls it without asking.
    assert_eq!(
        refund["preApproved"],
        serde_json::json!(["mcp__storefront__issue_refund"])
    );
    assert_eq!(refund["confirms"], true);

    let delete = &tool(&inventory, "deleteCustomer")["gates"];
    assert_eq!(
        delete["parameters"],
        serde_json::json!([{"kind": "dry-run", "name": "dry_run", "required": false}])
    );
    assert_eq!(delete["preApproved"], serde_json::json!([]));

    let post = &tool(&inventory, "post_journal_entry")["gates"];
    assert_eq!(post["requiresConfirmation"], true);
    assert_eq!(post["idempotent"], false);

    let query = &tool(&inventory, "run_report_query")["gates"];
    assert_eq!(query["confirms"], false);
    assert_eq!(query["annotations"], serde_json::json!({}));
}

#[test]
fn a_tools_file_that_does_not_parse_or_is_no_tool_list_is_named_not_skipped() {
    let inventory = json(&[]);
    let unread = inventory["unread"].as_array().expect("unread");
    assert_eq!(unread.len(), 2, "{unread:?}");
    assert_eq!(unread[0]["path"], "catalogue/tools.json");
    assert_eq!(
        unread[0]["message"],
        "not a tool list in any dialect skilllint reads (TJ014)"
    );
    assert_eq!(unread[1]["path"], "garbled/tools.json");
    assert!(unread[1]["message"]
        .as_str()
        .unwrap_or("")
        .starts_with("not valid JSON"));
    let full = stdout(&skilllint(&["tools", "inventory"], &fixtures()));
    assert!(
        full.contains("not read: garbled/tools.json: not valid JSON"),
        "{full}"
    );
}

#[test]
fn json_matches_its_published_schema() {
    let inventory = json(&[]);
    assert_matches_schema("docs/tools-v1.schema.json", &inventory);
    assert_eq!(inventory["version"], 1);
}

#[test]
fn output_is_the_same_on_one_thread_and_on_many() {
    for format in ["full", "json", "markdown"] {
        let one = skilllint(
            &["tools", "inventory", "--format", format, "--threads", "1"],
            &fixtures(),
        );
        let many = skilllint(&["tools", "inventory", "--format", format], &fixtures());
        assert_eq!(one.status.code(), Some(0));
        assert!(!one.stdout.is_empty());
        assert_eq!(stdout(&one), stdout(&many), "{format}");
    }
}

#[test]
fn repository_text_is_escaped_in_the_human_formats() {
    for format in ["full", "markdown"] {
        let out = stdout(&skilllint(
            &["tools", "inventory", "--format", format],
            &fixtures(),
        ));
        assert!(!out.contains('\u{1b}'), "{format}: raw ESC in {out}");
        // Markdown writes the backslash of the escape as `\\`, which renders as one.
        let shown = if format == "full" {
            "send_\\u{1b}[31mdigest"
        } else {
            "send_\\\\u{1b}[31mdigest"
        };
        assert!(out.contains(shown), "{format}: {out}");
    }
}

#[test]
fn the_full_table_shows_each_row_with_its_gates_and_evidence() {
    let out = stdout(&skilllint(&["tools", "inventory"], &fixtures()));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("TOOL "), "{out}");
    let at = lines
        .iter()
        .position(|l| l.starts_with("issue_refund "))
        .expect("the refund row");
    let row: Vec<&str> = lines[at].split_whitespace().collect();
    assert_eq!(
        row,
        [
            "issue_refund",
            "MCP",
            "write",
            "financial",
            "storefront/tools.json:15:15"
        ]
    );
    assert!(lines[at + 1].starts_with("    gates: "), "{out}");
    assert!(lines[at + 1].contains("confirmation parameter `user_confirmed` (required)"));
    assert!(lines[at + 1].contains("pre-approved by allowed-tools: mcp__storefront__issue_refund"));
    assert!(lines[at + 2..]
        .iter()
        .take_while(|l| l.starts_with("    "))
        .any(|l| l.contains("capability:financial") && l.contains("refund")));
    let query = lines
        .iter()
        .position(|l| l.starts_with("run_report_query "))
        .expect("the query row");
    assert_eq!(lines[query + 1], "    gates: none");
}

#[test]
fn markdown_is_one_table_row_per_tool() {
    let out = stdout(&skilllint(
        &["tools", "inventory", "--format", "markdown"],
        &fixtures(),
    ));
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
    // The header and eight tools; the separator starts with `| -`.
    assert_eq!(rows.len(), 1 + 1 + 8, "{out}");
    let refund = rows
        .iter()
        .find(|r| r.starts_with("| issue\\_refund |") || r.starts_with("| issue_refund |"))
        .expect("the refund row");
    assert!(refund.contains("| write | financial |"), "{refund}");
    assert!(refund.contains("storefront/tools.json:15"), "{refund}");
}

#[test]
fn it_lints_nothing_and_a_bad_path_exits_2() {
    let out = skilllint(&["tools", "inventory"], &fixtures());
    assert_eq!(out.status.code(), Some(0));
    assert!(!stdout(&out).contains("SC016"));
    let missing = skilllint(&["tools", "no-such-folder"], &fixtures());
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such file or directory"));
    let config = skilllint(
        &["tools", "inventory", "--config", "no-such-config.toml"],
        &fixtures(),
    );
    assert_eq!(config.status.code(), Some(2));
}

#[test]
fn the_config_exclude_applies() {
    let dir = std::env::temp_dir().join(format!("skilllint-inventory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["ledger", "storefront"] {
        let to = dir.join(sub);
        std::fs::create_dir_all(&to).expect("folder");
        for entry in std::fs::read_dir(fixtures().join("inventory").join(sub)).expect("fixture") {
            let entry = entry.expect("entry");
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        }
    }
    std::fs::write(
        dir.join("skilllint.toml"),
        "[lint]\nexclude = [\"ledger/**\"]\n",
    )
    .expect("config");
    let out = skilllint(&["tools", ".", "--format", "json"], &dir);
    let inventory: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let paths: Vec<&str> = inventory["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["path"].as_str())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!paths.is_empty());
    assert!(
        paths.iter().all(|p| p.starts_with("storefront/")),
        "{paths:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// skilllint diff --dirs OLD NEW, against tests/fixtures/capdiff/{old,new}: one MCP server list
// behind a skill and one forge ledger, changed in each way the diff reports.
// ---------------------------------------------------------------------------------------------

fn diff(args: &[&str]) -> Output {
    let mut all = vec!["diff", "--dirs"];
    all.extend_from_slice(args);
    skilllint(&all, &fixtures().join("capdiff"))
}

fn diff_json(old: &str, new: &str) -> Value {
    let output = diff(&[old, new, "--format", "json", "--exit-zero"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    serde_json::from_str(&stdout(&output)).expect("the diff is JSON")
}

#[test]
fn each_change_is_reported_once_with_whether_it_widens() {
    let report = diff_json("old", "new");
    let changes: Vec<(&str, &str, bool)> = report["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            (
                c["tool"].as_str().unwrap_or(""),
                c["kind"].as_str().unwrap_or(""),
                c["widens"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        changes,
        [
            ("sync_ledger", "effect-widened", true),
            ("post_journal_entry", "gate-dropped", true),
            ("Bash", "added", true),
            ("list_orders", "schema-widened", true),
            ("list_orders", "schema-widened", true),
            ("list_orders", "schema-widened", true),
            ("issue_refund", "gate-dropped", true),
            ("issue_refund", "gate-dropped", true),
            ("issue_refund", "pre-approval-added", true),
            ("delete_customer", "gate-dropped", true),
            ("archive_order", "gate-dropped", true),
            ("run_report", "capability-added", true),
            ("describe_catalog", "description-changed", true),
            ("transfer_funds", "added", true),
            ("archive_order", "effect-narrowed", false),
            ("get_invoice", "renamed", false),
            ("ping", "removed", false),
        ]
    );
    assert_eq!(report["widens"], true);
    let messages: Vec<&str> = report["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter_map(|c| c["message"].as_str())
        .collect();
    for expected in [
        "`requiresConfirmation` true → false",
        "confirmation parameter `user_confirmed` no longer required",
        "idempotency parameter `idempotency_key` removed",
        "`destructiveHint` true → absent",
        "new capability `exec`",
        "renamed from `fetch_invoice` (same input schema)",
        "new write tool (exec)",
        "property `customer_id` no longer required",
        "property `status` accepts more `enum` values",
        "`additionalProperties: false` gone: the tool accepts properties it does not declare",
    ] {
        assert!(
            messages.contains(&expected),
            "{expected:?} not in {messages:#?}"
        );
    }
    let description = report["changes"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["kind"] == "description-changed"))
        .expect("the description change");
    assert_eq!(
        description["before"],
        "Describe the product catalog's categories."
    );
    assert!(description["after"]
        .as_str()
        .unwrap_or("")
        .contains("saved payment methods"));
    // Places are the new side's, for the removed tool the old side's.
    assert_eq!(description["path"], "storefront/tools.json");
    let rename = report["changes"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["kind"] == "renamed"))
        .expect("the rename");
    assert_eq!(rename["oldName"], "fetch_invoice");
}

#[test]
fn the_diff_json_matches_its_published_schema() {
    let report = diff_json("old", "new");
    assert_matches_schema("docs/diff-v1.schema.json", &report);
}

#[test]
fn no_change_is_an_empty_report_and_exit_0() {
    let same = diff(&["old", "old"]);
    assert_eq!(same.status.code(), Some(0));
    assert_eq!(stdout(&same), "No capability changes.\n");
    let report = diff_json("new", "new");
    assert_eq!(report["changes"], serde_json::json!([]));
    assert_eq!(report["widens"], false);
}

#[test]
fn a_widening_change_exits_1_unless_exit_zero() {
    assert_eq!(diff(&["old", "new"]).status.code(), Some(1));
    assert_eq!(diff(&["old", "new", "--exit-zero"]).status.code(), Some(0));
    // Backwards, gates come back and tools go: what still widens is the description (any
    // change of it) and the archive tool, whose `readOnlyHint` goes and whose name says it writes.
    let back = diff_json("new", "old");
    let widening: Vec<(&str, &str)> = back["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter(|c| c["widens"] == true)
        .map(|c| {
            (
                c["tool"].as_str().unwrap_or(""),
                c["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        widening,
        [
            ("archive_order", "effect-widened"),
            ("describe_catalog", "description-changed")
        ],
        "{back:#}"
    );
    assert_eq!(diff(&["old", "no-such-folder"]).status.code(), Some(2));
}

#[test]
fn the_diff_formats_are_the_same_on_one_thread_and_on_many() {
    for format in ["full", "json", "markdown"] {
        let one = diff(&["old", "new", "--format", format, "--threads", "1"]);
        let many = diff(&["old", "new", "--format", format]);
        assert_eq!(one.status.code(), Some(1));
        assert!(!one.stdout.is_empty());
        assert_eq!(stdout(&one), stdout(&many), "{format}");
    }
}

#[test]
fn the_markdown_diff_puts_widening_changes_first_and_folds_the_rest() {
    let out = stdout(&diff(&["old", "new", "--format", "markdown"]));
    let widen = out
        .find("### 14 change(s) widen what the agent can do")
        .expect("the widening section");
    let folded = out
        .find("<details><summary>3 other change(s)</summary>")
        .expect("the folded section");
    assert!(widen < folded, "{out}");
    assert!(out.contains("before: Describe the product catalog's categories.<br>after: "));
    let full = stdout(&diff(&["old", "new"]));
    assert!(
        full.ends_with("17 change(s), 14 widening what the agent can do.\n"),
        "{full}"
    );
    assert!(full.contains("        - Describe the product catalog's categories.\n"));
}

#[test]
fn files_not_read_are_said_so_even_when_nothing_else_changed() {
    let out = diff(&["unread-old", "unread-new"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "old side: not read: feed/tools.json: not valid JSON: Unterminated string literal\n\
         new side: not read: feed/tools.json: not valid JSON: Unterminated string literal\n\
         No capability changes among the tools read; 2 tools file(s) not read, their tools not compared.\n"
    );
    let markdown = stdout(&diff(&["unread-old", "unread-new", "--format", "markdown"]));
    assert!(markdown.contains("2 tools file(s) not read"), "{markdown}");
}

/// Writes `tools` MCP tools, 100 a file, under `root`: each with its own one-property schema, so
/// that `prefix` decides whether two sides' tools are renames of each other.
fn write_many(root: &Path, tools: usize, prefix: &str) {
    for file in 0..tools.div_ceil(100) {
        let entries: Vec<String> = (file * 100..tools.min(file * 100 + 100))
            .map(|i| {
                format!(
                    r#"{{"name": "{prefix}_update_record_{i}", "description": "Update record {i}.", "inputSchema": {{"type": "object", "properties": {{"field_{i}": {{"type": "string", "description": "New value."}}}}, "required": ["field_{i}"]}}}}"#
                )
            })
            .collect();
        let dir = root.join(format!("server{file}"));
        std::fs::create_dir_all(&dir).expect("folder");
        std::fs::write(
            dir.join("tools.json"),
            format!("{{\"tools\": [{}]}}\n", entries.join(",\n")),
        )
        .expect("write");
    }
}

#[test]
fn diff_time_is_linear_in_the_number_of_tools() {
    let time = |tools: usize| {
        let dir = tempfile::tempdir().expect("temp dir");
        write_many(&dir.path().join("old"), tools, "old");
        write_many(&dir.path().join("new"), tools, "new");
        let start = std::time::Instant::now();
        let out = skilllint(
            &[
                "diff",
                "--dirs",
                "old",
                "new",
                "--format",
                "json",
                "--exit-zero",
            ],
            dir.path(),
        );
        let elapsed = start.elapsed();
        let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        // Every tool is a rename: its schema is the same under a new name.
        assert_eq!(report["changes"].as_array().map(Vec::len), Some(tools));
        elapsed
    };
    time(500);
    let (x, x2) = (time(2_000), time(4_000));
    assert!(x2 < x * 3, "2,000 tools: {x:?}; 4,000 tools: {x2:?}");
}
