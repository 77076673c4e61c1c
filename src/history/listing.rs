//! A revision's files as discovery takes them: its tree listed with the walk's decisions (a link
//! resolved inside the tree, a submodule noted), bounded in entries, files, bytes, path bytes
//! and repeats before any blob is read, then the blobs read over the run's threads.

use super::tree::{Links, Reader};
use crate::discover::{Decisions, Discovered, ListedEntry};
use crate::engine::{FoundFile, Listing};
use crate::escape::path_form;
use crate::read::ReadProblem;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;
use gix::ObjectId;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Mutex;

/// More entries than this in a revision's tree (files and folders, counted as listed, so a
/// subtree named many times counts each time) stop the read: far beyond any real repository.
pub(super) const MAX_TREE_ENTRIES: usize = 2_000_000;

/// More files than this to read in a revision (each file of a subtree named many times counting
/// each time it is listed) stop the read before any is read: a repository of skills and tool
/// contracts holds far fewer.
const MAX_LISTED_FILES: usize = 100_000;

/// More bytes than this in the files a revision's listing will read (from the blobs' headers,
/// each repeat counting: a blob or a folder named many times is read and linted each time) stop
/// the read before any is read. A pack stores a blob of one repeated byte in a few hundred bytes:
/// without this, a small repository could ask for gigabytes of text.
const MAX_LISTED_BYTES: u64 = 64 * 1024 * 1024;

/// More files than this listed again under a folder already listed (a tree named by several
/// entries: git stores identical folders once) stop the read. Real repositories repeat a few
/// folders (a template copied); seven objects of a few kilobytes can repeat one folder of
/// skills hundreds of thousands of times.
const MAX_REPEATED_FILES: usize = 2_000;

/// More entries than this (files and folders of any kind) listed again under a folder already
/// listed stop the read: the same bound for folders that hold nothing discovery reads, each of
/// which still costs a tree to decode and its entries to decide on.
const MAX_REPEATED_ENTRIES: usize = 100_000;

/// More bytes than this in the paths the listing writes out (every entry's, each repeat
/// counting) stop the read: a chain of 256 folders with long names, each naming the next
/// hundreds of times, is a few hundred kilobytes of trees whose paths would fill gigabytes.
const MAX_LISTED_PATH_BYTES: usize = 32 * 1024 * 1024;

/// The files of a revision's tree, as discovery takes them. The repository is shared by the
/// threads that read its blobs, each through a handle of its own.
pub(super) struct TreeListing<'a> {
    pub(super) repo: gix::ThreadSafeRepository,
    pub(super) tree: ObjectId,
    /// Texts already read, by blob, and whether this listing adds its own.
    pub(super) texts: &'a Mutex<HashMap<ObjectId, String>>,
    pub(super) keep_texts: bool,
}

impl TreeListing<'_> {
    /// The text of the blob `id`, or why it is not read; kept for the next reader of the same
    /// blob when `keep`.
    pub(super) fn text(
        &self,
        reader: &Reader<'_>,
        id: ObjectId,
        max: u64,
        keep: bool,
    ) -> Result<Result<String, ReadProblem>, String> {
        let lock = || self.texts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(text) = lock().get(&id) {
            return Ok(if text.len() as u64 > max {
                Err(crate::read::too_large(Some(text.len() as u64), max))
            } else {
                Ok(text.clone())
            });
        }
        let text = match reader.blob(id, max)? {
            Ok(bytes) => crate::read::text_of_bytes(bytes),
            Err(size) => Err(crate::read::too_large(Some(size), max)),
        };
        if let (true, Ok(text)) = (keep, &text) {
            lock().insert(id, text.clone());
        }
        Ok(text)
    }
}

/// A file of the listing to read, or one not read with why.
#[derive(Clone)]
pub(super) struct Kept {
    pub(super) file: Discovered,
    pub(super) blob: Option<ObjectId>,
}

impl Listing for TreeListing<'_> {
    fn discover(&self, decisions: &Decisions<'_>) -> Result<Vec<FoundFile>, String> {
        let local = self.repo.to_thread_local();
        let kept = list(&Reader { objects: &local }, self.tree, decisions)?;
        self.read(kept, decisions)
    }
}

/// A revision's entries listed beforehand (the diff compared them with the other side's), read
/// as its [`TreeListing`] reads them.
pub(super) struct Prelisted<'a> {
    pub(super) listing: TreeListing<'a>,
    pub(super) kept: Vec<Kept>,
}

impl Listing for Prelisted<'_> {
    fn discover(&self, decisions: &Decisions<'_>) -> Result<Vec<FoundFile>, String> {
        self.listing.read(self.kept.clone(), decisions)
    }
}

