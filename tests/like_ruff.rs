//! End-to-end tests of the habits skilllint shares with ruff: `check` as the lint's command,
//! `--output-format`, `--exit-zero`, `-q/--quiet` and `-s/--silent`, and `SKILLLINT_`
//! environment variables for the common flags.

#[path = "support/binary.rs"]
mod binary;

use binary::{run, skilllint, stderr, stdout};
use std::path::Path;
use std::process::{Command, Output};

fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create fixture folder");
    }
    std::fs::write(path, content).expect("write fixture file");
}

/// A folder with one skill whose name does not match its folder: an SK005 error with an unsafe
/// fix.
fn repo_with_a_finding() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "pages/SKILL.md",
        "---\nname: wrong\ndescription: Writes pages. Use when asked.\n---\n",
    );
    dir
}

/// What a run printed and how it ended, to compare two runs.
fn seen(output: &Output) -> (Option<i32>, String, String) {
    (output.status.code(), stdout(output), stderr(output))
}

#[test]
fn check_is_the_lint_and_output_format_is_format() {
    let dir = repo_with_a_finding();
    let bare = skilllint(&["pages", "--format", "concise"], dir.path());
    assert_eq!(bare.status.code(), Some(1), "{}", stderr(&bare));
    assert!(stdout(&bare).contains("SK005"), "{}", stdout(&bare));
    for args in [
        &["check", "pages", "--format", "concise"][..],
        &["check", "pages", "--output-format", "concise"],
        &["check", "--output-format=concise", "pages"],
        &["pages", "--output-format", "concise"],
    ] {
        assert_eq!(seen(&skilllint(args, dir.path())), seen(&bare), "{args:?}");
    }
    // Without a path, `check` lints the current folder as the bare command does.
    assert_eq!(
        seen(&skilllint(&["check", "--format", "json"], dir.path())),
        seen(&skilllint(&["--format", "json"], dir.path()))
    );
    // The format's values are checked under either name.
    let bad = skilllint(&["check", "--output-format", "yaml"], dir.path());
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    let help = stdout(&skilllint(&["check", "--help"], dir.path()));
    assert!(
        help.contains("--format") && help.contains("output-format") && help.contains("Exit codes"),
        "{help}"
    );
}

#[test]
fn check_named_like_a_folder_and_flags_that_are_files_stay_refused() {
    let dir = repo_with_a_finding();
    write(
        dir.path(),
        "check/SKILL.md",
        "---\nname: check\ndescription: Checks pages. Use when asked.\n---\n",
    );
    // `check` is the command (linting the current folder), and the note says how to lint the
    // folder `check`.
    let command = skilllint(&["check", "--format", "concise"], dir.path());
    assert_eq!(command.status.code(), Some(1));
    assert!(
        stdout(&command).contains("pages/SKILL.md"),
        "{}",
        stdout(&command)
    );
    assert!(
        stderr(&command).contains(
            "note: `check` was read as the `check` command; to lint the path `check`, write `skilllint ./check`"
        ),
        "{}",
        stderr(&command)
    );
    let folder = skilllint(&["./check", "--format", "concise"], dir.path());
    assert_eq!(folder.status.code(), Some(0), "{}", stdout(&folder));
    assert!(!stderr(&folder).contains("note:"), "{}", stderr(&folder));
    let both = skilllint(&["check", "check", "--format", "concise"], dir.path());
    assert_eq!(both.status.code(), Some(0), "{}", stdout(&both));

    // A glob that expanded to a flag is refused after `check` as it is without it.
    write(dir.path(), "--config=x/SKILL.md", "---\nname: x\n---\n");
    for args in [
        &["check", "--config=x/SKILL.md"][..],
        &["--config=x/SKILL.md"],
    ] {
        let refused = skilllint(args, dir.path());
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&refused).contains("is a flag and also a file or folder"),
            "{}",
            stderr(&refused)
        );
    }
    let after_dashes = skilllint(&["check", "--", "--config=x/SKILL.md"], dir.path());
    assert_ne!(
        after_dashes.status.code(),
        Some(2),
        "{}",
        stderr(&after_dashes)
    );
}

