//! DR005 `driver-kind-forbidden`: A driver's kind is refused by the driver constraints of a
//! tool it implements.

use crate::check::{Sink, Unit};
use crate::model::contract::Contract;
use crate::parse::node::{Member, Node};

/// A TOOL.md's `driver_constraints.<key>` list, as (kind, span) pairs.
fn constraint_list<'a>(contract: &Contract<'a>, key: &str) -> Option<(&'a Member, Vec<&'a Node>)> {
    let member = contract.get("driver_constraints")?.member(key)?;
    let items = member.value.as_array()?.iter().collect();
    Some((member, items))
}

pub(super) fn driver_kind_forbidden(unit: &Unit<'_>, sink: &mut Sink) {
    for (driver, bindings) in unit.driver_bindings() {
        let Some(kind) = driver.kind() else {
            continue;
        };
        for binding in bindings {
            let name = binding.contract.name(binding.reference);
            if let Some((_, forbid)) = constraint_list(&binding.contract, "forbid") {
                if let Some(item) = forbid.iter().find(|n| n.as_str() == Some(kind)) {
                    sink.report(
                        driver.file,
                        driver.kind_span(),
                        format!("`{name}` forbids `{kind}` drivers"),
                    )
                    .label(format!("kind `{kind}`"))
                    .secondary(
                        binding.contract.file,
                        item.span,
                        format!("the contract refuses `{kind}`"),
                    )
                    .help("implement the tool with a kind the contract allows, or drop this `implements` entry");
                    continue;
                }
            }
            if let Some((member, allowed)) = constraint_list(&binding.contract, "require_kind") {
                let kinds: Vec<&str> = allowed.iter().filter_map(|n| n.as_str()).collect();
                if !kinds.is_empty() && !kinds.contains(&kind) {
                    let list = kinds
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    sink.report(
                        driver.file,
                        driver.kind_span(),
                        format!("`{name}` only accepts {list} drivers, not `{kind}`"),
                    )
                    .label(format!("kind `{kind}`"))
                    .secondary(
                        binding.contract.file,
                        member.key_span,
                        format!("the contract requires {list}"),
                    )
                    .help("implement the tool with one of the required kinds, or drop this `implements` entry");
                }
            }
        }
    }
}
