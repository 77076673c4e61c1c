//! SC: tool schema quality, SPEC §3.7.
//!
//! Every tool of every `tools.json` dialect (forge, MCP, OpenAI, script) is checked through the
//! normalised [`Tool`] model, and the `inputs` schema of a `TOOL.md` goes through the same schema
//! checks (SC002–SC006, SC013). Meta-validation of TOOL.md schemas is TM009's job, so SC001 looks
//! at tools files only.
//!
//! The schema checks walk the *schema positions* of a schema (`properties`, `items`, `allOf`, …)
//! rather than every JSON value, so `default`, `enum` and `examples` values are never mistaken for
//! schemas.
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::phrasing` and `rules::util`, and from this module, never from a
//! sibling rule or another family.

mod sc001_input_schema_invalid;
mod sc002_input_schema_not_object;
mod sc003_open_input_object;
mod sc004_required_property_undefined;
mod sc005_parameter_undescribed;
mod sc006_parameter_unbounded;
mod sc007_tool_name_invalid;
mod sc008_tool_name_not_portable;
mod sc009_annotation_contradiction;
mod sc010_behavior_annotations_missing;
mod sc011_execution_bounds_missing;
mod sc012_destructive_tool_without_dry_run;
mod sc013_remote_schema_ref;
mod sc014_openai_strict_violation;
mod sc015_tool_description_missing;
mod sc016_risky_tool_ungated;
mod sc017_destructive_tool_accepts_empty_input;
mod sc018_read_tool_open_input_object;
#[cfg(test)]
mod tests;

use crate::check::Unit;
use crate::check::{code, Check, RuleCode, RuleImpl};
use crate::model::tools::{Dialect, Tool};
use crate::parse::node::{pointer_token, Node, Value};
use crate::semantic::effect::{Effect, ToolEffect};
use crate::semantic::schemas::{Owner, Site, Subject, Via};
use crate::source::{FileId, Span};
use sc001_input_schema_invalid::input_schema_invalid;
use sc002_input_schema_not_object::input_schema_not_object;
use sc003_open_input_object::{is_read_tool, open_input_object, report_open_objects};
use sc004_required_property_undefined::required_property_undefined;
use sc005_parameter_undescribed::parameter_undescribed;
use sc006_parameter_unbounded::parameter_unbounded;
use sc007_tool_name_invalid::tool_name_invalid;
use sc008_tool_name_not_portable::tool_name_not_portable;
use sc009_annotation_contradiction::annotation_contradiction;
use sc010_behavior_annotations_missing::behavior_annotations_missing;
use sc011_execution_bounds_missing::execution_bounds_missing;
use sc012_destructive_tool_without_dry_run::destructive_tool_without_dry_run;
use sc013_remote_schema_ref::remote_schema_ref;
use sc014_openai_strict_violation::openai_strict_violation;
use sc015_tool_description_missing::tool_description_missing;
use sc016_risky_tool_ungated::risky_tool_ungated;
use sc017_destructive_tool_accepts_empty_input::destructive_tool_accepts_empty_input;
use sc018_read_tool_open_input_object::read_tool_open_input_object;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::SC001, check: Check::Unit(input_schema_invalid) },
    RuleImpl { code: code::SC002, check: Check::Unit(input_schema_not_object) },
    RuleImpl { code: code::SC003, check: Check::Unit(open_input_object) },
    RuleImpl { code: code::SC004, check: Check::Unit(required_property_undefined) },
    RuleImpl { code: code::SC005, check: Check::Unit(parameter_undescribed) },
    RuleImpl { code: code::SC006, check: Check::Unit(parameter_unbounded) },
    RuleImpl { code: code::SC007, check: Check::Unit(tool_name_invalid) },
    RuleImpl { code: code::SC008, check: Check::Unit(tool_name_not_portable) },
    RuleImpl { code: code::SC009, check: Check::Unit(annotation_contradiction) },
    RuleImpl { code: code::SC010, check: Check::Unit(behavior_annotations_missing) },
    RuleImpl { code: code::SC011, check: Check::Unit(execution_bounds_missing) },
    RuleImpl { code: code::SC012, check: Check::Unit(destructive_tool_without_dry_run) },
    RuleImpl { code: code::SC013, check: Check::Unit(remote_schema_ref) },
    RuleImpl { code: code::SC014, check: Check::Unit(openai_strict_violation) },
    RuleImpl { code: code::SC015, check: Check::Unit(tool_description_missing) },
    RuleImpl { code: code::SC016, check: Check::Unit(risky_tool_ungated) },
    RuleImpl { code: code::SC017, check: Check::Unit(destructive_tool_accepts_empty_input) },
    RuleImpl { code: code::SC018, check: Check::Unit(read_tool_open_input_object) },
];

/// MCP: tool names are 1–128 characters of ASCII letters, digits, `_`, `-` and `.`.
const MCP_NAME_MAX: usize = 128;

/// How many `$ref` hops a local reference is followed before giving up (cycles, chains).
const MAX_REF_HOPS: usize = 8;

// ---------------------------------------------------------------------------------------------
// Subjects and sites (found in `semantic::schemas`): what the rules ask of them
// ---------------------------------------------------------------------------------------------

impl Subject<'_> {
    /// A forge `inputSchema` or a TOOL.md `inputs` that is not an object breaks the contract that
    /// holds it ("must be a JSON Schema object"): TJ002 (forge) or TM002 (TOOL.md) reports it, and
    /// the schema rules do not repeat it while that rule runs for the file. With the contract rule
    /// off, the schema rules judge the value like any other schema.
    fn left_to_contract(&self, unit: &Unit<'_>) -> bool {
        if self.schema.is_object() {
            return false;
        }
        match self.dialect {
            Some(Dialect::Forge) => unit.reports(code::TJ002, self.file),
            None => unit.reports(code::TM002, self.file),
            Some(_) => false,
        }
    }

    /// The rule that meta-validates this schema: SC001 for a tool's, TM009 for a TOOL.md's.
    fn meta_rule(&self) -> RuleCode {
        if self.dialect.is_some() {
            code::SC001
        } else {
            code::TM009
        }
    }
}

impl Subject<'_> {
    /// How a message names the schema at `site`.
    fn describe(&self, site: &Site<'_>, sites: &[Site<'_>]) -> String {
        if site.via == Via::Root {
            return format!("{} of {}", self.schema_word, self.owner);
        }
        match property_path(site, sites) {
            Some(path) => format!("{} `{path}` of {}", self.parameter_word, self.owner),
            None => format!(
                "`{}` in the {} of {}",
                pointer(site, sites),
                self.schema_word,
                self.owner
            ),
        }
    }
}

/// `options.hourly` for a property reached through `properties` only; `None` otherwise.
fn property_path(site: &Site<'_>, sites: &[Site<'_>]) -> Option<String> {
    let mut names = Vec::new();
    let mut current = site;
    while current.via == Via::Property {
        names.push(current.name?);
        current = sites.get(current.parent?)?;
    }
    if current.via != Via::Root || names.is_empty() {
        return None;
    }
    names.reverse();
    Some(names.join("."))
}

impl std::fmt::Display for Owner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Owner::Tool(tool) => write!(f, "tool `{}`", tool.display_name()),
            Owner::Contract(Some(id)) => write!(f, "contract `{id}`"),
            Owner::Contract(None) => f.write_str("this TOOL.md"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading a schema
// ---------------------------------------------------------------------------------------------

/// The JSON pointer of `site` from the schema root (built only for messages).
fn pointer(site: &Site<'_>, sites: &[Site<'_>]) -> String {
    let mut steps = Vec::new();
    let mut current = Some(site);
    while let Some(site) = current {
        if site.via == Via::Root {
            break;
        }
        let mut step = format!("/{}", pointer_token(site.keyword));
        if let Some(name) = site.name {
            step.push('/');
            step.push_str(&pointer_token(name));
        }
        if let Some(i) = site.index {
            step.push_str(&format!("/{i}"));
        }
        steps.push(step);
        current = site.parent.and_then(|p| sites.get(p));
    }
    steps.reverse();
    steps.concat()
}

/// Follows a local `$ref` (`#`, `#/$defs/x`) from `node`, a few hops at most; `None` when the
/// reference is remote or does not resolve.
fn resolve<'a>(root: &'a Node, node: &'a Node) -> Option<&'a Node> {
    let mut current = node;
    for _ in 0..MAX_REF_HOPS {
        let Some(reference) = current.get("$ref").and_then(Node::as_str) else {
            return Some(current);
        };
        let fragment = reference.strip_prefix('#')?;
        current = root.pointer(fragment)?;
    }
    None
}

