//! `SKILL.md`: YAML frontmatter (Agent Skills spec) and a Markdown body.

use crate::parse::frontmatter::{self, Split};
use crate::parse::markdown::{parse_markdown, Markdown};
use crate::parse::yaml::{parse_yaml, YamlError, YamlFeatures};
use crate::parse::{Node, Value};
use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub enum FrontmatterState {
    /// The file does not start with `---` (SK001).
    Missing,
    /// `---` opens a block that never closes (SK001).
    Unterminated {
        opening: Span,
    },
    /// YAML syntax error, duplicate key, or a root that is not a mapping (SK002).
    Invalid {
        error: YamlError,
    },
    Valid(Frontmatter),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Frontmatter {
    /// The opening `---`, where diagnostics about an absent key point.
    pub opening: Span,
    /// The YAML text between the delimiters.
    pub yaml: Span,
    /// Always an object (an empty frontmatter is an empty object).
    pub root: Node,
    pub features: YamlFeatures,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownDoc {
    pub frontmatter: FrontmatterState,
    pub body: Markdown,
    pub body_span: Span,
}

impl MarkdownDoc {
    pub fn frontmatter(&self) -> Option<&Frontmatter> {
        match &self.frontmatter {
            FrontmatterState::Valid(f) => Some(f),
            _ => None,
        }
    }
}

/// Parses a Markdown file with YAML frontmatter (SKILL.md, TOOL.md, DRIVER.md, SECRETS.md).
pub fn parse_markdown_doc(text: &str) -> MarkdownDoc {
    let (frontmatter, body_span) = parse_frontmatter(text);
    let body = parse_markdown(&text[body_span.start..body_span.end], body_span.start);
    MarkdownDoc {
        frontmatter,
        body,
        body_span,
    }
}

/// The frontmatter of a Markdown file and the span of the body after it, without parsing the
/// body.
pub fn parse_frontmatter(text: &str) -> (FrontmatterState, Span) {
    match frontmatter::split(text) {
        Split::Missing => (FrontmatterState::Missing, Span::new(0, text.len())),
        Split::Unterminated { opening } => (
            FrontmatterState::Unterminated { opening },
            Span::new(text.len(), text.len()),
        ),
        Split::Found(found) => {
            let yaml_text = &text[found.yaml.start..found.yaml.end];
            let state = match parse_yaml(yaml_text, found.yaml.start) {
                Err(error) => FrontmatterState::Invalid { error },
                Ok(doc) => {
                    let root = doc.root.unwrap_or_else(|| {
                        Node::new(Span::empty(found.yaml.start), Value::Object(Vec::new()))
                    });
                    if root.is_object() {
                        FrontmatterState::Valid(Frontmatter {
                            opening: found.opening,
                            yaml: found.yaml,
                            root,
                            features: doc.features,
                        })
                    } else {
                        FrontmatterState::Invalid {
                            error: YamlError {
                                message: format!(
                                    "the frontmatter must be a mapping of keys to values, found {}",
                                    root.type_name()
                                ),
                                span: root.span,
                                first_definition: None,
                            },
                        }
                    }
                }
            };
            (state, found.body)
        }
    }
}

/// A `SKILL.md` (or `skill.md`) file.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillDoc {
    pub doc: MarkdownDoc,
    pub lowercase_file_name: bool,
    /// The name of the folder holding the file (what `name` must equal).
    pub folder_name: String,
    pub broken_references: Vec<BrokenReference>,
}

/// A relative link in a SKILL.md body that does not lead to a file inside the skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenReference {
    pub destination: String,
    pub span: Span,
    pub problem: ReferenceProblem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceProblem {
    Missing,
    EscapesSkillFolder,
}

/// Whether a link destination is a URL (`https:`, `mailto:`, …) rather than a file path.
fn has_scheme(destination: &str) -> bool {
    match destination.split_once(':') {
        Some((scheme, _)) => {
            scheme.len() > 1
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
        }
        None => false,
    }
}

/// Whether `target` (which exists) resolves, through symlinks, to a place outside the skill
/// folder `canonical_dir` (`None` when the folder itself cannot be resolved: nothing to compare).
fn leaves_through_symlink(
    target: &std::path::Path,
    canonical_dir: &Option<std::path::PathBuf>,
) -> bool {
    match (canonical_dir, target.canonicalize()) {
        (Some(dir), Ok(resolved)) => !resolved.starts_with(dir),
        _ => false,
    }
}

/// Checks the body's relative links against the skill folder. This is the only rule input that
/// needs the file system, so it runs in the read stage, not in a rule.
pub fn find_broken_references(
    body: &Markdown,
    skill_dir: &std::path::Path,
) -> Vec<BrokenReference> {
    let mut broken = Vec::new();
    // Resolved once, and only for a skill whose links exist: the folder a link must stay in once
    // symlinks are followed.
    let mut canonical_dir: Option<Option<std::path::PathBuf>> = None;
    for link in &body.links {
        let destination = link.destination.trim();
        if destination.is_empty() || destination.starts_with('#') || has_scheme(destination) {
            continue;
        }
        let path_part = destination
            .split(['#', '?'])
            .next()
            .unwrap_or(destination)
            .replace("%20", " ");
        if path_part.is_empty() {
            continue;
        }
        let mut depth: i32 = 0;
        let mut escapes = path_part.starts_with('/');
        for part in path_part.split('/') {
            match part {
                "" | "." => {}
                ".." => depth -= 1,
                _ => depth += 1,
            }
            if depth < 0 {
                escapes = true;
            }
        }
        let target = skill_dir.join(&path_part);
        let problem = if escapes {
            Some(ReferenceProblem::EscapesSkillFolder)
        } else if !target.exists() {
            Some(ReferenceProblem::Missing)
        } else if leaves_through_symlink(
            &target,
            canonical_dir.get_or_insert_with(|| skill_dir.canonicalize().ok()),
        ) {
            // `shared/x.md` where `shared` (or `x.md`) is a symlink to a place outside: the
            // installed skill would not carry the file. The target is resolved, never read.
            Some(ReferenceProblem::EscapesSkillFolder)
        } else {
            None
        };
        if let Some(problem) = problem {
            broken.push(BrokenReference {
                destination: destination.to_string(),
                span: link.span,
                problem,
            });
        }
    }
    broken
}
