//! walk → read & parse → index → check → triage. Everything a run does, without any output.
//!
//! Orchestration only: each stage's work is in its module ([`crate::discover`], `read`,
//! [`crate::model::parse_file`], [`crate::index::build_units`], `check::run`, `triage::apply`);
//! the engine owns the options, the thread pool and the order of the stages, and is the one
//! module that sees the rules (through [`registry`]). A [`Session`] is a lint kept for edits (the
//! language server's, and a diff's second revision): it relints the changed files' units, not
//! the repository.

use crate::catalog::{catalog, Catalog};
use crate::check::run::{check_repo, check_unit, check_unit_and, UnitOutcome, UnitRun};
use crate::check::{Registry, RepoContext, Rule};
use crate::config::Config;
use crate::diagnostic::{Diagnostic, Suppressed};
use crate::discover::GlobFilter;
use crate::discover::{discover, Discovered};
use crate::index::{build_units, ContractIndex, Repo, Settings};
use crate::model::{parse_up_front, FileKind, Parsed};
use crate::read::{read_discovered, ReadProblem};
use crate::selection::{resolve, Enabled};
use crate::source::{FileId, SourceFile, Span};
use crate::triage::{self, Policy};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The rules the engine runs: the catalog joined with every family's checks, built once. The
/// engine is the one module that sees both (the check stage never imports the rules).
pub fn registry() -> &'static Registry {
    static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    // Problems are only possible with a broken build; the registry test names every one.
    REGISTRY.get_or_init(|| Registry::join(catalog(), crate::rules::checks()).0)
}

pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct LintOptions {
    pub paths: Vec<PathBuf>,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub settings: Settings,
    pub requirement_files: Vec<String>,
    pub max_file_size: u64,
    /// Worker threads; `None` uses every core.
    pub threads: Option<usize>,
    /// Folder that `exclude` and `per_file_ignores` globs are relative to (the config file's).
    pub glob_base: Option<PathBuf>,
    /// Files matching these globs are not walked (a file named on the command line still is).
    pub exclude: Vec<String>,
    /// More such globs, relative to the current folder (`--exclude`).
    pub exclude_here: Vec<String>,
    /// Findings of these rules (selectors) are dropped in files matching the glob.
    pub per_file_ignores: Vec<(String, Vec<String>)>,
    /// Severity overrides by rule code.
    pub severity: BTreeMap<&'static str, crate::diagnostic::Severity>,
    /// File contents to use instead of what is on disk (by the path discovery produces); the fix
    /// loop lints its edited texts through this before anything is written.
    pub overlay: std::sync::Arc<HashMap<PathBuf, String>>,
    /// Honour `skilllint-disable…` / `# skilllint: ignore[…]` comments (`--no-inline-ignores`
    /// turns them off).
    pub inline_ignores: bool,
    /// The organisation policies of the run (`None`: none); their rules join the catalog.
    pub policies: Option<std::sync::Arc<crate::policy::PolicySet>>,
    /// Makes the named rule panic, so tests can observe SL900 end to end.
    #[doc(hidden)]
    pub panic_in_rule: Option<String>,
    /// `[tools] include`: globs (relative to `glob_base`) of files read as tool lists by content.
    pub tool_include: Vec<String>,
    /// More such globs, relative to the current folder (`--config tools.include=…`).
    pub tool_include_here: Vec<String>,
    /// Apply `exclude` to the paths named in `paths` too (`--force-exclude`); without it an
    /// excluded file or folder that is named is linted all the same.
    pub force_exclude: bool,
    /// The baseline whose entries [`lint`] hides (`--baseline`, `[lint] baseline`); a
    /// [`Session`] applies one only when made for a diff ([`Session::with_inventory`]).
    pub baseline: Option<std::sync::Arc<crate::triage::baseline::Baseline>>,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            paths: vec![PathBuf::from(".")],
            select: Vec::new(),
            ignore: Vec::new(),
            settings: Settings::default(),
            requirement_files: vec![
                "requirement.yaml".to_string(),
                "requirement.yml".to_string(),
            ],
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            threads: None,
            glob_base: None,
            exclude: Vec::new(),
            exclude_here: Vec::new(),
            tool_include: Vec::new(),
            tool_include_here: Vec::new(),
            per_file_ignores: Vec::new(),
            severity: BTreeMap::new(),
            inline_ignores: true,
            overlay: std::sync::Arc::new(HashMap::new()),
            policies: None,
            panic_in_rule: None,
            force_exclude: false,
            baseline: None,
        }
    }
}

impl LintOptions {
    /// The rules of this run: the built-in ones and the policies'.
    pub fn catalog(&self) -> &Catalog {
        match self.policies.as_deref() {
            Some(set) => set.catalog(),
            None => catalog(),
        }
    }

    /// Takes what a configuration file says: the selection, the size cap, the globs and where
    /// they are relative to, severity overrides, rule settings and the requirement file names.
    /// The command line's flags are applied after this, over it.
    pub fn apply_config(&mut self, config: &Config) {
        self.select = config.select.clone().unwrap_or_default();
        self.ignore = config.ignore.clone();
        if let Some(cap) = config.max_file_size {
            self.max_file_size = cap;
        }
        self.glob_base = Some(config.base.clone());
        self.exclude = config.exclude.clone();
        self.tool_include = config.tool_include.clone();
        self.tool_include_here = config.tool_include_from_cwd.clone();
        self.per_file_ignores = config.per_file_ignores.clone();
        self.severity = config.severity.clone();
        self.settings.skill_extra_fields = config.extra_fields.clone();
        self.settings.contract_map = config.contract_map.clone();
        if let Some(heading) = &config.tool_use_rules_heading {
            self.settings.tool_use_rules_heading = heading.clone();
        }
        if let Some(files) = &config.requirement_files {
            self.requirement_files = files.clone();
        }
    }
}

