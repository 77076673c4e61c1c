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
mod report;
mod terminal;

use cli::{Cli, ColorChoice, Command, FailOn, ListFormat, OutputFormat, PolicyArgs, PolicyCommand};

const EXIT_FINDINGS: u8 = 1;
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    // The language server's flags come from the editor, in the workspace folder: a file there
    // named `--stdio` must not stop it.
    let serving = std::env::args_os()
        .nth(1)
        .is_some_and(|first| first == "server");
    if let Some(word) = flag_that_is_a_file(std::env::args_os().skip(1)).filter(|_| !serving) {
        let shown = display_path(Path::new(&word)).into_owned();
        terminal::error(&format!(
            "`{shown}` is a flag and also a file or folder in the current folder: a shell glob (`*/SKILL.md`) turned a name in the repository into a flag. Put `--` before the paths (`skilllint -- */SKILL.md`), or write the name as `./{shown}`"
        ));
        return ExitCode::from(EXIT_USAGE);
    }
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
    if cli.command.is_some() {
        say_how_a_subcommand_name_was_read();
    }
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
        Some(Command::GenerateShellCompletion { shell }) => {
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "skilllint", &mut script);
            print_to_stdout(&String::from_utf8_lossy(&script))
        }
        Some(Command::Tools(args)) => run_tools(&args),
        Some(Command::Diff(args)) => run_diff(&args),
        Some(Command::Server { .. }) => match skilllint::server::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                terminal::error(&format!("server: {}", escape_text(&error)));
                ExitCode::from(EXIT_USAGE)
            }
        },
        None => run_lint(cli.lint),
    }
}

/// The first word before `--` that reads as a flag (`-…`) and names an existing path. A shell
/// expands `skilllint */SKILL.md` to whatever the repository holds: a folder named `--config=x`
/// makes the word `--config=x/SKILL.md`, which would load the repository's `x/SKILL.md` as the
/// configuration (switching every rule off), and `--output=..` or `-ocalendar` would pick where
/// the report goes. A flag the user typed names no file; one that came from a glob always does.
fn flag_that_is_a_file(
    words: impl Iterator<Item = std::ffi::OsString>,
) -> Option<std::ffi::OsString> {
    for word in words {
        if word == "--" {
            return None;
        }
        let flag = word
            .as_encoded_bytes()
            .first()
            .is_some_and(|first| *first == b'-')
            && word != "-";
        if flag && std::fs::symlink_metadata(&word).is_ok() {
            return Some(word);
        }
    }
    None
}

/// `skilllint rules` in a folder that holds a `rules` folder runs the command, not a lint of the
/// folder: say so, and how to lint it (a path is never taken for a command silently).
fn say_how_a_subcommand_name_was_read() {
    let Some(first) = std::env::args_os().nth(1) else {
        return;
    };
    let command = <Cli as clap::CommandFactory>::command();
    let is_command = command
        .get_subcommands()
        .any(|sub| first == sub.get_name() || sub.get_all_aliases().any(|alias| first == alias));
    if is_command && Path::new(&first).exists() {
        let name = display_path(Path::new(&first)).into_owned();
        terminal::note(&format!(
            "`{name}` was read as the `{name}` command; to lint the path `{name}`, write `skilllint ./{name}`"
        ));
    }
}

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

/// Writes `report` to `output` (standard output for `None`), never over one of `inputs`, the
/// files the run read.
fn write_report(
    output: Option<&std::path::Path>,
    report: &str,
    inputs: &[skilllint::source::SourceFile],
) -> Result<(), WriteError> {
    write_report_with(output, inputs, |emit| emit(report))
}

/// Opens `output` (standard output for `None`; never one of `inputs`, the files the run read),
/// then lets `draw` hand it the report piece by piece, each written as soon as it is drawn.
fn write_report_with(
    output: Option<&std::path::Path>,
    inputs: &[skilllint::source::SourceFile],
    draw: impl FnOnce(&mut render::Emit<'_>) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    match output {
        Some(path) if fix::is_lint_input(path, inputs) => Err(WriteError {
            path: Some(path.to_path_buf()),
            error: std::io::Error::other(
                "it is a file this run linted, and the report would replace it; nothing was written",
            ),
        }),
        Some(path) => {
            let failed = |error: std::io::Error| WriteError {
                path: Some(path.to_path_buf()),
                error,
            };
            let mut file = fix::ReportFile::create(path).map_err(failed)?;
            draw(&mut |piece: &str| file.write(piece.as_bytes())).map_err(failed)?;
            file.finish().map_err(failed)
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            draw(&mut |piece: &str| stdout.write_all(piece.as_bytes()))
                .and_then(|()| stdout.flush())
                .map_err(|error| WriteError { path: None, error })
        }
    }
}

