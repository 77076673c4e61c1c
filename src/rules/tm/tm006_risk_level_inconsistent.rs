//! TM006 `risk-level-inconsistent`: The risk level contradicts the declared mutations or the
//! approval class.

use super::contract_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::parse::{Node, Value};

pub(super) fn risk_level_inconsistent(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(risk) = fm.root.get("risk_level") else {
        return;
    };
    // Only a well-formed level is compared; anything else is TM002's finding.
    let Some(level) = risk.as_f64().filter(|l| {
        matches!(&risk.value, Value::Number(n) if n.integer) && (0.0..=3.0).contains(l)
    }) else {
        return;
    };
    let mutates = fm.root.member("mutates");
    let mutation_count = mutates.and_then(|m| m.value.as_array()).map(<[Node]>::len);
    if level == 0.0 {
        if let (Some(count), Some(member)) = (mutation_count, mutates) {
            if count > 0 {
                sink.report(
                    file,
                    risk.span,
                    "`risk_level: 0` (read-only) on a tool that mutates resources",
                )
                .label("declared read-only")
                .secondary(file, member.value.span, "but it mutates these")
                .help("raise `risk_level` to 1 (scoped writes), 2 (external side effects) or 3 (irreversible)");
            }
        }
    } else if level >= 1.0 && mutation_count == Some(0) {
        if let Some(member) = mutates {
            sink.report(
                file,
                risk.span,
                format!("`risk_level: {}` on a tool that declares `mutates: []`", risk_text(risk)),
            )
            .label("declares side effects")
            .secondary(file, member.value.span, "but it mutates nothing")
            .help("list what the tool changes in `mutates`, or set `risk_level: 0` for a read-only tool");
        }
    }
    if level == 3.0 {
        let approval = fm.root.get("approval");
        let gated = approval
            .and_then(Node::as_str)
            .is_some_and(|a| a == "always" || a.starts_with("policy:"));
        if !gated {
            let diagnostic = sink.report(
                file,
                risk.span,
                "`risk_level: 3` (irreversible) without `approval: always` or a policy",
            );
            diagnostic.label("irreversible");
            if let Some(approval) = approval {
                diagnostic.secondary(file, approval.span, "approval class here");
            }
            diagnostic.help(
                "set `approval: always` (or `policy:<ref>`) so every irreversible call is approved",
            );
        }
    }
}

fn risk_text(node: &Node) -> String {
    match &node.value {
        Value::Number(n) => n.raw.clone(),
        _ => String::new(),
    }
}