/// The JSON types a schema declares (`type: "x"` or `type: ["x", "y"]`).
fn declared_types(node: &Node) -> Vec<&str> {
    match node.get("type") {
        Some(t) => match &t.value {
            Value::String(s) => vec![s.as_str()],
            Value::Array(items) => items.iter().filter_map(Node::as_str).collect(),
            _ => Vec::new(),
        },
        None => Vec::new(),
    }
}

/// An object schema: `type` includes `object`, or no `type` but `properties`.
fn is_object_schema(node: &Node) -> bool {
    let types = declared_types(node);
    types.contains(&"object") || (node.get("type").is_none() && node.get("properties").is_some())
}

/// Where a diagnostic about an object schema points: its `type` key, else its `properties` key,
/// else the key naming the schema.
fn object_anchor(site: &Site<'_>, subject: &Subject<'_>) -> Span {
    site.node
        .member("type")
        .or_else(|| site.node.member("properties"))
        .map(|m| m.key_span)
        .or(site.key_span)
        .unwrap_or(subject.key_span)
}

/// Declared parameters: `properties` values outside conditions, with their key spans.
fn parameters<'s, 'a>(sites: &'s [Site<'a>]) -> impl Iterator<Item = (&'s Site<'a>, Span)> {
    sites.iter().filter_map(|site| {
        (site.via == Via::Property && !site.in_condition)
            .then_some(site.key_span)
            .flatten()
            .map(|span| (site, span))
    })
}