impl TreeListing<'_> {
    /// The texts of the entries `kept`, or why each is not read.
    fn read(&self, kept: Vec<Kept>, decisions: &Decisions<'_>) -> Result<Vec<FoundFile>, String> {
        use rayon::prelude::*;
        // Inflating the blobs is most of a revision's read: spread over the run's threads, each
        // with its own handle on the repository, made once per thread (not per piece of work,
        // as `map_init` would) so that its cache of delta bases serves every blob it reads.
        let handles: Vec<Mutex<gix::Repository>> = (0..rayon::current_num_threads().max(1))
            .map(|_| Mutex::new(with_delta_cache(self.repo.to_thread_local())))
            .collect();
        // A blob several files share (a template's requirement.yaml, a LICENSE) is inflated
        // once: its text is kept for the others, while a blob read once is not kept.
        let mut uses: HashMap<ObjectId, u32> = HashMap::new();
        for entry in &kept {
            if let (Some(id), None) = (entry.blob, &entry.file.problem) {
                *uses.entry(id).or_default() += 1;
            }
        }
        kept.into_par_iter()
            .with_max_len(64)
            .map(|Kept { file, blob }| {
                let slot = rayon::current_thread_index().unwrap_or(0) % handles.len();
                // Only this thread takes its handle: the lock is never waited on.
                let repo = handles[slot].lock().unwrap_or_else(|e| e.into_inner());
                let reader = Reader { objects: &*repo };
                let max = decisions.max_file_size;
                let read = match (blob, &file.problem) {
                    (Some(id), None) => {
                        let shared = uses.get(&id).is_some_and(|n| *n > 1);
                        self.text(&reader, id, max, self.keep_texts || shared)?
                    }
                    _ => Err(crate::read::not_followed(&file)),
                };
                Ok((file, read))
            })
            .collect()
    }
}

/// The bytes of decoded pack entries each thread keeps: the files of a skills repository are
/// alike, so packs store most as deltas against a few bases, which without a cache are
/// inflated again for every file built on them.
const DELTA_CACHE_BYTES: usize = 16 * 1024 * 1024;

/// `repo` with a cache of the delta bases it decodes (gix sets none unless told).
fn with_delta_cache(mut repo: gix::Repository) -> gix::Repository {
    repo.objects.set_pack_cache(|| {
        Box::new(gix::odb::pack::cache::lru::MemoryCappedHashmap::new(
            DELTA_CACHE_BYTES,
        ))
    });
    repo
}

