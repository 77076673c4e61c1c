use super::problems::walk_problem;
use super::walk::permute;
use super::*;

#[test]
fn a_lowercase_skill_md_is_read_only_when_it_names_a_skill() {
    let lowercase = FileKind::Skill { misnamed: true };
    let read = |text: &str| not_read_reason(lowercase, text).is_none();
    assert!(read("---\nname: forms\n---\n"));
    assert!(read("\u{feff}---\n\"description\": fills forms\n---\n"));
    assert!(
        read("---\nname: [unterminated\n"),
        "unclosed: SK002's to report"
    );
    assert!(!read("# Writing a skill\n"), "no frontmatter");
    assert!(
        !read("---\nurl: /docs/skill/\nmeta:\n  name: x\n---\n"),
        "nested name"
    );
    // The uppercase file is always a skill, whatever it holds.
    assert!(not_read_reason(FileKind::Skill { misnamed: false }, "# Notes\n").is_none());
    assert!(not_read_reason(FileKind::Secrets, "# Checklist\n").is_some());
    assert!(not_read_reason(FileKind::Secrets, "---\nsecrets: []\n---\n").is_none());
}

#[test]
fn permute_places_each_item_where_the_order_says() {
    let orders: [&[usize]; 5] = [&[], &[0], &[1, 0], &[2, 0, 1], &[3, 1, 4, 0, 2, 5]];
    for order in orders {
        let mut items: Vec<usize> = (10..10 + order.len()).collect();
        permute(&mut items, order.to_vec());
        let expected: Vec<usize> = order.iter().map(|i| i + 10).collect();
        assert_eq!(items, expected, "order {order:?}");
    }
}

#[test]
fn classifies_known_files() {
    let req = vec!["requirement.yaml".to_string()];
    assert_eq!(
        classify("SKILL.md", &req),
        Some(FileKind::Skill { misnamed: false })
    );
    let by_name = Some(FileKind::Tools { by_content: false });
    assert_eq!(classify("github.tools.json", &req), by_name);
    assert_eq!(classify("a/tools.json", &req), by_name);
    // Tool lists under other names are read for their content.
    for path in [
        "functions.json",
        "server/mcp-tools.json",
        "src/toolDefinitions.json",
        "anthropic_tools.json",
        "pkg/github/__toolsnaps__/get_me.snap",
        "__toolsnaps__/get_me.json",
    ] {
        assert_eq!(classify(path, &req), Some(BY_CONTENT), "{path}");
    }
    // A Jest snapshot folder, or a `.snap` elsewhere, is not a tool snapshot.
    assert_eq!(classify("src/__snapshots__/app.snap", &req), None);
    assert_eq!(classify("get_me.snap", &req), None);
    assert_eq!(classify("package.json", &req), None);
    assert_eq!(
        classify("requirement.yaml", &req),
        Some(FileKind::Requirement)
    );
    assert_eq!(classify("requirement.yml", &req), None);
    assert_eq!(classify("README.md", &req), None);
    assert_eq!(
        classify(".tools/pricing/TOOL.md", &req),
        Some(FileKind::Contract)
    );
    assert_eq!(classify("docs/TOOL.md", &req), None);
    assert_eq!(
        classify(".drivers/a/DRIVER.md", &req),
        Some(FileKind::Driver { cli: false })
    );
    assert_eq!(
        classify(".tools/a/DRIVER.md", &req),
        Some(FileKind::Driver { cli: false })
    );
    assert_eq!(
        classify(".cli/gh/CLI.md", &req),
        Some(FileKind::Driver { cli: true })
    );
    assert_eq!(classify("CLI.md", &req), None);
    assert_eq!(classify("ops/SECRETS.md", &req), Some(FileKind::Secrets));
}

fn io_error_at(path: &str, depth: usize, kind: std::io::ErrorKind) -> ignore::Error {
    ignore::Error::WithPath {
        path: PathBuf::from(path),
        err: Box::new(ignore::Error::WithDepth {
            depth,
            err: Box::new(ignore::Error::Io(std::io::Error::from(kind))),
        }),
    }
}

