//! The same findings whatever path is named: a lint of a plugin folder, of the current folder
//! inside it, or of one of its files (as pre-commit names changed files) reports for those files
//! exactly what a lint of the whole repository reports for them. Shaped from a real marketplace
//! repository whose plugins are declared only by the marketplace at the top (no manifest of
//! their own), with skills that carry a `version` key such plugins accept.

#[path = "support/binary.rs"]
mod binary;

use binary::{skilllint, stdout};
use std::collections::BTreeSet;
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, text).expect("write file");
}

/// A repository (a `.git` folder marks its top) holding a marketplace that declares two
/// plugins by their folders, one skill with a finding in each, and a tool list at the top.
fn marketplace_repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("git folder");
    write(
        root,
        ".claude-plugin/marketplace.json",
        r#"{
  "name": "team-plugins",
  "owner": {"name": "Team"},
  "plugins": [
    {"name": "authoring-kit", "source": "./plugins/authoring-kit", "description": "Helps write plugins", "version": "0.2.0"},
    {"name": "release-notes", "source": "./plugins/release-notes", "description": "Drafts release notes"}
  ]
}
"#,
    );
    write(
        root,
        "plugins/authoring-kit/skills/hook-writing/SKILL.md",
        "---\nname: Hook Writing\ndescription: Use when the user wants to write a hook for a plugin and test it locally.\nversion: 0.2.0\n---\n\n# Writing hooks\n\nRead the event list first, then write the script.\n",
    );
    write(
        root,
        "plugins/authoring-kit/skills/settings-files/SKILL.md",
        "---\nname: settings-files\ndescription: Use when the user asks how a plugin stores per-project settings in a local file.\nversion: 0.2.0\n---\n\n# Settings files\n\nKeep settings in a local file the user can edit.\n",
    );
    write(
        root,
        "plugins/release-notes/skills/drafting/SKILL.md",
        "---\nname: Drafting\ndescription: Use when the user asks for release notes drafted from the merged pull requests.\n---\n\n# Drafting\n\nList the merged pull requests, then group them.\n",
    );
    dir
}

