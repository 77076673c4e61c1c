//! The whole per-file pipeline (parse, index, every rule, triage, every output format) on a skill
//! folder whose files are cut from the input: never panics, never reports SL900.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skilllint::catalog::catalog;
use skilllint::render::{render, Format, Input};
use skilllint::{engine::lint_in_memory, LintOptions};

const NAMES: [&str; 6] = [
    "s/SKILL.md",
    "s/tools.json",
    "s/requirement.yaml",
    ".tools/t/TOOL.md",
    ".drivers/d/DRIVER.md",
    "SECRETS.md",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Files are separated by a form feed, so the fuzzer can grow several at once.
    let files: Vec<(String, String)> = text
        .split('\u{c}')
        .zip(NAMES)
        .map(|(content, name)| (name.to_string(), content.to_string()))
        .collect();
    let options = LintOptions {
        select: vec!["ALL".to_string()],
        threads: Some(1),
        ..LintOptions::default()
    };
    let Ok(outcome) = lint_in_memory(&options, files) else { return };
    assert!(outcome.diagnostics.iter().all(|d| d.code != "SL900"), "a rule panicked");
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
