use clap::Parser;
use skilllint::diagnostic::Severity;
use skilllint::render::{self, Format};
use skilllint::rules::registry;
use skilllint::{lint, LintOptions};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

mod cli;

// Parsing many small files is allocation-heavy; mimalloc cut the 5,000-skill benchmark's malloc
// share from about a quarter of all instructions and keeps per-thread heaps from contending.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
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

fn run_lint(args: cli::LintArgs) -> ExitCode {
    let mut options = LintOptions::default();
    if !args.paths.is_empty() {
        options.paths = args.paths.clone();
    }
    options.select = args.select.clone();
    options.ignore = args.ignore.clone();
    options.threads = args.threads;
    let format = match args.format {
        OutputFormat::Full => Format::Full,
        OutputFormat::Concise => Format::Concise,
        OutputFormat::Json => Format::Json,
        OutputFormat::Github => Format::Github,
        OutputFormat::Sarif => Format::Sarif,
    };
    let outcome = match lint(&options) {
        Ok(outcome) => outcome,
        Err(error) => {
            eprintln!("skilllint: {error}");
            // Code scanning still gets a log that says why the run did not happen.
            if format == Format::Sarif {
                let log = render::sarif::render_failure(&error.to_string());
                let _ = write_report(args.output.as_deref(), &log);
            }
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            to_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let report = render::render(
        format,
        &outcome.repo,
        &outcome.diagnostics,
        &outcome.root,
        color,
    );
    if let Err(error) = write_report(args.output.as_deref(), &report) {
        // A closed pipe (`skilllint . | head`) is not a failure of the lint.
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("skilllint: cannot write the report: {error}");
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if !args.quiet {
        eprintln!("{}", render::summary(&outcome.repo, &outcome.diagnostics));
    }
    let threshold = match args.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
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
