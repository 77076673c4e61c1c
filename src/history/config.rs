//! The configuration a lint of a revision runs with, read from its tree as a disk lint reads it
//! from the root: the config file at the top (a link to it resolved inside the tree), the
//! policies it names and `.skilllint/policies/`, the baseline, and the configuration files
//! below the top that a lint of their folder would load.

use super::error::whole_file;
use super::listing::MAX_TREE_ENTRIES;
use super::tree::{Found, Links, Reader};
use super::{Error, Repository, Revision};
use crate::config::CONFIG_NAMES;
use crate::diff::side::SideConfig;
use crate::discover::LinkTarget;
use crate::escape::path_form;
use crate::settings::LintOptions;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;
use gix::ObjectId;
use std::path::{Path, PathBuf};
use std::sync::Arc;

impl Repository {
    /// The options a lint of `revision` runs with (the config committed at the top of its tree
    /// and the policies it names, read from the tree, as a disk lint reads them from the root),
    /// and the configuration's facts a diff compares.
    pub fn options(
        &self,
        revision: &Revision,
        isolated: bool,
        threads: Option<usize>,
    ) -> Result<(LintOptions, SideConfig), Error> {
        if isolated {
            let mut options = crate::settings::options(None, None);
            options.threads = threads;
            return Ok((options, SideConfig::default()));
        }
        let reader = Reader {
            objects: &self.repo,
        };
        let shown = |path: &str| PathBuf::from(format!("{}:{path}", revision.name));
        let mut config_file = None;
        let mut config_name = None;
        for name in CONFIG_NAMES {
            let refuse = |why: &str| Err(Error::Config(whole_file(&shown(name), why)));
            let id = match reader.lookup(revision.tree, &[name]).map_err(Error::Read)? {
                Found::Blob(id) => id,
                // Resolved in the tree as on disk: it must lead to a file at the top or below.
                Found::Link(link) => {
                    let mut links = Links::new(&reader);
                    let top = vec![(Vec::new(), Some(revision.tree))];
                    match links.resolve(top, link).map_err(Error::Read)? {
                        (_, Some(id)) => id,
                        (LinkTarget::Outside, _) => return refuse(crate::config::LINK_OUT),
                        (LinkTarget::Folder { .. }, _) => continue,
                        _ => return refuse(crate::config::LINK_NOWHERE),
                    }
                }
                // A folder with a config's name is passed over, as on disk.
                Found::Tree(_) | Found::Other | Found::Missing => continue,
            };
            config_file = Some((shown(name), id));
            config_name = Some(name);
            break;
        }
        let cap = crate::settings::DEFAULT_MAX_FILE_SIZE;
        let config_text = match &config_file {
            Some((path, id)) => {
                let bytes = reader
                    .blob(*id, cap)
                    .map_err(Error::Read)?
                    .map_err(|size| {
                        Error::Config(whole_file(
                            path,
                            &format!(
                                "the configuration is {size} bytes, over the {cap} byte size \
                                 limit; it was not read"
                            ),
                        ))
                    })?;
                Some(crate::config::config_text(path, bytes).map_err(Error::Config)?)
            }
            None => None,
        };
        let mut sources = vec![(PathBuf::from(crate::policy::POLICY_DIR), true)];
        if let (Some((path, _)), Some(text)) = (&config_file, &config_text) {
            let paths =
                crate::config::policy_paths_in(text, path, Path::new("")).map_err(Error::Config)?;
            for written in paths {
                if crate::policy::leaves(&written) {
                    return Err(Error::Policy(whole_file(
                        &shown(&written.to_string_lossy()),
                        "the policy path leads outside the repository; it was not read (a \
                         repository's policies must be inside it; name a file with --policies \
                         to use it)",
                    )));
                }
                sources.push((written, false));
            }
        }
        let files = reader.policy_files(revision.tree, &sources, &shown)?;
        let policies = crate::policy::load_repository_texts(&files).map_err(Error::Policy)?;
        let config = match (&config_file, &config_text) {
            (Some((path, _)), Some(text)) => {
                crate::config::parse(text, path, PathBuf::from("."), policies.catalog())
                    .map_err(Error::Config)?
            }
            _ => crate::config::Config {
                base: PathBuf::from("."),
                ..Default::default()
            },
        };
        let baseline = match &config.baseline {
            Some(path) => self.baseline(&reader, revision, path, policies.catalog(), &shown)?,
            None => None,
        };
        let facts = SideConfig {
            path: config_name.map(str::to_string),
            text: config_text,
            select: config.select.clone(),
            fail_on: config.fail_on,
            baseline,
        };
        let policies = (!policies.is_empty()).then(|| Arc::new(policies));
        let mut options = crate::settings::options(Some(&config), policies);
        options.threads = threads;
        // A revision's files are listed, not walked: no configuration below its top is looked
        // for, and the file it came from (named by revision) is no part of how it is linted.
        options.config_file = None;
        options.nested_configs = false;
        Ok((options, facts))
    }

