//! A git repository's revisions, read as lint roots (`skilllint diff BASE [HEAD]`) without
//! running git.
//!
//! The repository is untrusted. Objects are read with `gix`, built without the features that can
//! run anything (no hooks, filters, textconv, attributes, credentials, network or commands), and
//! opened isolated: only the repository's own config is loaded, with reduced trust (no include
//! files, no environment, no system or user config), and replacement refs are off, so a revision
//! is its raw committed bytes. Nothing is checked out and nothing under `.git` is written.
//!
//! A revision is linted as its tree, with the configuration committed in it: the config file at
//! the top of the tree, its `exclude` and `[policies] paths`, and `.skilllint/policies/`, each
//! kept inside the tree as a disk lint keeps them inside the root. Discovery's decisions are the
//! walk's ([`crate::discover::Decisions`]); a link to a file is resolved inside the tree, never on
//! disk, and read when it leads to a file of the tree, a submodule is noted and not read, a blob
//! over the size cap is an oversized file. The listing is bounded before any blob is read, in
//! entries, depth, files, blob bytes, path bytes and repeats, every copy of a folder counting (a
//! tree may name the same subtree many times over), and each object's size is known before it
//! is read. The git folder itself is checked before gix reads it (`git_dir`).

use crate::config::{ConfigError, CONFIG_NAMES};
use crate::diff::side::{Side, SideConfig};
use crate::discover::{Decisions, Discovered, LinkTarget, ListedEntry};
use crate::engine::{Files, FoundFile, LintOptions, Listing, Replaced, Session};
use crate::escape::{escape_text, path_form};
use crate::read::ReadProblem;
use gix::bstr::ByteSlice;
use gix::objs::tree::EntryKind;
use gix::ObjectId;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

mod git_dir;

/// The rules that read the disk beyond a file's text (SK022: the bytes of archives and
/// executables in a skill folder; SK023: the files a linked Markdown file links to). A revision
/// has no disk to read, so they do not run on one, and a diff with a revision side leaves their
/// findings out on both sides.
pub const DISK_ONLY_RULES: &[&str] = &["SK022", "SK023"];

/// More entries than this in a revision's tree (files and folders, counted as listed, so a
/// subtree named many times counts each time) stop the read: far beyond any real repository.
const MAX_TREE_ENTRIES: usize = 2_000_000;

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

/// A tree object larger than this is not read (some 400,000 entries).
const MAX_TREE_OBJECT: u64 = 32 * 1024 * 1024;

/// More links than this met resolving one link (a chain, or a cycle) and it cannot be followed.
const MAX_LINK_HOPS: usize = 8;

/// Names walked resolving one link, over all its hops: a crafted target (`a/../a/../…`) costs
/// no more than this, however many links the tree holds; past it the link is refused as a loop.
const MAX_LINK_STEPS: usize = 256;

/// A link's target longer than this is no path the system would follow (its `PATH_MAX`).
const MAX_LINK_TARGET: u64 = 4096;