/// The findings of a JSON report as (path, code, line, column), the paths relative to the
/// repository's top.
fn findings(output: &std::process::Output) -> BTreeSet<(String, String, u64, u64)> {
    let report: serde_json::Value =
        serde_json::from_str(&stdout(output)).expect("the JSON report parses");
    let Some(items) = report.as_array() else {
        panic!("a JSON report is an array: {report}");
    };
    items
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap_or_default().to_string(),
                d["code"].as_str().unwrap_or_default().to_string(),
                d["start"]["line"].as_u64().unwrap_or_default(),
                d["start"]["column"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

fn under(
    all: &BTreeSet<(String, String, u64, u64)>,
    prefix: &str,
) -> BTreeSet<(String, String, u64, u64)> {
    all.iter()
        .filter(|(path, ..)| path.starts_with(prefix))
        .cloned()
        .collect()
}

#[test]
fn a_plugin_folder_reports_what_the_whole_repository_reports_for_it() {
    let dir = marketplace_repository();
    let root = dir.path();
    let whole = findings(&skilllint(&[".", "--format", "json"], root));
    let plugin = "plugins/authoring-kit/";
    let expected = under(&whole, plugin);
    // The uppercase names are found; the `version` key the marketplace's plugins accept is not
    // an unknown field in either run.
    assert!(
        expected.iter().any(|(_, code, ..)| code == "SK004"),
        "the whole run finds the plugin's invalid name: {whole:?}"
    );
    assert!(
        !whole.iter().any(|(_, code, ..)| code == "SK008"),
        "a plugin skill's `version` is accepted: {whole:?}"
    );

    let named = findings(&skilllint(
        &["plugins/authoring-kit", "--format", "json"],
        root,
    ));
    assert_eq!(
        named, expected,
        "`skilllint plugins/authoring-kit` from the top"
    );

    let inside = findings(&skilllint(
        &[".", "--format", "json"],
        &root.join("plugins/authoring-kit"),
    ));
    assert_eq!(inside, expected, "`skilllint .` inside the plugin");

    let skill = "plugins/authoring-kit/skills/hook-writing/SKILL.md";
    let one_file = findings(&skilllint(&[skill, "--format", "json"], root));
    assert_eq!(
        one_file,
        under(&whole, skill),
        "a file named as pre-commit names it"
    );
    assert!(!one_file.is_empty());
}

#[test]
fn the_summary_counts_the_files_named_not_the_repository_read_for_them() {
    let dir = marketplace_repository();
    let output = skilllint(&["plugins/release-notes"], dir.path());
    let summary = binary::stderr(&output);
    assert!(
        summary.contains("in 1 file (1 skill)"),
        "the summary counts the plugin's files: {summary}"
    );
}

#[test]
fn outside_a_repository_a_folder_is_linted_alone() {
    // Without a `.git` folder there is no repository to widen to: the plugin's skills are
    // linted as a folder of their own, as before, so `version` is an unknown key there.
    let dir = marketplace_repository();
    std::fs::remove_dir(dir.path().join(".git")).expect("remove git folder");
    let alone = findings(&skilllint(
        &["plugins/authoring-kit", "--format", "json"],
        dir.path(),
    ));
    assert!(
        alone
            .iter()
            .any(|(path, code, ..)| code == "SK008" && path == "skills/hook-writing/SKILL.md"),
        "{alone:?}"
    );
}

#[test]
fn standard_input_under_a_file_name_inside_a_plugin_is_linted_in_place_of_the_file() {
    use std::io::Write;
    let dir = marketplace_repository();
    let plugin = dir.path().join("plugins/authoring-kit");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args([
            "-",
            "--stdin-filename",
            "skills/settings-files/SKILL.md",
            "--format",
            "json",
        ])
        .current_dir(&plugin)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run skilllint");
    let edited = "---\nname: Settings Files\ndescription: Use when the user asks how a plugin stores per-project settings in a local file.\nversion: 0.2.0\n---\n\n# Settings files\n";
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(edited.as_bytes())
        .expect("write stdin");
    let output = child.wait_with_output().expect("wait");
    let found = findings(&output);
    let path = "plugins/authoring-kit/skills/settings-files/SKILL.md";
    // The text read is the one on standard input (its name is invalid; the file's is not), and
    // only that file is reported.
    assert!(
        found
            .iter()
            .any(|(p, code, ..)| p == path && code == "SK004"),
        "{found:?}"
    );
    assert!(found.iter().all(|(p, ..)| p == path), "{found:?}");
}

#[test]
fn the_lock_of_a_plugin_folder_is_the_repository_lock_and_drift_shows_from_either_path() {
    let dir = marketplace_repository();
    let root = dir.path();
    let tools = r#"{"tools": [{"name": "list_hooks", "description": "List the hooks of the plugin.", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}, "annotations": {"readOnlyHint": true}}]}
"#;
    write(root, "plugins/authoring-kit/tools.json", tools);
    let locked = skilllint(&["lock", "plugins/authoring-kit"], root);
    assert_eq!(locked.status.code(), Some(0), "{}", binary::stderr(&locked));
    assert!(root.join("skilllint.lock").is_file(), "written at the top");
    assert!(!root.join("plugins/authoring-kit/skilllint.lock").exists());
    let drift = |found: &BTreeSet<(String, String, u64, u64)>| -> Vec<String> {
        found
            .iter()
            .filter(|(_, code, ..)| code.starts_with("LK"))
            .map(|(path, code, ..)| format!("{path} {code}"))
            .collect()
    };
    let named = findings(&skilllint(
        &["plugins/authoring-kit", "--format", "json"],
        root,
    ));
    assert!(drift(&named).is_empty(), "{named:?}");
    write(
        root,
        "plugins/authoring-kit/tools.json",
        &tools.replace("List the hooks", "List and delete the hooks"),
    );
    let whole = findings(&skilllint(&[".", "--format", "json"], root));
    let named = findings(&skilllint(
        &["plugins/authoring-kit", "--format", "json"],
        root,
    ));
    assert_eq!(
        drift(&whole),
        vec!["plugins/authoring-kit/tools.json LK001".to_string()]
    );
    assert_eq!(drift(&named), drift(&whole));
}

/// The findings of the repository's runs that name the plugin: from the top, by folder, from
/// inside it, and by file, each only the plugin's.
/// Findings as (path, code, line, column).
type Findings = BTreeSet<(String, String, u64, u64)>;

fn plugin_runs(root: &Path, plugin: &str) -> Vec<(String, Findings)> {
    let whole = findings(&skilllint(&[".", "--format", "json"], root));
    let folder = plugin.trim_end_matches('/');
    vec![
        ("the whole repository".to_string(), under(&whole, plugin)),
        (
            format!("`skilllint {folder}`"),
            findings(&skilllint(&[folder, "--format", "json"], root)),
        ),
        (
            "`skilllint .` inside the plugin".to_string(),
            findings(&skilllint(&[".", "--format", "json"], &root.join(folder))),
        ),
    ]
}

#[test]
fn a_configuration_in_a_plugin_folder_governs_its_files_whatever_path_is_named() {
    let dir = marketplace_repository();
    let root = dir.path();
    let plugin = "plugins/release-notes/";
    let before = plugin_runs(root, plugin);
    assert!(
        before[0].1.iter().any(|(_, code, ..)| code == "SK004"),
        "the plugin's uppercase skill name is found: {before:?}"
    );
    // The plugin's own configuration turns SK004 into a note and accepts a frontmatter key; the
    // repository's top one (which the plugin run never reads) ignores a rule for everything.
    write(
        root,
        "plugins/release-notes/skilllint.toml",
        "[lint]\nseverity = { SK004 = \"info\" }\n\n[skills]\nextra-fields = [\"owner\"]\n",
    );
    write(root, "skilllint.toml", "[lint]\nignore = [\"SK004\"]\n");
    write(
        root,
        "plugins/release-notes/skills/drafting/SKILL.md",
        "---\nname: Drafting\ndescription: Use when the user asks for release notes drafted from the merged pull requests.\nowner: docs-team\n---\n\n# Drafting\n\nList the merged pull requests, then group them.\n",
    );
    let severities = |args: &[&str], cwd: &Path| -> BTreeSet<(String, String, String)> {
        let output = skilllint(args, cwd);
        let report: serde_json::Value =
            serde_json::from_str(&stdout(&output)).expect("the JSON report parses");
        report
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["path"].as_str().is_some_and(|p| p.starts_with(plugin)))
            .map(|d| {
                (
                    d["path"].as_str().unwrap_or_default().to_string(),
                    d["code"].as_str().unwrap_or_default().to_string(),
                    d["severity"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    let expected: BTreeSet<(String, String, String)> = [(
        "plugins/release-notes/skills/drafting/SKILL.md".to_string(),
        "SK004".to_string(),
        "info".to_string(),
    )]
    .into();
    assert_eq!(
        severities(&[".", "--format", "json"], root),
        expected,
        "from the top, the plugin's configuration decides for its files (not the top's `ignore`)"
    );
    assert_eq!(
        severities(&["plugins/release-notes", "--format", "json"], root),
        expected,
        "the plugin folder named"
    );
    assert_eq!(
        severities(
            &[".", "--format", "json"],
            &root.join("plugins/release-notes")
        ),
        expected,
        "from inside the plugin"
    );
    // The top's configuration still decides for the other plugin's files.
    let whole = findings(&skilllint(&[".", "--format", "json"], root));
    assert!(
        !whole
            .iter()
            .any(|(path, code, ..)| code == "SK004" && !path.starts_with(plugin)),
        "the top's `ignore` holds outside the plugin: {whole:?}"
    );
    // Named on the command line, a configuration is the whole run's.
    let named = findings(&skilllint(
        &[".", "--config", "skilllint.toml", "--format", "json"],
        root,
    ));
    assert!(
        !named.iter().any(|(_, code, ..)| code == "SK004")
            && named.iter().any(|(_, code, ..)| code == "SK008"),
        "`--config FILE` governs every file, the plugin's too: {named:?}"
    );
}

#[test]
fn a_configuration_below_excludes_and_selects_for_its_folder_and_a_broken_one_stops_the_run() {
    let dir = marketplace_repository();
    let root = dir.path();
    write(
        root,
        "plugins/authoring-kit/skilllint.toml",
        "[lint]\nexclude = [\"skills/hook-writing/**\"]\nper-file-ignores = { \"skills/settings-files/*\" = [\"SK\"] }\n",
    );
    for (label, found) in plugin_runs(root, "plugins/authoring-kit/") {
        assert!(
            found.is_empty(),
            "{label}: the plugin excludes one skill and silences the other: {found:?}"
        );
    }
    write(
        root,
        "plugins/authoring-kit/skilllint.toml",
        "[lint]\nselect = [\"SKX\"]\n",
    );
    let output = skilllint(&["."], root);
    assert_eq!(
        output.status.code(),
        Some(2),
        "a broken configuration below"
    );
    let stderr = binary::stderr(&output);
    assert!(
        stderr.contains("unknown rule selector `SKX`")
            && stderr.contains("plugins/authoring-kit/skilllint.toml:2:11"),
        "the error points into the file: {stderr}"
    );
}
