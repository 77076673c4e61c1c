//! TR007 `write-closing-rule-missing`: The Tool Use Rules section lacks the closing rule that
//! writes need explicit confirmation.

use super::{
    is_closing_item, named_tools, no_section_label, start_of_file, unreported_missing_section,
    RulesSection, Slot, CLOSING_ITEM,
};
use crate::check::{Sink, Unit};
use crate::diagnostic::Fix;

pub(super) fn write_closing_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let tools = named_tools(unit);
    let Some((file, tool, name)) = tools.iter().find(|(_, tool, _)| tool.is_write()) else {
        return;
    };
    let write_span = tool.side_effect_span.unwrap_or_else(|| tool.span());
    let Some(rules) = RulesSection::of(unit) else {
        if let Some(skill) = unreported_missing_section(unit) {
            let heading = &unit.settings().tool_use_rules_heading;
            sink.report(
                skill,
                start_of_file(unit.text(skill)),
                format!(
                    "no rule says that write operations need explicit confirmation: `{}` has no \
                     \"{heading}\" section",
                    unit.repo.file_name(skill)
                ),
            )
            .label(no_section_label(unit))
            .secondary(*file, write_span, format!("`{name}` is a write tool"))
            .help(format!(
                "add a \"{heading}\" section that ends with \"{CLOSING_ITEM}\""
            ));
        }
        return;
    };
    let has_closing_rule = rules.items.iter().any(|item| is_closing_item(item));
    if has_closing_rule {
        return;
    }
    let diagnostic = sink
        .report(
            rules.file,
            rules.heading_span(),
            format!(
                "the \"{}\" section lacks the rule that write operations need explicit confirmation",
                rules.heading_text()
            ),
        )
        .label("no closing rule for write operations")
        .secondary(*file, write_span, format!("`{name}` is a write tool"))
        .help(
            "end the section with \"Never execute a write operation without explicit confirmation \
             in the current conversation.\"",
        );
    if let Some(edit) = rules.insert_items(&[CLOSING_ITEM.to_string()], Slot::End) {
        diagnostic.fix(Fix::safe(
            "append the closing rule for write operations as the last item",
            vec![edit],
        ));
    }
}
