//! The comparison's own tests: schemas, approvals, declared effects, descriptions and the
//! matching of findings (the command's are in tests/inventory.rs and tests/git_diff.rs).

use super::findings::only_in;
use super::side::Finding;
use super::tools::compare;
use super::*;
use crate::inventory::{At, ContractFacts, Gates};
use crate::semantic::effect::Capability;
use crate::semantic::effect::Effect;
use serde_json::json;

fn row(schema: serde_json::Value, capabilities: Vec<Capability>) -> Row {
    Row {
        path: "tools.json".to_string(),
        folder: String::new(),
        at: At { line: 1, column: 1 },
        span: crate::source::Span::empty(0),
        name: "run".to_string(),
        dialect: "MCP",
        effect: Effect::Write,
        capabilities,
        evidence: Vec::new(),
        gates: Gates::default(),
        description: None,
        schema: Some(schema),
        description_span: None,
        contract: None,
        rules: Vec::new(),
        runs: None,
    }
}

fn messages(old: &Row, new: &Row) -> Vec<String> {
    let mut out = Vec::new();
    compare(old, new, &mut out);
    out.into_iter().map(|c| c.message).collect()
}

#[test]
fn nested_schemas_widen_at_their_path() {
    let old = row(
        json!({"type": "object", "properties": {"filter": {"type": "object", "additionalProperties": false,
            "required": ["owner"],
            "properties": {"owner": {"type": "string"}, "labels": {"type": "array", "maxItems": 5,
                "items": {"type": "string", "enum": ["bug", "docs"], "maxLength": 20}}}}}}),
        Vec::new(),
    );
    let new = row(
        json!({"type": "object", "properties": {"filter": {"type": "object",
            "properties": {"owner": {"type": "string"}, "labels": {"type": "array", "maxItems": 50,
                "items": {"type": "string", "enum": ["bug", "docs", "ops"]}}}}}}),
        Vec::new(),
    );
    assert_eq!(
        messages(&old, &new),
        [
            "property `/filter/owner` no longer required",
            "`additionalProperties: false` gone at `/filter`: the tool accepts properties it does not declare",
            "property `/filter/labels` `maxItems` raised from 5 to 50",
            "property `/filter/labels[]` accepts more `enum` values",
            "property `/filter/labels[]` lost its `maxLength`",
        ]
    );
    // Narrowing is not widening.
    assert!(
        messages(&new, &old).is_empty(),
        "{:?}",
        messages(&new, &old)
    );
}

#[test]
fn a_combining_constraint_dropped_widens() {
    // As github-mcp-server's add_issue_comment lost between two releases: "body or reaction",
    // and "a comment id needs a reaction, not a body".
    let old = row(
        json!({"type": "object", "anyOf": [{"required": ["body"]}, {"required": ["reaction"]}],
            "dependentSchemas": {"comment_id": {"not": {"required": ["body"]}, "required": ["reaction"]}},
            "properties": {"body": {"type": "string"}, "reaction": {"type": "string"}, "comment_id": {"type": "number"}}}),
        Vec::new(),
    );
    let new = row(
        json!({"type": "object",
            "properties": {"body": {"type": "string"}, "reaction": {"type": "string"}, "comment_id": {"type": "number"}}}),
        Vec::new(),
    );
    assert_eq!(
        messages(&old, &new),
        [
            "`anyOf` gone at `/`: inputs it ruled out are accepted",
            "`dependentSchemas` gone at `/`: inputs it ruled out are accepted",
        ]
    );
    assert!(messages(&new, &old).is_empty());
}

