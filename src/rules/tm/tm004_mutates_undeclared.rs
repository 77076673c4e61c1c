//! TM004 `mutates-undeclared`: The tool contract does not declare what it mutates.

use super::{contract_with_frontmatter, line_start_of_key};
use crate::check::{Sink, Unit};
use crate::diagnostic::{Applicability, Edit, Fix};
use crate::edit::newline;
use crate::source::Span;

pub(super) fn mutates_undeclared(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    if fm.root.member("mutates").is_some() {
        return;
    }
    let diagnostic = sink.report(file, fm.opening, "tool contract does not declare `mutates`");
    diagnostic
        .label("frontmatter without `mutates`")
        .help("list the resources the tool may change as `<class>:<scope>`; a read-only tool has `mutates: []`");
    // Insert after `version` (else before the first key), when that key starts its own line.
    let members = fm.root.as_object().unwrap_or_default();
    let anchor = members
        .iter()
        .position(|m| m.key == "version")
        .and_then(|i| members.get(i + 1))
        .or_else(|| members.first());
    let text = unit.text(file);
    if let Some(at) = anchor.and_then(|m| line_start_of_key(text, m.key_span)) {
        diagnostic.fix(Fix {
            applicability: Applicability::Unsafe,
            description: "declare `mutates: []` (asserts the tool changes nothing)".to_string(),
            edits: vec![Edit {
                file,
                span: Span::empty(at),
                replacement: format!("mutates: []{}", newline(text)),
            }],
            rename_to: None,
        });
    }
}
