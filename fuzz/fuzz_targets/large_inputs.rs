//! Large inputs from small ones: the input's first byte picks a file kind, the rest is a piece
//! of text that is repeated up to about 1 MB (a header, then the piece many times, the way an
//! attacker builds many findings, long lines or many headings). The whole pipeline must not
//! panic and must stay within libFuzzer's time and memory limits (run with `-timeout`), which
//! catches the quadratic shapes that small inputs never show.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skilllint::catalog::catalog;
use skilllint::render::{render, Format, Input};
use skilllint::{engine::lint_in_memory, LintOptions};

const TARGET_BYTES: usize = 1 << 20;

const KINDS: [(&str, &str, &str); 6] = [
    ("s/SKILL.md", "---\nname: s\ndescription: d\n---\n\n## Tool Use Rules\n\n", "\n"),
    ("s/tools.json", "[", "{}]"),
    ("s/requirement.yaml", "tools:\n", ""),
    (".tools/t/TOOL.md", "---\nname: T\nid: t\ndescription: d\nversion: 1.0.0\n", "---\n"),
    (".drivers/d/DRIVER.md", "---\nname: D\nid: d\ndescription: d\nversion: 1.0.0\nkind: cli\n", "---\n"),
    ("SECRETS.md", "---\nsecrets:\n", "---\n"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&kind, piece)) = data.split_first() else { return };
    let Ok(piece) = std::str::from_utf8(piece) else { return };
    if piece.is_empty() {
        return;
    }
    let (name, header, footer) = KINDS[usize::from(kind) % KINDS.len()];
    let repeats = TARGET_BYTES / piece.len();
    let mut text = String::with_capacity(TARGET_BYTES + header.len() + footer.len());
    text.push_str(header);
    for _ in 0..repeats {
        text.push_str(piece);
    }
    text.push_str(footer);
    // A small tools.json beside the skill, so the TR rules have a tool surface to compare.
    let tools = r#"[{"name": "list_events", "type": "read", "description": "Lists.", "requiresConfirmation": false, "idempotent": false, "inputSchema": {"type": "object", "properties": {}}}]"#;
    let mut files = vec![(name.to_string(), text)];
    if name != "s/tools.json" {
        files.push(("s/tools.json".to_string(), tools.to_string()));
    }
    let options = LintOptions {
        select: vec!["ALL".to_string()],
        threads: Some(1),
        ..LintOptions::default()
    };
    let Ok(outcome) = lint_in_memory(&options, files) else { return };
    assert!(outcome.diagnostics.iter().all(|d| d.code != "SL900"), "a rule panicked");
    // Every format, the full report included: it shows windows of long lines.
    let input = Input {
        sources: outcome.repo.sources(),
        diagnostics: &outcome.diagnostics,
        suppressed: &outcome.suppressed,
        root: &outcome.root,
        catalog: catalog(),
    };
    for format in [Format::Full, Format::Concise, Format::Json, Format::Github, Format::Sarif] {
        let _ = render(format, &input, false);
    }
});
