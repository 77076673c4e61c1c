//! Running policy rules over one unit: the entities of each kind a rule reads are built once, bound
//! with `skill` and `repo` in one CEL context per entity, and every rule about that kind runs
//! against it. A rule that cannot be evaluated on an entity, or whose cost bound is over the
//! limit there, leaves a failure instead of a finding; the engine keeps one per rule per run.

pub use super::entity::Var;
use super::entity::{self, Entity, Wanted};
use super::expr::{env, Compiled, Sizes, COST_LIMIT};
use super::{Kind, Piece, PolicyRule, PolicySet};
use crate::catalog::Catalog;
use crate::check::Unit;

use crate::check::Sink;
use crate::diagnostic::Diagnostic;
use crate::index::Repo;
use cel::common::value::{CowVal, Val};
use cel::context::VariableResolver;
use cel::objects::{Key, Map};
use cel::{Context, Program, ResolveResult, Value};
use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The SL rule of an expression that failed on an entity, and of one stopped by the cost limit.
pub const EVALUATION_FAILED: &str = "SL010";
pub const COST_LIMIT_REACHED: &str = "SL011";

/// What one unit's policy rules found.
#[derive(Default)]
pub struct UnitResult {
    pub findings: Vec<Diagnostic>,
    /// By the rule's position in the set: the evaluation failures (SL010, SL011).
    pub failures: Vec<(usize, Diagnostic)>,
}

/// The `repo` variable: counts and settings of the whole run.
pub fn repo_value(repo: &Repo) -> Value {
    let count = |kind: fn(&crate::index::UnitFiles) -> usize| -> Value {
        Value::Int(repo.units.iter().map(kind).sum::<usize>() as i64)
    };
    let mut map = HashMap::new();
    map.insert(Key::from("skills"), Value::Int(repo.skill_count() as i64));
    map.insert(Key::from("files"), Value::Int(repo.files.len() as i64));
    map.insert(
        Key::from("contracts"),
        count(|u| usize::from(u.contract.is_some())),
    );
    map.insert(Key::from("drivers"), count(|u| u.drivers.len()));
    map.insert(
        Key::from("tool_use_rules_heading"),
        Value::String(Arc::new(repo.settings.tool_use_rules_heading.clone())),
    );
    Value::Map(Map { map: Arc::new(map) })
}

/// `repo` for a test case that does not bind it.
pub fn default_repo_value() -> Value {
    let mut map = HashMap::new();
    for field in ["skills", "files", "contracts", "drivers"] {
        map.insert(Key::from(field), Value::Int(0));
    }
    map.insert(
        Key::from("tool_use_rules_heading"),
        Value::String(Arc::new("Tool Use Rules".to_string())),
    );
    Value::Map(Map { map: Arc::new(map) })
}

/// `skill` in a unit without a SKILL.md: an empty map, so `has(skill.name)` is false.
pub fn no_skill() -> Value {
    Value::Map(Map {
        map: Arc::new(HashMap::new()),
    })
}

/// How one rule came out on one set of variables.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    /// `when` was false, or `assert` true.
    Clean,
    /// `assert` was false: the rendered message.
    Fires(String),
    /// The expression failed (or returned no boolean): why.
    Failed(String),
    /// The cost bound was over the limit: the bound.
    TooCostly(u64),
    /// Stopped for its cost while it ran (a pattern too costly on its text), or not run because
    /// the run's policy budget is spent: why.
    Stopped(String),
}

/// Why [`evaluate`] was told not to run an expression: the run's budget is spent.
pub const BUDGET_SPENT: &str = "the run's policy budget is spent";

