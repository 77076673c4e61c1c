//! `skilllint lock`: pins the tools of a folder (of the repository it is in) in `skilllint.lock`
//! at its root.

use super::flags;
use super::flags::ColorChoice;
use super::terminal::{self, report_setup_error};
use super::EXIT_USAGE;
use skilllint::english::plural;
use skilllint::escape::escape_text;
use std::process::ExitCode;

/// Writes the lock of `args.path` with the configuration a lint there would load. Exit 0, or 2
/// when the path or configuration is bad or the lock cannot be written.
pub(crate) fn run_lock(args: &flags::LockArgs) -> ExitCode {
    if !args.path.is_dir() {
        terminal::error(&format!(
            "{} is not a folder: `skilllint lock` pins the tools of a folder, in its skilllint.lock",
            escape_text(&args.path.display().to_string())
        ));
        return ExitCode::from(EXIT_USAGE);
    }
    let paths = [args.path.clone()];
    let mut options = match skilllint::settings::for_paths(
        &paths,
        args.read.config.as_deref(),
        args.read.isolated,
        args.read.threads,
    ) {
        Ok((options, _)) => options,
        Err(error) => {
            report_setup_error(&error, ColorChoice::Auto);
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // The lock of a folder inside a repository is the repository's: every lint there, whatever
    // path it names, checks the one at the top.
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("."));
    skilllint::settings::widen_to_project(&mut options, &cwd);
    match skilllint::lock::write(&options) {
        Ok(written) => {
            eprintln!(
                "Wrote {}: {} in {}.",
                escape_text(&written.path.display().to_string()),
                plural(written.tools, "tool"),
                plural(written.files, "file")
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            terminal::error(&escape_text(&error.to_string()));
            ExitCode::from(EXIT_USAGE)
        }
    }
}
