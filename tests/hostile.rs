//! Hostile input: every case gets a diagnostic at the right file, the run finishes, nothing is
//! read outside the lint root.

use skilllint::{lint, LintOptions, LintOutcome};
use std::path::Path;

fn write(root: &Path, rel: &str, content: &[u8]) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, content).expect("write file");
}

fn run(root: &Path) -> LintOutcome {
    lint(&LintOptions {
        paths: vec![root.to_path_buf()],
        select: vec!["ALL".to_string()],
        ..LintOptions::default()
    })
    .expect("lint runs")
}

/// (code, message) of the findings on `rel_path`.
fn findings(outcome: &LintOutcome, rel_path: &str) -> Vec<(String, String)> {
    outcome
        .diagnostics
        .iter()
        .filter(|d| outcome.repo.file(d.primary.file).rel_path == rel_path)
        .map(|d| (d.code.to_string(), d.message.clone()))
        .collect()
}

fn assert_finding(outcome: &LintOutcome, rel_path: &str, code: &str, needle: &str) {
    let found = findings(outcome, rel_path);
    assert!(
        found.iter().any(|(c, m)| c == code && m.contains(needle)),
        "{rel_path}: expected {code} containing `{needle}`, got {found:?}"
    );
}

#[test]
fn hostile_files_each_get_a_diagnostic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();

    // A YAML alias bomb (9 levels of 9 aliases: a billion nodes if expanded).
    let mut bomb = String::from(
        "---\nname: bomb\ndescription: x. Use y.\na: &a [x, x, x, x, x, x, x, x, x]\n",
    );
    let mut previous = 'a';
    for name in ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] {
        let refs = vec![format!("*{previous}"); 9].join(", ");
        bomb.push_str(&format!("{name}: &{name} [{refs}]\n"));
        previous = name;
    }
    bomb.push_str("---\n");
    write(root, "bomb/SKILL.md", bomb.as_bytes());

    // 100,000-deep JSON nesting and 100,000-deep YAML flow nesting.
    let deep_json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    write(root, "deep/tools.json", deep_json.as_bytes());
    let deep_yaml = format!("---\nname: deep-yaml\nx: {}\n---\n", "[".repeat(100_000));
    write(root, "deep-yaml/SKILL.md", deep_yaml.as_bytes());

    // 8 MB: over the 4 MiB size cap, never read whole.
    let mut big = b"---\nname: big\ndescription: x. Use y.\n---\n".to_vec();
    big.resize(8 * 1024 * 1024, b'a');
    write(root, "big/SKILL.md", &big);

    write(root, "binary/SKILL.md", b"\x7fELF\x02\x01\x01\x00\x00\x00");
    write(root, "latin1/tools.json", b"[{\"name\": \"caf\xe9\"}]");
    write(
        root,
        "unterminated/SKILL.md",
        b"---\nname: unterminated\ndescription: never closed\n",
    );
    write(root, "empty/SKILL.md", b"");
    write(root, "empty-tools/tools.json", b"");
    write(root, "empty-req/requirement.yaml", b"");

    let outcome = run(root);
    assert_finding(&outcome, "bomb/SKILL.md", "SK002", "alias");
    assert_finding(&outcome, "deep/tools.json", "TJ001", "nesting");
    assert_finding(&outcome, "deep-yaml/SKILL.md", "SK002", "recursion limit");
    assert_finding(&outcome, "big/SKILL.md", "SL001", "size limit");
    assert_finding(&outcome, "binary/SKILL.md", "SL001", "binary");
    assert_finding(&outcome, "latin1/tools.json", "SL001", "UTF-8");
    assert_finding(&outcome, "unterminated/SKILL.md", "SK001", "never closed");
    assert_finding(&outcome, "empty/SKILL.md", "SK001", "no YAML frontmatter");
    assert_finding(&outcome, "empty-tools/tools.json", "TJ001", "no JSON value");
    assert_finding(&outcome, "empty-req/requirement.yaml", "TJ013", "empty");
    // The big file's text was never kept.
    let big_file = outcome
        .repo
        .files
        .iter()
        .find(|f| f.rel_path == "big/SKILL.md")
        .expect("big file listed");
    assert!(big_file.text.is_empty());
}

#[cfg(unix)]
#[test]
fn symlinks_never_lead_outside_the_root() {
    let dir = tempfile::tempdir().expect("temp dir");
    let outside = tempfile::tempdir().expect("outside dir");
    write(
        outside.path(),
        "secret/SKILL.md",
        b"---\nname: secret\ndescription: outside. Use never.\n---\n",
    );
    let root = dir.path();
    write(
        root,
        "loop/a/SKILL.md",
        b"---\nname: a\ndescription: inside. Use it.\n---\n",
    );
    std::os::unix::fs::symlink("..", root.join("loop/a/back")).expect("loop link");
    std::os::unix::fs::symlink(outside.path(), root.join("elsewhere")).expect("dir link");
    std::fs::create_dir_all(root.join("linked")).expect("folder");
    std::os::unix::fs::symlink(
        outside.path().join("secret/SKILL.md"),
        root.join("linked/SKILL.md"),
    )
    .expect("file link");

    let outcome = run(root);
    assert_finding(&outcome, "loop/a/back", "SL001", "symlink loop");
    assert_finding(
        &outcome,
        "linked/SKILL.md",
        "SL001",
        "outside the lint root",
    );
    assert!(
        outcome
            .repo
            .files
            .iter()
            .all(|f| !f.rel_path.starts_with("elsewhere")),
        "a symlinked folder outside the root is not walked"
    );
    assert!(outcome
        .repo
        .files
        .iter()
        .all(|f| !f.text.contains("outside. Use never.")));
}

