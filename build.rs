//! Embeds every rule explanation under `rules/` so the binary is the single source for `skilllint
//! rules`, `skilllint rule X`, SARIF rule metadata and the generated docs.
//!
//! It also writes one `#[test]` per rule for `tests/rule_fixtures.rs` to `include!`, so that
//! `cargo test --test rule_fixtures tr005` runs one rule's fixtures and a new rule doc adds its
//! test without a line in a test file. The library never includes that file.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let rules_dir = Path::new(&manifest).join("rules");
    println!("cargo:rerun-if-changed=rules");
    let mut codes: Vec<String> = std::fs::read_dir(&rules_dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.strip_suffix(".md").map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    codes.sort();
    let mut out = String::from("pub static RULE_DOCS: &[(&str, &str)] = &[\n");
    for code in &codes {
        let path = rules_dir.join(format!("{code}.md"));
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            out,
            "    ({code:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_string());
    if let Err(error) = std::fs::write(Path::new(&out_dir).join("rule_docs.rs"), out) {
        panic!("cannot write the embedded rule table: {error}");
    }
    let tests = rule_fixture_tests(&codes);
    if let Err(error) = std::fs::write(Path::new(&out_dir).join("rule_fixture_tests.rs"), tests) {
        panic!("cannot write the rule fixture tests: {error}");
    }
}

/// `RULE_FIXTURE_CODES` and a `#[test] fn <code>()` per rule calling `rule_fixtures(code)`, which
/// `tests/rule_fixtures.rs` defines.
fn rule_fixture_tests(codes: &[String]) -> String {
    let mut out = String::from("/// The rules with a generated fixture test, in code order.\n");
    out.push_str("const RULE_FIXTURE_CODES: &[&str] = &[\n");
    for code in codes {
        let _ = writeln!(out, "    {code:?},");
    }
    out.push_str("];\n");
    for code in codes {
        let name: String = code
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "\n#[test]\nfn {name}() {{\n    rule_fixtures({code:?});\n}}"
        );
    }
    out
}
