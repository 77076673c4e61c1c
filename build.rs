//! Embeds every rule explanation under `rules/` so the binary is the single source for `skilllint
//! rules`, `skilllint rule X`, SARIF rule metadata and the generated docs.
//!
//! It also writes one constant per rule document (`catalog::code::TJ003`), so that code naming a
//! built-in rule names a document that exists: a typo or a deleted rule fails to compile.
//!
//! And it writes one `#[test]` per rule for `tests/rule_fixtures.rs` to `include!`, so that
//! `cargo test --test rule_fixtures tr005` runs one rule's fixtures and a new rule doc adds its
//! test without a line in a test file. The library never includes that file.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let rules_dir = Path::new(&manifest).join("rules");
    println!("cargo:rerun-if-changed=build.rs");
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
    if let Err(error) = std::fs::write(
        Path::new(&out_dir).join("rule_codes.rs"),
        rule_codes(&codes),
    ) {
        panic!("cannot write the rule code constants: {error}");
    }
    let tests = rule_fixture_tests(&codes);
    if let Err(error) = std::fs::write(Path::new(&out_dir).join("rule_fixture_tests.rs"), tests) {
        panic!("cannot write the rule fixture tests: {error}");
    }
}

/// One `RuleCode` constant per rule document, named by its code, and `ALL` of them in code order;
/// `catalog::code` includes it. A file name that is no identifier stops the build here rather than
/// as a syntax error in generated code.
fn rule_codes(codes: &[String]) -> String {
    let mut out = String::new();
    for code in codes {
        let identifier = code.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && code
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        if !identifier {
            panic!("rules/{code}.md: a rule code is upper-case letters then digits");
        }
        let _ = writeln!(
            out,
            "/// The rule documented in `rules/{code}.md`.\npub const {code}: RuleCode = RuleCode({code:?});"
        );
    }
    out.push_str("\n/// Every rule code, in code order (the order of `RULE_DOCS`).\npub const ALL: &[RuleCode] = &[\n");
    for code in codes {
        let _ = writeln!(out, "    {code},");
    }
    out.push_str("];\n");
    out
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