#[test]
fn exit_zero_exits_0_with_findings_and_2_on_usage_errors() {
    let dir = repo_with_a_finding();
    for command in [&[][..], &["check"]] {
        let with = |rest: &[&str]| {
            let args: Vec<&str> = command.iter().chain(rest).copied().collect();
            skilllint(&args, dir.path())
        };
        assert_eq!(with(&[]).status.code(), Some(1));
        let zero = with(&["--exit-zero"]);
        assert_eq!(zero.status.code(), Some(0));
        assert!(stderr(&zero).contains("Found 1 error"), "{}", stderr(&zero));
        // A diff with changes exits 1, and 0 with --exit-zero (ruff's order).
        let diff = with(&["--diff", "--unsafe-fixes"]);
        assert_eq!(diff.status.code(), Some(1));
        let diff_zero = with(&["--diff", "--unsafe-fixes", "--exit-zero"]);
        assert_eq!(diff_zero.status.code(), Some(0));
        assert_eq!(stdout(&diff_zero), stdout(&diff));
        assert!(stdout(&diff_zero).contains("+name: pages"));
        for usage in [
            &["--exit-zero", "--select", "XX999"][..],
            &["--exit-zero", "no/such/path"],
            &["--exit-zero", "--no-such-flag"],
            &["--exit-zero", "--config", "missing.toml"],
        ] {
            assert_eq!(with(usage).status.code(), Some(2), "{usage:?}");
        }
    }
    // The fix is not written by --diff.
    assert!(std::fs::read_to_string(dir.path().join("pages/SKILL.md"))
        .is_ok_and(|text| text.contains("name: wrong")));
}

#[test]
fn quiet_prints_only_the_findings() {
    let dir = repo_with_a_finding();
    let loud = skilllint(&["check", "--format", "concise"], dir.path());
    assert!(stderr(&loud).contains("Found 1 error"), "{}", stderr(&loud));
    for flag in ["-q", "--quiet"] {
        let quiet = skilllint(&["check", flag, "--format", "concise"], dir.path());
        assert_eq!(quiet.status.code(), Some(1));
        assert_eq!(stdout(&quiet), stdout(&loud));
        assert_eq!(stderr(&quiet), "");
    }
    // Not the note about a folder named like the command either.
    write(
        dir.path(),
        "check/SKILL.md",
        "---\nname: check\ndescription: Checks pages. Use when asked.\n---\n",
    );
    let noted = skilllint(&["check", "--format", "concise"], dir.path());
    assert!(
        stderr(&noted).contains("note: `check` was read"),
        "{}",
        stderr(&noted)
    );
    let quiet = skilllint(&["check", "-q", "--format", "concise"], dir.path());
    assert_eq!(stderr(&quiet), "");
    assert!(
        stdout(&quiet).contains("pages/SKILL.md"),
        "{}",
        stdout(&quiet)
    );
    // A diff is the output: --quiet drops only its summary line.
    let diff = skilllint(&["-q", "--diff", "--unsafe-fixes"], dir.path());
    assert!(stdout(&diff).contains("+name: pages"), "{}", stdout(&diff));
    assert_eq!(stderr(&diff), "");
    // Nor --add-noqa's note about findings no comment can hold (JSON has none).
    write(
        dir.path(),
        "tools.json",
        r#"[{"name":"delete_repo","description":"Deletes a repository.","input_schema":{"type":"object"}}]"#,
    );
    let noqa = skilllint(&["--add-noqa"], dir.path());
    assert!(
        stderr(&noqa).contains("note: 2 findings are left without a comment"),
        "{}",
        stderr(&noqa)
    );
    for flag in ["-q", "-s"] {
        let hushed = skilllint(&["--add-noqa", flag], dir.path());
        assert_eq!(
            seen(&hushed),
            (Some(0), String::new(), String::new()),
            "{flag}"
        );
    }
    // An error is still said.
    let error = skilllint(&["-q", "--select", "XX999"], dir.path());
    assert_eq!(error.status.code(), Some(2));
    assert!(stderr(&error).contains("XX999"), "{}", stderr(&error));
}

