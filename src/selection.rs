//! Which rules run and where they report: `select` / `ignore` selectors (codes, code prefixes,
//! names, families, categories, `ALL`) and `per-file-ignores` resolved against the rule catalog.
//! A reading of the catalog, below the index (which holds a run's [`Reporting`] so that a rule
//! can ask whether another reports) and below config (which validates selectors); triage applies
//! it to the findings.

use crate::catalog::{Catalog, Category, RuleMeta};
use crate::diagnostic::Severity;
use crate::discover::GlobFilter;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What runs when nothing is selected: every category but pedantic.
pub const DEFAULT_SELECT: [&str; 3] = ["correctness", "safety", "style"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enabled {
    codes: BTreeSet<&'static str>,
}

impl Enabled {
    pub fn contains(&self, code: &str) -> bool {
        self.codes.contains(code)
    }

    pub fn codes(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.codes.iter().copied()
    }

    /// Adds the rules `other` enables.
    pub fn extend(&mut self, other: &Enabled) {
        self.codes.extend(other.codes.iter().copied());
    }
}

/// Which rules report in which files: the enabled rules, less those `per-file-ignores` silences
/// in a file. A rule that leaves a finding to another rule asks this first, so that the finding
/// is not lost when the other rule is off.
#[derive(Debug, Clone)]
pub struct Reporting {
    enabled: Enabled,
    /// Each `per-file-ignores` glob with the rules it silences.
    per_file_ignores: Vec<(GlobFilter, Enabled)>,
    /// Severity overrides by rule code.
    severity: BTreeMap<&'static str, Severity>,
    /// The folders below the root with a configuration file of their own, deepest first, each
    /// with what that configuration reports: it decides for every file below it, as the nearest
    /// `pyproject.toml` decides for ruff.
    scoped: Vec<(String, Reporting)>,
}

impl Reporting {
    pub fn new(enabled: Enabled, per_file_ignores: Vec<(GlobFilter, Enabled)>) -> Self {
        Reporting {
            enabled,
            per_file_ignores,
            severity: BTreeMap::new(),
            scoped: Vec::new(),
        }
    }

    /// With these severity overrides.
    pub fn with_severity(mut self, severity: BTreeMap<&'static str, Severity>) -> Self {
        self.severity = severity;
        self
    }

    /// With the reporting of each configuration in a folder below the root (the folder relative
    /// to the root), deciding for the files below it.
    pub fn with_folders(mut self, mut scoped: Vec<(String, Reporting)>) -> Self {
        crate::source::deepest_first(&mut scoped);
        self.scoped = scoped;
        self
    }

    /// The reporting that decides for `rel_path`: its nearest folder's with a configuration of
    /// its own, else the run's.
    fn governing(&self, rel_path: &str) -> &Reporting {
        crate::source::nearest(&self.scoped, rel_path).unwrap_or(self)
    }

    /// Whether `per-file-ignores` silences `code` in `rel_path` (relative to the lint root).
    pub fn is_ignored_in(&self, code: &str, rel_path: &str) -> bool {
        self.governing(rel_path)
            .per_file_ignores
            .iter()
            .any(|(filter, codes)| codes.contains(code) && filter.matches(rel_path))
    }

    /// Whether a finding of `code` whose primary location is in `rel_path` is reported: the rule
    /// is selected, not ignored, and not silenced there by `per-file-ignores`. Inline suppression
    /// comments are not consulted: a suppressed finding was reported and deliberately silenced.
    pub fn reports(&self, code: &str, rel_path: &str) -> bool {
        self.governing(rel_path).enabled.contains(code) && !self.is_ignored_in(code, rel_path)
    }

    /// Whether the configuration that decides for `rel_path` enables `code`.
    pub fn enables(&self, code: &str, rel_path: &str) -> bool {
        self.governing(rel_path).enabled.contains(code)
    }

    /// The severity configured for `code` in `rel_path`, if one is.
    pub fn severity(&self, code: &str, rel_path: &str) -> Option<Severity> {
        self.governing(rel_path).severity.get(code).copied()
    }
}

/// Whether `selector` names `meta`. Every form is case-insensitive, as codes always were:
/// `tj003`, `TJ`, `Write-Tool-Without-Confirmation`, `Safety`, `all`.
fn matches(selector: &str, meta: &RuleMeta) -> bool {
    let upper = selector.to_ascii_uppercase();
    upper == "ALL"
        || meta.code.starts_with(&upper) && upper.len() >= 2
        || meta.name.eq_ignore_ascii_case(selector)
        || Category::parse(&selector.to_ascii_lowercase()) == Some(meta.category)
}

/// Checks that a selector names something; returns it unchanged. An unknown one is an error
/// that suggests the nearest code, name, family or category.
pub fn validate_selector<'a>(catalog: &Catalog, selector: &'a str) -> Result<&'a str, String> {
    if catalog.rules.iter().any(|meta| matches(selector, meta)) {
        return Ok(selector);
    }
    let hint = match suggest(catalog, selector) {
        Some(near) => format!("; did you mean `{near}`?"),
        None => {
            " (expected a code such as TJ003, a prefix such as TJ, a rule name, a category, or ALL)"
                .to_string()
        }
    };
    Err(format!(
        "unknown rule selector `{}`{hint}",
        crate::escape::escape_text(selector)
    ))
}

