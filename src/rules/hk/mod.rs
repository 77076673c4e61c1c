//! HK: hook configurations (`hooks/hooks.json`, Cursor's `hooks.json`, a manifest's inline
//! `hooks`). A hook's command is code the client runs on the user's machine on every matching
//! event, so it is checked as such: the shape the client reads, known events, the plugin files it
//! names, and what it downloads and runs. Nothing is run.
//!
//! One file per rule, `<code>_<rule name>.rs`; what several rules of the family share stays here.

mod hk001_hooks_json_invalid;
mod hk002_hooks_shape_invalid;
mod hk003_hook_event_unknown;
mod hk004_hook_script_missing;
mod hk005_hook_pipes_download_to_shell;
mod hk006_hook_runs_unpinned_package;
mod hk007_hook_mcp_matcher_not_namespaced;
mod hk008_hook_package_on_every_call;
mod hk009_hook_matcher_missing;

use crate::check::{code, Check, RuleImpl};
#[cfg(test)]
mod tests;

use hk001_hooks_json_invalid::hooks_json_invalid;
use hk002_hooks_shape_invalid::hooks_shape_invalid;
use hk003_hook_event_unknown::hook_event_unknown;
use hk004_hook_script_missing::hook_script_missing;
use hk005_hook_pipes_download_to_shell::hook_pipes_download_to_shell;
use hk006_hook_runs_unpinned_package::hook_runs_unpinned_package;
use hk007_hook_mcp_matcher_not_namespaced::hook_mcp_matcher_not_namespaced;
use hk008_hook_package_on_every_call::hook_package_on_every_call;
use hk009_hook_matcher_missing::hook_matcher_missing;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::HK001, check: Check::Unit(hooks_json_invalid) },
    RuleImpl { code: code::HK002, check: Check::Unit(hooks_shape_invalid) },
    RuleImpl { code: code::HK003, check: Check::Unit(hook_event_unknown) },
    RuleImpl { code: code::HK004, check: Check::Unit(hook_script_missing) },
    RuleImpl { code: code::HK005, check: Check::Unit(hook_pipes_download_to_shell) },
    RuleImpl { code: code::HK006, check: Check::Unit(hook_runs_unpinned_package) },
    RuleImpl { code: code::HK007, check: Check::Unit(hook_mcp_matcher_not_namespaced) },
    RuleImpl { code: code::HK008, check: Check::Unit(hook_package_on_every_call) },
    RuleImpl { code: code::HK009, check: Check::Unit(hook_matcher_missing) },
];

/// The events Claude Code (and Codex, which reads the same format) runs hooks on.
const CLAUDE_EVENTS: [&str; 29] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
];

/// The events Cursor runs hooks on.
const CURSOR_EVENTS: [&str; 20] = [
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "afterAgentResponse",
    "afterAgentThought",
    "preCompact",
    "stop",
    "beforeTabFileRead",
    "afterTabFileEdit",
];

/// The host's events for a set of hooks: Cursor's for the flat dialect, else Claude Code's.
fn events_for(flat: bool) -> (&'static [&'static str], &'static str) {
    if flat {
        (&CURSOR_EVENTS, "Cursor")
    } else {
        (&CLAUDE_EVENTS, "Claude Code")
    }
}
