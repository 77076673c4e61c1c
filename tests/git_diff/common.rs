//! What every test of `skilllint diff` over git revisions shares: running skilllint, scratch
//! repositories built with git, and reading the JSON report.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::git_support;

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub(crate) fn skilllint(args: &[&str], cwd: &Path) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("CI_PROJECT_DIR")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output();
    match output {
        Ok(output) => output,
        Err(error) => panic!("cannot run skilllint: {error}"),
    }
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A scratch folder with a git home of its own: no system or user git config reaches the
/// repositories built in it.
pub(crate) struct Scratch {
    pub(crate) dir: tempfile::TempDir,
}

impl Scratch {
    pub(crate) fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("home")).expect("home");
        Scratch { dir }
    }

    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Runs git in `cwd` (relative to the scratch folder); panics when it fails.
    pub(crate) fn git(&self, cwd: &str, args: &[&str]) -> String {
        let output = self.run_git(cwd, args);
        assert!(output.status.success(), "git {args:?}: {output:?}");
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    pub(crate) fn run_git(&self, cwd: &str, args: &[&str]) -> Output {
        git_support::run(&self.path(cwd), &self.path("home"), args, b"")
    }

    /// A repository at `name` with the files of `fixture` (below tests/fixtures) committed.
    pub(crate) fn repo_from(&self, name: &str, fixture: &str) {
        std::fs::create_dir_all(self.path(name)).expect("repo folder");
        self.git(name, &["init", "-q", "."]);
        self.replace_files(name, fixture);
        self.commit(name, "first");
    }

    /// Makes the work tree hold exactly the files of `fixture` (`.git` aside).
    pub(crate) fn replace_files(&self, name: &str, fixture: &str) {
        let root = self.path(name);
        for entry in std::fs::read_dir(&root).expect("repo folder") {
            let path = entry.expect("entry").path();
            if path.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            if path.is_dir() {
                std::fs::remove_dir_all(&path).expect("remove");
            } else {
                std::fs::remove_file(&path).expect("remove");
            }
        }
        copy_tree(&fixtures().join(fixture), &root);
    }

    pub(crate) fn commit(&self, name: &str, message: &str) -> String {
        self.git(name, &["add", "-A"]);
        self.git(name, &["commit", "-q", "--allow-empty", "-m", message]);
        self.git(name, &["rev-parse", "HEAD"])
    }

    pub(crate) fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("folders");
        }
        std::fs::write(path, text).expect("write");
    }
}

pub(crate) fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(from).expect("fixture folder") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

pub(crate) fn changes(report: &Value) -> &Vec<Value> {
    report["changes"].as_array().expect("changes")
}

/// The changes of `kind` to `tool`.
pub(crate) fn of<'a>(report: &'a Value, tool: &str, kind: &str) -> Vec<&'a Value> {
    changes(report)
        .iter()
        .filter(|c| c["tool"] == tool && c["kind"] == kind)
        .collect()
}

pub(crate) fn diff_json(args: &[&str], cwd: &Path) -> (Option<i32>, Value) {
    let mut all = vec!["diff", "--format", "json"];
    all.extend_from_slice(args);
    let output = skilllint(&all, cwd);
    let report = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {output:?}"));
    (output.status.code(), report)
}

/// The 1-based line of the first occurrence of `needle` in `text`.
pub(crate) fn line_of(text: &str, needle: &str) -> u64 {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in the file"));
    text[..offset].matches('\n').count() as u64 + 1
}

impl Scratch {
    /// Writes the file `rel` of the fixture folder `fixture` at `rel` in the folder `into`.
    pub(crate) fn take_fixture_file(&self, into: &str, fixture: &str, rel: &str) {
        let text = std::fs::read_to_string(fixtures().join(fixture).join(rel))
            .unwrap_or_else(|e| panic!("{fixture}/{rel}: {e}"));
        self.write(&format!("{into}/{rel}"), &text);
    }

    /// Runs git with `input` on its standard input; its output, trimmed.
    pub(crate) fn git_with_input(&self, cwd: &str, args: &[&str], input: &str) -> String {
        git_support::git(&self.path(cwd), &self.path("home"), args, input.as_bytes())
    }

    /// A commit of the tree `tree` on top of HEAD, made the branch's head.
    pub(crate) fn commit_tree(&self, cwd: &str, tree: &str) {
        let commit = self.git(cwd, &["commit-tree", tree, "-p", "HEAD", "-m", "crafted"]);
        self.git(cwd, &["update-ref", "HEAD", &commit]);
    }
}
