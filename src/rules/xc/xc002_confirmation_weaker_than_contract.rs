//! XC002 `confirmation-weaker-than-contract`: A tool is not confirmation-gated although its
//! TOOL.md contract requires approval.

use crate::check::{Sink, Unit};
use crate::model::tools::{Dialect, Tool};
use crate::parse::Node;
use crate::semantic::links::Link;

const CONFIRMATION_FIELD: &str = "user_confirmed";

/// The contract's `approval` when it gates calls: `always`, `policy:<ref>`, or `on-mutate` with a
/// non-empty `mutates`.
fn gating_approval<'a>(link: &'a Link<'_>) -> Option<(&'a Node, String)> {
    let approval = link.contract.get("approval")?;
    let text = approval.as_str()?;
    let mutating = link
        .contract
        .get("mutates")
        .and_then(Node::as_array)
        .is_some_and(|m| !m.is_empty());
    let label = match text {
        "always" => "the contract always requires approval".to_string(),
        "on-mutate" if mutating => {
            "the contract requires approval because it mutates resources".to_string()
        }
        policy if policy.starts_with("policy:") => {
            format!("the contract defers approval to `{policy}`")
        }
        _ => return None,
    };
    Some((approval, label))
}

/// Whether calls to the tool go through a confirmation gate: the forge flag, or (dialects without
/// one) a required boolean `user_confirmed` parameter.
fn is_gated(tool: &Tool) -> bool {
    match tool.dialect {
        Dialect::Forge => tool.is_confirmation_gated(),
        _ => tool.has_required_property(CONFIRMATION_FIELD, "boolean"),
    }
}

pub(super) fn confirmation_weaker_than_contract(unit: &Unit<'_>, sink: &mut Sink) {
    for link in unit.tool_links() {
        let Some((approval, approval_label)) = gating_approval(link) else {
            continue;
        };
        let tool = link.tool;
        if is_gated(tool) {
            continue;
        }
        let (span, label, help) = match (tool.dialect, tool.confirmation) {
            (Dialect::Forge, Some((_, span))) => (
                span,
                "confirmation disabled here",
                "set `\"requiresConfirmation\": true` and add the required boolean `user_confirmed` parameter; tools.json may add gates to its contract but never drop them",
            ),
            (Dialect::Forge, None) => (
                tool.span(),
                "no `requiresConfirmation`",
                "set `\"requiresConfirmation\": true` and add the required boolean `user_confirmed` parameter; tools.json may add gates to its contract but never drop them",
            ),
            _ => (
                tool.span(),
                "no required boolean `user_confirmed`",
                "add a required boolean `user_confirmed` parameter and call the tool only after the user confirms; tools.json may add gates to its contract but never drop them",
            ),
        };
        sink.report(
            link.tools_file,
            span,
            format!(
                "tool `{}` is not confirmation-gated but its contract `{}` requires approval",
                link.name(),
                link.id
            ),
        )
        .label(label)
        .secondary(link.contract.file, approval.span, approval_label)
        .help(help);
    }
}