/// The selector nearest to `selector` (case-insensitive) among the catalog's codes, names,
/// families and the categories, when it is close enough to be a typo.
pub fn suggest(catalog: &Catalog, selector: &str) -> Option<String> {
    let wanted = selector.to_ascii_lowercase();
    let limit = (wanted.chars().count() / 3).clamp(1, 3);
    let categories = ["correctness", "safety", "style", "pedantic"];
    let mut best: Option<(usize, String)> = None;
    let candidates = catalog
        .rules
        .iter()
        .flat_map(|m| [m.code.to_string(), m.name.clone(), m.family.to_string()])
        .chain(categories.iter().map(|c| c.to_string()));
    for candidate in candidates {
        let lower = candidate.to_ascii_lowercase();
        if lower.len().abs_diff(wanted.len()) > limit {
            continue;
        }
        let distance = crate::parse::words::edit_distance(&wanted, &lower);
        if distance <= limit
            && best
                .as_ref()
                .is_none_or(|(d, c)| (distance, &candidate) < (*d, c))
        {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Resolves selectors; an `ignore` wins over a `select`.
pub fn resolve(catalog: &Catalog, select: &[String], ignore: &[String]) -> Result<Enabled, String> {
    for selector in select.iter().chain(ignore) {
        validate_selector(catalog, selector)?;
    }
    let default: Vec<String> = DEFAULT_SELECT.iter().map(|s| s.to_string()).collect();
    let select = if select.is_empty() { &default } else { select };
    let codes = catalog
        .rules
        .iter()
        .filter(|meta| select.iter().any(|s| matches(s, meta)))
        .filter(|meta| !ignore.iter().any(|s| matches(s, meta)))
        .map(|meta| meta.code)
        .collect();
    Ok(Enabled { codes })
}

/// The enabled rules with the `per-file-ignores` globs compiled (relative to `base`); `Err`
/// carries the message of a bad glob or selector.
pub(crate) fn reporting(
    catalog: &Catalog,
    enabled: &Enabled,
    base: &Path,
    root: &Path,
    ignores: &[(String, Vec<String>)],
) -> Result<Reporting, String> {
    let mut filters = Vec::with_capacity(ignores.len());
    for (glob, selectors) in ignores {
        let filter = GlobFilter::new(base, root, std::slice::from_ref(glob))?;
        let codes = resolve(catalog, selectors, &[])?;
        filters.push((filter, codes));
    }
    Ok(Reporting::new(enabled.clone(), filters))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    fn enabled(select: &[&str], ignore: &[&str]) -> Enabled {
        let s: Vec<String> = select.iter().map(|s| s.to_string()).collect();
        let i: Vec<String> = ignore.iter().map(|s| s.to_string()).collect();
        resolve(catalog(), &s, &i).expect("valid selectors")
    }

    #[test]
    fn default_selection_leaves_out_pedantic() {
        let e = enabled(&[], &[]);
        assert!(e.contains("TJ003"));
        assert!(!e.contains("SK015"), "SK015 is pedantic");
    }

    #[test]
    fn selectors_by_code_prefix_name_family_category() {
        assert_eq!(
            enabled(&["TJ003"], &[]).codes().collect::<Vec<_>>(),
            ["TJ003"]
        );
        assert!(enabled(&["write-tool-without-confirmation"], &[]).contains("TJ003"));
        let family = enabled(&["TR"], &[]);
        assert!(family.contains("TR001") && !family.contains("TJ003"));
        let safety = enabled(&["safety"], &["TR"]);
        assert!(safety.contains("TJ003") && !safety.contains("TR001"));
        assert!(enabled(&["ALL"], &[]).contains("SK015"));
        assert!(enabled(&["tj003"], &[]).contains("TJ003"));
    }

    #[test]
    fn reporting_is_the_selection_less_the_per_file_ignores() {
        let dir = tempfile::tempdir().expect("temp dir");
        let filter =
            GlobFilter::new(dir.path(), dir.path(), &["legacy/**".to_string()]).expect("glob");
        let reporting = Reporting::new(
            enabled(&["TR"], &["TR001"]),
            vec![(filter, enabled(&["TR003"], &[]))],
        );
        assert!(reporting.reports("TR003", "skills/cal/tools.json"));
        assert!(!reporting.reports("TR003", "legacy/cal/tools.json"));
        assert!(reporting.reports("TR005", "legacy/cal/tools.json"));
        assert!(
            !reporting.reports("TR001", "skills/cal/SKILL.md"),
            "ignored"
        );
        assert!(
            !reporting.reports("SK003", "skills/cal/SKILL.md"),
            "not selected"
        );
    }

    #[test]
    fn names_and_categories_match_in_any_case() {
        assert!(enabled(&["Write-Tool-Without-Confirmation"], &[]).contains("TJ003"));
        let safety = enabled(&["SAFETY"], &["Tool-Use-Rules-Missing"]);
        assert!(safety.contains("TJ003") && !safety.contains("TR001"));
        assert_eq!(
            enabled(&["ALL"], &[]).codes().count(),
            enabled(&["all"], &[]).codes().count()
        );
        let found = catalog().find("SKILL-NAME-FOLDER-MISMATCH");
        assert_eq!(found.map(|m| m.code), Some("SK005"));
    }

    #[test]
    fn an_unknown_selector_suggests_the_nearest() {
        let message = |s: &str| validate_selector(catalog(), s).expect_err(s);
        assert!(
            message("TJ03").ends_with("did you mean `TJ003`?"),
            "{}",
            message("TJ03")
        );
        assert!(message("write-tool-without-confirmaton")
            .ends_with("did you mean `write-tool-without-confirmation`?"));
        assert!(message("saftey").ends_with("did you mean `safety`?"));
        assert!(message("qqqqqqqq").contains("expected a code such as TJ003"));
    }

    #[test]
    fn unknown_selectors_are_errors() {
        let bad = vec!["XX999".to_string()];
        assert!(resolve(catalog(), &bad, &[]).is_err());
        assert!(resolve(catalog(), &[], &["T".to_string()]).is_err());
    }
}