#[derive(Debug)]
pub enum LintError {
    NoSuchPath(PathBuf),
    Selector(String),
    ThreadPool(String),
    /// A listing (a git revision) could not be read; the message says why.
    Listing(String),
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

/// The archives and native executables in skill folders that nothing in their skill names
/// (SK022), from the walk's candidates and the skills it read.
fn opaque_files_of_skills(
    opaque: Vec<crate::model::bundle::Candidate>,
    discovered: &[(crate::discover::Discovered, Result<String, ReadProblem>)],
) -> Vec<crate::model::bundle::BundledFile> {
    if opaque.is_empty() {
        return Vec::new();
    }
    let skills: std::collections::BTreeMap<String, (PathBuf, &str)> = discovered
        .iter()
        .filter(|(file, _)| matches!(file.kind, FileKind::Skill { .. }))
        .filter_map(|(file, read)| {
            let text = read.as_ref().ok()?;
            let dir = crate::source::parent_dir(&file.rel_path).to_string();
            let folder = crate::source::folder_of(&file.abs_path).to_path_buf();
            Some((dir, (folder, text.as_str())))
        })
        .collect();
    crate::read::unreferenced_opaque_files(opaque, &skills)
}

/// Broken links in the Markdown files skills link to (SK023), skill by skill in parallel, read
/// as lint files are (bounded, never blocking), sorted by skill folder.
fn linked_markdown_breaks(
    discovered: &[(crate::discover::Discovered, Result<String, ReadProblem>)],
    lint_root: &Path,
) -> Vec<crate::model::skill::LinkedBroken> {
    const MAX_LINKED_SIZE: u64 = 1024 * 1024;
    let read = |path: &Path| {
        crate::read::read_regular_bounded(path, MAX_LINKED_SIZE)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
    };
    let mut out: Vec<crate::model::skill::LinkedBroken> = discovered
        .par_iter()
        .filter(|(file, _)| matches!(file.kind, FileKind::Skill { .. }))
        .flat_map_iter(|(file, text)| {
            let Ok(text) = text else {
                return Vec::new();
            };
            let dir = crate::source::parent_dir(&file.rel_path);
            let folder = crate::source::folder_of(&file.abs_path);
            crate::model::skill::find_linked_markdown_breaks(text, dir, folder, lint_root, &read)
        })
        .collect();
    out.sort_by(|a, b| a.skill_dir.cmp(&b.skill_dir));
    out
}

/// The folder paths are reported relative to: a single directory argument, else the current folder.
pub fn lint_root(paths: &[PathBuf]) -> PathBuf {
    match paths {
        [only] if only.is_dir() => only.clone(),
        _ => PathBuf::from("."),
    }
}

pub fn lint(options: &LintOptions) -> Result<LintOutcome, LintError> {
    let (enabled, pool) = prepare(options)?;
    let threads = pool.current_num_threads();
    let root = lint_root(&options.paths);
    let mut outcome = pool.install(|| run(options, &enabled, root, threads))?;
    if let Some(baseline) = &options.baseline {
        apply_baseline(options, &enabled, &mut outcome, baseline);
    }
    Ok(outcome)
}

/// Hides what the baseline accepts; its SL020 / SL021 findings join the others.
fn apply_baseline(
    options: &LintOptions,
    enabled: &Enabled,
    outcome: &mut LintOutcome,
    baseline: &crate::triage::baseline::Baseline,
) {
    let cwd = std::env::current_dir().unwrap_or_default();
    let repo = &outcome.repo;
    let reports = |code: &str, file: Option<FileId>| match file {
        Some(file) => repo.reports_str(code, file),
        None => enabled.contains(code),
    };
    let scope = crate::triage::baseline::Scope {
        reports: &reports,
        catalog: options.catalog(),
        severity: &options.severity,
    };
    let diagnostics = std::mem::take(&mut outcome.diagnostics);
    let (kept, hidden, mut run) =
        crate::triage::baseline::apply(diagnostics, &repo.files, baseline, &cwd, &scope);
    run.file.rel_path = crate::discover::relative_path(&outcome.root, &baseline.path);
    outcome.diagnostics = kept;
    outcome.suppressed.extend(hidden);
    outcome
        .suppressed
        .sort_by(|a, b| a.diagnostic.sort_key().cmp(&b.diagnostic.sort_key()));
    outcome.baseline = Some(run);
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

/// A parsed file and the read problem (SL001) found instead, if any.
type ParsedOrProblem = (Parsed, Option<Box<Diagnostic>>);

fn run(
    options: &LintOptions,
    enabled: &Enabled,
    root: PathBuf,
    threads: usize,
) -> Result<LintOutcome, LintError> {
    run_keeping(options, enabled, root, threads, false).map(|(outcome, _)| outcome)
}

fn run_keeping(
    options: &LintOptions,
    enabled: &Enabled,
    root: PathBuf,
    threads: usize,
    keep: bool,
) -> Result<(LintOutcome, Option<Kept>), LintError> {
    let read = read_files(options, root, threads)?;
    let stages = Stages {
        keep,
        also: |_: &crate::check::Unit<'_>| (),
    };
    analyse_read(options, enabled, read, &stages).map(|(outcome, kept, _)| (outcome, kept))
}

/// [`analyse`] over what the read stage left, with the named paths `exclude` matched.
fn analyse_read<R: Send, F: Fn(&crate::check::Unit<'_>) -> R + Sync>(
    options: &LintOptions,
    enabled: &Enabled,
    read: ReadFiles,
    stages: &Stages<F>,
) -> Result<(LintOutcome, Option<Kept>, Vec<R>), LintError> {
    let (mut outcome, kept, units) = analyse(
        options,
        enabled,
        read.files,
        read.parsed,
        read.diagnostics,
        read.bundle,
        read.root,
        &read.base,
        stages,
    )?;
    outcome.excluded_named = read.excluded_named;
    outcome.excluded = read.excluded;
    Ok((outcome, kept, units))
}

/// What discovery and reading leave for the index: the files, their up-front parses, the read
/// problems (SL001), and where paths are reported from.
struct ReadFiles {
    files: Vec<SourceFile>,
    parsed: Vec<Parsed>,
    diagnostics: Vec<Diagnostic>,
    root: LintRoot,
    base: PathBuf,
    excluded_named: Vec<PathBuf>,
    /// What `exclude` passed over ([`LintOutcome::excluded`]).
    excluded: Vec<String>,
    bundle: Bundle,
}

/// What the read stage found around the skills for SK022 and SK023: the archives and
/// executables nothing names, and the broken links of the Markdown files skills link to.
type Bundle = (
    Vec<crate::model::bundle::BundledFile>,
    Vec<crate::model::skill::LinkedBroken>,
);

/// discover → read → parse up front, for the paths of `options`.
fn read_files(
    options: &LintOptions,
    root: PathBuf,
    threads: usize,
) -> Result<ReadFiles, LintError> {
    let base = options.glob_base.clone().unwrap_or_else(|| root.clone());
    let mut exclude = GlobFilter::new(&base, &root, &options.exclude)
        .and_then(|filter| filter.and(Path::new("."), &root, &options.exclude_here))
        .map_err(LintError::Selector)?;
    // A path named on the command line wins over `exclude` (ruff's rule), unless
    // `--force-exclude` says the globs apply to it too (pre-commit passes every changed file).
    let mut named = Vec::with_capacity(options.paths.len());
    let mut excluded_named = Vec::new();
    for path in &options.paths {
        let rel = if *path == root {
            String::new()
        } else {
            crate::discover::relative_path(&root, path)
        };
        let excluded = if path.is_dir() {
            exclude.matches_folder(&rel)
        } else {
            exclude.matches(&rel)
        };
        if !excluded {
            named.push(path.clone());
        } else if options.force_exclude {
            excluded_named.push(path.clone());
        } else {
            if path.is_dir() {
                exclude.lift(rel);
            }
            named.push(path.clone());
        }
    }
    let include = GlobFilter::new(&base, &root, &options.tool_include)
        .and_then(|filter| filter.and(Path::new("."), &root, &options.tool_include_here))
        .map_err(LintError::Selector)?;
    let paths = crate::discover::with_skill_siblings(&named, &options.requirement_files);
    let overlay = options.overlay.as_ref();
    let (discovered, opaque, excluded) = discover(
        &root,
        &paths,
        &options.requirement_files,
        threads,
        &exclude,
        &include,
        |file| read_discovered(file, options.max_file_size, overlay),
    );
    let looked_up = root.canonicalize().ok();
    let mut read = read_found(options, discovered, opaque, root, looked_up);
    read.base = base;
    read.excluded_named = excluded_named;
    read.excluded = excluded;
    Ok(read)
}

/// What discovery found, read and parsed up front: files of no kind skilllint reads once their
/// text is known are left out (unless named), and, with a folder on disk to look in
/// (`looked_up`), the archives nothing names and the broken links of linked Markdown are found.
fn read_found(
    options: &LintOptions,
    mut discovered: Vec<FoundFile>,
    opaque: Vec<crate::model::bundle::Candidate>,
    root: PathBuf,
    looked_up: Option<PathBuf>,
) -> ReadFiles {
    // A prose SECRETS.md is no manifest, a lowercase skill.md without a skill's keys no skill:
    // left out as if never found, unless they were named.
    discovered.retain_mut(|(file, read)| {
        let Some(reason) = read
            .as_ref()
            .ok()
            .and_then(|text| crate::discover::not_read_reason(file.kind, text))
        else {
            return true;
        };
        let named = options.paths.contains(&file.abs_path);
        if named {
            file.kind = FileKind::Unfollowed;
            *read = Err(ReadProblem {
                code: "SL004",
                message: reason.to_string(),
                span: Span::empty(0),
                display_text: String::new(),
            });
        }
        named
    });
    let bundled = opaque_files_of_skills(opaque, &discovered);
    let linked_breaks = match &looked_up {
        Some(lint_root) => linked_markdown_breaks(&discovered, lint_root),
        None => Vec::new(),
    };
    // Unzipped straight into the two vectors the repository keeps (no third copy of every
    // parsed file at the peak); the rare read problem is boxed so it costs a pointer per file.
    let (files, loaded): (Vec<SourceFile>, Vec<ParsedOrProblem>) = discovered
        .into_par_iter()
        // The files parsed here (TOOL.md, DRIVER.md, ...) sort together, often all at the start:
        // small pieces let both threads share them instead of one taking the first half.
        .with_max_len(64)
        .enumerate()
        .map(|(index, (file, read))| load(FileId(index as u32), file, read, looked_up.as_deref()))
        .unzip();
    let mut diagnostics = Vec::new();
    let parsed = loaded
        .into_iter()
        .map(|(parsed, problem)| {
            diagnostics.extend(problem.map(|d| *d));
            parsed
        })
        .collect();
    ReadFiles {
        files,
        parsed,
        diagnostics,
        base: root.clone(),
        root: LintRoot {
            looked_up,
            path: root,
        },
        excluded_named: Vec::new(),
        excluded: Vec::new(),
        bundle: (bundled, linked_breaks),
    }
}

/// A file discovery took, with its text or why it was not read.
pub(crate) type FoundFile = (Discovered, Result<String, ReadProblem>);

/// Where a run's files come from.
pub(crate) enum Files<'a> {
    /// `options.paths` on disk, walked.
    Walk,
    /// A listing with no folder on disk behind it (a git revision): its globs are relative to its
    /// top, and nothing is looked up on disk.
    Listed(&'a dyn Listing),
}

/// A source of files other than the file system, which applies discovery's decisions to its
/// entries as the walk does ([`crate::discover::Decisions`]).
pub(crate) trait Listing: Sync {
    /// Every file discovery takes, with its text or why it was not read, in any order.
    fn discover(
        &self,
        decisions: &crate::discover::Decisions<'_>,
    ) -> Result<Vec<FoundFile>, String>;
}

/// The decisions discovery makes of a listing's entries under `options`.
pub(crate) fn listing_decisions(
    options: &LintOptions,
) -> Result<crate::discover::Decisions<'_>, LintError> {
    let globs = |relative_to_root: &[String], here: &[String]| {
        let all: Vec<String> = relative_to_root.iter().chain(here).cloned().collect();
        GlobFilter::rooted(&all).map_err(LintError::Selector)
    };
    Ok(crate::discover::Decisions {
        requirement_files: &options.requirement_files,
        exclude: globs(&options.exclude, &options.exclude_here)?,
        include: globs(&options.tool_include, &options.tool_include_here)?,
        max_file_size: options.max_file_size,
        passed_over: Default::default(),
    })
}

/// The files of a listing, taken and read by the decisions `options` make, and those of a kind
/// skilllint reads that `exclude` passed over.
fn listed_files(
    options: &LintOptions,
    listing: &dyn Listing,
) -> Result<(Vec<FoundFile>, Vec<String>), LintError> {
    let decisions = listing_decisions(options)?;
    let mut found = listing.discover(&decisions).map_err(LintError::Listing)?;
    found.sort_by(|a, b| a.0.rel_path.cmp(&b.0.rel_path));
    found.dedup_by(|a, b| a.0.rel_path == b.0.rel_path);
    Ok((found, decisions.take_passed_over()))
}

/// The folder paths are reported relative to, and (canonical) the folder inside which a skill's
/// links may be looked up on disk: `None` for a run without a file system.
struct LintRoot {
    path: PathBuf,
    looked_up: Option<PathBuf>,
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
    let (sources, parsed) = in_memory_files(options, files);
    let root = PathBuf::from(".");
    analyse_keeping(
        options,
        enabled,
        sources,
        parsed,
        Vec::new(),
        (Vec::new(), Vec::new()),
        in_memory_root(),
        &root,
        keep,
    )
}

/// The root of a run without a file system: `.`, where nothing is looked up.
fn in_memory_root() -> LintRoot {
    LintRoot {
        path: PathBuf::from("."),
        looked_up: None,
    }
}

/// (relative path, text) pairs as the read stage leaves files: those of a known kind, sorted
/// and deduplicated by path, with their up-front parses.
fn in_memory_files(
    options: &LintOptions,
    files: Vec<(String, String)>,
) -> (Vec<SourceFile>, Vec<Parsed>) {
    let mut files: Vec<(String, String, FileKind)> = files
        .into_iter()
        .filter_map(|(rel_path, text)| {
            crate::discover::classify(&rel_path, &options.requirement_files)
                .filter(|kind| crate::discover::not_read_reason(*kind, &text).is_none())
                .map(|kind| (rel_path, text, kind))
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files.dedup_by(|a, b| a.0 == b.0);
    let mut sources = Vec::with_capacity(files.len());
    let mut parsed = Vec::with_capacity(files.len());
    for (rel_path, text, kind) in files {
        let source = SourceFile {
            abs_path: PathBuf::from(&rel_path),
            rel_path,
            text,
        };
        parsed.push(parse_up_front(kind, &source, None));
        sources.push(source);
    }
    (sources, parsed)
}

/// What a [`Session`] keeps besides the outcome: the read problems (SL001) and what each unit's
/// check left, by unit.
#[derive(Clone)]
struct Kept {
    read_problems: Vec<Diagnostic>,
    units: Vec<UnitOutcome>,
    /// The policies went over the run's budget: a changed file is linted afresh.
    policies_spent: bool,
}

/// index → check → triage, for files already read (and, for the kinds other folders refer to,
/// parsed); keeping, when `keep`, what a [`Session`] needs to lint a changed file again.
#[allow(clippy::too_many_arguments)]
fn analyse_keeping(
    options: &LintOptions,
    enabled: &Enabled,
    files: Vec<SourceFile>,
    parsed: Vec<Parsed>,
    diagnostics: Vec<Diagnostic>,
    bundle: Bundle,
    root: LintRoot,
    base: &Path,
    keep: bool,
) -> Result<(LintOutcome, Option<Kept>), LintError> {
    let stages = Stages {
        keep,
        also: |_: &crate::check::Unit<'_>| (),
    };
    analyse(
        options,
        enabled,
        files,
        parsed,
        diagnostics,
        bundle,
        root,
        base,
        &stages,
    )
    .map(|(outcome, kept, _)| (outcome, kept))
}

/// What [`analyse`] keeps besides the outcome: what a [`Session`] needs (`keep`), and what
/// `also` makes of each unit over the check's own parse of it, in unit order.
struct Stages<F> {
    keep: bool,
    also: F,
}

/// [`analyse_keeping`], with `stages.also` run over each unit after its rules.
#[allow(clippy::too_many_arguments)]
fn analyse<R: Send, F: Fn(&crate::check::Unit<'_>) -> R + Sync>(
    options: &LintOptions,
    enabled: &Enabled,
    files: Vec<SourceFile>,
    parsed: Vec<Parsed>,
    mut diagnostics: Vec<Diagnostic>,
    (bundled, linked_breaks): Bundle,
    root: LintRoot,
    base: &Path,
    stages: &Stages<F>,
) -> Result<(LintOutcome, Option<Kept>, Vec<R>), LintError> {
    let LintRoot {
        path: root,
        looked_up: reference_root,
    } = root;
    // Built before any rule runs: a rule that leaves a finding to another asks it whether that
    // rule reports in the finding's file.
    let repo = index_repo(
        options,
        enabled,
        files,
        parsed,
        (bundled, linked_breaks),
        reference_root,
        &root,
        base,
    )?;

    let rules = enabled_rules(enabled);
    // Unit by unit: parse the folder's own files, run every unit rule, collect what the
    // repository-wide rules and the suppressions need, and drop the parses before the next
    // unit, so the same memory serves unit after unit.
    let (checked, spent): (Vec<(UnitOutcome, R)>, _) =
        with_unit_run(options, enabled, &repo, &rules, |run| {
            repo.units
                .par_iter()
                .map(|files| check_unit_and(&repo, files, run, &stages.also))
                .collect()
        });
    let (mut outcomes, extra): (Vec<UnitOutcome>, Vec<R>) = checked.into_iter().unzip();
    let policies_spent = spent.is_some();
    if let Some(spent) = &spent {
        drop_policy_results(&mut outcomes, spent);
    }
    let kept = stages.keep.then(|| Kept {
        read_problems: diagnostics.clone(),
        units: outcomes.clone(),
        policies_spent,
    });
    diagnostics.extend(spent.and_then(|spent| spent.finding));
    let (diagnostics, suppressed, suppression_comments) =
        conclude(options, enabled, &repo, &rules, diagnostics, outcomes);
    Ok((
        LintOutcome {
            repo,
            diagnostics,
            suppressed,
            root,
            baseline: None,
            excluded_named: Vec::new(),
            excluded: Vec::new(),
            suppression_comments,
        },
        kept,
        extra,
    ))
}

/// The repository index over files already read: units, contracts, settings, and which rule
/// reports in which file.
#[allow(clippy::too_many_arguments)]
fn index_repo(
    options: &LintOptions,
    enabled: &Enabled,
    files: Vec<SourceFile>,
    parsed: Vec<Parsed>,
    (bundled, linked_breaks): Bundle,
    reference_root: Option<PathBuf>,
    root: &Path,
    base: &Path,
) -> Result<Repo, LintError> {
    let catalog = options.catalog();
    let reporting =
        crate::selection::reporting(catalog, enabled, base, root, &options.per_file_ignores)
            .map_err(LintError::Selector)?;
    let units = build_units(&files, &parsed);
    let contracts = ContractIndex::build(&parsed);
    Ok(Repo {
        files,
        parsed,
        units,
        contracts,
        settings: options.settings.clone(),
        reporting,
        reference_root,
        bundled,
        linked_breaks,
    })
}

/// The repository's capability inventory (`skilllint tools`): discovery, reading and the index
/// as a lint has them, then every unit's tools with their effect, capabilities and gates. No
/// rule runs.
pub fn inventory(options: &LintOptions) -> Result<crate::inventory::Inventory, LintError> {
    let (enabled, pool) = prepare(options)?;
    let threads = pool.current_num_threads();
    pool.install(|| {
        let read = read_from(options, Files::Walk, threads)?;
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
        Ok(inventory_over(&repo, &read.diagnostics, path))
    })
}

/// The files of `files` read as discovery takes them: the walk of `options.paths`, or a
/// listing's entries through the same decisions.
fn read_from(
    options: &LintOptions,
    files: Files<'_>,
    threads: usize,
) -> Result<ReadFiles, LintError> {
    match files {
        Files::Walk => read_files(options, lint_root(&options.paths), threads),
        Files::Listed(listing) => {
            let (found, excluded) = listed_files(options, listing)?;
            let mut read = read_found(options, found, Vec::new(), PathBuf::from("."), None);
            read.excluded = excluded;
            Ok(read)
        }
    }
}

/// Every unit's tools with their effect, capabilities and gates, over an indexed repository.
fn inventory_over(
    repo: &Repo,
    read_problems: &[Diagnostic],
    root: PathBuf,
) -> crate::inventory::Inventory {
    let rows = repo
        .units
        .par_iter()
        .map(|files| crate::check::run::with_unit(repo, files, crate::inventory::unit_inventory))
        .collect::<Vec<_>>();
    crate::inventory::Inventory::new(repo, rows, read_problems, root)
}

/// Files given as (relative path, text) pairs, listed through discovery's decisions as a git
/// tree's entries are: a diff side built from files a caller already read.
pub(crate) struct InMemory(pub(crate) Vec<(String, String)>);

impl Listing for InMemory {
    fn discover(
        &self,
        decisions: &crate::discover::Decisions<'_>,
    ) -> Result<Vec<FoundFile>, String> {
        Ok(self
            .0
            .iter()
            .filter_map(|(rel_path, text)| {
                let (kind, problem) =
                    decisions.entry(rel_path, crate::discover::ListedEntry::File)?;
                let file = Discovered {
                    abs_path: PathBuf::from(rel_path),
                    rel_path: rel_path.clone(),
                    kind,
                    problem,
                };
                let size = text.len() as u64;
                let read = if file.problem.is_some() {
                    Err(crate::read::not_followed(&file))
                } else if size > decisions.max_file_size {
                    Err(crate::read::too_large(Some(size), decisions.max_file_size))
                } else {
                    Ok(text.clone())
                };
                Some((file, read))
            })
            .collect())
    }
}

/// A lint and the capability inventory of the same files (`skilllint diff`, which needs both
/// of each side): the files are read, indexed and parsed once, each unit's rows made right after
/// its rules ran, over the same parse and facts. The baseline of the options is applied as
/// [`lint`] applies it.
pub(crate) fn lint_with_inventory(
    options: &LintOptions,
    files: Files<'_>,
) -> Result<(LintOutcome, crate::inventory::Inventory), LintError> {
    let (run, _) = inventory_run(options, files, false)?;
    let InventoryRun {
        outcome,
        rows,
        read_problems,
        ..
    } = run;
    let inventory =
        crate::inventory::Inventory::new(&outcome.repo, rows, &read_problems, outcome.root.clone());
    Ok((outcome, inventory))
}

/// One unit's part of the capability inventory: its tools' rows, and its tools files that did
/// not parse.
type UnitRows = (Vec<crate::inventory::Row>, Vec<crate::inventory::Unread>);

/// A unit linted again by a [`Session`]: what its check left, and its rows when the session
/// keeps an inventory.
type Rechecked = (UnitOutcome, Option<UnitRows>);

/// What [`inventory_run`] leaves: the lint's outcome (baseline applied), each unit's rows, the
/// read problems the inventory lists, and what a [`Session`] is made of.
struct InventoryRun {
    outcome: LintOutcome,
    rows: Vec<UnitRows>,
    read_problems: Vec<Diagnostic>,
    kept: Option<Kept>,
    enabled: Enabled,
}

/// [`lint_with_inventory`]'s run, keeping (when `keep`) what a [`Session`] needs; with the
/// thread pool it ran on.
fn inventory_run(
    options: &LintOptions,
    files: Files<'_>,
    keep: bool,
) -> Result<(InventoryRun, rayon::ThreadPool), LintError> {
    let (enabled, pool) = match files {
        Files::Walk => prepare(options)?,
        // A listing has no paths on disk to check.
        Files::Listed(_) => (resolve_selection(options)?, thread_pool(options)?),
    };
    let threads = pool.current_num_threads();
    let stages = Stages {
        keep,
        also: crate::inventory::unit_inventory,
    };
    let run = pool.install(|| {
        let read = read_from(options, files, threads)?;
        let read_problems = read.diagnostics.clone();
        let (mut outcome, kept, rows) = analyse_read(options, &enabled, read, &stages)?;
        if let Some(baseline) = &options.baseline {
            apply_baseline(options, &enabled, &mut outcome, baseline);
        }
        Ok::<_, LintError>(InventoryRun {
            outcome,
            rows,
            read_problems,
            kept,
            enabled,
        })
    })?;
    Ok((run, pool))
}

/// The registry's rules that are enabled, in catalog order.
fn enabled_rules(enabled: &Enabled) -> Vec<&'static Rule> {
    registry()
        .rules
        .iter()
        .filter(|r| enabled.contains(r.meta.code))
        .collect()
}

/// The policies of a run that went over its budget: their rules, and the one finding that says
/// so.
struct BudgetSpent {
    codes: Vec<&'static str>,
    finding: Option<Diagnostic>,
}

/// Drops every policy finding and failure of a run whose policies went over the budget: which
/// units were evaluated before it ran out depends on the threads, what is reported must not.
fn drop_policy_results(outcomes: &mut [UnitOutcome], spent: &BudgetSpent) {
    for outcome in outcomes {
        outcome
            .diagnostics
            .retain(|d| spent.codes.binary_search(&d.code).is_err());
        outcome.once_per_run.clear();
    }
}

/// Calls `f` with what checking a unit takes: the enabled rules, and the plan of the
/// organisation policies' enabled rules (the engine passes them as the unit hook: the check
/// stage never imports `policy`). Also returns, when the policies went over the run's budget,
/// what to drop and report instead.
fn with_unit_run<R>(
    options: &LintOptions,
    enabled: &Enabled,
    repo: &Repo,
    rules: &[&Rule],
    f: impl FnOnce(&UnitRun<'_>) -> R,
) -> (R, Option<BudgetSpent>) {
    let policies = options.policies.as_deref();
    let active: Vec<usize> = policies.map_or_else(Vec::new, |set| {
        (0..set.rules.len())
            .filter(|i| enabled.contains(set.rules[*i].code))
            .collect()
    });
    let plan = policies.filter(|_| !active.is_empty()).map(|set| {
        crate::policy::eval::Plan::new(
            set,
            &active,
            crate::policy::eval::repo_value(repo),
            crate::policy::eval::run_budget(repo),
        )
    });
    let hook = |unit: &crate::check::Unit<'_>| match &plan {
        Some(plan) => {
            let result = crate::policy::eval::check_unit(plan, unit);
            (result.findings, result.failures)
        }
        None => (Vec::new(), Vec::new()),
    };
    let result = f(&UnitRun {
        rules,
        catalog: options.catalog(),
        panic_in: options.panic_in_rule.as_deref(),
        inline_ignores: options.inline_ignores,
        hook: &hook,
    });
    let spent = plan.as_ref().filter(|plan| plan.exhausted()).map(|plan| {
        // On the first file in path order: a place that does not depend on the threads.
        let first = (0..repo.files.len())
            .map(|i| crate::source::FileId(i as u32))
            .min_by(|a, b| repo.file(*a).rel_path.cmp(&repo.file(*b).rel_path));
        BudgetSpent {
            codes: plan.codes(),
            finding: first.and_then(|file| plan.budget_spent(file)),
        }
    });
    (result, spent)
}

/// After the units: the repository-wide rules over what the units left, then triage. Returns the
/// findings kept and those silenced in source.
fn conclude(
    options: &LintOptions,
    enabled: &Enabled,
    repo: &Repo,
    rules: &[&Rule],
    mut diagnostics: Vec<Diagnostic>,
    outcomes: Vec<UnitOutcome>,
) -> (Vec<Diagnostic>, Vec<Suppressed>, Vec<(FileId, Span)>) {
    let mut suppressions = Vec::new();
    let mut malformed = Vec::new();
    let mut per_file = Vec::new();
    diagnostics.reserve(outcomes.iter().map(|o| o.diagnostics.len()).sum());
    let mut skill_names = Vec::with_capacity(outcomes.len());
    let mut once_per_run = Vec::new();
    for outcome in outcomes {
        diagnostics.extend(outcome.diagnostics);
        once_per_run.extend(outcome.once_per_run);
        skill_names.extend(outcome.skill_name);
        per_file.extend(outcome.suppressions);
    }
    // A policy rule that fails on many entities is reported once, on the first in output order.
    diagnostics.extend(crate::policy::eval::one_failure_per_rule(once_per_run));
    skill_names.sort_by_key(|name| name.file);
    per_file.sort_by_key(|(file, _, _)| *file);
    for (_, found, broken) in per_file {
        suppressions.extend(found);
        malformed.extend(broken);
    }
    // The repository-wide rules are few and read only what is left: the up-front parses and
    // the skills' names.
    let context = RepoContext {
        repo,
        skill_names: &skill_names,
    };
    diagnostics.extend(check_repo(
        &context,
        rules,
        options.panic_in_rule.as_deref(),
    ));

    let policy = Policy {
        enabled,
        severity: &options.severity,
        inline_ignores: options.inline_ignores,
    };
    let mut comments: Vec<(FileId, Span)> = suppressions
        .iter()
        .map(|s| (s.file, s.span))
        .chain(malformed.iter().map(|m| (m.file, m.span)))
        .collect();
    // A comment naming an unknown rule is both a suppression and a malformed one.
    comments.sort_by_key(|(file, span)| (*file, span.start, span.end));
    comments.dedup();
    let (diagnostics, suppressed) =
        triage::apply(diagnostics, repo, &policy, &suppressions, malformed);
    (diagnostics, suppressed, comments)
}

/// A lint kept in memory between edits, for the language server (and for a diff, whose second
/// revision is the first with some texts changed): the repository and what each unit's check
/// left behind. [`Session::replace_text`] gives one file a new text (and
/// [`Session::replace_texts`] several) and lints again only what that can change, with the same
/// result as a fresh run over the same texts.
///
/// A clone shares the thread pool and copies the rest: the language server keeps answering from
/// one while the other is linted again.
#[derive(Clone)]
pub struct Session {
    options: LintOptions,
    enabled: Enabled,
    rules: Vec<&'static Rule>,
    outcome: LintOutcome,
    kept: Kept,
    /// The unit each file belongs to, by file.
    unit_of: Vec<usize>,
    pool: Arc<rayon::ThreadPool>,
    /// Each unit's part of the capability inventory, kept beside its findings by a session made
    /// for `skilllint diff` ([`Session::with_inventory`]), relinted with them.
    rows: Option<Vec<UnitRows>>,
    /// The options' baseline is applied after each relint (a diff side's, as
    /// [`lint_with_inventory`] applies it; the language server's sessions never apply one).
    with_baseline: bool,
}

/// What [`Session::replace_text`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replaced {
    /// The file's unit (or, for a file other folders read, every unit) was linted again.
    Relinted,
    /// The text is the one the session already had.
    Unchanged,
    /// No file of the run has that path.
    NotInRun,
    /// The change can alter which files the run reads (the file had a read problem, or its new
    /// text makes it one skilllint does not read): lint afresh instead.
    NeedsFreshLint,
}

impl Session {
    /// Lints as [`lint`] does, keeping what later edits need.
    pub fn lint(options: &LintOptions) -> Result<Session, LintError> {
        let (enabled, pool) = prepare(options)?;
        let root = lint_root(&options.paths);
        let threads = pool.current_num_threads();
        let (outcome, kept) =
            pool.install(|| run_keeping(options, &enabled, root, threads, true))?;
        Ok(Self::new(options, enabled, outcome, kept, pool))
    }

