//! walk → read & parse → index → check → triage. Everything a run does, without any output.
//!
//! Orchestration only: each stage's work is in its module ([`crate::discover`], `read`,
//! [`crate::model::parse_file`], [`crate::index::build_units`], `check::run`, `triage::apply`);
//! the engine owns the thread pool and the order of the stages, and is the one module that sees
//! the rules (through [`registry`]). Its files follow the stages: [`read`] (discovery, reading,
//! the up-front parses), [`analyse`] (index → rules → triage) and [`session`] (a lint kept for
//! edits: the language server's, and a diff's second revision, which relints the changed files'
//! units, not the repository). The run's options are [`crate::settings`]'s.
//!
//! The products above the engine (the capability inventory, the diff, the history, the server,
//! the fix loop) drive it through one hook, a [`UnitHook`]: a function of each unit as its rules
//! saw it, run right after them over the same parse and facts. The engine names none of them.

mod analyse;
mod code;
mod read;
mod session;
#[cfg(test)]
mod tests;

pub(crate) use read::{listing_decisions, Files, FoundFile, InMemory, Listing};
pub use session::{Replaced, Session};

use crate::catalog::catalog;
use crate::check::{Registry, Unit};
use crate::diagnostic::{Diagnostic, Suppressed};
use crate::index::Repo;
use crate::selection::{resolve, Enabled};
use crate::settings::LintOptions;
use crate::source::{FileId, Span};
use analyse::{analyse_keeping, analyse_read, apply_baseline, index_repo, Kept, Stages};
use rayon::prelude::*;
use read::{in_memory_files, in_memory_root, read_files, read_from, LintRoot};
use std::path::PathBuf;

/// The rules the engine runs: the catalog joined with every family's checks, built once. The
/// engine is the one module that sees both (the check stage never imports the rules).
pub fn registry() -> &'static Registry {
    static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    // Problems are only possible with a broken build; the registry test names every one.
    REGISTRY.get_or_init(|| Registry::join(catalog(), crate::rules::checks()).0)
}

#[derive(Debug)]
pub enum LintError {
    NoSuchPath(PathBuf),
    Selector(String),
    ThreadPool(String),
    /// A listing (a git revision) could not be read; the message says why.
    Listing(String),
    /// A configuration file below the root could not be read or is invalid.
    Config(crate::file_error::FileError),
}

impl std::fmt::Display for LintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LintError::NoSuchPath(p) => write!(
                f,
                "no such file or directory: {}",
                crate::escape::display_path(p)
            ),
            LintError::Selector(message) => f.write_str(message),
            LintError::ThreadPool(message) => write!(f, "cannot start worker threads: {message}"),
            LintError::Listing(message) => f.write_str(message),
            LintError::Config(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for LintError {}

#[derive(Clone)]
pub struct LintOutcome {
    pub repo: Repo,
    /// Sorted by path, offset, code; only enabled rules.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings silenced by inline comments or hidden by the baseline (kept for SARIF), in the
    /// same order.
    pub suppressed: Vec<Suppressed>,
    pub root: PathBuf,
    /// What the baseline did, when [`LintOptions::baseline`] named one.
    pub baseline: Option<crate::triage::baseline::BaselineRun>,
    /// Paths named in [`LintOptions::paths`] that were not linted because `exclude` matches
    /// them and [`LintOptions::force_exclude`] is on.
    pub excluded_named: Vec<PathBuf>,
    /// The files of a kind skilllint reads that `exclude` passed over (relative paths, sorted):
    /// not linted, so a diff lists those the other side did not exclude.
    pub excluded: Vec<String>,
    /// Every inline suppression comment the triage's parser recognised as one (a well-formed
    /// one, and a malformed one that is still an attempt: SL003), by file and span of the
    /// comment, sorted: what `skilllint diff` compares, so that it sees exactly the comments
    /// the lint read, in whatever spacing the grammar accepts.
    pub suppression_comments: Vec<(FileId, Span)>,
    /// How many tools the run's tool lists declare (the summary counts them beside the skills).
    pub tools: usize,
}

impl LintOutcome {
    /// The files for renderers: the repository's, then the baseline file (where SL020 and SL021
    /// point).
    pub fn sources(&self) -> crate::source::Sources<'_> {
        self.repo
            .sources()
            .with_baseline(self.baseline.as_ref().map(|b| &b.file))
    }
}

