//! HK005 `hook-pipes-download-to-shell`: A hook downloads code and runs it unchecked.

use crate::check::{Sink, Unit};
use crate::semantic::commands::downloads_run;

pub(super) fn hook_pipes_download_to_shell(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, _, hooks) in unit.hook_sets() {
        for command in &hooks.commands {
            for run in downloads_run(&command.tokens) {
                sink.report(
                    file,
                    run.span,
                    format!(
                        "hook on `{}` pipes a download from `{}` into `{}`",
                        command.event, run.downloader, run.interpreter
                    ),
                )
                .label("runs whatever the server returns, on every event")
                .help("ship the script in the plugin and run it from `${CLAUDE_PLUGIN_ROOT}`; if it must be downloaded, pin a version and check its checksum before running it");
            }
        }
    }
}