    /// Lints as [`lint_in_memory`] does, keeping what later edits need.
    pub fn in_memory(
        options: &LintOptions,
        files: Vec<(String, String)>,
    ) -> Result<Session, LintError> {
        let enabled = resolve_selection(options)?;
        let pool = thread_pool(options)?;
        let (outcome, kept) = pool.install(|| in_memory_keeping(options, &enabled, files, true))?;
        Ok(Self::new(options, enabled, outcome, kept, pool))
    }

    /// Lints and inventories as [`lint_with_inventory`] does (its baseline applied), keeping
    /// what later edits need, each unit's inventory rows included: a diff builds its second side
    /// from its first this way when only some texts differ.
    pub(crate) fn with_inventory(
        options: &LintOptions,
        files: Files<'_>,
    ) -> Result<Session, LintError> {
        let (run, pool) = inventory_run(options, files, true)?;
        let mut session = Self::new(options, run.enabled, run.outcome, run.kept, pool);
        // The inventory's read problems are the kept ones: both are the read stage's findings.
        debug_assert_eq!(session.kept.read_problems, run.read_problems);
        session.rows = Some(run.rows);
        session.with_baseline = true;
        Ok(session)
    }

    /// The capability inventory of the session's files as they stand, when the session keeps
    /// one ([`Session::with_inventory`]).
    pub(crate) fn inventory(&self) -> Option<crate::inventory::Inventory> {
        let rows = self.rows.as_ref()?;
        Some(self.inventory_of(rows.clone()))
    }

