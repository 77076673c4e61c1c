//! The capability inventory (`skilllint tools`, and the language server's hover on a tool name):
//! one [`Row`] per tool of the repository with its effect, capabilities and evidence (from
//! `semantic::effect`) and the gates in front of it as written: the forge `requiresConfirmation`
//! and `idempotent`, MCP annotations, confirmation, dry-run and idempotency parameters, a
//! TOOL.md's approval, and the skill's `allowed-tools` grants that pre-approve it. Rows own their
//! text, so they outlive the unit's parses. `skilllint diff` compares two inventories
//! ([`crate::diff`]); nothing here knows of it.

pub(crate) mod drive;
pub mod render;
pub mod surface;

pub use drive::inventory;
pub(crate) use drive::lint_with_inventory;

use crate::check::Unit;
use crate::model::tools::Tool;
use crate::parse::node::Node;
use crate::parse::words::name_words;
use crate::semantic::effect::{Capability, Effect, ToolEffect};
use crate::semantic::permissions::grants;
use crate::source::{FileId, LineIndex, Span};
use std::path::PathBuf;

/// A place in a file: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct At {
    pub line: u32,
    pub column: u32,
}

/// One piece of evidence for the effect or a capability, as the model read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowEvidence {
    /// `effect:read`, `capability:exec`, `gate`… (see `Claim::key`).
    pub claim: String,
    /// `declared` or `inferred`.
    pub basis: &'static str,
    /// Where it was read: `name`, `annotations.readOnlyHint`, `parameter`…
    pub source: &'static str,
    pub text: String,
    pub at: At,
}

/// A confirmation, preview or idempotency parameter of the input schema.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct GateParameter {
    /// `confirmation` (`confirm`, `user_confirmed`), `dry-run` (`dry_run`, `preview`) or
    /// `idempotency` (`idempotency_key`).
    pub kind: &'static str,
    pub name: String,
    /// Listed in the schema's `required`.
    pub required: bool,
}

/// The evidence text of OpenAI Agents' `needsApproval` gate.
const NEEDS_APPROVAL: &str = "`needsApproval`";

/// The gates in front of a tool, as written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Gates {
    /// Forge `requiresConfirmation`.
    pub requires_confirmation: Option<bool>,
    /// Forge `idempotent`, or MCP `annotations.idempotentHint`.
    pub idempotent: Option<bool>,
    /// MCP annotations with a boolean value, by name, sorted.
    pub annotations: Vec<(String, bool)>,
    /// Sorted by kind, then name.
    pub parameters: Vec<GateParameter>,
    /// The linked TOOL.md's approval, as its evidence says.
    pub approval: Option<String>,
    /// The skill's `allowed-tools` entries that pre-approve this tool, as written.
    pub pre_approved: Vec<String>,
}

impl Gates {
    pub fn annotation(&self, name: &str) -> Option<bool> {
        self.annotations
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| *value)
    }

    pub fn parameter(&self, name: &str) -> Option<&GateParameter> {
        self.parameters.iter().find(|p| p.name == name)
    }

    /// Whether anything stands in front of a call: a confirmation, a confirmation or preview
    /// parameter, `destructiveHint: true`, or a contract's approval.
    pub fn confirms(&self) -> bool {
        self.requires_confirmation == Some(true)
            || self.annotation("destructiveHint") == Some(true)
            || self.approval.is_some()
            || self.parameters.iter().any(|p| p.kind != "idempotency")
    }

    /// One line per gate, for the human formats: `requiresConfirmation: true`,
    /// `parameter user_confirmed (required)`, `allowed-tools: mcp__shop__refund`.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(value) = self.requires_confirmation {
            out.push(format!("requiresConfirmation: {value}"));
        }
        for (key, value) in &self.annotations {
            out.push(format!("{key}: {value}"));
        }
        if let (Some(value), false) = (self.idempotent, self.annotation("idempotentHint").is_some())
        {
            out.push(format!("idempotent: {value}"));
        }
        for p in &self.parameters {
            let required = if p.required { "required" } else { "optional" };
            out.push(format!("{} parameter `{}` ({required})", p.kind, p.name));
        }
        if let Some(approval) = &self.approval {
            // OpenAI Agents' own flag, read from source; any other is the contract's.
            if approval == NEEDS_APPROVAL {
                out.push("needsApproval: true".into());
            } else {
                out.push(format!("TOOL.md approval: {approval}"));
            }
        }
        for grant in &self.pre_approved {
            out.push(format!("pre-approved by allowed-tools: {grant}"));
        }
        out
    }
}

