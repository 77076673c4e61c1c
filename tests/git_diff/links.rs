//! Submodules, links in the tree (inside it, out of it, cycles, dangling) and names that are not
//! UTF-8, each read as on disk.

use crate::common::*;
use serde_json::Value;

#[test]
fn a_submodule_is_not_read_and_said_so_and_a_link_in_the_tree_is_read() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    s.repo_from("sub", "capdiff/new");
    let root = s.path("r");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../storefront/tools.json", root.join("ledger/tools.json")).ok();
        std::fs::remove_file(root.join("ledger/tools.json")).ok();
        std::os::unix::fs::symlink("../storefront/tools.json", root.join("ledger/tools.json"))
            .expect("link");
    }
    let sub_head = s.git("sub", &["rev-parse", "HEAD"]);
    s.git("r", &["add", "-A"]);
    s.git(
        "r",
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{sub_head},vendored"),
        ],
    );
    // Committed as staged: `add -A` would drop the submodule, which has no folder here.
    s.git("r", &["commit", "-q", "-m", "link, submodule"]);
    let (_, report) = diff_json(&["HEAD~1", "HEAD"], &root);
    let unread = report["unread"]["new"].as_array().expect("unread");
    let message = |path: &str| {
        unread
            .iter()
            .find(|u| u["path"] == path)
            .and_then(|u| u["message"].as_str())
            .unwrap_or_default()
            .to_string()
    };
    // The link leads to a file of the tree: read, as on disk.
    assert_eq!(message("ledger/tools.json"), "", "{report:#}");
    assert!(message("vendored").contains("submodule"), "{report:#}");
}

/// Makes `link` (relative to the scratch folder) a symbolic link to `target`, as `ln -s` does.
#[cfg(unix)]
fn link(s: &Scratch, target: &str, link: &str) {
    let path = s.path(link);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("folders");
    }
    std::os::unix::fs::symlink(target, path).expect("link");
}

