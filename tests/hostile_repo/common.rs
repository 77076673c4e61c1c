//! Helpers shared by the attack modules: run the real binary in a folder, build files.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// Runs skilllint with extra environment variables and kills it after `limit`, so a regression
/// that hangs fails its test instead of stalling the suite. Output goes to files: a pipe nobody
/// reads while waiting fills up and blocks the child, which would look like a hang.
pub fn skilllint_limited(
    args: &[&str],
    cwd: &Path,
    env: &[(&str, &str)],
    limit: Duration,
) -> Output {
    let capture = tempfile::tempdir().expect("capture dir");
    let out_path = capture.path().join("stdout");
    let err_path = capture.path().join("stderr");
    let mut command = Command::new(env!("CARGO_BIN_EXE_skilllint"));
    command
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"));
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("run skilllint");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll skilllint") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("skilllint {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: std::fs::read(&out_path).expect("read stdout"),
        stderr: std::fs::read(&err_path).expect("read stderr"),
    }
}

/// How a linearity check grows its input, and how much longer the larger run may take: about
/// `factor` for linear work, `factor²` for quadratic.
pub struct Growth {
    pub factor: usize,
    pub limit: u32,
}

/// Lints `root` with `args` and `-o REPORT .` (the report written outside it), returning the
/// least wall time of three runs and the report of the last.
pub fn timed_lint(root: &Path, args: &[&str]) -> (Duration, String) {
    let out = tempfile::tempdir().expect("temp dir");
    let report = out.path().join("report");
    let report_arg = report.to_str().expect("temp path is UTF-8");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["-o", report_arg, "."]);
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let output = skilllint(&all, root);
        best = best.min(start.elapsed());
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "skilllint failed: {}",
            stderr(&output)
        );
    }
    let text = std::fs::read_to_string(&report).expect("report written");
    (best, text)
}

/// Builds the shape at `size` and `growth.factor * size` (each in its own folder), lints both
/// with `args`, asserts the time ratio (a ratio, not a wall time: the machine is shared), and
/// returns both reports for count checks.
pub fn assert_linear(
    shape: &str,
    args: &[&str],
    size: usize,
    growth: Growth,
    build: impl Fn(&Path, usize),
) -> (String, String) {
    let small = tempfile::tempdir().expect("temp dir");
    let large = tempfile::tempdir().expect("temp dir");
    let large_size = growth.factor * size;
    build(small.path(), size);
    build(large.path(), large_size);
    let (small_time, small_report) = timed_lint(small.path(), args);
    let (large_time, large_report) = timed_lint(large.path(), args);
    eprintln!(
        "{shape} ({args:?}): x {small_time:?}, {}x {large_time:?}",
        growth.factor
    );
    assert!(
        large_time < small_time * growth.limit,
        "{shape}: size {size} took {small_time:?}, size {large_size} took {large_time:?}: not linear"
    );
    (small_report, large_report)
}

pub use super::git_support::git;
