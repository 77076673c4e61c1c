//! Policies are repository data too: a repository's config may name policy files, and its
//! `.skilllint/policies` folder may be a link. They stay inside the repository, are regular files,
//! and a file that is not policy YAML is never quoted. `--policies` is the user's and may point
//! anywhere. Policies cost what they do (size-aware bounds, a run budget, a cap on messages), and
//! their metadata is escaped wherever it is printed.

use super::common::{skilllint, skilllint_limited, stderr, stdout, write};
use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// A repository root (it holds `.git`) with one clean skill.
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

/// A secret the CI holds, in a file outside the repository.
const SECRET: &[u8] = b"AWS_SECRET_ACCESS_KEY=hunter2hunter2\nrules: hunter2\n";

const RULE: &str = "rules:
  - code: ORG001
    name: skills-have-a-license
    severity: warning
    category: style
    summary: Skills declare a license
    on: skill
    assert: has(skill.license)
    message: 'skill `{{skill.name}}` has no license'
";

fn assert_refused_unquoted(output: &Output, what: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{what}: {err}");
    assert!(
        !err.contains("hunter2"),
        "{what}: the file was quoted: {err}"
    );
    assert!(!stdout(output).contains("hunter2"), "{what}");
}

#[cfg(unix)]
#[test]
fn config_policy_paths_leaving_the_repository_are_refused_unread() {
    let outside = tempfile::tempdir().expect("outside dir");
    write(outside.path(), "credentials", SECRET);
    write(outside.path(), "org.yaml", RULE.as_bytes());
    let repo = repository();
    let relative = format!(
        "../{}/credentials",
        outside.path().file_name().unwrap().to_string_lossy()
    );
    let cases = [
        relative.clone(),
        outside.path().join("credentials").display().to_string(),
        // A valid policy outside is refused too: the repository may not pick files it does not
        // hold, whatever they say.
        outside.path().join("org.yaml").display().to_string(),
        "notes/../../x/credentials".to_string(),
    ];
    for path in &cases {
        write(
            repo.path(),
            "skilllint.toml",
            format!("[policies]\npaths = [{path:?}]\n").as_bytes(),
        );
        let output = skilllint(&["."], repo.path());
        assert_refused_unquoted(&output, path);
        let err = stderr(&output);
        assert!(err.contains("outside"), "{path}: says why: {err}");
        assert!(
            !err.contains("ORG001"),
            "{path}: the outside policy was loaded: {err}"
        );
        // From a subfolder the config is found upwards; the root is still the repository.
        let below = skilllint(&["."], &repo.path().join("notes"));
        assert_refused_unquoted(&below, path);
    }

    // A link inside the repository to the outside file is no way round.
    std::os::unix::fs::symlink(
        outside.path().join("credentials"),
        repo.path().join("policy.yaml"),
    )
    .expect("symlink");
    write(
        repo.path(),
        "skilllint.toml",
        b"[policies]\npaths = [\"policy.yaml\"]\n",
    );
    assert_refused_unquoted(&skilllint(&["."], repo.path()), "a link out");

    // `/proc/self/environ` holds the CI's tokens.
    if Path::new("/proc/self/environ").exists() {
        write(
            repo.path(),
            "skilllint.toml",
            b"[policies]\npaths = [\"/proc/self/environ\"]\n",
        );
        let output = skilllint_limited(
            &["."],
            repo.path(),
            &[("SECRET_TOKEN", "hunter2")],
            Duration::from_secs(30),
        );
        assert_refused_unquoted(&output, "/proc/self/environ");
    }

    // `--policies` is the user's choice and may point anywhere.
    std::fs::remove_file(repo.path().join("skilllint.toml")).expect("remove config");
    let chosen = skilllint(
        &[
            ".",
            "--format",
            "concise",
            "--policies",
            &outside.path().join("org.yaml").display().to_string(),
        ],
        repo.path(),
    );
    assert!(
        stdout(&chosen).contains("ORG001"),
        "{}{}",
        stdout(&chosen),
        stderr(&chosen)
    );
}

#[cfg(unix)]
#[test]
fn a_policy_folder_that_is_a_link_out_of_the_repository_is_refused() {
    let outside = tempfile::tempdir().expect("outside dir");
    write(outside.path(), "policies/leak.yaml", SECRET);
    write(outside.path(), "policies/org.yaml", RULE.as_bytes());
    let repo = repository();
    std::fs::create_dir_all(repo.path().join(".skilllint")).expect("folder");
    std::os::unix::fs::symlink(
        outside.path().join("policies"),
        repo.path().join(".skilllint/policies"),
    )
    .expect("symlink");
    let output = skilllint(&["."], repo.path());
    assert_refused_unquoted(&output, ".skilllint/policies");
    assert!(stderr(&output).contains("outside"), "{}", stderr(&output));

    // `.skilllint` itself as the link.
    std::fs::remove_file(repo.path().join(".skilllint/policies")).expect("unlink");
    std::fs::remove_dir(repo.path().join(".skilllint")).expect("rmdir");
    std::os::unix::fs::symlink(outside.path(), repo.path().join(".skilllint")).expect("symlink");
    assert_refused_unquoted(&skilllint(&["."], repo.path()), ".skilllint");
    // And `skilllint rules`, which loads the same policies.
    assert_refused_unquoted(&skilllint(&["rules"], repo.path()), "rules");
}

