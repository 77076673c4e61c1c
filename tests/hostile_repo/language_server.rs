//! The language server on a hostile workspace: slow policies cannot stop it answering, an
//! absurd `Content-Length` is refused unallocated, and a workspace's policies stay inside it.

use super::common::write;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
}

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

impl Server {
    fn start(cwd: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skilllint"))
            .arg("server")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, incoming) = std::sync::mpsc::channel();
        std::thread::spawn(move || read_messages(stdout, sender));
        Server {
            child,
            stdin,
            incoming,
            next_id: 0,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        if let Some(stdin) = &mut self.stdin {
            let _ = stdin.write_all(bytes);
            let _ = stdin.flush();
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// Sends a request; its response within `limit`, and what came before it.
    fn request(&mut self, method: &str, params: Value, limit: Duration) -> (Value, Vec<Value>) {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let started = Instant::now();
        let mut before = Vec::new();
        loop {
            let left = limit.saturating_sub(started.elapsed());
            match self.incoming.recv_timeout(left) {
                Ok(message) if message["id"] == json!(id) && message.get("method").is_none() => {
                    return (message, before)
                }
                Ok(message) => {
                    if message.get("id").is_some() && message.get("method").is_some() {
                        self.send(json!({"jsonrpc": "2.0", "id": message["id"], "result": null}));
                    }
                    before.push(message);
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("no answer to {method} within {limit:?}")
                }
                Err(RecvTimeoutError::Disconnected) => panic!("the server hung up ({method})"),
            }
        }
    }

    fn initialize(&mut self, root: &Path) -> Vec<Value> {
        let uri = format!("file://{}", root.display());
        let (_, _) = self.request(
            "initialize",
            json!({"processId": null, "rootUri": uri, "capabilities": {},
                   "workspaceFolders": [{"uri": uri, "name": "w"}]}),
            Duration::from_secs(60),
        );
        self.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        Vec::new()
    }

    fn open(&mut self, path: &Path, text: &str) {
        self.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": format!("file://{}", path.display()),
                             "languageId": "json", "version": 1, "text": text}}}),
        );
    }

    /// The messages up to the first that `wanted` accepts (that one last), within `limit`.
    fn wait_for(&mut self, limit: Duration, wanted: impl Fn(&Value) -> bool) -> Vec<Value> {
        let started = Instant::now();
        let mut seen = Vec::new();
        loop {
            let left = limit.saturating_sub(started.elapsed());
            match self.incoming.recv_timeout(left) {
                Ok(message) => {
                    if message.get("id").is_some() && message.get("method").is_some() {
                        self.send(json!({"jsonrpc": "2.0", "id": message["id"], "result": null}));
                    }
                    let done = wanted(&message);
                    seen.push(message);
                    if done {
                        return seen;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("not received within {limit:?}: {seen:?}")
                }
            }
        }
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits for `child` to exit within `limit`.
fn exited_within(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    None
}

#[test]
fn an_absurd_content_length_is_refused_without_allocating_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut server = Server::start(dir.path());
    server.send_raw(b"Content-Length: 1000000000000\r\n\r\n{}");
    // The input stays open: a server that waits for the announced bytes would never end.
    let status = exited_within(&mut server.child, Duration::from_secs(30));
    let mut err = String::new();
    if let Some(stderr) = server.child.stderr.as_mut() {
        let _ = stderr.read_to_string(&mut err);
    }
    let status = status.unwrap_or_else(|| panic!("still running: {err}"));
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("over the limit"), "{err}");
    server.stop();
}

/// A workspace whose policy is just under the per-entity bound on each of 2,000 tools: far over
/// the run's budget, so every lint runs until the budget stops it. Returns the tools file's text.
fn slow_workspace(root: &Path) -> String {
    std::fs::create_dir_all(root.join(".git")).expect("git dir");
    write(
        root,
        "s/SKILL.md",
        b"---\nname: s\ndescription: Reads things. Use when asked.\n---\n\nBody.\n",
    );
    let tools: Vec<Value> = (0..2000)
        .map(|i| json!({"name": format!("tool_{i}"), "description": "Reads a thing.", "inputSchema": {"type": "object"}}))
        .collect();
    let tools = serde_json::to_string(&tools).expect("json");
    write(root, "s/tools.json", tools.as_bytes());
    let range = format!(
        "[{}]",
        (0..35).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
    );
    // Just under the per-entity bound on each tool: 2,000 of them are far over the run's budget.
    let assert = format!("{range}.exists(a, {range}.exists(b, {range}.exists(c, true)))");
    write(
        root,
        ".skilllint/policies/slow.yaml",
        format!(
            "rules:\n  - code: ORG001\n    name: slow\n    severity: warning\n    category: style\n    \
             summary: s\n    on: tool\n    assert: {}\n    message: m\n",
            serde_json::to_string(&assert).expect("json")
        )
        .as_bytes(),
    );
    tools
}

