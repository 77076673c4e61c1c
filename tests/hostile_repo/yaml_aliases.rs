//! YAML alias expansion is counted in bytes in every YAML reader: a scalar of a few hundred KB
//! aliased a thousand times is a few nodes but hundreds of MB (a 2 MB one aliased 9,000 times
//! aborted a run at 3.4 GB). Each reader reports it as an alias bomb instead of expanding it.

use super::common::{skilllint, stderr, stdout, write};

/// A mapping entry anchoring a 200 KB scalar, then a list of 1,000 aliases to it (200 MB
/// expanded, 4 KB written).
fn bomb(indent: &str) -> String {
    format!(
        "{indent}blob: &a {}\n{indent}copies: [{}]\n",
        "x".repeat(200_000),
        vec!["*a"; 1000].join(", ")
    )
}

#[test]
fn every_yaml_reader_counts_alias_expansion_in_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("git dir");
    let files = [
        (
            "skill/SKILL.md",
            format!(
                "---\nname: skill\ndescription: Does. Use when.\n{}---\n\nBody.\n",
                bomb("")
            ),
        ),
        (
            "req/SKILL.md",
            "---\nname: req\ndescription: Does. Use when.\n---\n\nBody.\n".to_string(),
        ),
        ("req/requirement.yaml", format!("tools: []\n{}", bomb(""))),
        (
            ".tools/t/TOOL.md",
            format!(
                "---\nname: T\nid: t\ndescription: d\nversion: 1.0.0\n{}---\n",
                bomb("")
            ),
        ),
        (
            ".drivers/d/DRIVER.md",
            format!(
                "---\nname: D\nid: d\ndescription: d\nversion: 1.0.0\nkind: cli\n{}---\n",
                bomb("")
            ),
        ),
        ("SECRETS.md", format!("---\nsecrets: []\n{}---\n", bomb(""))),
    ];
    for (rel, text) in &files {
        write(root, rel, text.as_bytes());
    }
    let output = skilllint(&[".", "--format", "json", "--select", "ALL"], root);
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("a JSON report");
    for (rel, _) in files.iter().filter(|(rel, _)| *rel != "req/SKILL.md") {
        let found = report.as_array().into_iter().flatten().any(|d| {
            d["path"] == *rel
                && d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("alias") && m.contains("bytes"))
        });
        assert!(found, "{rel}: no alias bomb reported: {}", stdout(&output));
    }

    // A policy file is YAML too.
    write(
        root,
        ".skilllint/policies/bomb.yaml",
        format!("rules: []\n{}", bomb("")).as_bytes(),
    );
    let output = skilllint(&["."], root);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("bytes"), "{}", stderr(&output));
}