pub fn lint(options: &LintOptions) -> Result<LintOutcome, LintError> {
    let (enabled, pool) = prepare(options)?;
    let threads = pool.current_num_threads();
    let root = options.root();
    let mut outcome = pool.install(|| run(options, &enabled, root, threads))?;
    if let Some(baseline) = &options.baseline {
        apply_baseline(options, &enabled, &mut outcome, baseline);
    }
    Ok(outcome)
}

/// What a lint over paths checks and sets up before it reads anything, in this order: every
/// path exists, the selection names known rules, the thread pool.
fn prepare(options: &LintOptions) -> Result<(Enabled, rayon::ThreadPool), LintError> {
    for path in &options.paths {
        if !path.exists() {
            return Err(LintError::NoSuchPath(path.clone()));
        }
    }
    Ok((resolve_selection(options)?, thread_pool(options)?))
}

/// The rules the options select, built-in and policy.
fn resolve_selection(options: &LintOptions) -> Result<Enabled, LintError> {
    resolve(options.catalog(), &options.select, &options.ignore).map_err(LintError::Selector)
}

/// A pool of `--threads` threads (default: one per core).
fn thread_pool(options: &LintOptions) -> Result<rayon::ThreadPool, LintError> {
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| LintError::ThreadPool(e.to_string()))
}

fn run(
    options: &LintOptions,
    enabled: &Enabled,
    root: PathBuf,
    threads: usize,
) -> Result<LintOutcome, LintError> {
    run_keeping(options, enabled, root, threads, false).map(|(outcome, _, _)| outcome)
}

/// A run's options and selection once the configurations below its root joined them, when
/// there were any.
type Widened = Option<(LintOptions, Enabled)>;

fn run_keeping(
    options: &LintOptions,
    enabled: &Enabled,
    root: PathBuf,
    threads: usize,
    keep: bool,
) -> Result<(LintOutcome, Option<Kept>, Widened), LintError> {
    let mut read = read_files(options, root, threads)?;
    let (options, enabled) = with_scoped(options, enabled, std::mem::take(&mut read.scoped))?;
    let stages = Stages {
        keep,
        also: |_: &crate::check::Unit<'_>| (),
    };
    let (outcome, kept, _) = analyse_read(&options, &enabled, read, &stages)?;
    let widened = match options {
        std::borrow::Cow::Owned(options) => Some((options, enabled)),
        std::borrow::Cow::Borrowed(_) => None,
    };
    Ok((outcome, kept, widened))
}

/// The options and selection of a run once the walk found the configurations below its root
/// ([`crate::settings::ScopedConfig`]): the rules any of them enables run, and each decides
/// what is reported in its folder. Unchanged when there are none.
fn with_scoped<'o>(
    options: &'o LintOptions,
    enabled: &Enabled,
    scoped: Vec<crate::settings::ScopedConfig>,
) -> Result<(std::borrow::Cow<'o, LintOptions>, Enabled), LintError> {
    if scoped.is_empty() {
        return Ok((std::borrow::Cow::Borrowed(options), enabled.clone()));
    }
    let mut all = enabled.clone();
    for config in &scoped {
        let own = resolve(options.catalog(), &config.select, &config.ignore)
            .map_err(LintError::Selector)?;
        all.extend(&own);
    }
    let mut options = options.clone();
    options.scoped = scoped;
    Ok((std::borrow::Cow::Owned(options), all))
}

/// Lints files given as (relative path, text) pairs, without touching the file system: the
/// whole per-file pipeline after reading (parse, index, rules, triage). For fuzzing and tests;
/// paths that name no known file kind are ignored.
pub fn lint_in_memory(
    options: &LintOptions,
    files: Vec<(String, String)>,
) -> Result<LintOutcome, LintError> {
    let enabled = resolve_selection(options)?;
    in_memory_keeping(options, &enabled, files, false).map(|(outcome, _)| outcome)
}

fn in_memory_keeping(
    options: &LintOptions,
    enabled: &Enabled,
    files: Vec<(String, String)>,
    keep: bool,
) -> Result<(LintOutcome, Option<Kept>), LintError> {
    let (sources, parsed, code) = in_memory_files(options, files);
    let root = PathBuf::from(".");
    analyse_keeping(
        options,
        enabled,
        sources,
        parsed,
        Vec::new(),
        (Vec::new(), Vec::new(), code),
        in_memory_root(),
        &root,
        keep,
    )
}

