//! walk → read & parse → index → check → triage. Everything a run does, without any output.

use crate::catalog::catalog;
use crate::check::{Check, Registry, Rule, Sink};
use crate::diagnostic::{Diagnostic, Suppressed};
use crate::discover::GlobFilter;
use crate::discover::{discover, Discovered};
use crate::index::{ContractIndex, Parsed, Repo, Settings, SkillName, UnitFiles};
use crate::model::requirement::parse_requirement;
use crate::model::skill::{find_broken_references, parse_markdown_doc, SkillDoc};
use crate::model::tools::parse_tools;
use crate::model::FileKind;
use crate::read::{read_text, ReadProblem};
use crate::source::{FileId, SourceFile, Span};
use crate::triage::selection::{resolve, Enabled};
use crate::triage::suppress::{self, Malformed, Suppression};
use crate::triage::{self, Policy};
use rayon::prelude::*;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

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
    /// Makes the named rule panic, so tests can observe SL900 end to end.
    #[doc(hidden)]
    pub panic_in_rule: Option<String>,
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
            per_file_ignores: Vec::new(),
            severity: BTreeMap::new(),
            inline_ignores: true,
            overlay: std::sync::Arc::new(HashMap::new()),
            panic_in_rule: None,
        }
    }
}

#[derive(Debug)]
pub enum LintError {
    NoSuchPath(PathBuf),
    Selector(String),
    ThreadPool(String),
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
        }
    }
}

impl std::error::Error for LintError {}

pub struct LintOutcome {
    pub repo: Repo,
    /// Sorted by path, offset, code; only enabled rules.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings silenced by inline comments (kept for SARIF), in the same order.
    pub suppressed: Vec<Suppressed>,
    pub root: PathBuf,
}

/// The folder paths are reported relative to: a single directory argument, else the current folder.
pub fn lint_root(paths: &[PathBuf]) -> PathBuf {
    match paths {
        [only] if only.is_dir() => only.clone(),
        _ => PathBuf::from("."),
    }
}

pub fn lint(options: &LintOptions) -> Result<LintOutcome, LintError> {
    for path in &options.paths {
        if !path.exists() {
            return Err(LintError::NoSuchPath(path.clone()));
        }
    }
    let catalog = catalog();
    let enabled =
        resolve(catalog, &options.select, &options.ignore).map_err(LintError::Selector)?;
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| LintError::ThreadPool(e.to_string()))?;
    let root = lint_root(&options.paths);
    pool.install(|| run(options, &enabled, root, threads))
}

/// A parsed file and the read problem (SL001) found instead, if any.
type ParsedOrProblem = (Parsed, Option<Box<Diagnostic>>);

fn run(
    options: &LintOptions,
    enabled: &Enabled,
    root: PathBuf,
    threads: usize,
) -> Result<LintOutcome, LintError> {
    let paths = with_skill_siblings(&options.paths, &options.requirement_files);
    let base = options.glob_base.clone().unwrap_or_else(|| root.clone());
    let exclude = GlobFilter::new(&base, &root, &options.exclude)
        .and_then(|filter| filter.and(Path::new("."), &root, &options.exclude_here))
        .map_err(LintError::Selector)?;
    let overlay = options.overlay.as_ref();
    let mut discovered = discover(
        &root,
        &paths,
        &options.requirement_files,
        threads,
        &exclude,
        |file| read(file, options.max_file_size, overlay),
    );
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
                message: reason.to_string(),
                span: Span::empty(0),
                display_text: String::new(),
            });
        }
        named
    });
    // Unzipped straight into the two vectors the repository keeps (no third copy of every
    // parsed file at the peak); the rare read problem is boxed so it costs a pointer per file.
    let (files, loaded): (Vec<SourceFile>, Vec<ParsedOrProblem>) = discovered
        .into_par_iter()
        // The files parsed here (TOOL.md, DRIVER.md, ...) sort together, often all at the start:
        // small pieces let both threads share them instead of one taking the first half.
        .with_max_len(64)
        .enumerate()
        .map(|(index, (file, read))| load(FileId(index as u32), file, read))
        .unzip();
    let mut diagnostics = Vec::new();
    let parsed = loaded
        .into_iter()
        .map(|(parsed, problem)| {
            diagnostics.extend(problem.map(|d| *d));
            parsed
        })
        .collect();
    let root = LintRoot {
        looked_up: root.canonicalize().ok(),
        path: root,
    };
    analyse(options, enabled, files, parsed, diagnostics, root, &base)
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
    let catalog = catalog();
    let enabled =
        resolve(catalog, &options.select, &options.ignore).map_err(LintError::Selector)?;
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
        parsed.push(parse_up_front(kind, &source));
        sources.push(source);
    }
    let root = PathBuf::from(".");
    analyse(
        options,
        &enabled,
        sources,
        parsed,
        Vec::new(),
        LintRoot {
            path: root.clone(),
            looked_up: None,
        },
        &root,
    )
}