#[test]
fn a_repository_file_that_is_not_policy_yaml_is_never_quoted() {
    let repo = repository();
    // A credentials file a CI step left in the checkout, in JSON (which is YAML too).
    write(
        repo.path(),
        "gha-creds.json",
        b"{\"type\": \"service_account\", \"private_key\": \"hunter2\"}\n",
    );
    write(repo.path(), ".env", b"TOKEN=hunter2\n");
    write(repo.path(), "broken.yaml", b"TOKEN: [hunter2\n");
    for name in ["gha-creds.json", ".env", "broken.yaml"] {
        write(
            repo.path(),
            "skilllint.toml",
            format!("[policies]\npaths = [{name:?}]\n").as_bytes(),
        );
        let output = skilllint(&["."], repo.path());
        assert_refused_unquoted(&output, name);
        assert!(
            stderr(&output).contains("not a policy file"),
            "{name}: {}",
            stderr(&output)
        );
    }
    // A real policy file inside the repository with a mistake is quoted as before: it is policy
    // YAML, and its author needs the line.
    write(
        repo.path(),
        "org/bad.yaml",
        RULE.replace("severity: warning", "severity: loud")
            .as_bytes(),
    );
    write(
        repo.path(),
        "skilllint.toml",
        b"[policies]\npaths = [\"org\"]\n",
    );
    let output = skilllint(&["."], repo.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("severity: loud"),
        "{}",
        stderr(&output)
    );
    // And a good one loads.
    write(repo.path(), "org/bad.yaml", RULE.as_bytes());
    let output = skilllint(&["--format", "concise", "."], repo.path());
    assert!(stdout(&output).contains("ORG001"), "{}", stderr(&output));
}

/// A policy whose metadata tries to drive the terminal and forge CI log lines.
const LOUD_RULE: &str = r#"rules:
  - code: ORG001
    name: skills-have-a-license
    severity: warning
    category: style
    summary: "Skills \e]0;owned\a\e[2J\e[3J declare a license\n::error file=README.md::forged"
    docs: |
      Checks the license.
      ::error file=README.md,line=1::forged from docs
      ##[error]forged the old way
      Bidi: RLO-evil-PDF and a bell
    on: skill
    assert: has(skill.license)
    message: 'no license'
"#;

#[test]
fn policy_metadata_is_escaped_by_rules_and_rule() {
    let repo = repository();
    write(
        repo.path(),
        ".skilllint/policies/loud.yaml",
        LOUD_RULE
            .replace("RLO-", "\u{202e}")
            .replace("-PDF", "\u{202c}")
            .as_bytes(),
    );
    for args in [
        &["rules"][..],
        &["rules", "--format", "markdown"],
        &["rule", "ORG001"],
    ] {
        let output = skilllint(args, repo.path());
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        let out = stdout(&output);
        assert!(out.contains("ORG001"), "{args:?}: {out}");
        for forbidden in ['\u{1b}', '\u{7}', '\u{202e}', '\u{202c}'] {
            assert!(
                !out.contains(forbidden),
                "{args:?}: {forbidden:?} printed raw: {out}"
            );
        }
        for line in out.lines() {
            let line = line.trim_start();
            assert!(
                !line.starts_with("::") && !line.starts_with("##["),
                "{args:?}: a workflow command line: {line}"
            );
        }
    }
    // The explanation is still Markdown, line for line.
    let explained = stdout(&skilllint(&["rule", "ORG001"], repo.path()));
    assert!(explained.contains("Checks the license.\n"), "{explained}");
}

/// A repository with `tools` as its tools.json and one policy rule on tools asserting `assert`
/// with `message`.
fn policy_repository(tools: &serde_json::Value, assert: &str, message: &str) -> tempfile::TempDir {
    let repo = repository();
    write(
        repo.path(),
        "notes/tools.json",
        serde_json::to_string(tools).expect("json").as_bytes(),
    );
    let rule = format!(
        "rules:\n  - code: ORG001\n    name: slow\n    severity: warning\n    category: style\n    \
         summary: s\n    on: tool\n    assert: {}\n    message: {}\n",
        serde_json::to_string(assert).expect("json"),
        serde_json::to_string(message).expect("json"),
    );
    write(
        repo.path(),
        ".skilllint/policies/slow.yaml",
        rule.as_bytes(),
    );
    repo
}

