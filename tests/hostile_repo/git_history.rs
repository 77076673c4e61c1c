//! `skilllint diff BASE [HEAD]` on a repository built by an attacker: objects that make a
//! small repository list a huge one, special files and links planted in `.git`, an object
//! database borrowed from outside, a bare-repository layout committed into the folder the diff
//! runs in. Each run is under a watchdog, so a regression that hangs fails instead of stalling.

use crate::common::{self, skilllint_limited, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// Long enough for a debug build on a loaded machine; a hang or a 160,000-skill lint is not.
const WATCHDOG: Duration = Duration::from_secs(60);

/// A scratch folder with a git home of its own: no system or user git config reaches it.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("home")).expect("home");
        Scratch { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Runs git in `cwd` (relative to the scratch folder) with `input` on its standard input;
    /// its output, trimmed. Panics when git fails.
    fn git_in(&self, cwd: &str, args: &[&str], input: &[u8]) -> String {
        common::git(&self.path(cwd), &self.path("home"), args, input)
    }

    fn git(&self, cwd: &str, args: &[&str]) -> String {
        self.git_in(cwd, args, b"")
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("folders");
        std::fs::write(path, text).expect("write");
    }

    /// A repository at `name` with one skill committed.
    fn repo(&self, name: &str) {
        std::fs::create_dir_all(self.path(name)).expect("repo folder");
        self.git(name, &["init", "-q", "."]);
        self.write(&format!("{name}/calendar/SKILL.md"), SKILL);
        self.git(name, &["add", "-A"]);
        self.git(name, &["commit", "-q", "-m", "first"]);
    }

    fn blob(&self, repo: &str, bytes: &[u8]) -> String {
        self.git_in(repo, &["hash-object", "-w", "--stdin"], bytes)
    }

    fn tree(&self, repo: &str, entries: &str) -> String {
        self.git_in(repo, &["mktree"], entries.as_bytes())
    }

    /// A commit of the tree `tree` on top of HEAD, made the branch's head.
    fn commit_tree(&self, repo: &str, tree: &str) {
        let commit = self.git(repo, &["commit-tree", tree, "-p", "HEAD", "-m", "crafted"]);
        self.git(repo, &["update-ref", "HEAD", &commit]);
    }
}

const SKILL: &str = "---\nname: calendar\ndescription: Reads the calendar. Use it when asked about meetings.\n---\n# Calendar\n";

fn diff(args: &[&str], cwd: &Path) -> Output {
    let mut all = vec!["diff", "--format", "json"];
    all.extend_from_slice(args);
    skilllint_limited(&all, cwd, &[], WATCHDOG)
}

#[test]
fn seven_objects_that_name_one_skill_folder_160000_times_are_refused_before_any_is_read() {
    let s = Scratch::new();
    s.repo("r");
    let skill = s.blob("r", SKILL.as_bytes());
    let folder = s.tree("r", &format!("100644 blob {skill}\tSKILL.md\n"));
    let many = |id: &str, prefix: &str| {
        (0..400)
            .map(|i| format!("040000 tree {id}\t{prefix}{i}\n"))
            .collect::<String>()
    };
    let inner = s.tree("r", &many(&folder, "s"));
    let outer = s.tree("r", &many(&inner, "g"));
    s.commit_tree("r", &outer);
    let output = diff(&["HEAD~1", "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = stderr(&output);
    assert!(
        err.contains("names the same folders over and over"),
        "{err}"
    );
    assert!(err.contains("more than 2000 of its files"), "{err}");
    assert!(stdout(&output).is_empty(), "{output:?}");
}

#[test]
fn a_repository_whose_blobs_inflate_past_the_byte_bound_is_refused_before_any_is_read() {
    let s = Scratch::new();
    s.repo("r");
    // 20 distinct skills of 4,000,000 bytes each (a few kilobytes packed): 80 MB to lint.
    let mut entries = String::new();
    for i in 0..20 {
        let mut text =
            format!("---\nname: s{i}\ndescription: Does things {i}.\n---\n").into_bytes();
        text.resize(4_000_000, b'a');
        let blob = s.blob("r", &text);
        let folder = s.tree("r", &format!("100644 blob {blob}\tSKILL.md\n"));
        entries.push_str(&format!("040000 tree {folder}\ts{i}\n"));
    }
    let root = s.tree("r", &entries);
    s.commit_tree("r", &root);
    let output = diff(&["HEAD~1", "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = stderr(&output);
    assert!(err.contains("hold more than 67108864 bytes"), "{err}");
    // Sixteen of them are within the bound and read.
    let mut entries = String::new();
    for line in std::str::from_utf8(&s.git("r", &["ls-tree", "HEAD"]).into_bytes())
        .expect("utf-8")
        .lines()
        .take(16)
    {
        entries.push_str(line);
        entries.push('\n');
    }
    let root = s.tree("r", &entries);
    s.commit_tree("r", &root);
    let output = diff(&["HEAD~2", "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(0), "{output:?}");
}

/// 120 folders in a chain, each naming the next 300 times under names of 200 bytes: 120 small
/// trees whose paths (each copy its own path, up to 24 KB long) would take gigabytes.
#[test]
fn a_chain_of_folders_with_long_names_is_refused_by_the_bytes_of_its_paths() {
    let s = Scratch::new();
    s.repo("r");
    let mut tree = s.tree("r", "");
    for level in 0..120 {
        let entries: String = (0..300)
            .map(|i| {
                format!(
                    "040000 tree {tree}	{}{level}-{i}
",
                    "n".repeat(200)
                )
            })
            .collect();
        tree = s.tree("r", &entries);
    }
    s.commit_tree("r", &tree);
    let output = diff(&["HEAD~1", "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = stderr(&output);
    assert!(
        err.contains("the paths of the revision's files and folders"),
        "{err}"
    );
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {path:?}");
}

/// The files of `.git` gix reads whole, each replaced in turn by a FIFO (which a blocking open
/// waits on forever), a link to `/dev/zero` (endless) and a link out of the repository: each
/// refused, naming the file.
#[cfg(unix)]
#[test]
fn a_fifo_or_a_link_to_a_device_or_out_of_the_repository_in_git_folder_is_refused() {
    let s = Scratch::new();
    s.write("secret/config", "[core]\n\tbare = false\n");
    for (i, rel) in [
        "config",
        "HEAD",
        "packed-refs",
        "objects/info/alternates",
        "refs/heads/main",
        "shallow",
    ]
    .into_iter()
    .enumerate()
    {
        for (j, plant) in ["fifo", "zero", "outside"].into_iter().enumerate() {
            let name = format!("r{i}-{j}");
            s.repo(&name);
            s.git(&name, &["pack-refs", "--all", "--prune"]);
            // The branch stays readable through packed-refs when its loose ref is replaced.
            if rel == "refs/heads/main" {
                let head = s.git(&name, &["rev-parse", "HEAD"]);
                s.write(
                    &format!("{name}/.git/refs/heads/main"),
                    &format!("{head}\n"),
                );
            }
            let path = s.path(&name).join(".git").join(rel);
            let _ = std::fs::remove_file(&path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("folders");
            match plant {
                "fifo" => mkfifo(&path),
                "zero" => std::os::unix::fs::symlink("/dev/zero", &path).expect("link"),
                _ => std::os::unix::fs::symlink(s.path("secret/config"), &path).expect("link"),
            }
            let output = diff(&["HEAD"], &s.path(&name));
            assert_eq!(output.status.code(), Some(2), "{rel} {plant}: {output:?}");
            let err = stderr(&output);
            assert!(err.contains(rel), "{rel} {plant}: {err}");
            assert!(
                err.contains("the repository was not read"),
                "{rel} {plant}: {err}"
            );
        }
    }
}

/// Files of `.git` that gix never reads are left alone: git's fsmonitor daemon keeps a socket
/// at its top, and a repository with one is read.
#[cfg(unix)]
#[test]
fn a_socket_git_keeps_in_its_folder_is_left_alone() {
    let s = Scratch::new();
    s.repo("r");
    let socket = s.path("r/.git/fsmonitor--daemon.ipc");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("socket");
    let output = diff(&["HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(0), "{output:?}");
}

/// A clone made with `--shared` borrows the objects of another repository through
/// `objects/info/alternates`: read, they would let a diff read a revision that lives outside
/// the repository.
#[test]
fn an_alternate_object_database_outside_the_repository_is_refused() {
    let s = Scratch::new();
    s.repo("elsewhere");
    s.write(
        "elsewhere/planted/SKILL.md",
        "---\nname: planted\ndescription: Planted outside.\nallowed-tools: Bash\n---\n# Planted\n",
    );
    s.git("elsewhere", &["add", "-A"]);
    s.git("elsewhere", &["commit", "-q", "-m", "planted"]);
    let planted = s.git("elsewhere", &["rev-parse", "HEAD"]);
    s.git("", &["clone", "-q", "--shared", "elsewhere", "r"]);
    let output = diff(&[&planted, "HEAD"], &s.path("r"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = stderr(&output);
    assert!(err.contains("outside the repository"), "{err}");
    assert!(err.contains("alternates"), "{err}");
    assert!(!stdout(&output).contains("planted"), "{output:?}");
}

/// A pull request can commit a bare repository's layout into the folder the diff runs in (the
/// Action's `working-directory`): the checkout's own `.git` is read, and the layout is named.
#[test]
fn a_bare_repository_inside_a_work_tree_is_passed_over_for_the_work_tree() {
    let s = Scratch::new();
    s.repo("r");
    s.write("r/calendar/tools.json", "[{\"name\": \"delete_event\", \"description\": \"Deletes an event.\", \"inputSchema\": {\"type\": \"object\"}}]\n");
    s.git("r", &["add", "-A"]);
    s.git("r", &["commit", "-q", "-m", "a tool"]);
    s.git("r", &["init", "-q", "--bare", "wd"]);
    let output = diff(&["HEAD~1"], &s.path("r/wd"));
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(stdout(&output).contains("delete_event"), "{output:?}");
    let err = stderr(&output);
    assert!(err.contains("laid out as a bare git repository"), "{err}");
    // Named with --repo, it is read (and has no such revision).
    let output = diff(&["--repo", ".", "HEAD~1", "HEAD"], &s.path("r/wd"));
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr(&output).contains("HEAD~1"), "{output:?}");
}
