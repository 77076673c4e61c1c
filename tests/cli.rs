//! End-to-end tests of the binary: exit codes, formats, determinism and bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skilllint(args: &[&str], cwd: &Path) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("CI_PROJECT_DIR")
        .output();
    match output {
        Ok(output) => output,
        Err(error) => panic!("cannot run skilllint: {error}"),
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn write(root: &Path, rel: &str, content: &[u8]) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create fixture folder");
    }
    std::fs::write(path, content).expect("write fixture file");
}

const GOOD_SKILL: &str = "---\nname: notes\ndescription: Keeps meeting notes. Use when the user asks to note something.\n---\n\n# Notes\n";

#[test]
fn exit_codes_follow_the_findings() {
    let root = fixtures();
    let clean = skilllint(&["SK003/clean", "--select", "SK003"], &root);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert!(stderr(&clean).contains("All checks passed"));

    let fires = skilllint(&["SK003/fires", "--select", "SK003"], &root);
    assert_eq!(fires.status.code(), Some(1));
    assert!(
        stderr(&fires).contains("Found 1 error"),
        "{}",
        stderr(&fires)
    );

    let zero = skilllint(&["SK003/fires", "--select", "SK003", "--exit-zero"], &root);
    assert_eq!(zero.status.code(), Some(0));

    // SK008 is a warning: it fails only with --fail-on warning.
    let warning = skilllint(&["SK008/fires", "--select", "SK008"], &root);
    assert_eq!(warning.status.code(), Some(0));
    let strict = skilllint(
        &["SK008/fires", "--select", "SK008", "--fail-on", "warning"],
        &root,
    );
    assert_eq!(strict.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    let root = fixtures();
    for args in [
        vec!["--no-such-flag"],
        vec!["does/not/exist"],
        vec!["SK003/fires", "--select", "XX999"],
        vec!["SK003/fires", "--format", "yaml"],
        vec!["rule", "no-such-rule"],
    ] {
        let output = skilllint(&args, &root);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            !stderr(&output).is_empty(),
            "{args:?} must say what is wrong"
        );
    }
}

