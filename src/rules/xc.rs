//! XC: a skill's tools against their AIP-14 `TOOL.md` contracts, SPEC §3.8.
//!
//! A `tools.json` tool is *linked* to a TOOL.md when `[contracts.map]` maps its name to the
//! contract's `id`, or when the two are equal once `.` and `-` become `_` (`create_event` ↔
//! `create-event`). The TOOL.md may live anywhere in the repository. A linked tool may add
//! obligations to its contract but never drop them. Diagnostics point at the tools.json side (the
//! flag, or the tool's name) with a secondary label on the TOOL.md key they contradict.

use crate::check::Unit;
use crate::check::{Check, RuleImpl, Sink};
use crate::model::tools::{Dialect, SideEffect, Tool};
use crate::parse::Node;
use crate::semantic::links::Link;
use crate::source::Span;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: "XC001", check: Check::Unit(tool_type_contradicts_contract) },
    RuleImpl { code: "XC002", check: Check::Unit(confirmation_weaker_than_contract) },
    RuleImpl { code: "XC003", check: Check::Unit(idempotency_contradicts_contract) },
    RuleImpl { code: "XC004", check: Check::Unit(contract_input_missing) },
];

const CONFIRMATION_FIELD: &str = "user_confirmed";

fn quoted_list(items: &[Node], max: usize) -> String {
    let names: Vec<String> = items
        .iter()
        .filter_map(Node::as_str)
        .take(max)
        .map(|s| format!("`{s}`"))
        .collect();
    let rest = items.len().saturating_sub(names.len());
    if rest > 0 {
        format!("{} and {rest} more", names.join(", "))
    } else {
        names.join(", ")
    }
}

// ---------------------------------------------------------------------------------------------
// XC001 tool-type-contradicts-contract
// ---------------------------------------------------------------------------------------------