    /// The entries of the baseline the configuration committed in `revision` names, read from
    /// its tree (`None` when the tree has no such file, as a missing baseline on disk reports
    /// nothing to compare). A baseline path that leaves the tree or is a link is not read.
    fn baseline(
        &self,
        reader: &Reader<'_>,
        revision: &Revision,
        path: &Path,
        catalog: &crate::catalog::Catalog,
        shown: &dyn Fn(&str) -> PathBuf,
    ) -> Result<Option<crate::diff::side::BaselineFacts>, Error> {
        if crate::policy::leaves(path) {
            return Ok(None);
        }
        let names = tree_names(path);
        let parts: Vec<&str> = names.iter().map(String::as_str).collect();
        let Found::Blob(id) = reader.lookup(revision.tree, &parts).map_err(Error::Read)? else {
            return Ok(None);
        };
        let rel = names.join("/");
        let cap = crate::settings::DEFAULT_MAX_FILE_SIZE;
        let Ok(bytes) = reader.blob(id, cap).map_err(Error::Read)? else {
            return Ok(None);
        };
        let Ok(text) = String::from_utf8(bytes) else {
            return Ok(None);
        };
        let entries = crate::triage::baseline::parse_entries(&text, &shown(&rel), catalog)
            .map_err(Error::Config)?;
        Ok(Some((rel, crate::diff::side::baseline_entries(&entries))))
    }

    /// The configuration files below the top of `revision`'s tree, as a folder side's
    /// [`crate::diff::side::nested_configs_on_disk`] finds them on disk: every folder but
    /// the top (`.git`, `node_modules` and `target` aside, as discovery passes them), links not
    /// followed, the first of [`CONFIG_NAMES`] in a folder; one over the size cap or not UTF-8
    /// is left out (a lint of its folder refuses it). Bounded as a listing is, in entries and
    /// depth.
    pub fn nested_configs(&self, revision: &Revision) -> Result<Vec<(String, String)>, Error> {
        let reader = Reader {
            objects: &self.repo,
        };
        let cap = crate::settings::DEFAULT_MAX_FILE_SIZE;
        let mut out = Vec::new();
        let mut links = Links::new(&reader);
        // Each folder: its path, its tree, its depth, and the folders from the top (name and
        // tree), for a link in it to be resolved from where it sits.
        type Chain = Vec<(Vec<u8>, Option<ObjectId>)>;
        let top: Chain = vec![(Vec::new(), Some(revision.tree))];
        let mut pending: Vec<(String, ObjectId, usize, Chain)> =
            vec![(String::new(), revision.tree, 0, top)];
        let mut listed = 0usize;
        while let Some((folder, id, depth, chain)) = pending.pop() {
            let data = reader.tree(id).map_err(Error::Read)?;
            let tree = gix::objs::TreeRef::from_bytes(&data, id.kind()).map_err(|e| {
                Error::Read(format!(
                    "a folder of the revision is not a valid git tree: {e}"
                ))
            })?;
            listed += tree.entries.len();
            if listed > MAX_TREE_ENTRIES {
                return Err(Error::Read(format!(
                    "the revision lists more than {MAX_TREE_ENTRIES} files and folders; it was not read"
                )));
            }
            // The first of the names in the folder, and the blob or link it is.
            let mut found: Option<(usize, ObjectId, bool)> = None;
            for entry in &tree.entries {
                let name: &[u8] = entry.filename.as_bytes();
                match entry.mode.kind() {
                    EntryKind::Tree
                        if !crate::discover::is_skipped_dir(name)
                            && !name.contains(&b'/')
                            && depth + 1 < crate::discover::MAX_DEPTH =>
                    {
                        let sub = if folder.is_empty() {
                            path_form(name).into_owned()
                        } else {
                            format!("{folder}/{}", path_form(name))
                        };
                        let mut sub_chain = chain.clone();
                        sub_chain.push((name.to_vec(), Some(entry.oid.to_owned())));
                        pending.push((sub, entry.oid.to_owned(), depth + 1, sub_chain));
                    }
                    EntryKind::Blob | EntryKind::BlobExecutable | EntryKind::Link if depth > 0 => {
                        let rank = CONFIG_NAMES.iter().position(|n| n.as_bytes() == name);
                        if let Some(rank) = rank {
                            if found.is_none_or(|(taken, _, _)| rank < taken) {
                                let link = entry.mode.kind() == EntryKind::Link;
                                found = Some((rank, entry.oid.to_owned(), link));
                            }
                        }
                    }
                    _ => {}
                }
            }
            let Some((rank, id, link)) = found else {
                continue;
            };
            // A link is resolved inside the tree, as the top configuration's is; one that leads
            // out of it or nowhere is refused by a lint of the folder (exit 2): left out.
            let blob = if link {
                match links.resolve(chain, id).map_err(Error::Read)? {
                    (_, Some(blob)) => blob,
                    _ => continue,
                }
            } else {
                id
            };
            let Ok(bytes) = reader.blob(blob, cap).map_err(Error::Read)? else {
                continue;
            };
            if let Ok(text) = String::from_utf8(bytes) {
                out.push((format!("{folder}/{}", CONFIG_NAMES[rank]), text));
            }
        }
        out.sort();
        Ok(out)
    }
}

