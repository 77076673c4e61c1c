//! Organisation policies end to end: every way a policy file is refused (each error rendered with
//! its span, snapshotted), policy rules under selection, severity overrides, per-file ignores
//! and inline suppressions, discovery, `rules` / `rule`, `policy test`, and the example pack
//! against docs/policy.schema.json.

use skilllint::policy::{load_text, PolicySet};
use skilllint::render::full::policy_error;
use skilllint::{lint, LintOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

fn skilllint(args: &[&str], cwd: &Path) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .output()
    {
        Ok(output) => output,
        Err(error) => panic!("cannot run skilllint: {error}"),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, content).expect("write file");
}

fn example_pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/policies")
}

/// A valid rule with `replace` applied, for the error cases.
const RULE: &str = r#"rules:
  - code: ORG001
    name: database-writes-need-approval
    severity: error
    category: safety
    summary: Contracts that write to a database need approval
    on: contract
    when: 'has(contract.mutates) && contract.mutates.exists(m, m.startsWith("database:"))'
    assert: 'has(contract.approval) && contract.approval == "always"'
    message: 'contract `{{contract.id}}` needs approval'
    at: contract.approval
"#;

fn refused(name: &str, policy: &str) -> String {
    match load_text(Path::new("org.yaml"), policy) {
        Ok(_) => panic!("{name}: the policy loaded"),
        Err(error) => format!("## {name}\n{}", policy_error(&error, false)),
    }
}

#[test]
fn every_bad_policy_is_refused_with_the_offending_key_or_character() {
    let cases: Vec<(&str, String)> = vec![
        (
            "not YAML",
            RULE.replace("    on: contract\n", "    on: [contract\n"),
        ),
        ("no rules list", "policies: []\n".to_string()),
        (
            "unknown key",
            RULE.replace("    at:", "    where: x\n    at:"),
        ),
        (
            "missing key",
            RULE.replace(
                "    summary: Contracts that write to a database need approval\n",
                "",
            ),
        ),
        ("malformed code", RULE.replace("ORG001", "Org-1")),
        ("built-in prefix", RULE.replace("ORG001", "SEC001")),
        (
            "name not kebab-case",
            RULE.replace("database-writes-need-approval", "DatabaseWrites"),
        ),
        (
            "unknown severity",
            RULE.replace("severity: error", "severity: fatal"),
        ),
        (
            "unknown category",
            RULE.replace("category: safety", "category: security"),
        ),
        (
            "unknown entity kind",
            RULE.replace("on: contract", "on: contracts"),
        ),
        (
            "CEL syntax error",
            RULE.replace(
                "contract.approval == \"always\"",
                "contract.approval === \"always\"",
            ),
        ),
        (
            "unknown variable",
            RULE.replace(
                "has(contract.mutates) &&",
                "has(contract.mutates) && tool.name != \"\" &&",
            ),
        ),
        (
            "clock function",
            RULE.replace(
                "has(contract.approval) &&",
                "now() > 0 && has(contract.approval) &&",
            ),
        ),
        (
            "environment function",
            RULE.replace(
                "has(contract.approval) &&",
                "env(\"HOME\") != \"\" && has(contract.approval) &&",
            ),
        ),
        (
            "unknown field of repo",
            RULE.replace(
                "has(contract.approval) &&",
                "repo.skils > 0 && has(contract.approval) &&",
            ),
        ),
        (
            "unclosed placeholder",
            RULE.replace("`{{contract.id}}`", "`{{contract.id`"),
        ),
        (
            "unknown placeholder variable",
            RULE.replace("{{contract.id}}", "{{tool.name}}"),
        ),
        (
            "at outside the entity",
            RULE.replace("at: contract.approval", "at: driver.kind"),
        ),
        (
            "duplicate code",
            format!(
                "{RULE}{}",
                RULE.trim_start_matches("rules:\n")
                    .replace("database-writes-need-approval", "other-name")
            ),
        ),
        (
            "duplicate name",
            format!(
                "{RULE}{}",
                RULE.trim_start_matches("rules:\n")
                    .replace("ORG001", "ORG002")
            ),
        ),
        (
            "unknown test kind",
            format!("{RULE}    tests:\n      - passes: {{contract: {{id: x}}}}\n"),
        ),
        (
            "unknown test variable",
            format!("{RULE}    tests:\n      - fires: {{tool: {{name: x}}}}\n"),
        ),
    ];
    let rendered: Vec<String> = cases
        .iter()
        .map(|(name, policy)| refused(name, policy))
        .collect();
    insta::with_settings!({
        snapshot_path => "snapshots/policies",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!("refused", rendered.join("\n"));
    });
}

