//! Every output format on one multi-file repository (a cross-file finding with a related location
//! in another file, and a finding on a line with non-ASCII text), plus schema validation of the
//! machine formats and a staleness check of the generated docs/rules.md.

use skilllint::catalog::catalog;
use skilllint::render::{self, Format};
use skilllint::{lint, LintOptions, LintOutcome};
use std::path::{Path, PathBuf};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn formats_root() -> PathBuf {
    manifest_dir().join("tests/formats")
}

fn outcome() -> LintOutcome {
    let options = LintOptions {
        paths: vec![formats_root()],
        threads: Some(2),
        ..LintOptions::default()
    };
    match lint(&options) {
        Ok(outcome) => outcome,
        Err(error) => panic!("lint failed: {error}"),
    }
}

fn rendered(format: Format) -> String {
    render_outcome(format, &outcome())
}

fn render_outcome(format: Format, outcome: &LintOutcome) -> String {
    let input = render::Input {
        sources: outcome.repo.sources(),
        diagnostics: &outcome.diagnostics,
        suppressed: &outcome.suppressed,
        root: &outcome.root,
        catalog: catalog(),
    };
    render::render(format, &input, false)
}

fn load_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn assert_valid(schema: &serde_json::Value, instance: &serde_json::Value, what: &str) {
    let validator = jsonschema::validator_for(schema)
        .unwrap_or_else(|e| panic!("the {what} schema does not compile: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} violates its schema:\n{}",
        errors.join("\n")
    );
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => "snapshots/formats",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn the_fixture_has_a_cross_file_and_a_unicode_finding() {
    let outcome = outcome();
    let cross_file = outcome
        .diagnostics
        .iter()
        .any(|d| d.secondary.iter().any(|l| l.file != d.primary.file));
    assert!(
        cross_file,
        "expected a finding with a related location in another file"
    );
    let unicode_line = outcome.diagnostics.iter().any(|d| {
        let text = outcome.repo.text(d.primary.file);
        let line_start = text[..d.primary.span.start]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        !text[line_start..d.primary.span.start].is_ascii()
    });
    assert!(
        unicode_line,
        "expected a finding after non-ASCII text on its line"
    );
}

#[test]
fn full_and_concise() {
    snapshot("full", &rendered(Format::Full));
    snapshot("concise", &rendered(Format::Concise));
}

#[test]
fn github_annotations() {
    snapshot("github", &rendered(Format::Github));
}

#[test]
fn json_matches_its_published_schema() {
    let text = rendered(Format::Json);
    snapshot("json", &text);
    let instance: serde_json::Value = serde_json::from_str(&text).expect("JSON output parses");
    let schema = load_json(&manifest_dir().join("docs/json-v1.schema.json"));
    assert_valid(&schema, &instance, "json-v1 output");
}

#[test]
fn sarif_matches_the_sarif_schema() {
    let text = rendered(Format::Sarif);
    let mut instance: serde_json::Value = serde_json::from_str(&text).expect("SARIF parses");
    let schema = load_json(&manifest_dir().join("tests/data/sarif-2.1.0.schema.json"));
    assert_valid(&schema, &instance, "SARIF output");

    let rules = instance["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(rules, catalog().rules.len(), "every rule is described");
    for result in instance["runs"][0]["results"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(
            instance["runs"][0]["tool"]["driver"]["rules"][index]["id"],
            result["ruleId"]
        );
    }
    // The rule metadata is large and comes from rules/*.md; snapshot the rest of the log, with
    // the machine-specific root redacted.
    instance["runs"][0]["tool"]["driver"]["rules"] = serde_json::json!(format!("{rules} rules"));
    instance["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] = serde_json::json!("[ROOT]");
    instance["runs"][0]["invocations"][0]["workingDirectory"]["uri"] = serde_json::json!("[CWD]");
    snapshot(
        "sarif",
        &serde_json::to_string_pretty(&instance).expect("serialises"),
    );
}

#[test]
fn sarif_for_every_fixture_repository_is_valid() {
    let schema = load_json(&manifest_dir().join("tests/data/sarif-2.1.0.schema.json"));
    let validator = jsonschema::validator_for(&schema).expect("SARIF schema compiles");
    let fixtures = manifest_dir().join("tests/fixtures");
    let mut checked = 0;
    for code in std::fs::read_dir(&fixtures).expect("fixtures").flatten() {
        for kind in ["fires", "clean"] {
            let root = code.path().join(kind);
            if !root.is_dir() {
                continue;
            }
            let options = LintOptions {
                paths: vec![root.clone()],
                select: vec!["ALL".to_string()],
                ..LintOptions::default()
            };
            let outcome = lint(&options).expect("lint runs");
            let text = render_outcome(Format::Sarif, &outcome);
            let instance: serde_json::Value = serde_json::from_str(&text).expect("SARIF parses");
            let errors: Vec<String> = validator
                .iter_errors(&instance)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", root.display());
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} fixture repositories found");
}

/// The fingerprints `format`'s report gives the findings of a copy of the fixture, before and
/// after every finding is pushed down by a few lines.
fn fingerprints_around_a_line_shift(
    format: Format,
    of_report: fn(&serde_json::Value) -> Vec<String>,
) -> (Vec<String>, Vec<String>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("réservations");
    std::fs::create_dir_all(&copy).expect("copy folder");
    for file in ["SKILL.md", "tools.json", "requirement.yaml"] {
        std::fs::copy(
            formats_root().join("réservations").join(file),
            copy.join(file),
        )
        .expect("copy fixture");
    }
    let fingerprints = |root: &Path| -> Vec<String> {
        let outcome = lint(&LintOptions {
            paths: vec![root.to_path_buf()],
            ..LintOptions::default()
        })
        .expect("lint runs");
        let text = render_outcome(format, &outcome);
        of_report(&serde_json::from_str(&text).expect("the report parses"))
    };
    let before = fingerprints(dir.path());
    // Push every finding down by three lines.
    let skill = copy.join("SKILL.md");
    let text = std::fs::read_to_string(&skill).expect("read");
    std::fs::write(
        &skill,
        text.replacen("# Réservations\n", "# Réservations\n\nIntro.\n\n\n", 1),
    )
    .expect("write");
    let tools = copy.join("tools.json");
    let text = std::fs::read_to_string(&tools).expect("read");
    std::fs::write(&tools, format!("\n\n\n{text}")).expect("write");
    (before, fingerprints(dir.path()))
}

#[test]
fn sarif_fingerprints_survive_line_shifts() {
    let (before, after) = fingerprints_around_a_line_shift(Format::Sarif, |log| {
        log["runs"][0]["results"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| r["partialFingerprints"]["skilllint/v1"].to_string())
            .collect()
    });
    assert!(!before.is_empty());
    assert_eq!(before, after);
}

/// Every issue's fingerprint, in report order.
fn gitlab_fingerprints(report: &serde_json::Value) -> Vec<String> {
    report
        .as_array()
        .into_iter()
        .flatten()
        .map(|issue| {
            issue["fingerprint"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

#[test]
fn gitlab_fingerprints_survive_line_shifts() {
    let (before, after) = fingerprints_around_a_line_shift(Format::Gitlab, gitlab_fingerprints);
    assert!(!before.is_empty());
    assert_eq!(before, after);
}

/// A GitLab Code Quality report as GitLab reads it: an array whose every issue is valid against
/// the schema GitLab validates issues with, and has what GitLab's documentation asks for beyond
/// it (`check_name`, one of its five severities, `location.path` and `location.lines.begin`, a
/// fingerprint no other issue has). Returns how many issues it holds.
fn assert_gitlab_report(text: &str, what: &str) -> usize {
    let report: serde_json::Value = serde_json::from_str(text).expect("the report parses");
    let issues = report.as_array().expect("a GitLab report is an array");
    let schema = load_json(&manifest_dir().join("tests/data/gitlab-codeclimate.schema.json"));
    for issue in issues {
        assert_valid(&schema, issue, what);
        assert!(issue["check_name"].is_string(), "{what}: {issue}");
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&issue["severity"].as_str().unwrap_or_default()),
            "{what}: {issue}"
        );
        assert!(issue["location"]["path"].is_string(), "{what}: {issue}");
        let begin = issue["location"]["lines"]["begin"].as_u64().unwrap_or(0);
        let end = issue["location"]["lines"]["end"].as_u64().unwrap_or(0);
        assert!(begin >= 1 && end >= begin, "{what}: {issue}");
    }
    let mut fingerprints = gitlab_fingerprints(&report);
    fingerprints.sort();
    fingerprints.dedup();
    assert_eq!(
        fingerprints.len(),
        issues.len(),
        "{what}: fingerprints repeat"
    );
    assert!(
        fingerprints
            .iter()
            .all(|f| f.len() == 32 && f.bytes().all(|b| b.is_ascii_hexdigit())),
        "{what}: {fingerprints:?}"
    );
    issues.len()
}

#[test]
fn gitlab_code_quality_matches_gitlabs_schema() {
    let outcome = outcome();
    let text = render_outcome(Format::Gitlab, &outcome);
    snapshot("gitlab", &text);
    let issues = assert_gitlab_report(&text, "the GitLab report");
    assert_eq!(issues, outcome.diagnostics.len());
    assert_eq!(
        render_outcome(
            Format::Gitlab,
            &LintOutcome {
                diagnostics: Vec::new(),
                ..outcome
            }
        ),
        "[]\n"
    );
}

#[test]
fn gitlab_report_for_every_fixture_repository_is_valid() {
    let fixtures = manifest_dir().join("tests/fixtures");
    let mut issues = 0;
    for code in std::fs::read_dir(&fixtures).expect("fixtures").flatten() {
        let root = code.path().join("fires");
        if !root.is_dir() {
            continue;
        }
        let outcome = lint(&LintOptions {
            paths: vec![root.clone()],
            select: vec!["ALL".to_string()],
            ..LintOptions::default()
        })
        .expect("lint runs");
        let text = render_outcome(Format::Gitlab, &outcome);
        issues += assert_gitlab_report(&text, &root.display().to_string());
    }
    assert!(issues > 50, "only {issues} issues in the fixtures");
}

#[test]
fn junit_counts_a_failed_test_case_per_finding() {
    let outcome = outcome();
    let text = render_outcome(Format::Junit, &outcome);
    snapshot("junit", &text);
    let findings = outcome.diagnostics.len();
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    assert!(text.contains(&format!(
        "<testsuites name=\"skilllint\" tests=\"{findings}\" failures=\"{findings}\" errors=\"0\">"
    )));
    assert_eq!(text.matches("<testcase ").count(), findings);
    assert_eq!(text.matches("<failure ").count(), findings);
    assert_eq!(text.matches("</failure>").count(), findings);
    let files: std::collections::BTreeSet<_> =
        outcome.diagnostics.iter().map(|d| d.primary.file).collect();
    assert_eq!(text.matches("<testsuite ").count(), files.len());
    let clean = render_outcome(
        Format::Junit,
        &LintOutcome {
            diagnostics: Vec::new(),
            ..outcome
        },
    );
    assert!(clean.contains("tests=\"1\" failures=\"0\""), "{clean}");
    assert!(clean.contains("<testcase name=\"no findings\""), "{clean}");
}

#[test]
fn docs_rules_md_is_current() {
    let path = manifest_dir().join("docs/rules.md");
    let expected = render::rules_markdown(catalog());
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/rules.md is stale: run `cargo run -- rules --format markdown > docs/rules.md`"
    );
}

/// A run with the example policy pack: the SARIF log describes the policy rules in `rules[]`
/// (tagged `policy`, no help page of ours), their results point at them, and the log is valid.
/// `scripts/check-policy-sarif.sh` runs the SARIF Multitool over the same kind of log.
#[test]
fn sarif_with_policy_rules_is_valid_and_describes_them() {
    let pack = skilllint::policy::load(Path::new("."), &[manifest_dir().join("examples/policies")])
        .expect("the example pack loads");
    let options = LintOptions {
        paths: vec![manifest_dir().join("tests/fixtures")],
        select: vec!["ALL".to_string()],
        threads: Some(2),
        policies: Some(std::sync::Arc::new(pack)),
        ..LintOptions::default()
    };
    let outcome = skilllint::lint(&options).expect("lints");
    let input = skilllint::render::Input {
        sources: outcome.repo.sources(),
        diagnostics: &outcome.diagnostics,
        suppressed: &outcome.suppressed,
        root: &outcome.root,
        catalog: options.catalog(),
    };
    let text = skilllint::render::render(Format::Sarif, &input, false);
    let instance: serde_json::Value = serde_json::from_str(&text).expect("SARIF parses");
    let schema = load_json(&manifest_dir().join("tests/data/sarif-2.1.0.schema.json"));
    assert_valid(&schema, &instance, "SARIF output with policy rules");
    let rules = instance["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert_eq!(rules.len(), options.catalog().rules.len());
    let org001 = rules
        .iter()
        .find(|r| r["id"] == "ORG001")
        .expect("ORG001 is described");
    assert_eq!(org001["name"], "database-writes-need-approval");
    assert!(org001.get("helpUri").is_none());
    assert!(org001["properties"]["tags"]
        .as_array()
        .is_some_and(|t| t.iter().any(|t| t == "policy")));
    assert!(org001["help"]["markdown"]
        .as_str()
        .is_some_and(|m| m.contains("approval: always")));
    let results = instance["runs"][0]["results"].as_array().expect("results");
    let policy_results: Vec<&serde_json::Value> = results
        .iter()
        .filter(|r| r["ruleId"].as_str().is_some_and(|id| id.starts_with("ORG")))
        .collect();
    assert!(
        !policy_results.is_empty(),
        "the pack finds something in the fixtures"
    );
    for result in policy_results {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }
}
