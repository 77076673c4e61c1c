//! The baseline is repository data: a `skilllint.toml` names it, `--add-noqa` creates and
//! rewrites it, and its entries decide which findings are shown. A configured baseline that leads
//! out of the repository (`..`, an absolute path, a symlinked folder, a link to nothing) must
//! never be created or written there; a large baseline must be matched in linear time; and an
//! entry must never hide a finding that was not there when it was written.

use super::common::{skilllint, stderr, stdout, write};
use std::path::Path;

/// A repository (it holds `.git`) whose tools.json has findings no comment can hold, so
/// `--add-noqa` has entries to put in a baseline.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join(".git")).expect("git dir");
    write(
        dir.path(),
        "notes/tools.json",
        br#"[{"name": "save_note", "description": "Save a note.", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]"#,
    );
    dir
}

/// Every file below `dir`, as paths relative to it.
fn files_below(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(
                    path.strip_prefix(dir)
                        .unwrap_or(&path)
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    found.sort();
    found
}

#[cfg(unix)]
#[test]
fn add_noqa_never_creates_a_configured_baseline_outside_the_repository() {
    use std::os::unix::fs::symlink;
    // Each way a configuration can point its baseline out: a climbing path, an absolute one, a
    // link at the baseline's name to a file that does not exist yet, a symlinked folder.
    for attack in ["climb", "absolute", "dangling", "folder-link"] {
        let outside = tempfile::tempdir().expect("outside dir");
        let repo = repository();
        let target = outside.path().join("x.json");
        let named = match attack {
            // Up out of the repository and down into the other temporary folder.
            "climb" => pathdiff(repo.path(), &target),
            "absolute" => target.to_string_lossy().into_owned(),
            "dangling" => {
                symlink(&target, repo.path().join("skilllint-baseline.json")).expect("link");
                "skilllint-baseline.json".to_string()
            }
            _ => {
                symlink(outside.path(), repo.path().join("ci")).expect("folder link");
                "ci/x.json".to_string()
            }
        };
        write(
            repo.path(),
            "skilllint.toml",
            format!("[lint]\nbaseline = {named:?}\n").as_bytes(),
        );
        let output = skilllint(&["--add-noqa", "."], repo.path());
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{attack}: {err}");
        assert!(
            err.contains("outside the configuration's folder") || err.contains("leads to no file"),
            "{attack}: says why: {err}"
        );
        assert_eq!(
            files_below(outside.path()),
            Vec::<String>::new(),
            "{attack}: a file was created outside the repository"
        );
        // A plain run refuses the configuration the same way, before reading anything.
        let plain = skilllint(&["."], repo.path());
        assert_eq!(plain.status.code(), Some(2), "{attack}: {}", stderr(&plain));
        assert!(files_below(outside.path()).is_empty(), "{attack}");
    }
}

/// `to` (absolute) as a path relative to `from` (absolute) through `..`.
fn pathdiff(from: &Path, to: &Path) -> String {
    let from: Vec<_> = from.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(
        to_parts[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

#[cfg(unix)]
#[test]
fn add_noqa_writes_a_configured_baseline_inside_the_repository_through_a_link_there() {
    use std::os::unix::fs::symlink;
    let repo = repository();
    write(
        repo.path(),
        "skilllint.toml",
        b"[lint]\nbaseline = \"skilllint-baseline.json\"\n",
    );
    // A link inside the repository to a file inside it: the file it leads to is written, the
    // link stays a link.
    write(repo.path(), "ci/real.json", b"[]\n");
    symlink(
        repo.path().join("ci/real.json"),
        repo.path().join("skilllint-baseline.json"),
    )
    .expect("link");
    let output = skilllint(&["--add-noqa", "."], repo.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let link = std::fs::symlink_metadata(repo.path().join("skilllint-baseline.json"))
        .expect("the link is still there");
    assert!(link.file_type().is_symlink());
    let written = std::fs::read_to_string(repo.path().join("ci/real.json")).expect("the real file");
    assert!(
        written.contains("\"path\": \"notes/tools.json\""),
        "{written}"
    );
    // And a baseline that does not exist yet is created where the configuration says.
    let fresh = repository();
    write(
        fresh.path(),
        "skilllint.toml",
        b"[lint]\nbaseline = \"ci/b.json\"\n",
    );
    std::fs::create_dir_all(fresh.path().join("ci")).expect("ci");
    let output = skilllint(&["--add-noqa", "."], fresh.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        fresh.path().join("ci/b.json").is_file(),
        "{}",
        stdout(&output)
    );
}

/// A tools.json of `count` tools that delete, each ungated (an SC016 finding apiece), and then
/// the tools named in `extra`.
fn deleting_tools(count: usize, extra: &[&str]) -> String {
    let tools: Vec<String> = (0..count)
        .map(|i| format!("tool_{i}"))
        .chain(extra.iter().map(|name| (*name).to_string()))
        .map(|name| {
            format!("  {{\"name\": \"{name}\", \"description\": \"Deletes record {name}.\"}}")
        })
        .collect();
    format!("[\n{}\n]\n", tools.join(",\n"))
}

#[test]
fn a_new_finding_past_the_cap_is_not_absorbed_by_a_baselined_count() {
    let repo = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(repo.path().join(".git")).expect("git dir");
    // 1,100 findings of one rule in one file: 1,000 reported, one counting the other 100.
    write(
        repo.path(),
        "s/tools.json",
        deleting_tools(1100, &[]).as_bytes(),
    );
    let written = skilllint(&[".", "--write-baseline", "b.json"], repo.path());
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    let clean = skilllint(&[".", "--baseline", "b.json"], repo.path());
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    // Lines added above move nothing: the count still stands for the same findings.
    write(
        repo.path(),
        "s/tools.json",
        format!("\n\n{}", deleting_tools(1100, &[])).as_bytes(),
    );
    let moved = skilllint(&[".", "--baseline", "b.json"], repo.path());
    assert_eq!(moved.status.code(), Some(0), "{}", stderr(&moved));

    // A pull request adds a tool at the end: its finding falls past the cap, into the count.
    write(
        repo.path(),
        "s/tools.json",
        deleting_tools(1100, &["drop_everything"]).as_bytes(),
    );
    let output = skilllint(
        &[".", "--baseline", "b.json", "--format", "concise"],
        repo.path(),
    );
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(
        out.contains("SC016 [risky-tool-ungated] 101 more findings of this rule in this file"),
        "the count that now holds a new finding is reported: {out}"
    );
    // The same number of findings, one of them new (a tool renamed past the cap): reported too.
    let mut renamed: Vec<String> = (0..1099).map(|i| format!("tool_{i}")).collect();
    renamed.push("wipe_disk".to_string());
    let names: Vec<&str> = renamed.iter().map(String::as_str).collect();
    write(
        repo.path(),
        "s/tools.json",
        deleting_tools(0, &names).as_bytes(),
    );
    let output = skilllint(
        &[".", "--baseline", "b.json", "--format", "concise"],
        repo.path(),
    );
    let out = stdout(&output);
    assert!(
        out.contains("SC016 [risky-tool-ungated] 100 more findings of this rule in this file"),
        "{out}"
    );
}