fn tool_type_contradicts_contract(unit: &Unit<'_>, sink: &mut Sink) {
    for link in unit.tool_links() {
        let Some(mutates) = link.get("mutates") else {
            continue;
        };
        let Some(items) = mutates.as_array() else {
            continue;
        };
        let tool = link.tool;
        let span = tool.side_effect_span.unwrap_or_else(|| tool.span());
        let (how, writing) = if tool.dialect == Dialect::Mcp {
            ("annotated", "annotated as writing")
        } else {
            ("declared", "declared a write tool")
        };
        match tool.side_effect {
            SideEffect::Read if !items.is_empty() => {
                sink.report(
                    link.tools_file,
                    span,
                    format!(
                        "tool `{}` is {how} read-only but its contract `{}` mutates {}",
                        link.name(),
                        link.id,
                        quoted_list(items, 3)
                    ),
                )
                .label(format!("{how} read-only here"))
                .secondary(link.contract_file, mutates.span, "the contract declares these side effects")
                .help("make it a write tool with a confirmation gate; if the tool really changes nothing, correct the contract's `mutates` instead");
            }
            SideEffect::Write if items.is_empty() => {
                sink.report(
                    link.tools_file,
                    span,
                    format!(
                        "tool `{}` is {writing} but its contract `{}` has `mutates: []`",
                        link.name(),
                        link.id
                    ),
                )
                .severity(crate::diagnostic::Severity::Warning)
                .label(format!("{writing} here"))
                .secondary(link.contract_file, mutates.span, "the contract declares no side effects")
                .help("list what the tool changes in the contract's `mutates` (e.g. `database:events`), or declare the tool read-only if it changes nothing");
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// XC002 confirmation-weaker-than-contract
// ---------------------------------------------------------------------------------------------

/// The contract's `approval` when it gates calls: `always`, `policy:<ref>`, or `on-mutate` with a
/// non-empty `mutates`.
fn gating_approval<'a>(link: &'a Link<'_>) -> Option<(&'a Node, String)> {
    let approval = link.get("approval")?;
    let text = approval.as_str()?;
    let mutating = link
        .get("mutates")
        .and_then(Node::as_array)
        .is_some_and(|m| !m.is_empty());
    let label = match text {
        "always" => "the contract always requires approval".to_string(),
        "on-mutate" if mutating => {
            "the contract requires approval because it mutates resources".to_string()
        }
        policy if policy.starts_with("policy:") => {
            format!("the contract defers approval to `{policy}`")
        }
        _ => return None,
    };
    Some((approval, label))
}

/// Whether calls to the tool go through a confirmation gate: the forge flag, or (dialects without
/// one) a required boolean `user_confirmed` parameter.
fn is_gated(tool: &Tool) -> bool {
    match tool.dialect {
        Dialect::Forge => tool.is_confirmation_gated(),
        _ => tool.has_required_property(CONFIRMATION_FIELD, "boolean"),
    }
}

fn confirmation_weaker_than_contract(unit: &Unit<'_>, sink: &mut Sink) {
    for link in unit.tool_links() {
        let Some((approval, approval_label)) = gating_approval(link) else {
            continue;
        };
        let tool = link.tool;
        if is_gated(tool) {
            continue;
        }
        let (span, label, help) = match (tool.dialect, tool.confirmation) {
            (Dialect::Forge, Some((_, span))) => (
                span,
                "confirmation disabled here",
                "set `\"requiresConfirmation\": true` and add the required boolean `user_confirmed` parameter; tools.json may add gates to its contract but never drop them",
            ),
            (Dialect::Forge, None) => (
                tool.span(),
                "no `requiresConfirmation`",
                "set `\"requiresConfirmation\": true` and add the required boolean `user_confirmed` parameter; tools.json may add gates to its contract but never drop them",
            ),
            _ => (
                tool.span(),
                "no required boolean `user_confirmed`",
                "add a required boolean `user_confirmed` parameter and call the tool only after the user confirms; tools.json may add gates to its contract but never drop them",
            ),
        };
        sink.report(
            link.tools_file,
            span,
            format!(
                "tool `{}` is not confirmation-gated but its contract `{}` requires approval",
                link.name(),
                link.id
            ),
        )
        .label(label)
        .secondary(link.contract_file, approval.span, approval_label)
        .help(help);
    }
}

// ---------------------------------------------------------------------------------------------
// XC003 idempotency-contradicts-contract
// ---------------------------------------------------------------------------------------------

fn idempotency_contradicts_contract(unit: &Unit<'_>, sink: &mut Sink) {
    for link in unit.tool_links() {
        let Some((tool_says, span)) = link.tool.idempotent else {
            continue;
        };
        let declared = link.get("idempotent");
        let (contract_says, contract_span, contract_label) =
            match declared.and_then(|n| n.as_bool().map(|b| (b, n))) {
                Some((b, node)) => (b, node.span, format!("the contract says `idempotent: {b}`")),
                // A mistyped value is the contract schema's problem (TM002).
                None if declared.is_some() => continue,
                None => (
                    false,
                    link.id_span(),
                    "the contract leaves `idempotent` at its default, `false`".to_string(),
                ),
            };
        if tool_says == contract_says {
            continue;
        }
        let key = if link.tool.dialect == Dialect::Mcp {
            "idempotentHint"
        } else {
            "idempotent"
        };
        let help = if tool_says {
            "a retry of a tool the contract does not call idempotent may apply the change twice: make the contract `idempotent: true` if retries are really safe, or set the tool's flag to `false`"
        } else {
            "the contract promises safe retries: make the tool idempotent (forge: `\"idempotent\": true` with a required `idempotency_key`), or correct the contract"
        };
        sink.report(
            link.tools_file,
            span,
            format!(
                "tool `{}` declares `{key}: {tool_says}` but its contract `{}` is {}idempotent",
                link.name(),
                link.id,
                if contract_says { "" } else { "not " }
            ),
        )
        .label("disagrees with the contract")
        .secondary(link.contract_file, contract_span, contract_label)
        .help(help);
    }
}

// ---------------------------------------------------------------------------------------------
// XC004 contract-input-missing
// ---------------------------------------------------------------------------------------------

/// Where "this schema lacks an input" points: the schema's `properties` key, else the key holding
/// the schema, else the tool's name.
fn properties_anchor(tool: &Tool) -> (Span, &'static str) {
    let schema_member = match tool.dialect {
        Dialect::Forge | Dialect::Mcp => tool.entry.member("inputSchema"),
        Dialect::Anthropic => tool.entry.member("input_schema"),
        Dialect::OpenAi => tool.definition().member("parameters"),
        // Script parameters are the properties themselves.
        Dialect::Script => {
            return tool
                .entry
                .member("parameters")
                .map_or((tool.span(), "the tool has no `parameters`"), |m| {
                    (m.key_span, "not among these parameters")
                })
        }
    };
    match schema_member {
        Some(member) => match member.value.member("properties") {
            Some(properties) => (properties.key_span, "not among these properties"),
            None => (member.key_span, "this schema declares no properties"),
        },
        None => (tool.span(), "the tool has no input schema"),
    }
}

fn contract_input_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for link in unit.tool_links() {
        let Some(required) = link
            .get("inputs")
            .and_then(|i| i.get("required"))
            .and_then(Node::as_array)
        else {
            continue;
        };
        let tool = link.tool;
        for entry in required {
            let Some(input) = entry.as_str() else {
                continue;
            };
            if tool.property(input).is_some() {
                continue;
            }
            let (span, label) = properties_anchor(tool);
            sink.report(
                link.tools_file,
                span,
                format!(
                    "tool `{}` has no `{input}` input, which its contract `{}` requires",
                    link.name(),
                    link.id
                ),
            )
            .label(label)
            .secondary(link.contract_file, entry.span, "required by the contract")
            .help(format!(
                "add `{input}` to the tool's input schema with the type the contract gives it, and list it in `required`"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::index::Settings;
    use crate::{lint, LintOptions};

    use crate::check::testing::write;

    /// Lints `files` with only `code` selected; (message, primary text, secondary texts).
    fn run_with(
        code: &str,
        files: &[(&str, &str)],
        settings: Settings,
    ) -> Vec<(String, String, Vec<String>)> {
        let dir = tempfile::tempdir().expect("temp dir");
        write(dir.path(), files);
        let options = LintOptions {
            settings,
            ..crate::check::testing::options(dir.path(), &[code])
        };
        let outcome = lint(&options).expect("lint runs");
        let text = |file, span: crate::source::Span| {
            outcome
                .repo
                .text(file)
                .get(span.start..span.end)
                .unwrap_or("")
                .to_string()
        };
        outcome
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .map(|d| {
                (
                    d.message.clone(),
                    text(d.primary.file, d.primary.span),
                    d.secondary.iter().map(|l| text(l.file, l.span)).collect(),
                )
            })
            .collect()
    }

    fn run(code: &str, files: &[(&str, &str)]) -> Vec<(String, String, Vec<String>)> {
        run_with(code, files, Settings::default())
    }

    fn contract(id: &str, extra: &str) -> String {
        format!(
            "---\nname: X\nid: {id}\ndescription: d\nversion: 1.0.0\n{extra}inputs:\n  type: object\n  properties:\n    a: {{ type: string }}\n  required: [a]\noutputs:\n  type: object\n---\n"
        )
    }

    fn forge(name: &str, kind: &str, flags: &str) -> String {
        format!(
            r#"[{{"name": "{name}", "type": "{kind}", "description": "d", {flags}"inputSchema": {{"type": "object", "properties": {{"a": {{"type": "string"}}, "user_confirmed": {{"type": "boolean"}}}}, "required": ["a", "user_confirmed"]}}}}]"#
        )
    }

    #[test]
    fn links_by_convention_and_by_map() {
        let files = [
            (
                ".tools/cal/event-create/TOOL.md",
                contract("calendar.event-create", "mutates: [\"calendar:events\"]\n"),
            ),
            (
                ".tools/other/TOOL.md",
                contract("other-id", "mutates: [\"calendar:events\"]\n"),
            ),
            (
                "s/tools.json",
                format!(
                    "[{}, {}]",
                    forge("calendar_event_create", "read", "").trim_matches(['[', ']']),
                    forge("mapped_tool", "read", "").trim_matches(['[', ']'])
                ),
            ),
        ];
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let found = run("XC001", &files);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0.contains("`calendar_event_create`"));
        assert_eq!(found[0].1, r#""read""#);
        assert_eq!(found[0].2, [r#"["calendar:events"]"#]);

        let mut settings = Settings::default();
        settings
            .contract_map
            .insert("mapped_tool".to_string(), "other-id".to_string());
        let found = run_with("XC001", &files, settings);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[1].0.contains("`mapped_tool`") && found[1].0.contains("`other-id`"));
    }

    #[test]
    fn side_effects_against_mutates() {
        let write_empty = contract("w", "mutates: []\n");
        let no_mutates = contract("r", "");
        let tools = format!(
            "[{}, {}]",
            forge("w", "write", r#""requiresConfirmation": true, "#).trim_matches(['[', ']']),
            forge("r", "read", "").trim_matches(['[', ']'])
        );
        let found = run(
            "XC001",
            &[
                (".tools/w/TOOL.md", &write_empty),
                (".tools/r/TOOL.md", &no_mutates),
                ("s/tools.json", &tools),
            ],
        );
        assert_eq!(found.len(), 1, "a contract without `mutates` is TM004's");
        assert!(found[0].0.contains("has `mutates: []`"));
    }

    #[test]
    fn approval_classes_that_gate() {
        let cases = [
            ("approval: always\nmutates: []\n", true),
            ("approval: \"policy:finance\"\nmutates: []\n", true),
            ("approval: on-mutate\nmutates: [\"db:x\"]\n", true),
            ("approval: on-mutate\nmutates: []\n", false),
            ("approval: auto\nmutates: [\"db:x\"]\n", false),
            ("mutates: [\"db:x\"]\n", false),
        ];
        for (extra, fires) in cases {
            let tool_md = contract("t", extra);
            let found = run(
                "XC002",
                &[
                    (".tools/t/TOOL.md", &tool_md),
                    ("s/tools.json", &forge("t", "write", "")),
                ],
            );
            assert_eq!(!found.is_empty(), fires, "{extra}");
        }
        // An MCP tool is gated by a required boolean `user_confirmed`.
        let tool_md = contract("t", "approval: always\nmutates: []\n");
        let gated = r#"{"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "boolean"}}, "required": ["user_confirmed"]}}]}"#;
        assert!(run(
            "XC002",
            &[(".tools/t/TOOL.md", &tool_md), ("s/tools.json", gated)]
        )
        .is_empty());
        let ungated = r#"{"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"user_confirmed": {"type": "boolean"}}}}]}"#;
        let found = run(
            "XC002",
            &[(".tools/t/TOOL.md", &tool_md), ("s/tools.json", ungated)],
        );
        assert_eq!(found[0].1, r#""t""#);
        assert_eq!(found[0].2, ["always"]);
    }

    #[test]
    fn idempotency_defaults_to_false_on_the_contract() {
        let tool_md = contract("t", "mutates: []\n");
        let found = run(
            "XC003",
            &[
                (".tools/t/TOOL.md", &tool_md),
                (
                    "s/tools.json",
                    &forge("t", "write", r#""idempotent": true, "#),
                ),
            ],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].2, ["t"], "the label sits on the contract's `id`");
        for flags in [r#""idempotent": false, "#, ""] {
            assert!(run(
                "XC003",
                &[
                    (".tools/t/TOOL.md", &tool_md),
                    ("s/tools.json", &forge("t", "write", flags)),
                ],
            )
            .is_empty());
        }
    }

    #[test]
    fn required_inputs_in_every_dialect() {
        let tool_md = contract("f", "mutates: []\n");
        let openai_without_parameters =
            r#"[{"type": "function", "function": {"name": "f", "description": "d"}}]"#;
        let found = run(
            "XC004",
            &[
                (".tools/f/TOOL.md", &tool_md),
                ("s/tools.json", openai_without_parameters),
            ],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, r#""f""#);
        assert_eq!(found[0].2, ["a"]);
        let script = r#"[{"name": "f", "description": "d", "script": "f.sh", "parameters": {"b": {"type": "string"}}}]"#;
        let found = run(
            "XC004",
            &[(".tools/f/TOOL.md", &tool_md), ("s/tools.json", script)],
        );
        assert_eq!(found[0].1, r#""parameters""#);
        let script_ok = r#"[{"name": "f", "description": "d", "script": "f.sh", "parameters": {"a": {"type": "string"}}}]"#;
        assert!(run(
            "XC004",
            &[(".tools/f/TOOL.md", &tool_md), ("s/tools.json", script_ok)]
        )
        .is_empty());
    }
}
