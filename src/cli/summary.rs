//! What the lint command prints besides the findings: the paths a report shows, the summary
//! lines, `--show-settings`, `--show-fixes`, and what `--write-baseline` wrote.

use crate::cli::flags::LintArgs;
use skilllint::catalog::Catalog;
use skilllint::config::Config;
use skilllint::diagnostic::Applicability;
use skilllint::english::plural;
use skilllint::escape::{display_path, escape_text};
use skilllint::fix::FixRun;
use skilllint::render::paths::{absolute_in, shown_path, Outside};
use skilllint::render::{self, Format};
use skilllint::triage::baseline::Written;
use skilllint::{LintOptions, LintOutcome};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folder a CI's annotations are relative to: for `github`, `GITHUB_WORKSPACE`; for
/// `gitlab`, `CI_PROJECT_DIR` (the repository's checkout, whatever folder the step runs in),
/// when set; else none, and paths are relative to the current folder.
fn ci_workspace(format: Format) -> Option<PathBuf> {
    let variable = match format {
        Format::Github => "GITHUB_WORKSPACE",
        Format::Gitlab => "CI_PROJECT_DIR",
        _ => return None,
    };
    std::env::var_os(variable)
        .filter(|w| !w.is_empty())
        .map(PathBuf::from)
}

/// The path every file of the run (the baseline file last) is shown under in `format`: relative
/// to the current folder (as given when outside it); for `github` and `gitlab`, relative to the
/// CI's checkout ([`ci_workspace`]). SARIF computes its own URIs.
pub fn shown_paths(outcome: &LintOutcome, cwd: &Path, format: Format) -> Vec<String> {
    let files = outcome.sources().iter().map(|(_, file)| file);
    match ci_workspace(format) {
        Some(workspace) => render::paths::shown_paths(files, cwd, &workspace, Outside::Absolute),
        None => render::paths::shown_paths(files, cwd, Path::new("."), Outside::AsGiven),
    }
}

/// [`shown_paths`] for the files a report names (a finding's, its labels' and its edits', kept
/// or suppressed); the others are left empty. A report names a few files of a large run, and
/// working out every path of a 15,000-file run cost more than the rules of its findings.
pub fn shown_paths_of_findings(outcome: &LintOutcome, cwd: &Path, format: Format) -> Vec<String> {
    let count = outcome.sources().iter().count();
    let mut named = vec![false; count];
    let diagnostics = outcome
        .diagnostics
        .iter()
        .chain(outcome.suppressed.iter().map(|s| &s.diagnostic));
    for diagnostic in diagnostics {
        let labels = std::iter::once(&diagnostic.primary).chain(&diagnostic.secondary);
        let edits = diagnostic.fix.iter().flat_map(|fix| &fix.edits);
        for file in labels.map(|l| l.file).chain(edits.map(|e| e.file)) {
            if let Some(slot) = named.get_mut(file.0 as usize) {
                *slot = true;
            }
        }
    }
    let workspace = ci_workspace(format);
    let (base, outside) = match &workspace {
        Some(workspace) => (absolute_in(cwd, workspace), Outside::Absolute),
        None => (absolute_in(cwd, Path::new(".")), Outside::AsGiven),
    };
    outcome
        .sources()
        .iter()
        .zip(named)
        .map(|((_, file), named)| {
            if named {
                shown_path(&file.abs_path, cwd, &base, outside)
            } else {
                String::new()
            }
        })
        .collect()
}

/// How a path as discovered (`abs_path`) is shown, relative to the current folder.
pub fn shown_of(cwd: &Path, path: &Path) -> String {
    shown_path(
        path,
        cwd,
        &absolute_in(cwd, Path::new(".")),
        Outside::AsGiven,
    )
}

/// How the run's file at `rel_path` (relative to the lint root) is shown.
pub fn shown(cwd: &Path, outcome: &LintOutcome, rel_path: &str) -> String {
    match outcome.repo.file_by_path(rel_path) {
        Some(id) => shown_of(cwd, &outcome.repo.file(id).abs_path),
        None => escape_text(rel_path).into_owned(),
    }
}

