//! Organisation policies: rules written as data in YAML files (`.skilllint/policies/*.yaml`,
//! `[policies] paths`, `--policies`), whose tests are CEL expressions over the entities of a
//! unit. A policy file is read, validated and compiled once per run ([`load`]); a bad one is an
//! error pointing into the YAML, and the run does not start. Loaded rules join the catalog
//! ([`PolicySet::catalog`]), so selection, severity overrides, suppressions and every output
//! format treat them as the built-in rules; [`eval`] runs them per unit, beside the unit rules.
//!
//! Expressions never reach the machine: see [`expr`] for the environment and the cost bound.
//! Above `check` and `semantic` (it reads a [`crate::check::Unit`]); only `engine` and the CLI
//! use it.

pub mod entity;
pub mod eval;
pub mod expr;
pub mod fast;
mod load;
mod pattern;
pub mod testing;

use crate::catalog::{catalog, Catalog, RuleMeta};
use crate::file_error::FileError;
use expr::Compiled;
use std::path::Path;

pub(crate) use load::leaves;
pub use load::{
    discover, for_run, load, load_paths, load_repository_texts, load_text, RunPoliciesError,
    MAX_POLICY_FILE, POLICY_DIR,
};

/// What a rule is about (`on:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Skill,
    Tool,
    ToolUseRule,
    Contract,
    Driver,
    Secret,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Skill,
        Kind::Tool,
        Kind::ToolUseRule,
        Kind::Contract,
        Kind::Driver,
        Kind::Secret,
    ];

    /// The spelling in `on:`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Skill => "skill",
            Kind::Tool => "tool",
            Kind::ToolUseRule => "tool-use-rule",
            Kind::Contract => "contract",
            Kind::Driver => "driver",
            Kind::Secret => "secret",
        }
    }

    /// The CEL variable the entity is bound to.
    pub fn variable(self) -> &'static str {
        match self {
            Kind::Skill => "skill",
            Kind::Tool => "tool",
            Kind::ToolUseRule => "tool_use_rule",
            Kind::Contract => "contract",
            Kind::Driver => "driver",
            Kind::Secret => "secret",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// The fields of `repo`.
pub const REPO_FIELDS: &[&str] = &[
    "skills",
    "files",
    "contracts",
    "drivers",
    "tool_use_rules_heading",
];

/// The fields of `tool_use_rule`.
pub const TOOL_USE_RULE_FIELDS: &[&str] = &["text", "tools"];

/// One piece of a `message` template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    /// A `{{dotted.path}}`: the variable, then the fields.
    Path(Vec<String>),
}

/// An inline test case.
#[derive(Debug, Clone)]
pub struct TestCase {
    /// `true` for `fires`, `false` for `clean`.
    pub fires: bool,
    /// The variables it binds, by name.
    pub variables: Vec<(String, cel::Value)>,
    /// The largest list or map in them.
    pub largest: u64,
    /// The longest string in them, in bytes.
    pub longest: u64,
}

/// A loaded, compiled policy rule.
#[derive(Debug)]
pub struct PolicyRule {
    /// Leaked once per run (see `load`): diagnostics carry their rule's code as `&'static str`.
    pub code: &'static str,
    pub name: String,
    pub on: Kind,
    pub when: Option<Compiled>,
    pub assert: Compiled,
    pub message: Vec<Piece>,
    /// The `at` path without its variable; empty: the entity. `at_skill`: rooted at `skill`
    /// rather than the rule's own entity.
    pub at: Vec<String>,
    pub at_root: String,
    pub help: Option<String>,
    pub tests: Vec<TestCase>,
    /// The policy file, as given or found.
    pub file: String,
}

/// Every policy rule of a run, and the catalog they make with the built-in rules.
#[derive(Debug)]
pub struct PolicySet {
    pub rules: Vec<PolicyRule>,
    catalog: Catalog,
}

impl Default for PolicySet {
    fn default() -> Self {
        PolicySet {
            rules: Vec::new(),
            catalog: catalog().with_rules(Vec::new()),
        }
    }
}

impl PolicySet {
    pub(crate) fn new(rules: Vec<PolicyRule>, metas: Vec<RuleMeta>) -> Self {
        PolicySet {
            rules,
            catalog: catalog().with_rules(metas),
        }
    }

    /// The built-in rules and these.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }
}

/// A policy file problem at `span` (bytes in `text`), drawn as configuration errors are.
pub(crate) fn error_at(
    path: &Path,
    text: &str,
    span: std::ops::Range<usize>,
    message: String,
) -> FileError {
    FileError::located(path, text, span, message)
}
