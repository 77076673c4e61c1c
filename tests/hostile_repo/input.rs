//! Nothing is skipped silently: folders that cannot be read, paths skilllint does not read,
//! FIFOs, an empty run, BOMs and UTF-16, folder symlinks inside and out of the root.

use super::common;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Long enough for a slow, loaded machine; a run that blocks on a FIFO never ends at all.
const HANG_TIMEOUT: Duration = Duration::from_secs(20);

/// A skill that draws no finding of its own under the default rules.
const CLEAN_SKILL: &str = "---\nname: real\ndescription: Reads the weather for a city. Use when the user asks about the weather.\n---\n\n# Weather\n\nAsk for the city, then report the forecast.\n";

/// Runs skilllint like `common::skilllint`, but kills it after `HANG_TIMEOUT`, so a regression
/// that blocks (on a FIFO, say) fails the test instead of hanging the suite. Output goes to files
/// outside `cwd`: a pipe nobody reads while waiting could fill and block the child by itself.
fn skilllint_with_timeout(args: &[&str], cwd: &Path) -> Output {
    let capture = tempfile::tempdir().expect("capture dir");
    let out_path = capture.path().join("stdout");
    let err_path = capture.path().join("stderr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("run skilllint");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for skilllint") {
            break status;
        }
        if started.elapsed() > HANG_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("skilllint {args:?} did not finish within {HANG_TIMEOUT:?}: it hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: std::fs::read(&out_path).expect("read stdout"),
        stderr: std::fs::read(&err_path).expect("read stderr"),
    }
}

fn make_fifo(path: &Path) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// The concise lines of `output` that name `code`.
fn lines_with<'a>(stdout: &'a str, code: &str) -> Vec<&'a str> {
    let needle = format!(" {code} ");
    stdout.lines().filter(|l| l.contains(&needle)).collect()
}

/// Asserts an SL001 "not a regular file" at each of `paths`, and exit code 1.
fn assert_not_regular_file_errors(output: &Output, paths: &[&str]) {
    let stdout = common::stdout(output);
    let sl001 = lines_with(&stdout, "SL001");
    for path in paths {
        assert!(
            sl001
                .iter()
                .any(|l| l.starts_with(&format!("{path}:")) && l.contains("not a regular file")),
            "expected SL001 `not a regular file` at {path}, got:\n{stdout}"
        );
    }
    assert_eq!(output.status.code(), Some(1), "{stdout}");
}

#[test]
fn a_fifo_named_like_a_skill_file_in_the_tree_is_reported_never_opened() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    common::write(root, "weather/SKILL.md", CLEAN_SKILL.as_bytes());
    make_fifo(&root.join("piped/SKILL.md"));
    make_fifo(&root.join("piped/tools.json"));
    let output = skilllint_with_timeout(&[".", "--format", "concise"], root);
    assert_not_regular_file_errors(&output, &["piped/SKILL.md", "piped/tools.json"]);
}

#[test]
fn a_fifo_named_on_the_command_line_is_reported_never_opened() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    make_fifo(&root.join("tools.json"));
    make_fifo(&root.join("stream"));
    let output = skilllint_with_timeout(&["tools.json", "stream", "--format", "concise"], root);
    assert_not_regular_file_errors(&output, &["tools.json", "stream"]);
}

#[test]
fn a_named_file_skilllint_does_not_read_is_an_error_not_a_pass() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    common::write(root, "real/SKILL.md", CLEAN_SKILL.as_bytes());
    common::write(root, "real/README.md", b"# Weather\n");
    common::write(root, "real/foo.json", b"{\"tools\": []}\n");
    let output = common::skilllint(
        &["real/README.md", "real/foo.json", "--format", "concise"],
        root,
    );
    let stdout = common::stdout(&output);
    let stderr = common::stderr(&output);
    // A named JSON file is read by its content: an empty tool list holds no tools, so it is no
    // file kind skilllint reads, as a README is not.
    for path in ["real/README.md", "real/foo.json"] {
        assert!(
            lines_with(&stdout, "SL004")
                .iter()
                .any(|l| l.starts_with(&format!("{path}:"))
                    && l.contains("not a file kind skilllint reads")),
            "expected SL004 at {path}, got:\n{stdout}"
        );
    }
    assert!(!stderr.contains("All checks passed"), "{stderr}");
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
}

