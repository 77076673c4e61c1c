//! git for the tests that build repositories (skilllint itself never runs git), isolated from
//! the machine's and the user's configuration: `home` holds its global one. Included by each
//! test crate that needs it (`#[path]`), so it is not a test target of its own.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs git in `cwd` with `input` on its standard input; its output, whatever its status.
pub fn run(cwd: &Path, home: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new("git")
        .args([
            "-c",
            "user.name=skilllint tests",
            "-c",
            "user.email=tests@skilllint.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
            "-c",
            "protocol.file.allow=always",
        ])
        .args(args)
        .current_dir(cwd)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
        .env("HOME", home)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("git runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Written from a thread: git may answer before it has read everything.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("git ends");
    // git may exit without reading its input (a failed command): that is its status's to say.
    let _ = writer.join();
    output
}

/// [`run`], panicking when git fails; its standard output, trimmed.
pub fn git(cwd: &Path, home: &Path, args: &[&str], input: &[u8]) -> String {
    let output = run(cwd, home, args, input);
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}
