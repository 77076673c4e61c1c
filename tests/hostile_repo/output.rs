//! Output attacks: control characters, bidi overrides and forged workflow commands in tool names,
//! file contents and file names must never reach a terminal or a CI log raw, and a name that is
//! not UTF-8 must be reported as itself.

use super::common;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::Output;

const FORMATS: [&str; 5] = ["full", "concise", "json", "github", "sarif"];

/// A workflow command hidden in a tool name: printed raw, the log would show a second annotation.
const FORGED: &str = "\n::error file=README.md,line=1::forged";

/// The characters a terminal or a log viewer acts on instead of showing: C0 and C1 controls
/// (line feed only as skilllint's own line end), DEL, and the bidi controls of Trojan Source.
fn is_raw_control(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{061c}'
        )
}

fn raw_controls(text: &str) -> Vec<char> {
    text.chars().filter(|&c| is_raw_control(c)).collect()
}

fn run(root: &Path, format: &str) -> Output {
    common::skilllint(&["--isolated", "--format", format, "."], root)
}

/// The report on stdout, which must be UTF-8 whatever the file names are.
fn report(output: &Output) -> String {
    match String::from_utf8(output.stdout.clone()) {
        Ok(text) => text,
        Err(_) => panic!("stdout is not UTF-8: {:?}", output.stdout),
    }
}

/// The findings as json reports them: (path, code).
fn findings(root: &Path) -> Vec<(String, String)> {
    let output = run(root, "json");
    let items: serde_json::Value = serde_json::from_str(&report(&output)).expect("json output");
    items
        .as_array()
        .expect("a json array")
        .iter()
        .map(|item| {
            (
                item["path"].as_str().expect("path").to_string(),
                item["code"].as_str().expect("code").to_string(),
            )
        })
        .collect()
}

/// A skill whose SKILL.md body clears the screen, retitles the terminal and reverses text, and
/// whose tools.json declares an unconfirmed write tool (TJ003, SC007 quote its name) named with a
/// forged workflow command, an ESC colour sequence, a C1 CSI and a right-to-left override.
fn hostile_skill(root: &Path) {
    common::write(
        root,
        "demo/SKILL.md",
        "---\nname: demo\ndescription: Demo skill. Use it for demos.\n---\n\n# Demo\n\n\
         Clear \x1b[2J screen and \x1b]0;pwned\x07 title and \u{202e} reversed text here.\n"
            .as_bytes(),
    );
    let name = format!("create{FORGED}\u{1b}[31m\u{9b}\u{202e}\u{7f}");
    let tools = serde_json::json!([{
        "name": name,
        "type": "write",
        "description": "Create a thing once the user confirmed it.",
        "requiresConfirmation": false,
        "idempotent": false,
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}
    }]);
    // Written as it is (not `\u` escapes) where JSON allows: the raw U+009B, U+202E and DEL are
    // in the file, so the snippets carry them too.
    let text = serde_json::to_string_pretty(&tools).expect("json");
    common::write(root, "demo/tools.json", text.as_bytes());
}

#[test]
fn a_forged_annotation_in_a_tool_name_stays_on_its_finding_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    hostile_skill(root);
    // A folder whose name reads as more workflow-command properties.
    common::write(root, "x,line=1::y%/SKILL.md", b"no frontmatter\n");
    let count = findings(root).len();
    assert!(
        count >= 3,
        "TJ003 and SC007 quote the tool name, SK001 the folder"
    );
    let own_paths = ["demo/", "x,line=1::y%/"];

    let concise = report(&run(root, "concise"));
    assert_eq!(
        concise.lines().count(),
        count,
        "one line per finding:\n{concise}"
    );
    for line in concise.lines() {
        let own = own_paths.iter().any(|path| line.starts_with(path));
        assert!(own, "not a finding: {line}");
    }
    assert!(concise.contains(r"create\u{a}::error file=README.md,line=1::forged\u{1b}[31m"));

    let github = report(&run(root, "github"));
    assert_eq!(
        github.lines().count(),
        count,
        "one line per finding:\n{github}"
    );
    // Paths are workflow-command properties: `,` and `:` escaped too.
    let own_properties = ["file=demo/", "file=x%2Cline=1%3A%3Ay%25/"];
    for line in github.lines() {
        let own = ["::error ", "::warning ", "::notice "]
            .iter()
            .any(|command| {
                own_properties
                    .iter()
                    .any(|path| line.starts_with(&format!("{command}{path}")))
            });
        assert!(own, "not one of skilllint's annotations: {line}");
    }
    assert!(!github.contains("\n::error file=README.md"));
}

