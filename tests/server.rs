//! `skilllint server` driven over standard input and output as an editor drives it: framed JSON-RPC
//! messages, every read under a timeout, so a server that stops answering fails the test instead
//! of hanging it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

fn fixture(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications read while waiting for something else, oldest first.
    backlog: Vec<Value>,
}

/// Reads `Content-Length`-framed messages until the stream ends.
fn read_messages(stdout: impl Read, sender: std::sync::mpsc::Sender<Value>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.parse::<usize>().ok();
            }
        }
        let Some(length) = length else { return };
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let Ok(message) = serde_json::from_slice(&body) else {
            return;
        };
        if sender.send(message).is_err() {
            return;
        }
    }
}

impl Client {
    fn start(cwd: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skilllint"))
            .arg("server")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, incoming) = std::sync::mpsc::channel();
        std::thread::spawn(move || read_messages(stdout, sender));
        Client {
            child,
            stdin,
            incoming,
            next_id: 0,
            backlog: Vec::new(),
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its response (`result` or `error`), keeping the
    /// notifications that arrive meanwhile.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive(&format!("the response to {method}"));
            if message["id"] == json!(id) && message.get("method").is_none() {
                return message;
            }
            if message.get("id").is_some() && message.get("method").is_some() {
                // A request from the server (the watcher registration): answer it.
                let answer = json!({"jsonrpc": "2.0", "id": message["id"], "result": null});
                self.send(answer);
                continue;
            }
            self.backlog.push(message);
        }
    }

    fn receive(&mut self, waiting_for: &str) -> Value {
        match self.incoming.recv_timeout(TIMEOUT) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => {
                panic!("no message within {TIMEOUT:?} ({waiting_for})")
            }
            Err(RecvTimeoutError::Disconnected) => panic!("the server hung up ({waiting_for})"),
        }
    }

    /// The parameters of the next publishDiagnostics for `uri` (from the backlog first).
    fn publish_for(&mut self, uri: &str) -> Value {
        let is_it = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(index) = self.backlog.iter().position(is_it) {
            return self.backlog.remove(index)["params"].clone();
        }
        loop {
            let message = self.receive(&format!("diagnostics for {uri}"));
            if is_it(&message) {
                return message["params"].clone();
            }
            if message.get("id").is_some() && message.get("method").is_some() {
                let answer = json!({"jsonrpc": "2.0", "id": message["id"], "result": null});
                self.send(answer);
                continue;
            }
            self.backlog.push(message);
        }
    }

    /// The diagnostics of the next publishDiagnostics for `uri`.
    fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        let params = self.publish_for(uri);
        params["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    fn shutdown(mut self) {
        let response = self.request("shutdown", Value::Null);
        assert!(response.get("error").is_none(), "{response}");
        self.notify("exit", Value::Null);
        let started = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    assert!(status.success(), "the server exited with {status}");
                    return;
                }
                Ok(None) if started.elapsed() < TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                _ => {
                    let _ = self.child.kill();
                    panic!("the server did not exit after `exit`");
                }
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn initialize(client: &mut Client, root: &Path) {
    let response = client.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": null,
            "capabilities": {
                "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}
            },
            "workspaceFolders": [{"uri": uri(root), "name": "repo"}],
        }),
    );
    let capabilities = &response["result"]["capabilities"];
    assert_eq!(capabilities["hoverProvider"], json!(true), "{response}");
    assert!(
        capabilities["codeActionProvider"]["codeActionKinds"]
            .as_array()
            .is_some_and(|k| k.contains(&json!("source.fixAll.skilllint"))),
        "{response}"
    );
    client.notify("initialized", json!({}));
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Applies LSP text edits (line, UTF-16 character; ASCII here) to `text`, last first.
fn apply_edits(text: &str, edits: &[Value]) -> String {
    let offset = |position: &Value| {
        let line = position["line"].as_u64().expect("line") as usize;
        let character = position["character"].as_u64().expect("character") as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + character
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().expect("newText"),
            )
        })
        .collect();
    spans.sort_by_key(|span| std::cmp::Reverse(span.0));
    let mut out = text.to_string();
    for (start, end, new_text) in spans {
        out.replace_range(start..end, new_text);
    }
    out
}

