//! One side of `skilllint diff`: the repository at one point in time, linted and inventoried
//! with its own configuration, kept as owned facts the comparison reads: the inventory, every
//! finding (with the identity that survives moved lines), the inline suppression comments, and
//! what the configuration silences.
//!
//! [`build`] reads the files once, through the engine's [`Files`]: a folder on disk walked, or
//! a listing through the same discovery decisions (a git revision's tree, or (path, text) pairs
//! a caller already read). What it needs of the configuration
//! beyond the [`LintOptions`] it was turned into (where the file is, its text for places, its
//! baseline's entries) comes in a [`SideConfig`].

use crate::diagnostic::Severity;
use crate::engine::{Files, InMemory, LintError};
use crate::inventory::{at, lint_with_inventory, At, Inventory};
use crate::settings::LintOptions;
use crate::source::{FileId, LineIndex, Span};
use std::collections::{BTreeMap, BTreeSet};

/// A finding of one side, owning its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: String,
    pub severity: Severity,
    /// Relative to the side's root, `/`-separated.
    pub path: String,
    pub at: At,
    /// Byte span of the primary label in its file.
    pub span: Span,
    pub message: String,
    /// The baseline's fingerprint: the rule and the text it flags, not the line.
    pub fingerprint: String,
}

impl Finding {
    /// What makes a finding the same finding on both sides: its rule, file, message and the
    /// text it flags; never its line, which any edit above it moves.
    pub fn identity(&self) -> (&str, &str, &str, &str) {
        (&self.code, &self.path, &self.message, &self.fingerprint)
    }
}

/// The baseline a configuration names, relative to the side's root, and its entries as (rule,
/// path, fingerprint else message).
pub type BaselineFacts = (String, Vec<(String, String, String)>);

/// An inline suppression comment (`<!-- skilllint-disable… -->`, `# skilllint: ignore[…]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub path: String,
    pub at: At,
    /// The comment's line, trimmed.
    pub text: String,
}

/// What the configuration of a side does to the lint, as facts to compare.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The configuration file relative to the side's root (`../skilllint.toml` when it was
    /// found above it), `None` without one.
    pub path: Option<String>,
    /// Its text, to point at a setting's line.
    pub text: Option<String>,
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
    /// The codes of the rules that run.
    pub enabled: BTreeSet<String>,
    /// Every known rule's effective severity (the catalog's, or the override).
    pub severity: BTreeMap<String, Severity>,
    /// (glob, selector) pairs of `per-file-ignores`.
    pub per_file_ignores: Vec<(String, String)>,
    pub exclude: Vec<String>,
    pub max_file_size: u64,
    /// Policy rules by code, with their file.
    pub policy_rules: BTreeMap<String, String>,
    /// Policy rules by code, with what decides whether they fire (`on`, `when`, `assert`, `at`
    /// as written): a rule rewritten to pass silences what it reported.
    pub policy_logic: BTreeMap<String, String>,
    /// The baseline the configuration names, and its entries as (rule, path, fingerprint or
    /// message).
    pub baseline: Option<BaselineFacts>,
    /// `fail-on`: the lowest severity that fails the run (`None`: the default, error).
    pub fail_on: Option<Severity>,
    /// `[skills] extra-fields`: frontmatter keys accepted beside the standard ones.
    pub extra_fields: Vec<String>,
    /// `[tools] include`: more files read as tool lists.
    pub tool_include: Vec<String>,
    /// `[forge] tool-use-rules-heading` and `requirement-files`.
    pub tool_use_rules_heading: String,
    pub requirement_files: Vec<String>,
}