#[test]
fn concise_format_and_output_file() {
    let root = fixtures();
    let output = skilllint(
        &["SK005/fires", "--select", "SK005", "--format", "concise"],
        &root,
    );
    assert_eq!(
        stdout(&output),
        "SK005/fires/pdf-forms/SKILL.md:2:7: error SK005 [skill-name-folder-mismatch] skill name `pdf-filler` does not match its folder `pdf-forms`\n"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report.txt");
    let report_arg = report.to_string_lossy().into_owned();
    let written = skilllint(
        &[
            "SK005/fires",
            "--select",
            "SK005",
            "--format",
            "concise",
            "-o",
            &report_arg,
        ],
        &root,
    );
    assert!(stdout(&written).is_empty());
    let content = std::fs::read_to_string(&report).expect("report written");
    assert_eq!(content, stdout(&output));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let root = fixtures();
    let plain = skilllint(&["SK005/fires", "--select", "SK005"], &root);
    assert!(!stdout(&plain).contains('\u{1b}'), "no colour when piped");
    let forced = skilllint(
        &["SK005/fires", "--select", "SK005", "--color", "always"],
        &root,
    );
    assert!(stdout(&forced).contains('\u{1b}'));
    let never = skilllint(
        &["SK005/fires", "--select", "SK005", "--color", "never"],
        &root,
    );
    assert!(!stdout(&never).contains('\u{1b}'));
}

#[test]
fn bad_input_is_reported_and_the_rest_is_still_linted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(
        root,
        "broken-yaml/SKILL.md",
        b"---\nname: broken-yaml\ndescription: \"unclosed\n---\n",
    );
    write(
        root,
        "truncated/SKILL.md",
        b"---\nname: truncated\ndescription: Truncated tools. Use for tests.\n---\n",
    );
    write(
        root,
        "truncated/tools.json",
        b"[{\"name\": \"list_items\", \"type\": ",
    );
    write(root, "empty/SKILL.md", b"");
    write(root, "empty-tools/tools.json", b"");
    write(root, "binary/SKILL.md", b"---\nname: binary\x00\x01\x02");
    write(
        root,
        "latin1/SKILL.md",
        b"---\nname: latin1\ndescription: caf\xe9\n---\n",
    );
    write(root, "notes/SKILL.md", GOOD_SKILL.as_bytes());
    write(
        root,
        "nameless/SKILL.md",
        b"---\ndescription: No name. Use never.\n---\n",
    );

    let output = skilllint(
        &[".", "--format", "concise", "--select", "SK,TJ001,SL"],
        root,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stdout(&output);
    let expect = [
        "binary/SKILL.md:1:1: error SL001 [file-unreadable] the file is binary",
        "broken-yaml/SKILL.md:3:14: error SK002 [skill-frontmatter-invalid] frontmatter is not valid YAML",
        "empty/SKILL.md:1:1: error SK001 [skill-frontmatter-missing]",
        "empty-tools/tools.json:1:1: error TJ001 [tools-json-invalid]",
        "latin1/SKILL.md:3:17: error SL001 [file-unreadable] the file is not valid UTF-8",
        "nameless/SKILL.md:1:1: error SK003 [skill-name-missing]",
        "truncated/tools.json:1:",
    ];
    for line in expect {
        assert!(report.contains(line), "missing `{line}` in:\n{report}");
    }
    assert!(
        !report.contains("notes/SKILL.md"),
        "the good skill stays clean:\n{report}"
    );
    assert!(!stderr(&output).contains("panicked"));
}

#[test]
fn output_is_identical_for_any_thread_count() {
    let root = fixtures();
    let one = skilllint(
        &[
            ".",
            "--format",
            "concise",
            "--select",
            "ALL",
            "--threads",
            "1",
        ],
        &root,
    );
    let many = skilllint(
        &[
            ".",
            "--format",
            "concise",
            "--select",
            "ALL",
            "--threads",
            "4",
        ],
        &root,
    );
    assert!(!stdout(&one).is_empty());
    assert_eq!(stdout(&one), stdout(&many));
    let full_one = skilllint(&[".", "--select", "ALL", "--threads", "1"], &root);
    let full_many = skilllint(&[".", "--select", "ALL", "--threads", "3"], &root);
    assert_eq!(stdout(&full_one), stdout(&full_many));
}

#[test]
fn gitignored_files_are_skipped_unless_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(root, ".gitignore", b"vendor/\n");
    write(root, "vendor/bad/SKILL.md", b"no frontmatter\n");
    write(root, "node_modules/x/SKILL.md", b"no frontmatter\n");
    write(root, "notes/SKILL.md", GOOD_SKILL.as_bytes());
    let walked = skilllint(&[".", "--format", "concise"], root);
    assert_eq!(walked.status.code(), Some(0), "{}", stdout(&walked));
    let named = skilllint(&["vendor/bad/SKILL.md", "--format", "concise"], root);
    assert!(
        stdout(&named).contains("vendor/bad/SKILL.md:1:1: error SK001"),
        "{}",
        stdout(&named)
    );
}

#[test]
fn rules_and_rule_explain_every_rule() {
    let root = fixtures();
    let table = skilllint(&["rules"], &root);
    assert_eq!(table.status.code(), Some(0));
    assert!(stdout(&table).contains("SK001"));
    let json = skilllint(&["rules", "--format", "json"], &root);
    let parsed: serde_json::Value = serde_json::from_slice(&json.stdout).expect("rules JSON");
    let rules = parsed.as_array().expect("array of rules");
    assert!(!rules.is_empty());
    for rule in rules {
        let code = rule["code"].as_str().expect("code");
        let name = rule["name"].as_str().expect("name");
        for key in [code, name] {
            let explained = skilllint(&["rule", key], &root);
            assert_eq!(explained.status.code(), Some(0), "rule {key}");
            let text = stdout(&explained);
            assert!(text.starts_with(&format!("# {code} {name}")), "{text}");
            assert!(text.contains("## How to fix"), "{key}");
        }
    }
}