/// The JSON findings of a run in `repo`, which must end within a minute.
fn findings(repo: &Path) -> Vec<serde_json::Value> {
    let output = skilllint_limited(
        &[".", "--format", "json"],
        repo,
        &[],
        Duration::from_secs(60),
    );
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stderr(&output)
    );
    match serde_json::from_str(&stdout(&output)) {
        Ok(serde_json::Value::Array(items)) => items,
        _ => panic!("not a JSON report: {}", stdout(&output)),
    }
}

/// The codes of `items`, for a failure message that stays short.
fn codes(items: &[serde_json::Value]) -> String {
    let codes: Vec<&str> = items.iter().filter_map(|d| d["code"].as_str()).collect();
    codes.join(" ")
}

fn with_code<'a>(items: &'a [serde_json::Value], code: &str) -> Vec<&'a serde_json::Value> {
    items.iter().filter(|d| d["code"] == code).collect()
}

#[test]
fn a_quadratic_in_inside_all_is_stopped_by_its_bound() {
    // 25,000 tags: `t in tool.tags` for each is 625 million comparisons, but only three nodes.
    let tags: Vec<String> = (0..25_000).map(|i| format!("tag{i:07}")).collect();
    let tools = serde_json::json!([{"name": "t", "description": "d", "tags": tags, "inputSchema": {"type": "object"}}]);
    let repo = policy_repository(&tools, "tool.tags.all(t, t in tool.tags)", "m");
    let items = findings(repo.path());
    let stopped = with_code(&items, "SL011");
    assert_eq!(stopped.len(), 1, "{}", codes(&items));
    assert!(
        stopped[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("ORG001")),
        "{stopped:?}"
    );
}

/// An assertion whose bound is just under the per-entity limit on every tool, whatever its data
/// (three nested comprehensions over a 35-element list), though `exists` stops at once.
fn nearly_too_costly() -> String {
    let range = format!(
        "[{}]",
        (0..35).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
    );
    format!("{range}.exists(a, {range}.exists(b, {range}.exists(c, true)))")
}

#[test]
fn many_entities_each_just_under_the_bound_stop_at_the_run_budget() {
    let tools: Vec<serde_json::Value> = (0..400)
        .map(|i| serde_json::json!({"name": format!("tool_{i}"), "description": "Reads a thing.", "inputSchema": {"type": "object"}}))
        .collect();
    let repo = policy_repository(&serde_json::Value::Array(tools), &nearly_too_costly(), "m");
    let items = findings(repo.path());
    let stopped = with_code(&items, "SL011");
    assert_eq!(
        stopped.len(),
        1,
        "one finding for the run: {}",
        codes(&items)
    );
    assert!(
        stopped[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("budget")),
        "{stopped:?}"
    );
    // The same whatever the thread count.
    let one = skilllint(&[".", "--format", "json", "--threads", "1"], repo.path());
    let two = skilllint(&[".", "--format", "json", "--threads", "2"], repo.path());
    assert_eq!(stdout(&one), stdout(&two));
    // A few tools are within the budget: the rule runs, and passes.
    let tools: Vec<serde_json::Value> = (0..2)
        .map(|i| serde_json::json!({"name": format!("tool_{i}"), "description": "Reads a thing.", "inputSchema": {"type": "object"}}))
        .collect();
    let repo = policy_repository(&serde_json::Value::Array(tools), &nearly_too_costly(), "m");
    let items = findings(repo.path());
    assert!(with_code(&items, "SL011").is_empty(), "{}", codes(&items));
}

/// `len` bytes of `a` and `b` in a fixed pseudo-random order: a text on which the automaton of
/// `a[ab]{1000}c` keeps meeting new states (a periodic one like `abab…` would not).
pub fn random_ab(len: usize) -> String {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state % 4 == 0 {
                'b'
            } else {
                'a'
            }
        })
        .collect()
}

#[test]
fn a_pattern_whose_dfa_explodes_is_stopped_on_a_long_text() {
    let tools = serde_json::json!([{"name": "t", "description": random_ab(1_000_000), "inputSchema": {"type": "object"}}]);
    let repo = policy_repository(&tools, "!tool.description.matches('a[ab]{1000}c')", "m");
    let items = findings(repo.path());
    let stopped = with_code(&items, "SL011");
    assert_eq!(stopped.len(), 1, "{}", codes(&items));
    assert!(
        stopped[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("too costly")),
        "{stopped:?}"
    );
}

#[test]
fn a_message_repeating_a_large_field_is_cut() {
    let tools = serde_json::json!([{"name": "t", "description": "ab".repeat(50_000), "inputSchema": {"type": "object"}}]);
    let repo = policy_repository(&tools, "false", &"{{tool.description}}".repeat(2000));
    let items = findings(repo.path());
    let fired = with_code(&items, "ORG001");
    assert_eq!(fired.len(), 1, "{}", codes(&items));
    let message = fired[0]["message"].as_str().unwrap_or_default();
    assert!(message.len() < 2_000, "{} bytes", message.len());
    assert!(message.ends_with("(cut)"), "{message}");
}