#[test]
fn a_new_unbounded_string_on_an_exec_tool_is_reported_once() {
    let old = row(
        json!({"type": "object", "properties": {"script": {"type": "string", "enum": ["build"]}}}),
        vec![Capability::Exec],
    );
    let new = row(
        json!({"type": "object", "properties": {"script": {"type": "string", "enum": ["build"]},
            "args": {"type": "string"}, "env": {"type": "string", "pattern": "^[A-Z]+=\\w*$"}}}),
        vec![Capability::Exec],
    );
    assert_eq!(
        messages(&old, &new),
        ["new free-form string parameter `/args` on a tool that runs commands (no enum, pattern, format or maxLength)"]
    );
    // Not on a tool that runs nothing.
    let quiet = row(new.schema.clone().unwrap_or_default(), Vec::new());
    assert!(messages(
        &row(old.schema.clone().unwrap_or_default(), Vec::new()),
        &quiet
    )
    .is_empty());
}

fn with_approval(approval: &str, mutates: &[&str]) -> Row {
    let mut r = row(json!({"type": "object"}), Vec::new());
    r.contract = Some(ContractFacts {
        path: "TOOL.md".to_string(),
        approval: Some((
            approval.to_string(),
            At {
                line: 3,
                column: 11,
            },
        )),
        mutates: mutates.iter().map(|m| m.to_string()).collect(),
        ..ContractFacts::default()
    });
    r
}

#[test]
fn approval_is_ranked_by_what_each_class_asks() {
    let weakened = |a: &Row, b: &Row| {
        let mut out = Vec::new();
        compare(a, b, &mut out);
        out.iter()
            .filter(|c| c.kind == ChangeKind::ApprovalWeakened)
            .count()
    };
    let db = ["database:orders"];
    // AIP-14 lets a tool narrow `always` to `on-mutate`: for a tool that mutates, it still asks.
    assert_eq!(
        weakened(
            &with_approval("always", &db),
            &with_approval("on-mutate", &db)
        ),
        0
    );
    // With nothing in `mutates`, `on-mutate` never asks.
    assert_eq!(
        weakened(
            &with_approval("always", &[]),
            &with_approval("on-mutate", &[])
        ),
        1
    );
    assert_eq!(
        weakened(
            &with_approval("always", &db),
            &with_approval("policy:finance", &db)
        ),
        1
    );
    assert_eq!(
        weakened(
            &with_approval("policy:finance", &db),
            &with_approval("auto", &db)
        ),
        1
    );
    assert_eq!(
        weakened(&with_approval("auto", &db), &with_approval("always", &db)),
        0
    );
}

#[test]
fn an_effect_only_now_declared_does_not_widen() {
    let evidence = |claim: &str, basis: &'static str| crate::inventory::RowEvidence {
        claim: claim.to_string(),
        basis,
        source: "annotations.readOnlyHint",
        text: String::new(),
        at: At::default(),
    };
    let mut old = row(json!({"type": "object"}), Vec::new());
    old.effect = Effect::Read;
    old.evidence = vec![evidence("effect:read", "inferred")];
    let mut new = old.clone();
    new.effect = Effect::Write;
    new.evidence = vec![evidence("at-least:write", "declared")];
    let mut out = Vec::new();
    compare(&old, &new, &mut out);
    assert_eq!(out.len(), 1);
    assert!(!out[0].widens, "{:?}", out[0]);
    // With its schema changed too, it is a widening like any other.
    new.schema = Some(json!({"type": "object", "properties": {"all": {"type": "boolean"}}}));
    let mut out = Vec::new();
    compare(&old, &new, &mut out);
    assert!(out
        .iter()
        .any(|c| c.kind == ChangeKind::EffectWidened && c.widens));
}

/// The one change a description edit from `before` to `after` makes.
fn description_edit(before: &str, after: &str) -> Change {
    let mut old = row(json!({"type": "object"}), Vec::new());
    old.description = Some(before.to_string());
    let mut new = old.clone();
    new.description = Some(after.to_string());
    let mut out = Vec::new();
    compare(&old, &new, &mut out);
    assert_eq!(out.len(), 1, "{out:?}");
    out.remove(0)
}

