//! The GitHub Action's steps, run on this machine by scripts/action-local.sh with the binary of
//! this build: a monorepo whose skills live in a package's subfolder, linted with
//! `working-directory` and `path` pointing there. The SARIF URIs and the annotations must name
//! files that exist from the repository root, the job summary must be written, and `args` must
//! carry a quoted value with a space as one word. Skipped, with a message, without Python 3 and
//! PyYAML (what the script needs).

use std::path::Path;
use std::process::Command;

fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, content).expect("write file");
}

fn have_python_with_yaml() -> bool {
    Command::new("python3")
        .args(["-c", "import yaml"])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn the_action_in_a_subfolder_names_files_from_the_repository_root() {
    if !have_python_with_yaml() {
        eprintln!("skipped: scripts/action-local.sh needs python3 with PyYAML");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path();
    std::fs::create_dir_all(repo.join(".git")).expect("git folder");
    let skill = |name: &str| {
        format!("---\nname: {name}\ndescription: Keeps {name}. Use when asked.\nowner: docs\n---\n\n# {name}\n\nSee [the guide](missing.md).\n")
    };
    // A key that is Markdown for an image: the summary must show it as text.
    let hostile = skill("notes").replace(
        "owner: docs\n",
        "owner: docs\n\"![x](https://e.example/i.png)\": 1\n",
    );
    write(
        repo,
        "packages/agent/.claude/skills/notes/SKILL.md",
        &hostile,
    );
    write(
        repo,
        "packages/agent/.claude/skills/old notes/SKILL.md",
        &skill("old-notes"),
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/action-local.sh");
    let out = Command::new("bash")
        .arg(&script)
        .args(["--skilllint", env!("CARGO_BIN_EXE_skilllint")])
        .args([
            "--input",
            "working-directory=packages/agent",
            "--input",
            "path=.claude/skills",
            "--input",
            "upload=false",
            "--input",
            "sarif-file=reports/skilllint.sarif",
            "--input",
            r#"args=--exclude ".claude/skills/old notes/**" --fail-on error"#,
        ])
        .current_dir(repo)
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_OUTPUT")
        .env("GITHUB_SERVER_URL", "https://github.com")
        .env("GITHUB_REPOSITORY", "owner/repo")
        .env("GITHUB_SHA", "0123abc")
        .output()
        .expect("run action-local.sh");
    let log = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    // The findings fail the job, after the report is written.
    assert_eq!(out.status.code(), Some(1), "{log}\n{err}");
    assert!(log.contains("'exit-code': '1'"), "{log}");

    // Annotations: relative to the workspace (the repository root), files that exist there.
    let annotations: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("::warning file=") || l.starts_with("::error file="))
        .collect();
    assert_eq!(annotations.len(), 3, "{log}");
    for line in &annotations {
        let file = line
            .split("file=")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .expect("file property");
        assert_eq!(
            file, "packages/agent/.claude/skills/notes/SKILL.md",
            "{line}"
        );
        assert!(repo.join(file).is_file(), "{file}");
    }
    // The quoted exclude reached skilllint as one word: the folder with a space is left out.
    assert!(!log.contains("old notes"), "{log}");

    // SARIF, where the workspace-relative input says, with URIs from the repository root.
    let sarif = std::fs::read_to_string(repo.join("reports/skilllint.sarif")).expect("SARIF");
    let sarif: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 3);
    for result in results {
        let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        let uri = location["uri"].as_str().expect("uri");
        assert_eq!(location["uriBaseId"], "%SRCROOT%");
        assert!(
            repo.join(uri).is_file(),
            "{uri} is no file of the repository"
        );
    }
    let working = sarif["runs"][0]["invocations"][0]["workingDirectory"]["uri"]
        .as_str()
        .expect("workingDirectory");
    assert!(working.ends_with("/packages/agent/"), "{working}");

    // The job summary: counts by rule, the findings with where they are.
    let summary = log
        .split("== job summary ($GITHUB_STEP_SUMMARY)\n")
        .nth(1)
        .expect("a job summary");
    assert!(
        summary.starts_with("### skilllint: 1 error, 2 warnings\n"),
        "{summary}"
    );
    assert!(
        summary.contains("| SK008 | skill-unknown-field | 2 |"),
        "{summary}"
    );
    assert!(
        summary.contains("| error | SK011 | link to &#96;missing.md&#96;, which does not exist | [packages/agent/.claude/skills/notes/SKILL.md:10](https://github.com/owner/repo/blob/0123abc/packages/agent/.claude/skills/notes/SKILL.md#L10) |"),
        "{summary}"
    );
    assert!(
        summary.contains("&#33;&#91;x&#93;&#40;https://e.example/i.png&#41;"),
        "{summary}"
    );
    assert!(!summary.contains("![x]"), "{summary}");
}

#[test]
fn an_unmatched_quote_in_args_stops_the_step() {
    if !have_python_with_yaml() {
        eprintln!("skipped: scripts/action-local.sh needs python3 with PyYAML");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/action-local.sh");
    let out = Command::new("bash")
        .arg(&script)
        .args(["--skilllint", env!("CARGO_BIN_EXE_skilllint")])
        .args([
            "--input",
            "upload=false",
            "--input",
            r#"args=--exclude "docs/**"#,
        ])
        .current_dir(dir.path())
        .output()
        .expect("run action-local.sh");
    let log = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(2), "{log}");
    assert!(
        log.contains("::error title=skilllint::the args input has an unmatched quote"),
        "{log}"
    );
}
