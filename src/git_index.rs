//! The paths a git work tree tracks, read from its `.git/index` without running git (a hostile
//! repository's hooks or `core.fsmonitor` would run with it).
//!
//! Discovery honours ignore files (`.gitignore`, `.ignore`), which a pull request can add; a
//! file git tracks is linted whatever they say, and this is where the tracked paths come from.
//! Only what that needs is read: the path of each entry of index versions 2, 3 and 4, streamed
//! (memory stays small whatever the entry count) and bounded in size. Anything unexpected ends the
//! read with what was read so far; nothing here is ever printed.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// An index larger than this is not read (a checkout of millions of files); discovery then
/// honours ignore files for every file, as it does outside a git work tree.
const MAX_INDEX_SIZE: u64 = 512 * 1024 * 1024;

/// A path longer than this ends the read: git's own limit is the file system's (4 KiB on Linux).
const MAX_PATH_LEN: usize = 64 * 1024;

/// The `.git/config` is read only to learn the hash length, within this size.
const MAX_CONFIG_SIZE: u64 = 1024 * 1024;

/// File modes of index entries that are files in the work tree: regular (any permission bits)
/// and symbolic links. Submodules (`160000`) and a sparse index's folders (`040000`) are not.
fn is_file_mode(mode: u32) -> bool {
    matches!(mode >> 12, 0o10 | 0o12)
}

/// The tracked paths of the work tree whose `.git` folder is `git_dir`, as `/`-separated bytes
/// relative to the work tree, for which `keep` says yes, in index order. `None` when there is no
/// index to read (not a folder, no index, over the size cap, not an index): the caller then has no
/// tracked files to protect.
pub fn tracked_paths(git_dir: &Path, keep: impl Fn(&[u8]) -> bool) -> Option<Vec<Vec<u8>>> {
    let meta = std::fs::symlink_metadata(git_dir).ok()?;
    if !meta.is_dir() {
        return None;
    }
    let hash_len = hash_len(git_dir);
    let file = open_regular(&git_dir.join("index"))?;
    let size = file.metadata().ok()?.len();
    if size > MAX_INDEX_SIZE {
        return None;
    }
    let mut reader = BufReader::new(file.take(MAX_INDEX_SIZE));
    parse(&mut reader, hash_len, keep)
}

/// Opens `path` only when it is a regular file, never blocking (a FIFO planted as `.git/index`
/// in a downloaded folder must not hang the run).
fn open_regular(path: &Path) -> Option<std::fs::File> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).ok()?;
    file.metadata().ok()?.is_file().then_some(file)
}

/// 32 bytes in a SHA-256 repository (`objectformat = sha256` in `.git/config`), else 20.
fn hash_len(git_dir: &Path) -> usize {
    let mut text = String::new();
    let sha256 = open_regular(&git_dir.join("config")).is_some_and(|file| {
        file.take(MAX_CONFIG_SIZE).read_to_string(&mut text).is_ok()
            && text.lines().any(|line| {
                let line = line.trim().to_ascii_lowercase();
                line.starts_with("objectformat") && line.ends_with("sha256")
            })
    });
    if sha256 {
        32
    } else {
        20
    }
}

fn read_u32(reader: &mut impl Read) -> Option<u32> {
    let mut bytes = [0; 4];
    reader.read_exact(&mut bytes).ok()?;
    Some(u32::from_be_bytes(bytes))
}

/// Bytes up to a NUL (consumed, not kept) into `out`, at most [`MAX_PATH_LEN`]; `None` when
/// the data ends first or the path is longer.
fn read_until_nul(reader: &mut impl BufRead, out: &mut Vec<u8>) -> Option<()> {
    reader
        .by_ref()
        .take(MAX_PATH_LEN as u64 + 1)
        .read_until(0, out)
        .ok()?;
    (out.pop() == Some(0)).then_some(())
}