#[test]
fn a_run_that_finds_nothing_to_read_says_so_and_where_it_looked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    common::write(root, "docs/README.md", b"# Nothing for skilllint here\n");
    common::write(root, "package.json", b"{}\n");
    std::fs::create_dir_all(root.join("empty")).expect("folder");
    for (args, looked_in) in [(vec!["."], "."), (vec!["empty"], "empty")] {
        let output = common::skilllint(&args, root);
        let stderr = common::stderr(&output);
        assert!(!stderr.contains("All checks passed"), "{stderr}");
        assert!(!stderr.contains("0 files"), "{stderr}");
        assert!(
            stderr.contains(&format!("No skill or tool files found under {looked_in}")),
            "{stderr}"
        );
        assert!(
            stderr.contains("SKILL.md"),
            "names what it looks for: {stderr}"
        );
        assert_eq!(output.status.code(), Some(0), "{stderr}");
    }
}

/// Where `needle` starts in `text`, as 1-based line and character column.
fn line_col_of(text: &str, needle: &str) -> (usize, usize) {
    line_col_at(text, text.find(needle).expect("needle in text"))
}

/// The 1-based line and character column of byte `offset` in `text`.
fn line_col_at(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[test]
fn a_tools_json_with_a_utf8_bom_is_linted_at_the_right_line_and_column() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // One tool on the first line, one below: the BOM must shift neither column.
    let tools = "[{\"name\": \"delete_files\", \"type\": \"write\", \"description\": \"Deletes the files the user names.\", \"requiresConfirmation\": false, \"idempotent\": true, \"inputSchema\": {\"type\": \"object\", \"additionalProperties\": false, \"properties\": {}}},\n {\"name\": \"drop_table\", \"type\": \"write\", \"description\": \"Drops the table the user names.\", \"requiresConfirmation\": false, \"idempotent\": true, \"inputSchema\": {\"type\": \"object\", \"additionalProperties\": false, \"properties\": {}}}]\n";
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(tools.as_bytes());
    common::write(root, "ops/tools.json", &bytes);
    // And the same in YAML, where the column on the first line was one too far.
    let requirement = "tools: 5\n";
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(requirement.as_bytes());
    common::write(root, "ops/requirement.yaml", &bytes);

    let output = common::skilllint(&[".", "--format", "concise", "--select", "TJ"], root);
    let stdout = common::stdout(&output);
    assert!(lines_with(&stdout, "TJ001").is_empty(), "{stdout}");
    let tj003 = lines_with(&stdout, "TJ003");
    assert_eq!(tj003.len(), 2, "{stdout}");
    // Reported at the value of each tool's confirmation flag.
    let expected: Vec<String> = tools
        .match_indices("\"requiresConfirmation\": false")
        .map(|(offset, _)| {
            let offset = offset + "\"requiresConfirmation\": ".len();
            let (line, column) = line_col_at(tools, offset);
            format!("ops/tools.json:{line}:{column}:")
        })
        .collect();
    assert_eq!(expected.len(), 2);
    for (found, expected) in tj003.iter().zip(&expected) {
        assert!(
            found.starts_with(expected.as_str()),
            "{found} vs {expected}\n{stdout}"
        );
    }
    let (line, column) = line_col_of(requirement, "5");
    assert!(
        lines_with(&stdout, "TJ013")
            .iter()
            .any(|l| l.starts_with(&format!("ops/requirement.yaml:{line}:{column}:"))),
        "{stdout}"
    );
}