#[test]
fn no_raw_control_character_reaches_stdout_or_stderr_in_any_format() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    hostile_skill(root);
    // A folder named with an escape sequence: every path printed carries it.
    common::write(
        root,
        "evil\x1b]0;owned\x07\u{202e}/SKILL.md",
        b"no frontmatter\n",
    );
    for format in FORMATS {
        let output = run(root, format);
        let stdout = report(&output);
        let stderr = common::stderr(&output);
        assert!(!stdout.is_empty(), "{format}: no report");
        assert_eq!(
            raw_controls(&stdout),
            Vec::<char>::new(),
            "{format} stdout:\n{stdout}"
        );
        assert_eq!(
            raw_controls(&stderr),
            Vec::<char>::new(),
            "{format} stderr:\n{stderr}"
        );
    }
}

/// (char column of `needle` in the first snippet line containing it, char column of the first
/// underline character in the label line under it).
fn underline_under(full: &str, needle: &str) -> (usize, usize) {
    let lines: Vec<&str> = full.lines().collect();
    let at = lines
        .iter()
        .position(|line| line.contains(needle) && line.contains('│'))
        .unwrap_or_else(|| panic!("no snippet line with {needle}:\n{full}"));
    let before = &lines[at][..lines[at].find(needle).expect("needle")];
    let underline = lines
        .get(at + 1)
        .and_then(|line| line.chars().position(|c| c == '─' || c == '┬'))
        .unwrap_or_else(|| panic!("no label under {needle}:\n{full}"));
    (before.chars().count(), underline)
}

#[test]
fn full_format_snippets_show_escape_sequences_escaped_with_labels_in_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    hostile_skill(root);
    let full = report(&run(root, "full"));
    assert_eq!(raw_controls(&full), Vec::<char>::new(), "{full}");
    // The line as the reader should see it: every sequence spelled out.
    assert!(
        full.contains(
            r"Clear \u{1b}[2J screen and \u{1b}]0;pwned\u{7} title and \u{202e} reversed"
        ),
        "{full}"
    );
    // SE003 flags the override itself: the underline starts at its escaped form.
    let (column, underline) = underline_under(&full, r"\u{202e} reversed");
    assert_eq!(column, underline, "{full}");
    // Labels after an escaped line keep pointing at their own text.
    let (column, underline) = underline_under(&full, "\"write\"");
    assert_eq!(column, underline, "{full}");
}

/// Creates `root/<folder>/SKILL.md` (a SKILL.md without frontmatter: SK001) under a raw-byte
/// folder name.
fn skill_in_folder(root: &Path, folder: &[u8]) {
    let dir = root.join(OsStr::from_bytes(folder));
    std::fs::create_dir_all(&dir).expect("create folder");
    std::fs::write(dir.join("SKILL.md"), "no frontmatter\n").expect("write");
}

#[test]
fn names_that_are_not_utf8_are_reported_losslessly_and_distinctly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    skill_in_folder(root, b"b\xffd");
    skill_in_folder(root, b"b\xfed");
    // The escaped form spelled out literally: must not be taken for the byte.
    skill_in_folder(root, br"b\xffd");
    // A backslash that escapes nothing prints as today.
    skill_in_folder(root, br"a\b");

    let paths: Vec<String> = findings(root)
        .into_iter()
        .filter(|(_, code)| code == "SK001")
        .map(|(path, _)| path)
        .collect();
    assert_eq!(
        paths,
        vec![
            r"a\b/SKILL.md",
            r"b\\xffd/SKILL.md",
            r"b\xfed/SKILL.md",
            r"b\xffd/SKILL.md",
        ]
    );
    let concise = report(&run(root, "concise"));
    assert!(
        concise.contains(r"b\xffd/SKILL.md:1:1: error SK001"),
        "{concise}"
    );
    assert!(
        concise.contains(r"b\xfed/SKILL.md:1:1: error SK001"),
        "{concise}"
    );
    assert!(!concise.contains('\u{fffd}'), "{concise}");
}

#[test]
fn sarif_uris_percent_encode_the_real_bytes_of_the_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    skill_in_folder(root, b"b\xffd");
    skill_in_folder(root, b"sp ace#%\x1b");
    skill_in_folder(root, br"b\xffd");
    let sarif: serde_json::Value =
        serde_json::from_str(&report(&run(root, "sarif"))).expect("sarif is json");
    let mut uris: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["ruleId"] == "SK001")
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("uri")
        })
        .collect();
    uris.sort_unstable();
    assert_eq!(
        uris,
        vec![
            "b%5Cxffd/SKILL.md",
            "b%FFd/SKILL.md",
            "sp%20ace%23%25%1B/SKILL.md"
        ]
    );
}