    /// [`Session::inventory`] for the last time: the kept rows move into it (no copy of them at
    /// the peak), and the session keeps no inventory after.
    pub(crate) fn take_inventory(&mut self) -> Option<crate::inventory::Inventory> {
        let rows = self.rows.take()?;
        Some(self.inventory_of(rows))
    }

    fn inventory_of(&self, rows: Vec<UnitRows>) -> crate::inventory::Inventory {
        let outcome = &self.outcome;
        crate::inventory::Inventory::new(
            &outcome.repo,
            rows,
            &self.kept.read_problems,
            outcome.root.clone(),
        )
    }

    fn new(
        options: &LintOptions,
        enabled: Enabled,
        outcome: LintOutcome,
        kept: Option<Kept>,
        pool: rayon::ThreadPool,
    ) -> Session {
        let kept = kept.unwrap_or(Kept {
            read_problems: Vec::new(),
            units: Vec::new(),
            policies_spent: false,
        });
        let mut unit_of = vec![0; outcome.repo.files.len()];
        for (index, unit) in outcome.repo.units.iter().enumerate() {
            for file in unit.all() {
                if let Some(slot) = unit_of.get_mut(file.0 as usize) {
                    *slot = index;
                }
            }
        }
        Session {
            options: options.clone(),
            rules: enabled_rules(&enabled),
            enabled,
            outcome,
            kept,
            unit_of,
            pool: Arc::new(pool),
            rows: None,
            with_baseline: false,
        }
    }

