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

// ---------------------------------------------------------------------------------------------
// The schema (SC), tool contract (TM) and tools.json (TJ) rules
// ---------------------------------------------------------------------------------------------

/// An MCP server's tool list: a name with a space, a schema written as the string "object", and a
/// misspelt root `type`.
const MCP_TOOLS: &str = r#"{
  "tools": [
    {
      "name": "search notes",
      "description": "Search the user's notes for a phrase.",
      "inputSchema": "object"
    },
    {
      "name": "read_note",
      "description": "Read one note by its id.",
      "inputSchema": {
        "type": "objekt",
        "properties": { "id": { "type": "string", "description": "Note id." } },
        "required": ["id"],
        "additionalProperties": false
      }
    }
  ]
}
"#;

/// Forge tools breaking the forge contract: no name, no description, schemas that are no objects,
/// and a read tool behind a confirmation gate.
const FORGE_TOOLS: &str = r#"[
  {
    "type": "read",
    "description": "List the user's notes.",
    "inputSchema": "object"
  },
  {
    "name": "peek_note",
    "type": "read",
    "requiresConfirmation": true,
    "inputSchema": true
  }
]
"#;

/// An OpenAI function in strict mode with an open object and a `required` that is no list.
const STRICT_TOOLS: &str = r#"[
  {
    "type": "function",
    "function": {
      "name": "get_weather",
      "description": "Current weather for one city.",
      "strict": true,
      "parameters": {
        "type": "object",
        "properties": { "city": { "type": ["string", "null"], "description": "City name." } },
        "required": "city"
      }
    }
  }
]
"#;

/// A TOOL.md with a driver field, a misspelt root `type` of `inputs` and an `outputs.required`
/// that is no list.
const TAIL_TOOL: &str = "---
name: Tail notes
id: notes-tail
description: Return the last lines of one notes file. Do not use to search all notes.
version: 1.0.0
mutates: []
runner: node
inputs:
  type: obj
  properties:
    lines:
      type: integer
      minimum: 1
      maximum: 100
      description: How many lines to return.
  additionalProperties: false
outputs:
  type: object
  properties:
    lines:
      type: array
      items: { type: string }
  required: lines
---

# notes-tail
";

/// A TOOL.md whose `inputs` is a word, not a schema.
const HEAD_TOOL: &str = "---
name: Head notes
id: notes-head
description: Return the first lines of one notes file. Do not use to search all notes.
version: 1.0.0
mutates: []
inputs: lines
outputs:
  type: object
---

# notes-head
";

fn contracts(config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "notes-mcp/tools.json", MCP_TOOLS);
    write(dir.path(), "notes-forge/tools.json", FORGE_TOOLS);
    write(dir.path(), "weather/tools.json", STRICT_TOOLS);
    write(dir.path(), ".tools/notes-tail/TOOL.md", TAIL_TOOL);
    write(dir.path(), ".tools/notes-head/TOOL.md", HEAD_TOOL);
    if let Some(config) = config {
        write(dir.path(), "skilllint.toml", config);
    }
    dir
}

/// `path:line:column` of a concise line.
fn location(line: &str) -> &str {
    let mut ends = line.match_indices(": ");
    ends.next().map_or(line, |(end, _)| &line[..end])
}

fn code(line: &str) -> Option<&str> {
    line.split_whitespace().nth(2)
}

/// A finding `first` leaves to `owner`.
struct Handoff {
    first: &'static str,
    owner: &'static str,
    /// What `first` reports when `owner` does not run.
    line: &'static str,
    /// Where `owner` reports it.
    owner_at: &'static str,
}

impl Handoff {
    fn check(&self) {
        let Handoff {
            first,
            owner,
            line,
            owner_at,
        } = self;
        let path = location(line).split(':').next().unwrap_or_default();
        let dir = contracts(None);
        let has = |lines: &[String]| lines.iter().any(|l| l == line);
        // Only the first rule selected.
        let alone = lint(&dir, &["--select", first]);
        assert!(has(&alone), "--select {first}: {alone:?}");
        // Everything, less the owner.
        let all = lint(&dir, &["--select", "ALL", "--ignore", owner]);
        assert!(has(&all), "--select ALL --ignore {owner}: {all:?}");
        // The owner silenced in the finding's file by per-file-ignores.
        let config = format!(
            "[lint]\nselect = [\"{first}\", \"{owner}\"]\n[lint.per-file-ignores]\n\"{path}\" = [\"{owner}\"]\n"
        );
        let silenced = lint(&contracts(Some(&config)), &[]);
        assert!(has(&silenced), "{config}: {silenced:?}");
        // Both on: the owner reports it, once, and the first rule does not.
        let both = lint(&dir, &["--select", &format!("{first},{owner}")]);
        assert!(!has(&both), "--select {first},{owner}: {both:?}");
        let owners = both
            .iter()
            .filter(|l| location(l) == *owner_at && code(l) == Some(owner))
            .count();
        assert_eq!(owners, 1, "--select {first},{owner}: {both:?}");
        let firsts = both
            .iter()
            .filter(|l| location(l) == location(line) && code(l) == Some(first))
            .count();
        assert_eq!(firsts, 0, "--select {first},{owner}: {both:?}");
    }
}

