//! The read stage of a run: discovery (the walk of the paths, or a listing's entries through the
//! same decisions), bounded reads, and the up-front parses of the kinds other folders refer to;
//! what the skills around them hold for SK022 and SK023; and the in-memory files of a run
//! without a file system.

use super::LintError;
use crate::catalog::catalog;
use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::discover::{discover, Discovered, GlobFilter};
use crate::model::{parse_up_front, FileKind, Parsed};
use crate::parse::code::Context;
use crate::read::{read_discovered, ReadProblem};
use crate::settings::LintOptions;
use crate::source::{FileId, SourceFile, Span};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

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

/// A parsed file and the read problem (SL001) found instead, if any.
type ParsedOrProblem = (Parsed, Option<Box<Diagnostic>>);

/// What discovery and reading leave for the index: the files, their up-front parses, the read
/// problems (SL001), and where paths are reported from.
pub(super) struct ReadFiles {
    pub(super) files: Vec<SourceFile>,
    pub(super) parsed: Vec<Parsed>,
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) root: LintRoot,
    pub(super) base: PathBuf,
    pub(super) excluded_named: Vec<PathBuf>,
    /// What `exclude` passed over ([`LintOutcome::excluded`]).
    pub(super) excluded: Vec<String>,
    pub(super) bundle: Bundle,
    /// Files found by the walk that hold what look like tools but are not read, with why
    /// ([`crate::discover::unread_tools_note`]): `skilllint tools` lists them.
    pub(super) unread_tools: Vec<(String, &'static str)>,
    /// The configurations below the root, each governing its folder
    /// ([`crate::settings::ScopedConfig`]).
    pub(super) scoped: Vec<crate::settings::ScopedConfig>,
}

/// What the read stage found beyond each file: around the skills, for SK022 and SK023, the
/// archives and executables nothing names and the broken links of the Markdown files skills
/// link to; among the source files, the tool wrappers the project declares.
pub(super) type Bundle = (
    Vec<crate::model::bundle::BundledFile>,
    Vec<crate::model::skill::LinkedBroken>,
    crate::parse::code::Context,
);

/// discover → read → parse up front, for the paths of `options`.
pub(super) fn read_files(
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
    // A widened run walks the whole project, and the paths named as named paths are walked (an
    // excluded or ignored one is read all the same); the project's walk passes those folders.
    let mut walked_apart = Vec::new();
    if options.project_root.is_some() {
        walked_apart = named.iter().filter(|path| path.is_dir()).cloned().collect();
        named.insert(0, root.clone());
    }
    let paths = crate::discover::with_skill_siblings(&named, &options.requirement_files);
    let overlay = options.overlay.as_ref();
    let walked = discover(
        &root,
        &paths,
        &options.requirement_files,
        options.source,
        threads,
        &exclude,
        &include,
        &walked_apart,
        |file| read_discovered(file, options.max_file_size, overlay),
    );
    let (mut discovered, opaque, mut excluded) = (walked.files, walked.opaque, walked.passed_over);
    let scoped = if options.nested_configs {
        scoped_configs(options, &walked.configs)?
    } else {
        Vec::new()
    };
    exclude_scoped(options, &root, &scoped, &mut discovered, &mut excluded)?;
    let looked_up = root.canonicalize().ok();
    let mut read = read_found(options, discovered, opaque, root, looked_up);
    read.base = base;
    read.excluded_named = excluded_named;
    read.excluded = excluded;
    read.scoped = scoped;
    Ok(read)
}