/// Evaluates `rule` on `variables`; `interpret` runs a program with them bound (when the
/// shortcut cannot answer), `largest` and `longest` give the size of the largest list or map
/// and of the longest string in them, `charge` is told the work of each expression before it
/// runs (and of the pattern fallback after) and answers whether the run may still spend it.
pub fn evaluate(
    rule: &PolicyRule,
    interpret: &dyn Fn(&Program) -> ResolveResult,
    variables: &[(&str, Var<'_, '_>)],
    largest: &dyn Fn() -> u64,
    longest: &dyn Fn() -> u64,
    charge: &dyn Fn(u64) -> bool,
) -> Outcome {
    let size_of = |path: &[&str]| -> Option<u64> {
        let (root, rest) = path.split_first()?;
        let variable = variables.iter().find(|(n, _)| n == root)?.1;
        variable.find(rest)?.collection_len()
    };
    let len_of = |path: &[&str]| -> Option<u64> {
        let (root, rest) = path.split_first()?;
        let variable = variables.iter().find(|(n, _)| n == root)?.1;
        variable.find(rest)?.string_len()
    };
    let sizes = Sizes {
        size_of: &size_of,
        len_of: &len_of,
        largest,
        longest,
    };
    let run = |compiled: &Compiled| -> Result<bool, Outcome> {
        let bound = compiled.cost_bound(&sizes);
        if bound > COST_LIMIT {
            return Err(Outcome::TooCostly(bound));
        }
        if !charge(bound) {
            return Err(Outcome::Stopped(BUDGET_SPENT.to_string()));
        }
        if let Some(test) = &compiled.fast {
            super::pattern::start_evaluation();
            let answer = super::fast::evaluate(test, variables);
            charge(super::pattern::start_evaluation() / FALLBACK_STEPS_PER_STEP);
            if let Some(answer) = answer {
                // Debug builds (every test) check the shortcut against the interpreter.
                if cfg!(debug_assertions) {
                    let cel = interpret(&compiled.program);
                    super::pattern::start_evaluation();
                    assert!(
                        matches!(cel, Ok(Value::Bool(b)) if b == answer),
                        "`{}`: the shortcut gave {answer}, CEL {cel:?}",
                        compiled.source
                    );
                }
                return Ok(answer);
            }
        }
        super::pattern::start_evaluation();
        let _ = super::pattern::take_refusal();
        let result = interpret(&compiled.program);
        charge(super::pattern::start_evaluation() / FALLBACK_STEPS_PER_STEP);
        if let Some(why) = super::pattern::take_refusal() {
            return Err(Outcome::Stopped(why));
        }
        match result {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(other) => Err(Outcome::Failed(format!(
                "`{}` gave {}, not a boolean",
                compiled.source.trim(),
                type_name(&other)
            ))),
            Err(error) => Err(Outcome::Failed(error.to_string())),
        }
    };
    if let Some(when) = &rule.when {
        match run(when) {
            Ok(true) => {}
            Ok(false) => return Outcome::Clean,
            Err(outcome) => return outcome,
        }
    }
    match run(&rule.assert) {
        Ok(true) => Outcome::Clean,
        Ok(false) => Outcome::Fires(render_message(&rule.message, variables)),
        Err(outcome) => outcome,
    }
}

/// How many NFA-simulation steps of the pattern fallback count as one step of the budget.
const FALLBACK_STEPS_PER_STEP: u64 = 8;

fn type_name(value: &Value) -> String {
    value.type_of().to_string()
}

/// Fills a message's placeholders: strings as they are, lists joined with `, `, an absent value
/// as `<none>`.
pub fn render_message(pieces: &[Piece], variables: &[(&str, Var<'_, '_>)]) -> String {
    let mut out = String::new();
    for piece in pieces {
        // A message is a line for a person: past the cap the rest is not even rendered (a
        // template repeating a megabyte field 2,000 times would otherwise take gigabytes).
        if out.len() > MAX_MESSAGE {
            break;
        }
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Path(path) => {
                let segments: Vec<&str> = path.iter().map(String::as_str).collect();
                let found = segments.split_first().and_then(|(root, rest)| {
                    let variable = variables.iter().find(|(n, _)| n == root)?.1;
                    variable.find(rest)
                });
                match found {
                    Some(found) => out.push_str(&found.display()),
                    None => out.push_str("<none>"),
                }
            }
        }
    }
    if out.len() > MAX_MESSAGE {
        let mut end = MAX_MESSAGE;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push_str("… (cut)");
    }
    out
}