/// `skilllint ARGS` in `cwd`: its standard output.
fn skilllint(cwd: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("skilllint runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The command line's findings in `file` as (code, message, start line, start column, end
/// line, end column), lines and columns from 0 (ASCII files: columns are characters).
fn cli_findings(root: &Path, rel: &str) -> Vec<(String, String, u64, u64, u64, u64)> {
    let report: Value =
        serde_json::from_str(&skilllint(root, &[".", "--format", "json"])).expect("JSON report");
    report
        .as_array()
        .expect("an array")
        .iter()
        .filter(|d| d["path"] == rel)
        .map(|d| {
            let n = |v: &Value| v.as_u64().expect("a number") - 1;
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
                n(&d["start"]["line"]),
                n(&d["start"]["column"]),
                n(&d["end"]["line"]),
                n(&d["end"]["column"]),
            )
        })
        .collect()
}

fn server_findings(diagnostics: &[Value]) -> Vec<(String, String, u64, u64, u64, u64)> {
    diagnostics
        .iter()
        .filter(|d| d["severity"] != json!(4))
        .map(|d| {
            let n = |v: &Value| v.as_u64().expect("a number");
            let range = &d["range"];
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
                n(&range["start"]["line"]),
                n(&range["start"]["character"]),
                n(&range["end"]["line"]),
                n(&range["end"]["character"]),
            )
        })
        .collect()
}

fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
    std::fs::write(&path, text).expect("file");
    path
}

/// tools.json with a tool added after the last one.
fn with_tools(tools: &str, added: &[Value]) -> String {
    let mut parsed: Vec<Value> = serde_json::from_str(tools).expect("fixture tools.json");
    parsed.extend(added.iter().cloned());
    serde_json::to_string_pretty(&parsed).expect("JSON") + "\n"
}

fn write_tool(name: &str) -> Value {
    json!({
        "name": name,
        "type": "write",
        "description": "Change one calendar event once the user has explicitly confirmed it.",
        "requiresConfirmation": true,
        "idempotent": false,
        "inputSchema": {
            "type": "object",
            "properties": {
                "event_id": {"type": "string", "maxLength": 64, "description": "The event."},
                "user_confirmed": {"type": "boolean", "description": "Set to true only after the user confirmed this exact operation."}
            },
            "required": ["event_id", "user_confirmed"],
            "additionalProperties": false
        }
    })
}

