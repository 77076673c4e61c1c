//! End-to-end tests of the binary: exit codes, formats, determinism and bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skilllint(args: &[&str], cwd: &Path) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
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
        "pdf-forms/SKILL.md:2:7: error SK005 [skill-name-folder-mismatch] skill name `pdf-filler` does not match its folder `pdf-forms`\n"
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