/// A repository with a skill that has an unknown field (SK008, warning) and a legacy skill with no
/// name (SK003, error).
fn config_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("git dir");
    write(
        root,
        "skills/notes/SKILL.md",
        b"---\nname: notes\ndescription: Keeps notes. Use when asked.\nauthor: me\n---\n",
    );
    write(
        root,
        "skills/legacy/old/SKILL.md",
        b"---\ndescription: Old. Use never.\n---\n",
    );
    dir
}

#[test]
fn config_is_discovered_upwards_and_flags_override_it() {
    let dir = config_repo();
    let root = dir.path();
    let both = skilllint(&[".", "--format", "concise"], root);
    assert_eq!(both.status.code(), Some(1));
    assert!(stdout(&both).contains("SK003") && stdout(&both).contains("SK008"));

    write(
        root,
        ".skilllint.toml",
        b"[lint]\nignore = [\"SK003\"]\nfail-on = \"warning\"\n[lint.severity]\nskill-unknown-field = \"error\"\n",
    );
    // Found from a subfolder, up to the repository root.
    let sub = root.join("skills");
    let configured = skilllint(&[".", "--format", "concise"], &sub);
    assert_eq!(
        stdout(&configured),
        "notes/SKILL.md:4:1: error SK008 [skill-unknown-field] unknown frontmatter field `author`\n"
    );
    // The command line wins over the file.
    let cli = skilllint(&[".", "--format", "concise", "--select", "SK003"], &sub);
    assert!(
        stdout(&cli).contains("SK003") && !stdout(&cli).contains("SK008"),
        "{}",
        stdout(&cli)
    );
    let fail_on = skilllint(
        &[
            ".",
            "--select",
            "SK008",
            "--ignore",
            "SK008",
            "--fail-on",
            "error",
        ],
        &sub,
    );
    assert_eq!(fail_on.status.code(), Some(0));
    // --isolated ignores the file; --config picks another one.
    let isolated = skilllint(&[".", "--format", "concise", "--isolated"], &sub);
    assert!(stdout(&isolated).contains("SK003"));
    write(root, "other.toml", b"[lint]\nselect = [\"SK003\"]\n");
    let other = root.join("other.toml");
    let chosen = skilllint(
        &[
            ".",
            "--format",
            "concise",
            "--config",
            &other.to_string_lossy(),
        ],
        &sub,
    );
    assert!(stdout(&chosen).contains("SK003") && !stdout(&chosen).contains("SK008"));
}

#[test]
fn config_globs_are_relative_to_the_config_file() {
    let dir = config_repo();
    let root = dir.path();
    write(
        root,
        "skilllint.toml",
        b"[lint]\nexclude = [\"skills/legacy/**\"]\n[lint.per-file-ignores]\n\"skills/notes/**\" = [\"skill-unknown-field\"]\n",
    );
    let sub = root.join("skills");
    let output = skilllint(&[".", "--format", "concise"], &sub);
    assert_eq!(stdout(&output), "", "both findings are configured away");
    assert_eq!(output.status.code(), Some(0));
    // A file named on the command line is linted even when excluded.
    let named = skilllint(&["legacy/old/SKILL.md", "--format", "concise"], &sub);
    assert!(stdout(&named).contains("SK003"), "{}", stdout(&named));
    // --exclude on the command line is relative to the current folder.
    write(root, "skilllint.toml", b"");
    let excluded = skilllint(
        &[".", "--format", "concise", "--exclude", "legacy/**"],
        &sub,
    );
    assert!(
        !stdout(&excluded).contains("SK003"),
        "{}",
        stdout(&excluded)
    );
    // Also from above the config folder: the config's globs stay relative to it, the command
    // line's to the current folder.
    std::fs::remove_file(root.join("skilllint.toml")).expect("remove the root config");
    write(
        root,
        "skills/skilllint.toml",
        b"[lint]\nexclude = [\"legacy/**\"]\n",
    );
    let above = skilllint(&["skills", "--format", "concise"], root);
    assert_eq!(
        stdout(&above),
        "skills/notes/SKILL.md:4:1: warning SK008 [skill-unknown-field] unknown frontmatter field `author`\n"
    );
    let both = skilllint(
        &[
            "skills",
            "--format",
            "concise",
            "--exclude",
            "skills/notes/**",
        ],
        root,
    );
    assert_eq!(stdout(&both), "", "{}", stderr(&both));
    assert_eq!(both.status.code(), Some(0));
}

