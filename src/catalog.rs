//! The rule catalog: every rule's metadata (code, name, category, severity, fix, summary,
//! explanation), read from the `rules/*.md` files embedded at build time. It is data only: what
//! `render`, `config`, `selection`, `triage` and the `rules`/`rule X` commands read. It must not
//! import `rules`, `check`, `engine` or `index`; `check::Registry` joins it with the checks.

use crate::diagnostic::Severity;
use crate::model::document::{parse_frontmatter, FrontmatterState};
use crate::parse::Node;
use std::borrow::Cow;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/rule_docs.rs"));

/// A built-in rule's code. The only values are the constants of [`code`], one per rule document
/// (generated at build time), so code that names a rule names one that exists: a typo or a
/// deleted document fails to compile. Codes that come from elsewhere (a policy file, a finding, a
/// selector) stay `&str`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleCode(&'static str);

impl RuleCode {
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for RuleCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// One [`RuleCode`] per document under `rules/` (`code::TJ003`), and [`code::ALL`] of them.
pub mod code {
    use super::RuleCode;

    include!(concat!(env!("OUT_DIR"), "/rule_codes.rs"));
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    Correctness,
    Safety,
    Style,
    Pedantic,
}

impl Category {
    pub const ALL: [Category; 4] = [
        Category::Correctness,
        Category::Safety,
        Category::Style,
        Category::Pedantic,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Correctness => "correctness",
            Category::Safety => "safety",
            Category::Style => "style",
            Category::Pedantic => "pedantic",
        }
    }

