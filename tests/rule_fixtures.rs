//! Every rule has `tests/fixtures/<CODE>/fires` (the rule reports something; the rendered report is
//! snapshotted) and `tests/fixtures/<CODE>/clean` (the rule reports nothing).
//!
//! build.rs writes one test per `rules/<CODE>.md`, named after the code in lower case, so
//! `cargo test --test rule_fixtures tr005` runs TR005's fixtures alone.

use skilllint::catalog::catalog;
use skilllint::engine::registry;
use skilllint::render::{concise, full};
use skilllint::{LintOptions, LintOutcome};
use std::path::{Path, PathBuf};

fn fixture(code: &str, kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(code)
        .join(kind)
}

/// Rules whose fixtures hold a finding the rule leaves to another, with that other rule: TM002's
/// `runner` key is TM003's, TM009's misspelt root `type` of `inputs` is SC002's.
const LEAVES_TO: &[(&str, &[&str])] = &[("TM002", &["TM003"]), ("TM009", &["SC002"])];

/// SL900 has no input that crashes a rule on purpose, so its fixture runs SK006 with a panic
/// injected and checks that the run reports it and carries on.
fn options_for(code: &str, root: PathBuf) -> LintOptions {
    let mut options = LintOptions {
        paths: vec![root],
        select: vec![code.to_string()],
        threads: Some(2),
        ..LintOptions::default()
    };
    if code == "SL900" {
        options.select.push("SK006".to_string());
    }
    // SL010 and SL011 are about policy rules: their fixtures bring them in
    // `.skilllint/policies/`, found as a run without a config file finds them, and run them.
    let policies = skilllint::policy::load(&options.paths[0], &[])
        .unwrap_or_else(|e| panic!("{code}: the fixture's policies do not load: {e}"));
    if !policies.is_empty() {
        options
            .select
            .extend(policies.rules.iter().map(|r| r.code.to_string()));
        options.policies = Some(std::sync::Arc::new(policies));
    }
    // An unused suppression is only provable when the rule it names runs.
    if code == "SL002" {
        options.select.push("SK008".to_string());
    }
    // SL020 and SL021 are about baseline entries: their fixtures bring one, for SK008.
    let baseline = options.paths[0].join("skilllint-baseline.json");
    if baseline.is_file() {
        let loaded = skilllint::triage::baseline::Baseline::load(
            &baseline,
            Path::new("."),
            skilllint::settings::DEFAULT_MAX_FILE_SIZE,
            catalog(),
        )
        .unwrap_or_else(|e| panic!("{code}: the fixture's baseline does not load: {e}"));
        options.baseline = Some(std::sync::Arc::new(loaded));
        options.select.push("SK008".to_string());
    }
    // SL004 is about paths named on the command line: its fixtures name every file they hold.
    if code == "SL004" {
        options.paths = files_under(&options.paths[0]);
    }
    // A finding a rule leaves to another is left to it only while that rule runs (without it, the
    // first rule reports it: tests/handoffs.rs). These fixtures show the split of the default
    // selection, so the other rule runs beside them.
    for (rule, others) in LEAVES_TO {
        if code == *rule {
            options.select.extend(others.iter().map(|c| c.to_string()));
        }
    }
    options
}

/// Every file below `dir`, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)
            .expect("fixture folder")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    // Relative to the checkout (where tests run), so reports print the same paths anywhere.
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    files
        .into_iter()
        .map(|f| {
            f.strip_prefix(checkout)
                .map_or(f.clone(), Path::to_path_buf)
        })
        .collect()
}

fn run(code: &str, root: PathBuf, inject_panic: bool) -> LintOutcome {
    let mut options = options_for(code, root);
    if inject_panic {
        options.panic_in_rule = Some("SK006".to_string());
    }
    // As the command line lints: with a lock at the fixture's root (the LK rules' fixtures) its
    // drift is reported too; without one this is `skilllint::lint`.
    match skilllint::lock::lint(&options) {
        Ok(outcome) => outcome,
        Err(error) => panic!("{code}: lint failed: {error}"),
    }
}

fn rendered(outcome: &LintOutcome) -> String {
    format!(
        "{}---- concise ----\n{}",
        full::render(
            outcome.sources(),
            &outcome.diagnostics,
            catalog(),
            false,
            full::DEFAULT_WIDTH
        ),
        concise::render(outcome.sources(), &outcome.diagnostics, catalog())
    )
}

// `#[test] fn dr001() { rule_fixtures("DR001"); }` and so on, and `RULE_FIXTURE_CODES`.
include!(concat!(env!("OUT_DIR"), "/rule_fixture_tests.rs"));

/// One rule's fixtures: `fires` reports the rule and its rendered report matches
/// `tests/snapshots/rules/<CODE>.snap`; `clean` does not report it.
fn rule_fixtures(code: &str) {
    let mut problems = Vec::new();
    for kind in ["fires", "clean"] {
        if !fixture(code, kind).is_dir() {
            problems.push(format!("{code}: missing tests/fixtures/{code}/{kind}/"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let is_sl900 = code == "SL900";
    let fires = run(code, fixture(code, "fires"), is_sl900);
    if !fires.diagnostics.iter().any(|d| d.code == code) {
        problems.push(format!("{code}: the `fires` fixture reports no {code}"));
    }
    let clean = run(code, fixture(code, "clean"), false);
    let unexpected: Vec<String> = clean
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| {
            format!(
                "{}: {}",
                clean.repo.file(d.primary.file).rel_path,
                d.message
            )
        })
        .collect();
    if !unexpected.is_empty() {
        problems.push(format!(
            "{code}: the `clean` fixture reports {unexpected:?}"
        ));
    }
    insta::with_settings!({
        snapshot_path => "snapshots/rules",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(code, rendered(&fires));
    });
    assert!(
        problems.is_empty(),
        "fixture problems:\n{}",
        problems.join("\n")
    );
}

/// The generated tests cover exactly the registry's rules (a rule without a doc would otherwise
/// have no fixture test), and every rule has both fixture folders.
#[test]
fn every_rule_has_fixtures_that_fire_and_stay_clean() {
    let registered: Vec<&str> = registry().rules.iter().map(|r| r.meta.code).collect();
    let mut sorted = registered.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted, RULE_FIXTURE_CODES,
        "the registry's rules and the rules/*.md docs differ"
    );
    let mut problems = Vec::new();
    for code in registered {
        for kind in ["fires", "clean"] {
            if !fixture(code, kind).is_dir() {
                problems.push(format!("{code}: missing tests/fixtures/{code}/{kind}/"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "fixture problems:\n{}",
        problems.join("\n")
    );
}

/// LEAVES_TO names rules that exist, and never a rule itself.
#[test]
fn leaves_to_names_known_rules() {
    for (rule, others) in LEAVES_TO {
        assert!(
            RULE_FIXTURE_CODES.contains(rule),
            "LEAVES_TO: no rule {rule}"
        );
        for other in *others {
            assert!(
                RULE_FIXTURE_CODES.contains(other) && other != rule,
                "LEAVES_TO: {rule} leaves to {other}, which is not another rule"
            );
        }
    }
}
