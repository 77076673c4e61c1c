//! The analysis of files already read: the index, every enabled rule unit by unit (with the
//! organisation policies through the check stage's hook, and a product's [`super::UnitHook`]),
//! the repository-wide rules, then triage and the baseline.

use super::read::{Bundle, LintRoot, ReadFiles};
use super::{registry, LintError, LintOutcome};
use crate::check::run::{check_repo, check_unit_and, UnitOutcome, UnitRun};
use crate::check::{RepoContext, Rule};
use crate::diagnostic::{Diagnostic, Suppressed};
use crate::index::{build_units, ContractIndex, Repo};
use crate::model::Parsed;
use crate::selection::Enabled;
use crate::settings::LintOptions;
use crate::source::{FileId, SourceFile, Span};
use crate::triage::{self, Policy};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Hides what the baseline accepts; its SL020 / SL021 findings join the others.
pub(super) fn apply_baseline(
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

/// [`analyse`] over what the read stage left, with the named paths `exclude` matched.
pub(super) fn analyse_read<R: Send, F: Fn(&crate::check::Unit<'_>) -> R + Sync>(
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

/// What a [`Session`] keeps besides the outcome: the read problems (SL001) and what each unit's
/// check left, by unit.
#[derive(Clone)]
pub(super) struct Kept {
    pub(super) read_problems: Vec<Diagnostic>,
    pub(super) units: Vec<UnitOutcome>,
    /// The policies went over the run's budget: a changed file is linted afresh.
    pub(super) policies_spent: bool,
}

/// index → check → triage, for files already read (and, for the kinds other folders refer to,
/// parsed); keeping, when `keep`, what a [`Session`] needs to lint a changed file again.
#[allow(clippy::too_many_arguments)]
pub(super) fn analyse_keeping(
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
pub(super) struct Stages<F> {
    pub(super) keep: bool,
    pub(super) also: F,
}

/// [`analyse_keeping`], with `stages.also` run over each unit after its rules.
#[allow(clippy::too_many_arguments)]
fn analyse<R: Send, F: Fn(&crate::check::Unit<'_>) -> R + Sync>(
    options: &LintOptions,
    enabled: &Enabled,
    files: Vec<SourceFile>,
    parsed: Vec<Parsed>,
    mut diagnostics: Vec<Diagnostic>,
    (bundled, linked_breaks, code): Bundle,
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
        (bundled, linked_breaks, code),
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
    let tools = outcomes.iter().map(|o| o.tools).sum();
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
            tools,
        },
        kept,
        extra,
    ))
}

/// The repository index over files already read: units, contracts, settings, and which rule
/// reports in which file.
#[allow(clippy::too_many_arguments)]
pub(super) fn index_repo(
    options: &LintOptions,
    enabled: &Enabled,
    files: Vec<SourceFile>,
    parsed: Vec<Parsed>,
    (bundled, linked_breaks, code): Bundle,
    reference_root: Option<PathBuf>,
    root: &Path,
    base: &Path,
) -> Result<Repo, LintError> {
    let reporting = reporting_of(options, enabled, base, root).map_err(LintError::Selector)?;
    let units = build_units(&files, &parsed);
    let contracts = ContractIndex::build(&parsed);
    Ok(Repo {
        files,
        parsed,
        units,
        contracts,
        settings: settings_of(options),
        reporting,
        scope: options.report_scope(root),
        reference_root,
        bundled,
        linked_breaks,
        code,
    })
}

/// The rule settings of a run: the run configuration's, with the `[skills] extra-fields` of each
/// configuration below the root.
fn settings_of(options: &LintOptions) -> crate::index::Settings {
    let mut settings = options.settings.clone();
    settings.scoped_extra_fields = options
        .scoped
        .iter()
        .map(|config| (config.folder.clone(), config.extra_fields.clone()))
        .collect();
    crate::source::deepest_first(&mut settings.scoped_extra_fields);
    settings
}

/// Which rule reports in which file: the run's configuration's selection, `per-file-ignores`
/// (relative to `base`) and severity overrides, and those of each configuration below the root
/// for the files below it.
fn reporting_of(
    options: &LintOptions,
    enabled: &Enabled,
    base: &Path,
    root: &Path,
) -> Result<crate::selection::Reporting, String> {
    use crate::selection::{reporting, resolve};
    let catalog = options.catalog();
    if options.scoped.is_empty() {
        let run = reporting(catalog, enabled, base, root, &options.per_file_ignores)?;
        return Ok(run.with_severity(options.severity.clone()));
    }
    // `enabled` is every configuration's rules together: the run's own selection decides for
    // the files no configuration below the root governs.
    let own = resolve(catalog, &options.select, &options.ignore)?;
    let run = reporting(catalog, &own, base, root, &options.per_file_ignores)?
        .with_severity(options.severity.clone());
    let mut folders = Vec::with_capacity(options.scoped.len());
    for config in &options.scoped {
        let enabled = resolve(catalog, &config.select, &config.ignore)?;
        let scoped = reporting(
            catalog,
            &enabled,
            &config.base,
            root,
            &config.per_file_ignores,
        )?
        .with_severity(config.severity.clone());
        folders.push((config.folder.clone(), scoped));
    }
    Ok(run.with_folders(folders))
}

/// The registry's rules that are enabled, in catalog order.
pub(super) fn enabled_rules(enabled: &Enabled) -> Vec<&'static Rule> {
    registry()
        .rules
        .iter()
        .filter(|r| enabled.contains(r.meta.code))
        .collect()
}

/// The policies of a run that went over its budget: their rules, and the one finding that says
/// so.
pub(super) struct BudgetSpent {
    pub(super) codes: Vec<&'static str>,
    pub(super) finding: Option<Diagnostic>,
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
pub(super) fn with_unit_run<R>(
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
pub(super) fn conclude(
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