/// Git's offset varint (index version 4): seven bits a byte, most significant first, each
/// continuation adding one.
fn read_varint(reader: &mut impl Read) -> Option<u64> {
    let mut byte = [0; 1];
    reader.read_exact(&mut byte).ok()?;
    let mut value = u64::from(byte[0] & 0x7f);
    while byte[0] & 0x80 != 0 {
        reader.read_exact(&mut byte).ok()?;
        value = value.checked_add(1)?.checked_mul(128)? | u64::from(byte[0] & 0x7f);
    }
    Some(value)
}

/// The longest fixed part of an entry: 40 bytes of stat data, a SHA-256 name, the flags and the
/// extended flags.
const MAX_FIXED: usize = 40 + 32 + 2 + 2;

fn parse(
    reader: &mut impl BufRead,
    hash_len: usize,
    keep: impl Fn(&[u8]) -> bool,
) -> Option<Vec<Vec<u8>>> {
    let mut signature = [0; 4];
    reader.read_exact(&mut signature).ok()?;
    if &signature != b"DIRC" {
        return None;
    }
    let version = read_u32(reader)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = read_u32(reader)?;
    let mut kept = Vec::new();
    let mut fixed = [0u8; MAX_FIXED];
    // The path being read; in version 4 each path is the previous one cut short plus a tail.
    let mut path: Vec<u8> = Vec::new();
    let mut padding = [0u8; 8];
    for _ in 0..count {
        // ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each), the object name, flags.
        let mut fixed_len = 40 + hash_len + 2;
        reader.read_exact(&mut fixed[..fixed_len]).ok()?;
        let mode = u32::from_be_bytes([fixed[24], fixed[25], fixed[26], fixed[27]]);
        let flags = u16::from_be_bytes([fixed[fixed_len - 2], fixed[fixed_len - 1]]);
        if version >= 3 && flags & 0x4000 != 0 {
            reader
                .read_exact(&mut fixed[fixed_len..fixed_len + 2])
                .ok()?;
            fixed_len += 2;
        }
        if version == 4 {
            let cut = usize::try_from(read_varint(reader)?).ok()?;
            let keep_len = path.len().checked_sub(cut)?;
            path.truncate(keep_len);
            read_until_nul(reader, &mut path)?;
            if path.len() > MAX_PATH_LEN {
                return Some(kept);
            }
        } else {
            path.clear();
            read_until_nul(reader, &mut path)?;
            // One to eight NULs end the entry on a multiple of eight bytes; one was read.
            let entry = fixed_len + path.len();
            let extra = ((entry + 8) & !7) - entry - 1;
            reader.read_exact(&mut padding[..extra]).ok()?;
        }
        // Stages 1 to 3 of a conflict repeat a path: the caller looks each one up.
        if is_file_mode(mode) && keep(&path) {
            kept.push(path.clone());
        }
    }
    Some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An index as git writes it: `(mode, path)` entries, version 2, 3 or 4.
    pub(crate) fn index_bytes(version: u32, entries: &[(u32, &str)]) -> Vec<u8> {
        let mut out = b"DIRC".to_vec();
        out.extend_from_slice(&version.to_be_bytes());
        out.extend_from_slice(&(entries.len() as u32).to_be_bytes());
        let mut previous = String::new();
        for (mode, path) in entries {
            let start = out.len();
            out.extend_from_slice(&[0; 24]);
            out.extend_from_slice(&mode.to_be_bytes());
            out.extend_from_slice(&[0; 12]);
            out.extend_from_slice(&[0xab; 20]);
            let name_len = path.len().min(0xfff) as u16;
            out.extend_from_slice(&name_len.to_be_bytes());
            if version == 4 {
                let common = previous
                    .bytes()
                    .zip(path.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                let cut = previous.len() - common;
                assert!(cut < 128, "test helper writes one-byte varints");
                out.push(cut as u8);
                out.extend_from_slice(&path.as_bytes()[common..]);
                out.push(0);
            } else {
                out.extend_from_slice(path.as_bytes());
                let entry = out.len() - start;
                let padded = (entry + 8) & !7;
                out.resize(start + padded, 0);
            }
            previous = path.to_string();
        }
        out.extend_from_slice(&[0; 20]);
        out
    }

    fn paths(bytes: &[u8]) -> Option<Vec<String>> {
        let mut reader = std::io::Cursor::new(bytes);
        parse(&mut reader, 20, |_| true).map(|paths| {
            paths
                .into_iter()
                .map(|p| String::from_utf8_lossy(&p).into_owned())
                .collect()
        })
    }

    const ENTRIES: &[(u32, &str)] = &[
        (0o100644, ".ignore"),
        (0o100644, "skills/a/SKILL.md"),
        (0o100755, "skills/a/run.sh"),
        (0o120000, "skills/b/SKILL.md"),
        (0o160000, "vendor/sub"),
        (0o040000, "sparse/"),
        (0o100644, "skills/ab/tools.json"),
    ];

    #[test]
    fn every_version_gives_the_files_and_links() {
        let expected = [
            ".ignore",
            "skills/a/SKILL.md",
            "skills/a/run.sh",
            "skills/b/SKILL.md",
            "skills/ab/tools.json",
        ];
        for version in [2, 3, 4] {
            assert_eq!(
                paths(&index_bytes(version, ENTRIES)).as_deref(),
                Some(&expected.map(String::from)[..]),
                "version {version}"
            );
        }
    }

    #[test]
    fn damaged_indexes_end_the_read_without_a_panic() {
        assert_eq!(paths(b""), None);
        assert_eq!(paths(b"DIRX\0\0\0\x02\0\0\0\0"), None);
        assert_eq!(paths(b"DIRC\0\0\0\x09\0\0\0\0"), None);
        let whole = index_bytes(2, ENTRIES);
        for cut in 0..whole.len() {
            // Truncated anywhere: no panic, and never a path that was not written.
            if let Some(found) = paths(&whole[..cut]) {
                assert!(found.len() <= ENTRIES.len());
            }
        }
        // A count far beyond the entries: the read ends at the end of the data.
        let mut lying = index_bytes(4, ENTRIES);
        lying[8..12].copy_from_slice(&u32::MAX.to_be_bytes());
        assert_eq!(paths(&lying), None);
        // A version 4 cut longer than the previous path.
        let mut bad_cut = index_bytes(4, &[(0o100644, "a")]);
        let at = 12 + 62;
        bad_cut[at] = 5;
        assert_eq!(paths(&bad_cut), None);
        // A varint that would overflow.
        let mut overflow = index_bytes(4, &[(0o100644, "a")]);
        overflow.splice(12 + 62..12 + 63, [0xff; 12]);
        assert_eq!(paths(&overflow), None);
    }

    #[test]
    fn a_path_without_its_end_is_not_read_past_the_limit() {
        let mut bytes = index_bytes(2, &[(0o100644, "a")]);
        bytes.truncate(12 + 62);
        bytes.extend(std::iter::repeat_n(b'x', MAX_PATH_LEN + 10));
        bytes.push(0);
        assert_eq!(paths(&bytes), None);
    }

    #[test]
    fn keep_filters_while_reading() {
        let mut reader = std::io::Cursor::new(index_bytes(3, ENTRIES));
        let kept = parse(&mut reader, 20, |p| p.ends_with(b"SKILL.md")).expect("index");
        assert_eq!(
            kept,
            [b"skills/a/SKILL.md".to_vec(), b"skills/b/SKILL.md".to_vec()]
        );
    }

    #[test]
    fn reads_a_real_folder_and_refuses_what_is_not_an_index() {
        let dir = tempfile::tempdir().expect("temp dir");
        let git = dir.path().join(".git");
        std::fs::create_dir(&git).expect("git folder");
        assert_eq!(tracked_paths(&git, |_| true), None);
        std::fs::write(git.join("index"), index_bytes(2, ENTRIES)).expect("index");
        assert_eq!(tracked_paths(&git, |_| true).map(|p| p.len()), Some(5));
        // A `.git` file (a linked work tree or a submodule) is not followed.
        let file = dir.path().join("other");
        std::fs::write(&file, "gitdir: /elsewhere\n").expect("git file");
        assert_eq!(tracked_paths(&file, |_| true), None);
    }
}
