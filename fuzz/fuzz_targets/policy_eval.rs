//! Policy evaluation: a rule whose `assert`, `when` and `message` are cut from the input, run on
//! a skill folder whose files are cut from the rest, over every entity kind. Never panics (no
//! SL900), and every evaluation is bounded: run with `-timeout` (scripts/fuzz.sh), so one that
//! the cost model lets run for seconds is a reported failure, not a slow run.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skilllint::{engine::lint_in_memory, LintOptions};
use std::path::Path;
use std::sync::Arc;

const KINDS: [&str; 6] = ["skill", "tool", "tool-use-rule", "contract", "driver", "secret"];
const VARIABLES: [&str; 6] = ["skill", "tool", "tool_use_rule", "contract", "driver", "secret"];
const NAMES: [&str; 6] = [
    "s/SKILL.md",
    "s/tools.json",
    "s/requirement.yaml",
    ".tools/t/TOOL.md",
    ".drivers/d/DRIVER.md",
    "SECRETS.md",
];

/// `text` as a YAML single-quoted scalar.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''").replace(['\n', '\r'], " "))
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    // Parts are separated by a form feed: assert, when, message, then the files.
    let mut parts = text.split('\u{c}');
    let assert = parts.next().unwrap_or("true");
    let when = parts.next().unwrap_or("");
    let message = parts.next().unwrap_or("m");
    let kind = usize::from(selector) % KINDS.len();
    let mut policy = format!(
        "rules:\n  - code: FUZ001\n    name: fuzzed\n    severity: warning\n    category: style\n    \
         summary: s\n    on: {}\n    assert: {}\n    message: {}\n",
        KINDS[kind],
        quoted(assert),
        quoted(message)
    );
    if !when.trim().is_empty() {
        policy.push_str(&format!("    when: {}\n", quoted(when)));
    }
    if selector & 0x80 != 0 {
        policy.push_str(&format!("    at: {}\n", VARIABLES[kind]));
    }
    let Ok(set) = skilllint::policy::load_text(Path::new("fuzz.yaml"), &policy) else { return };
    let files: Vec<(String, String)> = parts
        .zip(NAMES)
        .map(|(content, name)| (name.to_string(), content.to_string()))
        .collect();
    let options = LintOptions {
        select: vec!["ALL".to_string()],
        threads: Some(1),
        policies: Some(Arc::new(set)),
        ..LintOptions::default()
    };
    let Ok(outcome) = lint_in_memory(&options, files) else { return };
    assert!(outcome.diagnostics.iter().all(|d| d.code != "SL900"), "a rule panicked");
});
