//! Configuration is repository data: a `skilllint.toml` may be a symlink to a secret, a FIFO, a
//! huge file or binary bytes; errors quote at most the offending line. Also the size cap
//! (`--max-file-size`, `[lint] max-file-size`), schemas whose patterns cannot be compiled, and
//! `-o` errors that name the file.

use super::common::{skilllint, skilllint_limited, stderr, stdout, write};
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

/// Standard error with miette's line wrapping undone: words joined by single spaces, the `│`
/// of continuation lines dropped.
fn flat_stderr(output: &Output) -> String {
    stderr(output)
        .split_whitespace()
        // The gutter miette draws where it wraps a long message.
        .filter(|word| *word != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

/// A folder that discovery treats as a repository root (it holds `.git`), with one clean skill.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join(".git")).expect("git dir");
    write(
        dir.path(),
        "notes/SKILL.md",
        b"---\nname: notes\ndescription: Keeps notes. Use when asked to remember something.\n---\n\nBody.\n",
    );
    dir
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

#[cfg(unix)]
#[test]
fn a_discovered_config_linking_out_of_the_repository_is_refused_unread() {
    let outside = tempfile::tempdir().expect("outside dir");
    let secret = outside.path().join("secret.toml");
    std::fs::write(&secret, "TOKEN=hunter2\n[lint]\nbogus = 1\n").expect("secret");
    let repo = repository();
    symlink(&secret, &repo.path().join("skilllint.toml"));
    let output = skilllint(&["."], repo.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("skilllint.toml"), "names the link: {err}");
    assert!(err.contains("symbolic link"), "says why: {err}");
    assert!(!err.contains("hunter2"), "the target was echoed: {err}");
    assert!(!stdout(&output).contains("hunter2"));

    // The same from a subfolder: discovery walks up and finds the link at the repository root.
    let from_below = skilllint(&["."], &repo.path().join("notes"));
    assert_eq!(from_below.status.code(), Some(2), "{}", stderr(&from_below));
    assert!(!stderr(&from_below).contains("hunter2"));

    // `/proc/self/environ` is the classic: the environment holds the CI's tokens.
    if Path::new("/proc/self/environ").exists() {
        std::fs::remove_file(repo.path().join("skilllint.toml")).expect("remove link");
        symlink(
            Path::new("/proc/self/environ"),
            &repo.path().join("skilllint.toml"),
        );
        let environ = skilllint_limited(
            &["."],
            repo.path(),
            &[("SECRET_TOKEN", "hunter2")],
            Duration::from_secs(30),
        );
        assert_eq!(environ.status.code(), Some(2));
        assert!(
            !stderr(&environ).contains("hunter2"),
            "{}",
            stderr(&environ)
        );
    }

    // A link to a file inside the folder it was found in is an ordinary shared config.
    std::fs::remove_file(repo.path().join("skilllint.toml")).expect("remove link");
    write(repo.path(), "config/shared.toml", b"[lint]\nbogus = 1\n");
    symlink(
        Path::new("config/shared.toml"),
        &repo.path().join("skilllint.toml"),
    );
    let inside = skilllint(&["."], repo.path());
    assert_eq!(inside.status.code(), Some(2));
    assert!(
        stderr(&inside).contains("unknown field `bogus`"),
        "the linked config inside the repository is read: {}",
        stderr(&inside)
    );

    // `--config` is the user's own choice and may point anywhere.
    std::fs::write(&secret, "[lint]\nselect = [\"SK\"]\n").expect("rewrite outside config");
    let chosen = skilllint(&[".", "--config", &secret.to_string_lossy()], repo.path());
    assert_eq!(chosen.status.code(), Some(0), "{}", stderr(&chosen));
}

#[cfg(unix)]
#[test]
fn a_config_that_is_a_fifo_is_never_opened() {
    let repo = repository();
    let fifo = repo.path().join("skilllint.toml");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let limit = Duration::from_secs(30);
    let discovered = skilllint_limited(&["."], repo.path(), &[("X", "1")], limit);
    assert_eq!(discovered.status.code(), Some(2));
    assert!(
        stderr(&discovered).contains("not a regular file"),
        "{}",
        stderr(&discovered)
    );
    // Named with --config, it would block forever on open if it were opened.
    let named = skilllint_limited(
        &[".", "--config", "skilllint.toml"],
        repo.path(),
        &[("X", "1")],
        limit,
    );
    assert_eq!(named.status.code(), Some(2));
    assert!(stderr(&named).contains("not a regular file"));
}

#[test]
fn a_config_over_the_size_cap_is_refused_unread() {
    let repo = repository();
    // Valid TOML (comments) just over 4 MiB: only the cap can refuse it.
    let mut text = String::from("[lint]\n");
    let line = format!("# {}\n", "x".repeat(1022));
    while text.len() <= 4 * 1024 * 1024 {
        text.push_str(&line);
    }
    write(repo.path(), "skilllint.toml", text.as_bytes());
    let output = skilllint(&["."], repo.path());
    let err = flat_stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("size limit"), "{err}");
    assert!(
        err.len() < 2000,
        "the config was echoed: {} bytes",
        err.len()
    );

    // The cap is the command line's (a config cannot raise its own cap before it is read).
    write(
        repo.path(),
        "skilllint.toml",
        b"[lint]\nmax-file-size = \"64MiB\"\n# padding\n",
    );
    let capped = skilllint(&[".", "--max-file-size", "16"], repo.path());
    assert_eq!(capped.status.code(), Some(2));
    assert!(
        flat_stderr(&capped).contains("size limit"),
        "{}",
        stderr(&capped)
    );
    let explicit = skilllint(
        &[".", "--max-file-size", "16", "--config", "skilllint.toml"],
        repo.path(),
    );
    assert_eq!(explicit.status.code(), Some(2));
    assert!(flat_stderr(&explicit).contains("size limit"));
}

#[test]
fn config_errors_quote_only_the_offending_line() {
    let repo = repository();
    let mut lines = vec![
        "[lint]".to_string(),
        "# MARKER-before-7f3a".to_string(),
        "bogus-key = 1".to_string(),
        "# MARKER-after-7f3a".to_string(),
    ];
    while lines.len() < 50 {
        lines.push(format!("# filler {} MARKER-far-7f3a", lines.len() + 1));
    }
    write(
        repo.path(),
        "skilllint.toml",
        format!("{}\n", lines.join("\n")).as_bytes(),
    );
    let output = skilllint(&["."], repo.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("bogus-key = 1"), "quotes line 3: {err}");
    assert!(err.contains("skilllint.toml:3:1"), "names the place: {err}");
    assert!(
        err.contains("here"),
        "the label still points at the key: {err}"
    );
    assert!(!err.contains("MARKER"), "quotes other lines: {err}");

    // A syntax error whose span runs to the end of the file quotes its first line only.
    lines[2] = "select = [\"SK\",".to_string();
    write(
        repo.path(),
        "skilllint.toml",
        format!("{}\n", lines.join("\n")).as_bytes(),
    );
    let syntax = skilllint(&["."], repo.path());
    assert_eq!(syntax.status.code(), Some(2));
    assert!(!stderr(&syntax).contains("MARKER"), "{}", stderr(&syntax));

    // Bytes that are not UTF-8 are described, never echoed.
    write(
        repo.path(),
        "skilllint.toml",
        b"[lint]\n\xff\xfe secret-bytes-91c2\n",
    );
    let binary = skilllint(&["."], repo.path());
    let err = flat_stderr(&binary);
    assert_eq!(binary.status.code(), Some(2));
    assert!(
        err.contains("not valid UTF-8 (invalid byte at offset 7)"),
        "{err}"
    );
    assert!(!err.contains("secret-bytes"), "{err}");
    write(
        repo.path(),
        "skilllint.toml",
        b"[lint]\0secret-bytes-91c2\n",
    );
    let nul = skilllint(&["."], repo.path());
    assert_eq!(nul.status.code(), Some(2));
    assert!(stderr(&nul).contains("binary"), "{}", stderr(&nul));
    assert!(!stderr(&nul).contains("secret-bytes"));
}

/// Whether the concise report of `args` in `root` has an SL001 finding.
fn reports_sl001(root: &Path, args: &[&str]) -> bool {
    let mut all = vec![".", "--format", "concise", "--select", "SL001"];
    all.extend_from_slice(args);
    let output = skilllint(&all, root);
    assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
    stdout(&output).contains("SL001")
}

#[test]
fn the_size_cap_is_configurable_from_the_command_line_and_the_file() {
    let repo = repository();
    let body = format!(
        "---\nname: big\ndescription: A large skill. Use when testing the size cap.\n---\n\n{}\n",
        "Words and more words.\n".repeat(250)
    );
    assert!(body.len() > 5000 && body.len() < 8 * 1024);
    write(repo.path(), "big/SKILL.md", body.as_bytes());
    let root = repo.path();
    assert!(!reports_sl001(root, &[]), "under the 4 MiB default");
    assert!(reports_sl001(root, &["--max-file-size", "4096"]));
    assert!(reports_sl001(root, &["--max-file-size", "4KiB"]));
    assert!(!reports_sl001(root, &["--max-file-size", "8KiB"]));
    assert!(!reports_sl001(root, &["--max-file-size", "1MB"]));

    write(root, "skilllint.toml", b"[lint]\nmax-file-size = 4096\n");
    assert!(reports_sl001(root, &[]), "the file's cap applies");
    assert!(
        !reports_sl001(root, &["--max-file-size", "1MiB"]),
        "the command line overrides the file"
    );
    write(
        root,
        "skilllint.toml",
        b"[lint]\nmax-file-size = \"8 KiB\"\n",
    );
    assert!(!reports_sl001(root, &[]));

    for bad in ["0", "-5", "\"lots\"", "\"12 parsecs\"", "\"0MiB\"", "1.5"] {
        write(
            root,
            "skilllint.toml",
            format!("[lint]\n# unrelated line\nmax-file-size = {bad}\n").as_bytes(),
        );
        let output = skilllint(&["."], root);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("max-file-size"), "{bad}: {err}");
        assert!(
            err.contains("skilllint.toml:3:"),
            "points at the value: {err}"
        );
        assert!(!err.contains("unrelated"), "{err}");
    }
    std::fs::remove_file(root.join("skilllint.toml")).expect("remove config");
    for bad in ["0", "-1", "lots", "99999999999999999999"] {
        let flag = format!("--max-file-size={bad}");
        let output = skilllint(&[".", &flag], root);
        assert_eq!(output.status.code(), Some(2), "--max-file-size {bad}");
        assert!(
            stderr(&output).contains("max-file-size"),
            "{}",
            stderr(&output)
        );
    }
}

