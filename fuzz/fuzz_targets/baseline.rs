//! The baseline reader: any bytes as a baseline file never panic (an error renders); an accepted
//! baseline hides findings of a fixed repository without a panic, each finding either kept or
//! hidden by one entry, and its SL020/SL021 findings render; a baseline written from the run (with
//! the fuzzed one's notes) reads back, hides every finding it records (but those whose kept
//! `expires` has passed), and writing it again gives the same text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skilllint::catalog::catalog;
use skilllint::diagnostic::Diagnostic;
use skilllint::render::{render, Format, Input};
use skilllint::source::{FileId, SourceFile, Sources};
use skilllint::triage::baseline::{apply, write, Baseline, Scope};
use skilllint::{engine::lint_in_memory, LintOptions};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

/// The repository's files (as `/r/s/...` from the baseline `/r/b.json`) and their findings: a
/// skill with a few, and a tools.json of 1,003 deleting tools (SC016 reports 1,000 and counts
/// the rest in one finding).
fn repository() -> &'static (Vec<(String, String)>, Vec<Diagnostic>) {
    static REPOSITORY: OnceLock<(Vec<(String, String)>, Vec<Diagnostic>)> = OnceLock::new();
    REPOSITORY.get_or_init(|| {
        let tools: Vec<String> = (0..1003)
            .map(|i| format!("{{\"name\": \"tool_{i}\", \"description\": \"Deletes record {i}.\"}}"))
            .collect();
        let files = vec![
            (
                "s/SKILL.md".to_string(),
                "---\nname: s\ndescription: Keeps notes.\nowner: docs\n---\n\n# S\n\nSee [the guide](missing.md).\n"
                    .to_string(),
            ),
            ("s/tools.json".to_string(), format!("[\n{}\n]\n", tools.join(",\n"))),
        ];
        let options = LintOptions {
            select: vec!["ALL".to_string()],
            threads: Some(1),
            ..LintOptions::default()
        };
        let outcome = lint_in_memory(&options, files).expect("the fixed repository lints");
        let files = outcome
            .repo
            .files
            .iter()
            .map(|f| (f.rel_path.clone(), f.text.clone()))
            .collect();
        (files, outcome.diagnostics.clone())
    })
}

fn source_files(files: &[(String, String)]) -> Vec<SourceFile> {
    files
        .iter()
        .map(|(rel_path, text)| SourceFile {
            rel_path: rel_path.clone(),
            abs_path: Path::new(rel_path).to_path_buf(),
            text: text.clone(),
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (path, cwd) = (Path::new("/r/b.json"), Path::new("/r"));
    let baseline = match Baseline::from_text(path, cwd, text.to_string(), catalog()) {
        Ok(baseline) => baseline,
        Err(error) => {
            let _ = skilllint::render::full::baseline_error(&error, false);
            return;
        }
    };
    let (files, diagnostics) = repository();
    let files = source_files(files);
    let every_rule = |_: &str, _: Option<FileId>| true;
    let severity = BTreeMap::new();
    let scope = Scope { reports: &every_rule, catalog: catalog(), severity: &severity };
    let (kept, hidden, run) = apply(diagnostics.clone(), &files, &baseline, cwd, &scope);
    assert_eq!(run.hidden, hidden.len());
    assert!(hidden.len() + run.expired <= baseline.entries.len());
    let in_repository = kept.iter().filter(|d| (d.primary.file.0 as usize) < files.len()).count();
    assert_eq!(in_repository + hidden.len(), diagnostics.len(), "a finding was lost or doubled");
    // The baseline's own findings, drawn over the baseline's text.
    let about_baseline: Vec<Diagnostic> =
        kept.into_iter().filter(|d| d.primary.file.0 as usize == files.len()).collect();
    let input = Input {
        sources: Sources::new(&files).with_baseline(Some(&run.file)),
        diagnostics: &about_baseline,
        suppressed: &[],
        root: Path::new("."),
        catalog: catalog(),
    };
    for format in [Format::Full, Format::Concise, Format::Json, Format::Github, Format::Sarif] {
        let _ = render(format, &input, false);
    }

    // Rewritten from the run, the fuzzed baseline's notes kept.
    let findings: Vec<&Diagnostic> = diagnostics.iter().collect();
    let (written, counts) = write(&findings, Sources::new(&files), &baseline, cwd);
    assert_eq!(counts.entries, diagnostics.len());
    assert_eq!(counts.kept + counts.added, counts.entries);
    let reread = match Baseline::from_text(path, cwd, written.clone(), catalog()) {
        Ok(reread) => reread,
        Err(error) => panic!("a written baseline does not read back: {}\n{written}", error.message),
    };
    let (_, hidden, run) = apply(diagnostics.clone(), &files, &reread, cwd, &scope);
    assert_eq!(hidden.len() + run.expired, diagnostics.len(), "a recorded finding was not matched");
    assert_eq!(run.stale, 0);
    let (again, _) = write(&findings, Sources::new(&files), &reread, cwd);
    assert_eq!(again, written, "rewriting a baseline changed it");
});
