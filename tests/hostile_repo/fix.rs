//! `--fix` in a repository written by an attacker: it writes only inside the lint root, only to
//! the file it fixed, never through a link, and one file it cannot write does not stop the others.

use super::common;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The TJ003 fixture: `calendar/tools.json` has a write tool without confirmation, whose safe fix
/// sets `requiresConfirmation` and adds `user_confirmed`.
fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/TJ003/fires/calendar")
        .join(name);
    std::fs::read(path).expect("read the TJ003 fixture")
}

/// Writes a skill folder `rel` holding the TJ003 fixture (SKILL.md and tools.json).
fn write_skill(root: &Path, rel: &str) {
    common::write(root, &format!("{rel}/SKILL.md"), &fixture("SKILL.md"));
    common::write(root, &format!("{rel}/tools.json"), &fixture("tools.json"));
}

/// Whether `text` is the fixture's tools.json with the TJ003 fix applied.
fn is_fixed_tools_json(text: &str) -> bool {
    text.contains("\"user_confirmed\"") && text.contains("\"requiresConfirmation\": true")
}

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read file")
}

fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("create symlink");
}

/// The range of process ids the next process can get: all of them when the system allows few
/// enough, else a window after the last id handed out.
fn possible_pids() -> std::ops::RangeInclusive<u32> {
    let pid_max = std::fs::read_to_string("/proc/sys/kernel/pid_max")
        .ok()
        .and_then(|text| text.trim().parse::<u32>().ok())
        .unwrap_or(32_768);
    if pid_max <= 65_536 {
        return 1..=pid_max;
    }
    let last = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().nth(4)?.parse::<u32>().ok())
        .unwrap_or(std::process::id());
    last..=last.saturating_add(65_536)
}

#[test]
fn predictable_temp_names_planted_as_symlinks_do_not_redirect_the_write() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    write_skill(&root, "calendar");
    let tools = root.join("calendar/tools.json");
    std::fs::set_permissions(&tools, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let outside = dir.path().join("outside.txt");
    std::fs::write(&outside, b"precious outside bytes\n").expect("write outside file");
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    // The temp name the old writer used, for every pid the run can get.
    let mut planted = 0;
    for pid in possible_pids() {
        let link = root.join(format!("calendar/.tools.json.skilllint-{pid}.tmp"));
        symlink(&outside, &link);
        planted += 1;
    }

    let output = common::skilllint(&["--fix", "--format", "concise"], &root);

    assert_eq!(
        read_text(&outside),
        "precious outside bytes\n",
        "the file outside the root was written: {}",
        common::stderr(&output)
    );
    let outside_mode = std::fs::metadata(&outside)
        .expect("stat")
        .permissions()
        .mode();
    assert_eq!(
        outside_mode & 0o7777,
        0o600,
        "the outside file's mode changed"
    );
    let tools_meta = std::fs::symlink_metadata(&tools).expect("stat tools.json");
    assert!(
        tools_meta.file_type().is_file(),
        "tools.json is no longer a regular file"
    );
    assert_eq!(
        tools_meta.permissions().mode() & 0o7777,
        0o640,
        "tools.json lost its mode"
    );
    assert!(
        is_fixed_tools_json(&read_text(&tools)),
        "tools.json was not fixed"
    );
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
    // No temp file is left behind: the folder holds the two files and the planted links.
    let entries = std::fs::read_dir(root.join("calendar"))
        .expect("list")
        .count();
    assert_eq!(entries, planted + 2, "a temp file was left in the folder");
}

