//! Adopting skilllint on an existing repository, end to end through the binary: paths that open
//! from where the user stands, the baseline, `--add-noqa`, `--statistics`, and the command-line
//! conventions a ruff user reaches for.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn command(args: &[&str], cwd: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skilllint"));
    command
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("CI_PROJECT_DIR");
    command
}

fn skilllint(args: &[&str], cwd: &Path) -> Output {
    command(args, cwd).output().expect("run skilllint")
}

fn skilllint_env(args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = command(args, cwd);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("run skilllint")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, content).expect("write file");
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).expect("read file")
}

/// A skill with an unknown frontmatter key (SK008, a warning) and a broken link (SK011, an
/// error).
fn skill(name: &str, extra: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Keeps {name}. Use when the user asks about {name}.\nowner: docs\n{extra}---\n\n# {name}\n\nSee [the guide](missing-{name}.md).\n"
    )
}

/// A repository (with `.git`) holding its skills in a subfolder, as real ones do.
fn repository() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("git folder");
    write(&repo, ".claude/skills/notes/SKILL.md", &skill("notes", ""));
    write(&repo, "other/README.md", "not a skill\n");
    (dir, repo)
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

// ---------------------------------------------------------------------------------------------
// 1. Paths
// ---------------------------------------------------------------------------------------------

#[test]
fn human_formats_show_paths_that_open_from_the_current_folder() {
    let (_dir, repo) = repository();
    let concise = skilllint(&[".claude/skills", "--format", "concise"], &repo);
    assert!(
        stdout(&concise).starts_with(".claude/skills/notes/SKILL.md:4:1: warning SK008"),
        "{}",
        stdout(&concise)
    );
    let full = skilllint(&[".claude/skills"], &repo);
    assert!(
        stdout(&full).contains("╭─[.claude/skills/notes/SKILL.md:4:1]"),
        "{}",
        stdout(&full)
    );
    // From inside the skills folder and from beside it.
    let inside = skilllint(
        &["notes", "--format", "concise"],
        &repo.join(".claude/skills"),
    );
    assert!(
        stdout(&inside).starts_with("notes/SKILL.md:4:1:"),
        "{}",
        stdout(&inside)
    );
    let beside = skilllint(
        &["../.claude/skills", "--format", "concise"],
        &repo.join("other"),
    );
    assert!(
        stdout(&beside).starts_with("../.claude/skills/notes/SKILL.md:4:1:"),
        "{}",
        stdout(&beside)
    );
    // Every path printed names a file that exists from there.
    for line in stdout(&beside).lines() {
        let path = line.split(':').next().unwrap_or_default();
        assert!(repo.join("other").join(path).is_file(), "{line}");
    }
}

#[test]
fn annotations_are_relative_to_the_workspace_and_sarif_to_the_repository() {
    let (_dir, repo) = repository();
    let workspace = repo.to_string_lossy().into_owned();
    let skills = repo.join(".claude/skills");
    let github = skilllint_env(
        &["notes", "--format", "github"],
        &skills,
        &[("GITHUB_WORKSPACE", &workspace)],
    );
    assert!(
        stdout(&github).starts_with("::warning file=.claude/skills/notes/SKILL.md,line=4,"),
        "{}",
        stdout(&github)
    );
    // Without a workspace, relative to the current folder as the human formats.
    let local = skilllint(&["notes", "--format", "github"], &skills);
    assert!(
        stdout(&local).starts_with("::warning file=notes/SKILL.md,"),
        "{}",
        stdout(&local)
    );

    let sarif = json(&stdout(&skilllint(
        &["notes", "--format", "sarif"],
        &skills,
    )));
    let run = &sarif["runs"][0];
    let location = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(location["uri"], ".claude/skills/notes/SKILL.md");
    assert_eq!(location["uriBaseId"], "%SRCROOT%");
    let working = run["invocations"][0]["workingDirectory"]["uri"]
        .as_str()
        .expect("workingDirectory");
    assert!(
        working.starts_with("file:///") && working.ends_with("/repo/.claude/skills/"),
        "{working}"
    );
    for result in run["results"].as_array().expect("results") {
        let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .expect("uri");
        assert!(
            repo.join(uri).is_file(),
            "{uri} is not a file of the repository"
        );
    }
}