#[test]
fn an_editor_session_gets_the_command_lines_findings_fixes_and_explanations() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical temp dir");
    let gated = fixture("TJ003/clean/calendar/tools.json");
    let stripped = fixture("TJ003/fires/calendar/tools.json");
    // The skill's rules also name `delete_event`, which tools.json does not define yet (TR004).
    let skill = fixture("TJ003/clean/calendar/SKILL.md").replace(
        "- Never execute",
        "- `delete_event` removes an event: call it only after the user explicitly confirms this exact operation, and pass `user_confirmed: true`.\n- Never execute",
    );
    let tools_path = write(&root, "calendar/tools.json", &gated);
    let skill_path = write(&root, "calendar/SKILL.md", &skill);
    let (tools_uri, skill_uri) = (uri(&tools_path), uri(&skill_path));

    let mut client = Client::start(&root);
    initialize(&mut client, &root);
    // The folder is linted as it opens: the SKILL.md has its TR004.
    let on_disk = client.diagnostics_for(&skill_uri);
    assert_eq!(codes(&on_disk), ["TR004"], "{on_disk:?}");
    assert_eq!(
        server_findings(&on_disk),
        cli_findings(&root, "calendar/SKILL.md")
    );

    // The editor's unsaved text has the confirmation gate stripped: TJ003, on `false`.
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": tools_uri, "languageId": "json", "version": 1, "text": stripped}}),
    );
    let opened = client.diagnostics_for(&tools_uri);
    assert_eq!(codes(&opened), ["TJ003"], "{opened:?}");
    let tj003 = &opened[0];
    let line = stripped
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"requiresConfirmation\": false"))
        .nth(1)
        .map(|(i, _)| i as u64)
        .expect("create_event's gate");
    let column = stripped
        .lines()
        .nth(line as usize)
        .map_or(0, |l| l.find("false").unwrap_or(0)) as u64;
    assert_eq!(
        tj003["range"],
        json!({"start": {"line": line, "character": column}, "end": {"line": line, "character": column + 5}})
    );
    assert_eq!(tj003["severity"], json!(1));
    assert_eq!(tj003["source"], json!("skilllint"));
    assert!(
        tj003["codeDescription"]["href"]
            .as_str()
            .is_some_and(|h| h.ends_with("docs/rules.md#tj003-write-tool-without-confirmation")),
        "{tj003}"
    );
    // The same finding as the command line's over the same text.
    let copy = tempfile::tempdir().expect("temp dir");
    write(copy.path(), "calendar/tools.json", &stripped);
    write(copy.path(), "calendar/SKILL.md", &skill);
    assert_eq!(
        server_findings(&opened),
        cli_findings(copy.path(), "calendar/tools.json")
    );

    // Hover on the finding: the rule's explanation, as `skilllint rule TJ003` prints it.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": tools_uri}, "position": {"line": line, "character": column + 2}}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let explanation = skilllint(&root, &["rule", "TJ003"]);
    assert!(shown.contains(explanation.trim_end()), "{hover}");
    // Nowhere near a finding: nothing.
    let nothing = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": tools_uri}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(nothing["result"], Value::Null, "{nothing}");

    let fixed_by_action = quick_fix_and_fix_all_are_what_fix_writes(
        &mut client,
        &tools_uri,
        tj003,
        &stripped,
        copy.path(),
    );
    edits_relint_the_files_they_touch(
        &mut client,
        &root,
        copy.path(),
        (&tools_uri, &skill_uri),
        &fixed_by_action,
        &skill,
    );

    // A request whose parameters do not parse gets an error, and the server goes on.
    let bad = client.request("textDocument/hover", json!({"textDocument": 7}));
    assert_eq!(bad["error"]["code"], json!(-32602), "{bad}");
    let unknown = client.request("textDocument/definition", json!({}));
    assert_eq!(unknown["error"]["code"], json!(-32601), "{unknown}");
    let still = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": tools_uri}, "position": {"line": 0, "character": 0}}),
    );
    assert!(still.get("error").is_none(), "{still}");

    // Nothing was written into the workspace.
    assert_eq!(
        std::fs::read_to_string(&tools_path).expect("on disk"),
        gated
    );
    // Closed without saving: the file on disk counts again, and SKILL.md has its TR004 back.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": tools_uri}}),
    );
    assert_eq!(
        codes(&client.diagnostics_for(&tools_uri)),
        Vec::<String>::new()
    );
    let reopened = client.diagnostics_for(&skill_uri);
    assert_eq!(
        server_findings(&reopened),
        cli_findings(&root, "calendar/SKILL.md")
    );
    assert_eq!(codes(&reopened), ["TR004"]);
    client.shutdown();
}

/// The quick fix on a TJ003 finding, applied, is what `--fix` writes, and so is the document's
/// "fix all"; JSON offers no "disable" comment. Returns the fixed text.
fn quick_fix_and_fix_all_are_what_fix_writes(
    client: &mut Client,
    tools_uri: &str,
    tj003: &Value,
    stripped: &str,
    copy: &Path,
) -> String {
    // The quick fix on the finding, applied, is what `--fix` writes.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": tools_uri},
            "range": tj003["range"],
            "context": {"diagnostics": [tj003], "only": ["quickfix"]},
        }),
    );
    let actions = actions["result"].as_array().cloned().unwrap_or_default();
    let quick_fix = actions
        .iter()
        .find(|a| a["diagnostics"][0]["code"] == "TJ003" && a["edit"]["documentChanges"].is_array())
        .unwrap_or_else(|| panic!("a TJ003 fix among {actions:?}"));
    assert_eq!(quick_fix["kind"], "quickfix");
    assert_eq!(quick_fix["isPreferred"], json!(true));
    let changes = quick_fix["edit"]["documentChanges"]
        .as_array()
        .expect("changes");
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0]["textDocument"]["uri"], json!(tools_uri));
    let fixed_by_action = apply_edits(stripped, changes[0]["edits"].as_array().expect("edits"));
    skilllint(copy, &[".", "--fix"]);
    let fixed_by_cli = std::fs::read_to_string(copy.join("calendar/tools.json")).expect("fixed");
    assert_ne!(fixed_by_cli, stripped, "--fix changed the file");
    assert_eq!(fixed_by_action, fixed_by_cli);
    // JSON has no comments: no "disable for this line" there.
    assert!(
        actions
            .iter()
            .all(|a| !a["title"].as_str().unwrap_or("").starts_with("Disable")),
        "{actions:?}"
    );
    // The document's "fix all" is the same text.
    let fix_all = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": tools_uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        }),
    );
    let fix_all = &fix_all["result"][0];
    assert_eq!(fix_all["kind"], "source.fixAll.skilllint", "{fix_all}");
    let edits = fix_all["edit"]["changes"][&tools_uri]
        .as_array()
        .expect("edits");
    assert_eq!(apply_edits(stripped, edits), fixed_by_cli);

    fixed_by_action
}

