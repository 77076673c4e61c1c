//! The skilllint binary run as a user runs it, for the end-to-end tests: no colour, and none of the
//! caller's `SKILLLINT_` variables (a test sets the ones it means). Included by each test crate
//! that needs it (`#[path]`), so it is not a test target of its own.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// The binary run in `cwd` with `args` and the variables of `env`.
pub fn run(args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skilllint"));
    command
        .args(args)
        .current_dir(cwd)
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_WORKSPACE")
        .env("NO_COLOR", "1");
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("SKILLLINT_") {
            command.env_remove(name);
        }
    }
    command.envs(env.iter().copied());
    match command.output() {
        Ok(output) => output,
        Err(error) => panic!("cannot run skilllint: {error}"),
    }
}

/// [`run`] with no variable set.
pub fn skilllint(args: &[&str], cwd: &Path) -> Output {
    run(args, cwd, &[])
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
