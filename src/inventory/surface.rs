//! The rows of what a repository lets the agent (or its client) do without a tool call being
//! asked for: the hooks the client runs on its own (`SessionStart`, `PreToolUse`, … in
//! `hooks.json` or a plugin manifest), the MCP servers it starts or connects to (`.mcp.json`, a
//! manifest's `mcpServers`), and the built-in tools that write files or run commands which a
//! skill, a slash command or a subagent pre-approves in its `allowed-tools`. Each is a row as a
//! tool is, so `skilllint tools` lists it and `skilllint diff` sees a new one as widening.

use super::{at, Gates, Row, RowEvidence};
use crate::check::Unit;
use crate::parse::node::Node;
use crate::semantic::effect::{Capability, Effect};
use crate::semantic::permissions::{grants, UNRESTRICTED_WHEN_BARE};
use crate::source::{FileId, LineIndex, Span};

/// The dialect of a hook's row.
pub const HOOK: &str = "hook";
/// The dialect of an MCP server's row.
pub const MCP_SERVER: &str = "mcp-server";
/// The dialect of a pre-approval's row.
pub const ALLOWED_TOOLS: &str = "allowed-tools";

/// A row of the surface: no schema, no description, no contract; `runs` says what it runs.
#[allow(clippy::too_many_arguments)]
fn surface_row(
    unit: &Unit<'_>,
    file: FileId,
    index: &LineIndex<'_>,
    span: Span,
    name: String,
    dialect: &'static str,
    capabilities: Vec<Capability>,
    evidence: Vec<(&'static str, &'static str, String)>,
    runs: Option<String>,
) -> Row {
    let place = at(index, span);
    Row {
        path: unit.repo.file(file).rel_path.clone(),
        folder: unit.dir().to_string(),
        at: place,
        span,
        name,
        dialect,
        effect: Effect::Write,
        capabilities,
        evidence: evidence
            .into_iter()
            .map(|(claim, source, text)| RowEvidence {
                claim: claim.to_string(),
                basis: "declared",
                source,
                text,
                at: place,
            })
            .collect(),
        gates: Gates::default(),
        description: None,
        schema: None,
        description_span: None,
        contract: None,
        rules: Vec::new(),
        runs,
    }
}

/// The unit's hooks, MCP servers and pre-approvals of built-in tools that write or run
/// commands, in file order.
pub(crate) fn surface_rows(unit: &Unit<'_>) -> Vec<Row> {
    let mut rows = Vec::new();
    for (file, _, hooks) in unit.hook_sets() {
        let index = LineIndex::new(unit.text(file));
        for hook in &hooks.commands {
            let runs = format!("runs `{}` on `{}` without asking", hook.text, hook.event);
            rows.push(surface_row(
                unit,
                file,
                &index,
                hook.span,
                format!("{}: {}", hook.event, hook.text),
                HOOK,
                vec![Capability::Exec],
                vec![
                    ("effect:write", "hooks", runs.clone()),
                    ("capability:exec", "hooks", runs),
                ],
                Some(hook.text.clone()),
            ));
        }
    }
    for (file, root, servers) in unit.server_sets() {
        let index = LineIndex::new(unit.text(file));
        for server in &servers.servers {
            let node = root.pointer(&server.pointer);
            let (runs, capability, what) = match server_launch(node) {
                Launch::Command(line) => {
                    let what = format!("the client starts `{line}`");
                    (Some(line), Capability::Exec, what)
                }
                Launch::Url(url) => {
                    let what = format!("the client connects to `{url}`");
                    (Some(url), Capability::Sends, what)
                }
                Launch::Unknown => (None, Capability::Exec, "a server of no known kind".into()),
            };
            let claim = match capability {
                Capability::Sends => "capability:sends",
                _ => "capability:exec",
            };
            rows.push(surface_row(
                unit,
                file,
                &index,
                server.name_span,
                server.name.clone(),
                MCP_SERVER,
                vec![capability],
                vec![
                    ("effect:write", "mcpServers", what.clone()),
                    (claim, "mcpServers", what),
                ],
                runs,
            ));
        }
    }
    rows.extend(grant_rows(unit));
    rows
}

/// How a client reaches a server: a command it starts, or a URL.
enum Launch {
    Command(String),
    Url(String),
    Unknown,
}

fn server_launch(server: Option<&Node>) -> Launch {
    let Some(server) = server else {
        return Launch::Unknown;
    };
    if let Some(command) = server.get("command").and_then(Node::as_str) {
        let mut line = command.to_string();
        for arg in server
            .get("args")
            .and_then(Node::as_array)
            .unwrap_or_default()
        {
            if let Some(arg) = arg.as_str() {
                line.push(' ');
                line.push_str(arg);
            }
        }
        return Launch::Command(line);
    }
    match ["url", "serverUrl", "httpUrl"]
        .iter()
        .find_map(|key| server.get(key).and_then(Node::as_str))
    {
        Some(url) => Launch::Url(url.to_string()),
        None => Launch::Unknown,
    }
}

/// Every `allowed-tools` value of the unit: the skill's, each command's and each agent's, with
/// what holds it (`skill`, `command`, `agent`).
fn allowed_tools_values<'a>(unit: &Unit<'a>) -> Vec<(FileId, &'a Node, &'static str)> {
    let mut values = Vec::new();
    if let Some(allowed) = super::allowed_tools(unit) {
        values.push((allowed.0, allowed.1, "skill"));
    }
    for (file, doc) in unit.agent_docs() {
        if let Some(allowed) = doc.field("allowed-tools") {
            values.push((file, allowed, doc.what()));
        }
    }
    values
}

/// A row for each grant of an `allowed-tools` (a skill's, a command's, an agent's) that
/// pre-approves a built-in tool that writes files or runs commands (`Bash`, `Write`, `Edit`,
/// `MultiEdit`, `NotebookEdit`), scoped or not: the agent runs it without asking, so it is part
/// of what the agent can do. `Bash` runs commands: `exec`. Other grants (read-only built-ins,
/// MCP tools) are not rows of their own; a grant of a tool the folder's tools file declares
/// shows in that tool's gates.
fn grant_rows(unit: &Unit<'_>) -> Vec<Row> {
    let mut rows = Vec::new();
    for (file, allowed, holder) in allowed_tools_values(unit) {
        let text = unit.text(file);
        let index = LineIndex::new(text);
        for g in grants(allowed, text)
            .into_iter()
            .filter(|g| UNRESTRICTED_WHEN_BARE.contains(&g.tool.as_str()))
        {
            let written = match &g.scope {
                Some(scope) => format!("{}({scope})", g.tool),
                None => g.tool.clone(),
            };
            let scope = if g.is_unrestricted() {
                "without a scope".to_string()
            } else {
                format!("scoped to `{}`", g.scope.as_deref().unwrap_or(""))
            };
            let said = match holder {
                "skill" => format!("`allowed-tools` grants `{}` {scope}", g.tool),
                _ => format!("the {holder}'s `allowed-tools` grants `{}` {scope}", g.tool),
            };
            let mut evidence = vec![("effect:write", "allowed-tools", said.clone())];
            let mut capabilities = Vec::new();
            if g.tool == "Bash" {
                evidence.push(("capability:exec", "allowed-tools", said));
                capabilities.push(Capability::Exec);
            }
            let mut row = surface_row(
                unit,
                file,
                &index,
                g.span,
                written.clone(),
                ALLOWED_TOOLS,
                capabilities,
                evidence,
                None,
            );
            row.gates.pre_approved = vec![written];
            rows.push(row);
        }
    }
    rows
}