/// The editor applies the fix (its finding cleared, about the editor's version), then adds two
/// tools, which relints both the tools file and the SKILL.md whose rules name them; the
/// SKILL.md's fix is what `--fix` writes.
fn edits_relint_the_files_they_touch(
    client: &mut Client,
    root: &Path,
    copy: &Path,
    (tools_uri, skill_uri): (&str, &str),
    fixed_by_action: &str,
    skill: &str,
) {
    // The editor applies the fix: the finding is cleared.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": tools_uri, "version": 2}, "contentChanges": [{"text": fixed_by_action}]}),
    );
    let cleared = client.publish_for(tools_uri);
    assert_eq!(cleared["diagnostics"], json!([]), "{cleared}");
    // About the editor's version 2 of the document.
    assert_eq!(cleared["version"], json!(2), "{cleared}");

    // Two tools added to tools.json: `delete_event`, which SKILL.md names (its TR004 goes), and
    // `move_event`, which it does not (TR003 on the tool, shown on the SKILL.md section too).
    let added = with_tools(
        fixed_by_action,
        &[write_tool("delete_event"), write_tool("move_event")],
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": tools_uri, "version": 3}, "contentChanges": [{"text": added}]}),
    );
    let tools_now = client.diagnostics_for(tools_uri);
    assert_eq!(codes(&tools_now), ["TR003"], "{tools_now:?}");
    let skill_published = client.publish_for(skill_uri);
    // The SKILL.md is not open: its diagnostics are about the file on disk, no version.
    assert_eq!(skill_published.get("version"), None, "{skill_published}");
    let skill_now = skill_published["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(codes(&skill_now), ["TR003"], "{skill_now:?}");
    assert_eq!(
        skill_now[0]["severity"],
        json!(4),
        "shown as a hint where it points"
    );
    assert_eq!(
        skill_now[0]["relatedInformation"][0]["location"]["uri"],
        json!(tools_uri)
    );
    write(copy, "calendar/tools.json", &added);
    assert_eq!(
        server_findings(&tools_now),
        cli_findings(copy, "calendar/tools.json")
    );
    assert_eq!(cli_findings(copy, "calendar/SKILL.md"), []);
    let related = &tools_now[0]["relatedInformation"][0];
    assert_eq!(
        related["location"]["uri"],
        json!(skill_uri),
        "{tools_now:?}"
    );

    // On the SKILL.md, where TR003 is shown: its explanation, and its fix (a new item in that
    // section), which is what `--fix` writes.
    let hint = &skill_now[0];
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": skill_uri}, "position": hint["range"]["start"]}),
    );
    let explanation = skilllint(root, &["rule", "TR003"]);
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(shown.contains(explanation.trim_end()), "{hover}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": skill_uri},
            "range": hint["range"],
            "context": {"diagnostics": [hint]},
        }),
    );
    let fix = actions["result"]
        .as_array()
        .and_then(|all| {
            all.iter()
                .find(|a| a["edit"]["documentChanges"].is_array())
                .cloned()
        })
        .unwrap_or_else(|| panic!("TR003's fix among {actions}"));
    let changes = fix["edit"]["documentChanges"].as_array().expect("changes");
    assert_eq!(changes.len(), 1, "{fix}");
    assert_eq!(changes[0]["textDocument"]["uri"], json!(skill_uri));
    let skill_fixed = apply_edits(skill, changes[0]["edits"].as_array().expect("edits"));
    skilllint(copy, &[".", "--fix"]);
    let skill_by_cli = std::fs::read_to_string(copy.join("calendar/SKILL.md")).expect("fixed");
    assert_ne!(skill_by_cli, skill, "--fix changed SKILL.md");
    assert_eq!(skill_fixed, skill_by_cli);
}