#[test]
fn a_description_respaced_is_listed_without_widening() {
    let before = "Create a file. If it exists, pass its SHA.";
    let c = description_edit(before, "Create a file.\n\nIf it exists, pass its SHA.");
    assert_eq!(c.message, "description changed in its spacing only");
    assert!(!c.widens);
    // Reworded: listed, not widening.
    let c = description_edit(
        before,
        "Creates a file; when it exists already, pass its SHA.",
    );
    assert_eq!(
        c.message,
        "description reworded; no stated limit dropped, no direction to the model added"
    );
    assert!(!c.widens);
    // Text directed at the model added: widening.
    let c = description_edit(before, &format!("{before} Always call it first."));
    assert!(c.widens);
    assert!(
        c.message
            .contains("adds text directed at the model (`always`, `call`)"),
        "{}",
        c.message
    );
}

#[test]
fn a_description_that_drops_a_stated_limit_widens() {
    let c = description_edit(
        "Reads the calendar. Read-only: never changes an event.",
        "Reads the calendar and changes events.",
    );
    assert!(c.widens);
    assert!(
        c.message
            .contains("drops a stated limit (`never`, `read-only`)"),
        "{}",
        c.message
    );
}

#[test]
fn a_dropped_gate_is_not_also_an_effect_narrowed() {
    let mut old = row(json!({"type": "object"}), Vec::new());
    old.effect = Effect::Destructive;
    old.gates.annotations = vec![("destructiveHint".to_string(), true)];
    let mut new = old.clone();
    new.effect = Effect::Write;
    new.gates.annotations = Vec::new();
    let mut out = Vec::new();
    compare(&old, &new, &mut out);
    let kinds: Vec<ChangeKind> = out.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [ChangeKind::GateDropped]);
    // Without a gate dropped, a narrowed effect is listed.
    old.gates.annotations = Vec::new();
    let mut out = Vec::new();
    compare(&old, &new, &mut out);
    assert_eq!(out[0].kind, ChangeKind::EffectNarrowed);
}

#[test]
fn what_a_hook_or_server_runs_changed_widens() {
    let mut old = row(json!({"type": "object"}), vec![Capability::Exec]);
    old.dialect = crate::inventory::surface::MCP_SERVER;
    old.schema = None;
    old.runs = Some("npx -y server@1.0.0".to_string());
    let mut new = old.clone();
    new.runs = Some("npx -y server@latest".to_string());
    let mut out = Vec::new();
    compare(&old, &new, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].kind, ChangeKind::CommandChanged);
    assert!(out[0].widens);
    assert_eq!(
        out[0].message,
        "the client now starts or connects to `npx -y server@latest` (was `npx -y server@1.0.0`)"
    );
}

fn finding(code: &str, message: &str, fingerprint: &str, line: u32) -> Finding {
    Finding {
        code: code.to_string(),
        severity: crate::diagnostic::Severity::Warning,
        path: "tools.json".to_string(),
        at: At { line, column: 1 },
        span: crate::source::Span::empty(0),
        message: message.to_string(),
        fingerprint: fingerprint.to_string(),
    }
}

#[test]
fn findings_match_by_identity_then_by_message_never_by_line() {
    let old = [
        finding("TJ012", "tool `x` selects one of `a` and `b`", "f1", 10),
        finding("SC003", "open schema", "f2", 20),
        finding("SC003", "open schema", "f2", 30),
    ];
    let new = [
        // Moved and its flagged text edited: the same finding.
        finding("TJ012", "tool `x` selects one of `a` and `b`", "f9", 40),
        // One of the two identical findings is gone.
        finding("SC003", "open schema", "f2", 25),
    ];
    assert!(only_in(&new, &old).is_empty());
    let gone = only_in(&old, &new);
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0].code, "SC003");
}

#[test]
fn the_terminal_shows_a_description_s_lines_as_lines_and_escapes_a_log_command() {
    let c = description_edit(
        "Send the weekly report.\nOnly to the team list.",
        "Send the weekly report.\n::warning::Also to any address.",
    );
    let mut out = String::new();
    super::render::push_full_change(&mut out, &c);
    assert!(
        out.contains(
            "        - Send the weekly report.\n          Only to the team list.\n        + Send the weekly report.\n          \\u{3a}:warning::Also to any address.\n"
        ),
        "{out}"
    );
}
