//! Running the rules: one unit at a time (its own files parsed, checked and dropped), then the
//! repository-wide rules; every rule run is guarded, so a panicking rule becomes an SL900 finding
//! and the other rules still run.

use crate::catalog::catalog;
use crate::check::{Check, RepoContext, Rule, Sink, Unit};
use crate::diagnostic::Diagnostic;
use crate::index::{parse_pending, Parsed, Repo, UnitFiles};
use crate::parse::suppression::{self, Malformed, Suppression};
use crate::semantic::skill_names::SkillName;
use crate::source::{FileId, Span};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What checking one unit leaves behind once its parses are dropped.
#[derive(Default, Clone)]
pub(crate) struct UnitOutcome {
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Diagnostics the engine keeps one of per key in a run (a policy rule's evaluation
    /// failures, keyed by the rule's position).
    pub(crate) once_per_run: Vec<(usize, Diagnostic)>,
    pub(crate) skill_name: Option<SkillName>,
    /// How many tools the folder's tool lists declare (the summary counts them).
    pub(crate) tools: usize,
    /// By file, for the folder's files that have suppression comments.
    pub(crate) suppressions: Vec<(FileId, Vec<Suppression>, Vec<Malformed>)>,
}

/// More checks of a unit beside its rules (the policy rules, which the engine passes: the check
/// stage never imports them): findings, and diagnostics to keep once per run by key.
pub(crate) type UnitHook<'h> =
    &'h (dyn Fn(&crate::check::Unit<'_>) -> (Vec<Diagnostic>, Vec<(usize, Diagnostic)>) + Sync);

/// What a unit is checked with: the rules, the catalog suppression comments are read against,
/// and the hook.
pub(crate) struct UnitRun<'r> {
    pub(crate) rules: &'r [&'r Rule],
    pub(crate) catalog: &'r crate::catalog::Catalog,
    pub(crate) panic_in: Option<&'r str>,
    pub(crate) inline_ignores: bool,
    pub(crate) hook: UnitHook<'r>,
}

/// Parses a unit's own files, runs the unit rules on them and keeps what outlives the parses.
pub(crate) fn check_unit(repo: &Repo, files: &UnitFiles, run: &UnitRun<'_>) -> UnitOutcome {
    check_unit_and(repo, files, run, |_| ()).0
}

/// [`check_unit`], and `also` over the same parse of the unit (the inventory's rows, which
/// `skilllint diff` needs beside the findings), before the parses are dropped.
pub(crate) fn check_unit_and<R>(
    repo: &Repo,
    files: &UnitFiles,
    run: &UnitRun<'_>,
    also: impl FnOnce(&Unit<'_>) -> R,
) -> (UnitOutcome, R) {
    with_unit(repo, files, |unit| {
        let outcome = check_parsed_unit(unit, files, run);
        (outcome, also(unit))
    })
}

/// Calls `f` with the unit of `files`: its own files parsed, its facts empty. The parses, facts
/// and editable JSON views live as long as the call, no longer.
pub(crate) fn with_unit<R>(repo: &Repo, files: &UnitFiles, f: impl FnOnce(&Unit<'_>) -> R) -> R {
    let local: Vec<(FileId, Parsed)> = files
        .all()
        .iter()
        .filter_map(|id| parse_pending(repo, *id).map(|parsed| (*id, parsed)))
        .collect();
    let view = crate::index::UnitView {
        repo,
        files,
        local: &local,
    };
    let facts = crate::semantic::UnitFacts::default();
    let json_texts = crate::check::JsonTexts::default();
    let unit = crate::check::Unit::new(view, &facts, &json_texts);
    f(&unit)
}

fn check_parsed_unit(unit: &Unit<'_>, files: &UnitFiles, run: &UnitRun<'_>) -> UnitOutcome {
    let UnitRun {
        rules,
        catalog,
        panic_in,
        inline_ignores,
        hook,
    } = *run;
    let repo = unit.repo;
    let members = files.all();
    let primary = files.primary_file();
    let mut outcome = UnitOutcome::default();
    for rule in rules {
        if let Check::Unit(check) = rule.check {
            outcome
                .diagnostics
                .extend(guarded(rule, primary, panic_in, |sink| check(unit, sink)));
        }
    }
    // The rules' fixes edit JSON and YAML: none applies to a tool registered in source code.
    for diagnostic in &mut outcome.diagnostics {
        if matches!(unit.parsed(diagnostic.primary.file), Parsed::Tools(doc) if doc.code.is_some())
        {
            diagnostic.fix = None;
        }
    }
    // Guarded as a rule is: a panic in an expression becomes SL900, and the unit's other
    // findings stay.
    install_panic_hook();
    IN_RULE.with(|f| f.set(true));
    let hooked = catch_unwind(AssertUnwindSafe(|| hook(unit)));
    IN_RULE.with(|f| f.set(false));
    match hooked {
        Ok((findings, once)) => {
            outcome.diagnostics.extend(findings);
            outcome.once_per_run.extend(once);
        }
        Err(_) => outcome.diagnostics.extend(crashed("policy rules", primary)),
    }
    outcome.skill_name = crate::semantic::skill_names::skill_name(unit);
    outcome.tools = unit
        .tools()
        .filter(|(file, _)| repo.in_scope(*file))
        .count();
    if inline_ignores {
        for id in members {
            let (found, broken) = suppressions_in(catalog, id, repo.text(id), unit.parsed(id));
            if !found.is_empty() || !broken.is_empty() {
                outcome.suppressions.push((id, found, broken));
            }
        }
    }
    outcome
}

/// The suppression comments of one file, and the malformed ones, in text order: YAML (all of a
/// requirement.yaml, a Markdown file's frontmatter) then the Markdown body, with rule names read
/// against the catalog.
fn suppressions_in(
    catalog: &crate::catalog::Catalog,
    file: FileId,
    text: &str,
    parsed: &Parsed,
) -> (Vec<Suppression>, Vec<Malformed>) {
    let resolve = |rule: &str| catalog.find(rule).map(|meta| meta.code);
    if let Parsed::Requirement(_) = parsed {
        let whole = Span::new(0, text.len());
        return suppression::collect(file, text, Some(whole), None, &resolve);
    }
    if let Parsed::Tools(doc) = parsed {
        if let Some(lang) = doc.code {
            return suppression::collect_in_code(file, text, lang.line_comment(), &resolve);
        }
    }
    let Some(doc) = parsed.markdown_doc() else {
        return (Vec::new(), Vec::new());
    };
    let yaml = doc.frontmatter().map(|frontmatter| frontmatter.yaml);
    suppression::collect(file, text, yaml, Some(&doc.body), &resolve)
}

/// Runs the repository-wide rules, which read only what outlives the units: the up-front parses
/// and the skills' names.
pub(crate) fn check_repo(
    repo: &RepoContext<'_>,
    rules: &[&Rule],
    panic_in: Option<&str>,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for rule in rules {
        if let Check::Repo(check) = rule.check {
            diagnostics.extend(guarded(rule, None, panic_in, |sink| check(repo, sink)));
        }
    }
    diagnostics
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

/// SL900 for checks that are no registered rule (the policy rules of a unit).
fn crashed(what: &str, file: Option<FileId>) -> Vec<Diagnostic> {
    let Some(meta) = catalog().get("SL900") else {
        return Vec::new();
    };
    vec![Diagnostic::new(
        meta.code,
        meta.severity,
        file.unwrap_or(FileId(0)),
        Span::empty(0),
        format!("the {what} crashed on this unit; the other rules still ran"),
    )
    .with_help("internal error. Please report this as a skilllint bug.")]
}