#[test]
fn a_cel_error_points_at_the_character_in_the_file() {
    let policy = RULE.replace(
        "contract.approval == \"always\"",
        "contract.aproval == \"always\" && now() > 1",
    );
    let Err(error) = load_text(Path::new("org.yaml"), &policy) else {
        panic!("loaded");
    };
    let span = error.span.clone().expect("a span");
    assert_eq!(&policy[span], "now");
    let policy = RULE.replace(
        "contract.approval == \"always\"",
        "contract.approval ==) \"always\"",
    );
    let Err(error) = load_text(Path::new("org.yaml"), &policy) else {
        panic!("loaded");
    };
    let span = error.span.clone().expect("a span");
    assert_eq!(&policy[span], ")");
}

/// Found by the `policy_eval` fuzz target: an expression error whose byte range ends inside a
/// multi-byte character of the expression made the loader slice the text off a character
/// boundary and panic.
#[test]
fn an_expression_error_inside_a_multibyte_character_is_an_error_not_a_panic() {
    // The fuzzer's input, as its policy: the assert holds a quote, a control character and `ɋ`.
    let policy = "rules:\n  - code: FUZ001\n    name: fuzzed\n    severity: warning\n    \
                  category: style\n    summary: s\n    on: tool-use-rule\n    \
                  assert: 'ists(olt, ta\u{24b}CCCCCCCCCCCCCCCCCCCCCCCCd''\u{2}tool_u.s'\n    \
                  message: 'm'\n";
    let Err(error) = load_text(Path::new("fuzz.yaml"), policy) else {
        panic!("loaded");
    };
    let span = error.span.clone().expect("a span");
    assert!(policy.get(span).is_some(), "the span cuts a character");
}

#[test]
fn a_bad_policy_file_stops_the_lint_with_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        ".skilllint/policies/org.yaml",
        &RULE.replace("on: contract", "on: tools"),
    );
    write(
        dir.path(),
        "a/SKILL.md",
        "---\nname: a\ndescription: Does a. Use when asked.\n---\n\nBody.\n",
    );
    let output = skilllint(&["--color", "never", "."], dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("unknown entity kind `tools`"), "{stderr}");
    assert!(
        stderr.contains(".skilllint/policies/org.yaml:7:9"),
        "{stderr}"
    );
    // `rules` reads the same policies and stops the same way.
    let rules = skilllint(&["rules"], dir.path());
    assert_eq!(rules.status.code(), Some(2));
}

const SKILL: &str = "---\nname: notes\ndescription: Keeps meeting notes. Use when the user asks to note something.\n---\n\n# Notes\n";

const LICENSE_RULE: &str = r#"rules:
  - code: ACME010
    name: skills-declare-license
    severity: warning
    category: style
    summary: Every skill declares a license
    on: skill
    assert: 'has(skill.license)'
    message: 'skill `{{skill.name}}` declares no license'
    at: skill.name
"#;

fn policies(text: &str) -> Arc<PolicySet> {
    Arc::new(load_text(Path::new("acme.yaml"), text).expect("the policy loads"))
}

fn run(files: &[(&str, &str)], configure: impl FnOnce(&mut LintOptions)) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, content) in files {
        write(dir.path(), path, content);
    }
    let mut options = LintOptions {
        paths: vec![dir.path().to_path_buf()],
        threads: Some(2),
        policies: Some(policies(LICENSE_RULE)),
        ..LintOptions::default()
    };
    configure(&mut options);
    let outcome = lint(&options).expect("lints");
    outcome
        .diagnostics
        .iter()
        .filter(|d| !d.code.starts_with("SK"))
        .map(|d| {
            let file = &outcome.repo.files[d.primary.file.0 as usize];
            let at = &file.text[d.primary.span.start..d.primary.span.end];
            format!(
                "{} {} {} at `{at}`: {}",
                d.code, d.severity, file.rel_path, d.message
            )
        })
        .collect()
}

#[test]
fn a_policy_rule_reports_at_its_key_and_is_selected_like_a_builtin() {
    let files = [("notes/SKILL.md", SKILL)];
    let found = run(&files, |_| {});
    assert_eq!(
        found,
        ["ACME010 warning notes/SKILL.md at `name`: skill `notes` declares no license"]
    );
    // By code, prefix, name and category; ignored the same ways.
    for selector in ["ACME010", "acme", "skills-declare-license", "style"] {
        let selected = run(&files, |o| o.select = vec![selector.to_string()]);
        assert_eq!(selected.len(), 1, "--select {selector}: {selected:?}");
        let ignored = run(&files, |o| o.ignore = vec![selector.to_string()]);
        assert!(ignored.is_empty(), "--ignore {selector}: {ignored:?}");
    }
    assert!(run(&files, |o| o.select = vec!["correctness".to_string()]).is_empty());
}