#[test]
fn sc002_reports_a_value_that_is_no_schema_when_sc001_is_off() {
    Handoff {
        first: "SC002",
        owner: "SC001",
        line: "notes-mcp/tools.json:6:22: error SC002 [input-schema-not-object] input schema of \
               tool `search notes` is a string, not an object schema",
        owner_at: "notes-mcp/tools.json:6:22",
    }
    .check();
}

#[test]
fn sc001_reports_a_misspelt_root_type_when_sc002_is_off() {
    Handoff {
        first: "SC001",
        owner: "SC002",
        line: "notes-mcp/tools.json:12:9: error SC001 [input-schema-invalid] input schema of tool \
               `read_note` is not a valid JSON Schema at `/type`",
        owner_at: "notes-mcp/tools.json:12:17",
    }
    .check();
}

#[test]
fn tm009_reports_a_misspelt_root_type_of_inputs_when_sc002_is_off() {
    Handoff {
        first: "TM009",
        owner: "SC002",
        line:
            ".tools/notes-tail/TOOL.md:9:3: error TM009 [io-schema-invalid] invalid JSON Schema: \
               `inputs.type` must name a JSON type (`string`, `number`, `integer`, `boolean`, \
               `object`, `array` or `null`) or list several, found `obj`",
        owner_at: ".tools/notes-tail/TOOL.md:9:9",
    }
    .check();
}

#[test]
fn sc001_meta_validates_a_forge_schema_that_is_no_object_when_tj002_is_off() {
    Handoff {
        first: "SC001",
        owner: "TJ002",
        line:
            "notes-forge/tools.json:5:20: error SC001 [input-schema-invalid] input schema of tool \
               `<unnamed>` is not a valid JSON Schema",
        owner_at: "notes-forge/tools.json:5:20",
    }
    .check();
}

#[test]
fn sc002_reports_a_boolean_forge_schema_when_tj002_is_off() {
    Handoff {
        first: "SC002",
        owner: "TJ002",
        line:
            "notes-forge/tools.json:11:20: error SC002 [input-schema-not-object] input schema of \
               tool `peek_note` is the boolean schema `true`, not an object schema",
        owner_at: "notes-forge/tools.json:11:20",
    }
    .check();
}

#[test]
fn sc018_checks_a_strict_openai_tool_when_sc014_is_off() {
    // `get_weather` reads: its open objects are SC018's (SC003's check for read-only tools).
    Handoff {
        first: "SC018",
        owner: "SC014",
        line: "weather/tools.json:9:9: info SC018 [read-tool-open-input-object] input schema of \
               tool `get_weather` accepts undeclared properties",
        owner_at: "weather/tools.json:9:9",
    }
    .check();
}

#[test]
fn sc007_reports_a_forge_tool_without_a_name_when_tj002_is_off() {
    Handoff {
        first: "SC007",
        owner: "TJ002",
        line: "notes-forge/tools.json:2:3: error SC007 [tool-name-invalid] forge tool at `/0` has \
               no `name`",
        owner_at: "notes-forge/tools.json:2:3",
    }
    .check();
}

#[test]
fn sc008_reports_a_name_mcp_rejects_when_sc007_is_off() {
    Handoff {
        first: "SC008",
        owner: "SC007",
        line:
            "notes-mcp/tools.json:4:15: warning SC008 [tool-name-not-portable] tool name `search \
               notes` contains a space, which OpenAI and Anthropic reject",
        owner_at: "notes-mcp/tools.json:4:15",
    }
    .check();
}

#[test]
fn sc015_reports_a_forge_tool_without_a_description_when_tj002_is_off() {
    Handoff {
        first: "SC015",
        owner: "TJ002",
        line: "notes-forge/tools.json:8:13: warning SC015 [tool-description-missing] tool \
               `peek_note` has no description",
        owner_at: "notes-forge/tools.json:8:13",
    }
    .check();
}

#[test]
fn sc014_reads_a_required_that_is_no_list_as_requiring_nothing_when_sc001_is_off() {
    Handoff {
        first: "SC014",
        owner: "SC001",
        line:
            "weather/tools.json:11:9: error SC014 [openai-strict-violation] input schema of tool \
               `get_weather` does not require `city`; strict mode requires every property",
        owner_at: "weather/tools.json:11:9",
    }
    .check();
}

#[test]
fn tj004_checks_the_gate_of_a_read_tool_when_tj006_is_off() {
    Handoff {
        first: "TJ004",
        owner: "TJ006",
        line: "notes-forge/tools.json:10:29: error TJ004 [confirmation-field-missing] \
               confirmation-gated tool `peek_note` has no `user_confirmed` parameter",
        owner_at: "notes-forge/tools.json:10:29",
    }
    .check();
}

