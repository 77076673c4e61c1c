use clap::Parser;
use skilllint::config::{self, Config, ConfigError};
use skilllint::diagnostic::Severity;
// Paths and messages on stderr quote the repository: printed escaped, as in the reports.
use skilllint::escape::{display_path, escape_text};
use skilllint::fix;
use skilllint::render::{self, Format};
use skilllint::rules::registry;
use skilllint::{lint, LintOptions};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

mod allocator;
mod cli;

use cli::{Cli, ColorChoice, Command, FailOn, ListFormat, OutputFormat};

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
        Some(Command::Rules { format }) => list_rules(format),
        Some(Command::Rule { code }) => explain_rule(&code),
        None => run_lint(cli.lint),
    }
}

/// Rewrites globs given relative to the current folder so they are relative to `base`.
fn cli_globs(globs: &[String], base: &std::path::Path) -> Vec<String> {
    let prefix = std::env::current_dir()
        .ok()
        .and_then(|cwd| {
            let cwd = cwd.canonicalize().ok()?;
            let base = base.canonicalize().ok()?;
            cwd.strip_prefix(&base)
                .ok()
                .map(|rel| skilllint::discover::relative_path(std::path::Path::new(""), rel))
        })
        .unwrap_or_default();
    globs
        .iter()
        .map(|glob| {
            let glob = glob.trim_start_matches("./");
            if prefix.is_empty() {
                glob.to_string()
            } else {
                format!("{prefix}/{glob}")
            }
        })
        .collect()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn write_report(output: Option<&std::path::Path>, report: &str) -> std::io::Result<()> {
    match output {
        Some(path) => std::fs::write(path, report.as_bytes()),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(report.as_bytes())
                .and_then(|()| stdout.flush())
        }
    }
}

fn list_rules(format: ListFormat) -> ExitCode {
    let registry = registry();
    let text = match format {
        ListFormat::Table => skilllint::render::rules_table(registry),
        ListFormat::Json => skilllint::render::rules_json(registry),
        ListFormat::Markdown => skilllint::render::rules_markdown(registry),
    };
    print!("{text}");
    ExitCode::SUCCESS
}