#[test]
fn silent_prints_nothing_and_still_writes_the_report_to_a_file() {
    let dir = repo_with_a_finding();
    for args in [
        &["-s"][..],
        &["check", "--silent"],
        &["--silent", "--format", "sarif"],
        &["-s", "--statistics"],
        &["-s", "--diff", "--unsafe-fixes"],
    ] {
        let silent = skilllint(args, dir.path());
        assert_eq!(silent.status.code(), Some(1), "{args:?}");
        assert_eq!(seen(&silent).1 + &seen(&silent).2, "", "{args:?}");
    }
    let zero = skilllint(&["-s", "--exit-zero"], dir.path());
    assert_eq!(seen(&zero), (Some(0), String::new(), String::new()));

    let to_file = skilllint(&["-s", "--format", "json", "-o", "report.json"], dir.path());
    assert_eq!(seen(&to_file), (Some(1), String::new(), String::new()));
    let report = std::fs::read_to_string(dir.path().join("report.json")).unwrap_or_default();
    assert!(report.contains("\"SK005\""), "{report}");
    assert_eq!(
        report,
        stdout(&skilllint(&["--format", "json"], dir.path())),
        "the same report as without --silent"
    );

    // Standard input fixed: the fixed text is the output, the report is left out.
    let mut child = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args([
            "-s",
            "-",
            "--stdin-filename",
            "pages/SKILL.md",
            "--fix",
            "--unsafe-fixes",
        ])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run skilllint");
    if let Some(mut input) = child.stdin.take() {
        use std::io::Write;
        input
            .write_all(b"---\nname: other\ndescription: Writes pages. Use when asked.\n---\n")
            .expect("write standard input");
    }
    let fixed = child.wait_with_output().expect("skilllint's output");
    assert_eq!(
        stdout(&fixed),
        "---\nname: pages\ndescription: Writes pages. Use when asked.\n---\n"
    );
    assert_eq!(stderr(&fixed), "");

    // The baseline commands write their file and say nothing.
    let baseline = skilllint(&["-s", "--write-baseline", "base.json"], dir.path());
    assert_eq!(seen(&baseline), (Some(0), String::new(), String::new()));
    assert!(dir.path().join("base.json").is_file());
    // --diff wrote nothing.
    assert!(std::fs::read_to_string(dir.path().join("pages/SKILL.md"))
        .is_ok_and(|text| text.contains("name: wrong")));

    // Errors are still said; asking to print and to print nothing is a usage error.
    for args in [
        &["-s", "--select", "XX999"][..],
        &["-s", "-q"],
        &["-s", "--show-files"],
        &["-s", "--show-settings"],
    ] {
        let error = skilllint(args, dir.path());
        assert_eq!(error.status.code(), Some(2), "{args:?}");
        assert_ne!(stderr(&error), "", "{args:?}");
    }
}

