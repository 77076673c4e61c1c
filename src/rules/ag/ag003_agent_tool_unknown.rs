//! AG003 `agent-tool-unknown`: An agent's `tools` lists a name that is a misspelt built-in tool.

use crate::check::{Sink, Unit};
use crate::semantic::permissions::grants;

/// Claude Code's built-in tools, as agents name them in `tools`. Source: Claude Code
/// documentation, "Tools reference" (code.claude.com/docs/en/tools-reference: "the exact strings
/// you use in permission rules, subagent tool lists, and hook matchers"), as read on 2026-12-07,
/// plus names earlier versions documented (`LS`, `MultiEdit`, `NotebookRead`, `KillBash`, …),
/// which older agents still list.
const BUILT_IN: [&str; 46] = [
    "Agent",
    "Artifact",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "KillBash",
    "KillShell",
    "LS",
    "ListMcpResourcesTool",
    "LSP",
    "Monitor",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "PowerShell",
    "Read",
    "ReadMcpResourceTool",
    "SendMessage",
    "Skill",
    "SlashCommand",
    "Task",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TeamCreate",
    "TeamDelete",
    "TodoRead",
    "TodoWrite",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// Other agent hosts' names for a built-in tool (Cursor, Codex, Gemini CLI, OpenCode), which
/// Claude Code does not know, with the tool it calls that. Sources: Claude Code's tool list
/// ("Settings", tools available to Claude, code.claude.com/docs/en/settings), Cursor's agent tools
/// (cursor.com/docs/agent/tools) and Codex's and Gemini CLI's tool names, as read on 2026-12-07.
#[rustfmt::skip]
const OTHER_HOSTS: &[(&str, &str)] = &[
    ("Shell", "Bash"),
    ("Terminal", "Bash"),
    ("run_terminal_cmd", "Bash"),
    ("run_shell_command", "Bash"),
    ("List", "Glob"),
    ("ListDir", "Glob"),
    ("list_dir", "Glob"),
    ("list_directory", "Glob"),
    ("Search", "Grep"),
    ("grep_search", "Grep"),
    ("search_file_content", "Grep"),
    ("codebase_search", "Grep"),
    ("file_search", "Glob"),
    ("ReadFile", "Read"),
    ("read_file", "Read"),
    ("WriteFile", "Write"),
    ("write_file", "Write"),
    ("edit_file", "Edit"),
    ("apply_patch", "Edit"),
    ("Fetch", "WebFetch"),
    ("web_fetch", "WebFetch"),
    ("web_search", "WebSearch"),
];

/// The built-in tool a name misspells: the same name in another case, one a single edit away
/// (`Websearch`, `Gerp`), or another host's name for it (`Shell`, `List`). A name near none of
/// them may be a tool this list does not know yet and is left alone.
fn misspelt(name: &str, claude_code: bool) -> Option<&'static str> {
    if let Some((_, ours)) = OTHER_HOSTS.iter().find(|(theirs, _)| *theirs == name) {
        return claude_code.then_some(*ours);
    }
    if let Some(same) = BUILT_IN.iter().find(|b| b.eq_ignore_ascii_case(name)) {
        return Some(same);
    }
    (name.len() >= 4)
        .then(|| {
            BUILT_IN
                .iter()
                .find(|b| crate::rules::util::edit_distance(name, b) == 1)
                .copied()
        })
        .flatten()
}

/// Whether the unit's agents are Claude Code's: not under another host's folder (`.cursor/`,
/// `.codex/`) nor in a plugin written only for other hosts, whose tools have other names.
fn read_by_claude_code(unit: &Unit<'_>) -> bool {
    use crate::model::plugin::Host;
    let dir = unit.dir();
    if dir
        .split('/')
        .any(|segment| matches!(segment, ".cursor" | ".codex" | ".gemini" | ".opencode"))
    {
        return false;
    }
    unit.repo
        .contracts
        .plugins
        .plugin_of(dir)
        .is_none_or(|(_, hosts)| hosts.contains(Host::ClaudeCode))
}

pub(super) fn agent_tool_unknown(unit: &Unit<'_>, sink: &mut Sink) {
    let claude_code = read_by_claude_code(unit);
    for (file, doc) in unit.agent_docs().filter(|(_, d)| !d.command) {
        // A GitHub Copilot custom agent (`*.agent.md`) names its own tools (`read`, `search`).
        if unit.repo.file_name(file).ends_with(".agent.md") {
            continue;
        }
        let Some(tools) = doc.field("tools") else {
            continue;
        };
        let text = unit.text(file);
        for grant in grants(tools, text) {
            let name = grant.tool.as_str();
            if BUILT_IN.contains(&name)
                || name.starts_with("mcp__")
                || name.contains(':')
                || name == "*"
            {
                continue;
            }
            let Some(known) = misspelt(name, claude_code) else {
                continue;
            };
            let why = if OTHER_HOSTS.iter().any(|(theirs, _)| *theirs == name) {
                format!(
                    "`{name}` is another agent host's name for it, which Claude Code does not know"
                )
            } else {
                "tool names are case-sensitive".to_string()
            };
            sink.report(
                file,
                grant.span,
                format!("agent lists tool `{name}`, which does not exist"),
            )
            .label(format!("did you mean `{known}`?"))
            .help(format!(
                "write `{known}`: {why}, and the agent does not get a tool its list misspells"
            ));
        }
    }
}
