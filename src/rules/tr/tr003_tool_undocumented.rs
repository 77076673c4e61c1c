//! TR003 `tool-undocumented`: A tool defined in tools.json is not mentioned in the Tool Use
//! Rules section.

use super::{
    documentable, named_tools, no_section_label, start_of_file, tool_items,
    unreported_missing_section, RulesSection, Slot,
};
use crate::check::{Sink, Unit};
use crate::diagnostic::Fix;
use crate::model::tools::Tool;
use crate::rules::util::contains_word;

pub(super) fn tool_undocumented(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        if let Some(skill) = unreported_missing_section(unit) {
            let heading = &unit.settings().tool_use_rules_heading;
            for (file, tool, name) in named_tools(unit) {
                sink.report(
                    file,
                    tool.span(),
                    format!(
                        "tool `{name}` is not mentioned in a \"{heading}\" section: `{}` has none",
                        unit.repo.file_name(skill)
                    ),
                )
                .label("defined here, never mentioned in the rules")
                .secondary(
                    skill,
                    start_of_file(unit.text(skill)),
                    no_section_label(unit),
                )
                .help(format!(
                    "add a \"{heading}\" section to SKILL.md with an item naming `{name}`, or \
                     remove the tool if the skill should not use it"
                ));
            }
        }
        return;
    };
    let body = &rules.doc.doc.body;
    let tools = named_tools(unit);
    // One fix documents every undocumented tool, in tools.json order: the items all go to the same
    // place, so one fix per tool would need one --fix pass per tool.
    let mut undocumented: Vec<(&Tool, &str)> = Vec::new();
    for (_, tool, name) in &tools {
        if documentable(name)
            && !rules.any_item(name, |_| true)
            && !undocumented.iter().any(|(_, n)| n == name)
        {
            undocumented.push((tool, name));
        }
    }
    let items: Vec<String> = undocumented
        .iter()
        .flat_map(|(tool, name)| tool_items(tool, name))
        .collect();
    let edit = if items.is_empty() {
        None
    } else {
        rules.insert_items(&items, Slot::BeforeClosing)
    };
    for (file, tool, name) in tools {
        if rules.any_item(name, |_| true) {
            continue;
        }
        let mentioned_elsewhere = body
            .blocks
            .iter()
            .filter(|b| !rules.section.content.contains(b.span.start))
            .any(|b| contains_word(&b.text, name));
        let help = if mentioned_elsewhere {
            format!(
                "`{name}` is only mentioned outside the section; add an item for it under \"{}\" \
                 that says how and when to call it",
                rules.heading_text()
            )
        } else {
            format!(
                "add an item naming `{name}` to the \"{}\" section of SKILL.md, or remove the tool \
                 if the skill should not use it",
                rules.heading_text()
            )
        };
        let diagnostic = sink
            .report(
                file,
                tool.span(),
                format!(
                    "tool `{name}` is not mentioned in the \"{}\" section",
                    rules.heading_text()
                ),
            )
            .label("defined here, never mentioned in the rules")
            .secondary(
                rules.file,
                rules.heading_span(),
                format!("no item of this section names `{name}`"),
            )
            .help(help);
        if let Some(edit) = edit.as_ref().filter(|_| documentable(name)) {
            let description = match undocumented.len() {
                1 => format!("add an item for `{name}`"),
                2 => format!("add items for `{name}` and the other undocumented tool"),
                n => format!(
                    "add items for `{name}` and the {} other undocumented tools",
                    n - 1
                ),
            };
            diagnostic.fix(Fix::safe(description, vec![edit.clone()]));
        }
    }
}
