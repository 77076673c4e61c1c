//! The listing of a git revision (`skilllint diff BASE HEAD`): the code that turns a revision's
//! trees into the files a side lints (discovery's decisions, links resolved inside the tree,
//! the bounds on entries, depth, files, bytes and repeated folders) run on objects built from
//! the input and held in memory, no repository on disk. Any objects, however malformed or
//! self-referencing (a tree naming itself, which git's hashing rules out and this store does
//! not), are listed or refused with a reason, never a panic, and within libFuzzer's time limit.
//!
//! The input is a list of objects; object 0 is the root tree. Each starts with a kind byte and a
//! count byte:
//! - kind % 4 == 0: a blob of `count` bytes;
//! - kind % 4 == 1 or 3: a tree of `count` entries, each a mode byte (file, executable, folder,
//!   link, submodule), the index of the object it names, and a name (a length byte, then the
//!   bytes; a length with the high bit set picks a name discovery treats specially);
//! - kind % 4 == 2: a tree object of `count` raw bytes (a malformed tree).
#![no_main]
use libfuzzer_sys::fuzz_target;
use skilllint::history::fuzzing::{id, list_trees};

const MODES: [&str; 5] = ["100644", "100755", "40000", "120000", "160000"];

/// Names that discovery reads, skips or refuses.
const NAMES: [&str; 14] = [
    "SKILL.md",
    "tools.json",
    "TOOL.md",
    "requirement.yaml",
    "skilllint.toml",
    ".skilllint",
    "policies",
    ".git",
    "node_modules",
    "..",
    ".",
    "a/b",
    "",
    "s",
];

/// Reads objects from `data` until it runs out.
fn objects(mut data: &[u8]) -> Vec<(bool, Vec<u8>)> {
    let mut take = |n: usize| -> Option<Vec<u8>> {
        if data.len() < n {
            return None;
        }
        let (head, rest) = data.split_at(n);
        data = rest;
        Some(head.to_vec())
    };
    let mut out = Vec::new();
    while let Some(header) = take(2) {
        let (kind, count) = (header[0], usize::from(header[1]));
        match kind % 4 {
            0 => {
                let Some(bytes) = take(count) else { break };
                out.push((false, bytes));
            }
            2 => {
                let Some(bytes) = take(count) else { break };
                out.push((true, bytes));
            }
            _ => {
                let mut tree = Vec::new();
                for _ in 0..count {
                    let Some(entry) = take(3) else { break };
                    let mode = MODES[usize::from(entry[0]) % MODES.len()];
                    let target = id(usize::from(entry[1]));
                    let name = if entry[2] & 0x80 != 0 {
                        NAMES[usize::from(entry[2] & 0x7f) % NAMES.len()]
                            .as_bytes()
                            .to_vec()
                    } else {
                        let Some(name) = take(usize::from(entry[2] & 0x0f)) else {
                            break;
                        };
                        name
                    };
                    tree.extend_from_slice(mode.as_bytes());
                    tree.push(b' ');
                    tree.extend_from_slice(&name);
                    tree.push(0);
                    tree.extend_from_slice(&target);
                }
                out.push((true, tree));
            }
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let objects = objects(data);
    if objects.is_empty() {
        return;
    }
    if let Ok(listed) = list_trees(&objects) {
        // Bounded whatever the objects: entries are counted as listed, repeats included.
        assert!(listed.len() <= 2_000_000, "{} entries listed", listed.len());
    }
});
