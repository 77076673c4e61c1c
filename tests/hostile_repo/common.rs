//! Helpers shared by the attack modules: run the real binary in a folder, build files.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs the skilllint binary with `args` in `cwd`, with no colour and no inherited config.
pub fn skilllint(args: &[&str], cwd: &Path) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output();
    match output {
        Ok(output) => output,
        Err(error) => panic!("cannot run skilllint: {error}"),
    }
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Writes `content` at `root/rel`, creating folders on the way.
pub fn write(root: &Path, rel: &str, content: &[u8]) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, content).expect("write file");
}

/// Whether this process runs as root (permission tests cannot deny root anything).
pub fn running_as_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}
