//! A run's settings: what the configuration file and a face's own flags (the command line's,
//! the language server's open documents, a revision's committed files) make of a run, as the
//! one [`LintOptions`] the engine takes. Every face builds its options here: from a
//! configuration with [`options`], then, on the command line, the selection flags over it with
//! [`Flags::apply`], whose precedence (`--select` replaces the file's selection, `--extend-select`
//! widens whatever is in force, `--ignore` is added last) holds nowhere else.

use crate::catalog::{catalog, Catalog};
use crate::config::{self, Config};
use crate::file_error::FileError;
use crate::index::Settings;
use crate::policy::PolicySet;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    /// Read source files (TypeScript, JavaScript, Python) for the MCP tools they register
    /// (`[source] enabled`, default true).
    pub source: bool,
    /// Apply `exclude` to the paths named in `paths` too (`--force-exclude`); without it an
    /// excluded file or folder that is named is linted all the same.
    pub force_exclude: bool,
    /// The baseline whose entries [`lint`] hides (`--baseline`, `[lint] baseline`); a
    /// [`Session`] applies one only when made for a diff ([`Session::with_inventory`]).
    pub baseline: Option<std::sync::Arc<crate::triage::baseline::Baseline>>,
    /// The folder the run reads whole when `paths` name only part of a repository
    /// ([`widen_to_project`]): the files of `paths` are reported, the rest is read for what it
    /// tells about them (a marketplace above a plugin, the tools a skill names). `None`: the run
    /// reads what `paths` name.
    pub project_root: Option<PathBuf>,
    /// The configuration file the run's settings came from, if any.
    pub config_file: Option<PathBuf>,
    /// Whether the configuration files the walk finds below the root govern their folders
    /// ([`ScopedConfig`]); off with `--config FILE` or `--isolated`, which name the one
    /// configuration of the whole run.
    pub nested_configs: bool,
    /// The command line's selection flags, which every configuration of the run takes over
    /// its own selection.
    pub selection_flags: SelectionFlags,
    /// The configurations below the root the walk found, each governing its folder's files
    /// (set by the engine after the walk).
    pub scoped: Vec<ScopedConfig>,
}

/// A configuration file in a folder below the run's root (`plugins/x/skilllint.toml`): what it
/// selects, ignores, overrides, excludes and accepts decides for the files below it, the nearest
/// one deciding, as for ruff. A lint of the whole repository and a lint of `plugins/x` then
/// report the same for those files. The settings of a whole run (`fail-on`, the baseline, the
/// size cap, policies, `[tools]`, `[source]`, `[forge]`, `[contracts]`) are the run's
/// configuration's alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopedConfig {
    /// The folder, relative to the run's root.
    pub folder: String,
    /// The configuration file, as the walk found it.
    pub path: PathBuf,
    /// The folder as the walk found it: its globs are relative to it.
    pub base: PathBuf,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub severity: BTreeMap<&'static str, crate::diagnostic::Severity>,
    pub per_file_ignores: Vec<(String, Vec<String>)>,
    pub exclude: Vec<String>,
    /// `[skills] extra-fields`.
    pub extra_fields: Vec<String>,
}

impl ScopedConfig {
    /// What `config`, found in `folder` (relative to the run's root), decides for its files,
    /// with the command line's `flags` over its selection.
    pub fn new(folder: String, config: &Config, flags: &SelectionFlags) -> Self {
        let mut select = config.select.clone().unwrap_or_default();
        let mut ignore = config.ignore.clone();
        flags.apply(&mut select, &mut ignore);
        ScopedConfig {
            folder,
            path: config.path.clone().unwrap_or_default(),
            base: config.base.clone(),
            select,
            ignore,
            severity: config.severity.clone(),
            per_file_ignores: config.per_file_ignores.clone(),
            exclude: config.exclude.clone(),
            extra_fields: config.extra_fields.clone(),
        }
    }
}

impl ScopedConfig {
    /// The run's own configuration as the one of `folder`: a run widened from that folder to
    /// the repository around it finds it again below the root.
    pub fn of_run(folder: String, options: &LintOptions) -> Self {
        ScopedConfig {
            folder,
            path: options.config_file.clone().unwrap_or_default(),
            base: options.glob_base.clone().unwrap_or_default(),
            select: options.select.clone(),
            ignore: options.ignore.clone(),
            severity: options.severity.clone(),
            per_file_ignores: options.per_file_ignores.clone(),
            exclude: options.exclude.clone(),
            extra_fields: options.settings.skill_extra_fields.clone(),
        }
    }
}

