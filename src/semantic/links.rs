//! Tool ↔ contract links: which tools-file tool is bound to which TOOL.md. A tool is linked when
//! `[contracts.map]` maps its name to the contract's `id`, or when the two are equal once `.` and
//! `-` become `_` ([`link_key`]). The XC rules read these.

use crate::index::{link_key, UnitView};
use crate::model::contract::Contract;
use crate::model::tools::Tool;
use crate::source::FileId;

/// A tools.json tool and the TOOL.md contract it is linked to.
#[derive(Debug)]
pub(crate) struct Link<'a> {
    pub(crate) tools_file: FileId,
    pub(crate) tool: &'a Tool,
    /// Always with its frontmatter: a TOOL.md without one links nothing.
    pub(crate) contract: Contract<'a>,
    pub(crate) id: &'a str,
}

impl Link<'_> {
    pub(crate) fn name(&self) -> String {
        self.tool.display_name()
    }
}

/// The unit's linked (tool, contract) pairs, in file and entry order.
pub(crate) fn find_links<'a>(unit: &UnitView<'a>) -> Vec<Link<'a>> {
    let repo = unit.repo;
    let contracts = &repo.contracts;
    let mut out = Vec::new();
    for (tools_file, doc) in unit.tools_docs() {
        for tool in &doc.tools {
            let Some(name) = tool.name() else {
                continue;
            };
            let id = match repo.settings.contract_map.get(name) {
                Some(mapped) => mapped.as_str(),
                None => match contracts.tools_by_link_key.get(link_key(name).as_ref()) {
                    Some(id) => id.as_str(),
                    None => continue,
                },
            };
            let Some((id, files)) = contracts.tools_by_id.get_key_value(id) else {
                continue;
            };
            // A contract without valid frontmatter links nothing.
            let Some(&contract_file) = files.first() else {
                continue;
            };
            let contract = Contract::new(contract_file, repo.contract(contract_file));
            if contract.fm.is_none() {
                continue;
            }
            out.push(Link {
                tools_file,
                tool,
                contract,
                id: id.as_str(),
            });
        }
    }
    out
}
