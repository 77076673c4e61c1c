//! Both sides of a diff as a fresh lint makes them: on one thread or many, rules that read the disk,
//! a contract changed alone, a second revision made from the first.

use crate::common::*;
use serde_json::Value;

#[test]
fn the_report_is_the_same_on_one_thread_and_on_many() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    s.replace_files("r", "capdiff/new");
    s.commit("r", "second");
    for format in ["full", "json", "markdown"] {
        let run = |threads: &str| {
            let output = skilllint(
                &[
                    "diff",
                    "HEAD~1",
                    "HEAD",
                    "--format",
                    format,
                    "--threads",
                    threads,
                ],
                &s.path("r"),
            );
            assert_eq!(output.status.code(), Some(1), "{output:?}");
            output.stdout
        };
        assert_eq!(run("1"), run("4"), "{format}");
    }
}

#[test]
fn the_rules_that_read_the_disk_are_neither_new_nor_fixed_against_a_revision() {
    let s = Scratch::new();
    std::fs::create_dir_all(s.path("r")).expect("repo folder");
    s.git("r", &["init", "-q", "."]);
    s.write(
        "r/helper/SKILL.md",
        "---\nname: helper\ndescription: Helps with notes. Use when the user asks about notes.\n---\n\n# Helper\n\nSee [the guide](guide.md).\n",
    );
    s.write(
        "r/helper/guide.md",
        "# Guide\n\nRead [the missing page](missing.md).\n",
    );
    s.write("r/helper/tools.zip", "PK\u{3}\u{4}not really");
    s.commit("r", "a skill with a broken linked page and an archive");
    // On disk the work tree has both findings (SK022, SK023); the revision cannot have them.
    let lint = skilllint(&["--format", "concise", "."], &s.path("r"));
    let lint = stdout(&lint);
    assert!(lint.contains("SK022") && lint.contains("SK023"), "{lint}");
    let (code, report) = diff_json(&["HEAD"], &s.path("r"));
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(
        report["findings"],
        serde_json::json!({"new": [], "fixed": [], "silenced": []}),
        "{report:#}"
    );
}

/// The report of `diff HEAD~1 HEAD` in `r`, and of `diff --dirs old new` over copies of the
/// same two trees, as JSON without what only a revision report has (`revisions`).
fn revision_and_folder_reports(s: &Scratch, old: &str, new: &str) -> (Value, Value) {
    let (code, mut revisions) = diff_json(&["HEAD~1", "HEAD"], &s.path("r"));
    let (folder_code, folders) = diff_json(&["--dirs", old, new], s.dir.path());
    assert_eq!(code, folder_code);
    if let Some(report) = revisions.as_object_mut() {
        report.remove("revisions");
    }
    (revisions, folders)
}

/// Whether the findings `list` (JSON) hold XC003 on calendar/tools.json, which reads the
/// contract `.tools/create-event/TOOL.md` of another folder.
fn xc003_on_calendar(list: &Value) -> bool {
    list.as_array().is_some_and(|findings| {
        findings
            .iter()
            .any(|f| f["code"] == "XC003" && f["path"] == "calendar/tools.json")
    })
}

#[test]
fn a_contract_changed_alone_changes_the_findings_of_the_folders_that_read_it() {
    // The second revision is made from the first's lint (same configuration, one blob
    // changed): the unchanged calendar/tools.json, which reads the contract, is linted again.
    let s = Scratch::new();
    s.repo_from("r", "XC003/fires");
    let contract = ".tools/create-event/TOOL.md";
    copy_tree(&fixtures().join("XC003/fires"), &s.path("old"));
    copy_tree(&fixtures().join("XC003/fires"), &s.path("new"));
    s.take_fixture_file("new", "XC003/clean", contract);
    s.take_fixture_file("r", "XC003/clean", contract);
    s.commit("r", "contract made idempotent");
    let (revisions, folders) = revision_and_folder_reports(&s, "old", "new");
    assert_eq!(revisions, folders);
    assert!(
        xc003_on_calendar(&revisions["findings"]["fixed"]),
        "{revisions}"
    );

    // And back: the finding is new again in the folder nobody edited.
    s.take_fixture_file("r", "XC003/fires", contract);
    s.commit("r", "contract not idempotent again");
    let (revisions, folders) = revision_and_folder_reports(&s, "new", "old");
    assert_eq!(revisions, folders);
    assert!(
        xc003_on_calendar(&revisions["findings"]["new"]),
        "{revisions}"
    );
}

