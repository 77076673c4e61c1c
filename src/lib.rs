//! skilllint: a static analyzer for repositories of AI-agent skills and tool contracts.
//!
//! Data flows one way: walk ([`discover`]) → read & parse ([`parse`], [`model`]) → index
//! ([`index`]) → facts ([`semantic`]: what several rules of a unit share, derived once) → check
//! ([`check`]: what a rule is given; the [`rules`]) → triage
//! ([`triage`]) → render ([`render`]). Beside the pipeline: [`catalog`] (the rule documents,
//! which everything that only describes rules reads), [`edit`] (text edits that fixes are built
//! from), [`fix`] (the `--fix` loop over the engine) and [`policy`] (organisation rules written
//! in YAML with CEL expressions, which the engine runs per unit beside the unit rules and whose
//! metadata joins the catalog). Above them all, [`server`]: the language server.

pub mod bounded_regex;
pub mod catalog;
pub mod check;
pub mod config;
pub mod diagnostic;
pub mod diff;
pub mod discover;
pub mod edit;
pub mod engine;
pub mod english;
pub mod escape;
pub mod file_error;
pub mod fix;
mod git_index;
pub mod history;
pub mod index;
pub mod inventory;
pub mod lock;
pub mod model;
pub mod output_file;
pub mod parse;
pub mod policy;
mod read;
pub mod render;
#[cfg(test)]
pub(crate) mod rule_testing;
pub mod rules;
pub mod schema;
pub mod selection;
pub mod semantic;
pub mod server;
pub mod settings;
mod sink;
pub mod source;
pub mod triage;

pub use engine::{lint, LintError, LintOutcome};
pub use settings::LintOptions;

/// Every file under `tests/fixtures`, for unit tests that check a parser against its reference on
/// real inputs.
#[cfg(test)]
pub(crate) fn fixture_files() -> Vec<std::path::PathBuf> {
    let mut pending = vec![std::path::PathBuf::from("tests/fixtures")];
    let mut files = Vec::new();
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            let entries = std::fs::read_dir(&path).expect("fixture folder is readable");
            pending.extend(entries.flatten().map(|e| e.path()));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}