#[test]
fn outside_a_work_tree_sarif_is_relative_to_the_current_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "sub/notes/SKILL.md", &skill("notes", ""));
    let sarif = json(&stdout(&skilllint(
        &["sub", "--format", "sarif"],
        dir.path(),
    )));
    let location =
        &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(location["uri"], "sub/notes/SKILL.md");
}

#[test]
fn json_paths_are_relative_to_the_work_tree_and_the_shown_one_to_the_current_folder() {
    let (_dir, repo) = repository();
    let out = json(&stdout(&skilllint(
        &[".claude/skills", "--format", "json"],
        &repo,
    )));
    // A folder inside a work tree is linted as part of it: `path` is the same whatever path
    // is named.
    assert_eq!(out[0]["path"], ".claude/skills/notes/SKILL.md");
    assert_eq!(out[0]["display_path"], ".claude/skills/notes/SKILL.md");
    assert_eq!(
        out[0]["labels"][0]["display_path"],
        ".claude/skills/notes/SKILL.md"
    );
}

// ---------------------------------------------------------------------------------------------
// 2. The baseline
// ---------------------------------------------------------------------------------------------

#[test]
fn a_baseline_hides_what_it_recorded_through_moved_lines_and_shows_what_is_new() {
    let (_dir, repo) = repository();
    write(&repo, ".claude/skills/tasks/SKILL.md", &skill("tasks", ""));
    let written = skilllint(&[".", "--write-baseline", "skilllint-baseline.json"], &repo);
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    assert!(
        stderr(&written).contains(
            "Wrote 4 baseline entries to skilllint-baseline.json (4 new, 0 kept, 0 pruned)."
        ),
        "{}",
        stderr(&written)
    );
    let text = read(&repo, "skilllint-baseline.json");
    let file = json(&text);
    let entries = file["entries"].as_array().expect("entries");
    let keys: Vec<(String, String)> = entries
        .iter()
        .map(|e| (e["path"].to_string(), e["rule"].to_string()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "entries are sorted");
    assert!(!text.contains("\"line\""), "no line numbers: {text}");

    let clean = skilllint(&[".", "--baseline", "skilllint-baseline.json"], &repo);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert!(
        stderr(&clean).contains("All checks passed: 2 files (2 skills). 4 hidden by the baseline."),
        "{}",
        stderr(&clean)
    );
    // Lines added above the findings, and the file indented differently: still hidden.
    let moved = skill("notes", "").replace(
        "# notes\n",
        "# notes\n\nA new first paragraph.\n\nAnd another.\n",
    );
    let moved = moved.replacen("---\nname", "---\n# a comment line\nname", 1);
    write(&repo, ".claude/skills/notes/SKILL.md", &moved);
    let still = skilllint(
        &[
            ".",
            "--baseline",
            "skilllint-baseline.json",
            "--format",
            "concise",
        ],
        &repo,
    );
    assert_eq!(
        still.status.code(),
        Some(0),
        "{}{}",
        stdout(&still),
        stderr(&still)
    );
    // A new finding shows, the old ones stay hidden.
    write(
        &repo,
        ".claude/skills/notes/SKILL.md",
        &moved.replace("owner: docs\n", "owner: docs\nteam: x\n"),
    );
    let new = skilllint(
        &[
            ".",
            "--baseline",
            "skilllint-baseline.json",
            "--format",
            "concise",
        ],
        &repo,
    );
    assert_eq!(
        stdout(&new),
        ".claude/skills/notes/SKILL.md:6:1: warning SK008 [skill-unknown-field] unknown frontmatter field `team`\n"
    );
    assert_eq!(
        new.status.code(),
        Some(0),
        "a warning does not fail the run"
    );
}

#[test]
fn an_expired_entry_shows_its_finding_and_itself_and_a_stale_one_is_reported() {
    let (_dir, repo) = repository();
    skilllint(&[".", "--write-baseline", "baseline.json"], &repo);
    let text = read(&repo, "baseline.json");
    // The SK011 entry expired long ago, with a reason and an owner.
    let expired = text.replacen(
        "\"message\": \"link to `missing-notes.md`, which does not exist\"",
        "\"message\": \"link to `missing-notes.md`, which does not exist\",\n      \"reason\": \"the guide is being written\",\n      \"owner\": \"@docs\",\n      \"expires\": \"2001-02-03\"",
        1,
    );
    assert_ne!(expired, text);
    write(&repo, "baseline.json", &expired);
    let out = skilllint(
        &[".", "--baseline", "baseline.json", "--format", "concise"],
        &repo,
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "the error is back: {}",
        stderr(&out)
    );
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with(".claude/skills/notes/SKILL.md:9:17: error SK011"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("baseline.json:") && lines[1].contains("warning SL020 [baseline-entry-expired] baseline entry for SK011 in .claude/skills/notes/SKILL.md expired on 2001-02-03 (owner: @docs)"),
        "{lines:?}"
    );
    // The SK008 finding fixed: its entry is stale; rewriting prunes it and keeps the notes.
    write(
        &repo,
        ".claude/skills/notes/SKILL.md",
        &skill("notes", "").replace("owner: docs\n", ""),
    );
    let stale = skilllint(
        &[".", "--baseline", "baseline.json", "--format", "concise"],
        &repo,
    );
    assert!(
        stdout(&stale).contains("warning SL021 [baseline-entry-stale] baseline entry for SK008 in .claude/skills/notes/SKILL.md matches no finding"),
        "{}",
        stdout(&stale)
    );
    let rewritten = skilllint(&[".", "--write-baseline", "baseline.json"], &repo);
    assert!(
        stderr(&rewritten).contains("(0 new, 1 kept, 1 pruned)"),
        "{}",
        stderr(&rewritten)
    );
    let text = read(&repo, "baseline.json");
    assert!(!text.contains("SK008"), "{text}");
    assert!(
        text.contains("\"reason\": \"the guide is being written\"")
            && text.contains("\"expires\": \"2001-02-03\""),
        "{text}"
    );
}

#[test]
fn the_configuration_names_the_baseline_and_sarif_marks_what_it_hides() {
    let (_dir, repo) = repository();
    write(
        &repo,
        "skilllint.toml",
        "[lint]\nbaseline = \"ci/skilllint-baseline.json\"\n",
    );
    std::fs::create_dir_all(repo.join("ci")).expect("ci folder");
    // Missing: an error that says how to make it.
    let missing = skilllint(&["."], &repo);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).starts_with("error: "),
        "{}",
        stderr(&missing)
    );
    assert!(
        stderr(&missing).contains("--write-baseline"),
        "{}",
        stderr(&missing)
    );
    let written = skilllint(
        &[".", "--write-baseline", "ci/skilllint-baseline.json"],
        &repo,
    );
    assert_eq!(written.status.code(), Some(0));
    assert!(
        !stderr(&written).contains("note:"),
        "the configuration already reads it"
    );
    // Entry paths are relative to the baseline's folder.
    assert!(read(&repo, "ci/skilllint-baseline.json")
        .contains("\"path\": \"../.claude/skills/notes/SKILL.md\""));
    write(&repo, ".claude/skills/tasks/SKILL.md", &skill("tasks", ""));
    let sarif = json(&stdout(&skilllint(&[".", "--format", "sarif"], &repo)));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 4);
    for result in results {
        let hidden = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .is_some_and(|uri| uri.contains("notes"));
        if hidden {
            assert_eq!(result["baselineState"], "unchanged");
            assert_eq!(result["suppressions"][0]["kind"], "external");
        } else {
            assert_eq!(result["baselineState"], "new");
            assert!(result.get("suppressions").is_none());
        }
    }
    // A configuration's baseline leading out of its folder is refused; --baseline may name it.
    let outside = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::copy(repo.join("ci/skilllint-baseline.json"), outside.path()).expect("copy");
    write(
        &repo,
        "skilllint.toml",
        &format!(
            "[lint]\nbaseline = {:?}\n",
            outside.path().to_string_lossy()
        ),
    );
    let refused = skilllint(&["."], &repo);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("leads outside the configuration's folder"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn a_broken_baseline_is_an_error_at_its_key() {
    let (_dir, repo) = repository();
    write(&repo, "b.json", "[{\"rule\": \"SK008\", \"path\": \"x\", \"fingerprint\": \"0\", \"expire\": \"2030-01-01\"}]");
    let out = skilllint(&[".", "--baseline", "b.json"], &repo);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: invalid baseline: unknown key `expire`"),
        "{err}"
    );
    assert!(err.contains("╭─[b.json:1:"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// 3. --add-noqa
// ---------------------------------------------------------------------------------------------

#[test]
fn add_noqa_comments_each_file_in_its_form_and_records_json_in_the_baseline() {
    let (_dir, repo) = repository();
    write(
        &repo,
        ".claude/skills/notes/tools.json",
        r#"[{"name": "Save Note", "description": "Save a note.", "inputSchema": {"type": "object"}}]"#,
    );
    write(
        &repo,
        "reqs/requirement.yaml",
        "tools:\n  - name: save\n    type: writ\n    description: Saves.\n",
    );
    let before = skilllint(&[".", "--format", "concise"], &repo);
    assert_eq!(before.status.code(), Some(1));
    let out = skilllint(
        &[".", "--add-noqa", "--baseline", "skilllint-baseline.json"],
        &repo,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("Added "), "{err}");
    let text = read(&repo, ".claude/skills/notes/SKILL.md");
    assert!(
        text.contains("owner: docs # skilllint: ignore[SK008]\n"),
        "{text}"
    );
    assert!(
        text.contains("<!-- skilllint-disable-next-line SK011 -->\nSee [the guide]"),
        "{text}"
    );
    let requirement = read(&repo, "reqs/requirement.yaml");
    assert!(
        requirement.contains("# skilllint: ignore[TJ013]"),
        "{requirement}"
    );
    let baseline = read(&repo, "skilllint-baseline.json");
    assert!(
        baseline.contains("\"path\": \".claude/skills/notes/tools.json\""),
        "{baseline}"
    );
    assert!(
        !baseline.contains("SKILL.md"),
        "comments hold those: {baseline}"
    );
    let after = skilllint(
        &[
            ".",
            "--baseline",
            "skilllint-baseline.json",
            "--format",
            "concise",
        ],
        &repo,
    );
    assert_eq!(
        after.status.code(),
        Some(0),
        "{}{}",
        stdout(&after),
        stderr(&after)
    );
    assert_eq!(stdout(&after), "");
}

#[test]
fn add_noqa_without_a_baseline_says_where_the_json_findings_can_go() {
    let (_dir, repo) = repository();
    write(
        &repo,
        ".claude/skills/notes/tools.json",
        r#"[{"name": "Save Note", "description": "Save a note.", "inputSchema": {"type": "object"}}]"#,
    );
    let out = skilllint(&[".", "--add-noqa"], &repo);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("note: "), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--add-noqa --baseline"),
        "{}",
        stderr(&out)
    );
    assert!(!repo.join("skilllint-baseline.json").exists());
}

// ---------------------------------------------------------------------------------------------
// 4. --statistics
// ---------------------------------------------------------------------------------------------

#[test]
fn statistics_count_each_rule_in_text_and_json() {
    let (_dir, repo) = repository();
    for name in ["tasks", "plans", "todos"] {
        write(
            &repo,
            &format!(".claude/skills/{name}/SKILL.md"),
            &skill(name, "team: a\nrole: b\n"),
        );
    }
    // A skill elsewhere, without findings: the folder of the SK008 findings is not the whole run.
    write(
        &repo,
        "other/clean/SKILL.md",
        "---\nname: clean\ndescription: Cleans. Use when asked.\n---\n\n# Clean\n",
    );
    let text = skilllint(&[".", "--statistics"], &repo);
    assert_eq!(text.status.code(), Some(1));
    assert_eq!(
        stdout(&text),
        "10  SK008  [ ] skill-unknown-field\n 4  SK011  [ ] skill-broken-reference\n"
    );
    // SK008 is a correctness rule: the hint accepts the keys, it never turns the rule off.
    assert!(
        stderr(&text).contains("Most findings are SK008 [skill-unknown-field] (10 of 14): `dialect = \"claude-code\"` under [skills] accepts Claude Code's keys, `extra-fields` your own"),
        "{}",
        stderr(&text)
    );
    assert!(
        !stderr(&text).contains("per-file-ignores"),
        "{}",
        stderr(&text)
    );
    let data = json(&stdout(&skilllint(
        &[".", "--statistics", "--format", "json"],
        &repo,
    )));
    assert_eq!(data[0]["code"], "SK008");
    assert_eq!(data[0]["count"], 10);
    assert_eq!(data[0]["name"], "skill-unknown-field");
    assert_eq!(data[0]["fixable"], false);
}

// ---------------------------------------------------------------------------------------------
// 5. Command-line conventions
// ---------------------------------------------------------------------------------------------

#[test]
fn show_settings_and_show_files_print_and_exit() {
    let (_dir, repo) = repository();
    write(&repo, "skilllint.toml", "[lint]\nignore = [\"SK011\"]\n");
    let settings = skilllint(
        &[
            ".",
            "--show-settings",
            "--config",
            "lint.fail-on=\"warning\"",
        ],
        &repo,
    );
    assert_eq!(settings.status.code(), Some(0), "{}", stderr(&settings));
    let text = stdout(&settings);
    for line in [
        "configuration file: skilllint.toml\n",
        "configuration override: lint.fail-on=\"warning\"\n",
        "ignore: SK011\n",
        "fail-on: warning\n",
        "baseline: (none)\n",
    ] {
        assert!(text.contains(line), "{line:?} in:\n{text}");
    }
    assert!(
        text.contains("rules: (") && text.contains(" DR001, DR002,") && !text.contains(" SK011,"),
        "{text}"
    );
    let files = skilllint(&[".", "--show-files"], &repo);
    assert_eq!(stdout(&files), ".claude/skills/notes/SKILL.md\n");
    assert_eq!(files.status.code(), Some(0));
}

fn fixable(root: &Path) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/TJ003/fires/calendar");
    for name in ["SKILL.md", "tools.json"] {
        let text = std::fs::read_to_string(fixture.join(name)).expect("fixture");
        write(root, &format!("skills/calendar/{name}"), &text);
    }
}

#[test]
fn show_fixes_and_exit_non_zero_on_fix() {
    let dir = tempfile::tempdir().expect("temp dir");
    fixable(dir.path());
    let available = skilllint(
        &["skills", "--isolated", "--select", "TJ003", "--show-fixes"],
        dir.path(),
    );
    assert!(
        stderr(&available).contains("1 finding fixable with `--fix`:\n- skills/calendar/tools.json:\n    1 × TJ003 (write-tool-without-confirmation)\n"),
        "{}",
        stderr(&available)
    );
    let fixed = skilllint(
        &[
            "skills",
            "--isolated",
            "--select",
            "TJ003",
            "--fix",
            "--show-fixes",
            "--exit-non-zero-on-fix",
        ],
        dir.path(),
    );
    assert!(
        stderr(&fixed).contains("Fixed 1 finding:\n- skills/calendar/tools.json:\n    1 × TJ003 (write-tool-without-confirmation)\n"),
        "{}",
        stderr(&fixed)
    );
    assert_eq!(fixed.status.code(), Some(1), "a fix was applied");
    let again = skilllint(
        &[
            "skills",
            "--isolated",
            "--select",
            "TJ003",
            "--fix",
            "--exit-non-zero-on-fix",
        ],
        dir.path(),
    );
    assert_eq!(
        again.status.code(),
        Some(0),
        "nothing left to fix: {}",
        stderr(&again)
    );
}

#[test]
fn extend_select_adds_to_the_selection() {
    let (_dir, repo) = repository();
    write(&repo, "skilllint.toml", "[lint]\nselect = [\"SK011\"]\n");
    let base = skilllint(&[".", "--format", "concise"], &repo);
    assert!(!stdout(&base).contains("SK008"));
    let extended = skilllint(
        &[".", "--format", "concise", "--extend-select", "SK008"],
        &repo,
    );
    assert!(
        stdout(&extended).contains("SK011") && stdout(&extended).contains("SK008"),
        "{}",
        stdout(&extended)
    );
    // Over the default selection, a pedantic rule.
    write(&repo, "skilllint.toml", "");
    // Outside `.claude/`: Claude Code reads a list in `allowed-tools`, the specification does not.
    write(&repo, "skills/notes/SKILL.md", "---\nname: notes\ndescription: Keeps notes. Use when asked.\nallowed-tools: [Read]\n---\n\n# Notes\n");
    let pedantic = skilllint(
        &[".", "--format", "concise", "--extend-select", "SK015"],
        &repo,
    );
    assert!(
        stdout(&pedantic).contains("SK015") && stdout(&pedantic).contains("SK016"),
        "{}",
        stdout(&pedantic)
    );
}

/// `skilllint - --stdin-filename NAME --format concise` with `text` on standard input.
fn lint_stdin(cwd: &Path, name: &str, text: &str) -> Output {
    let mut child = command(&["-", "--stdin-filename", name, "--format", "concise"], cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

#[test]
fn standard_input_is_linted_under_its_name() {
    let (_dir, repo) = repository();
    let text = skill("notes", "").replace("owner: docs\n", "colour: blue\n");
    let out = lint_stdin(&repo, ".claude/skills/notes/SKILL.md", &text);
    assert_eq!(
        stdout(&out).lines().next().unwrap_or_default(),
        ".claude/skills/notes/SKILL.md:4:1: warning SK008 [skill-unknown-field] unknown frontmatter field `colour`"
    );
    // A name no file has: linted alone.
    let out = lint_stdin(&repo, "new/SKILL.md", "no frontmatter\n");
    assert!(
        stdout(&out).starts_with("new/SKILL.md:1:1: error SK001"),
        "{}",
        stdout(&out)
    );
    let unnamed = skilllint(&["-"], &repo);
    assert_eq!(unnamed.status.code(), Some(2));
    assert!(
        stderr(&unnamed).starts_with("error: reading standard input (`-`) needs --stdin-filename"),
        "{}",
        stderr(&unnamed)
    );
}

#[test]
fn shell_completions_are_generated() {
    let dir = tempfile::tempdir().expect("temp dir");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = skilllint(&["generate-shell-completion", shell], dir.path());
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert!(
            stdout(&out).contains("skilllint") && stdout(&out).contains("write-baseline"),
            "{shell}"
        );
    }
}

#[test]
fn config_key_value_overrides_the_file() {
    let (_dir, repo) = repository();
    write(&repo, "skilllint.toml", "[lint]\nselect = [\"SK011\"]\n");
    let out = skilllint(
        &[
            ".",
            "--format",
            "concise",
            "--config",
            "lint.select = [\"SK008\"]",
        ],
        &repo,
    );
    assert!(
        stdout(&out).contains("SK008") && !stdout(&out).contains("SK011"),
        "{}",
        stdout(&out)
    );
    let isolated = skilllint(
        &[
            ".",
            "--format",
            "concise",
            "--isolated",
            "--config",
            "lint.ignore=[\"SK011\"]",
        ],
        &repo,
    );
    assert!(
        stdout(&isolated).contains("SK008") && !stdout(&isolated).contains("SK011"),
        "{}",
        stdout(&isolated)
    );
    let bad = skilllint(&[".", "--config", "lint.selekt=[\"SK008\"]"], &repo);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).starts_with("error: invalid configuration: unknown field `selekt`"),
        "{}",
        stderr(&bad)
    );
    assert!(
        stderr(&bad).contains("╭─[--config:1:6]"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn unknown_selectors_and_rules_suggest_the_nearest() {
    let dir = tempfile::tempdir().expect("temp dir");
    let select = skilllint(&[".", "--select", "TJ03"], dir.path());
    assert_eq!(select.status.code(), Some(2));
    assert_eq!(
        stderr(&select),
        "error: unknown rule selector `TJ03`; did you mean `TJ003`?\n"
    );
    let rule = skilllint(&["rule", "write-tool-without-confirmaton"], dir.path());
    assert_eq!(rule.status.code(), Some(2));
    assert!(
        stderr(&rule).starts_with("error: no rule is called `write-tool-without-confirmaton`; did you mean `write-tool-without-confirmation`?"),
        "{}",
        stderr(&rule)
    );
}

#[test]
fn every_error_has_one_style() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "bad/skilllint.toml", "[lint]\nselect = 3\n");
    for (args, cwd) in [
        (vec!["no-such-path"], dir.path().to_path_buf()),
        (vec![".", "--select", "XX999"], dir.path().to_path_buf()),
        (vec!["."], dir.path().join("bad")),
        (vec!["rule", "XX999"], dir.path().to_path_buf()),
        (vec![".", "--no-such-flag"], dir.path().to_path_buf()),
        (vec!["-"], dir.path().to_path_buf()),
    ] {
        let out = skilllint(&args, &cwd);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(
            !err.contains("skilllint:") && !err.contains('×'),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn colour_is_forced_by_the_environment_and_concise_has_it() {
    let (_dir, repo) = repository();
    let args = [".", "--format", "concise"];
    assert!(
        !stdout(&skilllint(&args, &repo)).contains('\u{1b}'),
        "piped: no colour"
    );
    for (key, value) in [("FORCE_COLOR", "1"), ("CLICOLOR_FORCE", "1")] {
        let out = skilllint_env(&args, &repo, &[(key, value)]);
        assert!(
            stdout(&out).contains(
                "\u{1b}[1m.claude/skills/notes/SKILL.md\u{1b}[0m:4:1: \u{1b}[1;33mwarning\u{1b}[0m"
            ),
            "{key}: {}",
            stdout(&out)
        );
    }
    for env in [[("FORCE_COLOR", "0")], [("NO_COLOR", "1")]] {
        let out = skilllint_env(&args, &repo, &env);
        assert!(!stdout(&out).contains('\u{1b}'), "{env:?}");
    }
    let nothing = skilllint_env(&args, &repo, &[("FORCE_COLOR", "1"), ("NO_COLOR", "1")]);
    assert!(!stdout(&nothing).contains('\u{1b}'), "NO_COLOR wins");
    let always = skilllint(&[".", "--format", "concise", "--color", "always"], &repo);
    assert!(stdout(&always).contains('\u{1b}'));
}

#[test]
fn a_named_excluded_folder_is_linted_unless_exclusions_are_forced() {
    let (_dir, repo) = repository();
    write(
        &repo,
        "skilllint.toml",
        "[lint]\nexclude = [\"vendor/**\"]\n",
    );
    write(&repo, "vendor/lib/SKILL.md", &skill("lib", ""));
    let whole = skilllint(&[".", "--format", "concise"], &repo);
    assert!(!stdout(&whole).contains("vendor/"), "{}", stdout(&whole));
    let named = skilllint(&["vendor", "--format", "concise"], &repo);
    assert!(
        stdout(&named).starts_with("vendor/lib/SKILL.md:"),
        "{}",
        stdout(&named)
    );
    let file = skilllint(&["vendor/lib/SKILL.md", "--format", "concise"], &repo);
    assert!(
        stdout(&file).starts_with("vendor/lib/SKILL.md:"),
        "{}",
        stdout(&file)
    );
    for path in ["vendor", "vendor/lib/SKILL.md"] {
        let forced = skilllint(&[path, "--force-exclude"], &repo);
        assert_eq!(forced.status.code(), Some(0));
        assert_eq!(stdout(&forced), "");
        assert!(
            stderr(&forced).contains(&format!("Nothing linted: `{path}` is excluded"))
                && stderr(&forced).contains("without --force-exclude"),
            "{}",
            stderr(&forced)
        );
    }
    // With other paths, the excluded one is left out and the rest is linted.
    let mixed = skilllint(
        &[
            "vendor/lib/SKILL.md",
            ".claude/skills",
            "--force-exclude",
            "--format",
            "concise",
        ],
        &repo,
    );
    assert!(
        stdout(&mixed).contains(".claude/skills/notes") && !stdout(&mixed).contains("vendor"),
        "{}",
        stdout(&mixed)
    );
}

#[test]
fn a_path_named_like_a_command_says_how_it_was_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "rules/notes/SKILL.md", &skill("notes", ""));
    let command = skilllint(&["rules"], dir.path());
    assert_eq!(command.status.code(), Some(0));
    assert!(stdout(&command).contains("TJ003"), "the rules table");
    assert!(
        stderr(&command).contains("note: `rules` was read as the `rules` command; to lint the path `rules`, write `skilllint ./rules`"),
        "{}",
        stderr(&command)
    );
    let lint = skilllint(&["./rules", "--format", "concise"], dir.path());
    assert!(
        stdout(&lint).starts_with("rules/notes/SKILL.md:"),
        "{}",
        stdout(&lint)
    );
    assert!(!stderr(&lint).contains("note:"));
    // Without such a folder, no note.
    let elsewhere = tempfile::tempdir().expect("temp dir");
    assert!(!stderr(&skilllint(&["rules"], elsewhere.path())).contains("note:"));
}