/// What a product makes of each unit: a function of the unit as its rules saw it (its own parse
/// and facts), run right after them. The engine's one hook for the products above it: the
/// capability inventory's rows are made this way, over the lint's parse instead of a second one.
pub type UnitHook<R> = fn(&Unit<'_>) -> R;

/// A lint, with what a [`UnitHook`] made of each unit (in unit order) and the read stage's
/// findings (SL001), which a product lists as the files it could not read.
pub struct Hooked<R> {
    pub outcome: LintOutcome,
    pub per_unit: Vec<R>,
    pub read_problems: Vec<Diagnostic>,
}

/// Lints `files` as [`lint`] does (the options' baseline applied as it applies it), running
/// `hook` over each unit right after its rules.
pub(crate) fn lint_each_unit<R: Send>(
    options: &LintOptions,
    files: Files<'_>,
    hook: UnitHook<R>,
) -> Result<Hooked<R>, LintError> {
    let (run, _) = hooked_run(options, files, hook, false)?;
    Ok(Hooked {
        outcome: run.outcome,
        per_unit: run.per_unit,
        read_problems: run.read_problems,
    })
}

/// The repository read and indexed as a lint reads it, with what a [`UnitHook`] made of each
/// unit, in unit order. No rule runs.
pub struct Indexed<R> {
    pub repo: Repo,
    pub per_unit: Vec<R>,
    /// The read stage's findings (SL001).
    pub read_problems: Vec<Diagnostic>,
    /// The folder paths are reported relative to.
    pub root: PathBuf,
    /// Files that hold what look like tools but are not read, with why (relative paths, in no
    /// particular order): what the product lists so that no tools go missing without a word.
    pub unread_tools: Vec<(String, &'static str)>,
}

/// Discovery, reading and the index over `options.paths`, then `hook` over each unit: what a
/// product that runs no rule (`skilllint tools`) reads.
pub fn index_each_unit<R: Send>(
    options: &LintOptions,
    hook: UnitHook<R>,
) -> Result<Indexed<R>, LintError> {
    let (enabled, pool) = prepare(options)?;
    let threads = pool.current_num_threads();
    pool.install(|| {
        let mut read = read_from(options, Files::Walk, threads)?;
        let (options, enabled) = with_scoped(options, &enabled, std::mem::take(&mut read.scoped))?;
        let options = options.as_ref();
        let unread_tools = read.unread_tools;
        let LintRoot { path, looked_up } = read.root;
        let repo = index_repo(
            options,
            &enabled,
            read.files,
            read.parsed,
            read.bundle,
            looked_up,
            &path,
            &read.base,
        )?;
        let per_unit = repo
            .units
            .par_iter()
            .map(|files| crate::check::run::with_unit(&repo, files, hook))
            .collect();
        Ok(Indexed {
            repo,
            per_unit,
            read_problems: read.diagnostics,
            root: path,
            unread_tools,
        })
    })
}

/// What [`hooked_run`] leaves: the lint's outcome (baseline applied), what the hook made of each
/// unit, the read problems, and what a [`Session`] is made of.
struct HookedRun<R> {
    outcome: LintOutcome,
    per_unit: Vec<R>,
    read_problems: Vec<Diagnostic>,
    kept: Option<Kept>,
    enabled: Enabled,
    /// The run's options once the configurations below its root joined them, if there were any.
    options: Option<LintOptions>,
}

/// [`lint_each_unit`]'s run, keeping (when `keep`) what a [`Session`] needs; with the thread
/// pool it ran on.
fn hooked_run<R: Send>(
    options: &LintOptions,
    files: Files<'_>,
    hook: UnitHook<R>,
    keep: bool,
) -> Result<(HookedRun<R>, rayon::ThreadPool), LintError> {
    let (enabled, pool) = match files {
        Files::Walk => prepare(options)?,
        // A listing has no paths on disk to check.
        Files::Listed(_) => (resolve_selection(options)?, thread_pool(options)?),
    };
    let threads = pool.current_num_threads();
    let stages = Stages { keep, also: hook };
    let run = pool.install(|| {
        let mut read = read_from(options, files, threads)?;
        let (options, enabled) = with_scoped(options, &enabled, std::mem::take(&mut read.scoped))?;
        let read_problems = read.diagnostics.clone();
        let (mut outcome, kept, per_unit) = analyse_read(&options, &enabled, read, &stages)?;
        if let Some(baseline) = &options.baseline {
            apply_baseline(&options, &enabled, &mut outcome, baseline);
        }
        let options = match options {
            std::borrow::Cow::Owned(options) => Some(options),
            std::borrow::Cow::Borrowed(_) => None,
        };
        Ok::<_, LintError>(HookedRun {
            outcome,
            per_unit,
            read_problems,
            kept,
            enabled,
            options,
        })
    })?;
    Ok((run, pool))
}