#[test]
fn config_errors_point_into_the_toml_and_exit_2() {
    let dir = config_repo();
    let root = dir.path();
    for (text, expected) in [
        ("[lint]\nselekt = [\"SK003\"]\n", "unknown field `selekt`"),
        (
            "[lint]\nselect = [\"SK999\"]\n",
            "unknown rule selector `SK999`",
        ),
        (
            "[lint.per-file-ignores]\n\"SKILL.md\" = [\"SK003\"]\n",
            "would match only a file",
        ),
        ("[lint\n", "invalid configuration"),
    ] {
        write(root, "skilllint.toml", text.as_bytes());
        let output = skilllint(&["."], root);
        assert_eq!(output.status.code(), Some(2), "{text}");
        let err = stderr(&output);
        assert!(err.contains(expected), "{text}: {err}");
        assert!(
            err.contains("skilllint.toml:"),
            "the message names the file and line: {err}"
        );
    }
    let missing = skilllint(&[".", "--config", "nope.toml"], root);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn inline_suppressions_silence_findings_and_stay_in_sarif() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let tools = br#"[{"name": "list_events", "type": "read", "description": "List events.", "requiresConfirmation": false, "idempotent": false, "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}]"#;
    let skill = "---\nname: cal\ndescription: Lists events. Use when asked.\nowner: me # skilllint: ignore[SK008] read by our loader\n---\n\n## Tool Use Rules\n\n- Only the tools listed below may be used. Never invent or call other tools.\n- `list_events` is read-only.\n<!-- skilllint-disable-next-line TR004 -- removed next release -->\n- `sync_events` is the old name.\n<!-- skilllint-disable tool-phantom -->\n- `purge_events` is gone.\n- `merge_events` too.\n<!-- skilllint-enable tool-phantom -->\n- `fetch_events` is not suppressed.\n";
    write(root, "cal/SKILL.md", skill.as_bytes());
    write(root, "cal/tools.json", tools);

    let output = skilllint(&[".", "--format", "concise"], root);
    let report = stdout(&output);
    assert!(report.contains("`fetch_events`"), "{report}");
    for hidden in ["SK008", "sync_events", "purge_events", "merge_events"] {
        assert!(
            !report.contains(hidden),
            "{hidden} must be suppressed:\n{report}"
        );
    }
    assert!(
        stderr(&output).contains("4 suppressed inline"),
        "{}",
        stderr(&output)
    );

    let sarif = skilllint(&[".", "--format", "sarif"], root);
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let suppressed: Vec<&serde_json::Value> = results
        .iter()
        .filter(|r| r.get("suppressions").is_some())
        .collect();
    assert_eq!(suppressed.len(), 4);
    assert!(suppressed
        .iter()
        .any(|r| r["suppressions"][0]["kind"] == "inSource"
            && r["suppressions"][0]["justification"] == "removed next release"));

    let all = skilllint(&[".", "--format", "concise", "--no-inline-ignores"], root);
    for shown in [
        "SK008",
        "sync_events",
        "purge_events",
        "merge_events",
        "fetch_events",
    ] {
        assert!(
            stdout(&all).contains(shown),
            "{shown} with --no-inline-ignores"
        );
    }

    write(
        root,
        "cal/SKILL.md",
        format!("<!-- skilllint-disable-file TR004, SK001 -->\n{skill}").as_bytes(),
    );
    let file_wide = skilllint(&[".", "--format", "concise", "--select", "TR004"], root);
    assert_eq!(stdout(&file_wide), "", "disable-file covers the whole file");
}

