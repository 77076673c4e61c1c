//! What the handler of a tool registered in source code does, read from the calls the parser
//! kept ([`crate::parse::code::HandlerCall`]): file deletes and writes, process execution,
//! outgoing HTTP writes. Each becomes inferred evidence for the effect model, with the call's
//! span, so `readOnlyHint: true` on a tool whose handler deletes a file is a contradiction
//! naming both places.
//!
//! What is followed: the handler's own body and the functions of the same file it calls by
//! name, one level down (in Go also the method of the file a `h.HandleX` handler names). A
//! helper in another module is not read.

use crate::model::tools::Tool;
use crate::parse::code::HandlerCall;
use crate::semantic::effect::{Capability, Claim, Effect};
use crate::source::Span;

/// One piece of evidence read from a handler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HandlerEvidence {
    pub claim: Claim,
    /// What was read, for messages: "`fs.rm` in the handler".
    pub text: String,
    pub span: Span,
    /// Strong enough to contradict a declaration.
    pub strong: bool,
}

/// File-system modules of Node.js and their common wrappers.
const NODE_FS: &[&str] = &[
    "fs",
    "fs/promises",
    "fs.promises",
    "fs-extra",
    "graceful-fs",
];

const NODE_FS_DELETES: &[&str] = &[
    "rm",
    "rmSync",
    "rmdir",
    "rmdirSync",
    "unlink",
    "unlinkSync",
    "remove",
    "removeSync",
    "emptyDir",
    "emptyDirSync",
];

const NODE_FS_WRITES: &[&str] = &[
    "writeFile",
    "writeFileSync",
    "appendFile",
    "appendFileSync",
    "mkdir",
    "mkdirSync",
    "rename",
    "renameSync",
    "copyFile",
    "copyFileSync",
    "cp",
    "cpSync",
    "createWriteStream",
    "truncate",
    "truncateSync",
    "chmod",
    "chmodSync",
    "chown",
    "chownSync",
    "symlink",
    "symlinkSync",
    "outputFile",
    "outputFileSync",
    "move",
    "moveSync",
    "writeJson",
    "writeJSON",
    "ensureDir",
];

const NODE_EXEC: &[&str] = &[
    "exec",
    "execSync",
    "execFile",
    "execFileSync",
    "spawn",
    "spawnSync",
    "fork",
];

const PY_DELETES: &[&str] = &[
    "os.remove",
    "os.unlink",
    "os.rmdir",
    "os.removedirs",
    "shutil.rmtree",
];

const PY_WRITES: &[&str] = &[
    "os.rename",
    "os.replace",
    "os.makedirs",
    "os.mkdir",
    "os.chmod",
    "os.chown",
    "os.symlink",
    "os.truncate",
    "shutil.move",
    "shutil.copy",
    "shutil.copy2",
    "shutil.copyfile",
    "shutil.copytree",
];

const PY_EXEC: &[&str] = &[
    "subprocess.run",
    "subprocess.call",
    "subprocess.check_call",
    "subprocess.check_output",
    "subprocess.Popen",
    "subprocess.getoutput",
    "subprocess.getstatusoutput",
    "os.system",
    "os.popen",
    "os.execv",
    "os.execvp",
    "os.execl",
    "os.execlp",
    "os.spawnv",
    "os.spawnl",
    "asyncio.create_subprocess_exec",
    "asyncio.create_subprocess_shell",
    "pty.spawn",
];

/// Go's file system (`os`, and `io/ioutil` before it).
const GO_DELETES: &[&str] = &["os.Remove", "os.RemoveAll"];

const GO_WRITES: &[&str] = &[
    "os.WriteFile",
    "os.Create",
    "os.Mkdir",
    "os.MkdirAll",
    "os.Rename",
    "os.Chmod",
    "os.Chown",
    "os.Symlink",
    "os.Link",
    "os.Truncate",
    "io/ioutil.WriteFile",
];

/// Go's process execution: the program is the first argument (after the context).
const GO_EXEC: &[&str] = &[
    "os/exec.Command",
    "os/exec.CommandContext",
    "syscall.Exec",
    "os.StartProcess",
];