/// What checking one unit leaves behind once its parses are dropped.
#[derive(Default)]
struct UnitOutcome {
    diagnostics: Vec<Diagnostic>,
    skill_name: Option<SkillName>,
    /// By file, for the folder's files that have suppression comments.
    suppressions: Vec<(FileId, Vec<Suppression>, Vec<Malformed>)>,
}

/// index → check → triage, for files already read (and, for the kinds other folders refer to,
/// parsed).
fn analyse(
    options: &LintOptions,
    enabled: &Enabled,
    files: Vec<SourceFile>,
    parsed: Vec<Parsed>,
    mut diagnostics: Vec<Diagnostic>,
    root: LintRoot,
    base: &Path,
) -> Result<LintOutcome, LintError> {
    let LintRoot {
        path: root,
        looked_up: reference_root,
    } = root;
    // Built before any rule runs: a rule that leaves a finding to another asks it whether that
    // rule reports in the finding's file.
    let reporting = triage::reporting(enabled, base, &root, &options.per_file_ignores)
        .map_err(LintError::Selector)?;
    let units = build_units(&files, &parsed);
    let contracts = ContractIndex::build(&parsed);
    let mut repo = Repo {
        files,
        parsed,
        units,
        contracts,
        settings: options.settings.clone(),
        skill_names: Vec::new(),
        reporting,
        reference_root,
    };

    let rules: Vec<&Rule> = registry()
        .rules
        .iter()
        .filter(|r| enabled.contains(r.meta.code))
        .collect();
    let panic_in = options.panic_in_rule.as_deref();
    // Unit by unit: parse the folder's own files, run every unit rule, collect what the
    // repository-wide rules and the suppressions need, and drop the parses before the next
    // unit, so the same memory serves unit after unit.
    let outcomes: Vec<UnitOutcome> = repo
        .units
        .par_iter()
        .map(|files| check_unit(&repo, files, &rules, panic_in, options.inline_ignores))
        .collect();
    let mut suppressions = Vec::new();
    let mut malformed = Vec::new();
    let mut per_file = Vec::new();
    diagnostics.reserve(outcomes.iter().map(|o| o.diagnostics.len()).sum());
    repo.skill_names.reserve(outcomes.len());
    for outcome in outcomes {
        diagnostics.extend(outcome.diagnostics);
        repo.skill_names.extend(outcome.skill_name);
        per_file.extend(outcome.suppressions);
    }
    repo.skill_names.sort_by_key(|name| name.file);
    per_file.sort_by_key(|(file, _, _)| *file);
    for (_, found, broken) in per_file {
        suppressions.extend(found);
        malformed.extend(broken);
    }
    // The repository-wide rules are few and read only what is left: the up-front parses and
    // the skills' names.
    for rule in &rules {
        if let Check::Repo(check) = rule.check {
            diagnostics.extend(guarded(rule, None, panic_in, |sink| check(&repo, sink)));
        }
    }

    let policy = Policy {
        enabled,
        severity: &options.severity,
        inline_ignores: options.inline_ignores,
    };
    let (diagnostics, suppressed) =
        triage::apply(diagnostics, &repo, &policy, &suppressions, malformed);
    Ok(LintOutcome {
        repo,
        diagnostics,
        suppressed,
        root,
    })
}