#[test]
fn a_reader_that_stops_early_is_not_a_crash() {
    // `skilllint rules --format markdown | head -1`: the list is far larger than a pipe holds,
    // so writing it meets the closed pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(["rules", "--format", "markdown"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start skilllint");
    let mut first = [0u8; 16];
    if let Some(mut out) = child.stdout.take() {
        std::io::Read::read_exact(&mut out, &mut first).expect("read the first bytes");
        // Dropped here: the pipe closes with most of the list unwritten.
    }
    let output = child.wait_with_output().expect("wait for skilllint");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

#[test]
fn named_paths_outside_the_current_folder_print_as_the_user_wrote_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let elsewhere = dir.path().join("elsewhere");
    let cwd = dir.path().join("cwd");
    std::fs::create_dir_all(&cwd).expect("cwd");
    write(
        &elsewhere,
        "forms/SKILL.md",
        b"---\nname: other\ndescription: Fills forms. Use when asked.\n---\n",
    );
    let absolute = elsewhere.join("forms/SKILL.md");
    let absolute_arg = absolute.to_string_lossy().into_owned();
    let finding = "2:7: error SK005 [skill-name-folder-mismatch] skill name `other` does not match its folder `forms`\n";
    // Absolute stays absolute; `..` stays `..`.
    let concise = skilllint(&[&absolute_arg, "--format", "concise"], &cwd);
    assert_eq!(stdout(&concise), format!("{absolute_arg}:{finding}"));
    let dotted = skilllint(
        &["../elsewhere/forms/SKILL.md", "--format", "concise"],
        &cwd,
    );
    assert_eq!(
        stdout(&dotted),
        format!("../elsewhere/forms/SKILL.md:{finding}")
    );
    // Several folders: each finding under the folder as named.
    let folders = skilllint(
        &[&elsewhere.to_string_lossy(), ".", "--format", "concise"],
        &cwd,
    );
    assert_eq!(stdout(&folders), format!("{absolute_arg}:{finding}"));
    let github = skilllint(&[&absolute_arg, "--format", "github"], &cwd);
    assert!(
        stdout(&github).starts_with(&format!("::error file={absolute_arg},line=2,")),
        "{}",
        stdout(&github)
    );
    let full = skilllint(&[&absolute_arg], &cwd);
    assert!(
        stdout(&full).contains(&format!("[{absolute_arg}:2:7]")),
        "{}",
        stdout(&full)
    );
    // SARIF: outside %SRCROOT% (the current folder here), the file's own file:// URI.
    let canonical = absolute.canonicalize().expect("canonical path");
    for arg in [absolute_arg.as_str(), "../elsewhere/forms/SKILL.md"] {
        let sarif = skilllint(&[arg, "--format", "sarif"], &cwd);
        let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
        let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
        assert_eq!(
            location["artifactLocation"],
            serde_json::json!({ "uri": format!("file://{}", canonical.display()) }),
            "{arg}"
        );
    }
    // Inside %SRCROOT% (a repository around both folders), relative to it as usual.
    std::fs::create_dir_all(dir.path().join(".git")).expect("git dir");
    let sarif = skilllint(&["../elsewhere/forms/SKILL.md", "--format", "sarif"], &cwd);
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"],
        serde_json::json!({ "uri": "elsewhere/forms/SKILL.md", "uriBaseId": "%SRCROOT%" })
    );
}

#[test]
fn every_report_ends_its_last_line() {
    // The summary follows on stderr: a report without its last line feed would run into it
    // when both go to one terminal or log.
    let root = fixtures();
    for format in ["full", "concise", "json", "github", "sarif"] {
        let output = skilllint(&["SK011/fires", "SK005/fires", "--format", format], &root);
        let text = stdout(&output);
        assert!(
            !text.is_empty() && text.ends_with('\n'),
            "{format}: {text:?}"
        );
        if format == "github" {
            assert!(
                text.lines()
                    .all(|l| l.starts_with("::error ") || l.starts_with("::warning ")),
                "one command a line: {text}"
            );
        }
    }
}

/// Every file below `root` (but `.git`), relative path → bytes.
fn tree(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read folder").flatten() {
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            if path.is_dir() {
                pending.push(path);
            } else {
                let rel = path.strip_prefix(root).expect("below root");
                let bytes = std::fs::read(&path).expect("read file");
                files.insert(rel.to_string_lossy().replace('\\', "/"), bytes);
            }
        }
    }
    files
}