/// The configuration files the walk met below the root, read and validated: the first name of
/// [`crate::config::CONFIG_NAMES`] in a folder that is a file to read (a link that leaves its
/// folder is refused as the run's own would be). The root's own, and the run's configuration,
/// are not among them: they are the run's.
fn scoped_configs(
    options: &LintOptions,
    found: &[(String, PathBuf)],
) -> Result<Vec<crate::settings::ScopedConfig>, LintError> {
    use crate::config::{check_candidate, CONFIG_NAMES};
    let run_config = options
        .config_file
        .as_ref()
        .and_then(|path| path.canonicalize().ok());
    let mut folders: std::collections::BTreeMap<&str, Vec<&PathBuf>> = Default::default();
    for (rel_path, path) in found {
        let (folder, _) = crate::source::split_path(rel_path);
        if !folder.is_empty() {
            folders.entry(folder).or_default().push(path);
        }
    }
    let mut scoped = Vec::new();
    for (folder, paths) in folders {
        let Some(dir) = paths
            .first()
            .and_then(|path| crate::source::folder_of(path).canonicalize().ok())
        else {
            continue;
        };
        for name in CONFIG_NAMES {
            let Some(path) = paths.iter().find(|p| p.file_name() == Some(name.as_ref())) else {
                continue;
            };
            if !check_candidate(&dir, path).map_err(LintError::Config)? {
                continue;
            }
            if run_config.is_some() && path.canonicalize().ok() == run_config {
                // The run's own configuration, found again below the root it was widened to:
                // it governs its folder as it governs the run.
                scoped.push(crate::settings::ScopedConfig::of_run(
                    folder.to_string(),
                    options,
                ));
                break;
            }
            let path = crate::source::without_cur_dir(path);
            let config = load_scoped(options, &path, &dir)?;
            scoped.push(crate::settings::ScopedConfig::new(
                folder.to_string(),
                &config,
                &options.selection_flags,
            ));
            break;
        }
    }
    Ok(scoped)
}

/// A configuration below the root, validated against the run's rules. One may also name rules
/// of policies of its own, which a run started in its folder loads: it is valid there, so it is
/// here, and what it says of those rules (which this run does not run) is left out.
fn load_scoped(options: &LintOptions, path: &Path, dir: &Path) -> Result<Config, LintError> {
    use crate::settings::DEFAULT_MAX_FILE_SIZE;
    let refused = match crate::config::load(path, options.catalog(), DEFAULT_MAX_FILE_SIZE) {
        Ok(config) => return Ok(config),
        Err(error) => error,
    };
    let own = crate::policy::for_run(Some(path), false, dir, false, &[], DEFAULT_MAX_FILE_SIZE);
    let Some(own) = own.ok().filter(|set| !set.is_empty()) else {
        return Err(LintError::Config(refused));
    };
    let mut config = crate::config::load(path, own.catalog(), DEFAULT_MAX_FILE_SIZE)
        .map_err(|_| LintError::Config(refused))?;
    let catalog = options.catalog();
    let known = |selector: &String| crate::selection::validate_selector(catalog, selector).is_ok();
    config.ignore.retain(known);
    if let Some(select) = &mut config.select {
        let selected_any = !select.is_empty();
        select.retain(known);
        // It selects only its policies' rules: nothing this run runs (an empty selection
        // would be the default one).
        if selected_any && select.is_empty() {
            config.ignore = vec!["ALL".to_string()];
        }
    }
    for (_, selectors) in &mut config.per_file_ignores {
        selectors.retain(known);
    }
    config
        .per_file_ignores
        .retain(|(_, selectors)| !selectors.is_empty());
    config
        .severity
        .retain(|code, _| catalog.get(code).is_some());
    Ok(config)
}

