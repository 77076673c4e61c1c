//! `skilllint policy test`: every rule's inline `tests`. A `fires` case must make the rule report
//! (with a message that renders), a `clean` case must not; an expression that fails on a case, or
//! is over the cost limit, fails the case.

use super::eval::{default_repo_value, evaluate, no_skill, Outcome, Var};
use super::expr::env;
use super::{Kind, PolicySet};
use cel::Context;
use std::sync::Arc;

/// One case's result.
#[derive(Debug, PartialEq, Eq)]
pub struct CaseResult {
    pub code: &'static str,
    pub fires: bool,
    /// 1-based among the rule's cases of the same kind.
    pub number: usize,
    /// `None`: passed; else why not.
    pub failure: Option<String>,
}

impl std::fmt::Display for CaseResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if self.fires { "fires" } else { "clean" };
        match &self.failure {
            None => write!(f, "PASS {} {kind} #{}", self.code, self.number),
            Some(why) => write!(f, "FAIL {} {kind} #{}: {why}", self.code, self.number),
        }
    }
}

/// What `policy test` reports: the case results in rule and case order, and the rules without
/// tests.
#[derive(Debug, Default)]
pub struct Report {
    pub cases: Vec<CaseResult>,
    pub untested: Vec<&'static str>,
}

impl Report {
    pub fn failed(&self) -> bool {
        self.cases.iter().any(|c| c.failure.is_some())
    }
}

pub fn run(set: &PolicySet) -> Report {
    let mut report = Report::default();
    for rule in &set.rules {
        if rule.tests.is_empty() {
            report.untested.push(rule.code);
        }
        let (mut fires_seen, mut clean_seen) = (0, 0);
        for case in &rule.tests {
            let number = if case.fires {
                fires_seen += 1;
                fires_seen
            } else {
                clean_seen += 1;
                clean_seen
            };
            let bound = |name: &str| {
                case.variables
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
            };
            let entity = bound(rule.on.variable()).unwrap_or_else(no_skill);
            let skill = bound("skill").unwrap_or_else(no_skill);
            let repo = bound("repo").unwrap_or_else(default_repo_value);
            let mut context = Context::with_env(Arc::clone(env()));
            context.add_variable_from_value(rule.on.variable(), entity.clone());
            let mut variables: Vec<(&str, Var<'_, '_>)> =
                vec![(rule.on.variable(), Var::Value(&entity))];
            if rule.on != Kind::Skill {
                context.add_variable_from_value("skill", skill.clone());
                variables.push(("skill", Var::Value(&skill)));
            }
            context.add_variable_from_value("repo", repo.clone());
            variables.push(("repo", Var::Value(&repo)));
            let outcome = evaluate(
                rule,
                &|program| program.execute(&context),
                &variables,
                &|| case.largest,
                &|| case.longest,
                &|_| true,
            );
            let failure = match (case.fires, outcome) {
                (true, Outcome::Fires(_)) | (false, Outcome::Clean) => None,
                (true, Outcome::Clean) => Some("the rule did not fire".to_string()),
                (false, Outcome::Fires(message)) => Some(format!("the rule fired: {message}")),
                (_, Outcome::Failed(why)) => Some(format!("evaluation failed: {why}")),
                (_, Outcome::TooCostly(bound)) => {
                    Some(format!("over the cost limit (bound {bound})"))
                }
                (_, Outcome::Stopped(why)) => Some(format!("stopped: {why}")),
            };
            report.cases.push(CaseResult {
                code: rule.code,
                fires: case.fires,
                number,
                failure,
            });
        }
    }
    report
}