/// The longest rendered message, in bytes, before it is cut.
pub const MAX_MESSAGE: usize = 1000;

/// What a run evaluates: the active rules by kind, and which fields of each variable they read,
/// worked out once per run.
pub struct Plan<'s> {
    set: &'s PolicySet,
    /// The positions of the active rules of each kind, in [`Kind::ALL`] order.
    by_kind: Vec<(Kind, Vec<usize>, Wanted)>,
    /// The fields of `skill` any active rule reads.
    skill: Wanted,
    repo: Value,
    repo_val: Arc<dyn Val>,
    /// The work the run's evaluations have been charged, across threads.
    spent: AtomicU64,
    budget: u64,
}

/// The most work the policies of one run may do, in steps (see [`super::expr::cost_bound`]):
/// [`RUN_BUDGET_BASE`] and [`RUN_BUDGET_PER_BYTE`] for every byte the run read, so that the
/// policies' work stays linear in the input (a fraction of a second on a megabyte; the example
/// pack spends a few thousand steps on each of twenty real repositories). Past it the run stops evaluating policies and reports
/// none of their findings, whichever threads got how far, so the output stays the same whatever
/// the thread count.
pub const RUN_BUDGET_BASE: u64 = 2_000_000;
pub const RUN_BUDGET_PER_BYTE: u64 = 2;

/// The budget of a run over `repo`.
pub fn run_budget(repo: &Repo) -> u64 {
    let bytes: u64 = repo.files.iter().map(|f| f.text.len() as u64).sum();
    RUN_BUDGET_BASE.saturating_add(bytes.saturating_mul(RUN_BUDGET_PER_BYTE))
}

impl<'s> Plan<'s> {
    /// Charges `steps` to the run; whether the run is still within its budget.
    fn charge(&self, steps: u64) -> bool {
        self.spent
            .fetch_add(steps, Ordering::Relaxed)
            .saturating_add(steps)
            <= self.budget
    }

    /// Whether the run's evaluations went over the budget: then none of their results count.
    pub fn exhausted(&self) -> bool {
        self.spent.load(Ordering::Relaxed) > self.budget
    }

    /// The codes of the active rules, for dropping their findings when [`Plan::exhausted`].
    pub fn codes(&self) -> Vec<&'static str> {
        let mut codes: Vec<&'static str> = self
            .by_kind
            .iter()
            .flat_map(|(_, rules, _)| rules.iter().map(|i| self.set.rules[*i].code))
            .collect();
        codes.sort_unstable();
        codes
    }

    /// The one finding of a run whose policies went over the budget, on `file`.
    pub fn budget_spent(&self, file: crate::source::FileId) -> Option<Diagnostic> {
        let meta = self.set.catalog().get(COST_LIMIT_REACHED)?;
        Some(
            Diagnostic::new(
                meta.code,
                meta.severity,
                file,
                crate::source::Span::empty(0),
                format!(
                    "the organisation policies were stopped: their work went over the run's budget of {} steps, so none of their findings is reported (rules {})",
                    self.budget,
                    self.codes().join(", ")
                ),
            )
            .with_help("a policy that compares every element of a large list with every other, or matches patterns against very long strings, does work that grows with the square of the data; rewrite it, or run without it (--isolated, or --ignore with its code)"),
        )
    }

    pub fn new(set: &'s PolicySet, active: &[usize], repo: Value, budget: u64) -> Self {
        let mut skill = Wanted::default();
        let mut by_kind = Vec::new();
        for kind in Kind::ALL {
            let rules: Vec<usize> = active
                .iter()
                .copied()
                .filter(|i| set.rules[*i].on == kind)
                .collect();
            if rules.is_empty() {
                continue;
            }
            let mut wanted = Wanted::default();
            for index in &rules {
                let rule = &set.rules[*index];
                read_fields(rule, kind.variable(), &mut wanted);
                read_fields(rule, "skill", &mut skill);
            }
            by_kind.push((kind, rules, wanted));
        }
        let repo_val = entity::to_val(&repo);
        Plan {
            set,
            by_kind,
            skill,
            repo,
            repo_val,
            spent: AtomicU64::new(0),
            budget,
        }
    }
}

