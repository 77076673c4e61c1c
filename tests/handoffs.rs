//! A rule that leaves a finding to another rule does so only while that rule reports in the
//! finding's file: whichever way the other rule is turned off (`--select`, `--ignore`, `ignore` in
//! the configuration, `per-file-ignores`), the finding is reported by the first rule, and with both
//! on it is reported once, by the other.

use std::path::Path;
use std::process::{Command, Output};

fn skilllint(args: &[&str], cwd: &Path) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_skilllint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output();
    match output {
        Ok(output) => output,
        Err(error) => panic!("cannot run skilllint: {error}"),
    }
}

fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, content).expect("write file");
}

/// The concise report's lines, without the summary.
fn findings(output: &Output) -> Vec<String> {
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "skilllint failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

const TOOLS: &str = r#"[
  {
    "name": "list_events",
    "type": "read",
    "description": "List the events in the user's calendar between two dates.",
    "requiresConfirmation": false,
    "idempotent": false,
    "inputSchema": {
      "type": "object",
      "properties": { "from": { "type": "string", "format": "date", "description": "First day." } },
      "required": ["from"],
      "additionalProperties": false
    }
  },
  {
    "name": "create_event",
    "type": "write",
    "description": "Add one event to the user's calendar once the user has confirmed it.",
    "requiresConfirmation": true,
    "idempotent": false,
    "inputSchema": {
      "type": "object",
      "properties": {
        "title": { "type": "string", "maxLength": 200, "description": "Title shown in the calendar." },
        "user_confirmed": { "type": "boolean", "description": "True only after the user confirmed." }
      },
      "required": ["title", "user_confirmed"],
      "additionalProperties": false
    }
  }
]
"#;

/// A Tool Use Rules section that never mentions the gated `create_event`.
const SKILL: &str = "---\nname: calendar\ndescription: Looks up and books events in the user's \
calendar. Use it when the user asks what is scheduled.\n---\n\n# Calendar\n\n## Tool Use Rules\n\n\
- Only the tools listed below may be used. Never invent or call other tools.\n\
- `list_events` is read-only and may be called without confirmation.\n\
- Never execute a write operation without explicit confirmation in the current conversation.\n";

/// The finding both rules could make: on `create_event` in tools.json (line 16, column 13).
const TR003_LINE: &str = "calendar/tools.json:16:13: error TR003 [tool-undocumented] tool \
`create_event` is not mentioned in the \"Tool Use Rules\" section";
const TR005_LINE: &str = "calendar/tools.json:16:13: error TR005 [confirmation-rule-missing] \
confirmation-gated tool `create_event` has no confirmation rule in SKILL.md";

fn calendar(config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "calendar/SKILL.md", SKILL);
    write(dir.path(), "calendar/tools.json", TOOLS);
    if let Some(config) = config {
        write(dir.path(), "skilllint.toml", config);
    }
    dir
}

fn lint(dir: &tempfile::TempDir, args: &[&str]) -> Vec<String> {
    let mut all = vec![".", "--format", "concise"];
    all.extend_from_slice(args);
    findings(&skilllint(&all, dir.path()))
}

#[test]
fn tr005_reports_an_unmentioned_gated_tool_when_only_it_is_selected() {
    let dir = calendar(None);
    assert_eq!(lint(&dir, &["--select", "TR005"]), [TR005_LINE]);
}

#[test]
fn tr005_reports_an_unmentioned_gated_tool_when_tr003_is_ignored() {
    let dir = calendar(None);
    assert_eq!(
        lint(&dir, &["--select", "TR", "--ignore", "TR003"]),
        [TR005_LINE]
    );
    // The default selection, less TR003.
    let default = lint(&dir, &["--ignore", "TR003"]);
    assert!(default.contains(&TR005_LINE.to_string()), "{default:?}");
}

#[test]
fn tr005_reports_an_unmentioned_gated_tool_when_the_configuration_ignores_tr003() {
    let dir = calendar(Some("[lint]\nselect = [\"TR\"]\nignore = [\"TR003\"]\n"));
    assert_eq!(lint(&dir, &[]), [TR005_LINE]);
    // By name, as the configuration may write it.
    let dir = calendar(Some(
        "[lint]\nselect = [\"TR\"]\nignore = [\"tool-undocumented\"]\n",
    ));
    assert_eq!(lint(&dir, &[]), [TR005_LINE]);
}