/// An empty temporary folder, and its canonical path (what the server reports paths under).
fn temp_root() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical temp dir");
    (dir, root)
}

/// TJ003's firing calendar skill under `root/calendar`: the paths of its SKILL.md and tools.json.
fn write_calendar(root: &Path) -> (PathBuf, PathBuf) {
    let skill = write(
        root,
        "calendar/SKILL.md",
        &fixture("TJ003/fires/calendar/SKILL.md"),
    );
    let tools = write(
        root,
        "calendar/tools.json",
        &fixture("TJ003/fires/calendar/tools.json"),
    );
    (skill, tools)
}

#[test]
fn a_configuration_change_in_the_editor_relints_the_folder() {
    let (_dir, root) = temp_root();
    let (_, tools_path) = write_calendar(&root);
    let config_path = write(&root, "skilllint.toml", "[lint]\n");
    let (tools_uri, config_uri) = (uri(&tools_path), uri(&config_path));
    let mut client = Client::start(&root);
    initialize(&mut client, &root);
    assert_eq!(codes(&client.diagnostics_for(&tools_uri)), ["TJ003"]);
    // The unsaved configuration ignores TJ003: the finding goes.
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": config_uri, "languageId": "toml", "version": 1, "text": "[lint]\nignore = [\"TJ003\"]\n"}}),
    );
    assert_eq!(
        codes(&client.diagnostics_for(&tools_uri)),
        Vec::<String>::new()
    );
    // Saved on disk and closed in the editor, then changed again on disk: re-read on the
    // watched-file notification.
    std::fs::write(&config_path, "[lint]\nignore = [\"TJ003\"]\n").expect("write");
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": config_uri}}),
    );
    std::fs::write(&config_path, "[lint]\n").expect("write");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": config_uri, "type": 2}]}),
    );
    assert_eq!(codes(&client.diagnostics_for(&tools_uri)), ["TJ003"]);
    client.shutdown();
}

#[test]
fn an_edited_contract_republishes_the_tools_files_of_other_folders() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical temp dir");
    for rel in [
        ".tools/create-event/TOOL.md",
        ".tools/list-events/TOOL.md",
        ".tools/close-issue/TOOL.md",
        "calendar/SKILL.md",
        "calendar/tools.json",
        "servers/github/github.tools.json",
    ] {
        write(&root, rel, &fixture(&format!("XC003/fires/{rel}")));
    }
    let contract = root.join(".tools/create-event/TOOL.md");
    let (contract_uri, tools_uri) = (uri(&contract), uri(&root.join("calendar/tools.json")));
    let mut client = Client::start(&root);
    initialize(&mut client, &root);
    assert_eq!(codes(&client.diagnostics_for(&tools_uri)), ["XC003"]);
    // The contract, in another folder, now says what the tool says: the tool's finding goes.
    let agreeing = fixture("XC003/clean/.tools/create-event/TOOL.md");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": contract_uri, "languageId": "markdown", "version": 1, "text": agreeing}}),
    );
    assert_eq!(
        codes(&client.diagnostics_for(&tools_uri)),
        Vec::<String>::new()
    );
    // A skill written in the editor and not saved yet is not walked; saved, it is linted.
    let new_skill = root.join("notes/SKILL.md");
    let new_uri = uri(&new_skill);
    let text = "---\nname: notes\n---\n\n# Notes\n";
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": new_uri, "languageId": "markdown", "version": 1, "text": text}}),
    );
    assert_eq!(
        codes(&client.diagnostics_for(&new_uri)),
        Vec::<String>::new()
    );
    write(&root, "notes/SKILL.md", text);
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": new_uri}}),
    );
    let saved = client.diagnostics_for(&new_uri);
    assert_eq!(
        server_findings(&saved),
        cli_findings(&root, "notes/SKILL.md")
    );
    assert!(
        !saved.is_empty(),
        "a skill without a description has findings"
    );
    client.shutdown();
}

/// Every file of a fixture, as (path relative to it, text).
fn fixture_files(dir: &str) -> Vec<(String, String)> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir);
    let mut pending = vec![base.clone()];
    let mut files = Vec::new();
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            pending.extend(
                std::fs::read_dir(&path)
                    .expect("folder")
                    .flatten()
                    .map(|e| e.path()),
            );
        } else {
            let rel = path
                .strip_prefix(&base)
                .expect("inside")
                .to_string_lossy()
                .into_owned();
            files.push((rel, std::fs::read_to_string(&path).expect("text")));
        }
    }
    files
}

