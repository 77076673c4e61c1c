//! Writes a deterministic benchmark corpus: N skill folders, each with SKILL.md (with a Tool Use
//! Rules section), a forge tools.json and a requirement.yaml, plus an agentproto TOOL.md and
//! DRIVER.md pair for every 20th skill; about one skill in ten carries a defect so the linter has
//! findings to report.
//!
//!     cargo run --release --example gen_corpus -- 5000 /tmp/corpus

use std::fmt::Write as _;
use std::path::Path;

const DOMAINS: [&str; 8] = [
    "calendar", "invoice", "ticket", "order", "report", "contact", "booking", "shipment",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = match args.next().and_then(|n| n.parse().ok()) {
        Some(n) => n,
        None => {
            eprintln!("usage: gen_corpus COUNT OUT_DIR");
            std::process::exit(2);
        }
    };
    let Some(out) = args.next() else {
        eprintln!("usage: gen_corpus COUNT OUT_DIR");
        std::process::exit(2);
    };
    let out = Path::new(&out);
    for index in 0..count {
        if let Err(error) = write_skill(out, index) {
            eprintln!("gen_corpus: {error}");
            std::process::exit(1);
        }
    }
    println!("wrote {count} skills to {}", out.display());
}

fn write_skill(out: &Path, index: usize) -> std::io::Result<()> {
    let domain = DOMAINS[index % DOMAINS.len()];
    let name = format!("{domain}-skill-{index:05}");
    // Group skills in folders of 100, as large monorepos do.
    let dir = out.join(format!("group-{:03}", index / 100)).join(&name);
    std::fs::create_dir_all(&dir)?;
    let defect = index % 10;
    let read_tool = format!("list_{domain}s");
    let write_tool = format!("create_{domain}");

    let mut skill = String::new();
    let _ = write!(
        skill,
        "---\nname: {name}\ndescription: Manages {domain} records for the team. Use when the user asks to list or create a {domain}.\nlicense: MIT\nmetadata:\n  owner: platform-team\n  version: \"1.{index}\"\n---\n\n# {domain} assistant\n\nHelp the user work with {domain} records. Ask for missing details before acting.\n\n## Steps\n\n1. Find the relevant {domain} records with `{read_tool}`.\n2. Summarise what you found in a short table.\n3. When the user wants a new {domain}, collect the fields, show a preview, and wait for approval.\n\n## Tool Use Rules\n\n- Only the tools listed below may be used. Never invent or call other tools.\n- `{read_tool}` is read-only and may be called without confirmation.\n"
    );
    if defect != 3 {
        let _ = writeln!(
            skill,
            "- `{write_tool}` changes data: call it only after the user explicitly confirms this exact operation, and pass `user_confirmed: true`."
        );
    }
    let _ = writeln!(
        skill,
        "- `{write_tool}` is idempotent: reuse the same `idempotency_key` when retrying."
    );
    if defect == 5 {
        let _ = writeln!(skill, "- Use `delete_{domain}` to clean up duplicates.");
    }
    let _ = writeln!(
        skill,
        "- Never execute a write operation without explicit confirmation in the current conversation."
    );
    std::fs::write(dir.join("SKILL.md"), skill)?;

    let confirmation = if defect == 1 { "false" } else { "true" };
    let confirmed_property = if defect == 7 {
        String::new()
    } else {
        "        \"user_confirmed\": { \"type\": \"boolean\", \"description\": \"Must be true; set only after the user confirmed this exact operation.\" },\n".to_string()
    };
    let required = if defect == 7 {
        "\"title\", \"idempotency_key\""
    } else {
        "\"title\", \"user_confirmed\", \"idempotency_key\""
    };
    let tools = format!(
        r#"[
  {{
    "name": "{read_tool}",
    "type": "read",
    "description": "List {domain} records that match a query.",
    "requiresConfirmation": false,
    "idempotent": false,
    "inputSchema": {{
      "type": "object",
      "properties": {{
        "query": {{ "type": "string", "description": "Free-text filter.", "maxLength": 200 }},
        "limit": {{ "type": "integer", "description": "Maximum results.", "minimum": 1, "maximum": 100 }}
      }},
      "required": ["query"],
      "additionalProperties": false
    }}
  }},
  {{
    "name": "{write_tool}",
    "type": "write",
    "description": "Create a {domain} after explicit confirmation.",
    "requiresConfirmation": {confirmation},
    "idempotent": true,
    "inputSchema": {{
      "type": "object",
      "properties": {{
        "title": {{ "type": "string", "description": "Title of the new {domain}.", "maxLength": 200 }},
{confirmed_property}        "idempotency_key": {{ "type": "string", "description": "Stable key for this logical operation." }}
      }},
      "required": [{required}],
      "additionalProperties": false
    }}
  }}
]
"#
    );
    std::fs::write(dir.join("tools.json"), tools)?;

    let requirement = format!(
        "tools:\n  - name: {read_tool}\n    type: read\n    description: List {domain} records.\n  - name: {write_tool}\n    type: write\n    description: Create a {domain}.\nsafety_requirements:\n  - Every write needs explicit confirmation.\n  - Use an idempotency key for writes.\nnon_goals:\n  - Do not delete existing records.\n"
    );
    std::fs::write(dir.join("requirement.yaml"), requirement)?;
    if index % 20 == 0 {
        write_contract(out, domain, index)?;
    }
    Ok(())
}

/// A TOOL.md contract and an HTTP DRIVER.md that implements it.
fn write_contract(out: &Path, domain: &str, index: usize) -> std::io::Result<()> {
    let id = format!("{domain}-create-{index:05}");
    let tool_dir = out.join(".tools").join(&id);
    std::fs::create_dir_all(&tool_dir)?;
    let tool = format!(
        r#"---
name: Create {domain} {index}
id: {id}
description: Creates one {domain} record from the fields the user confirmed. Do not use it to update or delete records.
version: 1.2.0
idempotent: true
mutates: ["database:{domain}s"]
approval: on-mutate
risk_level: 1
cost_class: trivial
timeout_ms: 10000
retry:
  max_attempts: 3
  backoff: exponential
  initial_ms: 200
inputs:
  type: object
  properties:
    title:
      type: string
      description: Title of the new {domain}.
      maxLength: 200
    idempotency_key:
      type: string
      description: Stable key for this logical operation.
  required: [title, idempotency_key]
  additionalProperties: false
outputs:
  type: object
  properties:
    id:
      type: string
  required: [id]
examples:
  - name: a short title
    input: {{ title: "Quarterly review", idempotency_key: "k-1" }}
    output: {{ id: "r-1" }}
  - name: a long title
    input: {{ title: "Planning for the next release", idempotency_key: "k-2" }}
    output: {{ id: "r-2" }}
---

# Create {domain}

Creates the record and returns its id.
"#
    );
    std::fs::write(tool_dir.join("TOOL.md"), tool)?;
    let driver_dir = out.join(".drivers").join(format!("{id}-http"));
    std::fs::create_dir_all(&driver_dir)?;
    let driver = format!(
        r#"---
name: Create {domain} {index} over HTTP
id: {id}-http
description: Calls the internal {domain} service.
version: 1.0.0
kind: http
network:
  egress: ["{domain}.internal.example"]
implements:
  - tool: .tools/{id}/TOOL.md
    version: "^1.0.0"
    timeout_override_ms: 5000
---

# HTTP driver

POSTs the record to the {domain} service.
"#
    );
    std::fs::write(driver_dir.join("DRIVER.md"), driver)
}
