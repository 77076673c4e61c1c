//! TM005 `auto-approval-with-mutations`: A tool that mutates resources is approved
//! automatically.

use super::{contract_with_frontmatter, line_start_of_key};
use crate::check::{Sink, Unit};
use crate::diagnostic::{Applicability, Edit, Fix};
use crate::edit::newline;
use crate::parse::Node;
use crate::source::Span;

pub(super) fn auto_approval_with_mutations(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(mutates) = fm.root.member("mutates") else {
        return;
    };
    let Some(items) = mutates.value.as_array().filter(|items| !items.is_empty()) else {
        return;
    };
    let mutated = match (items.first().and_then(Node::as_str), items.len()) {
        (Some(first), 1) => format!("mutates `{first}`"),
        (Some(first), n) => format!("mutates `{first}` and {} more", n - 1),
        (None, _) => "mutates resources".to_string(),
    };
    let help = "write `approval: on-mutate` explicitly (or `always`, or `policy:<ref>`) so a person approves each change";
    match fm.root.get("approval") {
        Some(approval) if approval.as_str() == Some("auto") => {
            sink.report(
                file,
                approval.span,
                "`approval: auto` lets a tool that mutates resources run without a prompt",
            )
            .label("no approval for a mutating tool")
            .secondary(file, mutates.value.span, mutated)
            .help(help)
            .fix(Fix {
                applicability: Applicability::Safe,
                description: "set `approval: on-mutate`".to_string(),
                edits: vec![Edit {
                    file,
                    span: approval.span,
                    replacement: "on-mutate".to_string(),
                }],
                rename_to: None,
            });
        }
        Some(_) => {}
        None => {
            let diagnostic = sink.report(
                file,
                mutates.key_span,
                "tool mutates resources but `approval` defaults to `auto`",
            );
            diagnostic
                .label("mutating tool without an `approval` class")
                .help(help);
            let text = unit.text(file);
            if let Some(at) = line_start_of_key(text, mutates.key_span) {
                diagnostic.fix(Fix {
                    applicability: Applicability::Safe,
                    description: "add `approval: on-mutate`".to_string(),
                    edits: vec![Edit {
                        file,
                        span: Span::empty(at),
                        replacement: format!("approval: on-mutate{}", newline(text)),
                    }],
                    rename_to: None,
                });
            }
        }
    }
}