/// Why a revision could not be read; the command exits 2 with it.
#[derive(Debug)]
pub enum Error {
    /// No repository, or one that cannot be opened; a message for people.
    Open(String),
    /// A revision that names nothing this clone holds; a message for people.
    Revision(String),
    /// The configuration committed in a revision.
    Config(ConfigError),
    /// A policy file committed in a revision.
    Policy(ConfigError),
    /// The revision's objects: one missing (a partial clone), a tree over the limits.
    Read(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Open(m) | Error::Revision(m) | Error::Read(m) => f.write_str(m),
            Error::Config(e) | Error::Policy(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

/// An open repository.
pub struct Repository {
    repo: gix::Repository,
    /// The texts of the first revision read, by blob: the files a change leaves alone are the
    /// same blobs on the other side, inflated once.
    texts: Mutex<HashMap<ObjectId, String>>,
    texts_kept: std::cell::Cell<bool>,
    passed_over: Option<PathBuf>,
}

/// A revision resolved to its tree.
#[derive(Debug, Clone)]
pub struct Revision {
    /// As the user wrote it.
    pub name: String,
    /// The commit it names, in hex (`None` for a tree named directly).
    pub commit: Option<String>,
    tree: ObjectId,
}

impl Repository {
    /// The repository holding `start`, found upwards as git finds it (a bare repository's own
    /// folder included, unless it lies inside a work tree and `named` is false: then the work
    /// tree's `.git` is read). Its git folder is checked before gix reads any of it
    /// (`git_dir::check`). `named`: the user named `start` (`--repo`).
    pub fn discover(start: &Path, named: bool) -> Result<Repository, Error> {
        let found = git_dir::find(start, named).map_err(|why| {
            Error::Open(format!(
                "no git repository at {} or above it ({}); name one with --repo",
                crate::escape::display_path(start),
                escape_text(&why)
            ))
        })?;
        git_dir::check(&found.dir).map_err(|why| Error::Open(escape_text(&why).into_owned()))?;
        // Whoever owns the folder, its config is treated as the repository's, not the user's:
        // sections of it that gix would act on beyond reading objects are not trusted.
        let open = gix::open::Options::isolated()
            .with(gix::sec::Trust::Reduced)
            // A revision is the bytes committed: `refs/replace/` does not swap objects.
            .config_overrides(["core.useReplaceRefs=false"]);
        let repo = gix::open_opts(&found.dir, open).map_err(|e| {
            Error::Open(format!(
                "cannot open the git repository at {} ({})",
                crate::escape::display_path(&found.dir),
                escape_text(&e.to_string())
            ))
        })?;
        Ok(Repository {
            repo,
            texts: Mutex::new(HashMap::new()),
            texts_kept: std::cell::Cell::new(false),
            passed_over: found.passed_over,
        })
    }

    /// A folder laid out as a bare repository inside the work tree, met on the way up and not
    /// read (the work tree's `.git` was).
    pub fn passed_over(&self) -> Option<&Path> {
        self.passed_over.as_deref()
    }

    /// The work tree, `None` for a bare repository.
    pub fn work_tree(&self) -> Option<&Path> {
        self.repo.workdir()
    }

    /// Resolves a revision as git would (`main`, `HEAD~1`, `origin/main`, a commit or tag) to
    /// its tree.
    pub fn revision(&self, name: &str) -> Result<Revision, Error> {
        let shown = escape_text(name);
        let id = match self.repo.rev_parse_single(name.as_bytes().as_bstr()) {
            Ok(id) => id.detach(),
            Err(error) => return Err(self.not_found(&shown, &error.to_string())),
        };
        let object = self
            .repo
            .find_object(id)
            .map_err(|error| self.not_found(&shown, &error.to_string()))?;
        // An annotated tag names its commit through the tag object.
        let commit = match object.kind {
            gix::object::Kind::Commit => Some(id.to_string()),
            gix::object::Kind::Tag => self
                .repo
                .find_object(id)
                .ok()
                .and_then(|tag| tag.peel_to_kind(gix::object::Kind::Commit).ok())
                .map(|commit| commit.id.to_string()),
            _ => None,
        };
        let tree = object.peel_to_tree().map_err(|error| {
            Error::Revision(format!(
                "the revision `{shown}` names no commit or tree ({})",
                escape_text(&error.to_string())
            ))
        })?;
        Ok(Revision {
            name: name.to_string(),
            commit,
            tree: tree.id,
        })
    }

    fn not_found(&self, shown: &str, why: &str) -> Error {
        if self.repo.is_shallow() {
            return Error::Revision(format!(
                "the revision `{shown}` is not in this clone, which is shallow (it holds only \
                 the latest commits). Fetch the history it needs: `git fetch --deepen=100` (or \
                 `git fetch --unshallow`), or `fetch-depth: 0` in actions/checkout's `with:` \
                 ({})",
                escape_text(why)
            ));
        }
        Error::Revision(format!(
            "unknown revision `{shown}`: no branch, tag or commit of this repository has that \
             name (a commit of another clone must be fetched first: `git fetch origin \
             <commit>`) ({})",
            escape_text(why)
        ))
    }

    /// One side of a diff: `revision` linted and inventoried with its own configuration (none
    /// when `isolated`), by the same builder as a folder's side.
    pub fn side(
        &self,
        revision: &Revision,
        isolated: bool,
        threads: Option<usize>,
    ) -> Result<Side, Error> {
        let (options, config) = self.options(revision, isolated, threads)?;
        let listing = self.listing(revision);
        let side = crate::diff::side::build(&options, config, Files::Listed(&listing))
            .map_err(|e| Error::Read(e.to_string()))?;
        Ok(in_tree_policy_paths(side, revision))
    }

    /// Both sides of a diff between two revisions, the second made from the first's kept lint
    /// where that gives what a fresh lint of it would: the same effective options (and no
    /// policies, whose files are named by revision), the same entries taken with the same
    /// decisions, only some blobs different. Then only the changed files are read, and only the
    /// units they can change linted and inventoried again. A side left `None` is for
    /// [`Repository::side`] to lint afresh; so is every side an error stopped, which the fresh
    /// path meets and reports again in its own order.
    pub fn sides(
        &self,
        base: &Revision,
        head: &Revision,
        isolated: bool,
        threads: Option<usize>,
    ) -> (Option<Side>, Option<Side>) {
        let (Ok((options, config)), Ok((head_options, head_config))) = (
            self.options(base, isolated, threads),
            self.options(head, isolated, threads),
        ) else {
            return (None, None);
        };
        if !same_lint(&options, &head_options) {
            return (None, None);
        }
        let Ok(decisions) = crate::engine::listing_decisions(&options) else {
            return (None, None);
        };
        let reader = Reader {
            objects: &self.repo,
        };
        // What `exclude` passed over on each side, for the sides to list (the first side's
        // session reads the listing kept here, which decides nothing again).
        let old = list(&reader, base.tree, &decisions);
        let old_excluded = decisions.take_passed_over();
        let new = list(&reader, head.tree, &decisions);
        let new_excluded = decisions.take_passed_over();
        let (Ok(mut old), Ok(mut new)) = (old, new) else {
            return (None, None);
        };
        // In the order the run sorts them (stably, as it does), so equal listings compare equal.
        old.sort_by(|a, b| a.file.rel_path.cmp(&b.file.rel_path));
        new.sort_by(|a, b| a.file.rel_path.cmp(&b.file.rel_path));
        let Some(changed) = changed_blobs(&old, &new) else {
            return (None, None);
        };
        drop(new);
        // Side 2 reads only the changed blobs: no text of this side is kept for it.
        self.texts_kept.set(true);
        let listing = Prelisted {
            listing: TreeListing {
                repo: self.repo.clone().into_sync(),
                tree: base.tree,
                texts: &self.texts,
                keep_texts: false,
            },
            kept: old,
        };
        let Ok(mut session) = Session::with_inventory(&options, Files::Listed(&listing)) else {
            return (None, None);
        };
        let Some(first) = session
            .inventory()
            .and_then(|inventory| side_of(&options, config, &session, inventory))
        else {
            return (None, None);
        };
        let mut first = in_tree_policy_paths(first, base);
        first.excluded = old_excluded;
        let max = decisions.max_file_size;
        let texts: Result<Vec<(String, String)>, ()> = changed
            .iter()
            .map(
                |(rel_path, id)| match listing.listing.text(&reader, *id, max, false) {
                    Ok(Ok(text)) => Ok((rel_path.clone(), text)),
                    // A read problem (or an object that cannot be read) is for a fresh lint.
                    _ => Err(()),
                },
            )
            .collect();
        let replaced = match texts {
            Ok(texts) => session.replace_texts(texts),
            Err(()) => Replaced::NeedsFreshLint,
        };
        if !matches!(replaced, Replaced::Relinted | Replaced::Unchanged) {
            self.keep_unchanged_texts(&listing.kept, &changed, &session);
            return (Some(first), None);
        }
        let second = session
            .take_inventory()
            .and_then(|inventory| side_of(&head_options, head_config, &session, inventory));
        let second = second.map(|side| crate::diff::side::Side {
            excluded: new_excluded,
            ..in_tree_policy_paths(side, head)
        });
        (Some(first), second)
    }

    /// Before the second side is linted afresh: the texts of the first side's blobs it shares,
    /// taken from the kept lint, so they are not inflated again.
    fn keep_unchanged_texts(
        &self,
        old: &[Kept],
        changed: &[(String, ObjectId)],
        session: &Session,
    ) {
        let repo = &session.outcome().repo;
        let changed: std::collections::HashSet<&str> =
            changed.iter().map(|(path, _)| path.as_str()).collect();
        let mut texts = self.texts.lock().unwrap_or_else(|e| e.into_inner());
        for entry in old {
            let (Some(id), None) = (entry.blob, &entry.file.problem) else {
                continue;
            };
            let rel = &entry.file.rel_path;
            if changed.contains(rel.as_str()) {
                continue;
            }
            // Only a file read whole: one with a read problem holds a text for display.
            let Some(file) = repo.file_by_path(rel) else {
                continue;
            };
            let read_whole = !matches!(repo.parsed(file), crate::model::Parsed::Unreadable(_))
                && !session.read_problem_in(file);
            if read_whole {
                texts.insert(id, repo.text(file).to_string());
            }
        }
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
        let cap = crate::engine::DEFAULT_MAX_FILE_SIZE;
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

    /// The files of `revision` as discovery takes them.
    fn listing(&self, revision: &Revision) -> TreeListing<'_> {
        TreeListing {
            repo: self.repo.clone().into_sync(),
            tree: revision.tree,
            texts: &self.texts,
            keep_texts: !self.texts_kept.replace(true),
        }
    }

    /// The options a lint of `revision` runs with (the config committed at the top of its tree
    /// and the policies it names, read from the tree, as a disk lint reads them from the root),
    /// and the configuration's facts a diff compares.
    pub fn options(
        &self,
        revision: &Revision,
        isolated: bool,
        threads: Option<usize>,
    ) -> Result<(LintOptions, SideConfig), Error> {
        let mut options = LintOptions {
            threads,
            ..LintOptions::default()
        };
        if isolated {
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
        let cap = crate::engine::DEFAULT_MAX_FILE_SIZE;
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
        if !policies.is_empty() {
            options.policies = Some(Arc::new(policies));
        }
        options.apply_config(&config);
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
        let cap = crate::engine::DEFAULT_MAX_FILE_SIZE;
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
}

/// Whether two sides' options make the same lint. Compared as their whole debug form, so that
/// any option (today's or one added later) that differs sends the diff down the fresh path;
/// and never with policies, whose files a revision names by its own name.
fn same_lint(a: &LintOptions, b: &LintOptions) -> bool {
    a.policies.is_none() && b.policies.is_none() && format!("{a:?}") == format!("{b:?}")
}

/// The files of the second side whose blob differs from the first's, with its blob, when the
/// two listings (sorted by path) take the same entries with the same decisions; `None` when
/// they do not (a file added, removed or renamed, a kind or a problem changed, a path listed
/// twice), or when a changed entry has no blob to read.
fn changed_blobs(old: &[Kept], new: &[Kept]) -> Option<Vec<(String, ObjectId)>> {
    if old.len() != new.len() {
        return None;
    }
    // A path listed twice is deduplicated by the run; which entry wins is not worth following.
    if old
        .windows(2)
        .any(|w| w[0].file.rel_path == w[1].file.rel_path)
    {
        return None;
    }
    let mut changed = Vec::new();
    for (a, b) in old.iter().zip(new) {
        if a.file != b.file {
            return None;
        }
        // An entry not read is reported from its decisions alone, whatever its blob.
        if a.blob == b.blob || a.file.problem.is_some() {
            continue;
        }
        match (a.blob, b.blob) {
            (Some(_), Some(id)) => changed.push((b.file.rel_path.clone(), id)),
            _ => return None,
        }
    }
    Some(changed)
}

/// The side of the session's files as they stand and their `inventory`, `None` when it cannot
/// be made (the fresh path reports why).
fn side_of(
    options: &LintOptions,
    config: SideConfig,
    session: &Session,
    inventory: crate::inventory::Inventory,
) -> Option<Side> {
    crate::diff::side::side_of(options, config, session.outcome(), inventory).ok()
}

/// A policy file is named `REV:path` in messages; as a fact to compare it is its path in the
/// tree, which the other side may share.
fn in_tree_policy_paths(mut side: Side, revision: &Revision) -> Side {
    let prefix = format!("{}:", revision.name);
    for file in side.settings.policy_rules.values_mut() {
        if let Some(path) = file.strip_prefix(&prefix) {
            *file = path.to_string();
        }
    }
    side
}

fn whole_file(path: &Path, message: &str) -> ConfigError {
    ConfigError::whole_file(path, message.to_string())
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

/// What a path names in a tree.
enum Found {
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
trait Objects {
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
struct Reader<'r> {
    objects: &'r dyn Objects,
}

impl Reader<'_> {
    /// The bytes of the blob `id`, or its size when it is over `cap` (read from the object's
    /// header, before anything is inflated).
    fn blob(&self, id: ObjectId, cap: u64) -> Result<Result<Vec<u8>, u64>, String> {
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
    fn blob_size(&self, id: ObjectId) -> Result<u64, String> {
        Ok(self.objects.header(id)?.1)
    }

    /// The raw bytes of the tree `id`, bounded.
    fn tree(&self, id: ObjectId) -> Result<Vec<u8>, String> {
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
    fn lookup(&self, tree: ObjectId, components: &[&str]) -> Result<Found, String> {
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

/// A read that failed on an object the clone does not hold (a partial clone) or cannot read.
fn missing(error: impl std::fmt::Display) -> String {
    format!(
        "cannot read the revision's files: {} (a partial or shallow clone may not hold them all; \
         fetch the full history)",
        escape_text(&error.to_string())
    )
}

/// The files of a revision's tree, as discovery takes them. The repository is shared by the
/// threads that read its blobs, each through a handle of its own.
struct TreeListing<'a> {
    repo: gix::ThreadSafeRepository,
    tree: ObjectId,
    /// Texts already read, by blob, and whether this listing adds its own.
    texts: &'a Mutex<HashMap<ObjectId, String>>,
    keep_texts: bool,
}

impl TreeListing<'_> {
    /// The text of the blob `id`, or why it is not read; kept for the next reader of the same
    /// blob when `keep`.
    fn text(
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
struct Kept {
    file: Discovered,
    blob: Option<ObjectId>,
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
struct Prelisted<'a> {
    listing: TreeListing<'a>,
    kept: Vec<Kept>,
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
fn list(
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

/// Resolves a revision's links inside its tree, as the system resolves a link on disk: each
/// target relative to the folder of its link, `..` taking the folder the walk reached (not the
/// text written), links met on the way followed. Nothing on disk is looked at: an absolute
/// target, or one that climbs above the top of the tree, leads out of it and is not followed.
struct Links<'a, 'r> {
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
    fn new(reader: &'a Reader<'r>) -> Links<'a, 'r> {
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
    fn resolve(
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

/// The listing of a revision's trees run on objects held in memory, for a fuzz target to drive
/// without a repository on disk. Not part of the supported interface.
#[doc(hidden)]
pub mod fuzzing {
    use super::{list, ObjectId, Objects, Reader};
    use gix::object::Kind;
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
    pub fn list_trees(
        objects: &[(bool, Vec<u8>)],
    ) -> Result<Vec<(String, Option<String>)>, String> {
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
        let options = crate::engine::LintOptions::default();
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
}
