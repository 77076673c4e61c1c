//! `skilllint tools`: the capability inventory of the paths, in the chosen format.

use super::flags;
use super::flags::ColorChoice;
use super::output::emit;
use super::terminal::{self, report_setup_error};
use super::EXIT_USAGE;
use skilllint::escape::escape_text;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The inventory of `paths` with the configuration a lint there would load (exclusions, file
/// kinds): `config` when named, else the one found from the paths, none when `isolated`. A bad
/// path or configuration is reported here; the caller exits 2.
pub(crate) fn load_inventory(
    paths: &[PathBuf],
    config: Option<&Path>,
    isolated: bool,
    threads: Option<usize>,
) -> Option<skilllint::inventory::Inventory> {
    let (options, _) = match skilllint::settings::for_paths(paths, config, isolated, threads) {
        Ok(loaded) => loaded,
        Err(error) => {
            report_setup_error(&error, ColorChoice::Auto);
            return None;
        }
    };
    match skilllint::inventory::inventory(&options) {
        Ok(inventory) => Some(inventory),
        Err(error) => {
            terminal::error(&escape_text(&error.to_string()));
            None
        }
    }
}

/// `skilllint tools`: the inventory in the chosen format. Exit 0, or 2 when the paths or
/// configuration are bad or the report cannot be written.
pub(crate) fn run_tools(args: &flags::ToolsArgs) -> ExitCode {
    let Some(inventory) = load_inventory(
        &args.paths,
        args.read.config.as_deref(),
        args.read.isolated,
        args.read.threads,
    ) else {
        return ExitCode::from(EXIT_USAGE);
    };
    let text = match args.format {
        flags::InventoryFormat::Full => skilllint::inventory::render::full(&inventory),
        flags::InventoryFormat::Json => skilllint::inventory::render::json(&inventory),
        flags::InventoryFormat::Markdown => skilllint::inventory::render::markdown(&inventory),
    };
    emit(args.output.as_deref(), &text, ExitCode::SUCCESS)
}