impl Settings {
    /// Where a setting is in the configuration file, for the report to point at: the first line
    /// that sets `needle` as a key (`ignore = …`, `TJ003 = …`, `"ledger/**" = …`, `[policies]`),
    /// else the first that holds it as a quoted value (`exclude = ["drafts/**"]`); comment lines
    /// are skipped. 1:1 when there is no file or no such line.
    pub fn place(&self, needle: &str) -> At {
        let first = At { line: 1, column: 1 };
        let Some(text) = &self.text else {
            return first;
        };
        let quoted = format!("\"{needle}\"");
        let sets = |line: &str| -> Option<usize> {
            let body = line.trim_start();
            let indent = line.len() - body.len();
            let key_end = if body.starts_with(&quoted) {
                quoted.len()
            } else if body.starts_with(needle) {
                needle.len()
            } else if let Some(header) = body.strip_prefix('[') {
                let name = header.split(']').next().unwrap_or("");
                let names_it = name == needle || name.ends_with(&format!(".{needle}"));
                return names_it.then(|| indent + 1 + name.len() - needle.len());
            } else {
                return None;
            };
            let rest = body[key_end..].trim_start();
            rest.starts_with('=').then_some(indent)
        };
        let holds = |line: &str| line.find(&quoted);
        let lines = || {
            text.lines()
                .enumerate()
                .filter(|(_, line)| !line.trim_start().starts_with('#'))
        };
        let found = lines()
            .find_map(|(i, line)| sets(line).map(|col| (i, line, col)))
            .or_else(|| lines().find_map(|(i, line)| holds(line).map(|col| (i, line, col))));
        match found {
            Some((i, line, col)) => At {
                line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                column: u32::try_from(line[..col].chars().count() + 1).unwrap_or(u32::MAX),
            },
            None => first,
        }
    }
}

/// The configuration facts the options do not carry.
#[derive(Debug, Clone, Default)]
pub struct SideConfig {
    /// The configuration file relative to the side's root, and its text.
    pub path: Option<String>,
    pub text: Option<String>,
    pub select: Option<Vec<String>>,
    pub fail_on: Option<Severity>,
    /// The baseline the configuration names, relative to the side's root, with its entries.
    pub baseline: Option<BaselineFacts>,
}

/// One side of a diff.
#[derive(Debug, Clone)]
pub struct Side {
    pub inventory: Inventory,
    /// Sorted by path, place, code.
    pub findings: Vec<Finding>,
    /// The findings inline comments silenced.
    pub suppressed: Vec<Finding>,
    /// Sorted by path, place.
    pub comments: Vec<Comment>,
    pub settings: Settings,
    /// The configuration files below the root, as (path relative to the root, text), sorted:
    /// each is the one a lint of its folder reads instead of the top one (`skilllint sub/`, an
    /// Action whose `path` is `sub`, pre-commit on files there). Filled by the caller that
    /// knows where the side's files are ([`nested_configs_on_disk`], or a revision's tree).
    pub nested: Vec<(String, String)>,
    /// The files of a kind skilllint reads that the side's `exclude` passed over, sorted: the
    /// lint never read them.
    pub excluded: Vec<String>,
}

/// The side of the folder `options.paths` names, walked as a lint walks it.
pub fn folder(options: &LintOptions, config: SideConfig) -> Result<Side, LintError> {
    build(options, config, Files::Walk)
}

/// The side of files given as (relative path, text) pairs, taken by discovery's decisions as a
/// git tree's entries are.
pub fn in_memory(
    options: &LintOptions,
    config: SideConfig,
    files: Vec<(String, String)>,
) -> Result<Side, LintError> {
    build(options, config, Files::Listed(&InMemory(files)))
}

/// Lints and inventories the files of `files` with `options` (reading them once).
pub(crate) fn build(
    options: &LintOptions,
    config: SideConfig,
    files: Files<'_>,
) -> Result<Side, LintError> {
    let (outcome, inventory) = lint_with_inventory(options, files)?;
    side_of(options, config, &outcome, inventory)
}

