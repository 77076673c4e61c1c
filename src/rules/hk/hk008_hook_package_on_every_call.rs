//! HK008 `hook-package-on-every-call`: A hook on every tool call or prompt starts a package
//! runner (`npx`, `uvx`), which resolves and starts a package each time.

use crate::check::{Sink, Unit};
use crate::semantic::commands::{package_runs, simple_commands};

/// The events that run on every tool call or every prompt: Claude Code's and Cursor's.
const HOT_EVENTS: [&str; 6] = [
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "preToolUse",
    "postToolUse",
    "beforeSubmitPrompt",
];

/// Whether a matcher lets every tool through: none, empty, `*` or `.*`.
pub(super) fn matches_every_tool(matcher: Option<&str>) -> bool {
    matcher.is_none_or(|m| matches!(m.trim(), "" | "*" | ".*"))
}

pub(super) fn hook_package_on_every_call(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, _, hooks) in unit.hook_sets() {
        for command in &hooks.commands {
            if !HOT_EVENTS.contains(&command.event.as_str())
                || !matches_every_tool(command.matcher.as_deref())
            {
                continue;
            }
            let on = if command.event.contains("Prompt") {
                "every prompt"
            } else {
                "every tool call"
            };
            for words in simple_commands(&command.tokens) {
                for run in package_runs(&words) {
                    sink.report(
                        file,
                        run.span,
                        format!(
                            "{} hook starts `{}` through `{}` on {on}",
                            command.event, run.package, run.runner
                        ),
                    )
                    .label(format!("resolved and started on {on}"))
                    .help("install the tool once (a `SessionStart` hook or the plugin's setup) and run it by path, or narrow the matcher to the tools the hook is for");
                }
            }
        }
    }
}