/// The summary lines for standard error: the counts (what the baseline hid included), or where
/// nothing was found and why; then, in a run with many findings, the rule with the most.
pub fn summary(outcome: &LintOutcome, options: &LintOptions, cwd: &Path) -> Vec<String> {
    if outcome.repo.files_in_scope() == 0 {
        if !outcome.excluded_named.is_empty() {
            let names: Vec<String> = outcome
                .excluded_named
                .iter()
                .map(|p| format!("`{}`", display_path(p)))
                .collect();
            return vec![format!(
                "Nothing linted: {} {} excluded (`exclude` in the configuration, or --exclude), and --force-exclude applies that to the paths named; name {} without --force-exclude to lint {} anyway.",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" },
                if names.len() == 1 { "it" } else { "them" },
                if names.len() == 1 { "it" } else { "them" },
            )];
        }
        // A run widened to the repository holds the paths from its top: they are shown from
        // the current folder, as typed.
        let base = absolute_in(cwd, Path::new("."));
        let typed: Vec<PathBuf> = options
            .paths
            .iter()
            .map(|path| {
                let absolute = absolute_in(cwd, path);
                match absolute.strip_prefix(&base) {
                    Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
                    Ok(rel) => rel.to_path_buf(),
                    Err(_) => path.clone(),
                }
            })
            .collect();
        return vec![render::nothing_found(&typed)];
    }
    let inline = outcome
        .suppressed
        .iter()
        .filter(|s| s.by == skilllint::diagnostic::SuppressedBy::Comment)
        .count();
    let baselined = outcome.suppressed.len() - inline;
    // The skills always, then the tools and the plugin surface when there are any: a server's
    // repository of 117 tools is "(0 skills, 117 tools)", not "(0 skills)".
    let mut kinds = outcome.repo.inventory();
    kinds.insert(1.min(kinds.len()), (outcome.tools, "tool"));
    let mut lines = vec![render::summary_of(
        outcome.repo.files_in_scope(),
        &kinds,
        &outcome.diagnostics,
        inline,
        baselined,
    )];
    let shown = shown_paths_of_findings(outcome, cwd, Format::Full);
    let sources = outcome.sources().with_shown(&shown);
    if let Some(line) =
        render::statistics::biggest_rule(&outcome.diagnostics, sources, options.catalog())
    {
        lines.push(line);
    }
    lines
}

/// `Wrote 343 baseline entries to skilllint-baseline.json (343 new, 0 kept, 0 pruned).`
pub fn written(path: &Path, written: &Written) -> String {
    format!(
        "Wrote {} baseline {} to {} ({} new, {} kept, {} pruned).",
        written.entries,
        if written.entries == 1 {
            "entry"
        } else {
            "entries"
        },
        display_path(path),
        written.added,
        written.kept,
        written.pruned
    )
}

/// Findings by file (as shown) and rule, as `--show-fixes` lists them.
fn by_file_and_rule(
    lines: &mut String,
    files: &BTreeMap<String, BTreeMap<&'static str, usize>>,
    catalog: &Catalog,
) {
    for (path, rules) in files {
        let _ = writeln!(lines, "- {path}:");
        for (code, count) in rules {
            let name = catalog.get(code).map_or("", |m| m.name.as_str());
            let _ = writeln!(lines, "    {count} × {code} ({name})");
        }
    }
}

/// `--show-fixes` after `--fix` (or `--diff`): what was fixed, by file and rule.
pub fn fixes_applied(run: &FixRun, cwd: &Path, diff: bool, catalog: &Catalog) -> String {
    let mut files: BTreeMap<String, BTreeMap<&'static str, usize>> = BTreeMap::new();
    for (path, rules) in &run.fixed_by_rule {
        let entry = files.entry(shown_of(cwd, path)).or_default();
        for (code, count) in rules {
            *entry.entry(code).or_default() += count;
        }
    }
    let total: usize = files.values().flat_map(BTreeMap::values).sum();
    if total == 0 {
        return "Nothing to fix.\n".to_string();
    }
    let mut out = format!(
        "{} {}:\n",
        if diff { "Would fix" } else { "Fixed" },
        plural(total, "finding")
    );
    by_file_and_rule(&mut out, &files, catalog);
    out
}

/// `--show-fixes` without `--fix`: what `--fix` (and `--unsafe-fixes`) would repair.
pub fn fixes_available(outcome: &LintOutcome, cwd: &Path, catalog: &Catalog) -> String {
    let shown = shown_paths(outcome, cwd, Format::Full);
    let mut safe: BTreeMap<String, BTreeMap<&'static str, usize>> = BTreeMap::new();
    let mut risky: BTreeMap<String, BTreeMap<&'static str, usize>> = BTreeMap::new();
    for d in &outcome.diagnostics {
        let Some(fix) = &d.fix else { continue };
        let target = match fix.applicability {
            Applicability::Safe => &mut safe,
            Applicability::Unsafe => &mut risky,
        };
        let path = shown
            .get(d.primary.file.0 as usize)
            .cloned()
            .unwrap_or_default();
        *target.entry(path).or_default().entry(d.code).or_default() += 1;
    }
    let count = |files: &BTreeMap<String, BTreeMap<&'static str, usize>>| -> usize {
        files.values().flat_map(BTreeMap::values).sum()
    };
    if count(&safe) == 0 && count(&risky) == 0 {
        return "No finding has a fix.\n".to_string();
    }
    let mut out = String::new();
    for (files, flags) in [(&safe, "--fix"), (&risky, "--fix --unsafe-fixes")] {
        if count(files) > 0 {
            let _ = writeln!(
                out,
                "{} fixable with `{flags}`:",
                plural(count(files), "finding")
            );
            by_file_and_rule(&mut out, files, catalog);
        }
    }
    out
}

