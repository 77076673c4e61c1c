//! `--statistics`: how many findings each rule has, and which setting or fix addresses the rule
//! with the most (what a first run on an existing repository needs to know before the findings).

use crate::catalog::{Catalog, Category};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::source::{split_path, Sources};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One rule's findings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleCount {
    pub code: &'static str,
    pub name: String,
    pub count: usize,
    /// Whether `--fix` repairs some of them.
    pub fixable: bool,
    /// How many `--fix` repairs.
    pub fixable_count: usize,
    /// How many more `--fix --unsafe-fixes` repairs.
    pub unsafe_fixable_count: usize,
}

/// The findings counted by rule, most first (then by code).
pub fn count(diagnostics: &[Diagnostic], catalog: &Catalog) -> Vec<RuleCount> {
    let mut by_code: BTreeMap<&'static str, RuleCount> = BTreeMap::new();
    for d in diagnostics {
        let entry = by_code.entry(d.code).or_insert_with(|| RuleCount {
            code: d.code,
            name: catalog
                .get(d.code)
                .map_or_else(String::new, |m| m.name.clone()),
            count: 0,
            fixable: false,
            fixable_count: 0,
            unsafe_fixable_count: 0,
        });
        entry.count += 1;
        match d.fix.as_ref().map(|f| f.applicability) {
            Some(Applicability::Safe) => {
                entry.fixable = true;
                entry.fixable_count += 1;
            }
            Some(Applicability::Unsafe) => entry.unsafe_fixable_count += 1,
            None => {}
        }
    }
    let mut counts: Vec<RuleCount> = by_code.into_values().collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    counts
}

