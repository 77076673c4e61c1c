//! AG008 `command-script-missing`: A command or agent runs a plugin file that does not exist.

use crate::check::{Sink, Unit};
use crate::model::plugin::PathProblem;

pub(super) fn command_script_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, agent) in unit.agent_docs() {
        let what = agent.what();
        for reference in &agent.broken_refs {
            let (message, label, help) = match reference.problem {
                PathProblem::Escapes => (
                    format!("{what} runs `{}`, outside the plugin", reference.written),
                    "leaves the plugin root",
                    "ship the script inside the plugin and run it through `${CLAUDE_PLUGIN_ROOT}`",
                ),
                PathProblem::Missing | PathProblem::NotAPlugin => (
                    format!("{what} runs `{}`, which does not exist", reference.written),
                    "no such file in the plugin",
                    "add the script to the plugin or fix the path; the {what} fails each time it is used",
                ),
            };
            sink.report(file, reference.span, message)
                .label(label)
                .help(help.replace("{what}", what));
        }
    }
}
