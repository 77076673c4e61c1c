//! The check stage: what a rule is, what it is given and how the engine finds the rules to run. A
//! rule is a code bound to a [`Check`] (its family's `RULES` table lists them); the [`Registry`]
//! joins those checks with the [`Catalog`] of rule documents; a unit rule reads a [`Unit`], a
//! repository-wide rule a [`RepoContext`], and both report through a [`Sink`]. Only `engine` uses
//! the registry; everything that only needs the rules' metadata reads the catalog.

mod context;
pub(crate) mod run;

pub use context::{JsonTexts, RepoContext, Unit, UnitView};
// Re-exported so that a rule names only the check stage; triage reports through a sink too.
pub(crate) use crate::sink::spend_suggestion_cells;
pub use crate::sink::{Sink, MAX_FINDINGS_PER_FILE};
// Re-exported so that a rule names another rule (`code::TJ002`) through the check stage, not the
// catalog.
pub use crate::catalog::{code, RuleCode};

use crate::catalog::{Catalog, RuleMeta};

/// A check over one unit (a folder's SKILL.md, tools files and requirement, read together).
pub type UnitCheck = fn(&Unit<'_>, &mut Sink);
/// A check over the whole repository (e.g. duplicate names across skills), run after the units.
pub type RepoCheck = fn(&RepoContext<'_>, &mut Sink);

#[derive(Clone, Copy)]
pub enum Check {
    Unit(UnitCheck),
    Repo(RepoCheck),
    /// Emitted by the engine itself (unreadable files, crashed rules), or by a product over the
    /// whole run (the lock's drift).
    Engine,
}

/// Binds a rule code to its check; each family module lists its own.
pub struct RuleImpl {
    pub code: RuleCode,
    pub check: Check,
}

/// A rule the engine can run: its catalog entry and its check.
pub struct Rule {
    pub meta: &'static RuleMeta,
    pub check: Check,
}

pub struct Registry {
    /// Sorted by code, as the catalog is.
    pub rules: Vec<Rule>,
}

impl Registry {
    pub fn get(&self, code: &str) -> Option<&Rule> {
        self.rules
            .binary_search_by(|r| r.meta.code.cmp(code))
            .ok()
            .map(|i| &self.rules[i])
    }
}

impl Registry {
    /// Joins the catalog with the rules' checks (`rules::checks()`, which the engine passes: the
    /// check stage defines what a rule is and never imports the rules). A document without a
    /// check (or the reverse) is a build mistake that the test suite reports; at run time such a
    /// rule is left out rather than crashing the linter.
    pub fn join(
        catalog: &'static Catalog,
        checks: impl Iterator<Item = &'static RuleImpl> + Clone,
    ) -> (Registry, Vec<String>) {
        let mut problems = Vec::new();
        let mut rules = Vec::new();
        for meta in &catalog.rules {
            match checks.clone().find(|i| i.code.as_str() == meta.code) {
                Some(implementation) => rules.push(Rule {
                    meta,
                    check: implementation.check,
                }),
                None => problems.push(format!("rules/{}.md has no check in src/rules/", meta.code)),
            }
        }
        // A check's code is a constant generated from `rules/*.md`, so it has a document; that
        // the document parsed is the catalog's test.
        for implementation in checks {
            if catalog.get(implementation.code.as_str()).is_none() {
                problems.push(format!(
                    "check {} has no entry in the catalog",
                    implementation.code
                ));
            }
        }
        (Registry { rules }, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_document_has_a_check_and_every_check_a_document() {
        let (_, problems) = Registry::join(crate::catalog::catalog(), crate::rules::checks());
        assert!(
            problems.is_empty(),
            "registry problems:\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn every_rule_code_has_one_check() {
        let mut codes: Vec<RuleCode> = crate::rules::checks().map(|i| i.code).collect();
        codes.sort();
        let checks = codes.len();
        codes.dedup();
        assert_eq!(codes.len(), checks, "two checks share a code");
        assert_eq!(codes, crate::catalog::code::ALL);
    }
}
