//! Reading files from the repository: only regular files, never blocking, never more than the
//! size cap, and every reason a file was not read said in words an SL001 diagnostic can carry.

use crate::discover::Discovered;
use crate::source::Span;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Why a file that would be linted was not read (an SL001 diagnostic), or why a path named on
/// the command line is no file skilllint reads (SL004).
pub(crate) struct ReadProblem {
    /// `SL001`, or `SL004` for a named path of no kind skilllint reads.
    pub(crate) code: &'static str,
    pub(crate) message: String,
    pub(crate) span: Span,
    /// What the renderer may show (a lossy decoding for non-UTF-8 text).
    pub(crate) display_text: String,
}

pub(crate) fn read_text(path: &Path, max_size: u64) -> Result<String, ReadProblem> {
    let bytes = read_regular_bounded(path, max_size).map_err(|refused| {
        problem(match refused {
            Refused::Io(e) => format!("cannot read the file: {e}"),
            Refused::NotRegular => "not a regular file; it was not read".to_string(),
            Refused::TooLarge(size) => return too_large(size, max_size),
        })
    })?;
    text_of_bytes(bytes)
}

fn problem(message: String) -> ReadProblem {
    ReadProblem {
        code: "SL001",
        message,
        span: Span::empty(0),
        display_text: String::new(),
    }
}

/// The problem of a file over the size cap: its size when known, `None` when it grew past the cap
/// while being read. A blob of a git revision over the cap gets the same words as a file.
pub(crate) fn too_large(size: Option<u64>, max_size: u64) -> ReadProblem {
    problem(match size {
        Some(size) => {
            format!(
                "the file is {size} bytes, over the {max_size} byte size limit; it was not read"
            )
        }
        None => format!("the file is larger than the {max_size} byte size limit; it was not read"),
    })
}

/// The text of a file's bytes, wherever they were read from: UTF-8 only, and neither UTF-16 nor
/// binary, each said in words an SL001 diagnostic can carry.
pub(crate) fn text_of_bytes(bytes: Vec<u8>) -> Result<String, ReadProblem> {
    let first_nul = memchr::memchr(0, &bytes);
    // UTF-16 has a NUL in any ASCII character, or starts with its byte order mark (never valid
    // UTF-8): a text file is not looked at twice.
    if first_nul.is_some() || matches!(bytes.first(), Some(0xFE | 0xFF)) {
        if let Some(order) = utf16_byte_order(&bytes) {
            return Err(problem(format!(
                "the file is UTF-16 ({order}), not UTF-8; re-save it as UTF-8"
            )));
        }
    }
    if let Some(nul) = first_nul {
        return Err(problem(format!(
            "the file is binary (a NUL byte at offset {nul}), not text"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let display_text = String::from_utf8_lossy(e.as_bytes()).into_owned();
        ReadProblem {
            code: "SL001",
            message: format!("the file is not valid UTF-8 (invalid byte at offset {offset})"),
            // The replacement character that stands for the bad byte in the display text.
            span: Span::new(offset, offset + '\u{fffd}'.len_utf8()),
            display_text,
        }
    })
}

/// Reads one discovered file, or takes its text from the overlay (the fix loop's edited texts);
/// a file discovery could not follow is a read problem.
pub(crate) fn read_discovered(
    file: &Discovered,
    max_size: u64,
    overlay: &HashMap<PathBuf, String>,
) -> Result<String, ReadProblem> {
    // The walk's path (`./a/SKILL.md`) finds the text given under the typed one (`a/SKILL.md`).
    let given = match overlay.get(&file.abs_path) {
        Some(text) => Some(text),
        None if !overlay.is_empty() => overlay.get(&crate::source::without_cur_dir(&file.abs_path)),
        None => None,
    };
    match (&file.problem, given) {
        (Some(_), _) => Err(not_followed(file)),
        (None, Some(text)) => Ok(text.clone()),
        (None, None) => read_text(&file.abs_path, max_size),
    }
}

/// The read problem of a file discovery did not follow (its `problem`): SL004 for a path of no
/// kind skilllint reads, else SL001.
pub(crate) fn not_followed(file: &Discovered) -> ReadProblem {
    let message = file.problem.clone().unwrap_or_default();
    ReadProblem {
        code: if message.starts_with(crate::discover::NOT_READ_PREFIX) {
            "SL004"
        } else {
            "SL001"
        },
        message,
        span: Span::empty(0),
        display_text: String::new(),
    }
}

/// Why [`read_regular_bounded`] read nothing.
pub(crate) enum Refused {
    Io(std::io::Error),
    /// A FIFO, socket, device or folder: never read.
    NotRegular,
    /// Over the cap: the announced size, or `None` when it grew past the cap while being read.
    TooLarge(Option<u64>),
}

/// The bytes of the regular file at `path`, at most `max_size` of them, never blocking: opened
/// with `O_NONBLOCK` (a FIFO swapped in since the caller looked would otherwise block the open
/// forever) and refused unless the open handle is a regular file. The read stays bounded when the
/// announced size is wrong (`/proc` files announce 0) or the file grows. Lint files and
/// configuration files both come through here.
pub(crate) fn read_regular_bounded(path: &Path, max_size: u64) -> Result<Vec<u8>, Refused> {
    let handle = open_without_blocking(path).map_err(Refused::Io)?;
    // The metadata of the open handle (no second path lookup): the type, checked again here
    // because the path may have changed since the walk saw a regular file, and the size, which
    // sizes the buffer exactly.
    let metadata = handle.metadata().map_err(Refused::Io)?;
    if !metadata.is_file() {
        return Err(Refused::NotRegular);
    }
    let size = metadata.len();
    if size > max_size {
        return Err(Refused::TooLarge(Some(size)));
    }
    let bytes = read_bounded(handle, size, max_size).map_err(Refused::Io)?;
    if bytes.len() as u64 > max_size {
        return Err(Refused::TooLarge(None));
    }
    Ok(bytes)
}

/// Opens `path` for reading without ever blocking: a FIFO put in place of a file since the walk
/// looked would otherwise block the open until a writer comes, which is forever.
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // No effect on reads from a regular file; the caller refuses anything else.
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Bytes looked at to tell UTF-16 without a byte order mark from other text.
const UTF16_SNIFF_LEN: usize = 512;

/// The byte order, when `bytes` look like UTF-16: a byte order mark, or (mostly ASCII text in
/// UTF-16) NUL bytes at nearly every odd or every even position and at none of the others.
fn utf16_byte_order(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xFF, 0xFE, ..] => return Some("little-endian"),
        [0xFE, 0xFF, ..] => return Some("big-endian"),
        _ => {}
    }
    let sample = &bytes[..bytes.len().min(UTF16_SNIFF_LEN) & !1];
    let pairs = sample.len() / 2;
    if pairs < 2 {
        return None;
    }
    let (mut even_nuls, mut odd_nuls) = (0, 0);
    for pair in sample.chunks_exact(2) {
        even_nuls += usize::from(pair[0] == 0);
        odd_nuls += usize::from(pair[1] == 0);
    }
    // Three in four: room for some non-ASCII characters, far from what binary data looks like.
    let mostly = |nuls: usize| nuls * 4 >= pairs * 3;
    if mostly(odd_nuls) && even_nuls == 0 {
        Some("little-endian")
    } else if mostly(even_nuls) && odd_nuls == 0 {
        Some("big-endian")
    } else {
        None
    }
}