fn explain_rule(code: &str) -> ExitCode {
    match registry().find(code) {
        Some(rule) => {
            print!("{}", skilllint::render::rule_explanation(&rule.meta));
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("skilllint: no rule is called `{code}`; `skilllint rules` lists them all");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Prints a configuration error with the TOML snippet, pointing at the offending key or value.
fn report_config_error(error: &ConfigError) {
    // The configuration is the repository's: its path, the message quoting it and the snippet
    // are escaped, the label mapped onto the escaped snippet.
    let name = display_path(&error.path).into_owned();
    let message = escape_text(&error.message);
    let report = match &error.span {
        Some(span) => {
            let snippet = skilllint::escape::Snippet::new(&error.text);
            let (start, end) = (snippet.offset(span.start), snippet.offset(span.end));
            miette::miette!(
                labels = vec![miette::LabeledSpan::at(start..end, "here")],
                "invalid configuration: {message}"
            )
            .with_source_code(miette::NamedSource::new(name, snippet.text.into_owned()))
        }
        None => miette::miette!("{name}: {message}"),
    };
    eprintln!("{report:?}");
}

/// The configuration in force: `--config FILE`, else the nearest skilllint.toml, unless isolated.
fn load_config(args: &cli::LintArgs, start: &std::path::Path) -> Result<Config, ConfigError> {
    if args.isolated {
        return Ok(Config::default());
    }
    let path = match &args.config {
        Some(path) => Some(path.clone()),
        None => config::discover(start),
    };
    match path {
        Some(path) => config::load(&path, registry()),
        None => Ok(Config::default()),
    }
}

fn run_lint(args: cli::LintArgs) -> ExitCode {
    let mut options = LintOptions::default();
    if !args.paths.is_empty() {
        options.paths = args.paths.clone();
    }
    let start = skilllint::engine::lint_root(&options.paths);
    let mut config = match load_config(&args, &start) {
        Ok(config) => config,
        Err(error) => {
            report_config_error(&error);
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if config.path.is_none() {
        // Without a file, command-line globs are relative to the current folder.
        config.base = std::path::PathBuf::from(".");
    }
    // Command-line flags override the file: `--select` replaces the file's whole selection
    // (select and ignore), so `skilllint --select SK003` runs SK003 whatever the file says.
    if args.select.is_empty() {
        options.select = config.select.clone().unwrap_or_default();
        options.ignore = config.ignore.clone();
    } else {
        options.select = args.select.clone();
    }
    options.ignore.extend(args.ignore.iter().cloned());
    options.threads = args.threads;
    options.inline_ignores = !args.no_inline_ignores;
    options.glob_base = Some(config.base.clone());
    options.exclude = config.exclude.clone();
    if !args.exclude.is_empty() {
        // CLI globs are relative to the current folder, config globs to the config file: join
        // each CLI glob onto the current folder's path below the config folder.
        options
            .exclude
            .extend(cli_globs(&args.exclude, &config.base));
    }
    options.per_file_ignores = config.per_file_ignores.clone();
    options.severity = config.severity.clone();
    options.settings.skill_extra_fields = config.extra_fields.clone();
    options.settings.contract_map = config.contract_map.clone();
    if let Some(heading) = &config.tool_use_rules_heading {
        options.settings.tool_use_rules_heading = heading.clone();
    }
    if let Some(files) = &config.requirement_files {
        options.requirement_files = files.clone();
    }
    let format = match args.format {
        OutputFormat::Full => Format::Full,
        OutputFormat::Concise => Format::Concise,
        OutputFormat::Json => Format::Json,
        OutputFormat::Github => Format::Github,
        OutputFormat::Sarif => Format::Sarif,
    };
    let fail = |error: skilllint::LintError| {
        eprintln!("skilllint: {}", escape_text(&error.to_string()));
        // Code scanning still gets a log that says why the run did not happen.
        if format == Format::Sarif {
            let log = render::sarif::render_failure(&error.to_string());
            let _ = write_report(args.output.as_deref(), &log);
        }
        ExitCode::from(EXIT_USAGE)
    };
    let mut fixed_line = None;
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
        let rel = |path: &std::path::Path| {
            outcome
                .repo
                .files
                .iter()
                .find(|f| f.abs_path == path)
                .map_or_else(|| path.display().to_string(), |f| f.rel_path.clone())
        };
        if args.diff {
            let mut diff = String::new();
            let mut changes: Vec<(String, &(String, String))> =
                run.changed.iter().map(|(p, c)| (rel(p), c)).collect();
            changes.sort_by(|a, b| a.0.cmp(&b.0));
            for (path, (original, fixed)) in changes {
                diff.push_str(&fix::unified_diff(&path, original, fixed));
            }
            for (from, to) in &run.renames {
                let from_rel = rel(from);
                let to_name = to
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let to_rel = match from_rel.rsplit_once('/') {
                    Some((dir, _)) => format!("{dir}/{to_name}"),
                    None => to_name,
                };
                diff.push_str(&format!("rename from {from_rel}\nrename to {to_rel}\n"));
            }
            if let Err(error) = write_report(args.output.as_deref(), &diff) {
                eprintln!("skilllint: cannot write the diff: {error}");
                return ExitCode::from(EXIT_USAGE);
            }
            if !args.quiet {
                eprintln!(
                    "{} would be fixed ({} in {}).",
                    plural(run.fixed, "finding"),
                    if run.renames.is_empty() {
                        "edits"
                    } else {
                        "edits and renames"
                    },
                    plural(run.changed.len() + run.renames.len(), "file")
                );
            }
            std::mem::forget(outcome);
            return if run.changed.is_empty() && run.renames.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_FINDINGS)
            };
        }
        for (path, (_, fixed)) in &run.changed {
            if let Err(error) = fix::write_atomically(path, fixed) {
                eprintln!("skilllint: cannot write {}: {error}", display_path(path));
                return ExitCode::from(EXIT_USAGE);
            }
        }
        for (from, to) in &run.renames {
            if let Err(error) = std::fs::rename(from, to) {
                eprintln!("skilllint: cannot rename {}: {error}", display_path(from));
                return ExitCode::from(EXIT_USAGE);
            }
        }
        fixed_line = Some(format!("Fixed {}.", plural(run.fixed, "finding")));
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
    let report = render::render(format, &outcome, color);
    if let Err(error) = write_report(args.output.as_deref(), &report) {
        // A closed pipe (`skilllint . | head`) is not a failure of the lint.
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("skilllint: cannot write the report: {error}");
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if !args.quiet {
        if let Some(line) = &fixed_line {
            eprintln!("{line}");
        }
        eprintln!(
            "{}",
            render::summary(
                &outcome.repo,
                &outcome.diagnostics,
                outcome.suppressed.len()
            )
        );
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
    if failing && !args.exit_zero {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}