/// Adds the fields of `variable` that `rule` reads (expressions and message) to `wanted`.
fn read_fields(rule: &PolicyRule, variable: &str, wanted: &mut Wanted) {
    for compiled in rule.when.iter().chain(std::iter::once(&rule.assert)) {
        super::expr::fields_read(compiled.program.expression(), variable, wanted);
    }
    // `at` locates through a field too (`tool.contract.approval` needs the link).
    if rule.at_root == variable {
        if let Some(field) = rule.at.first() {
            wanted.insert(field);
        }
    }
    for piece in &rule.message {
        if let Piece::Path(path) = piece {
            match path.as_slice() {
                [root] if root == variable => wanted.all = true,
                [root, field, ..] if root == variable => {
                    wanted.insert(field);
                }
                _ => {}
            }
        }
    }
}

/// The variables of one evaluation, lent to the evaluator: nothing is copied per rule.
struct Bound<'a> {
    variables: [(&'static str, &'a dyn Val); 3],
}

impl VariableResolver for Bound<'_> {
    fn resolve<'b>(&'b self, variable: &str) -> Option<CowVal<'b, 'b>> {
        self.variables
            .iter()
            .find(|(name, _)| *name == variable)
            .map(|(_, val)| CowVal::Borrowed(*val))
    }
}