#[test]
fn slow_policies_do_not_stop_the_server_answering() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical root");
    let tools = slow_workspace(&root);
    let mut server = Server::start(&root);
    server.initialize(&root);
    let tools_path = root.join("s/tools.json");
    server.open(&tools_path, &tools);
    let (hover, before) = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": format!("file://{}", tools_path.display())},
               "position": {"line": 0, "character": 3}}),
        Duration::from_secs(60),
    );
    assert!(hover.get("error").is_none(), "{hover}");
    // The lint that ran before the answer reported the stopped policies.
    let published = before.iter().any(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m.to_string().contains("SL011")
    });
    assert!(published, "no SL011 published before the answer");
    server.stop();
}

/// Typing in a slow workspace: every edit makes the next lint run to the policy budget. The
/// server takes every message already waiting before it lints, so a hover after a burst of 30
/// edits waits for the lint running when it came and one more, each bounded by the budget, not
/// thirty: about as long as after one edit.
#[test]
fn a_burst_of_edits_in_a_slow_workspace_delays_an_answer_by_one_lint() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical root");
    let tools = slow_workspace(&root);
    let mut server = Server::start(&root);
    server.initialize(&root);
    let tools_path = root.join("s/tools.json");
    let uri = format!("file://{}", tools_path.display());
    let hover = json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 3}});
    let limit = Duration::from_secs(120);
    server.open(&tools_path, &tools);
    server.request("textDocument/hover", hover.clone(), limit);

    let edit = |server: &mut Server, version: i64| {
        // A real change each time: one more space at the end of the text.
        let text = format!("{tools}{}", " ".repeat(version as usize));
        server.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]}}),
        );
    };
    let started = Instant::now();
    edit(&mut server, 2);
    let (answer, _) = server.request("textDocument/hover", hover.clone(), limit);
    let one_edit = started.elapsed();
    assert!(answer.get("error").is_none(), "{answer}");

    for version in 3..33 {
        edit(&mut server, version);
    }
    // From the moment the last edit is taken (the pipe holds little, so the writes above end
    // about when the server has read them) to the answer.
    let started = Instant::now();
    let (answer, before) = server.request("textDocument/hover", hover, limit);
    let burst = started.elapsed();
    assert!(answer.get("error").is_none(), "{answer}");
    let lints = before
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .count();
    // Ideally one lint and at most two (the one running when the hover came, then one with the
    // last text); four leaves room for a loaded machine, and thirty would be far over it.
    assert!(
        burst < one_edit * 4,
        "30 edits delayed the answer {burst:?}, one edit {one_edit:?} ({lints} publications)"
    );
    server.stop();
}

#[cfg(unix)]
#[test]
fn a_workspaces_policy_paths_stay_inside_it() {
    let outside = tempfile::tempdir().expect("outside dir");
    write(outside.path(), "credentials", b"TOKEN=hunter2\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical root");
    std::fs::create_dir_all(root.join(".git")).expect("git dir");
    write(
        &root,
        "s/SKILL.md",
        b"---\nname: s\ndescription: Reads things. Use when asked.\n---\n\nBody.\n",
    );
    write(
        &root,
        "skilllint.toml",
        format!(
            "[policies]\npaths = [{:?}]\n",
            outside.path().join("credentials").display().to_string()
        )
        .as_bytes(),
    );
    let mut server = Server::start(&root);
    server.initialize(&root);
    let skill = root.join("s/SKILL.md");
    server.open(
        &skill,
        "---\nname: s\ndescription: Reads things. Use when asked.\n---\n\nBody.\n",
    );
    let (_, before) = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": format!("file://{}", skill.display())},
               "position": {"line": 1, "character": 1}}),
        Duration::from_secs(60),
    );
    let said: String = before.iter().map(Value::to_string).collect();
    assert!(!said.contains("hunter2"), "{said}");
    assert!(said.contains("outside"), "the user is told why: {said}");
    server.stop();
}

/// Whether `message` publishes the findings of `uri` for the document's `version`.
fn is_publish(message: &Value, uri: &str, version: i64) -> bool {
    message["method"] == "textDocument/publishDiagnostics"
        && message["params"]["uri"] == uri
        && message["params"]["version"] == json!(version)
}

