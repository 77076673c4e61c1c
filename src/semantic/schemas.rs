//! Schema subjects and sites: the input schemas of a unit (each tool's, then the TOOL.md
//! `inputs`) and, for each schema, its object subschemas reached through the schema positions
//! (`properties`, `items`, `allOf`, …), never through `default`, `enum` or `examples` values. The
//! SC rules read these.

use crate::index::UnitView;
use crate::model::tools::{Dialect, Tool};
use crate::parse::node::Node;
use crate::source::{FileId, Span};

/// How deep the schema walk goes: as deep as the JSON and YAML parsers nest (128), so nothing they
/// accept is skipped, and a bounded recursion whatever builds the tree.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 128;
/// One input schema to check: a tool's, or a TOOL.md's `inputs`.
#[derive(Debug)]
pub(crate) struct Subject<'a> {
    pub(crate) file: FileId,
    pub(crate) schema: &'a Node,
    /// The key holding the schema (`"inputSchema"`, `"parameters"`, `inputs`): where a diagnostic
    /// about the schema as a whole points.
    pub(crate) key_span: Span,
    /// "tool `create_event`" or "contract `create-event`".
    pub(crate) owner: Owner<'a>,
    /// "input schema" or "`inputs`".
    pub(crate) schema_word: &'static str,
    /// "parameter" or "input".
    pub(crate) parameter_word: &'static str,
    /// Script parameters or Docker arguments converted to JSON Schema: the root object is
    /// synthesised and cannot carry `additionalProperties`.
    pub(crate) synthesised_root: bool,
    /// An OpenAI tool with `strict: true`: SC014 holds its objects to stricter rules.
    pub(crate) strict: bool,
    /// The tool's dialect; `None` for a TOOL.md.
    pub(crate) dialect: Option<Dialect>,
}

/// Whose schema a subject is, as messages name it. Formatted only when a diagnostic needs it:
/// every rule builds its subjects, few report.
#[derive(Debug)]
pub(crate) enum Owner<'a> {
    Tool(&'a Tool),
    Contract(Option<&'a str>),
}

/// The `strict: true` node of an OpenAI tool in strict mode.
pub(crate) fn strict_flag(tool: &Tool) -> Option<&Node> {
    if tool.dialect != Dialect::OpenAi {
        return None;
    }
    tool.definition()
        .get("strict")
        .filter(|s| s.as_bool() == Some(true))
}

pub(crate) fn tool_subject(file: FileId, tool: &Tool) -> Option<Subject<'_>> {
    let schema = tool.schema()?;
    Some(Subject {
        file,
        schema,
        key_span: tool.schema_member().map_or(schema.span, |m| m.key_span),
        owner: Owner::Tool(tool),
        schema_word: "input schema",
        parameter_word: "parameter",
        synthesised_root: tool.has_synthesised_schema(),
        strict: strict_flag(tool).is_some(),
        dialect: Some(tool.dialect),
    })
}

pub(crate) fn tool_subjects<'a>(unit: &UnitView<'a>) -> Vec<Subject<'a>> {
    unit.tools()
        .filter_map(|(file, tool)| tool_subject(file, tool))
        .collect()
}

fn contract_subject<'a>(unit: &UnitView<'a>) -> Option<Subject<'a>> {
    let (file, doc) = unit.contract()?;
    let root = &doc.frontmatter()?.root;
    let inputs = root.member("inputs")?;
    let owner = Owner::Contract(root.get("id").and_then(Node::as_str));
    Some(Subject {
        file,
        schema: &inputs.value,
        key_span: inputs.key_span,
        owner,
        schema_word: "`inputs`",
        parameter_word: "input",
        synthesised_root: false,
        strict: false,
        dialect: None,
    })
}

/// Every schema SC002–SC006 and SC013 check: the tools' input schemas, then the TOOL.md `inputs`.
pub(crate) fn find_subjects<'a>(unit: &UnitView<'a>) -> Vec<Subject<'a>> {
    let mut subjects = tool_subjects(unit);
    subjects.extend(contract_subject(unit));
    subjects
}

/// How a subschema is reached from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Via {
    Root,
    /// A value of `properties`: a declared parameter.
    Property,
    /// `items`, `prefixItems`, `additionalItems`, `unevaluatedItems`.
    Items,
    /// `allOf`, `anyOf`, `oneOf`, `then`, `else`, `dependentSchemas`: applies to the parent's
    /// instance, so it shares the parent's properties.
    Branch,
    /// `if`, `not`, `contains`, `propertyNames`: a test, not a declaration.
    Condition,
    /// `$defs`, `definitions`.
    Definition,
    /// `additionalProperties`, `patternProperties`, `unevaluatedProperties`.
    Other,
}