#[test]
fn stderr_names_a_path_escaped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = OsStr::from_bytes(b"gone\x1b]0;owned\x07\xff");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args([OsStr::new("--isolated"), missing])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("run skilllint");
    let stderr = common::stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(raw_controls(&stderr), Vec::<char>::new(), "{stderr}");
    assert!(stderr.contains(r"gone\u{1b}]0;owned\u{7}\xff"), "{stderr}");
}

#[test]
fn a_configuration_error_quotes_the_configuration_escaped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    common::write(
        root,
        "skilllint.toml",
        b"[lint]\nselect = [\"ALL\"\x1b[2J\x1b]0;owned\x07\n",
    );
    let output = common::skilllint(&["."], root);
    let stderr = common::stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(raw_controls(&stderr), Vec::<char>::new(), "{stderr}");
    // The quoted line keeps its length (each control becomes one `?`), so the label still
    // points at the key.
    assert!(
        stderr.contains(r#"select = ["ALL"?[2J?]0;owned?"#),
        "{stderr}"
    );
}

/// `-o skilllint.sarif` as the Action runs it, in a checkout where the pull request planted a
/// link at that name and a folder link on the way to another name.
#[test]
fn the_report_file_is_never_written_through_a_planted_link() {
    let dir = tempfile::tempdir().expect("temp dir");
    let outside = tempfile::tempdir().expect("outside dir");
    let victim = outside.path().join("victim.sh");
    std::fs::write(&victim, b"echo original\n").expect("write victim");
    let root = dir.path();
    common::write(
        root,
        "notes/SKILL.md",
        b"---\nname: notes\ndescription: Keeps notes. Use when the user asks to note something.\n---\n\n# Notes\n",
    );
    std::os::unix::fs::symlink(&victim, root.join("skilllint.sarif")).expect("file link");
    std::os::unix::fs::symlink(outside.path(), root.join("out")).expect("folder link");

    let output = common::skilllint(&["--format", "sarif", "-o", "skilllint.sarif", "."], root);
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
    assert_eq!(
        std::fs::read(&victim).expect("read victim"),
        b"echo original\n"
    );
    let written = std::fs::symlink_metadata(root.join("skilllint.sarif")).expect("stat report");
    assert!(written.file_type().is_file(), "the link was not replaced");
    let report = std::fs::read_to_string(root.join("skilllint.sarif")).expect("read report");
    assert!(report.contains("\"version\": \"2.1.0\""), "{report}");

    let output = common::skilllint(&["--format", "sarif", "-o", "out/r.sarif", "."], root);
    let stderr = common::stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("out/r.sarif"), "{stderr}");
    assert!(!outside.path().join("r.sarif").exists());
}

/// `skilllint */SKILL.md` as a shell runs it in `root`: the glob expands there.
fn lint_glob(root: &Path, script: &str) -> Output {
    std::process::Command::new("sh")
        .args(["-c", script])
        .env("SKILLLINT", env!("CARGO_BIN_EXE_skilllint"))
        .env("NO_COLOR", "1")
        .current_dir(root)
        .output()
        .expect("run sh")
}

const NOTE_SKILL: &[u8] =
    b"---\nname: notes\ndescription: Keeps notes. Use when the user asks to note something.\n---\n\n# Notes\n\nSee [the guide](missing.md).\n";

/// Folders named like flags, which `skilllint */SKILL.md` hands over as flags: the report
/// written outside the repository (`--output=..`) or over one of its files (`-ocalendar`), and the
/// repository's own file loaded as the configuration (`--config=x`, with a TOML `x/SKILL.md`)
/// or as the baseline, which would switch every finding off.
#[test]
fn a_folder_named_like_a_flag_is_refused_when_a_glob_expands_it() {
    for (folder, planted) in [
        ("--output=..", None),
        ("-ocalendar", None),
        ("--config=x", Some("[lint]\nignore = [\"ALL\"]\n")),
        ("--baseline=x", Some("{\"version\": 1, \"entries\": []}\n")),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("repo");
        common::write(&root, &format!("{folder}/SKILL.md"), NOTE_SKILL);
        common::write(&root, "calendar/SKILL.md", NOTE_SKILL);
        if let Some(planted) = planted {
            common::write(&root, "x/SKILL.md", planted.as_bytes());
        }
        let output = lint_glob(&root, "\"$SKILLLINT\" */SKILL.md");
        let stderr = common::stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{folder}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "`{folder}/SKILL.md` is a flag and also a file or folder"
            )),
            "{folder}: {stderr}"
        );
        assert!(
            !dir.path().join("SKILL.md").exists(),
            "{folder}: a report outside the repository"
        );
        assert_eq!(
            std::fs::read(root.join("calendar/SKILL.md")).expect("read"),
            NOTE_SKILL,
            "{folder}: the report replaced a file of the repository"
        );
        // After `--` the same words are paths, and every skill is linted.
        let output = lint_glob(&root, "\"$SKILLLINT\" --format concise -- */SKILL.md");
        let stdout = common::stdout(&output);
        assert_eq!(output.status.code(), Some(1), "{folder}: {stdout}");
        assert!(
            stdout.contains(&format!("{folder}/SKILL.md:8:")),
            "{folder}: {stdout}"
        );
        assert!(
            stdout.contains("calendar/SKILL.md:8:"),
            "{folder}: {stdout}"
        );
    }
}

