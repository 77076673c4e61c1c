//! One file per rule, named after it (docs LAYOUT §1): for every catalog entry of a rule family,
//! `src/rules/<family>/<code>_<name>.rs` exists, and a family folder holds no other rule file.
//! The reader's path from `rules/TR005.md` to its code is then the file name alone.

use std::collections::BTreeSet;
use std::path::Path;

/// The families whose rules live one file per rule. The SL rules are emitted by the engine and the
/// LK rules by the lock, not checked by rule code, so their rows stay in `src/rules/sl.rs` and
/// `src/rules/lk.rs` and they have no folder.
const FAMILIES: &[&str] = &[
    "ag", "dr", "hk", "mc", "pi", "pl", "sc", "se", "sk", "tj", "tm", "tr", "xc",
];

/// `src/rules/<family>/<code>_<name>.rs` for a catalog entry: the code in lowercase, the rule's
/// kebab-case name in snake case.
fn rule_file(code: &str, name: &str) -> String {
    format!("{}_{}.rs", code.to_lowercase(), name.replace('-', "_"))
}

#[test]
fn every_rule_has_its_file_and_every_rule_file_a_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let catalog = skilllint::catalog::catalog();
    let mut problems = Vec::new();
    let mut families_seen = BTreeSet::new();
    for family in FAMILIES {
        let dir = root.join(family);
        let expected: BTreeSet<String> = catalog
            .rules
            .iter()
            .filter(|meta| meta.family.eq_ignore_ascii_case(family))
            .map(|meta| rule_file(meta.code, &meta.name))
            .collect();
        if expected.is_empty() {
            problems.push(format!("no catalog entry belongs to family `{family}`"));
        }
        let present: BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|file| file.ends_with(".rs") && file != "mod.rs" && file != "tests.rs")
            .collect();
        for missing in expected.difference(&present) {
            problems.push(format!("src/rules/{family}/{missing} is missing"));
        }
        for stray in present.difference(&expected) {
            problems.push(format!(
                "src/rules/{family}/{stray} is named after no rule of the family"
            ));
        }
        families_seen.insert(family.to_uppercase());
    }
    // A new family must get a folder (and a place in FAMILIES), not a flat file.
    for meta in &catalog.rules {
        if !["SL", "LK"].contains(&meta.family.as_str()) && !families_seen.contains(&meta.family) {
            problems.push(format!(
                "{}: family `{}` is not in FAMILIES",
                meta.code, meta.family
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
