//! What the docs tell a user to run in a repository they did not write. `npx skilllint` (and
//! `npm exec`) run the checkout's own `node_modules/.bin/skilllint` when it has one, even for a
//! pinned version: nothing in the binary can stop that, so no command the docs give may use it,
//! and the docs that mention it say why not.

use std::path::Path;

/// The lines of the fenced code blocks of a Markdown file.
fn code_lines(text: &str) -> Vec<&str> {
    let mut inside = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if inside {
            lines.push(line);
        }
    }
    lines
}

#[test]
fn no_doc_tells_a_user_to_run_npx_skilllint() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in ["README.md", "npm/skilllint/README.md"] {
        let text = std::fs::read_to_string(root.join(doc)).expect("read the doc");
        for line in code_lines(&text) {
            let command = line.trim_start().trim_start_matches("$ ");
            assert!(
                !command.contains("npx skilllint") && !command.contains("npm exec skilllint"),
                "{doc} gives `{line}`, which runs an untrusted checkout's own skilllint"
            );
        }
        assert!(
            text.contains("node_modules/.bin/skilllint"),
            "{doc} does not say why npx is unsafe in an untrusted checkout"
        );
    }
}