#[derive(Debug)]
pub(crate) struct Site<'a> {
    pub(crate) node: &'a Node,
    /// The keyword of the parent that holds this subschema (`properties`, `items`, `allOf`, …).
    pub(crate) keyword: &'a str,
    /// The position in a list keyword (`allOf/2`).
    pub(crate) index: Option<usize>,
    pub(crate) via: Via,
    /// The property name, for `Via::Property`.
    pub(crate) name: Option<&'a str>,
    /// The key that names this subschema (the property name, `items`, …).
    pub(crate) key_span: Option<Span>,
    pub(crate) parent: Option<usize>,
    /// Inside an `if`/`not`/`contains`/`propertyNames`: properties there are tests, not parameters.
    pub(crate) in_condition: bool,
}

const MAP_KEYWORDS: [(&str, Via); 5] = [
    ("properties", Via::Property),
    ("patternProperties", Via::Other),
    ("$defs", Via::Definition),
    ("definitions", Via::Definition),
    ("dependentSchemas", Via::Branch),
];

const SINGLE_KEYWORDS: [(&str, Via); 11] = [
    ("items", Via::Items),
    ("additionalItems", Via::Items),
    ("unevaluatedItems", Via::Items),
    ("additionalProperties", Via::Other),
    ("unevaluatedProperties", Via::Other),
    ("then", Via::Branch),
    ("else", Via::Branch),
    ("if", Via::Condition),
    ("not", Via::Condition),
    ("contains", Via::Condition),
    ("propertyNames", Via::Condition),
];

const LIST_KEYWORDS: [(&str, Via); 5] = [
    ("allOf", Via::Branch),
    ("anyOf", Via::Branch),
    ("oneOf", Via::Branch),
    ("prefixItems", Via::Items),
    // Draft 4–2019-09 tuple form.
    ("items", Via::Items),
];

/// Every object subschema of `root` (the root first), in document order of discovery.
pub(crate) fn sites(root: &Node) -> Vec<Site<'_>> {
    let mut out = Vec::new();
    if root.is_object() {
        out.push(Site {
            node: root,
            keyword: "",
            index: None,
            via: Via::Root,
            name: None,
            key_span: None,
            parent: None,
            in_condition: false,
        });
        walk(&mut out, 0, 0);
    }
    out
}

fn walk<'a>(out: &mut Vec<Site<'a>>, index: usize, depth: usize) {
    if depth >= MAX_SCHEMA_DEPTH {
        return;
    }
    let Some(site) = out.get(index) else {
        return;
    };
    let node = site.node;
    let in_condition = site.in_condition;
    let visit = |out: &mut Vec<Site<'a>>, child: Site<'a>| {
        out.push(child);
        let last = out.len() - 1;
        walk(out, last, depth + 1);
    };
    let child = |value: &'a Node, via: Via, keyword: &'a str| Site {
        node: value,
        keyword,
        index: None,
        via,
        name: None,
        key_span: None,
        parent: Some(index),
        in_condition: in_condition || via == Via::Condition,
    };
    for member in node.as_object().unwrap_or_default() {
        let key = member.key.as_str();
        if let Some((_, via)) = MAP_KEYWORDS.iter().find(|(k, _)| *k == key) {
            for entry in member.value.as_object().unwrap_or_default() {
                if entry.value.is_object() {
                    let site = Site {
                        name: Some(entry.key.as_str()),
                        key_span: Some(entry.key_span),
                        ..child(&entry.value, *via, key)
                    };
                    visit(out, site);
                }
            }
        } else if member.value.is_object() {
            if let Some((_, via)) = SINGLE_KEYWORDS.iter().find(|(k, _)| *k == key) {
                let site = Site {
                    key_span: Some(member.key_span),
                    ..child(&member.value, *via, key)
                };
                visit(out, site);
            }
        } else if let Some(items) = member.value.as_array() {
            if let Some((_, via)) = LIST_KEYWORDS.iter().find(|(k, _)| *k == key) {
                for (i, item) in items.iter().enumerate() {
                    if item.is_object() {
                        let site = Site {
                            index: Some(i),
                            key_span: Some(item.span),
                            ..child(item, *via, key)
                        };
                        visit(out, site);
                    }
                }
            }
        }
    }
}