/// Parses a unit's own files, runs the unit rules on them and keeps what outlives the parses.
fn check_unit(
    repo: &Repo,
    files: &UnitFiles,
    rules: &[&Rule],
    panic_in: Option<&str>,
    inline_ignores: bool,
) -> UnitOutcome {
    let members = files.all();
    let local: Vec<(FileId, Parsed)> = members
        .iter()
        .filter_map(|id| parse_pending(repo, *id).map(|parsed| (*id, parsed)))
        .collect();
    let view = crate::index::UnitView {
        repo,
        files,
        local: &local,
    };
    // The unit's shared facts and editable JSON views live as long as its parses, no longer.
    let facts = crate::semantic::UnitFacts::default();
    let json_texts = crate::check::JsonTexts::default();
    let unit = crate::check::Unit::new(view, &facts, &json_texts);
    let primary = files.primary_file();
    let mut outcome = UnitOutcome::default();
    for rule in rules {
        if let Check::Unit(check) = rule.check {
            outcome
                .diagnostics
                .extend(guarded(rule, primary, panic_in, |sink| check(&unit, sink)));
        }
    }
    outcome.skill_name = crate::semantic::skill_names::skill_name(&unit);
    if inline_ignores {
        for id in members {
            let (found, broken) = suppress::collect_file(id, repo.text(id), unit.parsed(id));
            if !found.is_empty() || !broken.is_empty() {
                outcome.suppressions.push((id, found, broken));
            }
        }
    }
    outcome
}

/// A file named on the command line is read together with the files of its skill folder, so that
/// cross-file rules see the same contract as a full run would.
fn with_skill_siblings(paths: &[PathBuf], requirement_files: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        out.push(path.clone());
        // Only a file skilllint reads needs its folder's context; anything else named is reported
        // on its own.
        let read = || {
            crate::discover::classify(
                &crate::discover::relative_path(Path::new("."), path),
                requirement_files,
            )
            .is_some()
        };
        if path.is_file() && read() {
            let dir = crate::source::folder_of(path);
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut siblings: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                // A linked sibling is taken when it leads to a file (discovery then checks where
                // it leads); a link to a folder is never walked from here.
                .filter(|e| {
                    e.file_type()
                        .is_ok_and(|t| t.is_file() || (t.is_symlink() && e.path().is_file()))
                })
                .filter(|e| {
                    let sibling = e.path();
                    crate::discover::classify(
                        &crate::discover::relative_path(Path::new("."), &sibling),
                        requirement_files,
                    )
                    .is_some()
                })
                .map(|e| e.path())
                .filter(|p| p != path)
                .collect();
            siblings.sort();
            out.extend(siblings);
        }
    }
    out
}

thread_local! {
    static IN_RULE: Cell<bool> = const { Cell::new(false) };
}

/// Keeps the default panic message for real crashes but silences panics caught inside rules,
/// which are reported as SL900 instead.
fn install_panic_hook() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_RULE.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

fn guarded(
    rule: &Rule,
    file: Option<FileId>,
    panic_in: Option<&str>,
    check: impl FnOnce(&mut Sink),
) -> Vec<Diagnostic> {
    install_panic_hook();
    let mut sink = Sink::new(rule.meta);
    IN_RULE.with(|f| f.set(true));
    let result = catch_unwind(AssertUnwindSafe(|| {
        if panic_in == Some(rule.meta.code) {
            panic!("panic injected into {} for testing", rule.meta.code);
        }
        check(&mut sink)
    }));
    IN_RULE.with(|f| f.set(false));
    match result {
        Ok(()) => sink.finish(),
        Err(payload) => {
            let reason = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            let Some(meta) = catalog().get("SL900") else {
                return Vec::new();
            };
            let file = file.unwrap_or(FileId(0));
            vec![Diagnostic::new(
                meta.code,
                meta.severity,
                file,
                Span::empty(0),
                format!(
                    "rule {} [{}] crashed on this file; other rules still ran",
                    rule.meta.code, rule.meta.name
                ),
            )
            .with_help(format!(
                "internal error: {reason}. Please report this as a skilllint bug."
            ))]
        }
    }
}

