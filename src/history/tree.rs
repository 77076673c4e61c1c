//! Bounded reads of a revision's objects (each object's size known from its header before it is
//! inflated, a tree over its cap refused) and what a path names in a tree; links resolved inside
//! the tree as the system resolves them on disk, bounded in hops and steps.

use super::error::missing;
use crate::discover::LinkTarget;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;
use gix::ObjectId;
use std::collections::{HashMap, VecDeque};

/// A tree object larger than this is not read (some 400,000 entries).
const MAX_TREE_OBJECT: u64 = 32 * 1024 * 1024;

/// More links than this met resolving one link (a chain, or a cycle) and it cannot be followed.
const MAX_LINK_HOPS: usize = 8;

/// Names walked resolving one link, over all its hops: a crafted target (`a/../a/../…`) costs
/// no more than this, however many links the tree holds; past it the link is refused as a loop.
const MAX_LINK_STEPS: usize = 256;

/// A link's target longer than this is no path the system would follow (its `PATH_MAX`).
const MAX_LINK_TARGET: u64 = 4096;

/// What a path names in a tree.
pub(super) enum Found {
    Blob(ObjectId),
    Tree(ObjectId),
    /// A symbolic link, with the blob of its target.
    Link(ObjectId),
    /// A submodule.
    Other,
    Missing,
}

/// Where a revision's objects are read from: the repository, or (to fuzz the listing) objects
/// held in memory.
pub(super) trait Objects {
    /// The kind and size of the object `id`, from its header (nothing inflated).
    fn header(&self, id: ObjectId) -> Result<(gix::object::Kind, u64), String>;
    /// The kind and bytes of the object `id`.
    fn data(&self, id: ObjectId) -> Result<(gix::object::Kind, Vec<u8>), String>;
}

impl Objects for gix::Repository {
    fn header(&self, id: ObjectId) -> Result<(gix::object::Kind, u64), String> {
        let header = self.find_header(id).map_err(missing)?;
        Ok((header.kind(), header.size()))
    }

    fn data(&self, id: ObjectId) -> Result<(gix::object::Kind, Vec<u8>), String> {
        let object = self.find_object(id).map_err(missing)?;
        Ok((object.kind, object.detach().data))
    }
}

/// Bounded reads of a repository's objects.
pub(super) struct Reader<'r> {
    pub(super) objects: &'r dyn Objects,
}

impl Reader<'_> {
    /// The bytes of the blob `id`, or its size when it is over `cap` (read from the object's
    /// header, before anything is inflated).
    pub(super) fn blob(&self, id: ObjectId, cap: u64) -> Result<Result<Vec<u8>, u64>, String> {
        let (_, size) = self.objects.header(id)?;
        if size > cap {
            return Ok(Err(size));
        }
        let (kind, data) = self.objects.data(id)?;
        if kind != gix::object::Kind::Blob {
            return Err(format!("object {id} is not a file"));
        }
        Ok(Ok(data))
    }

    /// The size of the blob `id` from its header.
    pub(super) fn blob_size(&self, id: ObjectId) -> Result<u64, String> {
        Ok(self.objects.header(id)?.1)
    }

    /// The raw bytes of the tree `id`, bounded.
    pub(super) fn tree(&self, id: ObjectId) -> Result<Vec<u8>, String> {
        let (_, size) = self.objects.header(id)?;
        if size > MAX_TREE_OBJECT {
            return Err(format!(
                "a folder of the revision is {size} bytes as a git tree, over the \
                 {MAX_TREE_OBJECT} byte limit; the revision was not read"
            ));
        }
        let (kind, data) = self.objects.data(id)?;
        if kind != gix::object::Kind::Tree {
            return Err(format!("object {id} is not a folder"));
        }
        Ok(data)
    }

    /// What `components` (names, top down) name below the tree `tree`. A link on the way is
    /// [`Found::Link`], not followed here.
    pub(super) fn lookup(&self, tree: ObjectId, components: &[&str]) -> Result<Found, String> {
        let mut current = Found::Tree(tree);
        for name in components {
            let Found::Tree(id) = current else {
                return Ok(match current {
                    Found::Link(id) => Found::Link(id),
                    _ => Found::Missing,
                });
            };
            let data = self.tree(id)?;
            let decoded = gix::objs::TreeRef::from_bytes(&data, id.kind())
                .map_err(|e| format!("a folder of the revision is not a valid git tree: {e}"))?;
            current = match decoded
                .entries
                .iter()
                .find(|e| e.filename.as_bytes() == name.as_bytes())
            {
                None => Found::Missing,
                Some(entry) => match entry.mode.kind() {
                    EntryKind::Tree => Found::Tree(entry.oid.to_owned()),
                    EntryKind::Blob | EntryKind::BlobExecutable => {
                        Found::Blob(entry.oid.to_owned())
                    }
                    EntryKind::Link => Found::Link(entry.oid.to_owned()),
                    EntryKind::Commit => Found::Other,
                },
            };
        }
        Ok(current)
    }
}