#[test]
fn disable_for_this_line_silences_exactly_that_finding() {
    // A Markdown body, requirement.yaml, a SKILL.md frontmatter and a TOOL.md frontmatter.
    let cases = [
        ("TR004/fires", "calendar/SKILL.md"),
        ("TJ013/fires", "calendar/requirement.yaml"),
        ("SK005/fires", "pdf-forms/SKILL.md"),
        ("TM002/fires", ".tools/notes.append/TOOL.md"),
    ];
    for (fixture, rel) in cases {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("canonical temp dir");
        for (path, text) in fixture_files(fixture) {
            write(&root, &path, &text);
        }
        let file = root.join(rel);
        let file_uri = uri(&file);
        let before = cli_findings(&root, rel);
        let mut client = Client::start(&root);
        initialize(&mut client, &root);
        let published = client.diagnostics_for(&file_uri);
        let first = published
            .first()
            .unwrap_or_else(|| panic!("{fixture}: findings in {rel}"));
        let code = first["code"].as_str().expect("a code").to_string();
        let actions = client.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": file_uri},
                "range": first["range"],
                "context": {"diagnostics": [first]},
            }),
        );
        let title = format!("Disable {code} for this line");
        let disable = actions["result"]
            .as_array()
            .and_then(|all| all.iter().find(|a| a["title"] == json!(title)).cloned())
            .unwrap_or_else(|| panic!("{fixture}: `{title}` among {actions}"));
        assert_eq!(disable["isPreferred"], json!(false));
        // SK005's fix changes the skill's `name`, which what calls the skill may rely on: unsafe, so marked
        // and not preferred.
        if code == "SK005" {
            let fix = actions["result"]
                .as_array()
                .and_then(|all| {
                    all.iter()
                        .find(|a| a["edit"]["documentChanges"].is_array())
                        .cloned()
                })
                .unwrap_or_else(|| panic!("SK005's fix among {actions}"));
            assert_eq!(fix["isPreferred"], json!(false), "{fix}");
            assert!(
                fix["title"].as_str().is_some_and(|t| t.contains("unsafe")),
                "{fix}"
            );
        }
        let edits = disable["edit"]["changes"][&file_uri]
            .as_array()
            .expect("edits");
        let text = std::fs::read_to_string(&file).expect("text");
        write(&root, rel, &apply_edits(&text, edits));
        client.shutdown();
        // Lines moved: compare what is reported, not where.
        let what = |findings: Vec<(String, String, u64, u64, u64, u64)>| {
            let mut kept: Vec<(String, String)> =
                findings.into_iter().map(|f| (f.0, f.1)).collect();
            kept.sort();
            kept
        };
        let mut expected = what(before);
        let gone = expected
            .iter()
            .position(|(c, m)| *c == code && first["message"] == json!(m))
            .expect("the finding was reported");
        expected.remove(gone);
        assert_eq!(what(cli_findings(&root, rel)), expected, "{fixture}: {rel}");
    }
}

#[test]
fn a_file_in_nested_workspace_folders_is_published_by_the_innermost() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical temp dir");
    let stripped = fixture("TJ003/fires/calendar/tools.json");
    let tools_path = write(&root, "calendar/tools.json", &stripped);
    write(
        &root,
        "calendar/SKILL.md",
        &fixture("TJ003/fires/calendar/SKILL.md"),
    );
    // The inner folder's configuration ignores TJ003; the outer folder has none.
    write(
        &root,
        "calendar/skilllint.toml",
        "[lint]\nignore = [\"TJ003\"]\n",
    );
    let tools_uri = uri(&tools_path);
    let mut client = Client::start(&root);
    let response = client.request(
        "initialize",
        json!({
            "processId": null,
            "capabilities": {},
            "workspaceFolders": [
                {"uri": uri(&root), "name": "outer"},
                {"uri": uri(&root.join("calendar")), "name": "inner"},
            ],
        }),
    );
    assert!(response.get("error").is_none(), "{response}");
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": tools_uri, "languageId": "json", "version": 1, "text": stripped}}),
    );
    assert_eq!(
        codes(&client.diagnostics_for(&tools_uri)),
        Vec::<String>::new()
    );
    // A request is answered after everything pending was published: no TJ003 from the outer one.
    client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": tools_uri}, "position": {"line": 0, "character": 0}}),
    );
    let later: Vec<&Value> = client
        .backlog
        .iter()
        .filter(|m| m["params"]["uri"] == json!(tools_uri))
        .collect();
    assert!(later.is_empty(), "{later:?}");
    client.shutdown();
}