/// The side of a lint's outcome and its inventory, made with `options`: its facts, owned, so
/// the run they came from can be dropped or changed into another side.
pub(crate) fn side_of(
    options: &LintOptions,
    config: SideConfig,
    outcome: &crate::engine::LintOutcome,
    inventory: Inventory,
) -> Result<Side, LintError> {
    let sources = outcome.sources();
    let mut indexes: Vec<(u32, LineIndex<'_>)> = Vec::new();
    let mut owned = |d: &crate::diagnostic::Diagnostic| {
        let file = d.primary.file;
        let text = sources.text(file);
        let i = match indexes.iter().position(|(f, _)| *f == file.0) {
            Some(i) => i,
            None => {
                indexes.push((file.0, LineIndex::new(text)));
                indexes.len() - 1
            }
        };
        Finding {
            code: d.code.to_string(),
            severity: d.severity,
            path: sources.file(file).rel_path.clone(),
            at: at(&indexes[i].1, d.primary.span),
            span: d.primary.span,
            message: d.message.clone(),
            fingerprint: crate::triage::baseline::fingerprint(d.code, text, d.primary.span),
        }
    };
    let mut findings: Vec<Finding> = outcome.diagnostics.iter().map(&mut owned).collect();
    let suppressed: Vec<Finding> = outcome
        .suppressed
        .iter()
        .map(|s| owned(&s.diagnostic))
        .collect();
    findings.sort_by(|a, b| (&a.path, a.at, &a.code).cmp(&(&b.path, b.at, &b.code)));
    let mut comments = suppression_comments(&outcome.repo, &outcome.suppression_comments);
    comments.sort_by(|a, b| (&a.path, a.at).cmp(&(&b.path, b.at)));
    let settings = settings_of(options, config, &inventory.root)?;
    Ok(Side {
        inventory,
        findings,
        suppressed,
        comments,
        settings,
        nested: Vec::new(),
        excluded: outcome.excluded.clone(),
    })
}

/// What the configuration of a lint made with `options` does, as facts to compare (`root`: the
/// side's root, that policy files are shown relative to).
fn settings_of(
    options: &LintOptions,
    config: SideConfig,
    root: &std::path::Path,
) -> Result<Settings, LintError> {
    let catalog = options.catalog();
    let enabled = crate::selection::resolve(catalog, &options.select, &options.ignore)
        .map_err(LintError::Selector)?;
    Ok(Settings {
        path: config.path,
        text: config.text,
        select: config.select,
        ignore: options.ignore.clone(),
        enabled: enabled.codes().map(str::to_string).collect(),
        severity: catalog
            .rules
            .iter()
            .map(|meta| {
                let severity = options
                    .severity
                    .get(meta.code)
                    .copied()
                    .unwrap_or(meta.severity);
                (meta.code.to_string(), severity)
            })
            .collect(),
        per_file_ignores: options
            .per_file_ignores
            .iter()
            .flat_map(|(glob, selectors)| selectors.iter().map(|s| (glob.clone(), s.clone())))
            .collect(),
        exclude: options.exclude.clone(),
        max_file_size: options.max_file_size,
        policy_rules: catalog
            .rules
            .iter()
            .filter_map(|meta| {
                meta.policy_file.as_ref().map(|file| {
                    let file = relative_to(root, std::path::Path::new(file));
                    (meta.code.to_string(), file)
                })
            })
            .collect(),
        policy_logic: options
            .policies
            .iter()
            .flat_map(|set| &set.rules)
            .map(|rule| (rule.code.to_string(), policy_logic(rule)))
            .collect(),
        baseline: config.baseline,
        fail_on: config.fail_on,
        extra_fields: options.settings.skill_extra_fields.clone(),
        tool_include: options.tool_include.clone(),
        tool_use_rules_heading: options.settings.tool_use_rules_heading.clone(),
        requirement_files: options.requirement_files.clone(),
    })
}

/// The settings a lint of the folder of the configuration `path` (relative to the side's root)
/// applies when that configuration is `text`: parsed and applied as the lint parses and applies
/// it. Its policies are none: a lint of that folder reads only the policies its own
/// configuration names inside the folder, and those are not loaded here (so the top's policies
/// show as not running there). `None` when the lint itself would refuse the configuration (it
/// then exits 2: nothing is silenced).
pub(crate) fn nested_settings(path: &str, text: &str) -> Option<Settings> {
    let file = std::path::Path::new(path);
    let base = crate::source::folder_of(file).to_path_buf();
    let config = crate::config::parse(text, file, base, crate::catalog::catalog()).ok()?;
    let options = crate::settings::options(Some(&config), None);
    let facts = SideConfig {
        path: Some(path.to_string()),
        text: Some(text.to_string()),
        select: config.select.clone(),
        fail_on: config.fail_on,
        baseline: None,
    };
    settings_of(&options, facts, std::path::Path::new(".")).ok()
}

/// The configuration files below `root` on disk, as [`Side::nested`] holds them: every folder
/// but the top (the folders discovery never walks, `.git`, `node_modules` and `target`, aside,
/// and no folder link followed), the first of [`crate::config::CONFIG_NAMES`] in a folder as
/// discovery takes it, a link to a file inside its folder read as discovery reads it; one that
/// discovery refuses (a link out of its folder or nowhere, not a regular UTF-8 file within the
/// size cap) is left out: a lint of its folder exits 2 on it.
pub fn nested_configs_on_disk(root: &std::path::Path) -> Vec<(String, String)> {
    let mut walk = ignore::WalkBuilder::new(root);
    walk.standard_filters(false)
        .follow_links(false)
        .max_depth(Some(crate::discover::MAX_DEPTH))
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !(is_dir
                && entry.depth() > 0
                && crate::discover::is_skipped_dir(entry.file_name().as_encoded_bytes()))
        });
    // By folder: which of the names it is, its path and text.
    let mut found: BTreeMap<String, (usize, String, String)> = BTreeMap::new();
    for entry in walk.build().flatten() {
        let file_or_link = entry
            .file_type()
            .is_some_and(|t| t.is_file() || t.is_symlink());
        if entry.depth() < 2 || !file_or_link {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        let Some(rank) = crate::config::CONFIG_NAMES.iter().position(|n| *n == name) else {
            continue;
        };
        let rel = crate::discover::relative_path(root, entry.path());
        let folder = crate::source::split_path(&rel).0.to_string();
        if found
            .get(&folder)
            .is_some_and(|(taken, _, _)| *taken < rank)
        {
            continue;
        }
        // As discovery decides: a link must lead to a file inside the folder it is in.
        let taken = entry
            .path()
            .parent()
            .and_then(|folder| folder.canonicalize().ok())
            .is_some_and(|folder| {
                crate::config::check_candidate(&folder, entry.path()).unwrap_or(false)
            });
        if !taken {
            continue;
        }
        let text =
            crate::read::read_regular_bounded(entry.path(), crate::settings::DEFAULT_MAX_FILE_SIZE)
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok());
        if let Some(text) = text {
            found.insert(folder, (rank, rel, text));
        }
    }
    let mut configs: Vec<(String, String)> = found
        .into_values()
        .map(|(_, path, text)| (path, text))
        .collect();
    configs.sort();
    configs
}

