//! AG003 `agent-tool-unknown`: An agent's `tools` lists a name that is a misspelt built-in tool.

use crate::check::{Sink, Unit};
use crate::semantic::permissions::grants;

/// Claude Code's built-in tools, as agents name them in `tools`.
const BUILT_IN: [&str; 40] = [
    "Agent",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "Edit",
    "EnterPlanMode",
    "ExitPlanMode",
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

/// The built-in tool a name misspells: the same name in another case, or one a single edit
/// away (`Websearch`, `Gerp`). A name near none of them may be a tool this list does not know
/// yet and is left alone.
fn misspelt(name: &str) -> Option<&'static str> {
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

pub(super) fn agent_tool_unknown(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.agent_docs().filter(|(_, d)| !d.command) {
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
            let Some(known) = misspelt(name) else {
                continue;
            };
            sink.report(file, grant.span, format!("agent lists tool `{name}`, which does not exist"))
                .label(format!("did you mean `{known}`?"))
                .help(format!(
                    "write `{known}`: tool names are case-sensitive, and the agent does not get a tool its list misspells"
                ));
        }
    }
}