/// Every entry of the tree `root` that discovery takes, bounded in entries and depth. Folders
/// discovery never walks (`.git`, `node_modules`, `target`) are not listed.
pub(super) fn list(
    reader: &Reader<'_>,
    root: ObjectId,
    decisions: &Decisions<'_>,
) -> Result<Vec<Kept>, String> {
    let mut kept = Vec::new();
    // Each folder listed: its parent's index, its name and its tree, for a link to be resolved
    // from the folder it sits in.
    let mut folders: Vec<(usize, Vec<u8>, ObjectId)> = vec![(0, Vec::new(), root)];
    let mut links = Links::new(reader);
    let mut pending: Vec<(usize, String, usize)> = vec![(0, String::new(), 0)];
    let mut listed = 0usize;
    let mut work = Work::default();
    let mut trees_listed: HashSet<ObjectId> = HashSet::new();
    while let Some((index, folder, depth)) = pending.pop() {
        let id = folders[index].2;
        // A tree listed before lists the same files again: its files are repeats.
        let repeat = !trees_listed.insert(id);
        let data = reader.tree(id)?;
        let tree = gix::objs::TreeRef::from_bytes(&data, id.kind())
            .map_err(|e| format!("a folder of the revision is not a valid git tree: {e}"))?;
        listed += tree.entries.len();
        if listed > MAX_TREE_ENTRIES {
            return Err(format!(
                "the revision lists more than {MAX_TREE_ENTRIES} files and folders; it was not read"
            ));
        }
        if repeat {
            work.repeated_entries += tree.entries.len();
            if work.repeated_entries > MAX_REPEATED_ENTRIES {
                return Err(format!(
                    "the revision names the same folders over and over: more than \
                     {MAX_REPEATED_ENTRIES} of its files and folders are in folders listed \
                     before (git stores one folder for all its copies); it was not read"
                ));
            }
        }
        for entry in &tree.entries {
            let name: &[u8] = entry.filename.as_bytes();
            let rel_path = if folder.is_empty() {
                path_form(name).into_owned()
            } else {
                format!("{folder}/{}", path_form(name))
            };
            work.path_bytes += rel_path.len();
            if work.path_bytes > MAX_LISTED_PATH_BYTES {
                return Err(format!(
                    "the paths of the revision's files and folders add up to more than \
                     {MAX_LISTED_PATH_BYTES} bytes (each copy of a folder counting); it was not \
                     read"
                ));
            }
            // A name no file system holds (git itself refuses to check these out): the entry
            // is reported, never read.
            if name.is_empty() || name == b"." || name == b".." || name.contains(&b'/') {
                kept.push(Kept {
                    file: Discovered {
                        abs_path: PathBuf::from(&rel_path),
                        rel_path,
                        kind: crate::model::FileKind::Unfollowed,
                        problem: Some(
                            "a git tree entry whose name is no file name; it was not read"
                                .to_string(),
                        ),
                    },
                    blob: None,
                });
                continue;
            }
            let mut blob = None;
            let entry_kind = match entry.mode.kind() {
                EntryKind::Tree => {
                    if crate::discover::is_skipped_dir(name) {
                        continue;
                    }
                    if depth + 1 < crate::discover::MAX_DEPTH {
                        folders.push((index, name.to_vec(), entry.oid.to_owned()));
                        pending.push((folders.len() - 1, rel_path, depth + 1));
                        continue;
                    }
                    ListedEntry::TooDeep
                }
                EntryKind::Blob | EntryKind::BlobExecutable => {
                    blob = Some(entry.oid.to_owned());
                    ListedEntry::File
                }
                // An excluded link is passed over unresolved, as the walk passes it.
                EntryKind::Link if decisions.exclude.matches(&rel_path) => {
                    decisions.pass_over(&rel_path);
                    continue;
                }
                EntryKind::Link => {
                    let mut at = Vec::new();
                    let mut up = index;
                    loop {
                        let (parent, name, tree) = &folders[up];
                        at.push((name.clone(), Some(*tree)));
                        if up == 0 {
                            break;
                        }
                        up = *parent;
                    }
                    at.reverse();
                    let (target, file) = links.resolve(at, entry.oid.to_owned())?;
                    blob = file;
                    ListedEntry::Link(target)
                }
                EntryKind::Commit => ListedEntry::Submodule,
            };
            if let Some((kind, problem)) = decisions.entry(&rel_path, entry_kind) {
                if let (Some(id), None) = (blob, &problem) {
                    work.add(reader, id, repeat, decisions.max_file_size)?;
                }
                kept.push(Kept {
                    file: Discovered {
                        abs_path: PathBuf::from(&rel_path),
                        rel_path,
                        kind,
                        problem,
                    },
                    blob,
                });
            }
        }
    }
    Ok(kept)
}

/// The work a revision's listing asks for, counted as it lists (each repeat counting) and
/// refused past its bounds before any file is read.
#[derive(Default)]
struct Work {
    files: usize,
    bytes: u64,
    repeated_files: usize,
    repeated_entries: usize,
    path_bytes: usize,
    /// Blob sizes already looked up: a blob named many times is looked up once.
    sizes: HashMap<ObjectId, u64>,
}

impl Work {
    /// One more file to read, the blob `id`, listed in a tree listed before when `repeat`. A
    /// blob over `max_file_size` is not read (it is reported as too large): its bytes do not
    /// count.
    fn add(
        &mut self,
        reader: &Reader<'_>,
        id: ObjectId,
        repeat: bool,
        max_file_size: u64,
    ) -> Result<(), String> {
        let size = match self.sizes.get(&id) {
            Some(size) => *size,
            None => {
                let size = reader.blob_size(id)?;
                self.sizes.insert(id, size);
                size
            }
        };
        self.files += 1;
        if size <= max_file_size {
            self.bytes = self.bytes.saturating_add(size);
        }
        if repeat {
            self.repeated_files += 1;
        }
        if self.repeated_files > MAX_REPEATED_FILES {
            return Err(format!(
                "the revision names the same folders over and over: more than \
                 {MAX_REPEATED_FILES} of its files are in folders listed before (git stores one \
                 folder for all its copies); it was not read"
            ));
        }
        if self.files > MAX_LISTED_FILES {
            return Err(format!(
                "the revision lists more than {MAX_LISTED_FILES} files to read (each copy of a \
                 file or folder counting); it was not read"
            ));
        }
        if self.bytes > MAX_LISTED_BYTES {
            return Err(format!(
                "the files the revision lists to read hold more than {MAX_LISTED_BYTES} bytes \
                 (each copy of a file or folder counting); it was not read"
            ));
        }
        Ok(())
    }
}