/// The command line's selection flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelectionFlags {
    /// `--select`: replaces the configuration's whole selection (its `ignore` too).
    pub select: Vec<String>,
    /// `--extend-select`: added to the selection in force (the default one included); wins over
    /// the configuration's `ignore`.
    pub extend_select: Vec<String>,
    /// `--ignore`: added to the ignored rules last.
    pub ignore: Vec<String>,
}

impl SelectionFlags {
    /// Applies the flags over a configuration's `select` and `ignore`, in the command line's
    /// precedence.
    pub fn apply(&self, select: &mut Vec<String>, ignore: &mut Vec<String>) {
        // `--select` replaces the file's whole selection (select and ignore), so
        // `skilllint --select SK003` runs SK003 whatever the file says.
        if !self.select.is_empty() {
            *select = self.select.clone();
            ignore.clear();
        }
        // `--extend-select` adds to whatever the selection is, the default included.
        if !self.extend_select.is_empty() {
            if select.is_empty() {
                *select = crate::selection::DEFAULT_SELECT
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
            }
            select.extend(self.extend_select.iter().cloned());
            // A rule named here runs even if the file's `ignore` names it.
            ignore.retain(|ignored| {
                !self
                    .extend_select
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(ignored))
            });
        }
        ignore.extend(self.ignore.iter().cloned());
    }
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
            source: true,
            per_file_ignores: Vec::new(),
            severity: BTreeMap::new(),
            inline_ignores: true,
            overlay: std::sync::Arc::new(HashMap::new()),
            policies: None,
            panic_in_rule: None,
            force_exclude: false,
            baseline: None,
            project_root: None,
            config_file: None,
            nested_configs: true,
            selection_flags: SelectionFlags::default(),
            scoped: Vec::new(),
        }
    }
}

impl LintOptions {
    /// The folder the run reads and paths are relative to: the project root when the run was
    /// widened to it, else the lint root of `paths`.
    pub fn root(&self) -> PathBuf {
        match &self.project_root {
            Some(root) => root.clone(),
            None => lint_root(&self.paths),
        }
    }

    /// Whether `path` (as the walk made it) is one of `paths`, named on the command line.
    pub fn names(&self, path: &Path) -> bool {
        self.paths.iter().any(|named| named == path)
            || self.project_root.is_some() && {
                let path = crate::source::without_cur_dir(path);
                self.paths
                    .iter()
                    .any(|named| crate::source::without_cur_dir(named) == path)
            }
    }