#[test]
fn a_symlinked_tools_json_inside_the_root_is_fixed_at_its_target_and_stays_a_link() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    common::write(&root, "calendar/SKILL.md", &fixture("SKILL.md"));
    // A name skilllint does not read by itself, so the file is linted once, through the link.
    common::write(&root, "shared/calendar-tools.json", &fixture("tools.json"));
    let link = root.join("calendar/tools.json");
    symlink("../shared/calendar-tools.json", &link);

    let output = common::skilllint(&["--fix", "--format", "concise"], &root);

    let link_meta = std::fs::symlink_metadata(&link).expect("stat link");
    assert!(
        link_meta.file_type().is_symlink(),
        "the link was replaced by a regular file"
    );
    assert_eq!(
        std::fs::read_link(&link).expect("read link"),
        PathBuf::from("../shared/calendar-tools.json")
    );
    assert!(
        is_fixed_tools_json(&read_text(&root.join("shared/calendar-tools.json"))),
        "the link's target was not fixed: {}",
        common::stderr(&output)
    );
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
}

#[test]
fn two_discovered_paths_to_one_file_are_written_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    write_skill(&root, "calendar");
    common::write(&root, "agenda/SKILL.md", &fixture("SKILL.md"));
    symlink("../calendar/tools.json", &root.join("agenda/tools.json"));

    let output = common::skilllint(&["--fix", "--format", "concise"], &root);

    let stderr = common::stderr(&output);
    assert!(!stderr.contains("not fixed"), "{stderr}");
    assert!(is_fixed_tools_json(&read_text(
        &root.join("calendar/tools.json")
    )));
    assert!(std::fs::symlink_metadata(root.join("agenda/tools.json"))
        .expect("stat link")
        .file_type()
        .is_symlink());
    assert_ne!(output.status.code(), Some(2), "{stderr}");
}

#[test]
fn a_hard_linked_file_is_refused_and_the_other_files_are_still_fixed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    write_skill(&root, "calendar-a");
    write_skill(&root, "calendar-b");
    let outside = dir.path().join("outside-tools.json");
    std::fs::write(&outside, fixture("tools.json")).expect("write outside file");
    let linked = root.join("calendar-b/tools.json");
    std::fs::remove_file(&linked).expect("remove");
    std::fs::hard_link(&outside, &linked).expect("hard link");

    let output = common::skilllint(&["--fix", "--format", "concise"], &root);

    let stderr = common::stderr(&output);
    assert_eq!(
        std::fs::read(&outside).expect("read"),
        fixture("tools.json"),
        "{stderr}"
    );
    let (outside_meta, linked_meta) = (
        std::fs::metadata(&outside).expect("stat"),
        std::fs::metadata(&linked).expect("stat"),
    );
    assert_eq!(
        (outside_meta.ino(), outside_meta.nlink()),
        (linked_meta.ino(), 2),
        "the hard link was broken"
    );
    assert!(is_fixed_tools_json(&read_text(
        &root.join("calendar-a/tools.json")
    )));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("calendar-b/tools.json not fixed") && stderr.contains("hard link"),
        "{stderr}"
    );
    assert!(stderr.contains("calendar-a/tools.json"), "{stderr}");
    let absolute = root.to_string_lossy().into_owned();
    assert!(!stderr.contains(&absolute), "absolute path in: {stderr}");
}

#[test]
fn an_unwritable_folder_does_not_stop_the_other_files() {
    if common::running_as_root() {
        eprintln!("skipped: root can write into a read-only folder");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    write_skill(&root, "calendar-a");
    write_skill(&root, "calendar-b");
    let locked = root.join("calendar-a");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).expect("chmod");

    let output = common::skilllint(&["--fix", "--format", "concise"], &root);

    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let stderr = common::stderr(&output);
    assert_eq!(
        read_text(&root.join("calendar-a/tools.json")).as_bytes(),
        fixture("tools.json")
    );
    assert!(
        is_fixed_tools_json(&read_text(&root.join("calendar-b/tools.json"))),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("calendar-a/tools.json not fixed"),
        "{stderr}"
    );
    assert!(stderr.contains("calendar-b/tools.json"), "{stderr}");
}