/// The unread files of a side of a revision report, as (path, message).
fn unread_of(report: &Value, side: &str) -> Vec<(String, String)> {
    report["unread"][side]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|u| {
                    let text = |key: &str| u[key].as_str().unwrap_or_default().to_string();
                    (text("path"), text("message"))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(unix)]
#[test]
fn a_link_inside_the_tree_is_read_as_on_disk_and_the_work_tree_shows_no_difference() {
    let s = Scratch::new();
    std::fs::create_dir_all(s.path("r")).expect("repo folder");
    s.git("r", &["init", "-q", "."]);
    let tools = |side: &str| {
        std::fs::read_to_string(fixtures().join(format!("capdiff/{side}/storefront/tools.json")))
            .expect("fixture")
    };
    s.write("r/shared/tools.json", &tools("old"));
    s.write(
        "r/AGENTS.md",
        "# Agents\n\nRun the tests before committing.\n",
    );
    link(&s, "AGENTS.md", "r/CLAUDE.md");
    link(&s, "shared/tools.json", "r/tools.json");
    // A chain through a linked folder, with `..` taken where the walk is, not as written.
    s.write("r/shared/inner/README.md", "# Inner\n");
    link(&s, "shared/inner", "r/linked");
    link(
        &s,
        "../../linked/../../shared/./tools.json",
        "r/skills/pay/tools.json",
    );
    // A link to a folder is not walked (no second copy of its tools); one to an enclosing
    // folder is a loop, said on both sides.
    link(&s, "..", "r/shared/up");
    s.commit("r", "links");
    s.write("r/shared/tools.json", &tools("new"));
    s.write("r/AGENTS.md", "# Agents\n\nRun the tests, then commit.\n");
    s.commit("r", "tools changed through the link");
    let root = s.path("r");
    let (_, revisions) = diff_json(&["HEAD~1", "HEAD"], &root);
    let (_, work_tree) = diff_json(&["HEAD~1"], &root);
    assert!(!changes(&revisions).is_empty(), "{revisions:#}");
    assert_eq!(changes(&revisions), changes(&work_tree));
    for side in ["old", "new"] {
        assert_eq!(
            unread_of(&revisions, side),
            unread_of(&work_tree, side),
            "{side}"
        );
    }
    let loop_only = vec![(
        "shared/up".to_string(),
        "symlink loop: this folder leads back to a folder that encloses it; it was not followed"
            .to_string(),
    )];
    assert_eq!(unread_of(&revisions, "old"), loop_only, "{revisions:#}");
    // Each linked tools file is read with the text it leads to: the change shows at each.
    let paths: std::collections::BTreeSet<&str> = of(&revisions, "transfer_funds", "added")
        .iter()
        .filter_map(|c| c["path"].as_str())
        .collect();
    assert_eq!(
        paths,
        ["shared/tools.json", "skills/pay/tools.json", "tools.json"]
            .into_iter()
            .collect(),
        "{revisions:#}"
    );
    // The work tree as committed: nothing differs, and nothing is left unread but the loop.
    let (code, same) = diff_json(&["HEAD"], &root);
    assert_eq!(code, Some(0), "{same:#}");
    assert!(changes(&same).is_empty(), "{same:#}");
    assert_eq!(unread_of(&same, "old"), unread_of(&same, "new"));
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_tree_is_refused_and_what_it_leads_to_is_never_read() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    let marker = "outside_marker_never_read";
    let secret = format!(
        "{{\"tools\": [{{\"name\": \"{marker}\", \"description\": \"{marker} text\", \
         \"input_schema\": {{\"type\": \"object\"}}}}]}}\n"
    );
    s.write("outside/tools.json", &secret);
    let outside = s.path("outside/tools.json");
    // `r/a/../../outside` is the file above on disk: a revision never looks there.
    link(&s, "../../outside/tools.json", "r/a/tools.json");
    link(&s, &outside.to_string_lossy(), "r/b/tools.json");
    link(&s, "../../etc/passwd", "r/c/tools.json");
    link(&s, "/etc/passwd", "r/CLAUDE.md");
    // Out and back in is out: the tree has no name for its own top.
    link(&s, "../../r/storefront/tools.json", "r/d/tools.json");
    s.commit("r", "links out");
    let root = s.path("r");
    let (_, report) = diff_json(&["HEAD~1", "HEAD"], &root);
    let out_of_root = "the file is a symlink to a place outside the lint root; it was not read";
    let unread = unread_of(&report, "new");
    for path in [
        "CLAUDE.md",
        "a/tools.json",
        "b/tools.json",
        "c/tools.json",
        "d/tools.json",
    ] {
        assert!(
            unread.contains(&(path.to_string(), out_of_root.to_string())),
            "{path}: {report:#}"
        );
    }
    // Each file the new side cannot read widens: whatever it declares is not compared.
    let not_read: Vec<&str> = report["changes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["kind"] == "not-read" && c["widens"] == true)
        .filter_map(|c| c["path"].as_str())
        .collect();
    assert_eq!(
        not_read,
        [
            "CLAUDE.md",
            "a/tools.json",
            "b/tools.json",
            "c/tools.json",
            "d/tools.json"
        ],
        "{report:#}"
    );
    assert_eq!(changes(&report).len(), not_read.len(), "{report:#}");
    assert_eq!(report["widens"], true, "{report:#}");
    for format in ["json", "text", "markdown"] {
        let output = skilllint(&["diff", "--format", format, "HEAD~1", "HEAD"], &root);
        assert!(!stdout(&output).contains(marker), "{format}: {output:?}");
        assert!(!stderr(&output).contains(marker), "{format}: {output:?}");
    }
    // On disk the links that reach a file outside say the same.
    let (_, work_tree) = diff_json(&["HEAD~1"], &root);
    let on_disk = unread_of(&work_tree, "new");
    for path in ["CLAUDE.md", "a/tools.json", "b/tools.json"] {
        assert!(
            on_disk.contains(&(path.to_string(), out_of_root.to_string())),
            "{path}: {work_tree:#}"
        );
    }
    assert!(!work_tree.to_string().contains(marker), "{work_tree:#}");
}

#[cfg(unix)]
#[test]
fn a_linked_config_is_read_from_the_tree_and_one_out_of_it_is_refused() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    s.write("r/config/lint.toml", "[lint]\nexclude = [\"ledger/**\"]\n");
    // The fixture's own config gives way to the link.
    std::fs::remove_file(s.path("r/skilllint.toml")).expect("remove");
    link(&s, "config/lint.toml", "r/skilllint.toml");
    s.commit("r", "a linked config");
    let root = s.path("r");
    let (code, report) = diff_json(&["HEAD~1", "HEAD"], &root);
    // The linked config is read: its exclude silences the ledger (widening, exit 1).
    assert_eq!(code, Some(1), "{report:#}");
    assert!(
        report["silencing"]
            .as_array()
            .expect("silencing")
            .iter()
            .any(|c| c["kind"] == "exclude-added" && c["after"] == "ledger/**"),
        "{report:#}"
    );
    let removed: Vec<&Value> = changes(&report)
        .iter()
        .filter(|c| c["kind"] == "removed")
        .collect();
    assert!(!removed.is_empty(), "{report:#}");
    assert!(removed.iter().all(|c| c["path"] == "ledger/tools.json"));
    // The work tree reads the same config through the same link.
    let (code, same) = diff_json(&["HEAD"], &root);
    assert_eq!(code, Some(0), "{same:#}");
    assert!(changes(&same).is_empty(), "{same:#}");
    for (target, words) in [
        ("/etc/passwd", "outside the folder it is in"),
        ("../skilllint.toml", "outside the folder it is in"),
        ("config/missing.toml", "does not resolve"),
    ] {
        std::fs::remove_file(s.path("r/skilllint.toml")).expect("remove");
        link(&s, target, "r/skilllint.toml");
        s.commit("r", target);
        let output = skilllint(&["diff", "HEAD~1", "HEAD"], &root);
        assert_eq!(output.status.code(), Some(2), "{target}: {output:?}");
        assert!(stderr(&output).contains(words), "{target}: {output:?}");
        assert!(
            stderr(&output).contains("HEAD:skilllint.toml"),
            "{target}: {output:?}"
        );
        assert!(!stderr(&output).contains("root:"), "{target}: {output:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_link_cycle_a_dangling_link_and_a_file_used_as_a_folder_are_refused_as_on_disk() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    link(&s, "loop/a", "r/tools.json");
    link(&s, "b", "r/loop/a");
    link(&s, "a", "r/loop/b");
    link(&s, "tools.json", "r/self/tools.json");
    link(&s, "missing/tools.json", "r/dangling/tools.json");
    link(&s, "../storefront/tools.json/x", "r/through/tools.json");
    // Nine links in a row: one more than a revision follows.
    for hop in 0..9 {
        link(&s, &format!("l{}", hop + 1), &format!("r/chain/l{hop}"));
    }
    s.write("r/chain/l9", "{\"tools\": []}\n");
    link(&s, "l0", "r/chain/tools.json");
    s.commit("r", "links that lead nowhere");
    let root = s.path("r");
    let started = std::time::Instant::now();
    let (_, report) = diff_json(&["HEAD~1", "HEAD"], &root);
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let unread = unread_of(&report, "new");
    let message = |path: &str| {
        unread
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, m)| m.clone())
            .unwrap_or_else(|| panic!("{path} not reported: {report:#}"))
    };
    let why = |code: i32| {
        format!(
            "the file is a symlink that cannot be followed ({}); it was not read",
            std::io::Error::from_raw_os_error(code)
        )
    };
    // ELOOP, ENOENT and ENOTDIR, worded as the system words them for a link on disk.
    for (path, code) in [
        ("tools.json", 40),
        ("self/tools.json", 40),
        ("chain/tools.json", 40),
        ("dangling/tools.json", 2),
        ("through/tools.json", 20),
    ] {
        #[cfg(target_os = "linux")]
        assert_eq!(message(path), why(code), "{path}");
        #[cfg(not(target_os = "linux"))]
        let _ = (code, &why, message(path));
    }
    // The disk lint of the same files says the same of each but the long chain (the system
    // follows more links in a row than a revision does).
    let (_, work_tree) = diff_json(&["HEAD~1"], &root);
    let on_disk: Vec<(String, String)> = unread_of(&work_tree, "new")
        .into_iter()
        .filter(|(path, _)| path != "chain/tools.json")
        .collect();
    let in_tree: Vec<(String, String)> = unread
        .iter()
        .filter(|(path, _)| path != "chain/tools.json")
        .cloned()
        .collect();
    assert_eq!(in_tree, on_disk);
}

#[cfg(target_os = "linux")]
#[test]
fn a_name_that_is_not_utf8_is_escaped_as_on_disk() {
    let s = Scratch::new();
    s.repo_from("r", "capdiff/old");
    let root = s.path("r");
    {
        use std::os::unix::ffi::OsStrExt;
        let odd = root.join(std::ffi::OsStr::from_bytes(b"odd\xffname"));
        std::fs::create_dir_all(&odd).expect("folder");
        std::fs::write(
            odd.join("SKILL.md"),
            "---\nname: odd\ndescription: Odd.\nallowed-tools: Bash\n---\n# Odd\n",
        )
        .expect("skill");
        s.commit("r", "odd name");
        let (_, report) = diff_json(&["HEAD~1", "HEAD"], &root);
        let added = of(&report, "Bash", "added");
        assert_eq!(added.len(), 1, "{report:#}");
        assert_eq!(added[0]["path"], "odd\\xffname/SKILL.md");
        // The work tree, read from disk, names it the same way: no change.
        let (code, report) = diff_json(&["HEAD"], &root);
        assert_eq!(code, Some(0), "{report:#}");
    }
}
