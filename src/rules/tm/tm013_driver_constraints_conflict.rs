//! TM013 `driver-constraints-conflict`: A driver kind is both required and forbidden.

use super::contract_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::parse::Node;

pub(super) fn driver_constraints_conflict(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(constraints) = fm.root.get("driver_constraints") else {
        return;
    };
    let forbid = constraints
        .get("forbid")
        .and_then(Node::as_array)
        .unwrap_or_default();
    let required = constraints
        .get("require_kind")
        .and_then(Node::as_array)
        .unwrap_or_default();
    for kind in required {
        let Some(name) = kind.as_str() else {
            continue;
        };
        let Some(forbidden) = forbid.iter().find(|f| f.as_str() == Some(name)) else {
            continue;
        };
        sink.report(
            file,
            kind.span,
            format!("driver kind `{name}` is both required and forbidden"),
        )
        .label("required here")
        .secondary(file, forbidden.span, "forbidden here")
        .help("remove the kind from one of `require_kind` and `forbid`; no driver of that kind can satisfy both");
    }
}