#[test]
fn tm002_reports_a_driver_field_when_tm003_is_off() {
    Handoff {
        first: "TM002",
        owner: "TM003",
        line:
            ".tools/notes-tail/TOOL.md:7:1: error TM002 [tool-contract-schema-violation] unknown \
               key `runner` in the TOOL.md frontmatter",
        owner_at: ".tools/notes-tail/TOOL.md:7:1",
    }
    .check();
}

#[test]
fn tm016_reads_a_required_that_is_no_list_as_requiring_nothing_when_tm009_is_off() {
    Handoff {
        first: "TM016",
        owner: "TM009",
        line: ".tools/notes-tail/TOOL.md:19:3: warning TM016 [outputs-not-strict] `outputs` \
               declares properties but requires none of them",
        owner_at: ".tools/notes-tail/TOOL.md:23:3",
    }
    .check();
}

#[test]
fn tm009_reports_inputs_that_are_no_schema_when_tm002_is_off() {
    Handoff {
        first: "TM009",
        owner: "TM002",
        line:
            ".tools/notes-head/TOOL.md:7:9: error TM009 [io-schema-invalid] invalid JSON Schema: \
               `inputs` must be a boolean or an object, found string",
        owner_at: ".tools/notes-head/TOOL.md:7:1",
    }
    .check();
}

/// `inputs: lines` could be reported by TM002 (not an object), TM009 (not a schema) and SC002
/// (not an object schema): by the first of them that runs, once.
#[test]
fn inputs_that_are_no_schema_are_reported_by_one_rule() {
    let dir = contracts(None);
    let at = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with(".tools/notes-head/TOOL.md:7:"))
            .filter_map(|l| code(l).map(str::to_string))
            .collect()
    };
    assert_eq!(at(&lint(&dir, &["--select", "SC002"])), ["SC002"]);
    assert_eq!(at(&lint(&dir, &["--select", "SC002,TM009"])), ["TM009"]);
    assert_eq!(at(&lint(&dir, &["--select", "SC002,TM002"])), ["TM002"]);
    assert_eq!(
        at(&lint(&dir, &["--select", "SC002,TM002,TM009"])),
        ["TM002"]
    );
    assert_eq!(at(&lint(&dir, &[])), ["TM002"]);
    let sc002 = lint(&dir, &["--select", "SC002"]);
    assert!(
        sc002.contains(
            &".tools/notes-head/TOOL.md:7:9: error SC002 [input-schema-not-object] `inputs` of \
              contract `notes-head` is a string, not an object schema"
                .to_string()
        ),
        "{sc002:?}"
    );
}

/// `inputs: true` is a valid schema but no object: TM002's, and SC002's only while TM002 is off.
#[test]
fn boolean_inputs_are_reported_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        ".tools/notes-head/TOOL.md",
        &HEAD_TOOL.replace("inputs: lines", "inputs: true"),
    );
    let codes = |lines: Vec<String>| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with(".tools/notes-head/TOOL.md:7:"))
            .filter_map(|l| code(l).map(str::to_string))
            .collect()
    };
    assert_eq!(
        codes(lint(&dir, &["--select", "SC002,TM002,TM009"])),
        ["TM002"]
    );
    assert_eq!(
        lint(&dir, &["--select", "SC002"]),
        [
            ".tools/notes-head/TOOL.md:7:9: error SC002 [input-schema-not-object] `inputs` of \
          contract `notes-head` is the boolean schema `true`, not an object schema"
        ]
    );
    assert!(lint(&dir, &["--select", "TM009"]).is_empty());
}

/// Not handoffs: an absent or empty skill name is SK003's finding alone (there is no name for
/// SK004 to judge), and a read tool needs no idempotency key whether or not TJ006 runs.
#[test]
fn sk004_and_tj005_report_nothing_that_is_not_theirs() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "unnamed/SKILL.md",
        "---\ndescription: Reads the user's notes. Use it when the user asks what they wrote.\n---\n\n# Notes\n",
    );
    write(
        dir.path(),
        "empty/SKILL.md",
        "---\nname: \"\"\ndescription: Reads the user's notes. Use it when the user asks what they wrote.\n---\n\n# Notes\n",
    );
    write(
        dir.path(),
        "empty/tools.json",
        r#"[{"name": "list_notes", "type": "read", "description": "List the notes.", "idempotent": true,
            "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}]"#,
    );
    assert!(lint(&dir, &["--select", "SK004"]).is_empty());
    let both = lint(&dir, &["--select", "SK003,SK004"]);
    assert_eq!(both.len(), 2, "{both:?}");
    assert!(both.iter().all(|l| code(l) == Some("SK003")), "{both:?}");
    assert!(lint(&dir, &["--select", "TJ005"]).is_empty());
    assert!(lint(&dir, &["--select", "TJ"]).is_empty());
}