/// Reads one discovered file (or takes its text from the overlay).
fn read(
    file: &Discovered,
    max_size: u64,
    overlay: &HashMap<PathBuf, String>,
) -> Result<String, ReadProblem> {
    match (&file.problem, overlay.get(&file.abs_path)) {
        (Some(problem), _) => Err(ReadProblem {
            message: problem.clone(),
            span: Span::empty(0),
            display_text: String::new(),
        }),
        (None, Some(text)) => Ok(text.clone()),
        (None, None) => read_text(&file.abs_path, max_size),
    }
}

/// Parses one read file when its kind is parsed up front. Unreadable input yields an SL001
/// diagnostic, never an abort.
fn load(
    id: FileId,
    file: Discovered,
    read: Result<String, ReadProblem>,
) -> (SourceFile, ParsedOrProblem) {
    let mut source = SourceFile {
        rel_path: file.rel_path,
        abs_path: file.abs_path,
        text: String::new(),
    };
    match read {
        Ok(text) => source.text = text,
        Err(problem) => {
            let diagnostic = catalog().get("SL001").map(|meta| {
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
    let parsed = parse_up_front(file.kind, &source);
    (source, (parsed, None))
}

/// The parse of a file the repository holds as [`Parsed::Pending`]; `None` for the others.
pub(crate) fn parse_pending(repo: &Repo, id: FileId) -> Option<Parsed> {
    match repo.parsed(id) {
        Parsed::Pending(kind) => Some(parse_file(
            *kind,
            repo.file(id),
            repo.reference_root.as_deref(),
        )),
        _ => None,
    }
}

/// Parses the kinds other folders refer to; leaves the rest [`Parsed::Pending`] for their unit.
fn parse_up_front(kind: FileKind, source: &SourceFile) -> Parsed {
    if kind.parsed_up_front() {
        // No kind parsed up front checks links.
        parse_file(kind, source, None)
    } else {
        Parsed::Pending(kind)
    }
}

/// Parses one file's text according to its kind. `reference_root`: the canonical lint root, inside
/// which a skill's links are looked up (`None`: they are not).
pub fn parse_file(kind: FileKind, source: &SourceFile, reference_root: Option<&Path>) -> Parsed {
    match kind {
        FileKind::Skill { lowercase } => {
            let doc = parse_markdown_doc(&source.text);
            let dir = crate::source::folder_of(&source.abs_path);
            Parsed::Skill(Box::new(SkillDoc {
                broken_references: find_broken_references(&doc.body, dir, reference_root),
                folder_name: folder_name(dir),
                doc,
                lowercase_file_name: lowercase,
            }))
        }
        FileKind::Tools => Parsed::Tools(Box::new(parse_tools(&source.text))),
        FileKind::Requirement => Parsed::Requirement(Box::new(parse_requirement(&source.text))),
        FileKind::Contract => Parsed::Contract(Box::new(parse_markdown_doc(&source.text))),
        FileKind::Driver { cli } => Parsed::Driver {
            doc: Box::new(parse_markdown_doc(&source.text)),
            cli,
        },
        FileKind::Secrets => Parsed::Secrets(Box::new(parse_markdown_doc(&source.text))),
        FileKind::Unfollowed => Parsed::Unreadable(kind),
    }
}

/// The folder's own name, resolving `.` and `..` (a skill at the lint root is named after it).
fn folder_name(dir: &Path) -> String {
    let named = dir.file_name().filter(|_| {
        !matches!(
            dir.components().next_back(),
            Some(std::path::Component::ParentDir)
        )
    });
    match named {
        Some(name) => name.to_string_lossy().into_owned(),
        None => dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default(),
    }
}

fn build_units(files: &[SourceFile], parsed: &[Parsed]) -> Vec<UnitFiles> {
    // Sized for the worst case (a folder per file): memory reserved but never written costs
    // nothing, while growing by doubling copies every unit and touches fresh pages each time.
    let mut units: Vec<UnitFiles> = Vec::with_capacity(files.len());
    // Files arrive sorted by path, and the paths under a folder sort into one run, where the
    // folder's own files mix only with its subfolders' files. So the folders enclosing the last
    // file (outermost first, each with its unit) are the only ones a later file can be in.
    let mut open: Vec<(&str, usize)> = Vec::new();
    let encloses = |outer: &str, dir: &str| {
        outer.is_empty()
            || dir
                .strip_prefix(outer)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    for (index, (file, model)) in files.iter().zip(parsed).enumerate() {
        let id = FileId(index as u32);
        let (dir, name) = crate::source::split_path(&file.rel_path);
        while open.last().is_some_and(|(outer, _)| !encloses(outer, dir)) {
            open.pop();
        }
        let slot = match open.last() {
            Some((outer, slot)) if *outer == dir => *slot,
            _ => {
                units.push(UnitFiles {
                    dir: dir.to_string(),
                    ..UnitFiles::default()
                });
                open.push((dir, units.len() - 1));
                units.len() - 1
            }
        };
        let unit = &mut units[slot];
        let role = match model.kind() {
            FileKind::Skill { .. } => &mut unit.skill,
            FileKind::Tools => {
                if name == "tools.json" {
                    unit.tools.insert(0, id);
                } else {
                    unit.tools.push(id);
                }
                continue;
            }
            FileKind::Requirement => &mut unit.requirement,
            FileKind::Contract => &mut unit.contract,
            FileKind::Driver { .. } => {
                unit.drivers.push(id);
                continue;
            }
            FileKind::Secrets => &mut unit.secrets,
            FileKind::Unfollowed => {
                unit.others.push(id);
                continue;
            }
        };
        // The first file of a role takes it (`SKILL.md` before `skill.md`).
        if role.is_none() {
            *role = Some(id);
        } else {
            unit.others.push(id);
        }
    }
    units.sort_unstable_by(|a, b| a.dir.cmp(&b.dir));
    units
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
        assert_eq!(found, [("SL001", crate::discover::PROSE_SECRETS_NOT_READ)]);
        assert_eq!(named.repo.files.len(), 1);
    }

    #[test]
    fn units_gather_a_folders_files_between_its_subfolders_files() {
        // Sorted by path, as the engine hands them over: `a`'s files sit on both sides of
        // `a/b`'s, and `a.b` and `a-b` sort around `a/` as byte order has it.
        let mut paths = vec![
            "SKILL.md",
            "a-b/SKILL.md",
            "a.b/tools.json",
            "a/SKILL.md",
            "a/b/SKILL.md",
            "a/b/c/tools.json",
            "a/b/tools.json",
            "a/requirement.yaml",
            "a/tools.json",
            "a0/SKILL.md",
            "tools.json",
        ];
        paths.sort();
        let files: Vec<SourceFile> = paths
            .iter()
            .map(|p| SourceFile {
                rel_path: p.to_string(),
                abs_path: PathBuf::from(p),
                text: String::new(),
            })
            .collect();
        let parsed: Vec<Parsed> = paths
            .iter()
            .map(|p| {
                let kind = crate::discover::classify(p, &["requirement.yaml".to_string()]);
                Parsed::Pending(kind.expect("a known file name"))
            })
            .collect();
        let grouped: Vec<(String, Vec<&str>)> = build_units(&files, &parsed)
            .iter()
            .map(|unit| {
                let members = unit.all().iter().map(|id| paths[id.0 as usize]).collect();
                (unit.dir.clone(), members)
            })
            .collect();
        let expected: Vec<(String, Vec<&str>)> = vec![
            ("".into(), vec!["SKILL.md", "tools.json"]),
            (
                "a".into(),
                vec!["a/SKILL.md", "a/requirement.yaml", "a/tools.json"],
            ),
            ("a-b".into(), vec!["a-b/SKILL.md"]),
            ("a.b".into(), vec!["a.b/tools.json"]),
            ("a/b".into(), vec!["a/b/SKILL.md", "a/b/tools.json"]),
            ("a/b/c".into(), vec!["a/b/c/tools.json"]),
            ("a0".into(), vec!["a0/SKILL.md"]),
        ];
        assert_eq!(grouped, expected);
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
            Parsed::Pending(FileKind::Tools)
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
}