#[test]
fn the_fixed_file_keeps_its_owner_when_root_fixes_it() {
    if !common::running_as_root() {
        eprintln!("skipped: only root can give a file to another owner");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    write_skill(&root, "calendar");
    let tools = root.join("calendar/tools.json");
    std::os::unix::fs::chown(&tools, Some(4321), Some(4322)).expect("chown");

    let output = common::skilllint(&["--fix", "--format", "concise"], &root);

    let meta = std::fs::metadata(&tools).expect("stat");
    assert!(
        is_fixed_tools_json(&read_text(&tools)),
        "{}",
        common::stderr(&output)
    );
    assert_eq!((meta.uid(), meta.gid()), (4321, 4322), "the owner changed");
}

#[test]
fn a_file_named_outside_the_lint_root_is_linted_but_not_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    std::fs::create_dir_all(&root).expect("mkdir");
    write_skill(dir.path(), "elsewhere/calendar");

    let output = common::skilllint(
        &[
            "--fix",
            "--format",
            "concise",
            "../elsewhere/calendar/tools.json",
        ],
        &root,
    );

    let stderr = common::stderr(&output);
    let outside = dir.path().join("elsewhere/calendar/tools.json");
    assert_eq!(
        std::fs::read(&outside).expect("read"),
        fixture("tools.json"),
        "{stderr}"
    );
    assert!(
        stderr.contains("tools.json not fixed: it leads outside the lint root"),
        "{stderr}"
    );
    assert!(
        common::stdout(&output).contains("TJ003"),
        "the file was not linted"
    );
    assert_eq!(output.status.code(), Some(2), "{stderr}");
}

/// A skill whose file is named `skill.md`: SK012's unsafe fix renames it to `SKILL.md`.
fn write_lowercase_skill(root: &Path, rel: &str) {
    let text = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/SK012/fires/pdf-forms/skill.md"),
    )
    .expect("read the SK012 fixture");
    common::write(root, &format!("{rel}/skill.md"), &text);
}

#[test]
fn a_folder_alias_does_not_let_unsafe_fixes_rename_the_real_skill() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    write_lowercase_skill(&root, "vendor/pdf-forms");
    // The real folder is not linted; only the alias leads to it.
    common::write(&root, ".gitignore", b"vendor/\n");
    symlink("vendor/pdf-forms", &root.join("pdf-forms"));

    let output = common::skilllint(&["--fix", "--unsafe-fixes", "--format", "concise"], &root);

    let stderr = common::stderr(&output);
    assert!(
        root.join("vendor/pdf-forms/skill.md").exists()
            && !root.join("vendor/pdf-forms/SKILL.md").exists(),
        "the real skill was renamed through the alias: {stderr}"
    );
    // The walk follows no folder symlink, so the alias leads nowhere: nothing was linted.
    assert!(stderr.contains("No skill or tool files found"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

#[test]
fn a_folder_alias_of_a_linted_skill_renames_it_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    write_lowercase_skill(&root, "pdf-forms");
    symlink("pdf-forms", &root.join("alias"));

    let output = common::skilllint(&["--fix", "--unsafe-fixes", "--format", "concise"], &root);

    let stderr = common::stderr(&output);
    assert!(root.join("pdf-forms/SKILL.md").exists(), "{stderr}");
    assert!(!root.join("pdf-forms/skill.md").exists(), "{stderr}");
    assert!(std::fs::symlink_metadata(root.join("alias"))
        .expect("stat alias")
        .file_type()
        .is_symlink());
    assert!(
        !stderr.contains("not fixed") && !stderr.contains("cannot"),
        "{stderr}"
    );
    assert_ne!(output.status.code(), Some(2), "{stderr}");
}

/// A lint root holding `calendar/tools.json` with the fixture's text, and its write scope.
fn library_root() -> (tempfile::TempDir, PathBuf, skilllint::fix::WriteScope) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    write_skill(&root, "calendar");
    let scope = skilllint::fix::WriteScope::new(&root);
    (dir, root, scope)
}