#[test]
fn severity_overrides_and_per_file_ignores_apply_to_policy_rules() {
    let files = [
        ("notes/SKILL.md", SKILL),
        ("other/SKILL.md", &SKILL.replace("notes", "other")),
    ];
    let raised = run(&files, |o| {
        o.severity
            .insert("ACME010", skilllint::diagnostic::Severity::Error);
    });
    assert_eq!(raised.len(), 2);
    assert!(
        raised.iter().all(|f| f.starts_with("ACME010 error")),
        "{raised:?}"
    );
    let ignored = run(&files, |o| {
        o.per_file_ignores = vec![(
            "notes/**".to_string(),
            vec!["skills-declare-license".to_string()],
        )];
    });
    assert_eq!(ignored.len(), 1);
    assert!(ignored[0].contains("other/SKILL.md"), "{ignored:?}");
}

#[test]
fn inline_suppressions_name_policy_rules_by_code_or_name() {
    let suppressed = SKILL.replace(
        "# Notes\n",
        "# Notes\n<!-- skilllint-disable-file ACME010 -- published internally only -->\n",
    );
    assert!(run(&[("notes/SKILL.md", &suppressed)], |_| {}).is_empty());
    let by_name = SKILL.replace(
        "---\nname",
        "---\n# skilllint: ignore[skills-declare-license] internal only\nname",
    );
    let found = run(&[("notes/SKILL.md", &by_name)], |_| {});
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn the_example_pack_finds_what_it_is_written_for_across_files() {
    let contract = "---\nid: create-event\nname: Create event\ndescription: Creates one event. Use it only after the user confirmed it.\nversion: 1.0.0\nmutates: [\"database:events\"]\napproval: on-mutate\n---\n\n# Create event\n";
    let tools = r#"[{"name": "create_event", "type": "write", "description": "Create a calendar event once the user confirmed it.", "requiresConfirmation": false, "idempotent": true, "inputSchema": {"type": "object", "properties": {"title": {"type": "string", "description": "Title."}}, "required": ["title"], "additionalProperties": false}}]"#;
    let skill = "---\nname: calendar\ndescription: Manages the calendar. Use when the user asks about events.\nlicense: MIT\n---\n\n# Calendar\n\n## Tool Use Rules\n\n- Always confirm with the user first.\n- `create_event` needs the user's confirmation.\n";
    let pack = Arc::new(
        skilllint::policy::load(Path::new("."), &[example_pack()]).expect("the pack loads"),
    );
    let found = run(
        &[
            (".tools/create-event/TOOL.md", contract),
            ("calendar/tools.json", tools),
            ("calendar/SKILL.md", skill),
        ],
        |o| {
            o.policies = Some(pack);
            o.select = vec!["ORG".to_string()];
        },
    );
    assert_eq!(
        found,
        [
            ".tools/create-event/TOOL.md",
            "calendar/SKILL.md",
            "calendar/tools.json"
        ]
        .iter()
        .flat_map(|file| match *file {
            ".tools/create-event/TOOL.md" => vec![format!("ORG001 error {file} at `approval`: contract `create-event` writes to database:events but approval is not `always`")],
            "calendar/SKILL.md" => vec![format!("ORG005 warning {file} at `Always confirm with the user first.`: this Tool Use Rules item asks for confirmation but names none of the skill's tools")],
            _ => vec![format!("ORG006 error {file} at `\"requiresConfirmation\"`: tool `create_event` is bound to `create-event`, which mutates database:events, but does not require confirmation")],
        })
        .collect::<Vec<_>>()
    );
}

#[test]
fn a_failing_expression_is_reported_once_per_rule_and_the_run_goes_on() {
    let unguarded = LICENSE_RULE.replace("'has(skill.license)'", "'skill.license != \"\"'");
    let files = [
        ("a/SKILL.md", SKILL.replace("notes", "a")),
        ("b/SKILL.md", SKILL.replace("notes", "b")),
        (
            "c/SKILL.md",
            SKILL
                .replace("notes", "c")
                .replace("---\n\n", "license: \"\"\n---\n\n"),
        ),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let found = run(&files, |o| o.policies = Some(policies(&unguarded)));
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("SL010 error a/SKILL.md"), "{found:?}");
    assert!(
        found[0].contains("ACME010 [skills-declare-license]") && found[0].contains("skill `a`")
    );
    assert!(
        found[1].starts_with("ACME010 warning c/SKILL.md"),
        "{found:?}"
    );
}

#[test]
fn rules_and_rule_list_and_explain_policy_rules() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), ".skilllint/policies/acme.yaml", LICENSE_RULE);
    let table = skilllint(&["rules"], dir.path());
    assert_eq!(table.status.code(), Some(0), "{}", text(&table.stderr));
    assert!(text(&table.stdout).contains("ACME010 skills-declare-license"));
    let json = skilllint(&["rules", "--format", "json"], dir.path());
    let rules: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert!(rules
        .as_array()
        .expect("a list")
        .iter()
        .any(|r| r["code"] == "ACME010" && r["family"] == "ACME"));
    let explained = skilllint(&["rule", "skills-declare-license"], dir.path());
    assert!(
        text(&explained.stdout).starts_with("# ACME010 skills-declare-license"),
        "{}",
        text(&explained.stdout)
    );
    // Elsewhere the rule is unknown, unless named with --policies.
    let elsewhere = tempfile::tempdir().expect("temp dir");
    assert_eq!(
        skilllint(&["rule", "ACME010"], elsewhere.path())
            .status
            .code(),
        Some(2)
    );
    let policy = dir.path().join(".skilllint/policies/acme.yaml");
    let named = skilllint(
        &["rule", "ACME010", "--policies", &policy.to_string_lossy()],
        elsewhere.path(),
    );
    assert_eq!(named.status.code(), Some(0), "{}", text(&named.stderr));
}