/// The `line:col` at which `needle` starts in `text` (1-based, columns in characters).
fn position(text: &str, needle: &str) -> String {
    let offset = text.find(needle).expect("needle in text");
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{column}")
}

#[test]
fn a_pattern_the_validator_cannot_compile_is_reported_at_the_pattern() {
    let repo = repository();
    let root = repo.path();
    let tools = r#"[
  {
    "name": "search_notes",
    "type": "read",
    "description": "Search the notes. Use when asked to find a note.",
    "requiresConfirmation": false,
    "idempotent": true,
    "inputSchema": {
      "type": "object",
      "properties": {
        "query": { "type": "string", "pattern": "[" },
        "date": { "type": "string", "pattern": "^\\d{4}-\\d{2}$" },
        "tags": { "type": "object", "patternProperties": { "(": { "type": "string" } } }
      },
      "additionalProperties": false
    }
  }
]
"#;
    write(root, "search/tools.json", tools.as_bytes());
    let output = skilllint(&[".", "--format", "concise", "--select", "SC001"], root);
    let report = stdout(&output);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 2, "{report}");
    assert!(
        lines[0].starts_with(&format!(
            "search/tools.json:{}: error SC001",
            position(tools, "\"[\"")
        )),
        "{report}"
    );
    assert!(
        lines[1].starts_with(&format!(
            "search/tools.json:{}: error SC001",
            position(tools, "\"(\"")
        )),
        "{report}"
    );
    assert!(lines[0].contains("regular expression"), "{report}");

    let tool_md = "---\nname: Search notes\nid: notes.search\ndescription: Search the notes.\nversion: 1.0.0\nmutates: []\ninputs:\n  type: object\n  properties:\n    query:\n      type: string\n      pattern: \"a(b\"\n  additionalProperties: false\noutputs:\n  type: object\n---\n\nBody.\n";
    write(root, ".tools/notes.search/TOOL.md", tool_md.as_bytes());
    let output = skilllint(&[".", "--format", "concise", "--select", "TM009"], root);
    let report = stdout(&output);
    assert_eq!(report.lines().count(), 1, "{report}");
    assert!(
        report.starts_with(&format!(
            ".tools/notes.search/TOOL.md:{}: error TM009",
            position(tool_md, "\"a(b\"")
        )),
        "{report}"
    );
}

#[test]
fn report_write_errors_name_the_file() {
    let repo = repository();
    let root = repo.path();
    let report = skilllint(&[".", "--format", "sarif", "-o", "out/x.sarif"], root);
    assert_eq!(report.status.code(), Some(2));
    assert!(
        stderr(&report).contains("cannot write the report to out/x.sarif:"),
        "{}",
        stderr(&report)
    );
    let diff = skilllint(&[".", "--diff", "-o", "out/x.diff"], root);
    assert_eq!(diff.status.code(), Some(2));
    assert!(
        stderr(&diff).contains("cannot write the diff to out/x.diff:"),
        "{}",
        stderr(&diff)
    );
    // The SARIF log that explains a failed run names the file too.
    let failed = skilllint(&["missing", "--format", "sarif", "-o", "out/x.sarif"], root);
    assert_eq!(failed.status.code(), Some(2));
    assert!(
        stderr(&failed).contains("cannot write the report to out/x.sarif:"),
        "{}",
        stderr(&failed)
    );
}
