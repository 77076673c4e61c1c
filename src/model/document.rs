//! A Markdown file with YAML frontmatter, the shape SKILL.md, TOOL.md, DRIVER.md, CLI.md and
//! SECRETS.md share: [`MarkdownDoc`] and its [`FrontmatterState`], and the parsers that build
//! them. What a given kind of file means is read in its own model (`skill`, `contract`,
//! `driver`).

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