#[cfg(unix)]
#[test]
fn an_open_file_that_links_out_of_the_folder_stays_unread_whatever_its_text() {
    let outside = tempfile::tempdir().expect("temp dir");
    let secret = write(
        outside.path(),
        "tools.json",
        &fixture("TJ003/fires/calendar/tools.json"),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical temp dir");
    write(
        &root,
        "calendar/SKILL.md",
        &fixture("TJ003/fires/calendar/SKILL.md"),
    );
    let link = root.join("calendar/tools.json");
    std::os::unix::fs::symlink(&secret, &link).expect("symlink");
    let link_uri = uri(&link);
    let expected = cli_findings(&root, "calendar/tools.json");
    assert_eq!(
        expected.first().map(|f| f.0.as_str()),
        Some("SL001"),
        "{expected:?}"
    );
    let mut client = Client::start(&root);
    initialize(&mut client, &root);
    assert_eq!(
        server_findings(&client.diagnostics_for(&link_uri)),
        expected
    );
    let text = fixture("TJ003/clean/calendar/tools.json");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": link_uri, "languageId": "json", "version": 1, "text": text}}),
    );
    assert_eq!(
        server_findings(&client.diagnostics_for(&link_uri)),
        expected
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": link_uri, "version": 2}, "contentChanges": [{"text": "[]"}]}),
    );
    assert_eq!(
        server_findings(&client.diagnostics_for(&link_uri)),
        expected
    );
    client.shutdown();
}

#[test]
fn the_folders_policies_are_reported_explained_and_reloaded_when_they_change() {
    let (_dir, root) = temp_root();
    let (skill_path, _) = write_calendar(&root);
    let policy = "rules:\n  - code: ORG001\n    name: skills-declare-license\n    severity: warning\n    \
                  category: style\n    summary: Every skill declares a license\n    on: skill\n    \
                  assert: 'has(skill.license)'\n    message: 'skill `{{skill.name}}` declares no license'\n    \
                  at: skill.name\n    docs: |\n      Legal asks each skill to say under which license it is shared.\n";
    let policy_path = write(&root, ".skilllint/policies/org.yaml", policy);
    let skill_uri = uri(&skill_path);
    let mut client = Client::start(&root);
    initialize(&mut client, &root);
    // The policy rule is reported as the command line reports it, at the same place.
    let diagnostics = client.diagnostics_for(&skill_uri);
    assert!(codes(&diagnostics).contains(&"ORG001".to_string()));
    assert_eq!(
        server_findings(&diagnostics),
        cli_findings(&root, "calendar/SKILL.md")
    );
    let finding = diagnostics
        .iter()
        .find(|d| d["code"] == "ORG001")
        .expect("the policy finding");
    // A policy rule has no page in the rule reference; its hover shows the policy's docs.
    assert!(finding.get("codeDescription").is_none());
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": skill_uri}, "position": finding["range"]["start"]}),
    );
    let text = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.contains("Legal asks each skill"),
        "hover without the policy's docs: {hover}"
    );
    // The policy file changes on disk: the folder is linted afresh without it.
    std::fs::write(&policy_path, "rules: []\n").expect("write");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&policy_path), "type": 2}]}),
    );
    let after = client.diagnostics_for(&skill_uri);
    assert!(!codes(&after).contains(&"ORG001".to_string()), "{after:?}");
    client.shutdown();
}

