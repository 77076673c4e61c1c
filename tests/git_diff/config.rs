//! Each revision read with its own committed configuration and policies.

use crate::common::*;

#[test]
fn each_revision_is_read_with_its_own_committed_configuration() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    // HEAD excludes the ledger: its tools are gone from that side only.
    s.write("r/skilllint.toml", "[lint]\nexclude = [\"ledger/**\"]\n");
    s.commit("r", "exclude the ledger");
    let (code, report) = diff_json(&["HEAD~1", "HEAD"], &s.path("r"));
    // Excluding a folder is configuration that silences the linter: listed, and widening.
    assert_eq!(code, Some(1), "{report:#}");
    let silencing = report["silencing"].as_array().expect("silencing");
    assert!(
        silencing
            .iter()
            .any(|c| c["kind"] == "exclude-added" && c["after"] == "ledger/**"),
        "{report:#}"
    );
    let removed: Vec<&str> = changes(&report)
        .iter()
        .filter(|c| c["kind"] == "removed")
        .map(|c| c["path"].as_str().unwrap_or_default())
        .collect();
    assert!(!removed.is_empty(), "{report:#}");
    assert!(
        removed.iter().all(|p| *p == "ledger/tools.json"),
        "{removed:?}"
    );
    // --isolated reads neither side's configuration.
    let (code, report) = diff_json(&["HEAD~1", "HEAD", "--isolated"], &s.path("r"));
    assert_eq!(code, Some(0));
    assert!(changes(&report).is_empty(), "{report:#}");
    // The size cap of a revision's config applies to its blobs as to files on disk.
    s.write("r/skilllint.toml", "[lint]\nmax-file-size = 64\n");
    s.commit("r", "tiny cap");
    let (_, report) = diff_json(&["HEAD~1", "HEAD"], &s.path("r"));
    let unread = report["unread"]["new"].as_array().expect("unread");
    assert!(
        unread.iter().any(|u| u["path"] == "storefront/tools.json"
            && u["message"]
                .as_str()
                .is_some_and(|m| m.contains("over the 64 byte size limit"))),
        "{report:#}"
    );
}

#[test]
fn a_revision_whose_config_names_policies_outside_it_is_refused() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    s.write(
        "r/skilllint.toml",
        "[policies]\npaths = [\"../elsewhere/policies\"]\n",
    );
    s.commit("r", "policies from outside");
    let output = skilllint(&["diff", "HEAD~1", "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("leads outside the repository"),
        "{output:?}"
    );
    assert!(
        stderr(&output).contains("HEAD:../elsewhere/policies"),
        "{output:?}"
    );
    // A broken config is named with its revision, on either side.
    s.write("r/skilllint.toml", "[lint]\nselect = [\"NOPE999\"]\n");
    s.commit("r", "a selector of no rule");
    let output = skilllint(&["diff", "HEAD", "HEAD~2"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("HEAD:skilllint.toml"),
        "{output:?}"
    );
}

#[test]
fn a_revision_is_read_with_the_policies_committed_in_it() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    let policy =
        std::fs::read_to_string(fixtures().join("SL010/clean/.skilllint/policies/approval.yaml"))
            .expect("policy");
    // The config selects a policy rule: it is valid only with the policy the revision holds.
    s.write(
        "r/skilllint.toml",
        "[lint]\nselect = [\"TJ\", \"ORG001\"]\n",
    );
    s.write("r/.skilllint/policies/approval.yaml", &policy);
    s.commit("r", "a policy");
    let output = skilllint(&["diff", "HEAD~1", "HEAD"], &s.path("r"));
    // Read and valid (not 2); the narrower `select` silences rules, which widens (1).
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(stdout(&output).contains("select"), "{output:?}");
    // Without it, the same config names a rule that does not exist.
    std::fs::remove_dir_all(s.path("r/.skilllint")).expect("remove");
    s.commit("r", "no policy");
    let output = skilllint(&["diff", "HEAD~1", "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("HEAD:skilllint.toml"),
        "{output:?}"
    );
    assert!(stderr(&output).contains("ORG001"), "{output:?}");
    // A broken policy file is named with its revision.
    s.write(
        "r/.skilllint/policies/approval.yaml",
        "rules:\n  - code: 1\n",
    );
    s.commit("r", "a broken policy");
    let output = skilllint(&["diff", "HEAD~2", "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("HEAD:.skilllint/policies/approval.yaml"),
        "{output:?}"
    );
    // --isolated reads neither the config nor the policies.
    let output = skilllint(&["diff", "HEAD~2", "HEAD", "--isolated"], &s.path("r"));
    assert_eq!(output.status.code(), Some(0), "{output:?}");
}