/// Resolves a revision's links inside its tree, as the system resolves a link on disk: each
/// target relative to the folder of its link, `..` taking the folder the walk reached (not the
/// text written), links met on the way followed. Nothing on disk is looked at: an absolute
/// target, or one that climbs above the top of the tree, leads out of it and is not followed.
pub(super) struct Links<'a, 'r> {
    reader: &'a Reader<'r>,
    /// The entries of each tree a resolution looked in, by name.
    trees: HashMap<ObjectId, HashMap<Vec<u8>, (EntryKind, ObjectId)>>,
}

/// Why a link leads nowhere, as a system error (whose words the walk reports for a link on disk).
#[derive(Clone, Copy)]
enum Nowhere {
    Missing,
    Loop,
    NotAFolder,
    TooLong,
}

impl Nowhere {
    fn target(self) -> (LinkTarget, Option<ObjectId>) {
        #[cfg(unix)]
        let error = std::io::Error::from_raw_os_error(match self {
            Nowhere::Missing => libc::ENOENT,
            Nowhere::Loop => libc::ELOOP,
            Nowhere::NotAFolder => libc::ENOTDIR,
            Nowhere::TooLong => libc::ENAMETOOLONG,
        });
        #[cfg(not(unix))]
        let error = std::io::Error::from(match self {
            Nowhere::Missing => std::io::ErrorKind::NotFound,
            Nowhere::Loop => std::io::ErrorKind::FilesystemLoop,
            Nowhere::NotAFolder => std::io::ErrorKind::NotADirectory,
            Nowhere::TooLong => std::io::ErrorKind::InvalidInput,
        });
        (LinkTarget::Unfollowable(error.to_string()), None)
    }
}

impl<'a, 'r> Links<'a, 'r> {
    pub(super) fn new(reader: &'a Reader<'r>) -> Links<'a, 'r> {
        Links {
            reader,
            trees: HashMap::new(),
        }
    }

    /// The kind and object of the entry `name` of the tree `tree`.
    fn entry(
        &mut self,
        tree: ObjectId,
        name: &[u8],
    ) -> Result<Option<(EntryKind, ObjectId)>, String> {
        if !self.trees.contains_key(&tree) {
            let data = self.reader.tree(tree)?;
            let decoded = gix::objs::TreeRef::from_bytes(&data, tree.kind())
                .map_err(|e| format!("a folder of the revision is not a valid git tree: {e}"))?;
            let entries = decoded
                .entries
                .iter()
                .map(|e| (e.filename.to_vec(), (e.mode.kind(), e.oid.to_owned())))
                .collect();
            self.trees.insert(tree, entries);
        }
        Ok(self
            .trees
            .get(&tree)
            .and_then(|entries| entries.get(name))
            .copied())
    }

    /// Where the link `link` leads from its folder `folder` (the folders from the top of the
    /// tree, each named, the top's name empty), with the blob it leads to when it is a file.
    /// A submodule met on the way is a folder with nothing in it (what a clone that did not
    /// fetch it holds).
    pub(super) fn resolve(
        &mut self,
        folder: Vec<(Vec<u8>, Option<ObjectId>)>,
        link: ObjectId,
    ) -> Result<(LinkTarget, Option<ObjectId>), String> {
        let mut at = folder.clone();
        let mut names: VecDeque<Vec<u8>> = VecDeque::new();
        let (mut hops, mut steps) = (0, 0);
        let mut next = Some(link);
        loop {
            if let Some(link) = next.take() {
                hops += 1;
                if hops > MAX_LINK_HOPS {
                    return Ok(Nowhere::Loop.target());
                }
                let Ok(target) = self.reader.blob(link, MAX_LINK_TARGET)? else {
                    return Ok(Nowhere::TooLong.target());
                };
                if target.is_empty() {
                    return Ok(Nowhere::Missing.target());
                }
                if target.starts_with(b"/") {
                    return Ok((LinkTarget::Outside, None));
                }
                for name in target.split(|b| *b == b'/').rev() {
                    names.push_front(name.to_vec());
                }
            }
            let Some(name) = names.pop_front() else {
                break;
            };
            steps += 1;
            if steps > MAX_LINK_STEPS {
                return Ok(Nowhere::Loop.target());
            }
            match name.as_slice() {
                b"" | b"." => {}
                b".." => {
                    if at.len() <= 1 {
                        return Ok((LinkTarget::Outside, None));
                    }
                    at.pop();
                }
                _ => {
                    let Some((_, Some(tree))) = at.last() else {
                        return Ok(Nowhere::Missing.target());
                    };
                    match self.entry(*tree, &name)? {
                        None => return Ok(Nowhere::Missing.target()),
                        Some((EntryKind::Tree, id)) => at.push((name, Some(id))),
                        Some((EntryKind::Commit, _)) => at.push((name, None)),
                        Some((EntryKind::Link, id)) => next = Some(id),
                        // `file/`, `file/.` and `file/x` all use a file as a folder.
                        Some((EntryKind::Blob | EntryKind::BlobExecutable, _))
                            if !names.is_empty() =>
                        {
                            return Ok(Nowhere::NotAFolder.target())
                        }
                        Some((EntryKind::Blob | EntryKind::BlobExecutable, id)) => {
                            return Ok((LinkTarget::File, Some(id)))
                        }
                    }
                }
            }
        }
        let encloses = at.len() <= folder.len() && at.iter().zip(&folder).all(|(a, f)| a.0 == f.0);
        Ok((LinkTarget::Folder { encloses }, None))
    }
}
