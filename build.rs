//! Embeds every rule explanation under `rules/` so the binary is the single source for `skilllint
//! rules`, `skilllint rule X`, SARIF rule metadata and the generated docs.

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
}
