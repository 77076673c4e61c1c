//! `skilllint rules`, `skilllint rule CODE` and `skilllint policy test`: the catalog (built-in
//! rules and the policies found from here) listed, explained and tested.

use super::flags::{ColorChoice, ListFormat, PolicyArgs};
use super::output::print_to_stdout;
use super::terminal::{self, report_setup_error};
use super::{EXIT_FINDINGS, EXIT_USAGE};
use skilllint::catalog::Catalog;
use skilllint::escape::escape_text;
use skilllint::policy::PolicySet;
use skilllint::settings::{config_path, load_policies, SetupError};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Loads the policies found from the current folder and runs `then` with them; a bad policy
/// file (or config) is reported and exits 2.
pub(crate) fn with_policies(
    args: &PolicyArgs,
    then: impl FnOnce(&PolicySet) -> ExitCode,
) -> ExitCode {
    let start = Path::new(".");
    let cap = skilllint::settings::DEFAULT_MAX_FILE_SIZE;
    let loaded = config_path(args.config.as_deref(), args.isolated, start)
        .map_err(SetupError::Config)
        .and_then(|path| {
            let named = args.config.is_some();
            load_policies(
                path.as_deref(),
                named,
                start,
                args.isolated,
                &args.policies,
                cap,
            )
        });
    match loaded {
        Ok(set) => then(&set),
        Err(error) => {
            report_setup_error(&error, ColorChoice::Auto);
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// `skilllint policy test`: the given files and folders, else the policies found from here.
pub(crate) fn test_policies(paths: &[PathBuf], args: &PolicyArgs) -> ExitCode {
    let run = |set: &PolicySet| {
        let report = skilllint::policy::testing::run(set);
        let mut text = String::new();
        for case in &report.cases {
            text.push_str(&escape_text(&case.to_string()));
            text.push('\n');
        }
        for code in &report.untested {
            terminal::warning(&format!("policy rule {code} has no tests"));
        }
        let printed = print_to_stdout(&text);
        if report.failed() {
            ExitCode::from(EXIT_FINDINGS)
        } else {
            printed
        }
    };
    if paths.is_empty() {
        return with_policies(args, run);
    }
    // Named paths only: no config, no `.skilllint/policies/` (isolated), then `--policies`.
    let named: Vec<PathBuf> = paths.iter().chain(&args.policies).cloned().collect();
    let cap = skilllint::settings::DEFAULT_MAX_FILE_SIZE;
    match load_policies(None, true, Path::new("."), true, &named, cap) {
        Ok(set) => run(&set),
        Err(error) => {
            report_setup_error(&error, ColorChoice::Auto);
            ExitCode::from(EXIT_USAGE)
        }
    }
}

pub(crate) fn list_rules(catalog: &Catalog, format: ListFormat) -> ExitCode {
    let text = match format {
        ListFormat::Table => skilllint::render::rules_table(catalog),
        ListFormat::Json => skilllint::render::rules_json(catalog),
        ListFormat::Markdown => skilllint::render::rules_markdown(catalog),
    };
    print_to_stdout(&text)
}

pub(crate) fn explain_rule(catalog: &Catalog, code: &str) -> ExitCode {
    match catalog.find(code) {
        Some(meta) => print_to_stdout(&skilllint::render::rule_explanation(meta)),
        None => {
            let hint = skilllint::selection::suggest(catalog, code)
                .map(|near| format!("; did you mean `{near}`?"))
                .unwrap_or_default();
            terminal::error(&format!(
                "no rule is called `{}`{hint} (`skilllint rules` lists them all)",
                escape_text(code)
            ));
            ExitCode::from(EXIT_USAGE)
        }
    }
}