#[test]
fn remote_and_file_refs_are_reported_never_followed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let tools = br#"{"tools": [{"name": "fetch_page", "description": "Fetches a page.",
      "inputSchema": {"type": "object", "additionalProperties": false,
        "properties": {
          "url": {"$ref": "http://127.0.0.1:9/schemas/url.json", "description": "Page URL."},
          "creds": {"$ref": "file:///etc/passwd", "description": "Nothing."}
        }}}]}"#;
    write(root, "web.tools.json", tools);
    let outcome = run(root);
    let refs: Vec<&str> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == "SC013")
        .map(|d| &outcome.repo.text(d.primary.file)[d.primary.span.start..d.primary.span.end])
        .collect();
    assert_eq!(
        refs,
        [
            "\"http://127.0.0.1:9/schemas/url.json\"",
            "\"file:///etc/passwd\""
        ]
    );
    assert!(outcome.diagnostics.iter().all(|d| d.code != "SL900"));
}

/// (code, message, label) of the SK011 and SK017 findings, by link target as written.
fn reference_findings(outcome: &LintOutcome) -> Vec<(String, String, String)> {
    outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == "SK011" || d.code == "SK017")
        .map(|d| {
            let text = outcome.repo.text(d.primary.file);
            (
                text[d.primary.span.start..d.primary.span.end].to_string(),
                d.code.to_string(),
                d.primary.message.clone().unwrap_or_default(),
            )
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn skill_links_follow_symlinks_only_inside_the_lint_root() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().expect("temp dir");
    let outside = tempfile::tempdir().expect("outside dir");
    write(outside.path(), "secret.md", b"# not ours\n");
    let root = dir.path().canonicalize().expect("canonical root");
    write(&root, "common/notes.md", b"# Notes\n");
    write(&root, "kit/references/guide.md", b"# Guide\n");
    let links = [
        "shared/notes.md",
        "away/secret.md",
        "away/absent.md",
        "inner/guide.md",
        "loop/x.md",
        "pinned/notes.md",
        "../common/notes.md",
        "dangling/x.md",
    ];
    let body: String = links.iter().map(|l| format!("- [x]({l})\n")).collect();
    write(
        &root,
        "kit/SKILL.md",
        format!("---\nname: kit\ndescription: Links. Use it.\n---\n\n{body}").as_bytes(),
    );
    symlink("../common", root.join("kit/shared")).expect("link");
    symlink(outside.path(), root.join("kit/away")).expect("link");
    symlink("references", root.join("kit/inner")).expect("link");
    symlink("loop", root.join("kit/loop")).expect("link");
    symlink(root.join("common"), root.join("kit/pinned")).expect("link");
    symlink("../nowhere", root.join("kit/dangling")).expect("link");

    let found = reference_findings(&run(&root));
    let expected = [
        (
            "shared/notes.md",
            "SK017",
            "`shared` is a symlink to a place outside the skill folder",
        ),
        (
            "away/secret.md",
            "SK017",
            "`away` is a symlink to a place outside the lint root: not looked at",
        ),
        ("loop/x.md", "SK011", "no such file in the skill folder"),
        (
            "pinned/notes.md",
            "SK017",
            "`pinned` is a symlink to a place outside the skill folder",
        ),
        (
            "../common/notes.md",
            "SK017",
            "exists, but outside the skill folder",
        ),
        ("dangling/x.md", "SK011", "no such file in the skill folder"),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(found, expected);
    // The same answer whether or not the file is there (nothing outside the root is looked at):
    // `away/absent.md` is counted with `away/secret.md`, as a second link through `away`.
    let outcome = run(&root);
    let away: Vec<&str> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == "SK017" && d.message.contains("`away/"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        away,
        ["link to `away/secret.md` leads outside the skill folder through a symlink, as does 1 more link of this file"]
    );

    // Linted on its own, the skill folder is the lint root: `../` is not looked at.
    let alone = reference_findings(&run(&root.join("kit")));
    assert!(
        alone.contains(&(
            "../common/notes.md".to_string(),
            "SK017".to_string(),
            "outside the lint root too: not looked at".to_string()
        )),
        "{alone:?}"
    );
    assert!(alone.iter().all(|(link, _, _)| link != "inner/guide.md"));
}