impl Reader<'_> {
    /// The policy files of `sources` (paths relative to the top of the tree; `true` when it may
    /// be absent) as `(path shown, text)`, in order: a folder gives its `*.yaml` and `*.yml`
    /// files sorted by name, as on disk. A link is never followed.
    fn policy_files(
        &self,
        tree: ObjectId,
        sources: &[(PathBuf, bool)],
        shown: &dyn Fn(&str) -> PathBuf,
    ) -> Result<Vec<(PathBuf, String)>, Error> {
        let mut out: Vec<(PathBuf, String)> = Vec::new();
        let cap = crate::policy::MAX_POLICY_FILE;
        let read = |path: &Path, id: ObjectId| -> Result<String, Error> {
            let bytes = self.blob(id, cap).map_err(Error::Read)?.map_err(|_| {
                Error::Policy(whole_file(
                    path,
                    &format!("the policy file is over the {cap} byte size limit; it was not read"),
                ))
            })?;
            String::from_utf8(bytes)
                .map_err(|_| Error::Policy(whole_file(path, "the policy file is not valid UTF-8")))
        };
        let link = |path: &Path| {
            Error::Policy(whole_file(
                path,
                "the policy path is a symbolic link in a git revision; links are not followed \
                 when reading history, and it was not read",
            ))
        };
        for (written, optional) in sources {
            let path = &shown(&written.to_string_lossy());
            let names = tree_names(written);
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut push = |shown: PathBuf, text: String| {
                if !out.iter().any(|(p, _)| *p == shown) {
                    out.push((shown, text));
                }
            };
            match self.lookup(tree, &names).map_err(Error::Read)? {
                Found::Missing | Found::Other if *optional => {}
                Found::Missing | Found::Other => {
                    return Err(Error::Policy(whole_file(
                        path,
                        "cannot read the policies: the revision has no such file or folder",
                    )))
                }
                Found::Link(_) => return Err(link(path)),
                Found::Blob(id) => {
                    let text = read(path, id)?;
                    push(path.clone(), text);
                }
                Found::Tree(id) => {
                    let data = self.tree(id).map_err(Error::Read)?;
                    let decoded = gix::objs::TreeRef::from_bytes(&data, id.kind())
                        .map_err(|e| Error::Read(format!("not a valid git tree: {e}")))?;
                    let mut files: Vec<(String, EntryKind, ObjectId)> = decoded
                        .entries
                        .iter()
                        .filter_map(|e| {
                            let name = e.filename.to_str().ok()?;
                            let yaml = name.ends_with(".yaml") || name.ends_with(".yml");
                            yaml.then(|| (name.to_string(), e.mode.kind(), e.oid.to_owned()))
                        })
                        .collect();
                    files.sort();
                    for (name, kind, id) in files {
                        let shown = path.join(&name);
                        match kind {
                            EntryKind::Blob | EntryKind::BlobExecutable => {
                                let text = read(&shown, id)?;
                                push(shown, text);
                            }
                            EntryKind::Link => return Err(link(&shown)),
                            EntryKind::Tree | EntryKind::Commit => {}
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The names a path relative to the top of a tree goes through (`.` and the like dropped; the
/// caller has refused a path that leaves the tree).
fn tree_names(path: &Path) -> Vec<String> {
    path.components()
        .filter_map(|c| match c {
            std::path::Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect()
}
