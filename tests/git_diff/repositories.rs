//! Unusual repositories: an unknown revision, a shallow clone, a bare repository, a hostile one
//! that configures programs to run, a tree that names a subtree millions of times.

use crate::common::*;
use std::path::{Path, PathBuf};

#[test]
fn an_unknown_revision_exits_2_with_its_name_escaped() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    let output = skilllint(&["diff", "no-such\u{1b}[31mbranch"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = stderr(&output);
    assert!(
        err.contains("unknown revision `no-such\\u{1b}[31mbranch`"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "{err}");
    let outside = Scratch::new();
    let output = skilllint(&["diff", "main"], &outside.path("home"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr(&output).contains("no git repository"), "{output:?}");
}

#[test]
fn a_shallow_clone_says_how_to_fetch_the_base() {
    let s = Scratch::new();
    s.repo_from("origin", "capdiff/old");
    let base = s.git("origin", &["rev-parse", "HEAD"]);
    s.replace_files("origin", "capdiff/new");
    s.commit("origin", "second");
    let url = format!("file://{}", s.path("origin").display());
    s.git("", &["clone", "-q", "--depth", "1", &url, "shallow"]);
    for missing in [base.as_str(), "HEAD~1"] {
        let output = skilllint(&["diff", missing, "HEAD"], &s.path("shallow"));
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let err = stderr(&output);
        assert!(
            err.contains("is not in this clone, which is shallow"),
            "{err}"
        );
        assert!(err.contains("fetch-depth: 0"), "{err}");
        assert!(err.contains("git fetch --deepen"), "{err}");
    }
}

#[test]
fn a_bare_repository_is_read_with_two_revisions() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    s.replace_files("r", "capdiff/new");
    s.commit("r", "second");
    let first = s.git("r", &["rev-parse", "HEAD~1"]);
    s.git("r", &["tag", "-a", "v1", "-m", "release 1", "HEAD~1"]);
    s.git("", &["clone", "-q", "--bare", "r", "bare.git"]);
    let (code, report) = diff_json(&["-C", "bare.git", "main~1", "main"], &s.path(""));
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(of(&report, "transfer_funds", "added").len(), 1);
    // An annotated tag is reported with the commit it names.
    let (_, tagged) = diff_json(&["-C", "bare.git", "v1", "main"], &s.path(""));
    assert_eq!(changes(&tagged), changes(&report));
    assert_eq!(tagged["revisions"]["base"]["commit"], first.as_str());
    let output = skilllint(&["diff", "main~1"], &s.path("bare.git"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr(&output).contains("bare"), "{output:?}");
}

/// Every file below `dir`, with its contents, in a fixed order: what "unchanged" means for a
/// `.git` folder.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("folder") {
            let path = entry.expect("entry").path();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            if meta.is_dir() {
                pending.push(path.clone());
                out.push((path, Vec::new()));
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                out.push((path, bytes));
            }
        }
    }
    out.sort();
    out
}

