//! Driver bindings: each DRIVER.md / CLI.md of a unit with the TOOL.md contracts its
//! `implements[]` entries resolve to, by id or by path, the entry's semver range choosing among
//! major versions. The DR rules read these. The views of one TOOL.md and of one driver file are
//! [`Contract`] and [`Driver`] in `model`; what is here crosses files.

use crate::index::{Parsed, Repo, UnitView};
use crate::model::contract::Contract;
use crate::model::driver::Driver;
use crate::parse::node::Node;
use crate::source::{join_path, normalize_path, parent_dir, FileId};
use semver::{Version, VersionReq};

/// The folder of a file relative to the lint root (`""` at the root).
pub(crate) fn folder_of(repo: &Repo, id: FileId) -> &str {
    parent_dir(&repo.file(id).rel_path)
}

pub(crate) fn drivers<'a>(unit: &UnitView<'a>) -> Vec<Driver<'a>> {
    unit.files
        .drivers
        .iter()
        .filter_map(|id| match unit.parsed(*id) {
            Parsed::Driver { doc, cli } => Driver::new(*id, doc, *cli),
            _ => None,
        })
        .collect()
}

/// The repository paths a `tool:` reference may mean: relative to the lint root (the AIP's
/// "workspace-relative") or to the driver's own folder, naming the TOOL.md or its folder.
pub(crate) fn candidate_paths(base_dirs: &[&str], reference: &str) -> Vec<String> {
    let mut out = Vec::new();
    let reference = reference.trim();
    if reference.is_empty() || reference.contains("://") {
        return out;
    }
    for base in base_dirs {
        let Some(path) = normalize_path(&join_path(base, reference)) else {
            continue;
        };
        if path.is_empty() {
            continue;
        }
        let file = if path == "TOOL.md" || path.ends_with("/TOOL.md") {
            path
        } else {
            format!("{path}/TOOL.md")
        };
        if !out.contains(&file) {
            out.push(file);
        }
    }
    out
}

/// Every TOOL.md a reference may name: by id, then by path (lint root first, then the driver's
/// folder). Several files share an id when they are different major versions.
pub(crate) fn contract_candidates(
    repo: &Repo,
    driver_file: FileId,
    reference: &str,
) -> Vec<FileId> {
    let mut found: Vec<FileId> = repo
        .contracts
        .tools_by_id
        .get(reference.trim())
        .cloned()
        .unwrap_or_default();
    let bases = ["", folder_of(repo, driver_file)];
    for path in candidate_paths(&bases, reference) {
        if let Some(id) = repo.file_by_path(&path) {
            if matches!(repo.parsed(id), Parsed::Contract(_)) && !found.contains(&id) {
                found.push(id);
            }
        }
    }
    found
}

/// The TOOL.md an entry binds to: among the candidates, the first whose version the entry's range
/// admits, else the first one.
fn resolve<'a>(repo: &'a Repo, driver_file: FileId, entry: &Node) -> Option<Contract<'a>> {
    let reference = entry.get("tool")?.as_str()?;
    let candidates = contract_candidates(repo, driver_file, reference);
    let contract = |id: FileId| repo.contract_view(id);
    let range = entry
        .get("version")
        .and_then(Node::as_str)
        .and_then(parse_range);
    if let Some(range) = &range {
        let admitted = candidates.iter().copied().find(|id| {
            contract(*id)
                .version()
                .is_some_and(|v| range_admits(range, &v))
        });
        if let Some(id) = admitted {
            return Some(contract(id));
        }
    }
    candidates.first().map(|id| contract(*id))
}

/// One `implements[]` entry with the contract it resolved to.
#[derive(Debug)]
pub(crate) struct Binding<'a> {
    pub(crate) entry: &'a Node,
    pub(crate) reference: &'a str,
    pub(crate) contract: Contract<'a>,
}

/// A driver of the unit with the bindings of its `implements[]` entries.
pub(crate) type DriverBindings<'a> = (Driver<'a>, Vec<Binding<'a>>);

/// The unit's drivers, each with its resolved bindings (entries that resolve to no TOOL.md, or
/// have no string `tool`, are left out: DR003 and DR002 report those).
pub(crate) fn resolve_bindings<'a>(unit: &UnitView<'a>) -> Vec<DriverBindings<'a>> {
    drivers(unit)
        .into_iter()
        .map(|driver| {
            let resolved = driver
                .implements()
                .iter()
                .filter_map(|entry| {
                    let reference = entry.get("tool")?.as_str()?;
                    let contract = resolve(unit.repo, driver.file, entry)?;
                    Some(Binding {
                        entry,
                        reference,
                        contract,
                    })
                })
                .collect();
            (driver, resolved)
        })
        .collect()
}

/// Parses an npm-style semver range into alternatives (`||`), each a `semver` requirement.
/// Accepts space-separated comparators (`>=1.2 <2`), hyphen ranges (`1.0.0 - 2.0.0`) and a leading
/// `v` on versions.
pub(crate) fn parse_range(text: &str) -> Option<Vec<VersionReq>> {
    let mut alternatives = Vec::new();
    for alternative in text.split("||") {
        let alternative = alternative.trim();
        let normalized = if alternative.is_empty() {
            "*".to_string()
        } else if let Some((low, high)) = alternative.split_once(" - ") {
            format!(">={}, <={}", low.trim(), high.trim())
        } else {
            // Glue operators to their versions (`>= 1.2` → `>=1.2`), then join with commas.
            let mut comparators: Vec<String> = Vec::new();
            let mut pending = String::new();
            for token in alternative.split([' ', ',']).filter(|t| !t.is_empty()) {
                if token
                    .chars()
                    .all(|c| matches!(c, '<' | '>' | '=' | '~' | '^'))
                {
                    pending.push_str(token);
                } else {
                    comparators.push(format!("{pending}{token}"));
                    pending.clear();
                }
            }
            if !pending.is_empty() {
                return None;
            }
            comparators.join(", ")
        };
        let without_v: String = normalized
            .split(", ")
            .map(|c| {
                let op_len = c.len() - c.trim_start_matches(['<', '>', '=', '~', '^']).len();
                let (op, rest) = c.split_at(op_len);
                format!("{op}{}", rest.strip_prefix(['v', 'V']).unwrap_or(rest))
            })
            .collect::<Vec<_>>()
            .join(", ");
        alternatives.push(VersionReq::parse(&without_v).ok()?);
    }
    Some(alternatives)
}

pub(crate) fn range_admits(range: &[VersionReq], version: &Version) -> bool {
    range.iter().any(|req| req.matches(version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_accept_npm_forms() {
        let v = Version::parse("1.4.0").expect("version");
        for ok in [
            "^1.0.0",
            "~1.4",
            ">=1.2 <2",
            ">= 1.2, < 2",
            "1.x",
            "*",
            "1.0.0 - 2.0.0",
            "^0.9 || ^1",
            "v1.4.0",
        ] {
            let range = parse_range(ok).unwrap_or_else(|| panic!("{ok} parses"));
            assert!(range_admits(&range, &v), "{ok} admits 1.4.0");
        }
        for no in ["^2.0.0", "~1.3", "<1.4.0"] {
            let range = parse_range(no).expect("parses");
            assert!(!range_admits(&range, &v), "{no} excludes 1.4.0");
        }
        assert!(parse_range("latest").is_none());
        assert!(parse_range(">=").is_none());
    }
}
