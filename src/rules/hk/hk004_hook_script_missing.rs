//! HK004 `hook-script-missing`: A hook runs a plugin file that does not exist.

use crate::check::{Sink, Unit};
use crate::model::plugin::PathProblem;

pub(super) fn hook_script_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, _, hooks) in unit.hook_sets() {
        for reference in &hooks.broken_refs {
            let (message, label, help) = match reference.problem {
                PathProblem::Escapes => (
                    format!("hook runs `{}`, outside the plugin", reference.written),
                    "leaves the plugin root",
                    "ship the script inside the plugin and run it through `${CLAUDE_PLUGIN_ROOT}`",
                ),
                PathProblem::Missing | PathProblem::NotAPlugin => (
                    format!("hook runs `{}`, which does not exist", reference.written),
                    "no such file in the plugin",
                    "add the script to the plugin or fix the path; the hook fails on every event it runs on",
                ),
            };
            sink.report(file, reference.span, message)
                .label(label)
                .help(help);
        }
    }
}
