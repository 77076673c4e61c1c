//! End-to-end tests of `skilllint lock` and the drift a lint then reports (LK001-LK004): the lock
//! is written sorted and stable, a change to a tool fails the lint until the lock is written
//! again, and the lock is written only inside the lint root.

#[path = "support/binary.rs"]
mod binary;

use binary::{skilllint, stdout};
use std::process::Output;

const TOOLS: &str = r#"{
  "tools": [
    {
      "name": "refund_payment",
      "description": "Refund one payment in full, once the user confirmed it.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "payment_id": { "type": "string", "maxLength": 64, "description": "The payment." },
          "user_confirmed": { "type": "boolean", "description": "The user said yes." }
        },
        "required": ["payment_id", "user_confirmed"],
        "additionalProperties": false
      },
      "annotations": { "destructiveHint": true, "idempotentHint": true }
    },
    {
      "name": "list_payments",
      "description": "List the last payments of one customer.",
      "inputSchema": { "type": "object", "properties": {}, "additionalProperties": false },
      "annotations": { "readOnlyHint": true }
    }
  ]
}
"#;

fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    std::fs::create_dir_all(dir.path().join("shop")).expect("folder");
    std::fs::write(dir.path().join("shop/tools.json"), TOOLS).expect("tools");
    dir
}

fn lk_lines(output: &Output) -> Vec<String> {
    stdout(output)
        .lines()
        .filter(|l| l.contains(" LK00"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_change_fails_the_lint_until_the_lock_is_written_again() {
    let repo = repository();
    let root = repo.path();
    let wrote = skilllint(&["lock", "."], root);
    assert!(wrote.status.success(), "{wrote:?}");
    let lock = std::fs::read_to_string(root.join("skilllint.lock")).expect("the lock is written");
    // Sorted by file and name: `list_payments` before `refund_payment`.
    let list = lock.find("name = \"list_payments\"").expect("pinned");
    let refund = lock.find("name = \"refund_payment\"").expect("pinned");
    assert!(list < refund, "{lock}");
    let clean = skilllint(&["--select", "LK", "--format", "concise", "."], root);
    assert_eq!(clean.status.code(), Some(0), "{clean:?}");

    // The hint is dropped and a tool is added.
    let changed = TOOLS
        .replace("\"destructiveHint\": true, ", "")
        .replace(
            "    {\n      \"name\": \"list_payments\"",
            "    {\n      \"name\": \"close_account\",\n      \"description\": \"Close the customer's account.\",\n      \"inputSchema\": { \"type\": \"object\" }\n    },\n    {\n      \"name\": \"list_payments\"",
        );
    std::fs::write(root.join("shop/tools.json"), changed).expect("tools");
    let drift = skilllint(&["--select", "LK", "--format", "concise", "."], root);
    assert_eq!(drift.status.code(), Some(1), "{drift:?}");
    let lines = lk_lines(&drift);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("shop/tools.json:")
            && lines[0].contains("error LK001")
            && lines[0].contains("`refund_payment`")
            && lines[0].contains("gate `destructiveHint: true` dropped"),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("error LK002") && lines[1].contains("`close_account`"),
        "{lines:?}"
    );

    // Written again, the lock takes the change; the same tools give the same bytes on any
    // number of threads.
    assert!(skilllint(&["lock", ".", "--threads", "1"], root)
        .status
        .success());
    let one = std::fs::read(root.join("skilllint.lock")).expect("lock");
    assert!(skilllint(&["lock", ".", "--threads", "4"], root)
        .status
        .success());
    let four = std::fs::read(root.join("skilllint.lock")).expect("lock");
    assert_eq!(one, four);
    let again = skilllint(&["--select", "LK", "--format", "concise", "."], root);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
}

#[test]
fn a_tool_removed_and_a_lock_that_does_not_read_are_reported_in_the_lock() {
    let repo = repository();
    let root = repo.path();
    assert!(skilllint(&["lock", "."], root).status.success());
    std::fs::remove_file(root.join("shop/tools.json")).expect("remove");
    let gone = skilllint(&["--select", "LK", "--format", "concise", "."], root);
    let lines = lk_lines(&gone);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("skilllint.lock:")
            && lines[0].contains("warning LK003")
            && lines[0].contains("`shop/tools.json` no longer exists"),
        "{lines:?}"
    );

    std::fs::write(root.join("skilllint.lock"), "version = 7\n").expect("lock");
    let bad = skilllint(&["--select", "LK", "--format", "concise", "."], root);
    assert_eq!(bad.status.code(), Some(1), "{bad:?}");
    assert!(
        stdout(&bad).contains("skilllint.lock:1:11: error LK004"),
        "{}",
        stdout(&bad)
    );
}

#[cfg(unix)]
#[test]
fn the_lock_is_never_written_through_a_link_out_of_the_root() {
    let outside = tempfile::tempdir().expect("temporary folder");
    let victim = outside.path().join("victim.txt");
    std::fs::write(&victim, "keep me\n").expect("victim");
    let repo = repository();
    let root = repo.path();
    std::os::unix::fs::symlink(&victim, root.join("skilllint.lock")).expect("link");
    let refused = skilllint(&["lock", "."], root);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("it is a link"),
        "{refused:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "keep me\n"
    );
    assert!(std::fs::symlink_metadata(root.join("skilllint.lock"))
        .expect("link")
        .file_type()
        .is_symlink());
}

#[test]
fn lock_takes_a_folder_only() {
    let repo = repository();
    let refused = skilllint(&["lock", "shop/tools.json"], repo.path());
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(!repo.path().join("shop/skilllint.lock").exists());
}