/// The table: count, code, a fix mark (`[*]` fixable with `--fix`, `[+]` only with
/// `--unsafe-fixes`, `[ ]` not fixable) and the rule's name, one rule a line.
pub fn text(counts: &[RuleCount]) -> String {
    let width = counts
        .iter()
        .map(|c| c.count.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for c in counts {
        let mark = if c.fixable {
            "[*]"
        } else if c.unsafe_fixable_count > 0 {
            "[+]"
        } else {
            "[ ]"
        };
        let _ = writeln!(out, "{:>width$}  {:<6} {mark} {}", c.count, c.code, c.name);
    }
    out
}

/// The same as a JSON array.
pub fn json(counts: &[RuleCount]) -> String {
    let mut text = serde_json::to_string_pretty(counts).unwrap_or_else(|_| "[]".to_string());
    text.push('\n');
    text
}

/// The fewest findings that make a line about the most frequent rule worth printing.
const MANY: usize = 10;

/// A line about the rule with the most findings and what addresses it, when there are enough
/// findings for one rule to drown the others: for findings all in generated tool snapshots, the
/// code they are written from (never a hand edit); else its fix when it has one; for a
/// correctness or safety rule, its explanation and a baseline (never turning it off); else the
/// setting that turns it off where the findings are (one folder: `per-file-ignores`; everywhere:
/// `ignore`).
pub fn biggest_rule(
    diagnostics: &[Diagnostic],
    sources: Sources<'_>,
    catalog: &Catalog,
) -> Option<String> {
    if diagnostics.len() < MANY {
        return None;
    }
    let counts = count(diagnostics, catalog);
    let top = counts.first().filter(|c| c.count > 1)?;
    let head = format!(
        "Most findings are {} [{}] ({} of {})",
        top.code,
        top.name,
        top.count,
        diagnostics.len()
    );
    let code = top.code;
    let category = catalog.get(code).map(|m| m.category);
    let hint = if every_one_generated(diagnostics, sources, code) {
        // A hand edit (or `--fix`) of a file a test writes is undone by the next test run.
        "they are in tool snapshots your tests write (`__toolsnaps__/`): fix the tool definitions in the code they are generated from, then write the snapshots again".to_string()
    } else if top.fixable_count == top.count {
        format!("`skilllint --fix --select {code}` fixes them")
    } else if top.fixable_count + top.unsafe_fixable_count == top.count {
        format!(
            "`skilllint --fix --unsafe-fixes --select {code}` fixes them (`--diff` shows the edits first)"
        )
    } else if code == "SK008" {
        // Most unknown SKILL.md keys in the wild are Claude Code's: a dialect, not an `ignore`.
        "`dialect = \"claude-code\"` under [skills] accepts Claude Code's keys, `extra-fields` your own".to_string()
    } else if matches!(category, Some(Category::Correctness | Category::Safety)) {
        // What these rules report is wrong or unsafe: never a setting that turns them off.
        format!(
            "`skilllint rule {code}` says how to fix them; `--write-baseline FILE` records today's so that only new ones fail"
        )
    } else {
        let setting = match common_folder(diagnostics, sources, code) {
            Some(folder) => format!(
                "`\"{folder}/**\" = [\"{code}\"]` under [lint.per-file-ignores] turns it off in {folder}/"
            ),
            None => format!("`ignore = [\"{code}\"]` under [lint] turns it off"),
        };
        setting
    };
    Some(format!("{head}: {hint}; `--statistics` counts every rule."))
}

/// Whether every finding of `code` is in a file a test run writes: a tool snapshot
/// (`__toolsnaps__/<tool>.snap` or `.json`), which is regenerated from the code, never edited.
fn every_one_generated(diagnostics: &[Diagnostic], sources: Sources<'_>, code: &str) -> bool {
    let snapshot = format!("{}/", crate::discover::TOOL_SNAPSHOT_DIR);
    diagnostics.iter().filter(|d| d.code == code).all(|d| {
        let path = &sources.file(d.primary.file).rel_path;
        path.starts_with(&snapshot) || path.contains(&format!("/{snapshot}"))
    })
}

/// The folder holding every finding of `code`, when that is a proper part of the run: the
/// deepest common folder of their paths (as shown), if it is not the top.
fn common_folder(diagnostics: &[Diagnostic], sources: Sources<'_>, code: &str) -> Option<String> {
    let mut common: Option<Vec<&str>> = None;
    for d in diagnostics.iter().filter(|d| d.code == code) {
        let folder = split_path(sources.path(d.primary.file)).0;
        let parts: Vec<&str> = folder.split('/').filter(|p| !p.is_empty()).collect();
        common = Some(match common {
            None => parts,
            Some(previous) => previous
                .iter()
                .zip(&parts)
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| *a)
                .collect(),
        });
    }
    let common = common?;
    // A folder outside the current one (`..`, `/`) is no glob a config file can hold.
    let plain = !common.is_empty()
        && common
            .iter()
            .all(|p| *p != ".." && !p.contains(['*', '?', '[', '{', '"', '\\']));
    let folder = common.join("/");
    // A folder holding every file of the run is the whole run: `ignore` says that better.
    let prefix = format!("{folder}/");
    let elsewhere = sources.all().iter().enumerate().any(|(i, _)| {
        !sources
            .path(crate::source::FileId(i as u32))
            .starts_with(&prefix)
    });
    (plain && elsewhere).then_some(folder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::diagnostic::{Fix, Severity};
    use crate::source::{FileId, SourceFile, Span};

    fn finding(code: &'static str, file: u32, fix: Option<Fix>) -> Diagnostic {
        let mut d = Diagnostic::new(code, Severity::Warning, FileId(file), Span::empty(0), "m");
        d.fix = fix;
        d
    }

    #[test]
    fn rules_are_counted_most_first_with_their_fixes() {
        let mut diagnostics = vec![finding("SK013", 0, None)];
        diagnostics.extend((0..3).map(|_| finding("SK008", 0, None)));
        diagnostics.push(finding("TJ003", 0, Some(Fix::safe("f", Vec::new()))));
        diagnostics.push(finding("TJ003", 0, None));
        diagnostics.push(finding("SC003", 0, Some(Fix::unsafe_("f", Vec::new()))));
        let counts = count(&diagnostics, catalog());
        let rows: Vec<(&str, usize, bool)> = counts
            .iter()
            .map(|c| (c.code, c.count, c.fixable))
            .collect();
        assert_eq!(
            rows,
            [
                ("SK008", 3, false),
                ("TJ003", 2, true),
                ("SC003", 1, false),
                ("SK013", 1, false)
            ]
        );
        let table = text(&counts);
        assert_eq!(
            table.lines().collect::<Vec<_>>(),
            [
                "3  SK008  [ ] skill-unknown-field",
                "2  TJ003  [*] write-tool-without-confirmation",
                "1  SC003  [+] open-input-object",
                "1  SK013  [ ] skill-body-too-long",
            ]
        );
        let parsed: serde_json::Value = serde_json::from_str(&json(&counts)).expect("JSON");
        assert_eq!(parsed[1]["code"], "TJ003");
        assert_eq!(parsed[1]["fixable_count"], 1);
        assert_eq!(parsed[2]["unsafe_fixable_count"], 1);
    }

    #[test]
    fn the_biggest_rule_names_the_setting_where_its_findings_are() {
        let files: Vec<SourceFile> = [
            "plugins/old/a/SKILL.md",
            "plugins/old/b/SKILL.md",
            "skills/c/SKILL.md",
        ]
        .iter()
        .map(|p| SourceFile {
            rel_path: p.to_string(),
            abs_path: p.into(),
            text: String::new(),
        })
        .collect();
        let sources = Sources::new(&files);
        let mut diagnostics: Vec<Diagnostic> =
            (0..8).map(|i| finding("SK013", i % 2, None)).collect();
        diagnostics.extend((0..2).map(|_| finding("SK008", 2, None)));
        let line = biggest_rule(&diagnostics, sources, catalog()).expect("ten findings");
        assert!(
            line.starts_with("Most findings are SK013 [skill-body-too-long] (8 of 10): `\"plugins/old/**\" = [\"SK013\"]` under [lint.per-file-ignores]"),
            "{line}"
        );
        diagnostics.extend((0..8).map(|_| finding("SK013", 2, None)));
        let line = biggest_rule(&diagnostics, sources, catalog()).expect("many findings");
        assert!(
            line.contains("`ignore = [\"SK013\"]` under [lint]"),
            "{line}"
        );
        assert_eq!(biggest_rule(&diagnostics[..5], sources, catalog()), None);
    }

    fn sources_of(paths: &[&str]) -> Vec<SourceFile> {
        paths
            .iter()
            .map(|p| SourceFile {
                rel_path: p.to_string(),
                abs_path: p.into(),
                text: String::new(),
            })
            .collect()
    }

    #[test]
    fn a_correctness_or_safety_rule_is_never_turned_off() {
        let files = sources_of(&["plugins/old/a/SKILL.md", "skills/c/SKILL.md"]);
        let sources = Sources::new(&files);
        for code in ["TR004", "SK008", "SK004"] {
            let diagnostics: Vec<Diagnostic> = (0..10).map(|_| finding(code, 0, None)).collect();
            let line = biggest_rule(&diagnostics, sources, catalog()).expect("ten findings");
            assert!(!line.contains("ignore"), "{line}");
            if code == "SK008" {
                assert!(line.contains("`dialect = \"claude-code\"`"), "{line}");
            } else {
                assert!(
                    line.contains(&format!("`skilllint rule {code}` says how to fix them; `--write-baseline FILE` records today's")),
                    "{line}"
                );
            }
        }
    }

    #[test]
    fn findings_in_generated_snapshots_are_fixed_where_they_come_from() {
        let files = sources_of(&[
            "__toolsnaps__/a.snap",
            "pkg/__toolsnaps__/b.snap",
            "x/tools.json",
        ]);
        let sources = Sources::new(&files);
        let fix = || Some(Fix::safe("f", Vec::new()));
        let mut diagnostics: Vec<Diagnostic> =
            (0..10).map(|i| finding("SC005", i % 2, fix())).collect();
        let line = biggest_rule(&diagnostics, sources, catalog()).expect("ten findings");
        assert!(
            line.contains("they are in tool snapshots your tests write (`__toolsnaps__/`): fix the tool definitions in the code"),
            "{line}"
        );
        assert!(!line.contains("--fix"), "{line}");
        // One outside the snapshots: the fix is the hint again.
        diagnostics.push(finding("SC005", 2, fix()));
        let line = biggest_rule(&diagnostics, sources, catalog()).expect("findings");
        assert!(
            line.contains("`skilllint --fix --select SC005` fixes them"),
            "{line}"
        );
    }
}