fn is_mcp_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Why `name` is not a valid MCP tool name, if it is not.
fn mcp_name_problem(name: &str) -> Option<String> {
    let length = name.chars().count();
    if length == 0 {
        return Some("tool name is empty".to_string());
    }
    let mut bad: Vec<char> = name.chars().filter(|c| !is_mcp_name_char(*c)).collect();
    bad.sort_unstable();
    bad.dedup();
    if !bad.is_empty() {
        let shown: Vec<String> = bad.iter().take(5).map(|c| describe_char(*c)).collect();
        return Some(format!(
            "tool name `{name}` contains {}; MCP allows only ASCII letters, digits, `_`, `-` and `.`",
            join_and(&shown)
        ));
    }
    (length > MCP_NAME_MAX).then(|| {
        format!("tool name is {length} characters long; MCP allows at most {MCP_NAME_MAX}")
    })
}

use crate::english::join_and;

fn describe_char(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        '`' => "a backtick".to_string(),
        c if c.is_control() || c.is_whitespace() => format!("U+{:04X}", c as u32),
        c => format!("`{c}`"),
    }
}

/// A forge tool's missing, mistyped or empty name breaks the forge contract: TJ002 reports it
/// while it runs for the file, and the name rules do not repeat it.
fn name_left_to_contract(unit: &Unit<'_>, file: FileId, tool: &Tool) -> bool {
    tool.dialect == Dialect::Forge
        && tool.name().is_none_or(str::is_empty)
        && unit.reports(code::TJ002, file)
}

fn hint<'a>(tool: &'a Tool, key: &str) -> Option<(bool, &'a Node)> {
    let node = tool.annotations()?.get(key)?;
    node.as_bool().map(|b| (b, node))
}

/// The forge contract states the behaviour with `type` and `idempotent` (and its entry is closed,
/// TJ002); an OpenAI function definition has no place for annotations. A tool registered in
/// source code whose annotations could not be read is not judged on them.
fn takes_annotations(tool: &Tool) -> bool {
    matches!(
        tool.dialect,
        Dialect::Mcp | Dialect::Script | Dialect::Source
    ) && !tool.unresolved("annotations")
}

/// A tool of an annotated dialect that needs behaviour hints for a client to gate it: it writes,
/// deletes, runs what it is given, moves money or handles credentials, and declares no hint. SC016
/// reports these (safety); SC010 the read-only rest (pedantic).
fn risky_without_hints(effect: &ToolEffect<'_>) -> bool {
    !effect.hinted()
        && (effect.effect >= Effect::Write || effect.risky_capabilities().next().is_some())
}