#[test]
fn hover_on_a_tool_name_shows_its_inventory_row() {
    let (_dir, root) = temp_root();
    write(
        &root,
        "storefront/SKILL.md",
        &fixture("inventory/storefront/SKILL.md"),
    );
    let tools_text = fixture("inventory/storefront/tools.json");
    let tools_path = write(&root, "storefront/tools.json", &tools_text);
    let tools_uri = uri(&tools_path);
    let mut client = Client::start(&root);
    initialize(&mut client, &root);
    client.diagnostics_for(&tools_uri);
    let (line, character) = tools_text
        .lines()
        .enumerate()
        .find_map(|(i, l)| {
            l.contains("\"name\": \"issue_refund\"")
                .then(|| (i as u64, l.find("issue_refund").unwrap_or(0) as u64))
        })
        .expect("the refund tool's name");
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": tools_uri}, "position": {"line": line, "character": character + 3}}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .replace("\\`", "`")
        .replace("\\_", "_");
    assert!(
        shown.starts_with("**issue_refund** (MCP): effect **write**, capabilities: financial"),
        "{hover}"
    );
    assert_eq!(
        hover["result"]["range"],
        json!({"start": {"line": line, "character": character - 1}, "end": {"line": line, "character": character + 13}})
    );
    // The same gates and evidence as `skilllint tools` prints for the tool.
    let table = skilllint(&root, &["tools"]);
    let mut rows = table
        .lines()
        .skip_while(|l| !l.starts_with("issue_refund "));
    rows.next();
    let details: Vec<&str> = rows.take_while(|l| l.starts_with("    ")).collect();
    assert!(details.len() >= 3, "{table}");
    for detail in details {
        let detail = detail.trim_start();
        let items: Vec<&str> = match detail.strip_prefix("gates: ") {
            Some(gates) => gates.split("; ").collect(),
            None => vec![detail.trim_start_matches("evidence: ")],
        };
        for item in items {
            assert!(shown.contains(item), "{item:?} not in {shown}");
        }
    }
    // Off any name and any finding: nothing.
    let nothing = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": tools_uri}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(nothing["result"], Value::Null, "{nothing}");
    client.shutdown();
}

#[test]
fn a_workspace_folder_inside_a_repository_gets_what_the_command_line_reports_for_it() {
    // A marketplace at the repository's top declares the plugin by its folder; the plugin's
    // skill carries a `version` key such plugins accept, and an uppercase name.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical temp dir");
    std::fs::create_dir_all(root.join(".git")).expect("git folder");
    write(
        &root,
        ".claude-plugin/marketplace.json",
        r#"{"name": "team-plugins", "owner": {"name": "Team"}, "plugins": [{"name": "authoring-kit", "source": "./plugins/authoring-kit", "description": "Helps write plugins"}]}
"#,
    );
    let rel = "plugins/authoring-kit/skills/hook-writing/SKILL.md";
    let text = "---\nname: Hook Writing\ndescription: Use when the user wants to write a hook for a plugin and test it locally.\nversion: 0.2.0\n---\n\n# Writing hooks\n\nRead the event list first, then write the script.\n";
    let skill = write(&root, rel, text);
    let expected = cli_findings(&root, rel);
    assert!(
        expected.iter().any(|(code, ..)| code == "SK004")
            && !expected.iter().any(|(code, ..)| code == "SK008"),
        "the command line judges the skill with its marketplace: {expected:?}"
    );
    // The editor opens the plugin folder alone.
    let folder = root.join("plugins/authoring-kit");
    let mut client = Client::start(&folder);
    initialize(&mut client, &folder);
    let skill_uri = uri(&skill);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": skill_uri, "languageId": "markdown", "version": 1, "text": text}}),
    );
    assert_eq!(
        server_findings(&client.diagnostics_for(&skill_uri)),
        expected,
        "the server reads the repository around the folder as the command line does"
    );
    // Everything pending is published before a request is answered: what is left for the
    // skill after this is older than the edit below.
    client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": skill_uri}, "position": {"line": 0, "character": 0}}),
    );
    client
        .backlog
        .retain(|m| m["params"]["uri"] != json!(skill_uri));
    // The marketplace, outside the folder, edited in the editor: the plugin is no longer
    // declared, so its skill's `version` is an unknown field now.
    let marketplace = root.join(".claude-plugin/marketplace.json");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&marketplace), "languageId": "json", "version": 1, "text": "{\"name\": \"team-plugins\", \"owner\": {\"name\": \"Team\"}, \"plugins\": []}\n"}}),
    );
    assert!(
        codes(&client.diagnostics_for(&skill_uri)).contains(&"SK008".to_string()),
        "an edit of the marketplace above relints the folder"
    );
    client.shutdown();
}