/// Writes `text` to `path`, a file the repository named (its configuration's baseline), only
/// inside `root` and never over one of `inputs`: checked again right before the write, and
/// written to a temporary file renamed over the real target ([`fix::ReportFile::create_confined`]).
fn write_confined(
    path: &Path,
    root: &Path,
    text: &str,
    inputs: &[skilllint::source::SourceFile],
) -> Result<(), WriteError> {
    let failed = |error: std::io::Error| WriteError {
        path: Some(path.to_path_buf()),
        error,
    };
    if fix::is_lint_input(path, inputs) {
        return Err(failed(std::io::Error::other(
            "it is a file this run linted, and the baseline would replace it; nothing was written",
        )));
    }
    let mut file = fix::ReportFile::create_confined(path, root).map_err(failed)?;
    file.write(text.as_bytes()).map_err(failed)?;
    file.finish().map_err(failed)
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
            terminal::error(&format!("cannot write to standard output: {error}"));
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

/// The inventory of `paths` with the configuration a lint there would load (exclusions, file
/// kinds): `config` when named, else the one found from the paths, none when `isolated`. A bad
/// path or configuration is reported here; the caller exits 2.
fn load_inventory(
    paths: &[PathBuf],
    config: Option<&Path>,
    isolated: bool,
    threads: Option<usize>,
) -> Option<skilllint::inventory::Inventory> {
    let (options, _) = load_options(paths, config, isolated, threads)?;
    match skilllint::engine::inventory(&options) {
        Ok(inventory) => Some(inventory),
        Err(error) => {
            terminal::error(&escape_text(&error.to_string()));
            None
        }
    }
}

/// A folder side of `skilllint diff` (`--dirs`, or the work tree): the folder linted and inventoried with its own
/// configuration (none when `isolated`). A bad configuration is reported here; the caller exits 2.
fn load_folder_side(
    dir: &Path,
    isolated: bool,
    threads: Option<usize>,
) -> Option<skilllint::diff::side::Side> {
    use skilllint::diff::side;
    let (options, config) = load_options(&[dir.to_path_buf()], None, isolated, threads)?;
    let cap = skilllint::engine::DEFAULT_MAX_FILE_SIZE;
    let facts = match side::SideConfig::from_disk(&config, dir, options.catalog(), cap) {
        Ok(facts) => facts,
        Err(error) => {
            report_setup_error(&SetupError::Config(error), ColorChoice::Auto);
            return None;
        }
    };
    match side::folder(&options, facts) {
        Ok(side) => Some(side),
        Err(error) => {
            terminal::error(&escape_text(&error.to_string()));
            None
        }
    }
}

/// The lint options of `paths` with the configuration found as [`load_inventory`] says, and
/// that configuration.
fn load_options(
    paths: &[PathBuf],
    config: Option<&Path>,
    isolated: bool,
    threads: Option<usize>,
) -> Option<(LintOptions, Config)> {
    let mut options = LintOptions::default();
    if !paths.is_empty() {
        options.paths = paths.to_vec();
    }
    let start = skilllint::engine::lint_root(&options.paths);
    let cap = skilllint::engine::DEFAULT_MAX_FILE_SIZE;
    let loaded = config_path(config, isolated, &start)
        .map_err(SetupError::Config)
        .and_then(|path| {
            let named = config.is_some();
            let policies = load_policies(path.as_deref(), named, &start, isolated, &[], cap)?;
            let config = match path {
                Some(path) => {
                    config::load(&path, policies.catalog(), cap).map_err(SetupError::Config)?
                }
                None => Config::default(),
            };
            Ok((config, policies))
        });
    let (mut config, policies) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            report_setup_error(&error, ColorChoice::Auto);
            return None;
        }
    };
    if !policies.is_empty() {
        options.policies = Some(Arc::new(policies));
    }
    if config.path.is_none() {
        config.base = PathBuf::from(".");
    }
    options.apply_config(&config);
    options.exclude_here = config
        .exclude_from_cwd
        .iter()
        .map(|glob| glob.trim_start_matches("./").to_string())
        .collect();
    options.threads = threads;
    Some((options, config))
}