/// Drops the files a configuration below the root excludes (unless named), as the run's
/// `exclude` passes them over, and notes them among those passed over.
fn exclude_scoped(
    options: &LintOptions,
    root: &Path,
    scoped: &[crate::settings::ScopedConfig],
    discovered: &mut Vec<FoundFile>,
    excluded: &mut Vec<String>,
) -> Result<(), LintError> {
    if scoped.iter().all(|config| config.exclude.is_empty()) {
        return Ok(());
    }
    // Every configuration below the root, with its globs: the nearest one decides, and one
    // without `exclude` excludes nothing below it.
    let mut filters = scoped
        .iter()
        .map(|config| {
            GlobFilter::new(&config.base, root, &config.exclude)
                .map(|filter| (config.folder.clone(), filter))
                .map_err(LintError::Selector)
        })
        .collect::<Result<Vec<_>, _>>()?;
    crate::source::deepest_first(&mut filters);
    let before = excluded.len();
    discovered.retain(|(file, _)| {
        let governing = crate::source::nearest(&filters, &file.rel_path);
        let dropped = governing.is_some_and(|filter| filter.matches(&file.rel_path))
            && !options.names(&file.abs_path);
        if dropped {
            excluded.push(file.rel_path.clone());
        }
        !dropped
    });
    if excluded.len() > before {
        excluded.sort_unstable();
        excluded.dedup();
    }
    Ok(())
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
    let mut unread_tools = Vec::new();
    let code = super::code::of_found(&discovered, looked_up.as_deref());
    let calls = code.wrapper_calls();
    discovered.retain_mut(|(file, read)| {
        // A file read only for its shape (any `manifest.json`) that cannot be read (too large,
        // not UTF-8) was never known to hold tools: passed over in silence, unless named.
        if matches!(file.kind, FileKind::ToolsByShape(_))
            && read.is_err()
            && !options.names(&file.abs_path)
        {
            return false;
        }
        let Some(reason) = read
            .as_ref()
            .ok()
            .and_then(|text| super::code::read_as_its_kind(file.kind, text, &calls))
        else {
            return true;
        };
        let named = options.names(&file.abs_path);
        if let (false, Ok(text)) = (named, &*read) {
            if let Some(note) = crate::discover::unread_tools_note(file.kind, text) {
                unread_tools.push((file.rel_path.clone(), note));
            }
        }
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
        bundle: (bundled, linked_breaks, code),
        unread_tools,
        scoped: Vec::new(),
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
        source: options.source,
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
pub(super) struct LintRoot {
    pub(super) path: PathBuf,
    pub(super) looked_up: Option<PathBuf>,
}

/// The root of a run without a file system: `.`, where nothing is looked up.
pub(super) fn in_memory_root() -> LintRoot {
    LintRoot {
        path: PathBuf::from("."),
        looked_up: None,
    }
}

/// (relative path, text) pairs as the read stage leaves files: those of a known kind, sorted
/// and deduplicated by path, with their up-front parses and the source files' context.
pub(super) fn in_memory_files(
    options: &LintOptions,
    files: Vec<(String, String)>,
) -> (Vec<SourceFile>, Vec<Parsed>, Context) {
    let kinds: Vec<(String, String, FileKind)> = files
        .into_iter()
        .filter_map(|(rel_path, text)| {
            crate::discover::classify(&rel_path, &options.requirement_files)
                .or_else(|| {
                    options
                        .source
                        .then(|| crate::discover::source_kind(&rel_path))
                        .flatten()
                })
                .map(|kind| (rel_path, text, kind))
        })
        .collect();
    let code = super::code::code_context(
        kinds
            .iter()
            .map(|(rel_path, text, kind)| (rel_path.as_str(), *kind, text.as_str())),
    );
    let calls = code.wrapper_calls();
    let mut files: Vec<(String, String, FileKind)> = kinds
        .into_iter()
        .filter(|(_, text, kind)| super::code::read_as_its_kind(*kind, text, &calls).is_none())
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
    (sources, parsed, code)
}

/// The files of `files` read as discovery takes them: the walk of `options.paths`, or a
/// listing's entries through the same decisions.
pub(super) fn read_from(
    options: &LintOptions,
    files: Files<'_>,
    threads: usize,
) -> Result<ReadFiles, LintError> {
    match files {
        Files::Walk => read_files(options, options.root(), threads),
        Files::Listed(listing) => {
            let (found, excluded) = listed_files(options, listing)?;
            let mut read = read_found(options, found, Vec::new(), PathBuf::from("."), None);
            read.excluded = excluded;
            Ok(read)
        }
    }
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
