//! TM008 `tool-id-duplicate`: Two TOOL.md files declare the same id and major version.

use crate::check::{RepoContext, Sink};
use crate::parse::Node;
use crate::source::{FileId, Span};
use std::collections::BTreeMap;

/// The major version of a `MAJOR.MINOR.PATCH` string, when it has one.
pub(super) fn major_version(version: &str) -> Option<u64> {
    version
        .split('.')
        .next()?
        .trim_start_matches('v')
        .parse()
        .ok()
}

pub(super) fn tool_id_duplicate(repo: &RepoContext<'_>, sink: &mut Sink) {
    for (id, files) in &repo.contracts.tools_by_id {
        if files.len() < 2 {
            continue;
        }
        let mut first_by_major: BTreeMap<Option<u64>, (FileId, Span)> = BTreeMap::new();
        let mut sorted = files.clone();
        sorted.sort();
        for file in sorted {
            let contract = repo.contract_view(file);
            let Some(id_node) = contract.get("id") else {
                continue;
            };
            let major = contract
                .get("version")
                .and_then(Node::as_str)
                .and_then(major_version);
            match first_by_major.get(&major) {
                Some((first_file, first_span)) => {
                    let version = major.map_or_else(
                        || "without a version".to_string(),
                        |m| format!("at major version {m}"),
                    );
                    sink.report(
                        file,
                        id_node.span,
                        format!("another TOOL.md also declares `id: {id}` {version}"),
                    )
                    .label("duplicate tool id")
                    .secondary(*first_file, *first_span, "first declared here")
                    .help("give each contract its own `id`, or bump `version` to a new major for a breaking revision");
                }
                None => {
                    first_by_major.insert(major, (file, id_node.span));
                }
            }
        }
    }
}
