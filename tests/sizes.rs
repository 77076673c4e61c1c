//! The size bars of the source tree: no file over [`MAX_FILE_LINES`] lines and no function over
//! [`MAX_FUNCTION_LINES`], so a room that outgrows its name is noticed the day it happens, not a
//! round later. The code is `cargo fmt`-formatted (CI checks it), so a function ends at the first
//! line that is its own indentation followed by `}`.

use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 1_200;
const MAX_FUNCTION_LINES: usize = 200;
/// The binary's entry point only parses the command line and dispatches.
const MAX_MAIN_LINES: usize = 400;
/// Each file of the engine is one stage of a run's orchestration.
const MAX_ENGINE_FILE_LINES: usize = 600;

/// Every `.rs` file of the crate's own code: `src/`, `tests/`, `examples/`, `fuzz/fuzz_targets/`
/// and `build.rs`, sorted.
fn rust_files(root: &Path) -> Vec<PathBuf> {
    let mut pending: Vec<PathBuf> = ["src", "tests", "examples", "fuzz/fuzz_targets"]
        .iter()
        .map(|dir| root.join(dir))
        .collect();
    let mut files = vec![root.join("build.rs")];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            // Fixtures are inputs, not the crate's code.
            if path.is_dir() && !path.ends_with("tests/fixtures") {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Whether `line` starts a function item: `fn name`, after visibility and qualifiers.
fn starts_function(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        rest = match after.strip_prefix('(') {
            Some(inner) => inner.split_once(')')?.1.trim_start(),
            None => after.strip_prefix(' ')?,
        };
    }
    for qualifier in ["const ", "async ", "unsafe ", "extern \"C\" "] {
        rest = rest.strip_prefix(qualifier).unwrap_or(rest);
    }
    let name = rest.strip_prefix("fn ")?;
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    (end > 0).then(|| &name[..end])
}

/// Every function of `text` longer than `max` lines, as `(name, first line, lines)`.
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut long = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = starts_function(line) else {
            continue;
        };
        let indent = line.len() - line.trim_start().len();
        // The signature ends at the first line ending in `{` (a body) or `;` (no body).
        let Some(open) = (start..lines.len()).find(|&i| {
            let code = lines[i].split(" //").next().unwrap_or("").trim_end();
            code.ends_with('{') || code.ends_with(';') || code.ends_with('}')
        }) else {
            continue;
        };
        let code = lines[open].trim_end();
        if !code.ends_with('{') {
            continue;
        }
        let closing = format!("{}}}", " ".repeat(indent));
        let Some(end) = (open + 1..lines.len()).find(|&i| lines[i].trim_end() == closing) else {
            continue;
        };
        let length = end - start + 1;
        if length > max {
            long.push((name.to_string(), start + 1, length));
        }
    }
    long
}

#[test]
fn no_file_or_function_outgrows_its_bar() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for path in rust_files(root) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let bar = if rel == "src/main.rs" {
            MAX_MAIN_LINES
        } else if rel.starts_with("src/engine/") {
            MAX_ENGINE_FILE_LINES
        } else {
            MAX_FILE_LINES
        };
        let lines = text.lines().count();
        if lines > bar {
            problems.push(format!("{rel}: {lines} lines (at most {bar})"));
        }
        for (name, line, length) in long_functions(&text, MAX_FUNCTION_LINES) {
            problems.push(format!(
                "{rel}:{line}: fn {name} is {length} lines (at most {MAX_FUNCTION_LINES})"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_function_measure_finds_the_end_of_a_body() {
    let text = "fn short() {\n    let x = 1;\n}\n\npub(crate) fn long(\n    a: u8,\n) -> u8 {\n    a\n        + 1\n}\n\ntrait T {\n    fn declared(&self);\n    fn one_line(&self) {}\n}\n";
    assert_eq!(long_functions(text, 3), vec![("long".to_string(), 5, 6)]);
    assert!(long_functions(text, 6).is_empty());
    assert_eq!(starts_function("    pub async fn go()"), Some("go"));
    assert_eq!(starts_function("    let fn_name = 1;"), None);
}