/// One tool of the inventory.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The tools file, relative to the root, `/`-separated.
    pub path: String,
    /// The folder of the skill or server the file belongs to (`` for the root).
    pub folder: String,
    /// Where the tool's name (else its entry) is.
    pub at: At,
    /// Byte span of the name (else the entry), for the language server.
    pub span: Span,
    pub name: String,
    pub dialect: &'static str,
    pub effect: Effect,
    pub capabilities: Vec<Capability>,
    pub evidence: Vec<RowEvidence>,
    pub gates: Gates,
    /// The description as written, for `diff`.
    pub description: Option<String>,
    /// The input schema, for `diff` (renames, widened schemas).
    pub schema: Option<serde_json::Value>,
    /// Byte span of the description's value, for `diff` (which findings are in it).
    pub description_span: Option<Span>,
    /// What the linked TOOL.md declares, for `diff` (approval, `mutates`, `requires`).
    pub contract: Option<ContractFacts>,
    /// The skill's Tool Use Rules items that name the tool, for `diff`.
    pub rules: Vec<RuleItem>,
    /// For a hook or an MCP server ([`surface`]): the command the client runs (a server's with
    /// its arguments) or the URL it connects to, for `diff`.
    pub runs: Option<String>,
}

/// What a TOOL.md linked to a tool declares about its safety, as written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ContractFacts {
    /// The TOOL.md, relative to the root.
    pub path: String,
    /// Where the contract's `id` (else its frontmatter) is.
    pub at: At,
    /// `approval` as written, and where.
    pub approval: Option<(String, At)>,
    /// `mutates` entries as written (`database:invoices`), and where the list is.
    pub mutates: Vec<String>,
    pub mutates_at: Option<At>,
    /// `requires` entries as `network:api.example.com`, `secrets:stripe`, `tools:x`.
    pub requires: Vec<String>,
    pub requires_at: Option<At>,
}

impl ContractFacts {
    /// How strictly the contract asks before a call, by AIP-14's definitions of the classes:
    /// `always` prompts on every call; `on-mutate` prompts when `mutates` is non-empty (so it is
    /// `always` for a tool that mutates, `auto` for one that does not: AIP-14 lets a tool narrow
    /// `always` to `on-mutate`); `policy:<ref>` hands the decision to a named policy (a gate,
    /// but one this file does not show); `auto`, absent or anything else never prompts.
    pub fn approval_rank(&self) -> u8 {
        match self.approval.as_ref().map(|(a, _)| a.as_str()) {
            Some("always") => 3,
            Some("on-mutate") if !self.mutates.is_empty() => 3,
            Some(p) if p.starts_with("policy:") => 2,
            _ => 0,
        }
    }
}

/// One item of a skill's Tool Use Rules section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleItem {
    /// The SKILL.md, relative to the root.
    pub path: String,
    pub text: String,
    pub at: At,
}

impl Row {
    /// `exec, financial` or `-`.
    pub fn capability_list(&self) -> String {
        if self.capabilities.is_empty() {
            return "-".to_string();
        }
        self.capabilities
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The evidence that decided the effect and each capability, one phrase each:
    /// "write: the name's `update` (inferred)".
    pub fn evidence_lines(&self) -> Vec<String> {
        self.evidence
            .iter()
            .filter(|e| e.claim != "gate" && e.claim != "hinted")
            .map(|e| format!("{}: {} ({}, {})", e.claim, e.text, e.source, e.basis))
            .collect()
    }
}

/// A file the inventory could not read (its tools are missing from the rows).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Unread {
    pub path: String,
    pub message: String,
    /// A stable hash of the text when it was read and did not parse, so that a diff can tell an
    /// unreadable file left alone from one changed (and still unreadable); for a source file
    /// read in part, of what was not read (each tool, part and why, not where); `None` when the
    /// bytes were not read (over the size cap, binary, a link not followed…).
    pub digest: Option<u64>,
}

/// The repository's inventory: rows sorted by path, then place in the file.
#[derive(Debug, Clone)]
pub struct Inventory {
    pub root: PathBuf,
    pub rows: Vec<Row>,
    /// Tools files that could not be read or parsed, sorted by path.
    pub unread: Vec<Unread>,
}