/// While an edit's lint runs to the policy budget, a hover is answered from the last completed
/// lint, before the edit's findings are published (the order, not the time, is asserted: the
/// lint takes the budget, the answer a lookup). After a burst of edits with hovers between them,
/// findings were published in the order of the versions and the last ones are the last text's.
#[test]
fn hover_is_answered_from_the_last_lint_while_a_slow_lint_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical root");
    let tools = slow_workspace(&root);
    let mut server = Server::start(&root);
    server.initialize(&root);
    let tools_path = root.join("s/tools.json");
    let uri = format!("file://{}", tools_path.display());
    let limit = Duration::from_secs(120);
    server.open(&tools_path, &tools);
    let first = server.wait_for(limit, |m| is_publish(m, &uri, 1));
    let first_findings = first.last().map(|m| m["params"]["diagnostics"].clone());
    // On the name of the first tool: its inventory row, from the lint that has completed.
    let at = tools.find("\"tool_0\"").expect("the first tool's name") + 3;
    let hover = json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": at}});
    let edit = |server: &mut Server, version: i64| {
        let text = format!("{tools}{}", " ".repeat(version as usize));
        server.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]}}),
        );
    };

    edit(&mut server, 2);
    let (answer, before) = server.request("textDocument/hover", hover.clone(), limit);
    let shown = answer["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(
        shown.contains("tool\\_0") || shown.contains("tool_0"),
        "{answer}"
    );
    assert!(
        !before.iter().any(|m| is_publish(m, &uri, 2)),
        "the hover waited for the edit's lint: {before:?}"
    );
    let mut published = server.wait_for(limit, |m| is_publish(m, &uri, 2));

    // A burst, a hover after each edit: every hover is answered, the lints coalesce.
    for version in 3..=8 {
        edit(&mut server, version);
        let (answer, before) = server.request("textDocument/hover", hover.clone(), limit);
        assert!(
            answer["result"]["contents"]["value"].is_string(),
            "{answer}"
        );
        published.extend(before);
    }
    published.extend(server.wait_for(limit, |m| is_publish(m, &uri, 8)));
    let versions: Vec<i64> = published
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        .filter_map(|m| m["params"]["version"].as_i64())
        .collect();
    assert!(
        versions.windows(2).all(|w| w[0] < w[1]),
        "published out of order: {versions:?}"
    );
    // Trailing spaces change no finding: the last text's are the first text's.
    let last = published.last().map(|m| m["params"]["diagnostics"].clone());
    assert_eq!(last, first_findings);
    // Shutdown is answered once the last edit's findings are published (a client that waits for
    // its answer has them all), though a hover just before it was answered at once.
    edit(&mut server, 9);
    server.request("textDocument/hover", hover.clone(), limit);
    let (answer, before) = server.request("shutdown", Value::Null, limit);
    assert!(answer.get("error").is_none(), "{answer}");
    assert!(
        before.iter().any(|m| is_publish(m, &uri, 9)),
        "shutdown was answered before the last edit's findings: {before:?}"
    );
    server.stop();
}

/// A big file whose every edit relints its unit slowly (a Tool Use Rules list of 40,000 items, no
/// policy): while an edit's relint runs, a hover is answered from the lint before it, before the
/// edit's findings are published, whatever quick lints (the document opened with the text on disk)
/// came between.
#[test]
fn hover_is_answered_while_a_big_file_is_relinted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical root");
    std::fs::create_dir_all(root.join(".git")).expect("git dir");
    let skill = format!(
        "---\nname: s\ndescription: Reads things. Use when asked.\n---\n\n## Tool Use Rules\n\n{}",
        "- `tool_x` reads.\n".repeat(40_000)
    );
    write(&root, "s/SKILL.md", skill.as_bytes());
    let mut server = Server::start(&root);
    server.initialize(&root);
    let path = root.join("s/SKILL.md");
    let uri = format!("file://{}", path.display());
    let limit = Duration::from_secs(240);
    server.open(&path, &skill);
    server.wait_for(limit, |m| is_publish(m, &uri, 1));
    // On the section's heading: TR002 is reported there.
    let hover = json!({"textDocument": {"uri": uri}, "position": {"line": 5, "character": 4}});
    for version in 2..=3 {
        let text = format!("{skill}{}", "- `tool_x` reads.\n".repeat(version as usize));
        server.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]}}),
        );
        let (answer, before) = server.request("textDocument/hover", hover.clone(), limit);
        assert!(
            answer["result"]["contents"]["value"].is_string(),
            "{answer}"
        );
        assert!(
            !before.iter().any(|m| is_publish(m, &uri, version)),
            "the hover waited for the relint of version {version}"
        );
        server.wait_for(limit, |m| is_publish(m, &uri, version));
    }
    server.stop();
}