/// Values from the configuration, escaped (a TOML string may hold control characters).
fn list(items: &[String]) -> String {
    if items.is_empty() {
        "(none)".to_string()
    } else {
        let escaped: Vec<String> = items.iter().map(|i| escape_text(i).into_owned()).collect();
        escaped.join(", ")
    }
}

/// `--show-settings`: what the run would use, resolved (the rules as codes), one setting a line.
pub fn settings(
    options: &LintOptions,
    config: &Config,
    overrides: &[String],
    args: &LintArgs,
    cwd: &Path,
) -> String {
    let on_off = |on: bool| if on { "on" } else { "off" }.to_string();
    let mut rows: Vec<(&str, String)> = Vec::new();
    let source = match &config.path {
        Some(path) => shown_of(cwd, path),
        None if args.isolated => "none (--isolated)".to_string(),
        None => "none found (defaults)".to_string(),
    };
    rows.push(("configuration file", source));
    for line in overrides {
        rows.push(("configuration override", escape_text(line).into_owned()));
    }
    let paths: Vec<String> = options
        .paths
        .iter()
        .map(|p| display_path(p).into_owned())
        .collect();
    rows.push(("paths", list(&paths)));
    let root = skilllint::settings::lint_root(&options.paths);
    rows.push(("lint root", display_path(&root).into_owned()));
    let catalog = options.catalog();
    let rules = match skilllint::selection::resolve(catalog, &options.select, &options.ignore) {
        Ok(enabled) => {
            let codes: Vec<String> = enabled.codes().map(str::to_string).collect();
            format!("({}) {}", codes.len(), list(&codes))
        }
        Err(message) => message,
    };
    rows.push(("rules", rules));
    let select = if options.select.is_empty() {
        skilllint::selection::DEFAULT_SELECT
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        options.select.clone()
    };
    rows.push(("select", list(&select)));
    rows.push(("ignore", list(&options.ignore)));
    let base = options
        .glob_base
        .as_deref()
        .map_or_else(|| ".".to_string(), |b| display_path(b).into_owned());
    rows.push((
        "exclude",
        format!("{} (relative to {base})", list(&options.exclude)),
    ));
    rows.push((
        "exclude",
        format!(
            "{} (relative to the current folder)",
            list(&options.exclude_here)
        ),
    ));
    rows.push(("force-exclude", on_off(options.force_exclude)));
    rows.push((
        "tools include",
        format!("{} (relative to {base})", list(&options.tool_include)),
    ));
    if !options.tool_include_here.is_empty() {
        rows.push((
            "tools include",
            format!(
                "{} (relative to the current folder)",
                list(&options.tool_include_here)
            ),
        ));
    }
    for (glob, rules) in &options.per_file_ignores {
        rows.push((
            "per-file-ignores",
            format!(
                "\"{}\" = {} (relative to {base})",
                escape_text(glob),
                list(rules)
            ),
        ));
    }
    for (code, severity) in &options.severity {
        rows.push(("severity", format!("{code} = {severity}")));
    }
    let fail_on = match args.fail_on {
        Some(crate::cli::flags::FailOn::Error) => "error",
        Some(crate::cli::flags::FailOn::Warning) => "warning",
        Some(crate::cli::flags::FailOn::Info) => "info",
        None => config.fail_on.map_or("error", |s| s.as_str()),
    };
    rows.push(("fail-on", fail_on.to_string()));
    rows.push(("max-file-size", format!("{} bytes", options.max_file_size)));
    let baseline = options.baseline.as_ref().map_or_else(
        || "(none)".to_string(),
        |b| {
            let n = b.entries.len();
            let entries = if n == 1 { "entry" } else { "entries" };
            format!("{} ({n} {entries})", shown_of(cwd, &b.path))
        },
    );
    rows.push(("baseline", baseline));
    rows.push(("inline ignores", on_off(options.inline_ignores)));
    rows.push((
        "skills extra-fields",
        list(&options.settings.skill_extra_fields),
    ));
    rows.push(("forge requirement-files", list(&options.requirement_files)));
    rows.push((
        "forge tool-use-rules-heading",
        escape_text(&options.settings.tool_use_rules_heading).into_owned(),
    ));
    for (tool, contract) in &options.settings.contract_map {
        rows.push((
            "contracts map",
            format!("{} = {}", escape_text(tool), escape_text(contract)),
        ));
    }
    let policy_rules: Vec<String> = options
        .policies
        .iter()
        .flat_map(|set| set.rules.iter().map(|r| r.code.to_string()))
        .collect();
    rows.push(("policy rules", list(&policy_rules)));
    let threads = options
        .threads
        .map_or_else(|| "one per core".to_string(), |n| n.to_string());
    rows.push(("threads", threads));
    let mut out = String::new();
    for (key, value) in rows {
        let _ = writeln!(out, "{key}: {value}");
    }
    out
}