/// What `Repository::sides` made of `HEAD~1 HEAD` in `r` (both sides, the first only, or
/// neither), asserting that each side it made is the side a fresh lint makes, and that the
/// reports in every format are the same; the JSON report.
fn sides_as_fresh(s: &Scratch, made: &str) -> String {
    use skilllint::diff::{diff_sides, render, side::Side};
    use skilllint::history::{Repository, Revision};
    let history = Repository::discover(&s.path("r"), true).expect("the repository opens");
    let base = history.revision("HEAD~1").expect("base");
    let head = history.revision("HEAD").expect("head");
    let fresh = |revision: &Revision| history.side(revision, false, Some(2)).expect("a side");
    let (what, old, new): (&str, Side, Side) = match history.sides(&base, &head, false, Some(2)) {
        (Some(old), Some(new)) => ("both", old, new),
        (Some(old), None) => ("first", old, fresh(&head)),
        (None, None) => ("neither", fresh(&base), fresh(&head)),
        (None, Some(_)) => panic!("a second side made without the first"),
    };
    assert_eq!(what, made);
    let (fresh_old, fresh_new) = (fresh(&base), fresh(&head));
    assert_eq!(format!("{old:?}"), format!("{fresh_old:?}"), "the old side");
    assert_eq!(format!("{new:?}"), format!("{fresh_new:?}"), "the new side");
    let (diff, fresh_diff) = (diff_sides(&old, &new), diff_sides(&fresh_old, &fresh_new));
    assert_eq!(render::diff_full(&diff), render::diff_full(&fresh_diff));
    assert_eq!(
        render::diff_markdown(&diff),
        render::diff_markdown(&fresh_diff)
    );
    let json = render::diff_json(&diff);
    assert_eq!(json, render::diff_json(&fresh_diff));
    json
}

#[test]
fn a_second_revision_made_from_the_first_is_the_side_a_fresh_lint_makes() {
    let s = Scratch::new();
    s.repo_from("r", "XC003/fires");
    // Unchanged.
    s.commit("r", "again");
    sides_as_fresh(&s, "both");
    // Only a contract other folders read: XC003 fixed in calendar/tools.json.
    s.take_fixture_file("r", "XC003/clean", ".tools/create-event/TOOL.md");
    s.commit("r", "contract");
    assert!(sides_as_fresh(&s, "both").contains("XC003"));
    // Several files in several folders, a skill among them.
    s.replace_files("r", "XC003/fires");
    s.write(
        "r/calendar/SKILL.md",
        "---\nname: calendar\ndescription: Books events.\n---\n\n# Calendar\n",
    );
    s.commit("r", "several");
    sides_as_fresh(&s, "both");
}

#[test]
fn a_file_added_or_removed_or_another_configuration_lints_the_second_revision_afresh() {
    let s = Scratch::new();
    s.repo_from("r", "XC003/fires");
    s.write(
        "r/notes/SKILL.md",
        "---\nname: notes\ndescription: Keeps notes. Use when asked.\n---\n\n# Notes\n",
    );
    s.commit("r", "added");
    sides_as_fresh(&s, "neither");
    s.git("r", &["rm", "-q", "calendar/tools.json"]);
    s.commit("r", "removed");
    sides_as_fresh(&s, "neither");

    s.write("r/skilllint.toml", "[lint]\nignore = []\n");
    s.commit("r", "configured");
    s.write("r/skilllint.toml", "[lint]\nignore = [\"XC004\"]\n");
    s.commit("r", "configured otherwise");
    sides_as_fresh(&s, "neither");
    // The same configuration on both sides, a changed file: made from the first.
    s.take_fixture_file("r", "XC003/clean", "servers/github/github.tools.json");
    s.commit("r", "clean");
    sides_as_fresh(&s, "both");
}

#[test]
fn a_file_that_can_no_longer_be_read_lints_the_second_revision_afresh() {
    let s = Scratch::new();
    s.repo_from("r", "XC003/fires");
    std::fs::write(s.path("r/calendar/tools.json"), b"[\xff\xfe]\n").expect("write");
    s.commit("r", "not UTF-8");
    sides_as_fresh(&s, "first");
    // And readable again.
    s.replace_files("r", "XC003/fires");
    s.commit("r", "readable");
    sides_as_fresh(&s, "first");
}
