//! Every rule with a fix: applied to its `fires` fixture, the fixed files still parse, the rule no
//! longer fires, and a second run changes nothing (convergence).

use skilllint::catalog::{catalog, FixAvailability};
use skilllint::fix::{apply, fix, WriteScope};
use skilllint::{lint, LintOptions};
use std::path::{Path, PathBuf};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create folder");
    for entry in std::fs::read_dir(from).expect("read fixture").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// Rules whose findings mean "this file does not parse".
const PARSE_RULES: [&str; 8] = [
    "SL001", "SK001", "SK002", "TJ001", "TJ013", "TM001", "DR001", "SE001",
];

#[test]
fn every_fix_repairs_its_fixture_and_converges() {
    let mut problems = Vec::new();
    for meta in &catalog().rules {
        if meta.fix == FixAvailability::None {
            continue;
        }
        let code = meta.code;
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(code)
            .join("fires");
        let dir = tempfile::tempdir().expect("temp dir");
        let root: PathBuf = dir.path().join("repo");
        copy_dir(&fixture, &root);
        let options = LintOptions {
            paths: vec![root.clone()],
            select: vec![code.to_string()],
            ..LintOptions::default()
        };
        let unsafe_fixes = meta.fix == FixAvailability::Unsafe;

        let before = lint(&options).expect("lint");
        let offered = before
            .diagnostics
            .iter()
            .filter(|d| d.code == code && d.fix.is_some())
            .count();
        if offered == 0 {
            problems.push(format!(
                "{code}: no finding in its fires fixture offers a fix"
            ));
            continue;
        }
        let (_, run) = fix(&options, unsafe_fixes).expect("fix runs");
        if !run.refused.is_empty() {
            problems.push(format!("{code}: fixes refused: {:?}", run.refused));
        }
        let applied = apply(&run, &WriteScope::new(&root));
        if !applied.not_fixed.is_empty() {
            problems.push(format!("{code}: not written: {:?}", applied.not_fixed));
        }

        let after = lint(&options).expect("lint after fix");
        let remaining: Vec<String> = after
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .map(|d| {
                format!(
                    "{}: {}",
                    after.repo.file(d.primary.file).rel_path,
                    d.message
                )
            })
            .collect();
        if !remaining.is_empty() {
            problems.push(format!("{code}: still fires after --fix: {remaining:?}"));
        }
        let parse_check = LintOptions {
            select: PARSE_RULES
                .iter()
                .filter(|c| catalog().get(c).is_some())
                .map(|c| c.to_string())
                .collect(),
            ..options.clone()
        };
        let broken: Vec<String> = lint(&parse_check)
            .expect("lint")
            .diagnostics
            .iter()
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        let broken_before: Vec<String> = lint(&LintOptions {
            paths: vec![fixture.clone()],
            ..parse_check.clone()
        })
        .expect("lint")
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
        if broken.len() > broken_before.len() {
            problems.push(format!("{code}: the fix broke parsing: {broken:?}"));
        }

        let (_, second) = fix(&options, unsafe_fixes).expect("second fix runs");
        if !second.changed.is_empty() || !second.renames.is_empty() {
            problems.push(format!(
                "{code}: a second --fix still changes {:?}",
                second.changed.keys().collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "fix problems:\n{}",
        problems.join("\n")
    );
}
