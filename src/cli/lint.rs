//! `skilllint [PATH]...`: the lint, with its fixes, its report in the chosen format, the
//! summary on standard error and the exit code.

use super::baseline::{add_noqa, write_baseline};
use super::flags::{self, FailOn, OutputFormat};
use super::output::{print_to_stdout, write_report, write_report_with};
use super::summary;
use super::terminal::{self, report_setup_error};
use super::{EXIT_FINDINGS, EXIT_USAGE};
use skilllint::catalog::Catalog;
use skilllint::config::Config;
use skilllint::diagnostic::Severity;
use skilllint::escape::{display_path, escape_text};
use skilllint::fix;
use skilllint::output_file;
use skilllint::render::{self, Format};
use skilllint::LintOptions;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// `--config` values: at most one file, and `KEY=VALUE` settings (a value with `=` that names
/// no file).
pub(crate) fn split_config_args(
    values: &[String],
) -> Result<(Option<PathBuf>, Vec<String>), String> {
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

/// The run's baseline file, and where it may be written.
pub(crate) struct BaselineFile {
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
pub(crate) fn baseline_path(
    args: &flags::LintArgs,
    config: &Config,
) -> Result<Option<BaselineFile>, String> {
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
    output_file::confined_target(path, &folder).map_err(refused)?;
    Ok(Some(BaselineFile {
        path: path.clone(),
        confined_to: Some(folder),
    }))
}

/// The text read from standard input for `-`, bounded by the size cap.
pub(crate) fn read_stdin(cap: u64) -> Result<String, String> {
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
pub(crate) struct Stdin {
    path: PathBuf,
    text: String,
}

/// `skilllint [PATH]...`: set up the run, then the baseline commands, the fixes, the report.
pub(crate) fn run_lint(args: flags::LintArgs) -> ExitCode {
    let mut run = match set_up(&args) {
        Ok(run) => run,
        Err(code) => return code,
    };
    if args.show_settings {
        let text = summary::settings(&run.options, &run.config, &run.overrides, &args, &run.cwd);
        return print_to_stdout(&text);
    }
    let format = match args.format {
        OutputFormat::Full => Format::Full,
        OutputFormat::Concise => Format::Concise,
        OutputFormat::Json => Format::Json,
        OutputFormat::Github => Format::Github,
        OutputFormat::Sarif => Format::Sarif,
        OutputFormat::Gitlab => Format::Gitlab,
        OutputFormat::Junit => Format::Junit,
    };
    let fail = |error: skilllint::LintError| failed(&args, format, &run.options, error);
    // Standard input under a name no file has: linted alone, in memory.
    let in_memory = run.stdin.as_ref().is_some_and(|s| !s.path.is_file());
    if in_memory && (args.fix || args.diff || args.add_noqa) {
        return usage_error("--fix, --diff and --add-noqa on standard input need --stdin-filename to name a file that exists (its folder's files are read with it)");
    }
    if let Some(path) = &args.write_baseline {
        let Some(old) = run.loaded_baseline.as_deref() else {
            return ExitCode::from(EXIT_USAGE);
        };
        let configured = run.baseline_file.as_ref().map(|file| file.path.clone());
        return write_baseline(&run.options, path, old, &run.cwd, &configured, &args)
            .unwrap_or_else(fail);
    }
    if args.add_noqa {
        let confined_to = run
            .baseline_file
            .as_ref()
            .and_then(|file| file.confined_to.as_deref());
        let baseline = run.loaded_baseline.as_deref();
        return add_noqa(&run.options, baseline, confined_to, &run.cwd, &args).unwrap_or_else(fail);
    }
    let mut fixed = Fixed::default();
    if args.fix || args.diff {
        match fix_files(&args, format, &mut run) {
            Ok(FixStep::Done(code)) => return code,
            Ok(FixStep::Fixed(done)) => fixed = done,
            Err(error) => return failed(&args, format, &run.options, error),
        }
    }
    let linted = match run.stdin.as_ref().filter(|_| in_memory) {
        Some(stdin) => {
            let name = skilllint::discover::relative_path(Path::new("."), &stdin.path);
            skilllint::engine::lint_in_memory(&run.options, vec![(name, stdin.text.clone())])
        }
        None => skilllint::lock::lint(&run.options),
    };
    match linted {
        Ok(outcome) => report(&args, format, &run, outcome, fixed),
        Err(error) => failed(&args, format, &run.options, error),
    }
}

fn usage_error(message: &str) -> ExitCode {
    terminal::error(message);
    ExitCode::from(EXIT_USAGE)
}

/// A run that could not happen: said on standard error, and for code scanning a SARIF log that
/// says why.
fn failed(
    args: &flags::LintArgs,
    format: Format,
    options: &LintOptions,
    error: skilllint::LintError,
) -> ExitCode {
    match &error {
        // A configuration below the root is shown as the run's own is.
        skilllint::LintError::Config(file_error) => {
            terminal::report_config_error(file_error, args.color)
        }
        _ => terminal::error(&escape_text(&error.to_string())),
    }
    if format == Format::Sarif && args.writes_report() {
        let log = render::sarif::render_failure(options.catalog(), &error.to_string());
        if let Err(error) = write_report(args.output.as_deref(), &log, &[]) {
            terminal::error(&error.describe("the report"));
        }
    }
    ExitCode::from(EXIT_USAGE)
}

/// What a lint run is set up with before anything is linted.
struct LintRun {
    options: LintOptions,
    config: Config,
    /// The `--config KEY=VALUE` settings.
    overrides: Vec<String>,
    stdin: Option<Stdin>,
    baseline_file: Option<BaselineFile>,
    loaded_baseline: Option<Arc<skilllint::triage::baseline::Baseline>>,
    cwd: PathBuf,
    /// The folder fixes are written inside.
    start: PathBuf,
}

/// The flags checked, standard input read, the configuration and policies loaded, the options
/// made of them and the flags, and the baseline loaded; a problem is reported here and its exit
/// code returned.
fn set_up(args: &flags::LintArgs) -> Result<LintRun, ExitCode> {
    for (flag, path) in [
        ("-o/--output", args.output.as_deref()),
        ("--write-baseline", args.write_baseline.as_deref()),
    ] {
        if let Some(reason) = path.and_then(output_file::output_path_refused) {
            return Err(usage_error(&format!(
                "{flag} {}: {reason}",
                display_path(path.unwrap_or(Path::new("")))
            )));
        }
    }
    let stdin = stdin_of(args).map_err(|message| usage_error(&message))?;
    let mut paths = match &stdin {
        Some(stdin) => vec![stdin.path.clone()],
        None => args.paths.clone(),
    };
    if paths.is_empty() {
        paths = skilllint::settings::options(None, None).paths;
    }
    let (config_file, overrides) =
        split_config_args(&args.config).map_err(|message| usage_error(&message))?;
    if args.isolated && config_file.is_some() {
        return Err(usage_error("--isolated ignores every configuration file: it cannot be used with --config FILE (settings as KEY=VALUE still apply)"));
    }
    let start = skilllint::settings::lint_root(&paths);
    let source = skilllint::settings::ConfigSource {
        file: config_file.as_deref(),
        overrides: &overrides,
        isolated: args.isolated,
        policies: &args.policies,
        cap: args
            .max_file_size
            .unwrap_or(skilllint::settings::DEFAULT_MAX_FILE_SIZE),
    };
    let (config, policies) =
        skilllint::settings::load_config(&start, &source).map_err(|error| {
            report_setup_error(&error, args.color);
            ExitCode::from(EXIT_USAGE)
        })?;
    let policies = (!policies.is_empty()).then(|| Arc::new(policies));
    let mut options = skilllint::settings::options(Some(&config), policies);
    options.paths = paths;
    // A configuration named, or none at all, is the whole run's: the ones below are not looked
    // for.
    options.nested_configs = config_file.is_none() && !args.isolated;
    flags_of(args).apply(&mut options, &config);
    if let Some(stdin) = &stdin {
        if stdin.path.is_file() {
            let mut overlay = options.overlay.as_ref().clone();
            overlay.insert(stdin.path.clone(), stdin.text.clone());
            options.overlay = Arc::new(overlay);
        }
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    // Standard input under a name no file has is linted alone; anything else is reported as
    // a lint of the whole repository reports it.
    if stdin.as_ref().is_none_or(|s| s.path.is_file()) {
        skilllint::settings::widen_to_project(&mut options, &cwd);
    }
    let baseline_file = baseline_path(args, &config).map_err(|message| usage_error(&message))?;
    let loaded_baseline = load_baseline(args, &options, baseline_file.as_ref(), &cwd)?;
    if args.write_baseline.is_none() {
        options.baseline = loaded_baseline.clone();
    }
    Ok(LintRun {
        options,
        config,
        overrides,
        stdin,
        baseline_file,
        loaded_baseline,
        cwd,
        start,
    })
}

/// The command line's flags over the configuration, for [`skilllint::settings::Flags::apply`].
fn flags_of(args: &flags::LintArgs) -> skilllint::settings::Flags {
    skilllint::settings::Flags {
        select: args.select.clone(),
        extend_select: args.extend_select.clone(),
        ignore: args.ignore.clone(),
        threads: args.threads,
        max_file_size: args.max_file_size,
        no_inline_ignores: args.no_inline_ignores,
        force_exclude: args.force_exclude,
        exclude: args.exclude.clone(),
    }
}

/// `-` as the one path, read under the size cap; `None` when standard input is not linted.
fn stdin_of(args: &flags::LintArgs) -> Result<Option<Stdin>, String> {
    let stdin_named = args.paths.iter().any(|p| p.as_os_str() == "-");
    match (stdin_named, &args.stdin_filename) {
        (false, None) => Ok(None),
        (false, Some(_)) => Err(
            "--stdin-filename names what standard input is: give `-` as the path to read it"
                .to_string(),
        ),
        (true, None) => Err("reading standard input (`-`) needs --stdin-filename PATH: the name says which kind of file it is and where its folder is".to_string()),
        (true, Some(_)) if args.paths.len() > 1 => {
            Err("`-` (standard input) is linted alone: name no other path with it".to_string())
        }
        (true, Some(path)) => {
            let cap = args
                .max_file_size
                .unwrap_or(skilllint::settings::DEFAULT_MAX_FILE_SIZE);
            read_stdin(cap).map(|text| {
                Some(Stdin {
                    path: path.clone(),
                    text,
                })
            })
        }
    }
}

/// The run's baseline, loaded (`--add-noqa` may be the run that creates it, `--write-baseline`
/// reads the old one only for its notes); a file that cannot be read is reported here.
fn load_baseline(
    args: &flags::LintArgs,
    options: &LintOptions,
    baseline_file: Option<&BaselineFile>,
    cwd: &Path,
) -> Result<Option<Arc<skilllint::triage::baseline::Baseline>>, ExitCode> {
    use skilllint::triage::baseline::Baseline;
    let path = match (&args.write_baseline, baseline_file) {
        (Some(path), _) => path,
        (None, Some(file)) => &file.path,
        (None, None) => return Ok(None),
    };
    if !path.exists() && (args.add_noqa || args.write_baseline.is_some()) {
        return Ok(Some(Arc::new(Baseline::empty(path, cwd))));
    }
    match Baseline::load(path, cwd, options.max_file_size, options.catalog()) {
        Ok(baseline) => Ok(Some(Arc::new(baseline))),
        Err(error) => {
            eprint!(
                "{}",
                render::full::baseline_error(&error, terminal::stderr_color(args.color))
            );
            Err(ExitCode::from(EXIT_USAGE))
        }
    }
}

/// What the fixes did, for the report after the lint.
#[derive(Default)]
struct Fixed {
    /// The line that says how many findings were fixed.
    line: Option<String>,
    /// `--show-fixes`: what was fixed.
    shown: Option<String>,
    any: bool,
    write_failed: bool,
}

/// After the fixes: the run is over (`--diff`, standard input), or the files were fixed and are
/// linted again.
enum FixStep {
    Done(ExitCode),
    Fixed(Fixed),
}

/// `--fix` / `--diff`: the fixes made, then shown as a diff, printed (standard input), or
/// written file by file.
fn fix_files(
    args: &flags::LintArgs,
    format: Format,
    run: &mut LintRun,
) -> Result<FixStep, skilllint::LintError> {
    let (cwd, options) = (&run.cwd, &run.options);
    let (outcome, mut fixes) = fix::fix(options, args.unsafe_fixes)?;
    for (path, rule, why) in fixes.refused.iter().filter(|_| args.says_more()) {
        terminal::warning(&format!(
            "{rule} fix not applied to {}: {}",
            summary::shown(cwd, &outcome, path),
            escape_text(why)
        ));
    }
    let shown = args
        .show_fixes
        .then(|| summary::fixes_applied(&fixes, cwd, args.diff, options.catalog()));
    if let Some(stdin) = run.stdin.as_ref().filter(|_| args.fix) {
        // `-` with --fix: the fixed text goes to standard output, the report to standard
        // error, and nothing is written.
        let fixed = fixes
            .changed
            .get(&stdin.path)
            .map_or(stdin.text.as_str(), |(_, fixed)| fixed.as_str());
        let printed = print_to_stdout(fixed);
        let mut report = String::new();
        // Gathering into a string cannot fail.
        let _ = render_report(
            args,
            format,
            &outcome,
            cwd,
            options.catalog(),
            &mut |piece| {
                report.push_str(piece);
                Ok(())
            },
        );
        // The fixed text is the file, not a report: `--silent` keeps it and drops the report.
        if !args.silent {
            eprint!("{report}");
        }
        std::mem::forget(outcome);
        return Ok(FixStep::Done(printed));
    }
    if args.diff {
        // Paths in the diff open from the current folder, as `git apply` reads them.
        for (path, rel) in fixes.rel_paths.iter_mut() {
            *rel = summary::shown_of(cwd, path);
        }
        let diff = fix::diff(&fixes);
        let written = if args.writes_report() {
            write_report(args.output.as_deref(), &diff, &outcome.repo.files)
        } else {
            Ok(())
        };
        if let Err(error) = written {
            terminal::error(&error.describe("the diff"));
            return Ok(FixStep::Done(ExitCode::from(EXIT_USAGE)));
        }
        if let Some(text) = &shown {
            eprint!("{text}");
        }
        if args.says_more() {
            // What the diff leaves out: the findings whose fix is unsafe, without
            // `--unsafe-fixes` (with it they are in the diff).
            let unsafe_not_shown = if args.unsafe_fixes {
                0
            } else {
                render::Counts::of(&outcome.diagnostics).unsafe_fixable
            };
            eprintln!("{}", fix::diff_summary(&fixes, unsafe_not_shown));
        }
        std::mem::forget(outcome);
        return Ok(FixStep::Done(
            if fixes.changed.is_empty() && fixes.renames.is_empty() || args.exit_zero {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_FINDINGS)
            },
        ));
    }
    // Each file on its own: one that cannot be written leaves the others fixed.
    let scope = fix::WriteScope::new(&run.start);
    let applied = fix::apply(&fixes, &scope);
    for (path, why) in &applied.not_fixed {
        terminal::error(&format!(
            "{} not fixed: {}",
            summary::shown(cwd, &outcome, path),
            escape_text(&why.to_string())
        ));
    }
    // A `skill.md` named on the command line and renamed by its fix is linted again under
    // its new name (the old one is gone).
    for path in &mut run.options.paths {
        if let Some((_, to)) = fixes.renames.iter().find(|(from, _)| from == path) {
            if !path.exists() && to.exists() {
                *path = to.clone();
            }
        }
    }
    Ok(FixStep::Fixed(Fixed {
        line: Some(applied.summary()),
        shown,
        any: applied.findings > 0,
        write_failed: !applied.not_fixed.is_empty(),
    }))
}

/// The lint's report (or `--show-files`, `--statistics`), what it says on standard error, and
/// the exit code.
fn report(
    args: &flags::LintArgs,
    format: Format,
    run: &LintRun,
    outcome: skilllint::LintOutcome,
    mut fixed: Fixed,
) -> ExitCode {
    let (cwd, options) = (&run.cwd, &run.options);
    if args.show_files {
        let shown = summary::shown_paths(&outcome, cwd, Format::Full);
        let mut text = String::new();
        let files = shown.iter().take(outcome.repo.files.len()).enumerate();
        for (_, path) in
            files.filter(|(i, _)| outcome.repo.in_scope(skilllint::source::FileId(*i as u32)))
        {
            text.push_str(path);
            text.push('\n');
        }
        return print_to_stdout(&text);
    }
    if args.show_fixes && fixed.shown.is_none() {
        fixed.shown = Some(summary::fixes_available(&outcome, cwd, options.catalog()));
    }
    let written = if !args.writes_report() {
        Ok(())
    } else if args.statistics {
        let counts = render::statistics::count(&outcome.diagnostics, options.catalog());
        let report = match format {
            Format::Json => render::statistics::json(&counts),
            _ => render::statistics::text(&counts),
        };
        write_report(args.output.as_deref(), &report, &outcome.repo.files)
    } else {
        write_report_with(args.output.as_deref(), &outcome.repo.files, |emit| {
            render_report(args, format, &outcome, cwd, options.catalog(), emit)
        })
    };
    if let Err(error) = written {
        // A closed pipe (`skilllint . | head`) is not a failure of the lint.
        if error.error.kind() != std::io::ErrorKind::BrokenPipe {
            terminal::error(&error.describe("the report"));
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if let Some(text) = &fixed.shown {
        eprint!("{text}");
    }
    if args.says_more() {
        if let Some(line) = &fixed.line {
            eprintln!("{line}");
        }
        for line in summary::summary(&outcome, options, cwd) {
            eprintln!("{line}");
        }
    }
    let threshold = match args.fail_on {
        Some(FailOn::Error) => Severity::Error,
        Some(FailOn::Warning) => Severity::Warning,
        Some(FailOn::Info) => Severity::Info,
        None => run.config.fail_on.unwrap_or(Severity::Error),
    };
    let failing = outcome.diagnostics.iter().any(|d| d.severity >= threshold);
    // The process ends here; freeing every parsed file first would only cost time.
    std::mem::forget(outcome);
    if fixed.write_failed {
        ExitCode::from(EXIT_USAGE)
    } else if (failing || fixed.any && args.exit_non_zero_on_fix) && !args.exit_zero {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}

/// The findings in `format`, with paths as that format shows them and colour when standard
/// output (not `-o`) is a terminal or the environment forces it, handed to `emit` as drawn.
pub(crate) fn render_report(
    args: &flags::LintArgs,
    format: Format,
    outcome: &skilllint::LintOutcome,
    cwd: &Path,
    catalog: &Catalog,
    emit: &mut render::Emit<'_>,
) -> std::io::Result<()> {
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = terminal::ColorEnv::from_env().decide(args.color, to_terminal);
    let shown = summary::shown_paths_of_findings(outcome, cwd, format);
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