#[test]
fn the_diff_with_a_rename_is_a_patch_git_applies_as_fix_would() {
    let git_works = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !git_works {
        eprintln!("skipped: git is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (diffed, fixed) = (dir.path().join("diffed"), dir.path().join("fixed"));
    for root in [&diffed, &fixed] {
        // Renamed and edited (SK012 + SK005), only renamed (SK012), only edited (SK005).
        write(
            root,
            "forms/skill.md",
            b"---\nname: other\ndescription: Fills forms. Use when asked.\n---\n\n# Forms\n",
        );
        write(
            root,
            "notes/skill.md",
            b"---\nname: notes\ndescription: Keeps notes. Use when asked.\n---\n",
        );
        write(
            root,
            "pages/SKILL.md",
            b"---\nname: wrong\ndescription: Writes pages. Use when asked.\n---\n",
        );
    }
    let git = |args: &[&str], stdin: &[u8]| {
        let mut child = Command::new("git")
            .args(args)
            .current_dir(&diffed)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start git");
        if let Some(mut input) = child.stdin.take() {
            std::io::Write::write_all(&mut input, stdin).expect("write to git");
        }
        let output = child.wait_with_output().expect("wait for git");
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    git(&["init", "-q"], b"");

    let diff = skilllint(&[".", "--diff", "--unsafe-fixes"], &diffed);
    assert_eq!(diff.status.code(), Some(1), "{}", stderr(&diff));
    let patch = stdout(&diff);
    assert!(
        patch.contains(
            "diff --git a/forms/skill.md b/forms/SKILL.md\nsimilarity index 83%\nrename from forms/skill.md\nrename to forms/SKILL.md\n--- a/forms/skill.md\n+++ b/forms/SKILL.md\n"
        ) && patch.contains(
            "diff --git a/notes/skill.md b/notes/SKILL.md\nsimilarity index 100%\nrename from notes/skill.md\nrename to notes/SKILL.md\n"
        ),
        "{patch}"
    );
    assert!(
        stderr(&diff).contains("4 findings would be fixed (edits and renames in 3 files)"),
        "{}",
        stderr(&diff)
    );
    git(&["apply", "--check", "-"], patch.as_bytes());
    git(&["apply", "-"], patch.as_bytes());

    let fix = skilllint(&[".", "--fix", "--unsafe-fixes"], &fixed);
    assert_eq!(fix.status.code(), Some(0), "{}", stderr(&fix));
    let after_fix = tree(&fixed);
    assert!(after_fix.contains_key("forms/SKILL.md"), "{after_fix:?}");
    assert_eq!(tree(&diffed), after_fix);
}

#[test]
fn help_names_the_categories_the_files_read_and_the_exit_codes() {
    let root = fixtures();
    for flag in ["-h", "--help"] {
        let help = skilllint(&[flag], &root);
        assert_eq!(help.status.code(), Some(0));
        let text = stdout(&help);
        for needle in [
            "correctness, safety and style run by default; pedantic runs when selected",
            "SKILL.md",
            "*.tools.json",
            "requirement.yaml",
            "TOOL.md",
            "DRIVER.md",
            "CLI.md",
            "SECRETS.md that starts with frontmatter",
            "Exit codes: 0 no finding at or above --fail-on (default: error); 1 some; 2 usage",
        ] {
            assert!(text.contains(needle), "{flag} lacks {needle:?}:\n{text}");
        }
    }
    let rule_help = stdout(&skilllint(&["rule", "--help"], &root));
    assert!(
        rule_help.contains("<CODE|NAME>") && rule_help.contains("by code or by name"),
        "{rule_help}"
    );
}

#[test]
fn rule_names_match_in_any_case_wherever_a_rule_is_named() {
    let root = fixtures();
    let explained = skilllint(&["rule", "Write-Tool-Without-Confirmation"], &root);
    assert_eq!(explained.status.code(), Some(0), "{}", stderr(&explained));
    assert!(stdout(&explained).starts_with("# TJ003 write-tool-without-confirmation"));
    let selected = skilllint(
        &[
            "SK005/fires",
            "--select",
            "Skill-Name-Folder-Mismatch",
            "--format",
            "concise",
        ],
        &root,
    );
    assert!(stdout(&selected).contains("SK005"), "{}", stderr(&selected));
    let ignored = skilllint(
        &[
            "SK005/fires",
            "--select",
            "CORRECTNESS",
            "--ignore",
            "SKILL-NAME-FOLDER-MISMATCH",
            "--format",
            "concise",
        ],
        &root,
    );
    assert_eq!(ignored.status.code(), Some(0), "{}", stderr(&ignored));
    assert!(!stdout(&ignored).contains("SK005"), "{}", stdout(&ignored));

    // The configuration file and inline suppressions take names in any case too.
    let dir = config_repo();
    let root = dir.path();
    write(
        root,
        "skilllint.toml",
        b"[lint]\nselect = [\"Skill-Unknown-Field\", \"Skill-Name-Missing\"]\n\
[lint.severity]\nSKILL-UNKNOWN-FIELD = \"error\"\n\
[lint.per-file-ignores]\n\"skills/legacy/**\" = [\"Skill-Name-Missing\"]\n",
    );
    let configured = skilllint(&[".", "--format", "concise"], root);
    assert_eq!(
        stdout(&configured),
        "skills/notes/SKILL.md:4:1: error SK008 [skill-unknown-field] unknown frontmatter field `author`\n",
        "{}",
        stderr(&configured)
    );
    write(
        root,
        "skills/notes/SKILL.md",
        b"---\nname: notes\ndescription: Keeps notes. Use when asked.\nauthor: me # skilllint: ignore[Skill-Unknown-Field] kept for the index\n---\n",
    );
    let suppressed = skilllint(&[".", "--format", "concise"], root);
    assert_eq!(stdout(&suppressed), "", "{}", stderr(&suppressed));
    assert!(
        stderr(&suppressed).contains("1 suppressed inline"),
        "{}",
        stderr(&suppressed)
    );
}

#[test]
fn configuration_errors_are_drawn_like_findings() {
    let root = fixtures();
    let finding = stdout(&skilllint(&["SK005/fires", "--select", "SK005"], &root));
    let dir = config_repo();
    write(
        dir.path(),
        "skilllint.toml",
        b"[lint]\nselect = [\"SK003\"\n",
    );
    for (args, coloured) in [
        (vec!["."], false),
        (vec![".", "--color", "never"], false),
        (vec![".", "--color", "always"], true),
    ] {
        let output = skilllint(&args, dir.path());
        assert_eq!(output.status.code(), Some(2));
        let err = stderr(&output);
        assert_eq!(err.contains('\u{1b}'), coloured, "{args:?}: {err}");
        if coloured {
            continue;
        }
        let plain = err;
        // The characters of a finding's snippet: `╭─[path:line:col]`, `│`, `·`, `╰──`.
        for drawn in ["   ╭─[", " │ ", "   · ", "╰── ", "   ╰────"] {
            assert!(
                finding.contains(drawn),
                "a finding draws {drawn:?}: {finding}"
            );
            assert!(plain.contains(drawn), "{args:?} draws {drawn:?}:\n{plain}");
        }
        assert!(
            plain.starts_with("error: invalid configuration: unclosed array, expected `]`\n")
                && plain.contains("skilllint.toml:2:18]\n")
                && plain.contains(" 2 │ select = [\"SK003\" \n"),
            "{plain}"
        );
        assert!(!plain.contains(",-[") && !plain.contains("`--"), "{plain}");
    }
}

/// The fenced blocks of the README section under `heading`, in order.
fn readme_blocks(heading: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("read README.md");
    let start = readme
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README.md has no `{heading}`"));
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme[start + heading.len() + 2..].lines() {
        match (&mut current, line.starts_with("```")) {
            // The next heading outside a block ends the section.
            (None, false) if line.starts_with("## ") => break,
            (None, true) => current = Some(String::new()),
            (Some(block), true) => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), false) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, false) => {}
        }
    }
    blocks
}