/// Behind the glob check, the report writer itself: a relative `-o` with `..` and a report over
/// a file the run linted are refused however they were typed.
#[test]
fn the_report_is_never_written_over_a_linted_file_or_up_out_of_the_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    common::write(&root, "calendar/SKILL.md", NOTE_SKILL);
    let output = common::skilllint(&["-o", "../report.txt", "."], &root);
    let stderr = common::stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("-o/--output ../report.txt: a relative path with `..` is refused"),
        "{stderr}"
    );
    assert!(!dir.path().join("report.txt").exists());
    let output = common::skilllint(&["--write-baseline", "sub/../../b.json", "."], &root);
    assert_eq!(output.status.code(), Some(2), "{}", common::stderr(&output));
    assert!(!dir.path().join("b.json").exists());

    for target in ["calendar/SKILL.md", "./calendar/../calendar/SKILL.md"] {
        let output = common::skilllint(&["-o", target, "calendar/SKILL.md"], &root);
        let stderr = common::stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        if !target.contains("..") {
            assert!(stderr.contains("it is a file this run linted"), "{stderr}");
        }
        assert_eq!(
            std::fs::read(root.join("calendar/SKILL.md")).expect("read"),
            NOTE_SKILL
        );
    }
    // An absolute path outside is the user's own choice.
    let report = dir.path().join("report.txt");
    let output = common::skilllint(&["-o", report.to_str().expect("UTF-8"), "."], &root);
    assert_eq!(output.status.code(), Some(1), "{}", common::stderr(&output));
    assert!(std::fs::read_to_string(&report)
        .expect("report")
        .contains("SK011"));
}

#[test]
fn a_folder_name_that_is_not_utf8_is_escaped_in_messages_too() {
    // The path was escaped but SK005's message quoted the folder name lossily (U+FFFD), so two
    // folders differing in those bytes read the same.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let folder = root.join(OsStr::from_bytes(b"bad\xffname"));
    std::fs::create_dir_all(&folder).expect("create folder");
    std::fs::write(
        folder.join("SKILL.md"),
        "---\nname: other\ndescription: Does things. Use it when asked.\n---\n\n# X\n",
    )
    .expect("write");
    for format in ["concise", "json"] {
        let text = report(&run(root, format));
        assert!(!text.contains('\u{fffd}'), "{text}");
        let quoted = if format == "json" {
            r"does not match its folder `bad\\xffname`"
        } else {
            r"does not match its folder `bad\xffname`"
        };
        assert!(text.contains(quoted), "{text}");
    }
}

#[test]
fn a_folder_without_skills_is_named_escaped_in_the_nothing_found_message() {
    // A folder a shell glob (`skilllint */`) turns into an argument: its name clears the screen,
    // retitles the terminal and forges a workflow annotation.
    let dir = tempfile::tempdir().expect("temp dir");
    let name = format!("x\u{1b}[2J\u{1b}]0;owned\u{7}\u{202e}{FORGED}");
    common::write(
        dir.path(),
        &format!("{name}/notes.txt"),
        b"nothing to lint\n",
    );
    for format in FORMATS {
        let output = common::skilllint(&["--isolated", "--format", format, &name], dir.path());
        let stderr = common::stderr(&output);
        assert!(
            stderr.contains("No skill or tool files found under x\\u{1b}[2J"),
            "{format}: {stderr}"
        );
        assert_eq!(
            raw_controls(&stderr),
            Vec::<char>::new(),
            "{format}: {stderr}"
        );
        assert!(
            !stderr.lines().any(|line| line.starts_with("::error")),
            "{format}: {stderr}"
        );
    }
}