#[test]
fn a_config_names_policy_paths_and_overrides_their_severity() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "org/acme.yaml", LICENSE_RULE);
    write(
        dir.path(),
        "skilllint.toml",
        "[policies]\npaths = [\"org\"]\n\n[lint.severity]\nACME010 = \"error\"\n",
    );
    write(dir.path(), "notes/SKILL.md", SKILL);
    let output = skilllint(&["--format", "concise", "."], dir.path());
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("notes/SKILL.md:2:1: error ACME010 [skills-declare-license]"),
        "{stdout}{}",
        text(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn policy_test_prints_one_line_per_case_and_fails_on_a_failing_case() {
    let pack = skilllint(
        &["policy", "test", &example_pack().to_string_lossy()],
        Path::new("."),
    );
    assert_eq!(
        pack.status.code(),
        Some(0),
        "{}{}",
        text(&pack.stdout),
        text(&pack.stderr)
    );
    let lines = text(&pack.stdout);
    assert!(lines.lines().all(|l| l.starts_with("PASS ")), "{lines}");
    assert!(lines.contains("PASS ORG001 fires #1\n"), "{lines}");
    assert!(lines.lines().count() >= 12, "{lines}");

    let dir = tempfile::tempdir().expect("temp dir");
    let wrong = format!(
        "{LICENSE_RULE}    tests:\n      - fires: {{skill: {{name: a}}}}\n      - clean: {{skill: {{name: a}}}}\n      - fires: {{skill: {{name: a, license: MIT}}}}\n"
    );
    write(dir.path(), "acme.yaml", &wrong);
    write(
        dir.path(),
        "untested.yaml",
        &LICENSE_RULE
            .replace("ACME010", "ACME011")
            .replace("skills-declare-license", "other"),
    );
    let output = skilllint(&["policy", "test", "."], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "PASS ACME010 fires #1\nFAIL ACME010 clean #1: the rule fired: skill `a` declares no license\nFAIL ACME010 fires #2: the rule did not fire\n"
    );
    assert!(
        text(&output.stderr).contains("policy rule ACME011 has no tests"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn the_example_pack_matches_the_policy_schema() {
    let schema_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/policy.schema.json"),
    )
    .expect("the schema");
    let schema: serde_json::Value = serde_json::from_str(&schema_text).expect("JSON");
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("the schema compiles");
    let mut checked = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(example_pack())
        .expect("the pack")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files {
        let yaml = std::fs::read_to_string(&path).expect("readable");
        let document = skilllint::parse::yaml::parse_yaml(&yaml, 0).expect("YAML");
        let instance = document.root.expect("a document").to_json();
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        checked += instance["rules"].as_array().map_or(0, Vec::len);
    }
    assert!(checked >= 6, "only {checked} rules in the pack");
    // The schema refuses what the loader refuses.
    for bad in [
        RULE.replace("ORG001", "SKX001"),
        RULE.replace("on: contract", "on: contracts"),
        RULE.replace("    at:", "    where: x\n    at:"),
    ] {
        let document = skilllint::parse::yaml::parse_yaml(&bad, 0).expect("YAML");
        let instance = document.root.expect("a document").to_json();
        assert!(!validator.is_valid(&instance), "{bad}");
        assert!(load_text(Path::new("x.yaml"), &bad).is_err(), "{bad}");
    }
}

#[test]
fn policy_findings_are_the_same_whatever_the_thread_count() {
    let pack = Arc::new(
        skilllint::policy::load(Path::new("."), &[example_pack()]).expect("the pack loads"),
    );
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let render = |threads| {
        let options = LintOptions {
            paths: vec![fixtures.clone()],
            threads: Some(threads),
            select: vec!["ALL".to_string()],
            policies: Some(Arc::clone(&pack)),
            ..LintOptions::default()
        };
        let outcome = lint(&options).expect("lints");
        let input = skilllint::render::Input {
            sources: outcome.repo.sources(),
            diagnostics: &outcome.diagnostics,
            suppressed: &outcome.suppressed,
            root: &outcome.root,
            catalog: options.catalog(),
        };
        skilllint::render::render(skilllint::render::Format::Json, &input, false)
    };
    let one = render(1);
    assert!(
        one.contains("\"ORG00"),
        "the pack finds something in the fixtures"
    );
    assert_eq!(one, render(2));
}

/// Every example expression in the tables of docs/policies.md compiles for its entity kind.
#[test]
fn every_example_in_the_policy_docs_compiles() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/policies.md"))
            .expect("docs/policies.md");
    let mut kind = None;
    let mut checked = 0;
    for line in docs.lines() {
        if let Some(rest) = line.strip_prefix("### `") {
            kind = rest.split('`').next().map(|k| match k {
                "tool_use_rule" => "tool-use-rule",
                // `repo` is in every rule's scope; its examples are checked on `tool`.
                "repo" => "tool",
                other => other,
            });
            continue;
        }
        let (Some(on), true) = (kind, line.starts_with('|')) else {
            continue;
        };
        let unescaped = line.replace("\\|", "¦");
        for cell in unescaped.split('|') {
            for (index, span) in cell.split('`').enumerate() {
                let expression = span.replace('¦', "|");
                let is_expression = index % 2 == 1
                    && expression.contains('.')
                    && expression.contains(['(', '=', '<', '>', '!', ' ']);
                if !is_expression {
                    continue;
                }
                let policy = format!(
                    "rules:\n  - code: DOC001\n    name: doc-example\n    severity: info\n    category: style\n    summary: x\n    on: {on}\n    assert: '{}'\n    message: x\n",
                    expression.replace('\'', "''")
                );
                if let Err(error) = load_text(Path::new("docs.yaml"), &policy) {
                    panic!("`{expression}` (on: {on}): {}", error.message);
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 25, "only {checked} examples found");
}

/// A tool's effect, capabilities and evidence from the effect model, as policies read them.
#[test]
fn a_policy_reads_the_tool_effect_and_capabilities() {
    let rule = r#"
rules:
  - code: ACME020
    name: destructive-tools-need-owner
    severity: warning
    category: safety
    summary: Destructive or exec tools need an owner
    on: tool
    when: '(tool.effect == "destructive" || "exec" in tool.capabilities) && tool.effect_evidence.exists(e, e.basis == "inferred")'
    assert: 'has(tool._meta) && has(tool._meta.owner)'
    message: 'tool `{{tool.name}}` is {{tool.effect}} and has no owner'
    at: tool.effect
"#;
    let tools = r#"[
  {"name": "list_branches", "description": "List branches.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
  {"name": "branch.delete", "description": "Delete a branch.", "inputSchema": {"type": "object"}},
  {"name": "runShell", "description": "Run a command.", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}, "annotations": {"readOnlyHint": false}},
  {"name": "undelete_branch", "description": "Restore a branch.", "inputSchema": {"type": "object"}}
]"#;
    let files = [("svc/tools.json", tools)];
    let found = run(&files, |o| {
        o.policies = Some(policies(rule));
        o.select = vec!["ACME020".to_string()];
    });
    assert_eq!(
        found,
        [
            "ACME020 warning svc/tools.json at `\"branch.delete\"`: tool `branch.delete` is destructive and has no owner",
            "ACME020 warning svc/tools.json at `false`: tool `runShell` is write and has no owner",
        ]
    );
}