#[test]
fn the_readme_example_prints_what_the_readme_shows() {
    let blocks = readme_blocks("## A first finding");
    let [skill, tools, console] = blocks.as_slice() else {
        panic!("expected SKILL.md, tools.json and the console output: {blocks:?}");
    };
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "invoices/SKILL.md", skill.as_bytes());
    write(dir.path(), "invoices/tools.json", tools.as_bytes());
    let shown = console
        .strip_prefix("$ skilllint .\n")
        .expect("the console block starts with the command");
    let output = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .arg(".")
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("run skilllint");
    assert_eq!(output.status.code(), Some(1));
    // A terminal shows the report, then the summary from standard error.
    assert_eq!(format!("{}{}", stdout(&output), stderr(&output)), shown);
}

#[test]
fn the_checkout_lints_clean_and_its_fixtures_still_lint_by_path() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let whole = skilllint(&[".", "--format", "concise"], repo);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    assert_eq!(stdout(&whole), "", "skilllint . in the checkout");
    // Named, the test data is linted with the defaults (tests/fixtures/skilllint.toml).
    let fixture = skilllint(&["tests/fixtures/SK005/fires", "--format", "concise"], repo);
    assert_eq!(
        stdout(&fixture),
        "tests/fixtures/SK005/fires/pdf-forms/SKILL.md:2:7: error SK005 [skill-name-folder-mismatch] skill name `pdf-filler` does not match its folder `pdf-forms`\n"
    );
    let formats = skilllint(&["tests/formats", "--format", "concise"], repo);
    assert_eq!(formats.status.code(), Some(1), "{}", stderr(&formats));
}

