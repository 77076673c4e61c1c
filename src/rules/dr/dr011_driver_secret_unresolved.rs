//! DR011 `driver-secret-unresolved`: A driver's auth.ref names no SECRETS.md and no declared
//! secret slug.

use crate::check::{Sink, Unit};
use crate::index::{Parsed, Repo};
use crate::rules::util::nearest;
use crate::semantic::bindings::{drivers, folder_of};
use crate::source::FileId;
use crate::source::{join_path, normalize_path};

/// Whether `reference` is the path of a SECRETS.md in the run (relative to the lint root or to the
/// driver's folder; a folder stands for the SECRETS.md inside it).
fn secrets_file(repo: &Repo, driver_file: FileId, reference: &str) -> bool {
    let bases = ["", folder_of(repo, driver_file)];
    bases.iter().any(|base| {
        let Some(path) = normalize_path(&join_path(base, reference)) else {
            return false;
        };
        let file = if path == "SECRETS.md" || path.ends_with("/SECRETS.md") {
            path
        } else if path.is_empty() {
            "SECRETS.md".to_string()
        } else {
            format!("{path}/SECRETS.md")
        };
        repo.file_by_path(&file)
            .is_some_and(|id| matches!(repo.parsed(id), Parsed::Secrets(_)))
    })
}

pub(super) fn driver_secret_unresolved(unit: &Unit<'_>, sink: &mut Sink) {
    let repo = unit.repo;
    for driver in drivers(unit) {
        let Some(reference_node) = driver.fm.root.get("auth").and_then(|a| a.get("ref")) else {
            continue;
        };
        let Some(reference) = reference_node.as_str() else {
            continue;
        };
        let slugs = &repo.contracts.secret_slugs;
        if slugs.contains_key(reference.trim()) || secrets_file(repo, driver.file, reference) {
            continue;
        }
        let looks_like_path = reference.contains('/') || reference.ends_with(".md");
        let message = if looks_like_path {
            format!("`auth.ref` points at `{reference}`, where there is no SECRETS.md")
        } else {
            format!("`auth.ref` names `{reference}`, which no SECRETS.md declares")
        };
        let diagnostic = sink
            .report(driver.file, reference_node.span, message)
            .label("unresolved secret reference");
        match nearest(reference, slugs.keys().map(String::as_str)) {
            Some(near) => {
                if let Some((file, span)) = slugs.get(near).and_then(|d| d.first()) {
                    diagnostic.secondary(*file, *span, format!("did you mean `{near}`?"));
                }
                diagnostic.help(format!("use the declared slug `{near}`"));
            }
            None if slugs.is_empty() => {
                diagnostic.help("declare the driver's credentials in a SECRETS.md (AIP-19) and point `auth.ref` at it or at one of its slugs");
            }
            None => {
                diagnostic.help("point `auth.ref` at a SECRETS.md (a path relative to the repository root or to this driver) or at one of its slugs");
            }
        }
    }
}