impl Inventory {
    pub(crate) fn new(
        repo: &crate::index::Repo,
        units: Vec<(Vec<Row>, Vec<Unread>)>,
        read_problems: &[crate::diagnostic::Diagnostic],
        root: PathBuf,
    ) -> Inventory {
        let mut rows = Vec::new();
        let mut unread = Vec::new();
        for (r, u) in units {
            rows.extend(r);
            unread.extend(u);
        }
        rows.sort_by(|a, b| {
            (&a.path, a.span.start, &a.name).cmp(&(&b.path, b.span.start, &b.name))
        });
        unread.extend(read_problems.iter().map(|d| Unread {
            path: repo.file(d.primary.file).rel_path.clone(),
            message: d.message.clone(),
            digest: None,
        }));
        unread.sort_by(|a, b| a.path.cmp(&b.path));
        Inventory { root, rows, unread }
    }
}

/// The rows of one unit's tools, and a note for each of its tools files that did not parse
/// (its tools are missing from the rows, and the inventory must say so).
pub(crate) fn unit_inventory(unit: &Unit<'_>) -> (Vec<Row>, Vec<Unread>) {
    let unread = unit
        .tools_docs()
        .filter_map(|(file, doc)| {
            if doc.code.is_some() {
                return code_unread(unit, file, doc);
            }
            let message = match (&doc.parse_error, &doc.not_a_tool_list) {
                (Some(e), _) => format!("not valid JSON: {}", e.message),
                (None, Some(_)) => {
                    "not a tool list in any dialect skilllint reads (TJ014)".to_string()
                }
                (None, None) => return None,
            };
            let source = unit.repo.file(file);
            Some(Unread {
                path: source.rel_path.clone(),
                message,
                digest: Some(crate::diagnostic::stable_hash(&[source.text.as_str()])),
            })
        })
        .collect();
    (unit_rows(unit), unread)
}

/// What of a source file's registrations could not be read: the registrations whose name is
/// computed at run time (they are no rows), and the parts of the others (their rules do not
/// run on them). `None` when everything was read.
fn code_unread(
    unit: &Unit<'_>,
    file: FileId,
    doc: &crate::model::tools::ToolsDoc,
) -> Option<Unread> {
    let source = unit.repo.file(file);
    let lines = LineIndex::new(&source.text);
    let line = |span: Span| lines.line_col(span.start).line;
    let mut notes = Vec::new();
    // What was not read, without where: the same parts left unread in a later version of the
    // file (lines moved by an edit elsewhere) are no new unknown for a diff.
    let mut unknowns: Vec<String> = Vec::new();
    if !doc.unresolved.is_empty() {
        let count = doc.unresolved.len();
        let noun = if count == 1 {
            "registration"
        } else {
            "registrations"
        };
        let places: Vec<String> = doc
            .unresolved
            .iter()
            .map(|u| format!("line {}: {}", line(u.span), u.why))
            .collect();
        notes.push(format!(
            "{count} tool {noun} not read ({})",
            places.join("; ")
        ));
        unknowns.extend(doc.unresolved.iter().map(|u| u.why.clone()));
    }
    for tool in &doc.tools {
        let Some(code) = &tool.code else {
            continue;
        };
        for part in &code.unresolved {
            notes.push(format!(
                "tool `{}`: {} not read at line {} ({})",
                tool.display_name(),
                part.part,
                line(part.span),
                part.why
            ));
            unknowns.push(format!(
                "{}\u{0}{}\u{0}{}",
                tool.display_name(),
                part.part,
                part.why
            ));
        }
    }
    if notes.is_empty() {
        return None;
    }
    unknowns.sort();
    let unknowns: Vec<&str> = unknowns.iter().map(String::as_str).collect();
    Some(Unread {
        path: source.rel_path.clone(),
        message: notes.join("; "),
        digest: Some(crate::diagnostic::stable_hash(&unknowns)),
    })
}

/// The row of the tool whose name (or, for an unnamed tool, whose entry) spans `offset` in the
/// tools file `file`: what the language server shows on hover. Parses only that file's folder.
pub fn tool_at(repo: &crate::index::Repo, file: FileId, offset: usize) -> Option<Row> {
    let files = repo.units.iter().find(|u| u.tools.contains(&file))?;
    let rel = &repo.file(file).rel_path;
    let rows = crate::check::run::with_unit(repo, files, unit_rows);
    rows.into_iter()
        .find(|row| &row.path == rel && (row.span.contains(offset) || row.span.end == offset))
}