#[test]
fn utf16_files_are_reported_as_utf16_not_binary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let text = "[{\"name\": \"get_weather\", \"description\": \"Reads the weather.\"}]\n";
    let little: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let big: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    common::write(
        root,
        "le-bom/tools.json",
        &[&[0xFF, 0xFE], &little[..]].concat(),
    );
    common::write(
        root,
        "be-bom/tools.json",
        &[&[0xFE, 0xFF], &big[..]].concat(),
    );
    common::write(root, "le/tools.json", &little);
    common::write(
        root,
        "be/SKILL.md",
        &"---\nname: be\n---\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect::<Vec<u8>>(),
    );
    let output = common::skilllint(&[".", "--format", "concise"], root);
    let stdout = common::stdout(&output);
    for path in [
        "le-bom/tools.json",
        "be-bom/tools.json",
        "le/tools.json",
        "be/SKILL.md",
    ] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{path}:")))
            .unwrap_or_else(|| panic!("no finding at {path}:\n{stdout}"));
        assert!(line.contains(" SL001 "), "{line}");
        assert!(line.contains("UTF-16"), "{line}");
        assert!(line.contains("re-save"), "{line}");
        assert!(!line.contains("binary"), "{line}");
    }
    assert_eq!(output.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn a_folder_symlink_inside_the_root_does_not_lint_the_skill_twice() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // A skill with one finding (its name does not match its folder), so a second walk shows.
    common::write(
        root,
        "real/SKILL.md",
        CLEAN_SKILL.replace("name: real", "name: other").as_bytes(),
    );
    std::os::unix::fs::symlink("real", root.join("alias")).expect("folder link");
    let output = common::skilllint(&[".", "--format", "concise"], root);
    let stdout = common::stdout(&output);
    let stderr = common::stderr(&output);
    assert!(
        stdout.lines().any(|l| l.starts_with("real/SKILL.md:")),
        "{stdout}"
    );
    assert!(
        !stdout.contains("alias/"),
        "linted through the alias:\n{stdout}"
    );
    assert!(stderr.contains("in 1 file (1 skill)"), "{stderr}");

    // The user excluded the real folder: the alias does not bring it back.
    let output = common::skilllint(&[".", "--format", "concise", "--exclude", "real/**"], root);
    let stdout = common::stdout(&output);
    assert!(!stdout.contains("SKILL.md"), "{stdout}");
}

#[cfg(unix)]
#[test]
fn a_link_through_a_symlink_to_a_folder_outside_leaves_the_skill_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let outside = tempfile::tempdir().expect("outside dir");
    common::write(outside.path(), "guide.md", b"# Outside the repository\n");
    let root = dir.path();
    let skill = CLEAN_SKILL.replace("name: real", "name: docs").replace(
        "report the forecast.",
        "report the forecast as [the guide](shared/guide.md) says, in [the format](shared/format.md) of [the notes](shared/notes.md).",
    );
    common::write(root, "docs/SKILL.md", skill.as_bytes());
    std::os::unix::fs::symlink(outside.path(), root.join("docs/shared")).expect("folder link");
    let output = common::skilllint(&[".", "--format", "concise"], root);
    let stdout = common::stdout(&output);
    // Not SK011: nothing outside the lint root is looked at, so whether it exists is not known.
    assert!(lines_with(&stdout, "SK011").is_empty(), "{stdout}");
    // One finding for the symlink, on its first link, however many links lead through it.
    let sk017 = lines_with(&stdout, "SK017");
    assert_eq!(sk017.len(), 1, "{stdout}");
    assert!(sk017[0].starts_with("docs/SKILL.md:"), "{stdout}");
    assert!(
        sk017[0].contains(
            "link to `shared/guide.md` leads outside the skill folder through a symlink, \
             as do 2 more links of this file"
        ),
        "{stdout}"
    );
    // The link itself is not walked (nothing outside is linted).
    assert!(!stdout.contains("docs/shared/"), "{stdout}");
}

/// How to run skilllint without root's power to read anything: as is when not root, else as
/// `nobody` through `setpriv` where it is installed; `None` when neither works.
fn unprivileged_command() -> Option<Command> {
    let binary = env!("CARGO_BIN_EXE_skilllint");
    if !common::running_as_root() {
        return Some(Command::new(binary));
    }
    let setpriv_works = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .status()
        .is_ok_and(|s| s.success());
    setpriv_works.then(|| {
        let mut command = Command::new("setpriv");
        command.args(["--reuid=65534", "--regid=65534", "--clear-groups", binary]);
        command
    })
}

