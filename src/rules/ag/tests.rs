use crate::diagnostic::Diagnostic;

/// Lints `files` with only `code` selected; returns (diagnostic, primary text).
fn run(code: &str, files: &[(&str, &str)]) -> Vec<(Diagnostic, String)> {
    crate::rule_testing::findings(code, files)
}

/// A subagent `agents/<file>` of the plugin `kit` with `frontmatter` (without its fences).
fn agent(code: &str, file: &str, frontmatter: &str) -> Vec<(Diagnostic, String)> {
    run(
        code,
        &[(
            &format!("kit/agents/{file}"),
            &format!("---\n{frontmatter}---\n\nReview the change.\n"),
        )],
    )
}

fn messages(found: &[(Diagnostic, String)]) -> Vec<&str> {
    found.iter().map(|(d, _)| d.message.as_str()).collect()
}

#[test]
fn ag002_a_blank_field_points_at_its_value_a_missing_one_at_the_frontmatter() {
    let blank = agent(
        "AG002",
        "reviewer.md",
        "name: reviewer\ndescription: \"  \"\n",
    );
    assert_eq!(messages(&blank), ["agent has no `description`"]);
    assert_eq!(blank[0].1, "\"  \"");
    let missing = agent("AG002", "reviewer.md", "description: Reviews changes.\n");
    assert_eq!(messages(&missing), ["agent has no `name`"]);
    assert_eq!(missing[0].1, "---");
    // A Copilot custom agent is named after its file: only its description is required.
    assert!(agent(
        "AG002",
        "reviewer.agent.md",
        "description: Reviews changes.\n"
    )
    .is_empty());
    // Commands need neither.
    assert!(run(
        "AG002",
        &[(
            "kit/commands/review.md",
            "---\nallowed-tools: Read\n---\n\nReview.\n"
        )]
    )
    .is_empty());
}

#[test]
fn ag003_reports_a_misspelt_built_in_and_leaves_unknown_names_alone() {
    let found = agent(
        "AG003",
        "researcher.md",
        "name: researcher\ndescription: Finds sources.\ntools: Read, Websearch, grep, Grap, mcp__docs__search, Foo\n",
    );
    let named: Vec<(&str, &str)> = found
        .iter()
        .map(|(d, text)| (d.message.as_str(), text.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            (
                "agent lists tool `Websearch`, which does not exist",
                "Websearch"
            ),
            ("agent lists tool `grep`, which does not exist", "grep"),
            ("agent lists tool `Grap`, which does not exist", "Grap"),
        ]
    );
}

#[test]
fn ag004_an_unscoped_shell_or_write_grant_is_reported_a_scoped_one_is_not() {
    let command = |allowed: &str| {
        run(
            "AG004",
            &[(
                "release/commands/release.md",
                &format!(
                    "---\ndescription: Tag a release\nallowed-tools: {allowed}\n---\n\nTag it.\n"
                ),
            )],
        )
    };
    let found = command("Bash, Read, Write(*)");
    assert_eq!(
        messages(&found),
        [
            "`allowed-tools` of this command pre-approves `Bash` without a scope",
            "`allowed-tools` of this command pre-approves `Write` without a scope",
        ]
    );
    assert_eq!(found[0].1, "Bash");
    assert!(command("Bash(git tag:*), Read, Write(CHANGELOG.md)").is_empty());
}

#[test]
fn ag005_names_the_file_and_the_missing_destination() {
    let found = run(
        "AG005",
        &[
            (
                "AGENTS.md",
                "# Notes\n\n- [guide](docs/testing.md)\n- [architecture](docs/architecture.md)\n- [web](https://example.com/x.md)\n",
            ),
            ("docs/architecture.md", "# Architecture\n"),
        ],
    );
    assert_eq!(
        messages(&found),
        ["AGENTS.md links to `docs/testing.md`, which does not exist"]
    );
    assert_eq!(found[0].1, "docs/testing.md");
}