/// Writes a report to `output`, else to standard output; exit `code`, or 2 when it cannot be
/// written.
fn emit(output: Option<&Path>, text: &str, code: ExitCode) -> ExitCode {
    let Some(output) = output else {
        return match print_to_stdout(text) {
            ExitCode::SUCCESS => code,
            failed => failed,
        };
    };
    // `tools` and `diff` keep no file texts; the report writer still refuses `..` escapes.
    match write_report(Some(output), text, &[]) {
        Ok(()) => code,
        Err(error) => {
            terminal::error(&error.describe("the report"));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// `skilllint tools`: the inventory in the chosen format. Exit 0, or 2 when the paths or
/// configuration are bad or the report cannot be written.
fn run_tools(args: &cli::ToolsArgs) -> ExitCode {
    let Some(inventory) = load_inventory(
        &args.paths,
        args.config.as_deref(),
        args.isolated,
        args.threads,
    ) else {
        return ExitCode::from(EXIT_USAGE);
    };
    let text = match args.format {
        cli::InventoryFormat::Full => skilllint::inventory::render::full(&inventory),
        cli::InventoryFormat::Json => skilllint::inventory::render::json(&inventory),
        cli::InventoryFormat::Markdown => skilllint::inventory::render::markdown(&inventory),
    };
    emit(args.output.as_deref(), &text, ExitCode::SUCCESS)
}

/// `skilllint diff --dirs OLD NEW`: each side's inventory with that side's own configuration,
/// compared. Exit 1 when a change widens what the agent can do (0 with `--exit-zero`), else 0;
/// 2 on a bad path or configuration.
fn run_diff(args: &cli::DiffArgs) -> ExitCode {
    let history;
    let (old, new) = if let Some(base) = &args.base {
        history = match skilllint::history::Repository::discover(
            args.repo.as_deref().unwrap_or(Path::new(".")),
            args.repo.is_some(),
        ) {
            Ok(history) => history,
            Err(error) => return history_error(&error),
        };
        if let Some(folder) = history.passed_over() {
            terminal::warning(&format!(
                "{} is laid out as a bare git repository inside a work tree; it is not read as \
                 the repository (the work tree's own .git is). Name it with --repo to read it",
                display_path(folder)
            ));
        }
        match revision_sides(&history, base, args.head.as_deref()) {
            Ok(sides) => sides,
            Err(error) => return history_error(&error),
        }
    } else {
        let [old, new] = args.dirs.as_slice() else {
            terminal::error("--dirs takes two folders: OLD NEW");
            return ExitCode::from(EXIT_USAGE);
        };
        for dir in [old, new] {
            if !dir.is_dir() {
                terminal::error(&format!("not a folder: {}", display_path(dir)));
                return ExitCode::from(EXIT_USAGE);
            }
        }
        (DiffSide::Folder(old.clone()), DiffSide::Folder(new.clone()))
    };
    // Two revisions that share their configuration: the second side is made from the first's
    // lint where only some files changed; whatever that cannot do is linted afresh below.
    let (old_built, new_built) = match (&old, &new) {
        (DiffSide::Revision(history, base), DiffSide::Revision(_, head)) => {
            history.sides(base, head, args.isolated, args.threads)
        }
        _ => (None, None),
    };
    let (Some(old_side), Some(new_side)) = (
        old_built.or_else(|| load_side(&old, args.isolated, args.threads)),
        new_built.or_else(|| load_side(&new, args.isolated, args.threads)),
    ) else {
        return ExitCode::from(EXIT_USAGE);
    };
    // The configurations below each side's root: a lint of their folder reads them (none are
    // read with --isolated, as no configuration is).
    let (mut old_side, mut new_side) = (old_side, new_side);
    if !args.isolated {
        for (side, built) in [(&old, &mut old_side), (&new, &mut new_side)] {
            built.nested = match side {
                DiffSide::Folder(dir) | DiffSide::WorkTree(dir) => {
                    skilllint::diff::side::nested_configs_on_disk(dir)
                }
                DiffSide::Revision(history, revision) => match history.nested_configs(revision) {
                    Ok(nested) => nested,
                    Err(error) => return history_error(&error),
                },
            };
        }
    }
    // The rules that read the disk do not run on a revision: their findings on the other side
    // would read as fixed or new.
    let (old_side, new_side) = if args.base.is_some() {
        let disk_only = skilllint::history::DISK_ONLY_RULES;
        (
            old_side.without_rules(disk_only),
            new_side.without_rules(disk_only),
        )
    } else {
        (old_side, new_side)
    };
    let mut diff = skilllint::diff::diff_sides(&old_side, &new_side);
    if args.base.is_some() {
        diff.revisions = Some(skilllint::diff::Revisions {
            base: old.revision_side(),
            head: new.revision_side(),
        });
    }
    let text = match args.format {
        cli::InventoryFormat::Full => skilllint::diff::render::diff_full(&diff),
        cli::InventoryFormat::Json => skilllint::diff::render::diff_json(&diff),
        cli::InventoryFormat::Markdown => skilllint::diff::render::diff_markdown(&diff),
    };
    let code = if diff.widens() && !args.exit_zero {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::SUCCESS
    };
    emit(args.output.as_deref(), &text, code)
}

/// One side of a diff: a folder read as a lint reads it, or a git revision read from the
/// repository's objects.
enum DiffSide<'a> {
    Folder(PathBuf),
    /// The work tree of a repository: its folder, read as a lint reads it.
    WorkTree(PathBuf),
    Revision(
        &'a skilllint::history::Repository,
        skilllint::history::Revision,
    ),
}

impl DiffSide<'_> {
    fn revision_side(&self) -> skilllint::diff::RevisionSide {
        match self {
            DiffSide::Folder(_) | DiffSide::WorkTree(_) => skilllint::diff::RevisionSide {
                name: None,
                commit: None,
            },
            DiffSide::Revision(_, revision) => skilllint::diff::RevisionSide {
                name: Some(revision.name.clone()),
                commit: revision.commit.clone(),
            },
        }
    }
}

/// BASE, and HEAD or else the work tree (a bare repository has none: HEAD must be named).
fn revision_sides<'a>(
    history: &'a skilllint::history::Repository,
    base: &str,
    head: Option<&str>,
) -> Result<(DiffSide<'a>, DiffSide<'a>), skilllint::history::Error> {
    let base = DiffSide::Revision(history, history.revision(base)?);
    let head = match head {
        Some(head) => DiffSide::Revision(history, history.revision(head)?),
        None => match history.work_tree() {
            Some(dir) => DiffSide::WorkTree(dir.to_path_buf()),
            None => {
                return Err(skilllint::history::Error::Open(
                    "the repository is bare: it has no work tree to compare with; name the \
                     revision after the change too (skilllint diff BASE HEAD)"
                        .to_string(),
                ))
            }
        },
    };
    Ok((base, head))
}

