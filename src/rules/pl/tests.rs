use crate::diagnostic::Diagnostic;

/// Lints `files` with only `code` selected; returns (diagnostic, primary text).
fn run(code: &str, files: &[(&str, &str)]) -> Vec<(Diagnostic, String)> {
    crate::rule_testing::findings(code, files)
}

/// Lints the Claude Code plugin `deploy-tools` whose manifest is `manifest`, with a skill in it.
fn plugin(code: &str, manifest: &str) -> Vec<(Diagnostic, String)> {
    run(
        code,
        &[
            ("deploy-tools/.claude-plugin/plugin.json", manifest),
            (
                "deploy-tools/skills/release/SKILL.md",
                "---\nname: release\ndescription: Tags a release.\n---\n\nTag it.\n",
            ),
        ],
    )
}

fn messages(found: &[(Diagnostic, String)]) -> Vec<&str> {
    found.iter().map(|(d, _)| d.message.as_str()).collect()
}

const CLEAN: &str = r#"{"name": "deploy-tools", "version": "1.2.0", "skills": "./skills/"}"#;

#[test]
fn a_clean_manifest_is_clean_for_every_rule() {
    for code in ["PL001", "PL002", "PL003", "PL004", "PL005", "PL006"] {
        let found = plugin(code, CLEAN);
        assert!(found.is_empty(), "{code}: {:?}", messages(&found));
    }
}

#[test]
fn pl002_reports_a_path_without_dot_slash_and_a_version_that_is_not_semver() {
    let found = plugin(
        "PL002",
        r#"{"name": "deploy-tools", "version": "1.2", "skills": "skills/"}"#,
    );
    assert_eq!(
        messages(&found),
        [
            "`version` must be a semantic version (`MAJOR.MINOR.PATCH`)",
            "`skills` must start with `./`: paths are read from the plugin root",
        ]
    );
    assert_eq!(found[1].1, r#""skills/""#);
    assert_eq!(found[1].0.help.as_deref(), Some("write `./skills/`"));
}

#[test]
fn pl003_suggests_the_key_a_typo_meant() {
    let found = plugin(
        "PL003",
        r#"{"name": "deploy-tools", "version": "1.2.0", "descripton": "typo", "zzzzzz": 1}"#,
    );
    assert_eq!(
        messages(&found),
        [
            "unknown key `descripton` in the manifest",
            "unknown key `zzzzzz` in the manifest",
        ]
    );
    assert_eq!(found[0].1, r#""descripton""#);
    assert_eq!(
        found[0].0.help.as_deref(),
        Some("did you mean `description`? Claude Code ignores keys it does not define")
    );
    assert!(found[1]
        .0
        .help
        .as_deref()
        .is_some_and(|h| h.starts_with("remove it, or check the Claude Code documentation")));
}

#[test]
fn pl004_a_missing_path_and_one_that_leaves_the_plugin_are_told_apart() {
    let found = plugin(
        "PL004",
        r#"{"name": "deploy-tools", "version": "1.2.0", "skills": "./skills/", "hooks": "../shared/hooks.json", "agents": ["./agents/reviewer.md"]}"#,
    );
    assert_eq!(
        messages(&found),
        [
            "`hooks` names `../shared/hooks.json`, outside the plugin",
            "`agents[0]` names `./agents/reviewer.md`, which does not exist",
        ]
    );
    assert_eq!(found[1].1, r#""./agents/reviewer.md""#);
}

/// A Claude Code marketplace listing `entries` (the members of `plugins`) beside the plugin
/// `plugins/deploy-tools`.
fn marketplace(code: &str, entries: &str) -> Vec<(Diagnostic, String)> {
    run(
        code,
        &[
            (
                ".claude-plugin/marketplace.json",
                &format!(
                    r#"{{"name": "team-tools", "owner": {{"name": "Platform"}}, "plugins": [{entries}]}}"#
                ),
            ),
            ("plugins/deploy-tools/.claude-plugin/plugin.json", CLEAN),
            (
                "plugins/deploy-tools/skills/release/SKILL.md",
                "---\nname: release\ndescription: Tags a release.\n---\n\nTag it.\n",
            ),
        ],
    )
}

#[test]
fn pl005_an_entry_named_otherwise_than_its_plugin_is_reported_at_its_name() {
    let found = marketplace(
        "PL005",
        r#"{"name": "deploy", "source": "./plugins/deploy-tools"}"#,
    );
    assert_eq!(
        messages(&found),
        ["marketplace entry `deploy` points to plugin `deploy-tools`"]
    );
    assert_eq!(found[0].1, r#""deploy""#);
    assert!(marketplace(
        "PL005",
        r#"{"name": "deploy-tools", "source": "./plugins/deploy-tools"}"#
    )
    .is_empty());
}

#[test]
fn pl006_the_second_entry_of_a_name_is_reported_with_the_first_as_its_secondary() {
    let found = marketplace(
        "PL006",
        r#"{"name": "deploy-tools", "source": "./plugins/deploy-tools"},
           {"name": "deploy-tools", "source": "./plugins/deploy-tools"},
           {"name": "deploy-tools", "source": "./plugins/deploy-tools"}"#,
    );
    assert_eq!(
        messages(&found),
        [
            "the marketplace lists plugin `deploy-tools` twice",
            "the marketplace lists plugin `deploy-tools` twice",
        ]
    );
    // Each repeat points back at the first entry, not at the one before it.
    let first = found[0].0.secondary[0].span;
    assert_eq!(found[1].0.secondary[0].span, first);
    assert!(first.start < found[0].0.primary.span.start);
}