    pub fn parse(text: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixAvailability {
    None,
    Safe,
    Unsafe,
}

impl FixAvailability {
    pub fn as_str(self) -> &'static str {
        match self {
            FixAvailability::None => "none",
            FixAvailability::Safe => "safe",
            FixAvailability::Unsafe => "unsafe",
        }
    }
}

#[derive(Debug, Clone)]
pub struct RuleMeta {
    pub code: &'static str,
    pub name: String,
    pub family: String,
    pub category: Category,
    pub severity: Severity,
    pub fix: FixAvailability,
    pub summary: String,
    /// The Markdown explanation (what it checks, why, example, fix), without frontmatter. Built-in
    /// rules borrow it from the binary; a policy rule owns its `docs`.
    pub explanation: Cow<'static, str>,
    /// For a rule defined in a policy file, that file (as given or found); `None` for built-ins.
    pub policy_file: Option<String>,
}

impl RuleMeta {
    /// The first paragraph of "What it checks", for one-line descriptions.
    pub fn full_description(&self) -> String {
        let body = self
            .explanation
            .split("## What it checks")
            .nth(1)
            .unwrap_or(&self.explanation);
        body.trim_start()
            .split("\n\n")
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Parses one embedded rule document. Errors name the problem; a test runs this over every file.
pub fn parse_rule_doc(code: &'static str, text: &'static str) -> Result<RuleMeta, String> {
    // Only the frontmatter and where the body starts: every run builds the catalog, and the
    // explanations are shown whole, never parsed.
    let (state, body_span) = parse_frontmatter(text);
    let FrontmatterState::Valid(frontmatter) = &state else {
        return Err(format!("rules/{code}.md: missing or invalid frontmatter"));
    };
    let field = |key: &str| -> Result<String, String> {
        frontmatter
            .root
            .get(key)
            .and_then(Node::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("rules/{code}.md: `{key}` missing or not a string"))
    };
    if field("code")? != code {
        return Err(format!(
            "rules/{code}.md: `code` does not match the file name"
        ));
    }
    let category = field("category")?;
    let severity = field("severity")?;
    let fix = match field("fix")?.as_str() {
        "none" => FixAvailability::None,
        "safe" => FixAvailability::Safe,
        "unsafe" => FixAvailability::Unsafe,
        other => return Err(format!("rules/{code}.md: unknown fix `{other}`")),
    };
    let explanation = text
        .get(body_span.start..)
        .unwrap_or_default()
        .trim_start_matches(['\n', '\r']);
    Ok(RuleMeta {
        code,
        name: field("name")?,
        family: field("family")?,
        category: Category::parse(&category)
            .ok_or_else(|| format!("rules/{code}.md: unknown category `{category}`"))?,
        severity: Severity::parse(&severity)
            .ok_or_else(|| format!("rules/{code}.md: unknown severity `{severity}`"))?,
        fix,
        summary: field("summary")?,
        explanation: Cow::Borrowed(explanation),
        policy_file: None,
    })
}

/// Every rule's metadata, sorted by code.
#[derive(Debug)]
pub struct Catalog {
    /// Sorted by code.
    pub rules: Vec<RuleMeta>,
}

impl Catalog {
    /// Parses every embedded rule document. A document that does not parse is a build mistake
    /// that the test suite reports by name; at run time that rule is left out rather than
    /// crashing the linter.
    pub fn build() -> (Catalog, Vec<String>) {
        let mut problems = Vec::new();
        let mut rules = Vec::new();
        for (code, text) in RULE_DOCS {
            match parse_rule_doc(code, text) {
                Ok(meta) => rules.push(meta),
                Err(problem) => problems.push(problem),
            }
        }
        rules.sort_by_key(|meta| meta.code);
        (Catalog { rules }, problems)
    }

    /// This catalog with `extra` rules added (the policy rules of a run), sorted by code. The
    /// caller has checked that no code or name is taken.
    pub fn with_rules(&self, extra: Vec<RuleMeta>) -> Catalog {
        let mut rules = self.rules.clone();
        rules.extend(extra);
        rules.sort_by_key(|meta| meta.code);
        Catalog { rules }
    }

    pub fn get(&self, code: &str) -> Option<&RuleMeta> {
        self.rules
            .binary_search_by(|meta| meta.code.cmp(code))
            .ok()
            .map(|i| &self.rules[i])
    }

    /// Finds a rule by code or kebab-case name, both case-insensitive (`tj003`,
    /// `Write-Tool-Without-Confirmation`).
    pub fn find(&self, code_or_name: &str) -> Option<&RuleMeta> {
        let upper = code_or_name.to_ascii_uppercase();
        self.get(&upper).or_else(|| {
            self.rules
                .iter()
                .find(|meta| meta.name.eq_ignore_ascii_case(code_or_name))
        })
    }
}

/// The catalog of the rule documents built into this binary, parsed on first use.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    // Problems are only possible with a broken build; the catalog test names every one.
    CATALOG.get_or_init(|| Catalog::build().0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_constants_are_the_rule_documents_in_order() {
        let documents: Vec<&str> = RULE_DOCS.iter().map(|(code, _)| *code).collect();
        let constants: Vec<&str> = code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(constants, documents);
        assert_eq!(code::TJ003.as_str(), "TJ003");
        assert_eq!(code::TJ003.to_string(), "TJ003");
        assert!(code::SC001 < code::SC002, "codes order as their text");
        assert_eq!(
            catalog().get(code::SL002.as_str()).map(|m| m.code),
            Some("SL002")
        );
    }

    #[test]
    fn every_rule_document_parses() {
        let (_, problems) = Catalog::build();
        assert!(
            problems.is_empty(),
            "rule document problems:\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn names_are_unique_kebab_case_and_families_match_codes() {
        let catalog = catalog();
        let mut names = std::collections::HashSet::new();
        for meta in &catalog.rules {
            assert!(
                names.insert(meta.name.clone()),
                "duplicate name {}",
                meta.name
            );
            assert!(
                meta.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{} is not kebab-case",
                meta.name
            );
            assert!(meta.code.starts_with(&meta.family), "{}", meta.code);
            assert!(
                !meta.summary.ends_with('.'),
                "{} summary ends with a period",
                meta.code
            );
            for section in [
                "## What it checks",
                "## Why it matters",
                "## Example",
                "## How to fix",
            ] {
                assert!(
                    meta.explanation.contains(section),
                    "{} lacks {section}",
                    meta.code
                );
            }
        }
    }
}
