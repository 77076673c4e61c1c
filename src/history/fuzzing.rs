//! The listing of a revision's trees run on objects held in memory, for a fuzz target to drive
//! without a repository on disk. Not part of the supported interface.

use super::listing::list;
use super::tree::{Objects, Reader};
use gix::object::Kind;
use gix::ObjectId;
use std::collections::HashMap;

/// The id of the object at `index`: the index, big endian, in the first 8 of 20 bytes.
pub fn id(index: usize) -> [u8; 20] {
    let mut id = [0u8; 20];
    id[..8].copy_from_slice(&(index as u64).to_be_bytes());
    id
}

struct Memory(HashMap<ObjectId, (Kind, Vec<u8>)>);

impl Objects for Memory {
    fn header(&self, id: ObjectId) -> Result<(Kind, u64), String> {
        let (kind, data) = self.0.get(&id).ok_or("no such object")?;
        Ok((*kind, data.len() as u64))
    }

    fn data(&self, id: ObjectId) -> Result<(Kind, Vec<u8>), String> {
        self.0
            .get(&id)
            .cloned()
            .ok_or_else(|| "no such object".to_string())
    }
}

/// Lists the tree `objects[0]` as a revision's side lists it with the default
/// configuration, each object (whether it is a tree, its bytes) named by its [`id`]: the
/// paths listed with why each is not read, or why the listing stopped.
pub fn list_trees(objects: &[(bool, Vec<u8>)]) -> Result<Vec<(String, Option<String>)>, String> {
    let memory = Memory(
        objects
            .iter()
            .enumerate()
            .map(|(i, (tree, data))| {
                let kind = if *tree { Kind::Tree } else { Kind::Blob };
                (ObjectId::Sha1(id(i)), (kind, data.clone()))
            })
            .collect(),
    );
    let options = crate::settings::options(None, None);
    let decisions = crate::engine::listing_decisions(&options).map_err(|e| e.to_string())?;
    let kept = list(
        &Reader { objects: &memory },
        ObjectId::Sha1(id(0)),
        &decisions,
    )?;
    Ok(kept
        .into_iter()
        .map(|kept| (kept.file.rel_path, kept.file.problem))
        .collect())
}