fn fixture_text() -> String {
    String::from_utf8(fixture("tools.json")).expect("UTF-8 fixture")
}

#[test]
fn the_writer_keeps_a_file_that_changed_since_it_was_linted() {
    let (_dir, root, scope) = library_root();
    let tools = root.join("calendar/tools.json");
    // The user saved an edit after the lint read the file.
    let edited = fixture_text().replace("List the events", "List the user's events");
    std::fs::write(&tools, &edited).expect("edit");

    let result = skilllint::fix::write_fixed(&tools, &fixture_text(), "fixed\n", &scope);

    assert!(
        matches!(result, Err(skilllint::fix::NotFixed::ChangedSinceLinted)),
        "{result:?}"
    );
    assert_eq!(read_text(&tools), edited, "the concurrent edit was lost");
    let entries = std::fs::read_dir(root.join("calendar"))
        .expect("list")
        .count();
    assert_eq!(entries, 2, "a temp file was left behind");
}

#[test]
fn the_writer_refuses_a_target_replaced_by_a_folder() {
    let (_dir, root, scope) = library_root();
    let tools = root.join("calendar/tools.json");
    std::fs::remove_file(&tools).expect("remove");
    std::fs::create_dir(&tools).expect("a folder where the file was");

    let result = skilllint::fix::write_fixed(&tools, &fixture_text(), "fixed\n", &scope);

    assert!(
        matches!(result, Err(skilllint::fix::NotFixed::NotRegularFile)),
        "{result:?}"
    );
    assert!(tools.is_dir());
}

#[test]
fn the_writer_refuses_a_link_that_leaves_the_root() {
    let (dir, root, scope) = library_root();
    let outside = dir.path().join("outside.json");
    std::fs::write(&outside, fixture("tools.json")).expect("write outside");
    let tools = root.join("calendar/tools.json");
    std::fs::remove_file(&tools).expect("remove");
    symlink(&outside, &tools);

    let result = skilllint::fix::write_fixed(&tools, &fixture_text(), "fixed\n", &scope);

    assert!(
        matches!(result, Err(skilllint::fix::NotFixed::OutsideRoot)),
        "{result:?}"
    );
    assert_eq!(
        std::fs::read(&outside).expect("read"),
        fixture("tools.json")
    );
    assert!(std::fs::symlink_metadata(&tools)
        .expect("stat")
        .file_type()
        .is_symlink());
}

#[test]
fn the_renamer_never_replaces_an_existing_file() {
    let (_dir, root, scope) = library_root();
    write_lowercase_skill(&root, "pdf-forms");
    let from = root.join("pdf-forms/skill.md");
    let taken = root.join("pdf-forms/SKILL.md");
    std::fs::write(&taken, b"the user's own SKILL.md\n").expect("write");

    let result = skilllint::fix::rename_fixed(&from, "pdf-forms/skill.md", "SKILL.md", &scope);

    assert!(
        matches!(result, Err(skilllint::fix::NotFixed::TargetExists(_))),
        "{result:?}"
    );
    assert_eq!(read_text(&taken), "the user's own SKILL.md\n");
    assert!(from.exists());
}

#[test]
fn the_renamer_refuses_a_symlinked_skill_file() {
    let (_dir, root, scope) = library_root();
    write_lowercase_skill(&root, "real");
    std::fs::create_dir_all(root.join("pdf-forms")).expect("mkdir");
    let from = root.join("pdf-forms/skill.md");
    symlink("../real/skill.md", &from);

    let result = skilllint::fix::rename_fixed(&from, "pdf-forms/skill.md", "SKILL.md", &scope);

    assert!(
        matches!(result, Err(skilllint::fix::NotFixed::Symlink)),
        "{result:?}"
    );
    assert!(std::fs::symlink_metadata(&from)
        .expect("stat")
        .file_type()
        .is_symlink());
    assert!(!root.join("pdf-forms/SKILL.md").exists());
}
