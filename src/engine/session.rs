//! A lint kept for edits: the language server's, and a diff's second revision, made from the
//! first with some texts changed. It relints the changed files' units, not the repository.

use super::analyse::{apply_baseline, conclude, enabled_rules, with_unit_run, Kept};
use super::{
    hooked_run, in_memory_keeping, prepare, resolve_selection, run_keeping, thread_pool, Files,
    LintError, LintOutcome, UnitHook,
};
use crate::check::run::{check_unit, check_unit_and, UnitOutcome};
use crate::check::Rule;
use crate::diagnostic::Diagnostic;
use crate::index::ContractIndex;
use crate::model::{parse_up_front, Parsed};
use crate::selection::Enabled;
use crate::settings::LintOptions;
use crate::source::FileId;
use rayon::prelude::*;
use std::sync::Arc;

/// A unit linted again: what its check left, and what the hook made of it when the session has
/// one.
type Rechecked<R> = (UnitOutcome, Option<R>);

/// A lint kept in memory between edits, for the language server (and for a diff, whose second
/// revision is the first with some texts changed): the repository and what each unit's check
/// left behind. [`Session::replace_text`] gives one file a new text (and
/// [`Session::replace_texts`] several) and lints again only what that can change, with the same
/// result as a fresh run over the same texts.
///
/// A clone shares the thread pool and copies the rest: the language server keeps answering from
/// one while the other is linted again.
///
/// `R` is what a product's [`UnitHook`] makes of each unit, kept beside its findings and made
/// again with them ([`Session::with_hook`]); `()` for a session without one.
#[derive(Clone)]
pub struct Session<R = ()> {
    options: LintOptions,
    enabled: Enabled,
    rules: Vec<&'static Rule>,
    outcome: LintOutcome,
    kept: Kept,
    /// The unit each file belongs to, by file.
    unit_of: Vec<usize>,
    pool: Arc<rayon::ThreadPool>,
    /// The hook of a session made with one ([`Session::with_hook`]) and what it made of each
    /// unit, relinted with its findings.
    per_unit: Option<(UnitHook<R>, Vec<R>)>,
    /// The options' baseline is applied after each relint (a diff side's, as
    /// [`super::lint_each_unit`] applies it; the language server's sessions never apply one).
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
    /// Lints as [`super::lint`] does, keeping what later edits need.
    pub fn lint(options: &LintOptions) -> Result<Session, LintError> {
        let (enabled, pool) = prepare(options)?;
        let root = options.root();
        let threads = pool.current_num_threads();
        let (outcome, kept, widened) =
            pool.install(|| run_keeping(options, &enabled, root, threads, true))?;
        Ok(match widened {
            Some((options, enabled)) => Self::new(&options, enabled, outcome, kept, pool),
            None => Self::new(options, enabled, outcome, kept, pool),
        })
    }

    /// Lints as [`super::lint_in_memory`] does, keeping what later edits need.
    pub fn in_memory(
        options: &LintOptions,
        files: Vec<(String, String)>,
    ) -> Result<Session, LintError> {
        let enabled = resolve_selection(options)?;
        let pool = thread_pool(options)?;
        let (outcome, kept) = pool.install(|| in_memory_keeping(options, &enabled, files, true))?;
        Ok(Self::new(options, enabled, outcome, kept, pool))
    }
}

impl<R: Clone + Send> Session<R> {
    /// Lints as [`super::lint_each_unit`] does (its baseline applied), keeping what later edits
    /// need, what `hook` made of each unit included: a diff builds its second side from its
    /// first this way when only some texts differ.
    pub(crate) fn with_hook(
        options: &LintOptions,
        files: Files<'_>,
        hook: UnitHook<R>,
    ) -> Result<Session<R>, LintError> {
        let (run, pool) = hooked_run(options, files, hook, true)?;
        let options = run.options.as_ref().unwrap_or(options);
        let mut session = Self::new(options, run.enabled, run.outcome, run.kept, pool);
        // The hooked run's read problems are the kept ones: both are the read stage's findings.
        debug_assert_eq!(session.kept.read_problems, run.read_problems);
        session.per_unit = Some((hook, run.per_unit));
        session.with_baseline = true;
        Ok(session)
    }

    /// What the hook made of each unit as the files stand, when the session has one
    /// ([`Session::with_hook`]).
    pub fn per_unit(&self) -> Option<&[R]> {
        self.per_unit
            .as_ref()
            .map(|(_, results)| results.as_slice())
    }

    /// [`Session::per_unit`] for the last time: the results move out (no copy of them at the
    /// peak), and the session keeps none after.
    pub fn take_per_unit(&mut self) -> Option<Vec<R>> {
        self.per_unit.take().map(|(_, results)| results)
    }

    /// The read stage's findings (SL001) of the session's run.
    pub fn read_problems(&self) -> &[Diagnostic] {
        &self.kept.read_problems
    }

    fn new(
        options: &LintOptions,
        enabled: Enabled,
        outcome: LintOutcome,
        kept: Option<Kept>,
        pool: rayon::ThreadPool,
    ) -> Session<R> {
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
            per_unit: None,
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
                || super::code::changes_context(&repo.code, &rel_path, kind, repo.text(id), &text)
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
        let (enabled, kept, per_unit) = (&self.enabled, &mut self.kept, &mut self.per_unit);
        let hook = per_unit.as_ref().map(|(hook, _)| *hook);
        let ((), spent) = with_unit_run(options, enabled, repo, rules, |run| {
            // Each unit again, with what the hook makes of it when the session has one.
            let check = |unit: usize| {
                let files = repo.units.get(unit)?;
                Some(match hook {
                    Some(hook) => {
                        let (outcome, result) = check_unit_and(repo, files, run, hook);
                        (outcome, Some(result))
                    }
                    None => (check_unit(repo, files, run), None),
                })
            };
            let checked: Vec<(usize, Option<Rechecked<R>>)> = self
                .pool
                .install(|| units.par_iter().map(|unit| (*unit, check(*unit))).collect());
            for (unit, result) in checked {
                let Some((outcome, unit_result)) = result else {
                    continue;
                };
                if let Some(slot) = kept.units.get_mut(unit) {
                    *slot = outcome;
                }
                if let (Some((_, results)), Some(unit_result)) = (per_unit.as_mut(), unit_result) {
                    if let Some(slot) = results.get_mut(unit) {
                        *slot = unit_result;
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
        self.outcome.tools = self.kept.units.iter().map(|u| u.tools).sum();
        if let (true, Some(baseline)) = (self.with_baseline, &self.options.baseline) {
            apply_baseline(&self.options, &self.enabled, &mut self.outcome, baseline);
        }
        Replaced::Relinted
    }
}
