//! TR001 `tool-use-rules-missing`: A skill with a tools.json has no Tool Use Rules section in
//! its SKILL.md.

use super::{
    document_bullet, documentable, item_text, named_tools, start_of_file, tool_items,
    tools_are_complete, tools_file_name, ALLOWLIST_ITEM, CLOSING_ITEM,
};
use crate::check::{Sink, Unit};
use crate::diagnostic::{Edit, Fix};
use crate::edit::{apply_edits, newline};
use crate::model::skill::SkillDoc;
use crate::model::tools::Tool;
use crate::parse::markdown::parse_markdown;
use crate::source::FileId;
use std::collections::HashSet;

pub(super) fn tool_use_rules_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, doc)) = unit.skill() else {
        return;
    };
    if !unit.has_tools_file() {
        return;
    }
    let heading = &unit.settings().tool_use_rules_heading;
    if doc.doc.body.section(heading).is_some() {
        return;
    }
    let skill_name = unit.repo.file_name(file);
    let tools_name = tools_file_name(unit);
    let diagnostic = sink
        .report(
            file,
            start_of_file(unit.text(file)),
            format!("`{skill_name}` has no \"{heading}\" section for the tools in `{tools_name}`"),
        )
        .label(format!("no \"{heading}\" section in this file"))
        .help(format!(
            "add a \"{heading}\" section with the allowlist rule, an item for each tool (with its \
             confirmation and idempotency rules) and, when a tool writes, the closing rule"
        ));
    let tools = named_tools(unit);
    if let Some((tools_file, tool, _)) = tools.first() {
        let count = tools.len();
        let noun = if count == 1 { "tool" } else { "tools" };
        diagnostic.secondary(
            *tools_file,
            tool.span(),
            format!("`{tools_name}` defines {count} {noun} the agent gets no rules for"),
        );
    }
    // The section is generated from the tools, so only from a complete list of them.
    if tools_are_complete(unit) && !tools.is_empty() {
        if let Some(edit) = new_section(file, unit.text(file), doc, heading, &tools) {
            diagnostic.fix(Fix::safe(
                format!("append a \"{heading}\" section generated from `{tools_name}`"),
                vec![edit],
            ));
        }
    }
}

/// A complete Tool Use Rules section appended to the file: the allowlist rule, the items of each
/// tool, and the closing rule when a tool writes. `None` if it would not read back as the section
/// (the file ends inside a code block, for instance).
fn new_section(
    file: FileId,
    text: &str,
    doc: &SkillDoc,
    heading: &str,
    tools: &[(FileId, &Tool, &str)],
) -> Option<Edit> {
    let nl = newline(text);
    let mut items = vec![ALLOWLIST_ITEM.to_string()];
    let mut seen = HashSet::new();
    for (_, tool, name) in tools {
        if !documentable(name) {
            return None;
        }
        if seen.insert(*name) {
            items.extend(tool_items(tool, name));
        }
    }
    if tools.iter().any(|(_, tool, _)| tool.is_write()) {
        items.push(CLOSING_ITEM.to_string());
    }
    // The level of the document's sections (below its title), else `##`.
    let level = doc
        .doc
        .body
        .headings
        .iter()
        .map(|h| h.level)
        .filter(|l| *l > 1)
        .min()
        .unwrap_or(2);
    let content = text.trim_end_matches(['\r', '\n']);
    let newlines = text[content.len()..].matches('\n').count();
    let mut out = if content.trim().is_empty() {
        String::new()
    } else {
        nl.repeat(2usize.saturating_sub(newlines))
    };
    out.push_str(&format!(
        "{} {heading}{nl}{nl}",
        "#".repeat(usize::from(level))
    ));
    out.push_str(&document_bullet(doc, text).render(&items, 0, false, nl, None));
    let edit = Edit::insert(file, text.len(), out);
    // Check that the new section and its items read back.
    let (fixed, _) = apply_edits(text, &[&edit]);
    let body = fixed.get(doc.doc.body_span.start..)?;
    let markdown = parse_markdown(body, doc.doc.body_span.start);
    let section = markdown.section(heading)?;
    // A set, not a list: each item is looked up in it, and a tools file of tens of thousands
    // of tools made the list's linear search quadratic.
    let texts: HashSet<&str> = markdown
        .blocks_in(section.content)
        .map(|b| b.text.as_str())
        .collect();
    items
        .iter()
        .all(|item| texts.contains(item_text(item).as_str()))
        .then_some(edit)
}
