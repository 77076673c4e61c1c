//! XC003 `idempotency-contradicts-contract`: A tool's idempotency differs from its TOOL.md
//! contract's.

use crate::check::{Sink, Unit};
use crate::model::tools::Dialect;

pub(super) fn idempotency_contradicts_contract(unit: &Unit<'_>, sink: &mut Sink) {
    for link in unit.tool_links() {
        let Some((tool_says, span)) = link.tool.idempotent else {
            continue;
        };
        let declared = link.contract.get("idempotent");
        let (contract_says, contract_span, contract_label) =
            match declared.and_then(|n| n.as_bool().map(|b| (b, n))) {
                Some((b, node)) => (b, node.span, format!("the contract says `idempotent: {b}`")),
                // A mistyped value is the contract schema's problem (TM002).
                None if declared.is_some() => continue,
                None => (
                    false,
                    link.contract.anchor(),
                    "the contract leaves `idempotent` at its default, `false`".to_string(),
                ),
            };
        if tool_says == contract_says {
            continue;
        }
        let key = if link.tool.dialect == Dialect::Mcp {
            "idempotentHint"
        } else {
            "idempotent"
        };
        let help = if tool_says {
            "a retry of a tool the contract does not call idempotent may apply the change twice: make the contract `idempotent: true` if retries are really safe, or set the tool's flag to `false`"
        } else {
            "the contract promises safe retries: make the tool idempotent (forge: `\"idempotent\": true` with a required `idempotency_key`), or correct the contract"
        };
        sink.report(
            link.tools_file,
            span,
            format!(
                "tool `{}` declares `{key}: {tool_says}` but its contract `{}` is {}idempotent",
                link.name(),
                link.id,
                if contract_says { "" } else { "not " }
            ),
        )
        .label("disagrees with the contract")
        .secondary(link.contract.file, contract_span, contract_label)
        .help(help);
    }
}