#[test]
fn skilllint_variables_set_the_common_flags_and_the_command_line_wins() {
    let dir = repo_with_a_finding();
    let root = dir.path();
    let concise = stdout(&skilllint(&["--format", "concise"], root));
    assert!(
        concise.starts_with("pages/SKILL.md:2:7: error SK005"),
        "{concise}"
    );
    let json = stdout(&skilllint(&["--format", "json"], root));
    let by_env = run(&["check"], root, &[("SKILLLINT_FORMAT", "concise")]);
    assert_eq!(stdout(&by_env), concise);
    let flag_wins = run(
        &["--format", "json"],
        root,
        &[("SKILLLINT_FORMAT", "concise")],
    );
    assert_eq!(stdout(&flag_wins), json);
    let bad = run(&[], root, &[("SKILLLINT_FORMAT", "yaml")]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    // Only the lint reads them: `tools` has formats of its own.
    let tools = run(&["tools"], root, &[("SKILLLINT_FORMAT", "concise")]);
    assert_eq!(tools.status.code(), Some(0), "{}", stderr(&tools));

    let to_file = run(&["-q"], root, &[("SKILLLINT_OUTPUT", "env.txt")]);
    assert_eq!(seen(&to_file), (Some(1), String::new(), String::new()));
    assert!(std::fs::read_to_string(root.join("env.txt")).is_ok_and(|t| t.contains("SK005")));
    run(
        &["-o", "flag.txt"],
        root,
        &[("SKILLLINT_OUTPUT", "other.txt")],
    );
    assert!(root.join("flag.txt").is_file() && !root.join("other.txt").exists());

    write(root, "quiet.toml", "[lint]\nignore = [\"SK005\"]\n");
    write(root, "loud.toml", "[lint]\nselect = [\"SK005\"]\n");
    let configured = run(&[], root, &[("SKILLLINT_CONFIG", "quiet.toml")]);
    assert_eq!(configured.status.code(), Some(0), "{}", stdout(&configured));
    let setting = run(
        &[],
        root,
        &[("SKILLLINT_CONFIG", "lint.ignore=[\"SK005\"]")],
    );
    assert_eq!(setting.status.code(), Some(0), "{}", stdout(&setting));
    let config_flag = run(
        &["--config", "loud.toml"],
        root,
        &[("SKILLLINT_CONFIG", "quiet.toml")],
    );
    assert_eq!(config_flag.status.code(), Some(1));

    // SK008 is a warning: it fails the run only under --fail-on warning.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let warned = ["SK008/fires", "--select", "SK008"];
    let lenient = skilllint(&warned, &fixtures);
    assert_eq!(lenient.status.code(), Some(0), "{}", stderr(&lenient));
    assert!(stderr(&lenient).contains("warning"), "{}", stderr(&lenient));
    let strict = run(&warned, &fixtures, &[("SKILLLINT_FAIL_ON", "warning")]);
    assert_eq!(strict.status.code(), Some(1));
    let mut error_flag = warned.to_vec();
    error_flag.extend(["--fail-on", "error"]);
    let fail_on_flag = run(&error_flag, &fixtures, &[("SKILLLINT_FAIL_ON", "warning")]);
    assert_eq!(fail_on_flag.status.code(), Some(0));

    let threads = run(&[], root, &[("SKILLLINT_THREADS", "many")]);
    assert_eq!(threads.status.code(), Some(2));
    assert!(stderr(&threads).contains("many"), "{}", stderr(&threads));
    let one = run(&["--format", "json"], root, &[("SKILLLINT_THREADS", "1")]);
    assert_eq!(stdout(&one), json);

    // Set and empty is unset, as `NO_COLOR=` is.
    let empty = [
        ("SKILLLINT_FORMAT", ""),
        ("SKILLLINT_OUTPUT", ""),
        ("SKILLLINT_CONFIG", ""),
        ("SKILLLINT_FAIL_ON", ""),
        ("SKILLLINT_THREADS", ""),
    ];
    let unset = run(&["--format", "concise"], root, &empty);
    assert_eq!(
        seen(&unset),
        seen(&skilllint(&["--format", "concise"], root))
    );
    let help = stdout(&skilllint(&["--help"], root));
    for (name, _) in empty {
        assert!(help.contains(&format!("[env: {name}=]")), "{name}: {help}");
    }
}

/// `--format gitlab` and `--format junit` from the command line: GitLab's paths are relative to
/// `CI_PROJECT_DIR` when it is set (the checkout, whatever folder the job runs in), the findings
/// still exit 1, and a JUnit report written with `-o` names each finding's file.
#[test]
fn gitlab_and_junit_reports_from_the_command_line() {
    let dir = repo_with_a_finding();
    let nested = dir.path().join("pages");
    let (code, out, _) = seen(&run(
        &["--format", "gitlab", "."],
        &nested,
        &[("CI_PROJECT_DIR", &dir.path().display().to_string())],
    ));
    assert_eq!(code, Some(1));
    let report: serde_json::Value = serde_json::from_str(&out).expect("a JSON report");
    assert_eq!(report[0]["check_name"], "SK005", "{out}");
    assert_eq!(report[0]["location"]["path"], "pages/SKILL.md", "{out}");
    assert_eq!(report[0]["location"]["lines"]["begin"], 2, "{out}");
    let (_, plain, _) = seen(&skilllint(&["--format", "gitlab", "."], &nested));
    assert!(plain.contains("\"path\": \"SKILL.md\""), "{plain}");

    let (code, out, _) = seen(&skilllint(
        &["--output-format", "junit", "-o", "report.xml"],
        dir.path(),
    ));
    assert_eq!((code, out.as_str()), (Some(1), ""));
    let xml = std::fs::read_to_string(dir.path().join("report.xml")).expect("the report");
    assert!(
        xml.contains("<testsuite name=\"pages/SKILL.md\" tests=\"1\" failures=\"1\" errors=\"0\">"),
        "{xml}"
    );
    assert!(xml.contains("<failure type=\"SK005\""), "{xml}");
}

/// Plain `--diff` says how many fixes it leaves out because they are unsafe, as ruff does; with
/// `--unsafe-fixes` they are in the diff and nothing is left out.
#[test]
fn plain_diff_counts_the_unsafe_fixes_it_does_not_show() {
    let dir = repo_with_a_finding();
    let (code, out, err) = seen(&skilllint(&["--diff", "."], dir.path()));
    assert_eq!((code, out.as_str()), (Some(0), ""));
    assert!(
        err.contains("0 findings would be fixed (edits in 0 files); 1 more with an unsafe fix not shown (`--diff --unsafe-fixes` shows it)."),
        "{err}"
    );
    let (code, out, err) = seen(&skilllint(&["--diff", "--unsafe-fixes", "."], dir.path()));
    assert_eq!(code, Some(1));
    assert!(out.contains("+name: pages"), "{out}");
    assert!(
        err.contains("1 finding would be fixed (edits in 1 file).\n"),
        "{err}"
    );
    assert!(!err.contains("not shown"), "{err}");
}