#[cfg(unix)]
#[test]
fn a_hostile_repository_runs_nothing_and_its_git_folder_is_left_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    s.replace_files("r", "capdiff/new");
    s.write(
        "r/.gitattributes",
        "*.json diff=evil filter=evil\n*.md diff=evil\n",
    );
    s.commit("r", "second");
    // Now the repository turns hostile: every program git could be made to run writes a marker.
    let marker = s.path("marker");
    let script = s.path("evil.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$0 $*\" >> '{}'\ncat\n", marker.display()),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let evil = script.display().to_string();
    for (key, value) in [
        ("core.fsmonitor", evil.as_str()),
        ("core.pager", evil.as_str()),
        ("core.hooksPath", ".git/evil-hooks"),
        ("diff.external", evil.as_str()),
        ("diff.evil.textconv", evil.as_str()),
        ("diff.evil.command", evil.as_str()),
        ("filter.evil.clean", evil.as_str()),
        ("filter.evil.smudge", evil.as_str()),
        ("filter.evil.process", evil.as_str()),
        ("filter.evil.required", "true"),
        ("core.sshCommand", evil.as_str()),
        ("core.askPass", evil.as_str()),
        ("include.path", "../../evil.config"),
        // A work tree elsewhere: the work tree side must stay the repository's own folder.
        ("core.worktree", "../../elsewhere"),
    ] {
        s.git("r", &["config", key, value]);
    }
    for hooks in [".git/hooks", ".git/evil-hooks"] {
        for hook in [
            "post-checkout",
            "pre-commit",
            "post-index-change",
            "reference-transaction",
            "fsmonitor-watchman",
        ] {
            let path = s.path("r").join(hooks).join(hook);
            std::fs::create_dir_all(path.parent().expect("hooks")).expect("hooks");
            std::fs::copy(&script, &path).expect("hook");
        }
    }
    std::fs::write(
        s.path("evil.config"),
        format!("[core]\n\tfsmonitor = {evil}\n"),
    )
    .expect("include");
    s.write(
        "elsewhere/planted/SKILL.md",
        "---\nname: planted\ndescription: Planted.\nallowed-tools: Bash\n---\n# Planted\n",
    );
    // An uncommitted edit, so the work tree side differs from HEAD as well.
    s.write("r/README.md", "# changed\n");
    let before = snapshot(&s.path("r/.git"));
    for args in [
        ["diff", "HEAD~1", "HEAD"].as_slice(),
        ["diff", "HEAD~1"].as_slice(),
        ["diff", "HEAD~1", "--format", "markdown"].as_slice(),
    ] {
        let output = skilllint(args, &s.path("r"));
        assert_eq!(output.status.code(), Some(1), "{args:?}: {output:?}");
        // Markdown escapes the `_` of a name (it would be emphasis).
        assert!(
            stdout(&output).contains("transfer_funds")
                || stdout(&output).contains("transfer\\_funds"),
            "{args:?}: {output:?}"
        );
        assert!(!stdout(&output).contains("planted"), "{args:?}: {output:?}");
    }
    assert!(
        !marker.exists(),
        "a configured program ran: {:?}",
        std::fs::read_to_string(&marker)
    );
    assert!(before == snapshot(&s.path("r/.git")), ".git changed");
    // The traps are armed: git itself runs them (and fails on the filter's bad protocol).
    s.run_git("r", &["diff", "HEAD~1", "HEAD"]);
    assert!(marker.exists(), "git ran none of the configured programs");
}

#[test]
fn a_tree_that_names_a_subtree_millions_of_times_or_nests_too_deep_is_bounded() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    let blob = s.git_with_input("r", &["hash-object", "-w", "--stdin"], "x\n");
    let many = |mode: &str, kind: &str, id: &str, prefix: &str| {
        (0..1500)
            .map(|i| format!("{mode} {kind} {id}\t{prefix}{i}\n"))
            .collect::<String>()
    };
    let files = s.git_with_input("r", &["mktree"], &many("100644", "blob", &blob, "f"));
    let folders = s.git_with_input("r", &["mktree"], &many("040000", "tree", &files, "d"));
    let root = s.git_with_input("r", &["mktree"], &format!("040000 tree {folders}\tbomb\n"));
    s.commit_tree("r", &root);
    let started = std::time::Instant::now();
    let output = skilllint(&["diff", "HEAD~1", "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output)
            .contains("more than 100000 of its files and folders are in folders listed before"),
        "{output:?}"
    );
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    // 300 folders deep, a tools file at the bottom: the folder at the limit is named, not read.
    let tools =
        std::fs::read_to_string(fixtures().join("capdiff/old/ledger/tools.json")).expect("tools");
    let tools_blob = s.git_with_input("r", &["hash-object", "-w", "--stdin"], &tools);
    let mut tree = s.git_with_input(
        "r",
        &["mktree"],
        &format!("100644 blob {tools_blob}\ttools.json\n"),
    );
    for _ in 0..300 {
        tree = s.git_with_input("r", &["mktree"], &format!("040000 tree {tree}\td\n"));
    }
    s.commit_tree("r", &tree);
    let (_, report) = diff_json(&["HEAD~2", "HEAD"], &s.path("r"));
    let unread = report["unread"]["new"].as_array().expect("unread");
    assert_eq!(unread.len(), 1, "{report:#}");
    assert!(
        unread[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("nested deeper than 256 folders")),
        "{report:#}"
    );
    assert_eq!(
        unread[0]["path"].as_str().map(|p| p.split('/').count()),
        Some(256)
    );
}
