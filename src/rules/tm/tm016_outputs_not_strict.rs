//! TM016 `outputs-not-strict`: The tool outputs declare properties but require none of them.

use super::contract_with_frontmatter;
use crate::check::{code, Sink, Unit};

pub(super) fn outputs_not_strict(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(outputs) = fm.root.get("outputs") else {
        return;
    };
    let Some(properties) = outputs.member("properties") else {
        return;
    };
    if properties.value.as_object().is_none_or(<[_]>::is_empty) {
        return;
    }
    let required = outputs.member("required");
    // A `required` that is not a list is a broken schema, which TM009 reports while it runs for
    // the file; otherwise it is read as what it does, requiring nothing.
    let not_a_list = required.is_some_and(|m| m.value.as_array().is_none());
    if not_a_list && unit.reports(code::TM009, file) {
        return;
    }
    if required
        .and_then(|m| m.value.as_array())
        .is_some_and(|items| !items.is_empty())
    {
        return;
    }
    let diagnostic = sink.report(
        file,
        properties.key_span,
        "`outputs` declares properties but requires none of them",
    );
    diagnostic.label("every property is optional");
    if let Some(member) = required {
        let label = if not_a_list {
            "`required` is not a list, so it requires nothing"
        } else {
            "empty `required`"
        };
        diagnostic.secondary(file, member.value.span, label);
    }
    diagnostic.help("list the keys every successful result carries in `outputs.required`, so callers can rely on them");
}
