use clap::Parser;
use skilllint::catalog::Catalog;
use skilllint::config::{self, Config, ConfigError};
use skilllint::diagnostic::Severity;
use skilllint::policy::PolicySet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
// Paths and messages on stderr quote the repository: printed escaped, as in the reports.
use skilllint::escape::{display_path, escape_text};
use skilllint::fix;
use skilllint::render::{self, Format};
use skilllint::{lint, LintOptions};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

mod allocator;
mod cli;

use cli::{Cli, ColorChoice, Command, FailOn, ListFormat, OutputFormat, PolicyArgs, PolicyCommand};

const EXIT_FINDINGS: u8 = 1;
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Some(Command::Rules { format, policies }) => {
            with_policies(&policies, |set| list_rules(set.catalog(), format))
        }
        Some(Command::Rule { code, policies }) => {
            with_policies(&policies, |set| explain_rule(set.catalog(), &code))
        }
        Some(Command::Policy {
            command: PolicyCommand::Test { paths, policies },
        }) => test_policies(&paths, &policies),
        Some(Command::Server { .. }) => match skilllint::server::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("skilllint server: {}", escape_text(&error));
                ExitCode::from(EXIT_USAGE)
            }
        },
        None => run_lint(cli.lint),
    }
}

/// Files a fix run edits or renames, a renamed file that is also edited counted once.
/// Why `-o FILE` (or standard output) could not take the report.
struct WriteError {
    /// The `-o` file; `None` for standard output.
    path: Option<std::path::PathBuf>,
    error: std::io::Error,
}

impl WriteError {
    /// `cannot write the report to out/x.sarif: No such file or directory (os error 2)`.
    fn describe(&self, what: &str) -> String {
        match &self.path {
            Some(path) => format!(
                "cannot write {what} to {}: {}",
                display_path(path),
                self.error
            ),
            None => format!("cannot write {what}: {}", self.error),
        }
    }
}

fn write_report(output: Option<&std::path::Path>, report: &str) -> Result<(), WriteError> {
    match output {
        Some(path) => fix::write_report_file(path, report.as_bytes()).map_err(|error| WriteError {
            path: Some(path.to_path_buf()),
            error,
        }),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(report.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|error| WriteError { path: None, error })
        }
    }
}