#[test]
fn a_folder_the_walk_cannot_read_is_a_problem_at_that_folder() {
    // As the walker reports a folder it cannot list.
    for kind in [
        std::io::ErrorKind::PermissionDenied,
        std::io::ErrorKind::InvalidFilename,
        std::io::ErrorKind::Other,
    ] {
        let (path, message) = walk_problem(&io_error_at("root/locked", 1, kind)).expect("reported");
        assert_eq!(path, PathBuf::from("root/locked"));
        assert!(message.contains("cannot be read"), "{message}");
        assert!(message.contains("nothing in it was linted"), "{message}");
    }
    // Loops keep their own message.
    let (path, message) = walk_problem(&ignore::Error::WithDepth {
        depth: 2,
        err: Box::new(ignore::Error::Loop {
            ancestor: PathBuf::from("root"),
            child: PathBuf::from("root/a/back"),
        }),
    })
    .expect("reported");
    assert_eq!(path, PathBuf::from("root/a/back"));
    assert!(message.contains("symlink loop"), "{message}");
}

#[test]
fn ignore_file_problems_skip_nothing_and_are_not_reported() {
    // An unreadable `.gitignore` or a bad glob in one makes the walk exclude less.
    let partial = ignore::Error::Partial(vec![io_error_at(
        "root/.gitignore",
        1,
        std::io::ErrorKind::PermissionDenied,
    )]);
    assert_eq!(walk_problem(&partial), None);
    let bad_glob = ignore::Error::WithPath {
        path: PathBuf::from("root/.gitignore"),
        err: Box::new(ignore::Error::WithLineNumber {
            line: 3,
            err: Box::new(ignore::Error::Glob {
                glob: Some("[".to_string()),
                err: "unclosed character class".to_string(),
            }),
        }),
    };
    assert_eq!(walk_problem(&bad_glob), None);
    // An I/O error with no path names nothing to put the diagnostic on.
    let pathless = ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::Other));
    assert_eq!(walk_problem(&pathless), None);
}

#[test]
fn relative_paths_use_forward_slashes() {
    assert_eq!(
        relative_path(Path::new("."), Path::new("./a/b/SKILL.md")),
        "a/b/SKILL.md"
    );
    assert_eq!(
        relative_path(Path::new("root"), Path::new("root/x.json")),
        "x.json"
    );
}

#[cfg(unix)]
#[test]
fn paths_outside_the_root_print_as_written() {
    // Absolute stays absolute, `..` stays `..`: the user recognises what they typed.
    assert_eq!(
        relative_path(Path::new("."), Path::new("/tmp/x/s/SKILL.md")),
        "/tmp/x/s/SKILL.md"
    );
    assert_eq!(
        relative_path(Path::new("."), Path::new("/tmp/./x/s/SKILL.md")),
        "/tmp/x/s/SKILL.md"
    );
    assert_eq!(
        relative_path(Path::new("."), Path::new("../x/s/SKILL.md")),
        "../x/s/SKILL.md"
    );
    assert_eq!(
        relative_path(Path::new("/tmp/x"), Path::new("/tmp/x/s/SKILL.md")),
        "s/SKILL.md"
    );
}

#[cfg(unix)]
#[test]
fn relative_paths_escape_each_name_the_same_way_on_every_route() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let path = Path::new(OsStr::from_bytes(b"root/a\\b/c\xff\x1b/SKILL.md"));
    let expected = r"a\b/c\xff\u{1b}/SKILL.md";
    // The walker's clean paths and a path that needs the component walk (`./`).
    assert_eq!(relative_path(Path::new("root"), path), expected);
    let dotted = Path::new(OsStr::from_bytes(b"./root/a\\b/c\xff\x1b/SKILL.md"));
    assert_eq!(
        relative_path(Path::new("."), dotted),
        format!("root/{expected}")
    );
}
