//! Rule metadata, read from the `rules/*.md` files embedded at build time.

use crate::diagnostic::Severity;
use crate::model::skill::{parse_frontmatter, FrontmatterState};
use crate::parse::Node;

include!(concat!(env!("OUT_DIR"), "/rule_docs.rs"));

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
    /// The Markdown explanation (what it checks, why, example, fix), without frontmatter.
    pub explanation: &'static str,
}

impl RuleMeta {
    /// The first paragraph of "What it checks", for one-line descriptions.
    pub fn full_description(&self) -> String {
        let body = self
            .explanation
            .split("## What it checks")
            .nth(1)
            .unwrap_or(self.explanation);
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
    // Only the frontmatter and where the body starts: every run builds the registry, and the
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
        explanation,
    })
}