/// Runs the plan's rules over one unit.
pub fn check_unit(plan: &Plan<'_>, unit: &Unit<'_>) -> UnitResult {
    let mut result = UnitResult::default();
    let set = plan.set;
    let repo = &plan.repo;
    let catalog = set.catalog();
    let skill = entity::skill(unit, &plan.skill);
    let skill_value = no_skill();
    let skill_val: OnceCell<Arc<dyn Val + '_>> = OnceCell::new();
    let skill_val = || {
        skill_val.get_or_init(|| match &skill {
            Some(skill) => Arc::clone(skill.val()),
            None => entity::to_val(&skill_value),
        })
    };
    let skill_var = match &skill {
        Some(skill) => Var::Entity(skill),
        None => Var::Value(&skill_value),
    };
    for (kind, rules, wanted) in &plan.by_kind {
        let kind = *kind;
        let built;
        let entities: &[Entity<'_>] = match (kind, &skill) {
            (Kind::Skill, Some(skill)) => std::slice::from_ref(skill),
            (Kind::Skill, None) => &[],
            _ => {
                built = entity::of_kind(unit, kind, wanted);
                &built
            }
        };
        // A sink is made for a rule when it first reports in the unit: most never do.
        let mut sinks: Vec<Option<Sink>> = rules.iter().map(|_| None).collect();
        for entity in entities {
            // The interpreter's values and context are made when an expression first needs them.
            let bound = OnceCell::new();
            let context = OnceCell::new();
            let interpret = |program: &Program| {
                let context = context.get_or_init(|| {
                    let bound = bound.get_or_init(|| Bound {
                        variables: [
                            (kind.variable(), &**entity.val()),
                            ("skill", &**skill_val()),
                            ("repo", &*plan.repo_val),
                        ],
                    });
                    let mut context = Context::with_env(Arc::clone(env()));
                    context.set_variable_resolver(bound);
                    context
                });
                program.execute(context)
            };
            let all_variables = [
                (kind.variable(), Var::Entity(entity)),
                ("skill", skill_var),
                ("repo", Var::Value(repo)),
            ];
            // A skill rule's entity is `skill`.
            let variables: &[(&str, Var<'_, '_>)] = if kind == Kind::Skill {
                &[all_variables[0], all_variables[2]]
            } else {
                &all_variables
            };
            let largest = || {
                entity
                    .largest()
                    .max(skill.as_ref().map_or(0, |s| s.largest()))
            };
            let longest = || {
                entity
                    .longest()
                    .max(skill.as_ref().map_or(0, |s| s.longest()))
            };
            let charge = |steps: u64| plan.charge(steps);
            for (slot, index) in rules.iter().enumerate() {
                let rule = &set.rules[*index];
                match evaluate(rule, &interpret, variables, &largest, &longest, &charge) {
                    Outcome::Clean => {}
                    Outcome::Fires(message) => {
                        let located = if rule.at_root == "skill" && kind != Kind::Skill {
                            skill.as_ref().map(|s| s.locate(&rule.at))
                        } else {
                            Some(entity.locate(&rule.at))
                        };
                        let (file, span) = located.unwrap_or((entity.file, entity.anchor));
                        if sinks[slot].is_none() {
                            sinks[slot] = catalog.get(rule.code).map(Sink::new);
                        }
                        if let Some(sink) = &mut sinks[slot] {
                            let diagnostic = sink.report(file, span, message);
                            if let Some(help) = &rule.help {
                                diagnostic.help(help.clone());
                            }
                        }
                    }
                    Outcome::Failed(why) => {
                        result.failures.extend(
                            failure(catalog, rule, entity, EVALUATION_FAILED, &why)
                                .map(|d| (*index, d)),
                        );
                    }
                    Outcome::TooCostly(bound) => {
                        let why = format!(
                            "its cost bound on this entity is {bound} evaluation steps, over the limit of {COST_LIMIT}"
                        );
                        result.failures.extend(
                            failure(catalog, rule, entity, COST_LIMIT_REACHED, &why)
                                .map(|d| (*index, d)),
                        );
                    }
                    // The run's results are dropped (see `Plan::exhausted`): stop here.
                    Outcome::Stopped(why) if why == BUDGET_SPENT => return result,
                    Outcome::Stopped(why) => {
                        result.failures.extend(
                            failure(catalog, rule, entity, COST_LIMIT_REACHED, &why)
                                .map(|d| (*index, d)),
                        );
                    }
                }
            }
        }
        for sink in sinks.into_iter().flatten() {
            result.findings.extend(sink.finish());
        }
    }
    result
}

fn failure(
    catalog: &Catalog,
    rule: &PolicyRule,
    entity: &Entity<'_>,
    code: &'static str,
    why: &str,
) -> Option<Diagnostic> {
    let meta = catalog.get(code)?;
    let (message, help) = if code == EVALUATION_FAILED {
        (
            format!(
                "policy rule {} [{}] could not be evaluated on {}: {why}",
                rule.code, rule.name, entity.label()
            ),
            "guard keys that may be absent with `has()`; the rule still ran on every other entity, and further failures of this rule in this run are not reported",
        )
    } else {
        (
            format!(
                "policy rule {} [{}] was not evaluated on {}: {why}",
                rule.code, rule.name, entity.label()
            ),
            "avoid nesting comprehensions over large lists; the rule still ran on every other entity, and further stops of this rule in this run are not reported",
        )
    };
    Some(
        Diagnostic::new(
            meta.code,
            meta.severity,
            entity.file,
            entity.anchor,
            message,
        )
        .with_help(help),
    )
}

/// Keeps the first failure of each rule (by position in the output order), and drops the rest.
pub fn one_failure_per_rule(mut failures: Vec<(usize, Diagnostic)>) -> Vec<Diagnostic> {
    failures.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| a.1.sort_key().cmp(&b.1.sort_key()))
    });
    failures.dedup_by(|later, first| later.0 == first.0);
    failures.into_iter().map(|(_, d)| d).collect()
}
