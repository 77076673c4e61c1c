//! DR003 `driver-tool-unresolved`: An implements entry names a tool that no TOOL.md in the
//! repository defines.

use crate::check::{Sink, Unit};
use crate::model::contract::Contract;
use crate::rules::util::nearest;
use crate::semantic::bindings::{contract_candidates, drivers};

pub(super) fn driver_tool_unresolved(unit: &Unit<'_>, sink: &mut Sink) {
    let repo = unit.repo;
    for driver in drivers(unit) {
        for entry in driver.implements() {
            let Some(tool) = entry.get("tool") else {
                continue;
            };
            let Some(reference) = tool.as_str() else {
                continue;
            };
            if !contract_candidates(repo, driver.file, reference).is_empty() {
                continue;
            }
            let diagnostic = sink
                .report(
                    driver.file,
                    tool.span,
                    format!("`{reference}` resolves to no TOOL.md"),
                )
                .label("no TOOL.md at this path or with this id");
            // Suggest a contract whose id or folder is close to the last segment of the reference.
            let wanted = reference
                .trim_end_matches('/')
                .trim_end_matches("TOOL.md")
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or(reference);
            let ids = repo.contracts.tools_by_id.keys().map(String::as_str);
            let suggestion = nearest(wanted, ids).and_then(|id| {
                let file = *repo.contracts.tools_by_id.get(id)?.first()?;
                Some((id, file))
            });
            match suggestion {
                Some((id, file)) => {
                    let contract = Contract::new(file, repo.contract(file));
                    diagnostic
                        .secondary(file, contract.anchor(), format!("did you mean `{id}`?"))
                        .help(format!(
                            "use the tool id `{id}`, or the path of its TOOL.md (`{}`)",
                            repo.file(file).rel_path
                        ));
                }
                None if repo.contracts.tools_by_id.is_empty() => {
                    diagnostic.help("the linted tree has no TOOL.md; add the contract under `.tools/<id>/TOOL.md`, or lint the repository root");
                }
                None => {
                    diagnostic.help("name a tool `id`, or the path of a TOOL.md (or its folder) relative to the repository root");
                }
            }
        }
    }
}