/// HTTP client modules whose `post`/`put`/`patch`/`delete` send a request.
const HTTP_CLIENTS: &[&str] = &[
    "axios",
    "got",
    "ky",
    "superagent",
    "needle",
    "requests",
    "httpx",
    "urllib3",
];

/// Whether a file operation works on a scratch file the handler made itself (`temp_path`,
/// `tmpFile`): cleaning it up changes nothing the caller has.
fn on_scratch_file(call: &HandlerCall) -> bool {
    let argument = call.argument.to_ascii_lowercase();
    argument.contains("tmp") || argument.contains("temp")
}

/// What one call says, if anything.
fn classify(call: &HandlerCall) -> Option<(Claim, bool)> {
    let callee = call.callee.as_str();
    let (receiver, name) = match callee.rsplit_once('.') {
        Some((receiver, name)) => (receiver, name),
        None => ("", callee),
    };
    let destructive = Claim::Effect(Effect::Destructive);
    let write = Claim::Effect(Effect::Write);
    let file_operation = NODE_FS.contains(&receiver)
        || GO_DELETES.contains(&callee)
        || GO_WRITES.contains(&callee)
        || PY_DELETES.contains(&callee)
        || PY_WRITES.contains(&callee)
        || callee == "open"
        || receiver == "?";
    if file_operation && on_scratch_file(call) {
        return None;
    }
    // Node.js file system.
    if NODE_FS.contains(&receiver) {
        if NODE_FS_DELETES.contains(&name) {
            return Some((destructive, true));
        }
        if NODE_FS_WRITES.contains(&name) {
            return Some((write, true));
        }
        return None;
    }
    // Processes: a command computed at run time is what the tool is given to run; a fixed
    // program says nothing of the effect.
    let node_exec = (receiver == "child_process" && NODE_EXEC.contains(&name))
        || matches!(
            callee,
            "execa" | "execa.execa" | "execa.execaCommand" | "shelljs.exec"
        );
    let python_exec = PY_EXEC.contains(&callee) || GO_EXEC.contains(&callee);
    let eval = matches!(
        callee,
        "eval" | "exec" | "Function" | "vm.runInNewContext" | "vm.runInThisContext"
    );
    if node_exec || python_exec || eval {
        return (!call.literal_argument).then_some((Claim::Capability(Capability::Exec), true));
    }
    // Python and Go file systems.
    if PY_DELETES.contains(&callee)
        || GO_DELETES.contains(&callee)
        || (receiver == "?" && matches!(name, "unlink" | "rmdir" | "rmtree"))
    {
        return Some((destructive, true));
    }
    if PY_WRITES.contains(&callee)
        || GO_WRITES.contains(&callee)
        || (receiver == "?" && matches!(name, "write_text" | "write_bytes"))
    {
        return Some((write, true));
    }
    if callee == "open" {
        let mode = call.method.as_deref().unwrap_or("r");
        return mode.contains(['w', 'a', 'x', '+']).then_some((write, true));
    }
    // Outgoing HTTP: `fetch(url, { method })`, `axios.post`, `requests.delete`. A POST is often
    // a query (search APIs, GraphQL): weak; PUT and PATCH write, DELETE deletes.
    let client = HTTP_CLIENTS.contains(&receiver);
    let method = match (callee, client) {
        ("fetch" | "node-fetch" | "undici.fetch" | "undici.request", _) => call.method.clone(),
        // Go's `net/http`: `http.NewRequest("POST", …)`, `http.Post(…)`.
        ("net/http.NewRequest" | "net/http.NewRequestWithContext", _) => call.method.clone(),
        ("net/http.Post" | "net/http.PostForm", _) => Some("POST".into()),
        (_, true) if name == "request" => call.method.clone(),
        (_, true) => Some(name.to_ascii_uppercase()),
        _ if HTTP_CLIENTS.contains(&callee) => call.method.clone(),
        _ => None,
    }?;
    match method.as_str() {
        "DELETE" => Some((destructive, true)),
        "PUT" | "PATCH" => Some((write, true)),
        "POST" => Some((write, false)),
        _ => None,
    }
}