/// What decides whether a policy rule fires, as written: `on: skill; when: …; assert: …; at: …`.
fn policy_logic(rule: &crate::policy::PolicyRule) -> String {
    let when = rule
        .when
        .as_ref()
        .map_or_else(String::new, |w| format!("when: `{}`; ", w.source));
    let mut at = rule.at_root.clone();
    for part in &rule.at {
        at.push('.');
        at.push_str(part);
    }
    format!(
        "on: {}; {when}assert: `{}`; at: {at}",
        rule.on.as_str(),
        rule.assert.source
    )
}

impl Side {
    /// Forgets the findings of the rules `codes`: those a side of another kind cannot report
    /// (a rule that reads the disk, on a git revision), which would otherwise read as fixed or
    /// new.
    pub fn without_rules(mut self, codes: &[&str]) -> Side {
        let keep = |f: &Finding| !codes.contains(&f.code.as_str());
        self.findings.retain(keep);
        self.suppressed.retain(keep);
        self
    }
}

/// The inline suppression comments the lint's triage recognised (`comments`: file and span of
/// each, sorted by file), one per comment: its line, trimmed, placed at the word `skilllint` in
/// it. Taken from what the lint parsed rather than searched for in the text, so that a comment
/// the grammar accepts in any spacing (`# skilllint:  ignore[…]`) is one here too, and text that
/// only quotes the syntax (a code block, a JSON description) is not.
fn suppression_comments(repo: &crate::index::Repo, comments: &[(FileId, Span)]) -> Vec<Comment> {
    let mut out = Vec::with_capacity(comments.len());
    let mut index: Option<(FileId, LineIndex<'_>)> = None;
    for (file, span) in comments {
        let source = repo.file(*file);
        let text = source.text.as_str();
        let lines = match &mut index {
            Some((indexed, lines)) if indexed == file => lines,
            slot => &mut slot.insert((*file, LineIndex::new(text))).1,
        };
        let start = span.start.min(text.len());
        // The comment's own text from the marker on, within its span.
        let marker = text
            .get(start..span.end.min(text.len()))
            .and_then(|comment| comment.find("skilllint"))
            .map_or(start, |offset| start + offset);
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        out.push(Comment {
            path: source.rel_path.clone(),
            at: at(lines, Span::new(marker, marker)),
            text: text[line_start..line_end].trim().to_string(),
        });
    }
    out
}

impl SideConfig {
    /// The facts of a configuration loaded from disk for a side rooted at `root`: its path and
    /// text, its `select`, and the entries of the baseline it names (read only when the file is
    /// inside the configuration's folder, as a lint reads it; a baseline that cannot be read is
    /// an error, not a silent empty list).
    pub fn from_disk(
        config: &crate::config::Config,
        root: &std::path::Path,
        catalog: &crate::catalog::Catalog,
        max_size: u64,
    ) -> Result<SideConfig, crate::file_error::FileError> {
        let relative = |path: &std::path::Path| relative_to(root, path);
        let text = match &config.path {
            Some(path) => crate::read::read_regular_bounded(path, max_size)
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok()),
            None => None,
        };
        let baseline = match &config.baseline {
            Some(path) if inside(path, &config.base) => {
                let cwd = std::env::current_dir().unwrap_or_default();
                let loaded =
                    crate::triage::baseline::Baseline::load(path, &cwd, max_size, catalog)?;
                Some((relative(path), baseline_entries(&loaded.entries)))
            }
            _ => None,
        };
        Ok(SideConfig {
            path: config.path.as_deref().map(relative),
            text,
            select: config.select.clone(),
            fail_on: config.fail_on,
            baseline,
        })
    }
}

