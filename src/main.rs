//! The `skilllint` command: parses the command line and hands it to one command of [`cli`].

use clap::Parser;
use skilllint::escape::{display_path, escape_text};
use std::path::Path;
use std::process::ExitCode;

mod cli;

use cli::flags::{Cli, Command, PolicyCommand};
use cli::output::print_to_stdout;
use cli::terminal;
use cli::EXIT_USAGE;

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
    forget_empty_variables();
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
    // `check --quiet` and `check --silent` say nothing but the findings, this note included.
    let hushed = matches!(&cli.command, Some(Command::Check(args)) if !args.says_more());
    if cli.command.is_some() && !hushed {
        say_how_a_subcommand_name_was_read();
    }
    match cli.command {
        Some(Command::Rules { format, policies }) => cli::rules::with_policies(&policies, |set| {
            cli::rules::list_rules(set.catalog(), format)
        }),
        Some(Command::Rule { code, policies }) => cli::rules::with_policies(&policies, |set| {
            cli::rules::explain_rule(set.catalog(), &code)
        }),
        Some(Command::Policy {
            command: PolicyCommand::Test { paths, policies },
        }) => cli::rules::test_policies(&paths, &policies),
        Some(Command::GenerateShellCompletion { shell }) => {
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "skilllint", &mut script);
            print_to_stdout(&String::from_utf8_lossy(&script))
        }
        Some(Command::Tools(args)) => cli::tools::run_tools(&args),
        Some(Command::Lock(args)) => cli::lock::run_lock(&args),
        Some(Command::Diff(args)) => cli::diff::run_diff(&args),
        Some(Command::Server { .. }) => match skilllint::server::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                terminal::error(&format!("server: {}", escape_text(&error)));
                ExitCode::from(EXIT_USAGE)
            }
        },
        Some(Command::Check(args)) => cli::lint::run_lint(args),
        None => cli::lint::run_lint(cli.lint),
    }
}

/// `SKILLLINT_OUTPUT=` (set and empty) is taken as unset, as `NO_COLOR=` is: the flag's default
/// applies, where the parser would read an empty value (an output file named "", a
/// configuration file named "").
fn forget_empty_variables() {
    let empty: Vec<_> = std::env::vars_os()
        .filter(|(name, value)| {
            value.is_empty() && name.as_encoded_bytes().starts_with(b"SKILLLINT_")
        })
        .map(|(name, _)| name)
        .collect();
    for name in empty {
        // The process has one thread yet: nothing reads the environment meanwhile.
        std::env::remove_var(name);
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