/// The evidence a tool's handler gives, in call order, one per kind of claim (the first call
/// that makes it).
pub(crate) fn handler_evidence(tool: &Tool) -> Vec<HandlerEvidence> {
    let Some(code) = &tool.code else {
        return Vec::new();
    };
    let mut out: Vec<HandlerEvidence> = Vec::new();
    for call in &code.handler {
        let Some((claim, strong)) = classify(call) else {
            continue;
        };
        if let Some(seen) = out.iter_mut().find(|e| e.claim == claim) {
            // A strong call of the same claim replaces a weak one read first.
            if strong && !seen.strong {
                *seen = evidence(call, claim, strong);
            }
            continue;
        }
        out.push(evidence(call, claim, strong));
    }
    out
}

fn evidence(call: &HandlerCall, claim: Claim, strong: bool) -> HandlerEvidence {
    let shown = call.callee.trim_start_matches("?.");
    let text = match &call.method {
        Some(method) if shown == "open" => format!("`open(…, \"{method}\")` in the handler"),
        Some(method) if !shown.ends_with(&method.to_ascii_lowercase()) => {
            format!("`{shown}` with `{method}` in the handler")
        }
        _ => format!("`{shown}` in the handler"),
    };
    HandlerEvidence {
        claim,
        text,
        span: call.span,
        strong,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(callee: &str, method: Option<&str>, literal: bool) -> HandlerCall {
        HandlerCall {
            callee: callee.to_string(),
            method: method.map(str::to_string),
            literal_argument: literal,
            argument: String::from("path"),
            span: Span::new(0, 1),
        }
    }

    #[test]
    fn calls_are_read_as_the_effect_model_needs_them() {
        let destructive = Some((Claim::Effect(Effect::Destructive), true));
        let write = Some((Claim::Effect(Effect::Write), true));
        let exec = Some((Claim::Capability(Capability::Exec), true));
        assert_eq!(classify(&call("fs/promises.rm", None, false)), destructive);
        assert_eq!(classify(&call("fs.unlinkSync", None, false)), destructive);
        assert_eq!(classify(&call("fs/promises.writeFile", None, false)), write);
        assert_eq!(classify(&call("fs/promises.readFile", None, false)), None);
        assert_eq!(classify(&call("child_process.exec", None, false)), exec);
        // A fixed program is no command the tool is given.
        assert_eq!(classify(&call("child_process.execFile", None, true)), None);
        assert_eq!(classify(&call("shutil.rmtree", None, false)), destructive);
        assert_eq!(classify(&call("?.unlink", None, false)), destructive);
        assert_eq!(classify(&call("subprocess.run", None, false)), exec);
        assert_eq!(classify(&call("open", Some("w"), false)), write);
        assert_eq!(classify(&call("open", Some("rb"), false)), None);
        assert_eq!(classify(&call("open", None, false)), None);
        assert_eq!(classify(&call("fetch", Some("DELETE"), false)), destructive);
        assert_eq!(
            classify(&call("fetch", Some("POST"), false)),
            Some((Claim::Effect(Effect::Write), false))
        );
        assert_eq!(classify(&call("fetch", None, false)), None);
        assert_eq!(classify(&call("axios.put", None, false)), write);
        assert_eq!(classify(&call("requests.delete", None, false)), destructive);
        assert_eq!(classify(&call("requests.get", None, false)), None);
        assert_eq!(classify(&call("cache.delete", None, false)), None);
        // Go.
        assert_eq!(classify(&call("os.RemoveAll", None, false)), destructive);
        assert_eq!(classify(&call("os.WriteFile", None, false)), write);
        assert_eq!(classify(&call("os.ReadFile", None, false)), None);
        assert_eq!(classify(&call("os/exec.Command", None, false)), exec);
        assert_eq!(classify(&call("os/exec.Command", None, true)), None);
        assert_eq!(
            classify(&call("net/http.NewRequest", Some("DELETE"), false)),
            destructive
        );
        assert_eq!(
            classify(&call("net/http.NewRequest", Some("GET"), false)),
            None
        );
        // Cleaning up a scratch file the handler made is no delete of the caller's data.
        let mut scratch = call("os.remove", None, false);
        scratch.argument = "temp_path".into();
        assert_eq!(classify(&scratch), None);
    }
}