/// Line indexes of the files a unit's rows point into, each built once.
struct Places<'a> {
    repo: &'a crate::index::Repo,
    lines: Vec<(FileId, LineIndex<'a>)>,
}

impl<'a> Places<'a> {
    fn at(&mut self, file: FileId, span: Span) -> At {
        let i = match self.lines.iter().position(|(f, _)| *f == file) {
            Some(i) => i,
            None => {
                let text = self.repo.file(file).text.as_str();
                self.lines.push((file, LineIndex::new(text)));
                self.lines.len() - 1
            }
        };
        at(&self.lines[i].1, span)
    }
}

/// The rows of one unit's tools, in file and entry order.
pub(crate) fn unit_rows(unit: &Unit<'_>) -> Vec<Row> {
    let grants = skill_grants(unit);
    let mut places = Places {
        repo: unit.repo,
        lines: Vec::new(),
    };
    let mut rows = Vec::with_capacity(unit.tool_effects().len());
    for effect in unit.tool_effects() {
        rows.push(row(unit, effect, &mut places, &grants));
    }
    rows.extend(surface::surface_rows(unit));
    rows
}

pub(crate) fn at(index: &LineIndex<'_>, span: Span) -> At {
    let lc = index.line_col(span.start);
    At {
        line: u32::try_from(lc.line).unwrap_or(u32::MAX),
        column: u32::try_from(lc.column).unwrap_or(u32::MAX),
    }
}

fn row<'a>(
    unit: &Unit<'a>,
    effect: &ToolEffect<'a>,
    places: &mut Places<'_>,
    grants: &[String],
) -> Row {
    let tool = effect.tool;
    let name = tool.display_name();
    let evidence = effect
        .evidence
        .iter()
        .map(|e| RowEvidence {
            claim: e.claim.key(),
            basis: e.basis.as_str(),
            source: e.source,
            text: e.text.clone(),
            at: if e.file == effect.file {
                places.at(effect.file, e.span)
            } else {
                At::default()
            },
        })
        .collect();
    let approval = effect
        .evidence
        .iter()
        .find(|e| e.source == "contract.approval" || e.source == "needsApproval")
        .map(|e| e.text.clone());
    let gates = Gates {
        requires_confirmation: tool.confirmation.map(|(v, _)| v),
        idempotent: tool.idempotent.map(|(v, _)| v),
        annotations: annotations(tool),
        parameters: gate_parameters(tool),
        approval,
        pre_approved: grants
            .iter()
            .filter(|g| grant_names(g, &name))
            .cloned()
            .collect(),
    };
    Row {
        path: unit.repo.file(effect.file).rel_path.clone(),
        folder: unit.dir().to_string(),
        at: places.at(effect.file, tool.span()),
        span: tool.span(),
        name,
        dialect: tool.dialect.as_str(),
        effect: effect.effect,
        capabilities: effect.capabilities.clone(),
        evidence,
        gates,
        description: tool
            .description()
            .and_then(Node::as_str)
            .map(str::to_string),
        schema: tool.schema().map(Node::to_json),
        description_span: tool
            .description()
            .filter(|d| d.as_str().is_some())
            .map(|d| d.span),
        contract: contract_facts(unit, tool, places),
        rules: rule_items(unit, tool, places),
        runs: None,
    }
}

/// The safety declarations of the TOOL.md linked to `tool`, if one is.
fn contract_facts(unit: &Unit<'_>, tool: &Tool, places: &mut Places<'_>) -> Option<ContractFacts> {
    let link = unit
        .tool_links()
        .iter()
        .find(|l| std::ptr::eq(l.tool, tool))?;
    let contract = &link.contract;
    let file = contract.file;
    let strings = |node: &Node| -> Vec<String> {
        node.as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect()
    };
    let mutates = contract.get("mutates");
    let requires = contract.get("requires");
    let mut required = Vec::new();
    for member in requires.and_then(Node::as_object).into_iter().flatten() {
        for value in strings(&member.value) {
            required.push(format!("{}:{value}", member.key));
        }
    }
    required.sort();
    required.dedup();
    let mut mutated = mutates.map(strings).unwrap_or_default();
    mutated.sort();
    mutated.dedup();
    Some(ContractFacts {
        path: unit.repo.file(file).rel_path.clone(),
        at: places.at(file, contract.anchor()),
        approval: contract
            .get("approval")
            .and_then(|n| n.as_str().map(|a| (a.to_string(), places.at(file, n.span)))),
        mutates: mutated,
        mutates_at: mutates.map(|n| places.at(file, n.span)),
        requires: required,
        requires_at: requires.map(|n| places.at(file, n.span)),
    })
}