    /// The paths below `root` whose files' findings a widened run reports, relative to it (`""`
    /// for the whole of it); `None` when the run was not widened and reports every file it read.
    pub fn report_scope(&self, root: &Path) -> Option<Vec<String>> {
        self.project_root.as_ref()?;
        let mut scope: Vec<String> = self
            .paths
            .iter()
            .map(|path| {
                if path == root {
                    String::new()
                } else {
                    crate::discover::relative_path(root, path)
                }
            })
            .collect();
        scope.sort();
        scope.dedup();
        Some(scope)
    }

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
    fn apply_config(&mut self, config: &Config) {
        self.select = config.select.clone().unwrap_or_default();
        self.ignore = config.ignore.clone();
        self.config_file = config.path.clone();
        if let Some(cap) = config.max_file_size {
            self.max_file_size = cap;
        }
        self.glob_base = Some(config.base.clone());
        self.exclude = config.exclude.clone();
        self.tool_include = config.tool_include.clone();
        self.tool_include_here = config.tool_include_from_cwd.clone();
        self.source = config.source.unwrap_or(true);
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

/// The pre-commit hooks' `files` pattern (`.pre-commit-hooks.yaml`, which a test holds to it):
/// every path a run with the default settings reads by its name
/// ([`crate::discover::name_patterns`]), the configuration files and the policy files of
/// `.skilllint/policies/`. A commit touching none of them leaves the hooks out; one touching any
/// runs them, whatever kind of file it is.
pub fn hook_files_pattern() -> String {
    let mut patterns = crate::discover::name_patterns(&LintOptions::default().requirement_files);
    patterns.extend(
        config::CONFIG_NAMES
            .iter()
            .map(|name| crate::discover::regex_literal(name)),
    );
    let policies = crate::discover::regex_literal(crate::policy::POLICY_DIR);
    patterns.push(format!(r"{policies}/[^/]*\.ya?ml"));
    format!("(^|/)({})$", patterns.join("|"))
}

/// Widens a run over part of a repository to the whole of it, so that what is reported for a
/// file does not depend on the path named: `skilllint plugins/x`, `skilllint .` inside it and
/// `skilllint plugins/x/skills/a/SKILL.md` (as pre-commit runs it) report for those files
/// exactly what `skilllint` at the top reports for them, with the marketplace above, the tool
/// lists beside and the other skills read as context. The repository is the work tree the lint
/// root is in (the nearest folder at or above it holding `.git`, where the configuration's
/// search stops too); nothing above it is read. Outside a work tree, or when the whole of it is
/// named, the run stays as it is. Paths become absolute when the root is above the current
/// folder, so that every file's path is below it; reports still show them from the current
/// folder.
pub fn widen_to_project(options: &mut LintOptions, cwd: &Path) {
    use crate::source::absolute_in;
    let named_root = lint_root(&options.paths);
    let absolute_root = absolute_in(cwd, &named_root);
    let Some(project) = work_tree_of(&absolute_root) else {
        return;
    };
    let project = project.as_path();
    let named: Vec<PathBuf> = options
        .paths
        .iter()
        .map(|path| absolute_in(cwd, path))
        .collect();
    if named.iter().any(|path| path == project) || !named.iter().all(|p| p.starts_with(project)) {
        return;
    }
    if project == absolute_root {
        // Files named from the top (`skilllint a/SKILL.md b/SKILL.md`): the root keeps the form
        // it was given in, and so do the paths.
        options.project_root = Some(named_root);
        return;
    }
    // The root as a path from the current folder (`..`, `../..`, `sub/repo`), absolute only when
    // neither holds the other, and each path named as that root joined with its path below it:
    // every path the walk makes then shows from the current folder as the one typed did.
    let absolute_cwd = absolute_in(cwd, Path::new("."));
    let root = match (
        project.strip_prefix(&absolute_cwd),
        absolute_cwd.strip_prefix(project),
    ) {
        (Ok(below), _) if below.as_os_str().is_empty() => PathBuf::from("."),
        (Ok(below), _) => below.to_path_buf(),
        (_, Ok(above)) => above.components().map(|_| "..").collect(),
        _ => project.to_path_buf(),
    };
    let rebase = |path: &Path| -> PathBuf {
        match absolute_in(cwd, path).strip_prefix(project) {
            Ok(rel) if !rel.as_os_str().is_empty() && root == Path::new(".") => rel.to_path_buf(),
            Ok(rel) if !rel.as_os_str().is_empty() => root.join(rel),
            _ => root.clone(),
        }
    };
    options.paths = options.paths.iter().map(|path| rebase(path)).collect();
    // The overlay (standard input under a file's name) is keyed by the path the walk
    // produces.
    if !options.overlay.is_empty() {
        let overlay = options
            .overlay
            .iter()
            .map(|(path, text)| (rebase(path), text.clone()))
            .collect();
        options.overlay = Arc::new(overlay);
    }
    options.project_root = Some(root);
}

/// The git work tree `dir` is in: the nearest folder at or above it holding `.git` (where the
/// configuration's search stops too).
pub fn work_tree_of(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The folder paths are reported relative to: a single directory argument, else the current folder.
pub fn lint_root(paths: &[PathBuf]) -> PathBuf {
    match paths {
        [only] if only.is_dir() => only.clone(),
        _ => PathBuf::from("."),
    }
}

/// The options of a run under `config` (none: every default) with `policies` (their rules join
/// the catalog). The one constructor of [`LintOptions`]: a face then sets
/// what is its own (paths, threads, the overlay of open documents) and, on the command line,
/// applies its [`Flags`].
pub fn options(config: Option<&Config>, policies: Option<Arc<PolicySet>>) -> LintOptions {
    let mut options = LintOptions::default();
    if let Some(config) = config {
        options.apply_config(config);
    }
    options.policies = policies;
    options
}

/// The command line's flags that a run's options take over its configuration.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// `--select`: replaces the configuration's whole selection (its `ignore` too).
    pub select: Vec<String>,
    /// `--extend-select`: added to the selection in force (the default one included); wins over
    /// the configuration's `ignore`.
    pub extend_select: Vec<String>,
    /// `--ignore`: added to the ignored rules last.
    pub ignore: Vec<String>,
    pub threads: Option<usize>,
    /// `--max-file-size`.
    pub max_file_size: Option<u64>,
    /// `--no-inline-ignores`.
    pub no_inline_ignores: bool,
    /// `--force-exclude`.
    pub force_exclude: bool,
    /// `--exclude` globs, relative to the current folder.
    pub exclude: Vec<String>,
}

impl Flags {
    /// Applies the flags over `options` (built from `config`), in the command line's precedence.
    pub fn apply(&self, options: &mut LintOptions, config: &Config) {
        let selection = SelectionFlags {
            select: self.select.clone(),
            extend_select: self.extend_select.clone(),
            ignore: self.ignore.clone(),
        };
        selection.apply(&mut options.select, &mut options.ignore);
        options.selection_flags = selection;
        options.threads = self.threads;
        if let Some(cap) = self.max_file_size {
            options.max_file_size = cap;
        }
        options.inline_ignores = !self.no_inline_ignores;
        options.force_exclude = self.force_exclude;
        // Command-line globs are relative to the current folder, the file's to the file.
        options.exclude_here = config
            .exclude_from_cwd
            .iter()
            .chain(&self.exclude)
            .map(|glob| glob.trim_start_matches("./").to_string())
            .collect();
    }
}

/// Why the configuration or the policies of a run could not be loaded.
#[derive(Debug, Clone)]
pub enum SetupError {
    Config(FileError),
    Policy(FileError),
}

/// Where a run reads its configuration: `named` (`--config FILE`), else the nearest one found
/// from `start`; none when `isolated`.
pub fn config_path(
    named: Option<&Path>,
    isolated: bool,
    start: &Path,
) -> Result<Option<PathBuf>, FileError> {
    if isolated {
        return Ok(None);
    }
    match named {
        Some(path) => Ok(Some(path.to_path_buf())),
        None => config::discover(start),
    }
}

/// The policies a run from `start` loads (see [`crate::policy::for_run`]).
pub fn load_policies(
    config_path: Option<&Path>,
    config_named: bool,
    start: &Path,
    isolated: bool,
    extra: &[PathBuf],
    cap: u64,
) -> Result<PolicySet, SetupError> {
    use crate::policy::RunPoliciesError;
    crate::policy::for_run(config_path, config_named, start, isolated, extra, cap).map_err(
        |error| match error {
            RunPoliciesError::Config(error) => SetupError::Config(error),
            RunPoliciesError::Policy(error) => SetupError::Policy(error),
        },
    )
}

/// Where a run finds its configuration and what it adds to it.
#[derive(Debug, Clone, Copy)]
pub struct ConfigSource<'a> {
    /// `--config FILE`.
    pub file: Option<&'a Path>,
    /// `--config KEY=VALUE` settings, applied over the file.
    pub overrides: &'a [String],
    /// `--isolated`: no configuration file and no repository policies.
    pub isolated: bool,
    /// `--policies`: more policy files or folders.
    pub policies: &'a [PathBuf],
    /// The size cap the configuration file is read under: the file cannot raise its own cap
    /// before it is read.
    pub cap: u64,
}

/// The configuration in force for a run from `start` (the named file, else the nearest
/// skilllint.toml, unless isolated; then the `KEY=VALUE` settings) and the policies, whose rules
/// the configuration may name. Without a file, globs are relative to the current folder.
pub fn load_config(
    start: &Path,
    source: &ConfigSource<'_>,
) -> Result<(Config, PolicySet), SetupError> {
    let path = config_path(source.file, source.isolated, start).map_err(SetupError::Config)?;
    let named = source.file.is_some();
    let policies = load_policies(
        path.as_deref(),
        named,
        start,
        source.isolated,
        source.policies,
        source.cap,
    )?;
    let mut config = match path {
        Some(path) => {
            config::load(&path, policies.catalog(), source.cap).map_err(SetupError::Config)?
        }
        None => Config::default(),
    };
    if !source.overrides.is_empty() {
        config =
            config::apply_overrides(config, source.overrides, Path::new("."), policies.catalog())
                .map_err(SetupError::Config)?;
    }
    if config.path.is_none() {
        config.base = PathBuf::from(".");
    }
    Ok((config, policies))
}

/// The options of a run over `paths` (none: the current folder) that only reads (`skilllint
/// tools`, a folder side of `skilllint diff`): the configuration found from them as a lint
/// there finds it (`config` when named; none when `isolated`), its policies, and `threads`.
/// Returns the configuration too.
pub fn for_paths(
    paths: &[PathBuf],
    config: Option<&Path>,
    isolated: bool,
    threads: Option<usize>,
) -> Result<(LintOptions, Config), SetupError> {
    // A configuration named is the whole run's: the ones below are not looked for.
    let named = config.is_some();
    let start = if paths.is_empty() {
        lint_root(&[PathBuf::from(".")])
    } else {
        lint_root(paths)
    };
    let source = ConfigSource {
        file: config,
        overrides: &[],
        isolated,
        policies: &[],
        cap: DEFAULT_MAX_FILE_SIZE,
    };
    let (config, policies) = load_config(&start, &source)?;
    let policies = (!policies.is_empty()).then(|| Arc::new(policies));
    let mut options = options(Some(&config), policies);
    if !paths.is_empty() {
        options.paths = paths.to_vec();
    }
    options.exclude_here = config
        .exclude_from_cwd
        .iter()
        .map(|glob| glob.trim_start_matches("./").to_string())
        .collect();
    options.threads = threads;
    options.nested_configs = !named && !isolated;
    Ok((options, config))
}
