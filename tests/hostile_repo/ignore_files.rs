//! Ignore files are repository data: a pull request that adds `.ignore` (`**/tools.json`) or a
//! nested `.gitignore` must not hide the files git tracks. skilllint reads the work tree's
//! `.git/index` itself (running git would run the repository's hooks and fsmonitor) and lints
//! every tracked file it reads, whatever ignore files say; they still hide untracked files.

use super::common::{skilllint, stdout, write};
use std::path::Path;
use std::process::Command;

fn git(root: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .is_ok_and(|out| out.status.success())
}

const SKILL: &str = "---\nname: NAME\ndescription: Keeps NAME. Use when asked.\n---\n\n# NAME\n\nSee [the guide](missing.md).\n";

fn skill(name: &str) -> Vec<u8> {
    SKILL.replace("NAME", name).into_bytes()
}

#[test]
fn ignore_files_added_by_a_pull_request_do_not_hide_tracked_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    if !git(root, &["init", "-q"]) {
        eprintln!("skipped: needs git to build the work tree");
        return;
    }
    write(root, "skills/notes/SKILL.md", &skill("notes"));
    write(
        root,
        "skills/notes/tools.json",
        br#"{"tools": [{"name": "x"}]}"#,
    );
    write(root, "skills/deep/inner/SKILL.md", &skill("inner"));
    assert!(git(root, &["add", "-A"]) && git(root, &["commit", "-qm", "skills"]));
    // The pull request: ignore files over tracked files, and an untracked skill they also hide.
    write(root, ".ignore", b"**/tools.json\n");
    write(root, "skills/deep/.gitignore", b"inner/\n");
    write(root, "skills/.gitignore", b"scratch/\n");
    write(root, "skills/scratch/SKILL.md", &skill("scratch"));
    assert!(git(
        root,
        &[
            "add",
            ".ignore",
            "skills/deep/.gitignore",
            "skills/.gitignore"
        ]
    ));

    for args in [
        &["--format", "concise", "."][..],
        &["--isolated", "--format", "concise", "."],
    ] {
        let output = skilllint(args, root);
        let out = stdout(&output);
        assert_eq!(output.status.code(), Some(1), "{out}");
        assert!(out.contains("skills/notes/tools.json:"), "{args:?}: {out}");
        assert!(
            out.contains("skills/deep/inner/SKILL.md:8:"),
            "{args:?}: {out}"
        );
        // Untracked: the ignore file decides.
        assert!(!out.contains("skills/scratch"), "{args:?}: {out}");
    }
    // Linting a folder below the work tree's root finds the tracked files there too.
    let output = skilllint(&["--format", "concise", "deep"], &root.join("skills"));
    assert!(
        stdout(&output).contains("deep/inner/SKILL.md:8:"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_tracked_path_through_a_folder_link_or_a_damaged_index_is_not_followed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let outside = tempfile::tempdir().expect("outside");
    let root = dir.path();
    if !git(root, &["init", "-q"]) {
        eprintln!("skipped: needs git to build the work tree");
        return;
    }
    write(root, "skills/a/SKILL.md", &skill("a"));
    assert!(git(root, &["add", "-A"]));
    // The index says `skills/a/SKILL.md`; the work tree now has `skills` as a link out.
    write(outside.path(), "a/SKILL.md", &skill("secret"));
    std::fs::rename(root.join("skills"), root.join("moved")).expect("move");
    std::os::unix::fs::symlink(outside.path(), root.join("skills")).expect("link");
    write(root, ".ignore", b"moved/\n");
    let output = skilllint(&["--format", "concise", "."], root);
    assert!(!stdout(&output).contains("secret"), "{}", stdout(&output));
    assert!(!stdout(&output).contains("skills/a"), "{}", stdout(&output));

    // A damaged index: the run goes on, ignore files deciding as outside git.
    std::fs::write(
        root.join(".git/index"),
        b"DIRC\0\0\0\x02\xff\xff\xff\xff garbage",
    )
    .expect("index");
    let output = skilllint(&["--format", "concise", "."], root);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stdout(&output)
    );
}
