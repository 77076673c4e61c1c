//! What the command line prints besides the report: one style for every message on standard
//! error (`error: …`, `warning: …`, `note: …`, as clap and rustc write them), and the one
//! decision of when to draw colour.

use crate::cli::flags::ColorChoice;
use skilllint::file_error::FileError;
use skilllint::render;
use skilllint::settings::SetupError;
use std::io::IsTerminal;

/// What the environment says about colour, read once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColorEnv {
    /// `NO_COLOR` set to anything but the empty string (no-color.org).
    pub no_color: bool,
    /// `FORCE_COLOR` set to anything but the empty string, `0` or `false` (force-color.org and
    /// Node's convention), or `CLICOLOR_FORCE` set to anything but the empty string or `0`.
    pub force: bool,
}

impl ColorEnv {
    pub fn from_env() -> ColorEnv {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        ColorEnv {
            no_color: var("NO_COLOR").is_some(),
            force: var("FORCE_COLOR").is_some_and(|v| v != "0" && v != "false")
                || var("CLICOLOR_FORCE").is_some_and(|v| v != "0"),
        }
    }

    /// Whether to draw colour on a stream: `--color always|never` decide; under `auto`,
    /// `NO_COLOR` turns it off, `FORCE_COLOR` / `CLICOLOR_FORCE` on (a CI log is no terminal but
    /// shows colour), and otherwise only a terminal gets it.
    pub fn decide(self, choice: ColorChoice, is_terminal: bool) -> bool {
        match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !self.no_color && (self.force || is_terminal),
        }
    }
}

/// Whether standard error is drawn in colour under `choice`.
pub fn stderr_color(choice: ColorChoice) -> bool {
    ColorEnv::from_env().decide(choice, std::io::stderr().is_terminal())
}

fn message(level: &str, colour: &str, text: &str, color: bool) -> String {
    if color {
        format!("\x1b[{colour}m{level}\x1b[0m\x1b[1m:\x1b[0m {text}")
    } else {
        format!("{level}: {text}")
    }
}

/// `error: TEXT` on standard error (the text already escaped where it quotes the repository).
pub fn error(text: &str) {
    eprintln!(
        "{}",
        message("error", "1;31", text, stderr_color(ColorChoice::Auto))
    );
}

/// `warning: TEXT` on standard error.
pub fn warning(text: &str) {
    eprintln!(
        "{}",
        message("warning", "1;33", text, stderr_color(ColorChoice::Auto))
    );
}

/// `note: TEXT` on standard error.
pub fn note(text: &str) {
    eprintln!(
        "{}",
        message("note", "1;36", text, stderr_color(ColorChoice::Auto))
    );
}

/// Prints a configuration error on standard error, drawn as diagnostics are.
pub(crate) fn report_config_error(error: &FileError, choice: ColorChoice) {
    eprint!(
        "{}",
        render::full::config_error(error, stderr_color(choice))
    );
}

pub(crate) fn report_setup_error(error: &SetupError, choice: ColorChoice) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_then_no_color_then_force_then_the_terminal() {
        let env = |no_color, force| ColorEnv { no_color, force };
        assert!(env(true, true).decide(ColorChoice::Always, false));
        assert!(!env(false, true).decide(ColorChoice::Never, true));
        assert!(!env(true, true).decide(ColorChoice::Auto, true));
        assert!(env(false, true).decide(ColorChoice::Auto, false));
        assert!(env(false, false).decide(ColorChoice::Auto, true));
        assert!(!env(false, false).decide(ColorChoice::Auto, false));
    }

    #[test]
    fn messages_have_one_shape() {
        assert_eq!(
            message("error", "1;31", "no such file", false),
            "error: no such file"
        );
        assert_eq!(
            message("error", "1;31", "x", true),
            "\x1b[1;31merror\x1b[0m\x1b[1m:\x1b[0m x"
        );
    }
}