/// Prints `text` on standard output. A reader that stops early (`skilllint rules | head`) is not
/// a failure; `print!` would panic on the closed pipe.
fn print_to_stdout(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("skilllint: cannot write to standard output: {error}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Why the configuration or the policies could not be loaded.
enum SetupError {
    Config(ConfigError),
    Policy(ConfigError),
}

/// The policies a run from `start` loads (see [`skilllint::policy::for_run`]).
fn load_policies(
    config_path: Option<&Path>,
    config_named: bool,
    start: &Path,
    isolated: bool,
    extra: &[PathBuf],
    cap: u64,
) -> Result<PolicySet, SetupError> {
    use skilllint::policy::RunPoliciesError;
    skilllint::policy::for_run(config_path, config_named, start, isolated, extra, cap).map_err(
        |error| match error {
            RunPoliciesError::Config(error) => SetupError::Config(error),
            RunPoliciesError::Policy(error) => SetupError::Policy(error),
        },
    )
}

fn config_path(
    config: Option<&Path>,
    isolated: bool,
    start: &Path,
) -> Result<Option<PathBuf>, ConfigError> {
    if isolated {
        return Ok(None);
    }
    match config {
        Some(path) => Ok(Some(path.to_path_buf())),
        None => config::discover(start),
    }
}

/// Loads the policies found from the current folder and runs `then` with them; a bad policy
/// file (or config) is reported and exits 2.
fn with_policies(args: &PolicyArgs, then: impl FnOnce(&PolicySet) -> ExitCode) -> ExitCode {
    let start = Path::new(".");
    let cap = skilllint::engine::DEFAULT_MAX_FILE_SIZE;
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
fn test_policies(paths: &[PathBuf], args: &PolicyArgs) -> ExitCode {
    let run = |set: &PolicySet| {
        let report = skilllint::policy::testing::run(set);
        let mut text = String::new();
        for case in &report.cases {
            text.push_str(&escape_text(&case.to_string()));
            text.push('\n');
        }
        for code in &report.untested {
            eprintln!("skilllint: warning: policy rule {code} has no tests");
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
    let cap = skilllint::engine::DEFAULT_MAX_FILE_SIZE;
    match load_policies(None, true, Path::new("."), true, &named, cap) {
        Ok(set) => run(&set),
        Err(error) => {
            report_setup_error(&error, ColorChoice::Auto);
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn list_rules(catalog: &Catalog, format: ListFormat) -> ExitCode {
    let text = match format {
        ListFormat::Table => skilllint::render::rules_table(catalog),
        ListFormat::Json => skilllint::render::rules_json(catalog),
        ListFormat::Markdown => skilllint::render::rules_markdown(catalog),
    };
    print_to_stdout(&text)
}

fn explain_rule(catalog: &Catalog, code: &str) -> ExitCode {
    match catalog.find(code) {
        Some(meta) => print_to_stdout(&skilllint::render::rule_explanation(meta)),
        None => {
            eprintln!("skilllint: no rule is called `{code}`; `skilllint rules` lists them all");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Whether what goes to standard error is drawn in colour under `choice`.
fn stderr_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stderr().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// Prints a configuration error on standard error, drawn as diagnostics are.
fn report_config_error(error: &ConfigError, choice: ColorChoice) {
    eprint!(
        "{}",
        render::full::config_error(error, stderr_color(choice))
    );
}

fn report_setup_error(error: &SetupError, choice: ColorChoice) {
    match error {
        SetupError::Config(error) => report_config_error(error, choice),
        SetupError::Policy(error) => {
            eprint!(
                "{}",
                render::full::policy_error(error, stderr_color(choice))
            );
        }
    }
}

/// The configuration in force (`--config FILE`, else the nearest skilllint.toml, unless
/// isolated) and the policies, whose rules the configuration may name. A config file is read
/// under the command line's size cap (or the default): the file cannot raise its own cap before
/// it is read.
fn load_config(
    args: &cli::LintArgs,
    start: &std::path::Path,
) -> Result<(Config, PolicySet), SetupError> {
    let path =
        config_path(args.config.as_deref(), args.isolated, start).map_err(SetupError::Config)?;
    let cap = args
        .max_file_size
        .unwrap_or(skilllint::engine::DEFAULT_MAX_FILE_SIZE);
    let named = args.config.is_some();
    let policies = load_policies(
        path.as_deref(),
        named,
        start,
        args.isolated,
        &args.policies,
        cap,
    )?;
    let config = match path {
        Some(path) => config::load(&path, policies.catalog(), cap).map_err(SetupError::Config)?,
        None => Config::default(),
    };
    Ok((config, policies))
}

fn run_lint(args: cli::LintArgs) -> ExitCode {
    let mut options = LintOptions::default();
    if !args.paths.is_empty() {
        options.paths = args.paths.clone();
    }
    let start = skilllint::engine::lint_root(&options.paths);
    let (mut config, policies) = match load_config(&args, &start) {
        Ok(loaded) => loaded,
        Err(error) => {
            report_setup_error(&error, args.color);
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if !policies.is_empty() {
        options.policies = Some(Arc::new(policies));
    }
    if config.path.is_none() {
        // Without a file, command-line globs are relative to the current folder.
        config.base = std::path::PathBuf::from(".");
    }
    options.apply_config(&config);
    // Command-line flags override the file: `--select` replaces the file's whole selection
    // (select and ignore), so `skilllint --select SK003` runs SK003 whatever the file says.
    if !args.select.is_empty() {
        options.select = args.select.clone();
        options.ignore = Vec::new();
    }
    options.ignore.extend(args.ignore.iter().cloned());
    options.threads = args.threads;
    if let Some(cap) = args.max_file_size {
        options.max_file_size = cap;
    }
    options.inline_ignores = !args.no_inline_ignores;
    // CLI globs are relative to the current folder, config globs to the config file.
    options.exclude_here = args
        .exclude
        .iter()
        .map(|glob| glob.trim_start_matches("./").to_string())
        .collect();
    let format = match args.format {
        OutputFormat::Full => Format::Full,
        OutputFormat::Concise => Format::Concise,
        OutputFormat::Json => Format::Json,
        OutputFormat::Github => Format::Github,
        OutputFormat::Sarif => Format::Sarif,
    };
    let policies_for_failure = options.policies.clone();
    let fail = |error: skilllint::LintError| {
        eprintln!("skilllint: {}", escape_text(&error.to_string()));
        // Code scanning still gets a log that says why the run did not happen.
        if format == Format::Sarif {
            let catalog = match policies_for_failure.as_deref() {
                Some(set) => set.catalog(),
                None => skilllint::catalog::catalog(),
            };
            let log = render::sarif::render_failure(catalog, &error.to_string());
            if let Err(error) = write_report(args.output.as_deref(), &log) {
                eprintln!("skilllint: {}", error.describe("the report"));
            }
        }
        ExitCode::from(EXIT_USAGE)
    };
    let mut fixed_line = None;
    let mut write_failed = false;
    if args.fix || args.diff {
        let (outcome, run) = match fix::fix(&options, args.unsafe_fixes) {
            Ok(result) => result,
            Err(error) => return fail(error),
        };
        for (path, rule, why) in &run.refused {
            eprintln!(
                "skilllint: {rule} fix not applied to {path}: {}",
                escape_text(why)
            );
        }
        if args.diff {
            let diff = fix::diff(&run);
            if let Err(error) = write_report(args.output.as_deref(), &diff) {
                eprintln!("skilllint: {}", error.describe("the diff"));
                return ExitCode::from(EXIT_USAGE);
            }
            if !args.quiet {
                eprintln!("{}", fix::diff_summary(&run));
            }
            std::mem::forget(outcome);
            return if run.changed.is_empty() && run.renames.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_FINDINGS)
            };
        }
        // Each file on its own: one that cannot be written leaves the others fixed.
        let scope = fix::WriteScope::new(&start);
        let applied = fix::apply(&run, &scope);
        for (path, why) in &applied.not_fixed {
            eprintln!(
                "skilllint: {path} not fixed: {}",
                escape_text(&why.to_string())
            );
        }
        write_failed = !applied.not_fixed.is_empty();
        fixed_line = Some(applied.summary());
        // A `skill.md` named on the command line and renamed by its fix is linted again under
        // its new name (the old one is gone).
        for path in &mut options.paths {
            if let Some((_, to)) = run.renames.iter().find(|(from, _)| from == path) {
                if !path.exists() && to.exists() {
                    *path = to.clone();
                }
            }
        }
    }
    let outcome = match lint(&options) {
        Ok(outcome) => outcome,
        Err(error) => return fail(error),
    };
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            to_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let input = render::Input {
        sources: outcome.repo.sources(),
        diagnostics: &outcome.diagnostics,
        suppressed: &outcome.suppressed,
        root: &outcome.root,
        catalog: options.catalog(),
    };
    let report = render::render(format, &input, color);
    if let Err(error) = write_report(args.output.as_deref(), &report) {
        // A closed pipe (`skilllint . | head`) is not a failure of the lint.
        if error.error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("skilllint: {}", error.describe("the report"));
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if !args.quiet {
        if let Some(line) = &fixed_line {
            eprintln!("{line}");
        }
        // A run that read nothing has nothing that passed: say where it looked instead.
        let line = if outcome.repo.files.is_empty() {
            render::nothing_found(&options.paths)
        } else {
            render::summary(
                outcome.repo.files.len(),
                outcome.repo.skill_count(),
                &outcome.diagnostics,
                outcome.suppressed.len(),
            )
        };
        eprintln!("{line}");
    }
    let threshold = match args.fail_on {
        Some(FailOn::Error) => Severity::Error,
        Some(FailOn::Warning) => Severity::Warning,
        Some(FailOn::Info) => Severity::Info,
        None => config.fail_on.unwrap_or(Severity::Error),
    };
    let failing = outcome.diagnostics.iter().any(|d| d.severity >= threshold);
    // The process ends here; freeing every parsed file first would only cost time.
    std::mem::forget(outcome);
    if write_failed {
        ExitCode::from(EXIT_USAGE)
    } else if failing && !args.exit_zero {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}
