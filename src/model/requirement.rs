//! `requirement.yaml`: the forge requirement a skill's tools.json must honour.
//!
//! Form: `tools: [{name, type: read|write, description}]`, `safety_requirements: [string]`,
//! `non_goals: [string]`.

use crate::parse::yaml::{parse_yaml, YamlError};
use crate::parse::Node;
use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct RequirementTool {
    pub name: String,
    pub name_span: Span,
    /// `read` or `write`, with the span of the value.
    pub kind: Option<(String, Span)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Phrase {
    pub text: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RequirementDoc {
    pub tools: Vec<RequirementTool>,
    pub safety_requirements: Vec<Phrase>,
    pub non_goals: Vec<Phrase>,
    /// Shape problems (wrong types, unknown keys) found while reading the YAML.
    pub problems: Vec<(Span, String)>,
    pub parse_error: Option<YamlError>,
}

impl RequirementDoc {
    /// "idempotency key" (any case) in a safety requirement turns idempotency on for every write tool.
    pub fn idempotency_phrase(&self) -> Option<&Phrase> {
        self.safety_requirements
            .iter()
            .find(|p| p.text.to_lowercase().contains("idempotency key"))
    }
}

const KNOWN_KEYS: [&str; 3] = ["tools", "safety_requirements", "non_goals"];

pub fn parse_requirement(text: &str) -> RequirementDoc {
    let mut doc = RequirementDoc {
        tools: Vec::new(),
        safety_requirements: Vec::new(),
        non_goals: Vec::new(),
        problems: Vec::new(),
        parse_error: None,
    };
    let root = match parse_yaml(text, 0) {
        Err(error) => {
            doc.parse_error = Some(error);
            return doc;
        }
        Ok(parsed) => match parsed.root {
            Some(root) => root,
            None => {
                doc.problems
                    .push((Span::empty(0), "the requirement file is empty".to_string()));
                return doc;
            }
        },
    };
    let Some(members) = root.as_object() else {
        doc.problems.push((
            root.span,
            format!(
                "the requirement must be a mapping, found {}",
                root.type_name()
            ),
        ));
        return doc;
    };
    for member in members {
        if !KNOWN_KEYS.contains(&member.key.as_str()) {
            doc.problems.push((
                member.key_span,
                format!(
                    "unknown key `{}` (expected `tools`, `safety_requirements` or `non_goals`)",
                    member.key
                ),
            ));
        }
    }
    if let Some(tools) = root.get("tools") {
        match tools.as_array() {
            None => doc.problems.push((
                tools.span,
                format!("`tools` must be a list, found {}", tools.type_name()),
            )),
            Some(items) => {
                for item in items {
                    read_tool(item, &mut doc);
                }
            }
        }
    }
    doc.safety_requirements = phrases(&root, "safety_requirements", &mut doc.problems);
    doc.non_goals = phrases(&root, "non_goals", &mut doc.problems);
    doc
}

fn read_tool(item: &Node, doc: &mut RequirementDoc) {
    let Some(name) = item.get("name") else {
        doc.problems
            .push((item.span, "a requirement tool needs a `name`".to_string()));
        return;
    };
    let Some(name_text) = name.as_str() else {
        doc.problems.push((
            name.span,
            format!("`name` must be a string, found {}", name.type_name()),
        ));
        return;
    };
    let kind = item.get("type").and_then(|t| match t.as_str() {
        Some(k @ ("read" | "write")) => Some((k.to_string(), t.span)),
        other => {
            let found = match other {
                Some(text) => format!("`{text}`"),
                None => t.type_name().to_string(),
            };
            doc.problems.push((
                t.span,
                format!("`type` of requirement tool `{name_text}` must be `read` or `write`, found {found}"),
            ));
            None
        }
    });
    doc.tools.push(RequirementTool {
        name: name_text.to_string(),
        name_span: name.span,
        kind,
    });
}

fn phrases(root: &Node, key: &str, problems: &mut Vec<(Span, String)>) -> Vec<Phrase> {
    let Some(node) = root.get(key) else {
        return Vec::new();
    };
    let Some(items) = node.as_array() else {
        problems.push((
            node.span,
            format!(
                "`{key}` must be a list of strings, found {}",
                node.type_name()
            ),
        ));
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| match item.as_str() {
            Some(text) => Some(Phrase {
                text: text.to_string(),
                span: item.span,
            }),
            None => {
                problems.push((
                    item.span,
                    format!("`{key}` items must be strings, found {}", item.type_name()),
                ));
                None
            }
        })
        .collect()
}