    /// The repository and its findings as they stand.
    pub fn outcome(&self) -> &LintOutcome {
        &self.outcome
    }

    /// Whether the read stage found a problem (SL001) in `file`: its text is then one for
    /// display, not the file's.
    pub(crate) fn read_problem_in(&self, file: FileId) -> bool {
        self.kept
            .read_problems
            .iter()
            .any(|d| d.primary.file == file)
    }

    /// The options the session lints with.
    pub fn options(&self) -> &LintOptions {
        &self.options
    }

    /// Gives the file at `rel_path` the text `text` and lints again what that can change: its
    /// own unit (for a TOOL.md, DRIVER.md or SECRETS.md, which other folders read: every unit),
    /// then the repository-wide rules and triage over everything.
    pub fn replace_text(&mut self, rel_path: &str, text: String) -> Replaced {
        self.replace_texts(vec![(rel_path.to_string(), text)])
    }

    /// [`Session::replace_text`] for several files at once: each changed file's unit is linted
    /// again (every unit when one of them is a file other folders read), and the
    /// repository-wide rules and triage run once, after all of them. When any one file is not
    /// in the run or needs a fresh lint, nothing is changed and that is the answer.
    pub fn replace_texts(&mut self, changes: Vec<(String, String)>) -> Replaced {
        let repo = &self.outcome.repo;
        let mut changed = Vec::with_capacity(changes.len());
        for (rel_path, text) in changes {
            let Some(id) = repo.file_by_path(&rel_path) else {
                return Replaced::NotInRun;
            };
            if repo.text(id) == text {
                continue;
            }
            let kind = repo.parsed(id).kind();
            let had_problem =
                matches!(repo.parsed(id), Parsed::Unreadable(_)) || self.read_problem_in(id);
            if had_problem
                || self.kept.policies_spent
                || crate::discover::not_read_reason(kind, &text).is_some()
            {
                return Replaced::NeedsFreshLint;
            }
            changed.push((id, kind, text));
        }
        if changed.is_empty() {
            return Replaced::Unchanged;
        }
        let repo = &mut self.outcome.repo;
        let mut everywhere = false;
        let mut units = Vec::with_capacity(changed.len());
        for (id, kind, text) in changed {
            let index = id.0 as usize;
            repo.files[index].text = text;
            if kind.parsed_up_front() {
                everywhere = true;
                repo.parsed[index] =
                    parse_up_front(kind, &repo.files[index], repo.reference_root.as_deref());
            }
            units.extend(self.unit_of.get(index).copied());
        }
        if everywhere {
            repo.contracts = ContractIndex::build(&repo.parsed);
            units = (0..repo.units.len()).collect();
        }
        units.sort_unstable();
        units.dedup();
        let repo = &self.outcome.repo;
        let (rules, options) = (&self.rules, &self.options);
        let (enabled, kept, rows) = (&self.enabled, &mut self.kept, &mut self.rows);
        let keeps_rows = rows.is_some();
        let ((), spent) = with_unit_run(options, enabled, repo, rules, |run| {
            // Each unit again, with its inventory rows when the session keeps them.
            let check = |unit: usize| {
                let files = repo.units.get(unit)?;
                Some(if keeps_rows {
                    let (outcome, rows) =
                        check_unit_and(repo, files, run, crate::inventory::unit_inventory);
                    (outcome, Some(rows))
                } else {
                    (check_unit(repo, files, run), None)
                })
            };
            let checked: Vec<(usize, Option<Rechecked>)> = self
                .pool
                .install(|| units.par_iter().map(|unit| (*unit, check(*unit))).collect());
            for (unit, result) in checked {
                let Some((outcome, unit_rows)) = result else {
                    continue;
                };
                if let Some(slot) = kept.units.get_mut(unit) {
                    *slot = outcome;
                }
                if let (Some(rows), Some(unit_rows)) = (rows.as_mut(), unit_rows) {
                    if let Some(slot) = rows.get_mut(unit) {
                        *slot = unit_rows;
                    }
                }
            }
        });
        // Over the budget, some units' policies did not run: a whole lint reports that as a
        // run does.
        if spent.is_some() {
            return Replaced::NeedsFreshLint;
        }
        let (diagnostics, suppressed, suppression_comments) = self.pool.install(|| {
            conclude(
                options,
                &self.enabled,
                repo,
                rules,
                self.kept.read_problems.clone(),
                self.kept.units.clone(),
            )
        });
        self.outcome.diagnostics = diagnostics;
        self.outcome.suppressed = suppressed;
        self.outcome.suppression_comments = suppression_comments;
        if let (true, Some(baseline)) = (self.with_baseline, &self.options.baseline) {
            apply_baseline(&self.options, &self.enabled, &mut self.outcome, baseline);
        }
        Replaced::Relinted
    }
}

/// Parses one read file when its kind is parsed up front. Unreadable input yields an SL001
/// diagnostic, never an abort.
fn load(
    id: FileId,
    file: Discovered,
    read: Result<String, ReadProblem>,
    reference_root: Option<&Path>,
) -> (SourceFile, ParsedOrProblem) {
    let mut source = SourceFile {
        rel_path: file.rel_path,
        abs_path: file.abs_path,
        text: String::new(),
    };
    match read {
        Ok(text) => source.text = text,
        Err(problem) => {
            let diagnostic = catalog().get(problem.code).map(|meta| {
                let mut diagnostic =
                    Diagnostic::new(meta.code, meta.severity, id, problem.span, problem.message);
                if !problem.span.is_empty() {
                    diagnostic.label("not valid UTF-8");
                }
                Box::new(diagnostic)
            });
            source.text = problem.display_text;
            return (source, (Parsed::Unreadable(file.kind), diagnostic));
        }
    }
    let parsed = parse_up_front(file.kind, &source, reference_root);
    (source, (parsed, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(select: &[&str]) -> LintOptions {
        LintOptions {
            select: select.iter().map(|s| s.to_string()).collect(),
            threads: Some(2),
            ..LintOptions::default()
        }
    }

    #[test]
    fn a_prose_secrets_file_is_not_read_and_says_so_only_when_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        let prose = dir.path().join("docs/SECRETS.md");
        let manifest = dir.path().join("SECRETS.md");
        std::fs::create_dir_all(dir.path().join("docs")).expect("folder");
        std::fs::write(&prose, "# Secrets checklist\n\n- [ ] rotate keys\n").expect("file");
        std::fs::write(&manifest, "---\nsecrets: []\n---\n").expect("file");
        let lint_paths = |paths: Vec<PathBuf>| {
            let options = LintOptions {
                paths,
                ..options(&["ALL"])
            };
            lint(&options).expect("lints")
        };

        let walked = lint_paths(vec![dir.path().to_path_buf()]);
        let read: Vec<&str> = walked
            .repo
            .files
            .iter()
            .map(|f| f.rel_path.as_str())
            .collect();
        assert_eq!(read, ["SECRETS.md"]);
        assert!(walked
            .diagnostics
            .iter()
            .all(|d| d.primary.file == FileId(0)));

        let named = lint_paths(vec![prose.clone()]);
        let found: Vec<(&str, &str)> = named
            .diagnostics
            .iter()
            .map(|d| (d.code, d.message.as_str()))
            .collect();
        assert_eq!(found, [("SL004", crate::discover::PROSE_SECRETS_NOT_READ)]);
        assert_eq!(named.repo.files.len(), 1);
    }

    #[test]
    fn cross_folder_rules_see_contracts_while_folder_parses_are_dropped() {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/XC003/fires");
        let mut options = options(&["XC003"]);
        options.paths = vec![fixture.clone()];
        let outcome = lint(&options).expect("the fixture lints");
        let tools = outcome
            .repo
            .file_by_path("calendar/tools.json")
            .expect("tools.json is in the run");
        let contract = outcome
            .repo
            .file_by_path(".tools/list-events/TOOL.md")
            .expect("TOOL.md is in the run");
        // XC003 links calendar/tools.json to a contract in another folder...
        assert!(
            outcome
                .diagnostics
                .iter()
                .any(|d| d.code == "XC003" && d.primary.file == tools),
            "{:?}",
            outcome.diagnostics
        );
        // ...although only the contract stayed parsed after the units were checked.
        assert!(matches!(
            outcome.repo.parsed(tools),
            Parsed::Pending(FileKind::Tools { by_content: false })
        ));
        assert!(matches!(outcome.repo.parsed(contract), Parsed::Contract(_)));
    }

    #[test]
    fn suppressions_are_read_from_every_file_of_a_folder() {
        // `skill.md` beside `SKILL.md` plays no role in its unit; its comments still count.
        let skill = "---\nname: a\ndescription: Does a. Use when asked.\n---\n\nBody.\n";
        let files = vec![
            ("a/SKILL.md".to_string(), skill.to_string()),
            (
                "a/skill.md".to_string(),
                format!("{skill}<!-- skilllint-disable-next-line -->\n"),
            ),
        ];
        let outcome = lint_in_memory(&options(&["SL003"]), files).expect("lints");
        let second = outcome.repo.file_by_path("a/skill.md").expect("in the run");
        assert_eq!(
            outcome
                .diagnostics
                .iter()
                .map(|d| (d.code, d.primary.file))
                .collect::<Vec<_>>(),
            vec![("SL003", second)]
        );
    }

    /// The files of a fixture folder, as (path relative to it, text).
    fn fixture_texts(dir: &Path) -> Vec<(String, String)> {
        let mut pending = vec![dir.to_path_buf()];
        let mut files = Vec::new();
        while let Some(path) = pending.pop() {
            if path.is_dir() {
                let entries = std::fs::read_dir(&path).expect("fixture folder is readable");
                pending.extend(entries.flatten().map(|e| e.path()));
            } else if let (Ok(text), Ok(rel)) =
                (std::fs::read_to_string(&path), path.strip_prefix(dir))
            {
                files.push((rel.to_string_lossy().replace('\\', "/"), text));
            }
        }
        files.sort();
        files
    }

    /// A fixture's files as (relative path, text).
    type Texts = Vec<(String, String)>;

    /// Each rule's fixture folder, with the texts of its firing and its clean fixture.
    fn rule_fixtures() -> Vec<(PathBuf, Texts, Texts)> {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut rules: Vec<PathBuf> = std::fs::read_dir(&fixtures)
            .expect("fixtures")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        rules.sort();
        rules
            .into_iter()
            .map(|rule| {
                let fires = fixture_texts(&rule.join("fires"));
                let clean = fixture_texts(&rule.join("clean"));
                (rule, fires, clean)
            })
            .collect()
    }

    #[test]
    fn a_session_after_edits_finds_what_a_fresh_lint_of_the_same_texts_finds() {
        let options = options(&["ALL"]);
        let mut relinted = 0;
        for (rule, fires, clean) in rule_fixtures() {
            // Each file of the firing fixture in turn becomes its clean version (or, without one,
            // loses its second half), then the next one on top, and so on.
            let mut current = fires.clone();
            let Ok(mut session) = Session::in_memory(&options, current.clone()) else {
                panic!("{} lints", rule.display());
            };
            for index in 0..fires.len() {
                let rel = current[index].0.clone();
                let text = match clean.iter().find(|(path, _)| *path == rel) {
                    Some((_, text)) => text.clone(),
                    None => {
                        let text = &current[index].1;
                        let half = crate::source::clamp_to_char_boundary(text, text.len() / 2);
                        text[..half].to_string()
                    }
                };
                current[index].1 = text.clone();
                match session.replace_text(&rel, text) {
                    Replaced::Relinted => relinted += 1,
                    Replaced::Unchanged | Replaced::NotInRun => {}
                    Replaced::NeedsFreshLint => {
                        session = Session::in_memory(&options, current.clone()).expect("lints");
                    }
                }
                let fresh = lint_in_memory(&options, current.clone()).expect("lints");
                let kept = session.outcome();
                assert_eq!(
                    kept.diagnostics,
                    fresh.diagnostics,
                    "{} after editing {rel}",
                    rule.display()
                );
                assert_eq!(
                    kept.suppressed,
                    fresh.suppressed,
                    "{} after editing {rel}",
                    rule.display()
                );
                let texts: Vec<&str> = kept.repo.files.iter().map(|f| f.text.as_str()).collect();
                let fresh_texts: Vec<&str> =
                    fresh.repo.files.iter().map(|f| f.text.as_str()).collect();
                assert_eq!(texts, fresh_texts);
            }
        }
        // The edits went through the incremental path, not only through fresh lints.
        assert!(relinted > 100, "{relinted} edits relinted in place");
    }

    #[test]
    fn a_session_after_a_batch_of_edits_finds_what_a_fresh_lint_of_the_same_texts_finds() {
        // Every file of each firing fixture that has a clean version takes it, all in one
        // `replace_texts`: the units of several folders (and, with a contract among them, every
        // unit) linted again, the repository-wide rules once.
        let options = options(&["ALL"]);
        let mut several = 0;
        for (rule, fires, clean) in rule_fixtures() {
            let edits: Vec<(String, String)> = clean
                .iter()
                .filter(|(path, text)| fires.iter().any(|(p, t)| p == path && t != text))
                .cloned()
                .collect();
            let after: Vec<(String, String)> = fires
                .iter()
                .map(|(path, text)| match edits.iter().find(|(p, _)| p == path) {
                    Some(edit) => edit.clone(),
                    None => (path.clone(), text.clone()),
                })
                .collect();
            let Ok(mut session) = Session::in_memory(&options, fires.clone()) else {
                panic!("{} lints", rule.display());
            };
            let count = edits.len();
            match session.replace_texts(edits) {
                Replaced::Relinted => several += usize::from(count > 1),
                Replaced::Unchanged | Replaced::NotInRun => {}
                Replaced::NeedsFreshLint => continue,
            }
            let fresh = lint_in_memory(&options, after).expect("lints");
            let kept = session.outcome();
            assert_eq!(kept.diagnostics, fresh.diagnostics, "{}", rule.display());
            assert_eq!(kept.suppressed, fresh.suppressed, "{}", rule.display());
        }
        // Batches of more than one file went through the incremental path.
        assert!(several > 5, "{several} batches relinted in place");
    }

    #[test]
    fn a_rule_that_panics_on_an_edited_file_is_sl900_there_and_the_others_still_run() {
        let skill = "---\nname: a\ndescription: Does a. Use when asked.\n---\n\n# A\n";
        let files = vec![
            ("a/SKILL.md".to_string(), skill.to_string()),
            (
                "b/SKILL.md".to_string(),
                skill.replace("name: a", "name: b"),
            ),
        ];
        let options = LintOptions {
            panic_in_rule: Some("SK006".to_string()),
            ..options(&["ALL"])
        };
        let mut session = Session::in_memory(&options, files).expect("lints");
        // `b` takes the name `a` as well: SK014 (repository-wide) now reports the duplicate.
        let edited = skill.to_string();
        assert_eq!(
            session.replace_text("b/SKILL.md", edited),
            Replaced::Relinted
        );
        let outcome = session.outcome();
        let b = outcome.repo.file_by_path("b/SKILL.md").expect("in the run");
        let crashed = |d: &Diagnostic| d.code == "SL900" && d.primary.file == b;
        assert!(
            outcome.diagnostics.iter().any(crashed),
            "{:?}",
            outcome.diagnostics
        );
        assert!(
            outcome.diagnostics.iter().any(|d| d.code == "SK014"),
            "{:?}",
            outcome.diagnostics
        );
    }
}
