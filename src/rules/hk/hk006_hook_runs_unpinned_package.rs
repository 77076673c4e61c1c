//! HK006 `hook-runs-unpinned-package`: A hook runs a registry package at whatever version is
//! current.

use crate::check::{Sink, Unit};
use crate::semantic::commands::{simple_commands, unpinned_packages};

pub(super) fn hook_runs_unpinned_package(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, _, hooks) in unit.hook_sets() {
        for command in &hooks.commands {
            for words in simple_commands(&command.tokens) {
                for run in unpinned_packages(&words) {
                    let version = match &run.version {
                        Some(tag) => format!("at `{tag}`"),
                        None => "without a version".to_string(),
                    };
                    sink.report(
                        file,
                        run.span,
                        format!("hook runs `{}` through `{}` {version}", run.package, run.runner),
                    )
                    .label("fetches and runs the newest release on every event")
                    .help("pin an exact version (`name@1.2.3`, `name==1.2.3`) so a new release cannot change what the hook runs");
                }
            }
        }
    }
}