/// A baseline's entries as (rule, path, fingerprint else message).
pub(crate) fn baseline_entries(
    entries: &[crate::triage::baseline::Entry],
) -> Vec<(String, String, String)> {
    entries
        .iter()
        .map(|e| {
            let id = e.fingerprint.clone().or_else(|| e.message.clone());
            (e.rule.clone(), e.path.clone(), id.unwrap_or_default())
        })
        .collect()
}

/// Whether `path` resolves inside `folder` (a missing file is not).
fn inside(path: &std::path::Path, folder: &std::path::Path) -> bool {
    match (path.canonicalize(), folder.canonicalize()) {
        (Ok(target), Ok(folder)) => target.starts_with(folder),
        _ => false,
    }
}

/// `path` relative to `root`, `/`-separated, with `..` when it is above it.
fn relative_to(root: &std::path::Path, path: &std::path::Path) -> String {
    let absolute = |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let (root, path) = (absolute(root), absolute(path));
    let mut up = 0;
    let mut base = root.as_path();
    loop {
        if let Ok(rest) = path.strip_prefix(base) {
            let mut parts: Vec<String> = vec!["..".to_string(); up];
            parts.extend(
                rest.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned()),
            );
            return parts.join("/");
        }
        match base.parent() {
            Some(parent) => {
                base = parent;
                up += 1;
            }
            None => return crate::escape::display_path(&path).into_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(text: &str) -> Settings {
        Settings {
            text: Some(text.to_string()),
            ..Settings::default()
        }
    }

    #[test]
    fn a_setting_is_found_where_it_is_set_not_where_it_is_mentioned() {
        let s = settings(
            "# ignore nothing here: per-file-ignores below\n\
             [lint]\n\
             exclude = [\"vendor/**\", \"drafts/**\"]\n\
             ignore = [\"TJ003\"]\n\
             [lint.severity]\n\
             TJ003 = \"info\"\n\
             [lint.per-file-ignores]\n\
             \"ledger/**\" = [\"TJ004\"]\n\
             [policies]\n",
        );
        let at = |needle: &str| {
            let at = s.place(needle);
            (at.line, at.column)
        };
        assert_eq!(at("ignore"), (4, 1));
        assert_eq!(at("TJ003"), (6, 1));
        assert_eq!(at("drafts/**"), (3, 25));
        assert_eq!(at("ledger/**"), (8, 1));
        assert_eq!(at("per-file-ignores"), (7, 7));
        assert_eq!(at("policies"), (9, 2));
        assert_eq!(at("select"), (1, 1));
    }

    #[test]
    fn odd_configuration_text_never_panics() {
        let s = settings("[]\n[ä]\n[x.y\n\"\" = 1\n= 2\n[lint.per-file-ignores]\n\"é/**\" = []\n");
        for needle in ["", "ä", "y", "lint", "per-file-ignores", "é/**", "x.y", "]"] {
            let _ = s.place(needle);
        }
        assert_eq!(s.place("é/**").line, 7);
    }
}