#[test]
fn a_named_skill_file_renamed_by_its_fix_is_linted_under_its_new_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(
        root,
        "notes/skill.md",
        b"---\nname: notes\ndescription: Keeps notes. Use when asked.\n---\n",
    );
    let absolute = root.join("notes/skill.md").to_string_lossy().into_owned();
    for named in ["notes/skill.md", absolute.as_str()] {
        let fixed = skilllint(&[named, "--fix"], root);
        assert_eq!(fixed.status.code(), Some(0), "{named}: {}", stderr(&fixed));
        assert!(
            stderr(&fixed).starts_with("Fixed 1 finding.\nAll checks passed"),
            "{named}: {}",
            stderr(&fixed)
        );
        assert!(root.join("notes/SKILL.md").is_file());
        std::fs::rename(root.join("notes/SKILL.md"), root.join("notes/skill.md"))
            .expect("undo the rename");
    }
}

#[test]
fn references_between_files_named_outside_the_current_folder_still_resolve() {
    // A driver naming its tool by a path from its own folder, in a repository named by an
    // absolute path (beside another folder) or by a `..` path.
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    let clean = fixtures().join("DR003/clean");
    for rel in [
        "SECRETS.md",
        ".tools/image-create/TOOL.md",
        ".drivers/openai-images-http/DRIVER.md",
    ] {
        let text = std::fs::read_to_string(clean.join(rel)).expect("read fixture");
        let text = text.replace(
            "  - tool: image-create\n",
            "  - tool: ../../.tools/image-create/TOOL.md\n",
        );
        write(&repo, rel, text.as_bytes());
    }
    let cwd = dir.path().join("cwd");
    std::fs::create_dir_all(&cwd).expect("cwd");
    let absolute = repo.to_string_lossy().into_owned();
    for args in [
        vec![absolute.as_str(), "."],
        vec!["../repo", "."],
        vec!["../repo"],
    ] {
        let mut args = args.clone();
        args.extend(["--select", "ALL", "--format", "concise"]);
        let output = skilllint(&args, &cwd);
        assert_eq!(stdout(&output), "", "{args:?}");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// The summary counts the tools beside the skills: a server's repository of tools is not
/// "(0 skills)".
#[test]
fn the_summary_counts_the_tools() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tool = |name: &str| {
        format!(
            r#"{{"name": "{name}", "description": "Lists the {name} of the calendar.", "inputSchema": {{"type": "object", "properties": {{}}, "additionalProperties": false}}}}"#
        )
    };
    write(
        dir.path(),
        "server/tools.json",
        format!(
            "[{}, {}, {}]",
            tool("events"),
            tool("calendars"),
            tool("rooms")
        )
        .as_bytes(),
    );
    write(
        dir.path(),
        "agents/helper.md",
        b"---\nname: helper\ndescription: Helps with the calendar.\n---\n\nHelp.\n",
    );
    let output = skilllint(&["."], dir.path());
    assert!(
        stderr(&output).contains("All checks passed: 2 files (0 skills, 3 tools, 1 agent)."),
        "{}",
        stderr(&output)
    );
}
