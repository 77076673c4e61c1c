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
//!
//! The room: this file (the repository, its revisions, and a diff's two sides from them),
//! `tree` (bounded reads of objects, and links resolved inside a tree), `listing` (a revision's
//! files as discovery takes them, bounded before any is read), `config` (the configuration,
//! policies and baseline committed in a revision), `error` (why a revision could not be read),
//! `git_dir` (the git folder checked before it is opened) and [`fuzzing`] (the listing over
//! objects in memory).

use crate::diff::side::{Side, SideConfig};
use crate::engine::{Files, Replaced};
use crate::escape::escape_text;
use crate::inventory::drive::InventorySession;
use crate::settings::LintOptions;
use gix::bstr::ByteSlice;
use gix::ObjectId;
use listing::{list, Kept, Prelisted, TreeListing};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tree::Reader;

mod config;
mod error;
#[doc(hidden)]
pub mod fuzzing;
mod git_dir;
mod listing;
mod tree;

pub use error::Error;

/// The rules that read the disk beyond a file's text (SK022: the bytes of archives and
/// executables in a skill folder; SK023: the files a linked Markdown file links to). A revision
/// has no disk to read, so they do not run on one, and a diff with a revision side leaves their
/// findings out on both sides.
pub const DISK_ONLY_RULES: &[&str] = &["SK022", "SK023"];

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
        let Ok(mut session) = crate::inventory::drive::session(&options, Files::Listed(&listing))
        else {
            return (None, None);
        };
        let Some(first) = crate::inventory::drive::of_session(&session)
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
        let second = crate::inventory::drive::take_from_session(&mut session)
            .and_then(|inventory| side_of(&head_options, head_config, &session, inventory));
        let second = second.map(|side| Side {
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
        session: &InventorySession,
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

    /// The files of `revision` as discovery takes them.
    fn listing(&self, revision: &Revision) -> TreeListing<'_> {
        TreeListing {
            repo: self.repo.clone().into_sync(),
            tree: revision.tree,
            texts: &self.texts,
            keep_texts: !self.texts_kept.replace(true),
        }
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
    session: &InventorySession,
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