/// The Tool Use Rules items of the unit's skill that name `tool`, in section order.
fn rule_items<'a>(unit: &Unit<'a>, tool: &'a Tool, places: &mut Places<'_>) -> Vec<RuleItem> {
    let (Some(name), Some((file, _)), Some((_, items))) =
        (tool.name(), unit.skill(), unit.tool_use_rules())
    else {
        return Vec::new();
    };
    let path = unit.repo.file(file).rel_path.clone();
    unit.items_naming(name)
        .iter()
        .filter_map(|i| items.get(*i))
        .map(|item| RuleItem {
            path: path.clone(),
            text: item.text.clone(),
            at: places.at(file, item.span),
        })
        .collect()
}

fn annotations(tool: &Tool) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = tool
        .annotations()
        .and_then(Node::as_object)
        .into_iter()
        .flatten()
        .filter_map(|m| m.value.as_bool().map(|v| (m.key.clone(), v)))
        .collect();
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// Words that make a parameter a confirmation gate, a preview, or an idempotency key.
fn parameter_kind(name: &str) -> Option<&'static str> {
    let words = name_words(name);
    let has = |w: &str| words.iter().any(|x| x == w);
    if has("idempotency") || has("idempotent") {
        Some("idempotency")
    } else if words.windows(2).any(|p| p[0] == "dry" && p[1] == "run")
        || has("dryrun")
        || has("preview")
    {
        Some("dry-run")
    } else if has("confirm") || has("confirmed") || has("confirmation") {
        Some("confirmation")
    } else {
        None
    }
}

fn gate_parameters(tool: &Tool) -> Vec<GateParameter> {
    let mut out: Vec<GateParameter> = tool
        .property_names()
        .filter_map(|name| {
            parameter_kind(name).map(|kind| GateParameter {
                kind,
                name: name.to_string(),
                required: tool.required_entry(name).is_some(),
            })
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The SKILL.md and its frontmatter's `allowed-tools` value, if it has one.
pub(crate) fn allowed_tools<'a>(unit: &Unit<'a>) -> Option<(FileId, &'a Node)> {
    let (file, skill) = unit.skill()?;
    let allowed = skill.doc.frontmatter()?.root.get("allowed-tools")?;
    Some((file, allowed))
}

/// The skill's `allowed-tools` entries as written (`Bash(git status:*)`, `mcp__shop__refund`).
fn skill_grants(unit: &Unit<'_>) -> Vec<String> {
    let Some((file, allowed)) = allowed_tools(unit) else {
        return Vec::new();
    };
    grants(allowed, unit.text(file))
        .into_iter()
        .map(|g| match g.scope {
            Some(scope) => format!("{}({scope})", g.tool),
            None => g.tool,
        })
        .collect()
}

/// Whether a grant pre-approves the tool `name`: the name itself, or an MCP tool name that ends
/// with it (`mcp__shop__refund` for `refund`), without a scope or with one.
fn grant_names(grant: &str, name: &str) -> bool {
    let tool = grant.split('(').next().unwrap_or(grant);
    tool == name
        || tool
            .strip_suffix(name)
            .is_some_and(|head| head.starts_with("mcp__") && head.ends_with("__"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_sorted_into_kinds_by_their_words() {
        assert_eq!(parameter_kind("user_confirmed"), Some("confirmation"));
        assert_eq!(parameter_kind("dryRun"), Some("dry-run"));
        assert_eq!(parameter_kind("idempotency_key"), Some("idempotency"));
        assert_eq!(parameter_kind("preview"), Some("dry-run"));
        assert_eq!(parameter_kind("confirmation_url"), Some("confirmation"));
        assert_eq!(parameter_kind("unconfirmed_count"), None);
        assert_eq!(parameter_kind("query"), None);
    }

    #[test]
    fn a_grant_names_a_tool_by_name_or_by_its_mcp_name() {
        assert!(grant_names("refund_order", "refund_order"));
        assert!(grant_names("mcp__shop__refund_order", "refund_order"));
        assert!(!grant_names("mcp__shop__refund_order_all", "refund_order"));
        assert!(!grant_names("Bash(git status:*)", "status"));
        assert!(!grant_names("xrefund_order", "refund_order"));
    }
}