/// One side of a diff, linted and inventoried with that side's own configuration (none when
/// `isolated`). A bad configuration or an unreadable revision is reported here; the caller
/// exits 2.
fn load_side(
    side: &DiffSide<'_>,
    isolated: bool,
    threads: Option<usize>,
) -> Option<skilllint::diff::side::Side> {
    match side {
        DiffSide::Folder(dir) | DiffSide::WorkTree(dir) => load_folder_side(dir, isolated, threads),
        DiffSide::Revision(history, revision) => match history.side(revision, isolated, threads) {
            Ok(side) => Some(side),
            Err(error) => {
                history_error(&error);
                None
            }
        },
    }
}

/// Reports why a revision could not be read; exit 2.
fn history_error(error: &skilllint::history::Error) -> ExitCode {
    use skilllint::history::Error;
    match error {
        Error::Config(error) => report_config_error(error, ColorChoice::Auto),
        Error::Policy(error) => {
            report_setup_error(&SetupError::Policy(error.clone()), ColorChoice::Auto)
        }
        Error::Open(message) | Error::Revision(message) | Error::Read(message) => {
            terminal::error(message);
        }
    }
    ExitCode::from(EXIT_USAGE)
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
            let hint = skilllint::triage::selection::suggest(catalog, code)
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

/// Whether what goes to standard error is drawn in colour under `choice`.
fn stderr_color(choice: ColorChoice) -> bool {
    terminal::stderr_color(choice)
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

/// `--config` values: at most one file, and `KEY=VALUE` settings (a value with `=` that names
/// no file).
fn split_config_args(values: &[String]) -> Result<(Option<PathBuf>, Vec<String>), String> {
    let mut file: Option<PathBuf> = None;
    let mut overrides = Vec::new();
    for value in values {
        if value.contains('=') && !Path::new(value).is_file() {
            overrides.push(value.clone());
        } else if let Some(first) = &file {
            return Err(format!(
                "--config names two files ({} and {}); give one, and settings as KEY=VALUE",
                display_path(first),
                escape_text(value)
            ));
        } else {
            file = Some(PathBuf::from(value));
        }
    }
    Ok((file, overrides))
}

/// The configuration in force (`--config FILE`, else the nearest skilllint.toml, unless
/// isolated, then the `--config KEY=VALUE` settings) and the policies, whose rules the
/// configuration may name. A config file is read under the command line's size cap (or the
/// default): the file cannot raise its own cap before it is read.
fn load_config(
    args: &cli::LintArgs,
    start: &std::path::Path,
    file: Option<&Path>,
    overrides: &[String],
) -> Result<(Config, PolicySet), SetupError> {
    let path = config_path(file, args.isolated, start).map_err(SetupError::Config)?;
    let cap = args
        .max_file_size
        .unwrap_or(skilllint::engine::DEFAULT_MAX_FILE_SIZE);
    let named = file.is_some();
    let policies = load_policies(
        path.as_deref(),
        named,
        start,
        args.isolated,
        &args.policies,
        cap,
    )?;
    let mut config = match path {
        Some(path) => config::load(&path, policies.catalog(), cap).map_err(SetupError::Config)?,
        None => Config::default(),
    };
    if !overrides.is_empty() {
        config = config::apply_overrides(config, overrides, Path::new("."), policies.catalog())
            .map_err(SetupError::Config)?;
    }
    Ok((config, policies))
}

/// The run's baseline file, and where it may be written.
struct BaselineFile {
    path: PathBuf,
    /// For the configuration's baseline, the canonical folder of the configuration: the file is
    /// the repository's, read and written only inside it. `None` for `--baseline FILE`, the
    /// user's own choice, written as `-o` is.
    confined_to: Option<PathBuf>,
}

/// Where the run's baseline file is: `--baseline FILE`, else the configuration's `baseline`.
/// The configuration is the repository's: the file it names must be inside the configuration's
/// folder, its folder and a link at its name resolving there (a link out, or a link to nothing,
/// is refused: `--add-noqa` would create the file wherever it points), where `--baseline` may
/// name any file. The configuration itself refused an absolute path or one with `..`.
fn baseline_path(args: &cli::LintArgs, config: &Config) -> Result<Option<BaselineFile>, String> {
    if let Some(path) = &args.baseline {
        return Ok(Some(BaselineFile {
            path: path.clone(),
            confined_to: None,
        }));
    }
    let Some(path) = &config.baseline else {
        return Ok(None);
    };
    let refused = |why: &str| {
        format!(
            "the configuration's baseline {} {why}; it was not read (name it with --baseline to use it)",
            display_path(path)
        )
    };
    let folder = config.base.canonicalize().map_err(|error| {
        refused(&format!(
            "cannot be checked: the configuration's folder cannot be resolved ({error})"
        ))
    })?;
    fix::confined_target(path, &folder).map_err(refused)?;
    Ok(Some(BaselineFile {
        path: path.clone(),
        confined_to: Some(folder),
    }))
}

/// The text read from standard input for `-`, bounded by the size cap.
fn read_stdin(cap: u64) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "standard input is over the {cap} byte size limit (--max-file-size sets the limit)"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "standard input is not valid UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// `-` as the one path: standard input, linted as `--stdin-filename PATH`.
struct Stdin {
    path: PathBuf,
    text: String,
}

fn run_lint(args: cli::LintArgs) -> ExitCode {
    let fail_usage = |message: &str| {
        terminal::error(message);
        ExitCode::from(EXIT_USAGE)
    };
    for (flag, path) in [
        ("-o/--output", args.output.as_deref()),
        ("--write-baseline", args.write_baseline.as_deref()),
    ] {
        if let Some(reason) = path.and_then(fix::output_path_refused) {
            return fail_usage(&format!(
                "{flag} {}: {reason}",
                display_path(path.unwrap_or(Path::new("")))
            ));
        }
    }
    let mut options = LintOptions::default();
    if !args.paths.is_empty() {
        options.paths = args.paths.clone();
    }
    let stdin_named = args.paths.iter().any(|p| p.as_os_str() == "-");
    let stdin = match (stdin_named, &args.stdin_filename) {
        (false, None) => None,
        (false, Some(_)) => {
            return fail_usage(
                "--stdin-filename names what standard input is: give `-` as the path to read it",
            );
        }
        (true, None) => {
            return fail_usage("reading standard input (`-`) needs --stdin-filename PATH: the name says which kind of file it is and where its folder is");
        }
        (true, Some(_)) if args.paths.len() > 1 => {
            return fail_usage("`-` (standard input) is linted alone: name no other path with it");
        }
        (true, Some(path)) => {
            let cap = args
                .max_file_size
                .unwrap_or(skilllint::engine::DEFAULT_MAX_FILE_SIZE);
            match read_stdin(cap) {
                Ok(text) => Some(Stdin {
                    path: path.clone(),
                    text,
                }),
                Err(message) => return fail_usage(&message),
            }
        }
    };
    if let Some(stdin) = &stdin {
        options.paths = vec![stdin.path.clone()];
    }
    let (config_file, overrides) = match split_config_args(&args.config) {
        Ok(split) => split,
        Err(message) => return fail_usage(&message),
    };
    if args.isolated && config_file.is_some() {
        return fail_usage("--isolated ignores every configuration file: it cannot be used with --config FILE (settings as KEY=VALUE still apply)");
    }
    let start = skilllint::engine::lint_root(&options.paths);
    let (mut config, policies) =
        match load_config(&args, &start, config_file.as_deref(), &overrides) {
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
    // `--extend-select` adds to whatever the selection is, the default included.
    if !args.extend_select.is_empty() {
        if options.select.is_empty() {
            options.select = skilllint::triage::selection::DEFAULT_SELECT
                .iter()
                .map(|s| s.to_string())
                .collect();
        }
        options.select.extend(args.extend_select.iter().cloned());
        // A rule named here runs even if the file's `ignore` names it.
        options.ignore.retain(|ignored| {
            !args
                .extend_select
                .iter()
                .any(|s| s.eq_ignore_ascii_case(ignored))
        });
    }
    options.ignore.extend(args.ignore.iter().cloned());
    options.threads = args.threads;
    if let Some(cap) = args.max_file_size {
        options.max_file_size = cap;
    }
    options.inline_ignores = !args.no_inline_ignores;
    options.force_exclude = args.force_exclude;
    // CLI globs are relative to the current folder, config globs to the config file.
    options.exclude_here = config
        .exclude_from_cwd
        .iter()
        .chain(&args.exclude)
        .map(|glob| glob.trim_start_matches("./").to_string())
        .collect();
    if let Some(stdin) = &stdin {
        if stdin.path.is_file() {
            let mut overlay = options.overlay.as_ref().clone();
            overlay.insert(stdin.path.clone(), stdin.text.clone());
            options.overlay = Arc::new(overlay);
        }
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let baseline_file = match baseline_path(&args, &config) {
        Ok(path) => path,
        Err(message) => return fail_usage(&message),
    };
    // `--add-noqa` may be the run that creates the baseline; `--write-baseline` reads the old
    // one only for its notes.
    let baseline = match (&args.write_baseline, &baseline_file) {
        (Some(path), _) => Some(path.clone()),
        (None, file) => file.as_ref().map(|file| file.path.clone()),
    };
    let loaded_baseline = match &baseline {
        Some(path) if !path.exists() && (args.add_noqa || args.write_baseline.is_some()) => {
            Some(skilllint::triage::baseline::Baseline::empty(path, &cwd))
        }
        Some(path) => match skilllint::triage::baseline::Baseline::load(
            path,
            &cwd,
            options.max_file_size,
            options.catalog(),
        ) {
            Ok(baseline) => Some(baseline),
            Err(error) => {
                eprint!(
                    "{}",
                    render::full::baseline_error(&error, stderr_color(args.color))
                );
                return ExitCode::from(EXIT_USAGE);
            }
        },
        None => None,
    };
    let loaded_baseline = loaded_baseline.map(Arc::new);
    if args.write_baseline.is_none() {
        options.baseline = loaded_baseline.clone();
    }
    if args.show_settings {
        let text = report::settings(&options, &config, &overrides, &args, &cwd);
        return print_to_stdout(&text);
    }
    let format = match args.format {
        OutputFormat::Full => Format::Full,
        OutputFormat::Concise => Format::Concise,
        OutputFormat::Json => Format::Json,
        OutputFormat::Github => Format::Github,
        OutputFormat::Sarif => Format::Sarif,
    };
    let policies_for_failure = options.policies.clone();
    let fail = |error: skilllint::LintError| {
        terminal::error(&escape_text(&error.to_string()));
        // Code scanning still gets a log that says why the run did not happen.
        if format == Format::Sarif {
            let catalog = match policies_for_failure.as_deref() {
                Some(set) => set.catalog(),
                None => skilllint::catalog::catalog(),
            };
            let log = render::sarif::render_failure(catalog, &error.to_string());
            if let Err(error) = write_report(args.output.as_deref(), &log, &[]) {
                terminal::error(&error.describe("the report"));
            }
        }
        ExitCode::from(EXIT_USAGE)
    };
    // Standard input under a name no file has: linted alone, in memory.
    let in_memory = stdin.as_ref().filter(|s| !s.path.is_file());
    if let (Some(stdin), true) = (in_memory, args.fix || args.diff || args.add_noqa) {
        let _ = stdin;
        return fail_usage("--fix, --diff and --add-noqa on standard input need --stdin-filename to name a file that exists (its folder's files are read with it)");
    }
    if let Some(path) = &args.write_baseline {
        let Some(old) = loaded_baseline.as_deref() else {
            return ExitCode::from(EXIT_USAGE);
        };
        let configured = baseline_file.as_ref().map(|file| file.path.clone());
        return write_baseline(&options, path, old, &cwd, &configured, &args).unwrap_or_else(fail);
    }
    if args.add_noqa {
        let confined_to = baseline_file
            .as_ref()
            .and_then(|file| file.confined_to.as_deref());
        return add_noqa(
            &options,
            loaded_baseline.as_deref(),
            confined_to,
            &cwd,
            &args,
        )
        .unwrap_or_else(fail);
    }
    let mut fixed_line = None;
    let mut fixes_shown = None;
    let mut fixed_any = false;
    let mut write_failed = false;
    if args.fix || args.diff {
        let (outcome, mut run) = match fix::fix(&options, args.unsafe_fixes) {
            Ok(result) => result,
            Err(error) => return fail(error),
        };
        for (path, rule, why) in &run.refused {
            terminal::warning(&format!(
                "{rule} fix not applied to {}: {}",
                report::shown(&cwd, &outcome, path),
                escape_text(why)
            ));
        }
        if args.show_fixes {
            fixes_shown = Some(report::fixes_applied(
                &run,
                &cwd,
                args.diff,
                options.catalog(),
            ));
        }
        if let Some(stdin) = stdin.as_ref().filter(|_| args.fix) {
            // `-` with --fix: the fixed text goes to standard output, the report to standard
            // error, and nothing is written.
            let fixed = run
                .changed
                .get(&stdin.path)
                .map_or(stdin.text.as_str(), |(_, fixed)| fixed.as_str());
            let printed = print_to_stdout(fixed);
            let mut report = String::new();
            // Gathering into a string cannot fail.
            let _ = render_report(
                &args,
                format,
                &outcome,
                &cwd,
                options.catalog(),
                &mut |piece| {
                    report.push_str(piece);
                    Ok(())
                },
            );
            eprint!("{report}");
            std::mem::forget(outcome);
            return printed;
        }
        if args.diff {
            // Paths in the diff open from the current folder, as `git apply` reads them.
            for (path, rel) in run.rel_paths.iter_mut() {
                *rel = report::shown_of(&cwd, path);
            }
            let diff = fix::diff(&run);
            if let Err(error) = write_report(args.output.as_deref(), &diff, &outcome.repo.files) {
                terminal::error(&error.describe("the diff"));
                return ExitCode::from(EXIT_USAGE);
            }
            if let Some(text) = &fixes_shown {
                eprint!("{text}");
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
            terminal::error(&format!(
                "{} not fixed: {}",
                report::shown(&cwd, &outcome, path),
                escape_text(&why.to_string())
            ));
        }
        write_failed = !applied.not_fixed.is_empty();
        fixed_any = applied.findings > 0;
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
    let linted = match in_memory {
        Some(stdin) => {
            let name = skilllint::discover::relative_path(Path::new("."), &stdin.path);
            skilllint::engine::lint_in_memory(&options, vec![(name, stdin.text.clone())])
        }
        None => lint(&options),
    };
    let outcome = match linted {
        Ok(outcome) => outcome,
        Err(error) => return fail(error),
    };
    if args.show_files {
        let shown = report::shown_paths(&outcome, &cwd, Format::Full);
        let mut text = String::new();
        for path in shown.iter().take(outcome.repo.files.len()) {
            text.push_str(path);
            text.push('\n');
        }
        return print_to_stdout(&text);
    }
    if args.show_fixes && fixes_shown.is_none() {
        fixes_shown = Some(report::fixes_available(&outcome, &cwd, options.catalog()));
    }
    let written = if args.statistics {
        let counts = render::statistics::count(&outcome.diagnostics, options.catalog());
        let report = match format {
            Format::Json => render::statistics::json(&counts),
            _ => render::statistics::text(&counts),
        };
        write_report(args.output.as_deref(), &report, &outcome.repo.files)
    } else {
        write_report_with(args.output.as_deref(), &outcome.repo.files, |emit| {
            render_report(&args, format, &outcome, &cwd, options.catalog(), emit)
        })
    };
    if let Err(error) = written {
        // A closed pipe (`skilllint . | head`) is not a failure of the lint.
        if error.error.kind() != std::io::ErrorKind::BrokenPipe {
            terminal::error(&error.describe("the report"));
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if let Some(text) = &fixes_shown {
        eprint!("{text}");
    }
    if !args.quiet {
        if let Some(line) = &fixed_line {
            eprintln!("{line}");
        }
        for line in report::summary(&outcome, &options, &cwd) {
            eprintln!("{line}");
        }
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
    } else if (failing || fixed_any && args.exit_non_zero_on_fix) && !args.exit_zero {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}

/// The findings in `format`, with paths as that format shows them and colour when standard
/// output (not `-o`) is a terminal or the environment forces it, handed to `emit` as drawn.
fn render_report(
    args: &cli::LintArgs,
    format: Format,
    outcome: &skilllint::LintOutcome,
    cwd: &Path,
    catalog: &Catalog,
    emit: &mut render::Emit<'_>,
) -> std::io::Result<()> {
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = terminal::ColorEnv::from_env().decide(args.color, to_terminal);
    let shown = report::shown_paths_of_findings(outcome, cwd, format);
    let input = render::Input {
        sources: outcome.sources().with_shown(&shown),
        diagnostics: &outcome.diagnostics,
        suppressed: &outcome.suppressed,
        root: &outcome.root,
        catalog,
    };
    // Drawing runs in parallel too, on rayon's global pool (the lint has its own): on as many
    // threads as the lint when `--threads` says. The first use fixes the pool's size, and the
    // report is its first use.
    if let Some(threads) = args.threads {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build_global();
    }
    render::render_into(format, &input, color, emit)
}

/// `--write-baseline FILE`: every finding of a run without the baseline, written to FILE with the
/// notes of the old entries that still match.
fn write_baseline(
    options: &LintOptions,
    path: &Path,
    old: &skilllint::triage::baseline::Baseline,
    cwd: &Path,
    configured: &Option<PathBuf>,
    args: &cli::LintArgs,
) -> Result<ExitCode, skilllint::LintError> {
    let outcome = lint(options)?;
    let findings: Vec<&skilllint::diagnostic::Diagnostic> = outcome.diagnostics.iter().collect();
    let (text, written) =
        skilllint::triage::baseline::write(&findings, outcome.sources(), old, cwd);
    if let Err(error) = write_report(Some(path), &text, &outcome.repo.files) {
        terminal::error(&error.describe("the baseline"));
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    if !args.quiet {
        eprintln!("{}", report::written(path, &written));
        let read = configured.as_deref().is_some_and(|c| same_file(c, path));
        if !read {
            terminal::note(&format!(
                "runs read it with `--baseline {0}`, or with `baseline = \"{0}\"` under [lint] in skilllint.toml",
                display_path(path)
            ));
        }
    }
    std::mem::forget(outcome);
    Ok(ExitCode::SUCCESS)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `--add-noqa`: a comment for every finding that can take one; the others go to the baseline
/// when the run has one (`--baseline FILE`, `[lint] baseline`). The configuration's baseline is
/// written only inside `confined_to`, the configuration's folder.
fn add_noqa(
    options: &LintOptions,
    baseline: Option<&skilllint::triage::baseline::Baseline>,
    confined_to: Option<&Path>,
    cwd: &Path,
    args: &cli::LintArgs,
) -> Result<ExitCode, skilllint::LintError> {
    let (after, run) = fix::noqa::add_noqa(options)?;
    let start = skilllint::engine::lint_root(&options.paths);
    let applied = fix::apply(&run.files, &fix::WriteScope::new(&start));
    let mut failed = false;
    for (path, why) in &applied.not_fixed {
        terminal::error(&format!(
            "{} not commented: {}",
            report::shown(cwd, &after, path),
            escape_text(&why.to_string())
        ));
        failed = true;
    }
    for path in &run.left_as_they_were {
        terminal::note(&format!(
            "{} left as it was: a comment there would not silence its findings",
            report::shown(cwd, &after, path)
        ));
    }
    let left = fix::noqa::for_the_baseline(&after);
    // The suppressed findings in order, each of `left` looked up among those with its sort key
    // (a scan of all of them per finding was quadratic under a large baseline).
    let mut suppressed: Vec<&skilllint::diagnostic::Diagnostic> =
        after.suppressed.iter().map(|s| &s.diagnostic).collect();
    suppressed.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let new_left = left
        .iter()
        .filter(|d| {
            let from = suppressed.partition_point(|s| s.sort_key() < d.sort_key());
            !suppressed[from..]
                .iter()
                .take_while(|s| s.sort_key() == d.sort_key())
                .any(|s| s == *d)
        })
        .count();
    let mut lines = vec![format!(
        "Added {} suppression {} for {} {} in {} {}.",
        run.comments,
        if run.comments == 1 {
            "comment"
        } else {
            "comments"
        },
        run.silenced,
        if run.silenced == 1 {
            "finding"
        } else {
            "findings"
        },
        applied.fixed.len(),
        if applied.fixed.len() == 1 {
            "file"
        } else {
            "files"
        },
    )];
    match baseline {
        Some(baseline) if new_left > 0 || !baseline.entries.is_empty() => {
            let (text, written) =
                skilllint::triage::baseline::write(&left, after.sources(), baseline, cwd);
            let saved = match confined_to {
                Some(root) => write_confined(&baseline.path, root, &text, &after.repo.files),
                None => write_report(Some(&baseline.path), &text, &after.repo.files),
            };
            if let Err(error) = saved {
                terminal::error(&error.describe("the baseline"));
                return Ok(ExitCode::from(EXIT_USAGE));
            }
            lines.push(report::written(&baseline.path, &written));
        }
        Some(_) => {}
        None if new_left > 0 => terminal::note(&format!(
            "{new_left} {} left without a comment (JSON has none, and some places cannot hold one): record {} with `skilllint --add-noqa --baseline skilllint-baseline.json`",
            if new_left == 1 { "finding is" } else { "findings are" },
            if new_left == 1 { "it" } else { "them" },
        )),
        None => {}
    }
    if !args.quiet {
        for line in lines {
            eprintln!("{line}");
        }
    }
    std::mem::forget(after);
    Ok(if failed {
        ExitCode::from(EXIT_USAGE)
    } else {
        ExitCode::SUCCESS
    })
}