/// Reads at most `max_size + 1` bytes. A regular file that delivers exactly the size its metadata
/// announced, in fewer bytes than asked for, has reached its end: that saves the probing read that
/// `read_to_end` makes (one syscall in four per file). A file that changed size since, or a reader
/// that returns short, falls back to reading until end of file.
fn read_bounded(mut handle: std::fs::File, size: u64, max_size: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let wanted = size.min(max_size) as usize + 1;
    let mut bytes = vec![0; wanted];
    let mut filled = 0;
    while filled < wanted {
        match handle.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                if filled as u64 == size {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    bytes.truncate(filled);
    if filled == wanted {
        // Larger than announced: keep reading, still bounded.
        handle
            .take(max_size + 1 - filled as u64)
            .read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// Bounds of the look through a skill folder for a mention of its opaque files.
const MENTION_MAX_ENTRIES: usize = 4096;
const MENTION_MAX_DEPTH: usize = 16;
const MENTION_MAX_FILE: u64 = 1024 * 1024;

/// The archives and native executables among `candidates` that sit in a skill folder (the
/// nearest enclosing folder of one of `skills`, keyed by folder relative to the lint root, with
/// the folder on disk and the SKILL.md text) and that nothing in that skill names: neither its
/// SKILL.md nor any other file in the folder mentions the file's name. Only skills with such a
/// file are looked through, each once, with one pass over each of its files whatever the number
/// of names; folders are not followed through symlinks, and the look is bounded in entries,
/// depth and file size (a file over the bound is not searched, so a mention in it is missed).
pub(crate) fn unreferenced_opaque_files(
    candidates: Vec<crate::model::bundle::Candidate>,
    skills: &std::collections::BTreeMap<String, (PathBuf, &str)>,
) -> Vec<crate::model::bundle::BundledFile> {
    use crate::model::bundle::{is_native_program, BundleKind, BundledFile};
    use std::collections::BTreeMap;
    // By skill folder: (path inside the skill, file name, kind, where it is on disk).
    let mut by_skill: BTreeMap<&str, Vec<(String, BundleKind, PathBuf)>> = BTreeMap::new();
    for candidate in candidates {
        let mut dir = crate::source::parent_dir(&candidate.rel_path);
        let skill_dir = loop {
            if let Some((key, _)) = skills.get_key_value(dir) {
                break Some(key.as_str());
            }
            if dir.is_empty() {
                break None;
            }
            dir = crate::source::parent_dir(dir);
        };
        let Some(skill_dir) = skill_dir else {
            continue;
        };
        let kind = match candidate.kind {
            Some(kind) => kind,
            None if starts_like_a_program(&candidate.abs_path, is_native_program) => {
                BundleKind::Executable
            }
            None => continue,
        };
        let inside = candidate
            .rel_path
            .strip_prefix(skill_dir)
            .unwrap_or(&candidate.rel_path)
            .trim_start_matches('/')
            .to_string();
        by_skill
            .entry(skill_dir)
            .or_default()
            .push((inside, kind, candidate.abs_path));
    }
    let mut out = Vec::new();
    for (skill_dir, files) in by_skill {
        let Some((folder, skill_text)) = skills.get(skill_dir) else {
            continue;
        };
        let names: Vec<&str> = files
            .iter()
            .map(|(inside, _, _)| crate::source::split_path(inside).1)
            .collect();
        let mut named = vec![false; names.len()];
        let marked = mark_mentions(&names, skill_text.as_bytes(), &mut named);
        if marked < names.len() {
            let opaque: std::collections::HashSet<&Path> =
                files.iter().map(|(_, _, p)| p.as_path()).collect();
            look_through(folder, &opaque, &names, &mut named, names.len() - marked);
        }
        for ((inside, kind, _), named) in files.into_iter().zip(named) {
            if !named {
                out.push(BundledFile {
                    skill_dir: skill_dir.to_string(),
                    path: inside,
                    kind,
                });
            }
        }
    }
    out.sort_unstable();
    out
}

/// Whether the regular file at `path` starts with bytes `is_program` accepts (at most 8 read).
fn starts_like_a_program(path: &Path, is_program: fn(&[u8]) -> bool) -> bool {
    use std::io::Read;
    let Ok(handle) = open_without_blocking(path) else {
        return false;
    };
    if !handle.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = Vec::with_capacity(8);
    if handle.take(8).read_to_end(&mut head).is_err() {
        return false;
    }
    is_program(&head)
}

/// Marks in `named` each of `names` that `text` holds, in one pass over `text`; how many were
/// newly marked.
fn mark_mentions(names: &[&str], text: &[u8], named: &mut [bool]) -> usize {
    let Ok(searcher) = aho_corasick::AhoCorasick::new(names) else {
        return 0;
    };
    let mut marked = 0;
    for found in searcher.find_overlapping_iter(text) {
        if let Some(slot) = named.get_mut(found.pattern().as_usize()) {
            marked += usize::from(!*slot);
            *slot = true;
        }
    }
    marked
}

/// Searches the text files under `folder` (not `opaque` ones, not through symlinks, not in
/// `.git` or `node_modules`) for `names`, within the bounds above, until all are named.
fn look_through(
    folder: &Path,
    opaque: &std::collections::HashSet<&Path>,
    names: &[&str],
    named: &mut [bool],
    mut unnamed: usize,
) {
    let mut stack = vec![(folder.to_path_buf(), 0usize)];
    let mut entries = 0;
    while let Some((dir, depth)) = stack.pop() {
        let Ok(listing) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in listing.flatten() {
            entries += 1;
            if entries > MENTION_MAX_ENTRIES {
                return;
            }
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if file_type.is_dir() {
                let skipped = matches!(entry.file_name().to_str(), Some(".git" | "node_modules"));
                if depth < MENTION_MAX_DEPTH && !skipped {
                    stack.push((path, depth + 1));
                }
                continue;
            }
            if !file_type.is_file() || opaque.contains(&path.as_path()) {
                continue;
            }
            let Ok(bytes) = read_regular_bounded(&path, MENTION_MAX_FILE) else {
                continue;
            };
            unnamed = unnamed.saturating_sub(mark_mentions(names, &bytes, named));
            if unnamed == 0 {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_is_told_from_binary_and_from_text() {
        let text = "{\"tools\": []}";
        let little: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let big: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(utf16_byte_order(&little), Some("little-endian"));
        assert_eq!(utf16_byte_order(&big), Some("big-endian"));
        assert_eq!(utf16_byte_order(&[0xFF, 0xFE]), Some("little-endian"));
        assert_eq!(utf16_byte_order(&[0xFE, 0xFF, b'x']), Some("big-endian"));
        assert_eq!(utf16_byte_order(text.as_bytes()), None);
        assert_eq!(
            utf16_byte_order(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00"),
            None
        );
        assert_eq!(utf16_byte_order(&[0; 64]), None);
    }
}