#[cfg(unix)]
#[test]
fn a_folder_that_cannot_be_read_is_an_error_at_that_folder() {
    use std::os::unix::fs::PermissionsExt;
    let Some(mut command) = unprivileged_command() else {
        eprintln!("skipped: running as root without setpriv, and root can read a folder without permissions");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // Readable by the unprivileged user, but for the locked folder.
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    common::write(
        root,
        "open/SKILL.md",
        CLEAN_SKILL.replace("name: real", "name: open").as_bytes(),
    );
    common::write(
        root,
        "locked/SKILL.md",
        CLEAN_SKILL.replace("name: real", "name: locked").as_bytes(),
    );
    let locked = root.join("locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let output = command
        .args([".", "--format", "concise"])
        .current_dir(root)
        .env("NO_COLOR", "1")
        .output()
        .expect("run skilllint");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod back");
    let stdout = common::stdout(&output);
    let sl001 = lines_with(&stdout, "SL001");
    assert!(
        sl001
            .iter()
            .any(|l| l.starts_with("locked:") && l.contains("cannot be read")),
        "{stdout}{}",
        common::stderr(&output)
    );
    assert_eq!(sl001.len(), 1, "{stdout}");
    assert_eq!(output.status.code(), Some(1), "{stdout}");
}

#[test]
fn folders_nested_past_the_depth_limit_are_reported_not_dropped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // Just past the limit: the folder at the limit is reported, the skill below it is not read.
    let depth = 300;
    let deep: String = (0..depth).map(|_| "d/").collect();
    common::write(root, &format!("{deep}SKILL.md"), CLEAN_SKILL.as_bytes());
    let output = common::skilllint(&[".", "--format", "concise"], root);
    let stdout = common::stdout(&output);
    let sl001 = lines_with(&stdout, "SL001");
    assert_eq!(sl001.len(), 1, "{stdout}");
    assert!(sl001[0].contains("deeper than"), "{stdout}");
    assert!(sl001[0].starts_with("d/d/"), "{stdout}");
    assert_eq!(output.status.code(), Some(1), "{stdout}");
}

#[test]
fn a_named_symlink_in_the_repository_to_a_file_outside_is_not_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let outside = tempfile::tempdir().expect("outside dir");
    // Broken frontmatter: were the file read, the full report would quote its lines.
    common::write(
        outside.path(),
        "secret.md",
        b"---\nname: [unterminated\nTOKEN=hunter2-outside\n",
    );
    let root = dir.path();
    common::write(root, "real/SKILL.md", CLEAN_SKILL.as_bytes());
    std::fs::create_dir_all(root.join("evil")).expect("folder");
    std::os::unix::fs::symlink(outside.path().join("secret.md"), root.join("evil/SKILL.md"))
        .expect("file link");
    // What a shell makes of `skilllint */SKILL.md` in the repository.
    let output = common::skilllint(&["evil/SKILL.md", "real/SKILL.md"], root);
    let stdout = common::stdout(&output);
    let stderr = common::stderr(&output);
    assert!(
        !stdout.contains("hunter2") && !stderr.contains("hunter2"),
        "{stdout}{stderr}"
    );
    assert!(stdout.contains("SL001"), "{stdout}");
    assert!(stdout.contains("outside the lint root"), "{stdout}");
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    // The same link found as a sibling of a named file is not read either.
    let output = common::skilllint(&["--format", "concise", "real/SKILL.md"], root);
    assert!(!common::stdout(&output).contains("hunter2"));
}

/// On macOS and Windows an agent opens `Skill.md` or `SKILL.MD` as the skill file; a run that
/// never read them would pass a skill the agent loads. They are linted as skills, SK012 names
/// them, and beside a real `SKILL.md` the `SKILL.md` is the skill (it sorts after `SKILL.MD`).
#[test]
fn other_cases_of_the_skill_file_name_are_linted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let skill = |name: &str| {
        format!("---\nname: {name}\ndescription: Keeps {name}. Use when asked.\n---\n\n# {name}\n\nSee [the guide](missing.md).\n")
    };
    common::write(root, "mixed/Skill.md", skill("mixed").as_bytes());
    common::write(root, "upper/SKILL.MD", skill("upper").as_bytes());
    common::write(root, "both/SKILL.md", skill("both").as_bytes());
    common::write(
        root,
        "both/SKILL.MD",
        b"---\nname: elsewhere\ndescription: x\n---\n",
    );
    let output = common::skilllint(&["--isolated", "--format", "concise", "."], root);
    let stdout = common::stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    for (file, name) in [
        ("mixed/Skill.md", "Skill.md"),
        ("upper/SKILL.MD", "SKILL.MD"),
    ] {
        assert!(
            stdout.contains(&format!(
                "{file}:1:1: warning SK012 [skill-file-lowercase] skill file is named `{name}`"
            )),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!("{file}:8:")),
            "not linted as a skill: {stdout}"
        );
    }
    assert!(stdout.contains("both/SKILL.md:8:"), "{stdout}");
    assert!(!stdout.contains("both/SKILL.MD"), "{stdout}");
}