#[test]
fn tr005_reports_an_unmentioned_gated_tool_where_per_file_ignores_silence_tr003() {
    let dir = calendar(Some(
        "[lint]\nselect = [\"TR\"]\n[lint.per-file-ignores]\n\"**/tools.json\" = [\"TR003\"]\n",
    ));
    assert_eq!(lint(&dir, &[]), [TR005_LINE]);
    // Silencing TR003 in some other file leaves the finding to TR003 here.
    let dir = calendar(Some(
        "[lint]\nselect = [\"TR\"]\n[lint.per-file-ignores]\n\"other/**\" = [\"TR003\"]\n",
    ));
    assert_eq!(lint(&dir, &[]), [TR003_LINE]);
}

#[test]
fn with_both_rules_on_the_finding_is_reported_once_by_tr003() {
    let dir = calendar(None);
    assert_eq!(lint(&dir, &["--select", "TR003,TR005"]), [TR003_LINE]);
    assert_eq!(lint(&dir, &["--select", "TR"]), [TR003_LINE]);
    let default = lint(&dir, &[]);
    assert_eq!(
        default
            .iter()
            .filter(|l| l.contains("`create_event`"))
            .count(),
        1,
        "{default:?}"
    );
    assert!(default.contains(&TR003_LINE.to_string()), "{default:?}");
}

#[test]
fn a_missing_section_is_reported_by_the_content_rules_when_tr001_is_off() {
    let dir = tempfile::tempdir().expect("temp dir");
    let skill = SKILL.split("## Tool Use Rules").next().unwrap_or_default();
    write(dir.path(), "calendar/SKILL.md", skill);
    write(dir.path(), "calendar/tools.json", TOOLS);
    let on = lint(&dir, &["--select", "TR"]);
    assert_eq!(on.len(), 1, "{on:?}");
    assert!(on[0].contains("TR001"), "{on:?}");
    let codes = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
            .collect()
    };
    let off = lint(&dir, &["--select", "TR", "--ignore", "TR001"]);
    assert_eq!(codes(&off), ["TR002", "TR007", "TR003", "TR003"], "{off:?}");
    let alone = lint(&dir, &["--select", "TR005"]);
    assert_eq!(codes(&alone), ["TR005"], "{alone:?}");
}

#[test]
fn se001_reports_a_value_key_when_se002_is_off() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "SECRETS.md",
        "---\nsecrets:\n  - slug: calendar-token\n    name: Calendar token\n    description: \
         OAuth token for the calendar API.\n    value: not-a-real-one\n---\n",
    );
    let both = lint(&dir, &["--select", "SE001,SE002"]);
    assert_eq!(both.len(), 1, "{both:?}");
    assert!(both[0].contains("SE002"), "{both:?}");
    let alone = lint(&dir, &["--select", "SE001"]);
    assert_eq!(
        alone,
        ["SECRETS.md:6:5: error SE001 [secrets-schema-violation] unknown key `value` in `secrets[0]`"]
    );
}

#[test]
fn dr006_checks_the_idempotency_key_when_dr007_is_off() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        ".tools/image-create/TOOL.md",
        "---\nid: image-create\nversion: 1.0.0\ndescription: Create an image from a prompt. Use \
         when the user asks for a picture.\nidempotent: true\ninputs:\n  type: object\n  \
         properties:\n    prompt:\n      type: string\n    idempotency_key:\n      type: string\n  \
         required: [prompt, idempotency_key]\n---\n\n# image-create\n",
    );
    write(
        dir.path(),
        ".drivers/fast-image/DRIVER.md",
        "---\nid: fast-image\nkind: http\nversion: 1.0.0\nimplements:\n  - tool: image-create\n    \
         version: \"^1.0.0\"\n    schema_narrowing:\n      drop_inputs: [idempotency_key]\n---\n\n\
         # fast-image\n",
    );
    let both = lint(&dir, &["--select", "DR006,DR007"]);
    let codes: Vec<&str> = both
        .iter()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    assert_eq!(codes, ["DR007"], "{both:?}");
    let alone = lint(&dir, &["--select", "DR006"]);
    assert_eq!(alone.len(), 1, "{alone:?}");
    assert!(
        alone[0].contains("DR006") && alone[0].contains("drops `idempotency_key`"),
        "{alone:?}"
    );
}
