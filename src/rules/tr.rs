//! TR rules: the SKILL.md "Tool Use Rules" section mirrors the tool surface of tools.json
//! (SPEC §3.3). "A contract that exists in JSON but not in the instructions (or vice versa) fails."

use super::util::{
    contains_ascii_ignore_case, contains_ignore_case, contains_word, find_substring, find_word,
    looks_like_snake_case_identifier, split_words,
};
use crate::check::Unit;
use crate::check::{Check, RuleImpl, Sink};
use crate::diagnostic::{Edit, Fix, Severity};
use crate::edit::markdown::{item_end, line_after, ListItem, Marker};
use crate::edit::{apply_edits, newline};
use crate::index::Parsed;
use crate::model::skill::SkillDoc;
use crate::model::tools::{Dialect, SideEffect, Tool};
use crate::parse::markdown::parse_markdown;
use crate::parse::markdown::{Section, TextBlock};
use crate::parse::node::{Node, Value};
use crate::semantic::UnitMemo;
use crate::source::{FileId, Span};
use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

pub const RULES: &[RuleImpl] = &[
    RuleImpl {
        code: "TR001",
        check: Check::Unit(tool_use_rules_missing),
    },
    RuleImpl {
        code: "TR002",
        check: Check::Unit(tool_allowlist_rule_missing),
    },
    RuleImpl {
        code: "TR003",
        check: Check::Unit(tool_undocumented),
    },
    RuleImpl {
        code: "TR004",
        check: Check::Unit(tool_phantom),
    },
    RuleImpl {
        code: "TR005",
        check: Check::Unit(confirmation_rule_missing),
    },
    RuleImpl {
        code: "TR006",
        check: Check::Unit(idempotency_rule_missing),
    },
    RuleImpl {
        code: "TR007",
        check: Check::Unit(write_closing_rule_missing),
    },
    RuleImpl {
        code: "TR008",
        check: Check::Unit(confirmation_rule_contradicts_contract),
    },
    RuleImpl {
        code: "TR009",
        check: Check::Unit(allowed_tools_preapproves_write),
    },
    RuleImpl {
        code: "TR010",
        check: Check::Unit(tool_use_rules_without_tools),
    },
];

/// The allowlist sentences of TR002 (lowercase, single spaces).
const ALLOWLIST_PHRASES: &[&str] = &[
    "only the tools listed below may be used",
    "never invent or call other tools",
];

/// Code spans and snake_case words that are contract vocabulary, not tool names (TR004, TR010).
const NOT_TOOL_NAMES: &[&str] = &[
    "true",
    "false",
    "null",
    "read",
    "write",
    "name",
    "type",
    "title",
    "description",
    "requiresConfirmation",
    "idempotent",
    "inputSchema",
    "outputSchema",
    "annotations",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
    "parameters",
    "properties",
    "required",
    "user_confirmed",
    "idempotency_key",
    "allowed-tools",
    "string",
    "number",
    "integer",
    "boolean",
    "object",
    "array",
];

/// A code span ending in one of these names a file, not a tool (`tools.json`, `SKILL.md`).
const FILE_EXTENSIONS: &[&str] = &[
    "md", "json", "yaml", "yml", "toml", "txt", "sh", "py", "js", "ts", "csv", "html",
];

/// The SKILL.md of a unit with its Tool Use Rules section and the section's items.
/// Up to this many bytes of item text, a tool name's items are found by scanning them; past it,
/// through an index of their words.
const SCANNED_ITEMS_LEN: usize = 4096;

struct RulesSection<'a> {
    /// The configured heading text ("Tool Use Rules"), for messages.
    name: &'a str,
    file: FileId,
    text: &'a str,
    doc: &'a SkillDoc,
    section: Section<'a>,
    items: &'a [&'a TextBlock],
    /// The unit's record of which items name which tool.
    mentions: &'a UnitMemo<&'a str, usize>,
    /// The words of the items, built the first time a name is looked up.
    words: &'a std::cell::OnceCell<Vec<(&'a str, u32)>>,
}

impl<'a> RulesSection<'a> {
    fn of(unit: &Unit<'a>) -> Option<Self> {
        let (file, doc) = unit.skill()?;
        let name = unit.settings().tool_use_rules_heading.as_str();
        // Eight rules read the section: find it and its items once per unit.
        let (section, items) = unit.tool_use_rules()?;
        Some(RulesSection {
            name,
            file,
            text: unit.text(file),
            doc,
            section: *section,
            items,
            mentions: unit.rule_mentions(),
            words: unit.rule_words(),
        })
    }

    fn heading_span(&self) -> Span {
        self.section.heading.span
    }

    fn heading_text(&self) -> &'a str {
        self.name
    }

    /// The bytes of all the items' text.
    fn items_len(&self) -> usize {
        self.items.iter().map(|item| item.text.len()).sum()
    }

    /// The positions of the items that name `name` as a whole word. Several rules ask this of
    /// every tool: each name's items are searched for once per unit.
    fn items_naming(&self, name: &'a str) -> Rc<[usize]> {
        self.mentions.get(name, || {
            // A name made of word characters occurs as a whole word exactly where it is one of
            // an item's words; any other name (`a.b`, `get-x`) is searched for item by item. So
            // are the items of an ordinary section: scanning a few kilobytes per name costs less
            // than sorting every word, and stays linear in the number of names.
            if name.is_empty()
                || !name.chars().all(super::util::is_word_char)
                || self.items_len() <= SCANNED_ITEMS_LEN
            {
                return (0..self.items.len())
                    .filter(|i| contains_word(&self.items[*i].text, name))
                    .collect();
            }
            let words = self.words.get_or_init(|| {
                let mut words: Vec<(&'a str, u32)> = Vec::new();
                for (position, item) in self.items.iter().enumerate() {
                    let position = u32::try_from(position).unwrap_or(u32::MAX);
                    words.extend(super::util::words(&item.text).map(|(_, w)| (w, position)));
                }
                words.sort_unstable();
                words.dedup();
                words
            });
            let first = words.partition_point(|(word, _)| *word < name);
            words[first..]
                .iter()
                .take_while(|(word, _)| *word == name)
                .map(|(_, position)| *position as usize)
                .collect()
        })
    }

    /// Where a new item about `name` goes: after the last item that mentions it.
    fn last_mention(&self, name: &'a str) -> Slot<'a> {
        self.items_naming(name)
            .last()
            .map_or(Slot::End, |i| Slot::After(self.items[*i]))
    }

    /// True when some item of the section mentions `name` and satisfies `also`.
    fn any_item(&self, name: &'a str, also: impl Fn(&TextBlock) -> bool) -> bool {
        self.items_naming(name).iter().any(|i| also(self.items[*i]))
    }
}

// ---------------------------------------------------------------------------------------------
// Fixes: the items they add and where they go

/// The allowlist item (TR002), worded so that both of its phrases match.
const ALLOWLIST_ITEM: &str =
    "Only the tools listed below may be used. Never invent or call other tools.";

/// The closing rule for write operations (TR007).
const CLOSING_ITEM: &str =
    "Never execute a write operation without explicit confirmation in the current conversation.";

/// Whether an item can name the tool so that the rules find it again: a name with surrounding
/// spaces, a line break or a backtick would not read back as written.
fn documentable(name: &str) -> bool {
    !name.is_empty() && name.trim() == name && !name.contains(['\n', '\r', '`'])
}

/// A tool name as inline code.
fn code(name: &str) -> String {
    format!("`{name}`")
}

/// The confirmation item for a gated (or write, or unclassified) tool (TR005).
fn confirmation_item(tool: &Tool, name: &str) -> String {
    // Forge write tools get `user_confirmed` from the TJ003/TJ004 fixes if they lack it.
    let passes_field = tool.property("user_confirmed").is_some()
        || (tool.dialect == Dialect::Forge && tool.side_effect != SideEffect::Read);
    let pass = if passes_field {
        ", and pass `user_confirmed: true`"
    } else {
        ""
    };
    let subject = if tool.is_confirmation_gated() || tool.is_write() {
        code(name)
    } else {
        format!("{} does not say whether it changes anything", code(name))
    };
    format!(
        "{subject}: call it only after the user explicitly confirms this exact operation{pass}."
    )
}

/// The idempotency item for an idempotent tool (TR006).
fn idempotency_item(tool: &Tool, name: &str) -> String {
    // Forge write tools get `idempotency_key` from the TJ005 fix if they lack it; read tools and
    // other dialects are idempotent without a key.
    let has_key = tool.property("idempotency_key").is_some()
        || (tool.dialect == Dialect::Forge && tool.side_effect != SideEffect::Read);
    if has_key {
        format!(
            "{} is idempotent: reuse the same `idempotency_key` when retrying a failed call.",
            code(name)
        )
    } else {
        format!(
            "{} is idempotent: retrying a failed call is safe.",
            code(name)
        )
    }
}

/// The items that document one tool (TR001, TR003): the read-only item for a read tool, else the
/// confirmation item; then the idempotency item if the tool is idempotent. A read tool that carries
/// a confirmation gate (TJ006, whose fix removes the gate) gets an item that makes no claim about
/// confirmation, so it contradicts neither the contract as written nor the fixed one.
fn tool_items(tool: &Tool, name: &str) -> Vec<String> {
    let mut items = Vec::new();
    match (tool.side_effect, tool.is_confirmation_gated()) {
        (SideEffect::Read, false) => items.push(format!(
            "{} is read-only and may be called without confirmation.",
            code(name)
        )),
        (SideEffect::Read, true) => items.push(format!("{} is read-only.", code(name))),
        _ => items.push(confirmation_item(tool, name)),
    }
    if tool.is_idempotent() {
        items.push(idempotency_item(tool, name));
    }
    items
}

/// Whether an item states the closing rule (TR007).
fn is_closing_item(item: &TextBlock) -> bool {
    // A sentence can only pass `is_closing_rule`'s substring test if its whole item does, and
    // most items fail it: test the item before splitting it into sentences.
    has_closing_words(&item.text)
        && super::util::sentences(&item.text)
            .into_iter()
            .any(is_closing_rule)
}

fn has_closing_words(text: &str) -> bool {
    contains_ascii_ignore_case(text, "write") && contains_ascii_ignore_case(text, "confirm")
}

/// The bullet style of the document's first top-level bullet list, else `- `.
fn document_bullet(doc: &SkillDoc, text: &str) -> ListItem {
    doc.doc
        .body
        .blocks
        .iter()
        .filter_map(|b| ListItem::of(text, b))
        .find(|i| i.indent.is_empty() && !i.is_ordered())
        .map_or_else(
            || ListItem {
                line_start: 0,
                indent: String::new(),
                marker: Marker::Bullet('-'),
                gap: " ".to_string(),
            },
            |i| ListItem { line_start: 0, ..i },
        )
}

/// The width the section's items are hard-wrapped at: the longest line of its list items when
/// one of them continues on a second line, else `None` (items stay on one line).
fn wrap_width(text: &str, listed: &[(&TextBlock, ListItem)], limit: usize) -> Option<usize> {
    let mut wrapped = false;
    let mut widest = 0;
    for (block, item) in listed {
        // The item's own text, without its nested items.
        let end = line_after(text, block.span.end.saturating_sub(1)).min(limit);
        let source = text.get(item.line_start..end).unwrap_or_default();
        let lines: Vec<&str> = source.lines().filter(|l| !l.trim().is_empty()).collect();
        wrapped |= lines.len() > 1;
        widest = lines
            .iter()
            .map(|l| l.chars().count())
            .fold(widest, usize::max);
    }
    (wrapped && widest >= 40).then_some(widest)
}

/// The text Markdown makes of one list item, to check that an inserted item reads back.
fn item_text(item: &str) -> String {
    parse_markdown(&format!("- {item}\n"), 0)
        .blocks
        .first()
        .map(|b| b.text.clone())
        .unwrap_or_default()
}

/// Where new items go in the section.
#[derive(Clone, Copy)]
enum Slot<'b> {
    /// Before the first item (TR002).
    First,
    /// After the last item (TR007).
    End,
    /// After this item and its nested items (TR005, TR006), else at the end.
    After(&'b TextBlock),
    /// Before the closing rule when it is the last item, else at the end (TR003).
    BeforeClosing,
}

impl<'a> RulesSection<'a> {
    /// One edit adding `items` to the section at `place`, in the section's list style and the
    /// file's newline; `None` when the section's layout is not understood (an item whose marker
    /// cannot be read, or an ordered list that would need renumbering) or when the new items would
    /// not read back as items of the section.
    fn insert_items(&self, items: &[String], place: Slot<'_>) -> Option<Edit> {
        let text = self.text;
        let nl = newline(text);
        let limit = self.section.content.end.min(text.len());
        let mut listed: Vec<(&TextBlock, ListItem)> = Vec::new();
        for block in self.items.iter().filter(|b| b.is_list_item) {
            listed.push((block, ListItem::of(text, block)?));
        }
        let (at, insert) = if listed.is_empty() {
            self.new_list(items)?
        } else {
            let top = listed.iter().map(|(_, i)| i.indent_width()).min()?;
            let tops: Vec<&(&TextBlock, ListItem)> = listed
                .iter()
                .filter(|(_, i)| i.indent_width() == top)
                .collect();
            // Items separated by blank lines: keep the new ones loose too.
            let loose = tops.windows(2).any(|pair| {
                let (block, item) = pair[0];
                let end = item_end(text, block, item, limit);
                text.get(end..pair[1].1.line_start)
                    .is_some_and(|gap| !gap.is_empty() && gap.trim().is_empty())
            });
            let (last_block, last) = tops.last().map(|(b, i)| (*b, i))?;
            let wrap = wrap_width(text, &listed, limit);
            let before = |item: &ListItem| {
                let mut out = item.render(items, 0, loose, nl, wrap);
                if loose {
                    out.push_str(nl);
                }
                (item.line_start, out)
            };
            let after = |block: &TextBlock, item: &ListItem| {
                let end = item_end(text, block, item, limit);
                let mut out = String::new();
                if end == text.len() && !text.ends_with('\n') {
                    out.push_str(nl);
                }
                if loose {
                    out.push_str(nl);
                }
                out.push_str(&item.render(items, 1, loose, nl, wrap));
                (end, out)
            };
            match place {
                Slot::First => {
                    let (_, first) = tops.first()?;
                    if first.is_ordered() {
                        return None;
                    }
                    before(first)
                }
                Slot::BeforeClosing
                    if tops.len() > 1 && !last.is_ordered() && is_closing_item(last_block) =>
                {
                    before(last)
                }
                Slot::After(target) => {
                    // The top-level item holding the target (itself, or the item it is nested in).
                    let holder = tops.iter().rev().find(|(block, item)| {
                        item.line_start <= target.span.start
                            && target.span.start < item_end(text, block, item, limit)
                    });
                    match holder {
                        Some((block, item))
                            if !item.is_ordered() || std::ptr::eq(*block, last_block) =>
                        {
                            after(block, item)
                        }
                        _ => after(last_block, last),
                    }
                }
                Slot::End | Slot::BeforeClosing => after(last_block, last),
            }
        };
        let edit = Edit::insert(self.file, at, insert);
        self.reads_back(&edit, items).then_some(edit)
    }

    /// A new list for a section without one: after the section's last paragraph, or right after
    /// the heading of an empty section. Its first item is the section's first item whatever the
    /// place.
    fn new_list(&self, items: &[String]) -> Option<(usize, String)> {
        let text = self.text;
        let nl = newline(text);
        let heading = self.heading_span();
        let last_line = |span: crate::source::Span| {
            line_after(text, span.end.saturating_sub(1).max(span.start))
        };
        // After the section's prose, so that the items that follow join the same list.
        let at = match self.items.last() {
            None => last_line(heading),
            Some(block) => last_line(block.span),
        }
        .min(self.section.content.end.max(heading.end));
        let mut out = String::new();
        if at == text.len() && !text.ends_with('\n') {
            out.push_str(nl);
        }
        out.push_str(nl);
        out.push_str(&document_bullet(self.doc, text).render(items, 0, false, nl, None));
        let next_line = text.get(at..line_after(text, at)).unwrap_or_default();
        if !next_line.trim().is_empty() {
            out.push_str(nl);
        }
        Some((at, out))
    }

    /// Whether, with `edit` applied, every one of `items` is an item of the section.
    fn reads_back(&self, edit: &Edit, items: &[String]) -> bool {
        let body = self.doc.doc.body_span;
        let (fixed, skipped) = apply_edits(self.text, &[edit]);
        if !skipped.is_empty() {
            return false;
        }
        let Some(fixed_body) = fixed.get(body.start..) else {
            return false;
        };
        let markdown = parse_markdown(fixed_body, body.start);
        let Some(section) = markdown.section(self.name) else {
            return false;
        };
        let texts: Vec<&str> = markdown
            .blocks_in(section.content)
            .filter(|b| b.is_list_item)
            .map(|b| b.text.as_str())
            .collect();
        items
            .iter()
            .all(|item| texts.contains(&item_text(item).as_str()))
    }
}

/// Every named tool of the unit, in document order.
fn named_tools<'a>(unit: &Unit<'a>) -> Vec<(FileId, &'a Tool, &'a str)> {
    unit.tools()
        .filter_map(|(file, tool)| tool.name().map(|name| (file, tool, name)))
        .collect()
}

/// True when every tools file of the unit parsed into a complete list of tools, so that a name
/// missing from it really is undefined.
fn tools_are_complete(unit: &Unit<'_>) -> bool {
    unit.has_tools_file()
        && unit.files.tools.iter().all(|id| match unit.parsed(*id) {
            Parsed::Tools(doc) => doc.parse_error.is_none() && doc.problems.is_empty(),
            _ => false,
        })
}

/// The first tools file's name (`tools.json`, `calendar.tools.json`) for messages.
fn tools_file_name<'a>(unit: &Unit<'a>) -> &'a str {
    unit.files
        .tools
        .first()
        .map_or("tools.json", |id| unit.repo.file_name(*id))
}

/// The SKILL.md of a unit that TR001 finds without a Tool Use Rules section (a skill with a tools
/// file and no section), when TR001 does not report it there (not selected, ignored, or silenced
/// in that file by `per-file-ignores`). The rules about the section's content leave a missing
/// section to TR001; when TR001 is off, each reports what the missing section lacks itself.
fn unreported_missing_section(unit: &Unit<'_>) -> Option<FileId> {
    let (file, doc) = unit.skill()?;
    let heading = &unit.settings().tool_use_rules_heading;
    let missing = unit.has_tools_file() && doc.doc.body.section(heading).is_none();
    (missing && !unit.reports("TR001", file)).then_some(file)
}

/// The label a finding of a skill without the section puts on the start of its SKILL.md.
fn no_section_label(unit: &Unit<'_>) -> String {
    format!(
        "no \"{}\" section in this file",
        unit.settings().tool_use_rules_heading
    )
}

// ---------------------------------------------------------------------------------------------
// TR001

fn tool_use_rules_missing(unit: &Unit<'_>, sink: &mut Sink) {
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
    let texts: Vec<&str> = markdown
        .blocks_in(section.content)
        .map(|b| b.text.as_str())
        .collect();
    items
        .iter()
        .all(|item| texts.contains(&item_text(item).as_str()))
        .then_some(edit)
}

/// The opening `---` of the frontmatter when the file has one, else an empty span at its start.
fn start_of_file(text: &str) -> Span {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    if text.get(start..).is_some_and(|t| t.starts_with("---")) {
        Span::new(start, start + 3)
    } else {
        Span::empty(start)
    }
}

// ---------------------------------------------------------------------------------------------
// TR002

fn tool_allowlist_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        if let Some(skill) = unreported_missing_section(unit) {
            let heading = &unit.settings().tool_use_rules_heading;
            sink.report(
                skill,
                start_of_file(unit.text(skill)),
                format!(
                    "nothing restricts the agent to the listed tools: `{}` has no \"{heading}\" \
                     section",
                    unit.repo.file_name(skill)
                ),
            )
            .label(no_section_label(unit))
            .help(format!(
                "add a \"{heading}\" section that opens with the item \"{ALLOWLIST_ITEM}\""
            ));
        }
        return;
    };
    let has_allowlist = rules.items.iter().any(|item| {
        // Both phrases hold "tools", and lowercasing turns no other letters into ASCII ones
        // they use: an item without it cannot match (most items), so skip normalising those.
        if !contains_ascii_ignore_case(&item.text, "tools") {
            return false;
        }
        let normalised = normalise(&item.text);
        ALLOWLIST_PHRASES
            .iter()
            .any(|p| find_substring(&normalised, p).is_some())
    });
    if has_allowlist {
        return;
    }
    let diagnostic = sink
        .report(
            rules.file,
            rules.heading_span(),
            format!(
                "the \"{}\" section does not restrict the agent to the listed tools",
                rules.heading_text()
            ),
        )
        .label("no allowlist rule in this section")
        .help(
            "open the section with the item \"Only the tools listed below may be used. Never \
             invent or call other tools.\"",
        );
    if let Some(edit) = rules.insert_items(&[ALLOWLIST_ITEM.to_string()], Slot::First) {
        diagnostic.fix(Fix::safe(
            "insert the allowlist rule as the first item of the section",
            vec![edit],
        ));
    }
}

/// Lowercase with every run of whitespace collapsed to one space.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.is_ascii() {
        out.make_ascii_lowercase();
        out
    } else {
        out.to_lowercase()
    }
}

// ---------------------------------------------------------------------------------------------
// TR003

fn tool_undocumented(unit: &Unit<'_>, sink: &mut Sink) {
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

// ---------------------------------------------------------------------------------------------
// TR004

fn tool_phantom(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        return;
    };
    // A tools file that did not parse (or lost entries) gives no reliable list to compare with.
    if !tools_are_complete(unit) {
        return;
    }
    let tools = named_tools(unit);
    let tool_names: Vec<&str> = tools.iter().map(|(_, _, name)| *name).collect();
    let skill_name = skill_name(rules.doc);
    // Names the tools' schemas define, as written and folded (see `fold_name`), collected only
    // when an item names something that is not a tool (most sections name tools only).
    let schema_names: OnceCell<(HashSet<&str>, HashSet<String>)> = OnceCell::new();
    let schema_names = || {
        schema_names.get_or_init(|| {
            let mut known = HashSet::new();
            for (_, tool, _) in &tools {
                // The input schema (script parameters converted) and the rest of the definition,
                // which holds an MCP `outputSchema`.
                if let Some(schema) = tool.schema() {
                    collect_schema_names(schema, &mut known);
                }
                collect_schema_names(tool.definition(), &mut known);
            }
            let folded = known
                .iter()
                .map(|name| fold_name(name))
                .filter(|folded| !folded.is_empty())
                .collect();
            (known, folded)
        })
    };
    // Each defined tool by its name with verbs reduced to a synonym group's first (see
    // `rename_key`): a phantom with the same key is most likely the tool renamed. The first tool
    // of a key, by name, wins.
    let renames: OnceCell<HashMap<String, &str>> = OnceCell::new();
    let renames = || {
        renames.get_or_init(|| {
            let mut sorted = tool_names.clone();
            sorted.sort_unstable();
            let mut by_key = HashMap::new();
            for name in sorted {
                let key = rename_key(name);
                if !key.is_empty() {
                    by_key.entry(key).or_insert(name);
                }
            }
            by_key
        })
    };
    let tools_name = tools_file_name(unit);
    for item in rules.items {
        let is_known = |name: &str| {
            tool_names.contains(&name) || skill_name == Some(name) || is_vocabulary(name) || {
                let (known, folded) = schema_names();
                known.contains(name) || folded.contains(&fold_name(name))
            }
        };
        for named in names_in_item(item, rules.text, is_known) {
            let suggestion = renames()
                .get(&rename_key(named.text))
                .copied()
                .or_else(|| super::util::nearest(named.text, tool_names.iter().copied()));
            let help = match suggestion {
                Some(nearest) => format!(
                    "use a tool `{tools_name}` defines (nearest: `{nearest}`), define `{}` there, \
                     or remove the item",
                    named.text
                ),
                None => format!(
                    "define `{}` in `{tools_name}` if the skill needs it, otherwise remove the item",
                    named.text
                ),
            };
            sink.report(
                rules.file,
                named.span,
                format!(
                    "`{}` is named as a tool but `{tools_name}` does not define it",
                    named.text
                ),
            )
            .label("not a tool of this skill")
            .help(help);
        }
    }
}

fn skill_name(doc: &SkillDoc) -> Option<&str> {
    doc.doc.frontmatter()?.root.get("name")?.as_str()
}

/// Verbs that tool names use for the same operation, each group led by the word it reduces to:
/// a tool renamed from `cancel_event` to `delete_event`, or `fetchNote` to `get_note`, keeps the
/// rest of its name.
const VERB_SYNONYMS: &[&[&str]] = &[
    &[
        "delete", "remove", "cancel", "destroy", "drop", "erase", "trash",
    ],
    &["create", "add", "insert", "new", "make"],
    &["update", "edit", "modify", "change", "patch"],
    &[
        "get", "fetch", "read", "retrieve", "show", "view", "describe",
    ],
    &["list", "search", "find", "query"],
    &["send", "post"],
];

/// A tool name's words, lowercase, each verb replaced by the first of its synonym group, joined
/// by `_`: `cancelEvent`, `cancel_event` and `delete-event` share the key `delete_event`.
fn rename_key(name: &str) -> String {
    let words: Vec<String> = super::util::name_words(name)
        .into_iter()
        .map(|word| {
            VERB_SYNONYMS
                .iter()
                .find(|group| group.contains(&word.as_str()))
                .map_or(word, |group| group[0].to_string())
        })
        .collect();
    words.join("_")
}

/// A schema name without case and separators, so that an item's `event_id` is the schema's
/// `eventId` (or `event-id`).
fn fold_name(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Property names (at any depth) and string `enum`/`const` values of an input schema: words an
/// item may put in code without naming a tool.
fn collect_schema_names<'a>(schema: &'a Node, out: &mut HashSet<&'a str>) {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Object(members) => {
                for member in members {
                    match member.key.as_str() {
                        "properties" | "patternProperties" | "$defs" | "definitions" => {
                            for property in member.value.as_object().unwrap_or_default() {
                                out.insert(property.key.as_str());
                            }
                        }
                        "enum" => out.extend(
                            member
                                .value
                                .as_array()
                                .unwrap_or_default()
                                .iter()
                                .filter_map(Node::as_str),
                        ),
                        "const" => out.extend(member.value.as_str()),
                        _ => {}
                    }
                    stack.push(&member.value);
                }
            }
            Value::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
}

/// Contract vocabulary and file names, which items mention without meaning a tool.
fn is_vocabulary(name: &str) -> bool {
    NOT_TOOL_NAMES.contains(&name)
        || name
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && FILE_EXTENSIONS.contains(&ext))
}

/// A name an item gives to something that reads as a tool, with where it is written.
struct NamedInItem<'a> {
    text: &'a str,
    span: Span,
}

/// `^[A-Za-z_][A-Za-z0-9_.-]*$`: what a tool name written in code looks like.
fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// A single plain word in backticks (`id`, `end`, `json`) is too often a value or a field to be
/// taken for a tool; tool names are compound (`create_event`, `createEvent`).
fn is_compound(name: &str) -> bool {
    name.contains('_')
        || name
            .as_bytes()
            .windows(2)
            .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

/// An all-caps placeholder (`YYYY_MM_DD`, `API_KEY`): a value to fill in, never a tool.
fn is_placeholder(name: &str) -> bool {
    name.bytes().any(|b| b.is_ascii_uppercase()) && !name.bytes().any(|b| b.is_ascii_lowercase())
}

/// Verbs after which a name is something the agent calls ("call `x`", "never invoke `x`").
const CALL_VERBS: &[&str] = &[
    "call",
    "calls",
    "called",
    "calling",
    "invoke",
    "invokes",
    "invoked",
    "invoking",
    "use",
    "uses",
    "used",
    "using",
    "run",
    "runs",
    "ran",
    "running",
    "execute",
    "executes",
    "executed",
    "executing",
    "trigger",
    "triggers",
    "triggered",
    "triggering",
];

/// Nouns after which "to" introduces a tool ("calls to `x`").
const CALL_NOUNS: &[&str] = &["call", "calls"];

/// Nouns that make the names before them tools ("the `x` tool", "`a` and `b` tools").
const TOOL_NOUNS: &[&str] = &["tool", "tools", "function", "functions"];

/// Nouns that make the name before them a field or a value, never a tool ("use `event_id`
/// field", "the `page_token` parameter").
const FIELD_NOUNS: &[&str] = &[
    "field",
    "fields",
    "parameter",
    "parameters",
    "param",
    "params",
    "argument",
    "arguments",
    "arg",
    "args",
    "property",
    "properties",
    "key",
    "value",
    "values",
    "flag",
    "option",
    "header",
    "column",
    "variable",
    "placeholder",
];

/// How many words a label before the colon that opens an item may have ("Bulk removal:").
const MAX_LABEL_WORDS: usize = 3;

/// Words that join the names of a list ("`a`, `b` or `c`").
const LIST_WORDS: &[&str] = &["and", "or"];

fn is_one_of(word: &str, list: &[&str]) -> bool {
    list.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// One word or code span of an item's text.
struct Token<'a> {
    /// The word, or the code span's content without surrounding spaces.
    text: &'a str,
    /// Whether the token is a code span.
    code: bool,
    /// Byte range in the item's text.
    start: usize,
    end: usize,
    /// How many code spans come before it in the item: its stretch of plain text is the one
    /// after code span `chunk - 1`.
    chunk: usize,
}

impl Token<'_> {
    /// Whether the token has the shape of a name: an identifier in code, a snake_case word.
    fn is_name(&self) -> bool {
        if self.code {
            is_identifier(self.text)
        } else {
            looks_like_snake_case_identifier(self.text)
        }
    }

    fn is_word(&self, list: &[&str]) -> bool {
        !self.code && is_one_of(self.text, list)
    }
}

/// The item's words and code spans in text order.
fn tokens(item: &TextBlock) -> Vec<Token<'_>> {
    fn push_words<'a>(
        out: &mut Vec<Token<'a>>,
        text: &'a str,
        from: usize,
        to: usize,
        chunk: usize,
    ) {
        let Some(plain) = text.get(from..to) else {
            return;
        };
        out.extend(super::util::words(plain).map(|(offset, word)| Token {
            text: word,
            code: false,
            start: from + offset,
            end: from + offset + word.len(),
            chunk,
        }));
    }
    let text = item.text.as_str();
    let mut out = Vec::new();
    let mut cursor = 0;
    for (index, code) in item.code.iter().enumerate() {
        push_words(&mut out, text, cursor, code.at, index);
        let lead = code.text.len() - code.text.trim_start().len();
        let name = code.text.trim();
        out.push(Token {
            text: name,
            code: true,
            start: code.at + lead,
            end: code.at + lead + name.len(),
            chunk: index,
        });
        cursor = cursor.max(code.at + code.text.len());
    }
    push_words(&mut out, text, cursor, text.len(), item.code.len());
    out
}

/// Which tokens of an item read as tools, by the grammar of TR004 (rules/TR004.md): a name that
/// opens the item (alone or after a short label and a colon), follows a call verb ("call `x`", "calls to `x`") or precedes "tool" ("the `x`
/// tool"), and the other names of a list it heads or ends ("call `a`, `b` or `c`"). A name
/// followed by a field noun ("the `event_id` field") never does. Two passes over the tokens, so
/// linear however long the lists.
fn reads_as_tool(item: &TextBlock, tokens: &[Token<'_>]) -> Vec<bool> {
    let text = item.text.as_str();
    let gap = |a: &Token<'_>, b: &Token<'_>| text.get(a.end..b.start).unwrap_or("\u{0}");
    let spaced = |a: &Token<'_>, b: &Token<'_>| gap(a, b).chars().all(char::is_whitespace);
    // `Some(j)` when token `k` is a name that continues the list ending with name `j`.
    let list_before = |k: usize| -> Option<usize> {
        let name = tokens.get(k).filter(|t| t.is_name())?;
        let previous = tokens.get(k.checked_sub(1)?)?;
        if previous.is_name() {
            let between = gap(previous, name).trim();
            return matches!(between, "," | "/").then_some(k - 1);
        }
        let before = tokens.get(k.checked_sub(2)?)?;
        let joined = previous.is_word(LIST_WORDS)
            && spaced(previous, name)
            && before.is_name()
            && matches!(gap(before, previous).trim(), "" | ",");
        joined.then_some(k - 2)
    };
    let after_verb = |k: usize| {
        let Some(name) = tokens.get(k) else {
            return false;
        };
        let Some(previous) = k.checked_sub(1).and_then(|i| tokens.get(i)) else {
            return false;
        };
        if !spaced(previous, name) {
            return false;
        }
        if previous.is_word(CALL_VERBS) {
            return true;
        }
        let noun = k.checked_sub(2).and_then(|i| tokens.get(i));
        previous.is_word(&["to"])
            && noun.is_some_and(|n| n.is_word(CALL_NOUNS) && spaced(n, previous))
    };
    let followed_by = |k: usize, nouns: &[&str]| {
        matches!((tokens.get(k), tokens.get(k + 1)), (Some(name), Some(next))
            if next.is_word(nouns) && spaced(name, next))
    };
    // The name that opens the item, alone or after a short label ("Cancelling: `x` …").
    let opens = |k: usize| {
        let Some(name) = tokens.get(k) else {
            return false;
        };
        if k == 0 {
            return true;
        }
        let label = &tokens[..k];
        k <= MAX_LABEL_WORDS
            && label.iter().all(|t| !t.code)
            && gap(&label[k - 1], name).contains(':')
            && label
                .windows(2)
                .all(|pair| !gap(&pair[0], &pair[1]).contains([':', '.', ';']))
    };
    // Forward: the head of the item, a name after a verb, and the list that follows either.
    let mut forward = vec![false; tokens.len()];
    for k in 0..tokens.len() {
        forward[k] = tokens[k].is_name()
            && (opens(k) || after_verb(k) || list_before(k).is_some_and(|j| forward[j]));
    }
    // Backward: a name before "tool", and the list that ends with it.
    let mut backward = vec![false; tokens.len()];
    for k in (0..tokens.len()).rev() {
        if tokens[k].is_name() && followed_by(k, TOOL_NOUNS) {
            backward[k] = true;
        }
        if backward[k] {
            if let Some(j) = list_before(k) {
                backward[j] = true;
            }
        }
    }
    (0..tokens.len())
        .map(|k| {
            let explicit = backward[k];
            let token = &tokens[k];
            // A single word in code is a tool only when the item says so ("the `search` tool").
            let shaped = !token.code || explicit || is_compound(token.text);
            (forward[k] || explicit) && shaped && !followed_by(k, FIELD_NOUNS)
        })
        .collect()
}

/// The names of an item that read as tools (see [`reads_as_tool`]) and that `skip` does not
/// know, in text order, each name once.
fn names_in_item<'a>(
    item: &'a TextBlock,
    file_text: &str,
    skip: impl Fn(&str) -> bool,
) -> Vec<NamedInItem<'a>> {
    // Most items name only known tools and vocabulary: skip them before splitting the item into
    // words. A plain name needs an underscore, which only some of the plain text has.
    let code_candidate = item.code.iter().any(|c| {
        let name = c.text.trim();
        is_identifier(name) && !is_placeholder(name) && !skip(name)
    });
    if !code_candidate && !plain_underscore(item) {
        return Vec::new();
    }
    let tokens = tokens(item);
    let reads = reads_as_tool(item, &tokens);
    let mut seen = HashSet::new();
    let mut found: Vec<usize> = Vec::new();
    for (k, token) in tokens.iter().enumerate() {
        if reads[k]
            && !is_placeholder(token.text)
            && !seen.contains(token.text)
            && !skip(token.text)
        {
            seen.insert(token.text);
            found.push(k);
        }
    }
    let spans = token_spans(file_text, item, &tokens, &found);
    found
        .iter()
        .zip(spans)
        .map(|(k, span)| NamedInItem {
            text: tokens[*k].text,
            span,
        })
        .collect()
}

/// Whether the item's text outside its code spans has an underscore.
fn plain_underscore(item: &TextBlock) -> bool {
    let text = item.text.as_bytes();
    let mut cursor = 0;
    for code in &item.code {
        let plain = text.get(cursor..code.at).unwrap_or_default();
        if memchr::memchr(b'_', plain).is_some() {
            return true;
        }
        cursor = cursor.max(code.at + code.text.len());
    }
    memchr::memchr(b'_', text.get(cursor..).unwrap_or_default()).is_some()
}

/// Where the tokens at `wanted` (ascending positions) are written in the file. A code span's
/// content is found inside its backticks. The source between two code spans holds the words
/// between them in the same order, so each word is found after the one before it, in one pass
/// over each stretch; a word the source spells differently (`delete\_event`) gets the item's
/// span, as do the words after it in its stretch.
fn token_spans(
    file_text: &str,
    item: &TextBlock,
    tokens: &[Token<'_>],
    wanted: &[usize],
) -> Vec<Span> {
    let mut spans = Vec::with_capacity(wanted.len());
    let Some(&last) = wanted.last() else {
        return spans;
    };
    // The stretch being walked: its chunk, where the walk is in it and where it ends; `None`
    // once a word of it could not be found.
    let mut stretch: Option<(usize, Option<usize>, usize)> = None;
    let mut wanted = wanted.iter().peekable();
    for (k, token) in tokens.iter().enumerate().take(last + 1) {
        let is_wanted = wanted.next_if_eq(&&k).is_some();
        if token.code {
            if is_wanted {
                spans.push(
                    item.code
                        .get(token.chunk)
                        .map_or(item.span, |c| inner_span(file_text, c.span, token.text)),
                );
            }
            continue;
        }
        if stretch.is_none_or(|(chunk, _, _)| chunk != token.chunk) {
            // From the end of the code span before the stretch to the start of the one after.
            let start = match token.chunk.checked_sub(1).and_then(|i| item.code.get(i)) {
                Some(code) => code.span.end,
                None => item.span.start,
            };
            let end = item
                .code
                .get(token.chunk)
                .map_or(item.span.end, |c| c.span.start);
            stretch = Some((token.chunk, Some(start), end));
        }
        let mut span = None;
        if let Some((_, cursor @ Some(_), end)) = &mut stretch {
            let from = cursor.unwrap_or_default();
            let found = file_text
                .get(from..(*end).max(from))
                .and_then(|rest| find_word(rest, token.text));
            *cursor = found.map(|at| from + at + token.text.len());
            span = found.map(|at| Span::new(from + at, from + at + token.text.len()));
        }
        if is_wanted {
            spans.push(span.unwrap_or(item.span));
        }
    }
    spans
}

/// The span of `inner` inside a code span (without the backticks) when it can be found.
fn inner_span(file_text: &str, code: Span, inner: &str) -> Span {
    file_text
        .get(code.start..code.end)
        .and_then(|source| source.find(inner))
        .map_or(code, |i| {
            Span::new(code.start + i, code.start + i + inner.len())
        })
}

// ---------------------------------------------------------------------------------------------
// TR005 and TR006

fn confirmation_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        report_without_section(unit, sink, &CONFIRMATION_FINDING);
        return;
    };
    for (file, tool, name) in named_tools(unit) {
        if !(CONFIRMATION_FINDING.applies)(tool)
            || rules.any_item(name, |item| contains_ignore_case(&item.text, "confirm"))
        {
            continue;
        }
        // A tool no item mentions at all is TR003's finding, when TR003 reports it (its fix adds
        // the confirmation rule too); else it is reported here, not lost.
        let mentioned = rules.any_item(name, |_| true);
        if !mentioned && unit.reports("TR003", file) {
            continue;
        }
        let section_label = if mentioned {
            format!("no item of this section tells the agent to confirm before `{name}`")
        } else {
            format!("no item of this section names `{name}`")
        };
        let diagnostic = sink
            .report(file, tool.span(), (CONFIRMATION_FINDING.message)(name))
            .label(CONFIRMATION_FINDING.label)
            .secondary(rules.file, rules.heading_span(), section_label)
            .help(format!(
                "add an item such as \"`{name}`: call it only after the user explicitly confirms \
                 this exact operation, and pass `user_confirmed: true`\""
            ));
        if let Some((_, flag)) = tool.confirmation {
            diagnostic.secondary(file, flag, "confirmation required here");
        }
        // A gated read tool should lose its gate (TJ006), not gain a rule.
        let edit = (tool.side_effect != SideEffect::Read && documentable(name))
            .then(|| rules.insert_items(&[confirmation_item(tool, name)], rules.last_mention(name)))
            .flatten();
        if let Some(edit) = edit {
            diagnostic.fix(Fix::safe(
                format!("add a confirmation rule for `{name}`"),
                vec![edit],
            ));
        }
    }
}

fn idempotency_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        report_without_section(unit, sink, &IDEMPOTENCY_FINDING);
        return;
    };
    for (file, tool, name) in named_tools(unit) {
        if !(IDEMPOTENCY_FINDING.applies)(tool)
            || rules.any_item(name, |item| contains_ignore_case(&item.text, "idempoten"))
        {
            continue;
        }
        // As for TR005: an unmentioned tool is TR003's finding only when TR003 reports it.
        let mentioned = rules.any_item(name, |_| true);
        if !mentioned && unit.reports("TR003", file) {
            continue;
        }
        let section_label = if mentioned {
            format!("no item of this section tells the agent how to retry `{name}`")
        } else {
            format!("no item of this section names `{name}`")
        };
        let diagnostic = sink
            .report(file, tool.span(), (IDEMPOTENCY_FINDING.message)(name))
            .label(IDEMPOTENCY_FINDING.label)
            .secondary(rules.file, rules.heading_span(), section_label)
            .help(format!(
                "add an item such as \"`{name}` is idempotent: reuse the same `idempotency_key` \
                 when retrying a failed call\""
            ));
        if let Some((_, flag)) = tool.idempotent {
            diagnostic.secondary(file, flag, "declared idempotent here");
        }
        let edit = documentable(name)
            .then(|| rules.insert_items(&[idempotency_item(tool, name)], rules.last_mention(name)))
            .flatten();
        if let Some(edit) = edit {
            diagnostic.fix(Fix::safe(
                format!("add an idempotency rule for `{name}`"),
                vec![edit],
            ));
        }
    }
}

/// What TR005 or TR006 reports about one tool.
struct RuleFinding {
    /// Which tools the rule checks.
    applies: fn(&Tool) -> bool,
    message: fn(&str) -> String,
    label: &'static str,
    /// The rule the section should state ("the confirmation rule").
    rule: &'static str,
}

const CONFIRMATION_FINDING: RuleFinding = RuleFinding {
    applies: Tool::is_confirmation_gated,
    message: |name| {
        format!("confirmation-gated tool `{name}` has no confirmation rule in SKILL.md")
    },
    label: "gated, but no item says to confirm first",
    rule: "the confirmation rule",
};

const IDEMPOTENCY_FINDING: RuleFinding = RuleFinding {
    applies: Tool::is_idempotent,
    message: |name| format!("idempotent tool `{name}` has no idempotency rule in SKILL.md"),
    label: "idempotent, but no item says how to retry it",
    rule: "the idempotency rule",
};

/// TR005 or TR006 for a skill without the section that TR001 does not report: each tool the rule
/// applies to, unless TR003 (which then reports every tool) reports it.
fn report_without_section(unit: &Unit<'_>, sink: &mut Sink, finding: &RuleFinding) {
    let Some(skill) = unreported_missing_section(unit) else {
        return;
    };
    let heading = &unit.settings().tool_use_rules_heading;
    for (file, tool, name) in named_tools(unit) {
        if !(finding.applies)(tool) || unit.reports("TR003", file) {
            continue;
        }
        sink.report(file, tool.span(), (finding.message)(name))
            .label(finding.label)
            .secondary(
                skill,
                start_of_file(unit.text(skill)),
                no_section_label(unit),
            )
            .help(format!(
                "add a \"{heading}\" section to SKILL.md with an item that states {} for `{name}`",
                finding.rule
            ));
    }
}

// ---------------------------------------------------------------------------------------------
// TR007

fn write_closing_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
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

/// One sentence holding "write", "confirm" and a negation (never / not / only after).
fn is_closing_rule(sentence: &str) -> bool {
    // Only ASCII words are tested below, so an ASCII case-insensitive prefilter is enough.
    // Cheap substring tests first: most sentences of a section fail them.
    if !has_closing_words(sentence) {
        return false;
    }
    let words = lower_words(sentence);
    let negated = words
        .iter()
        .any(|w| w.as_str() == "never" || is_not(w.as_str()))
        || words
            .windows(2)
            .any(|pair| pair[0].as_str() == "only" && pair[1].as_str() == "after");
    negated
}

/// "not" and its contractions ("don't", "mustn't", "cannot").
fn is_not(word: &str) -> bool {
    word == "not" || word == "cannot" || word.ends_with("n't") || word.ends_with("n\u{2019}t")
}

// ---------------------------------------------------------------------------------------------
// TR008

/// What a sentence claims about confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim {
    /// "may run without confirmation", "no confirmation needed".
    NotNeeded,
    /// "requires confirmation", "only after the user confirms".
    Required,
}

/// A lowercase word of a sentence with its byte range in the sentence. Most words are lowercase
/// already and borrow from the sentence.
#[derive(Debug, Clone)]
struct Word<'a> {
    text: Cow<'a, str>,
    start: usize,
    end: usize,
}

impl Word<'_> {
    fn as_str(&self) -> &str {
        &self.text
    }
}

/// Lowercased words of a sentence with their byte ranges in it: letters, digits, `_` and inner
/// apostrophes ("don't", "user's").
fn lower_words<'a>(sentence: &'a str) -> Vec<Word<'a>> {
    if sentence.is_ascii() {
        ascii_lower_words(sentence)
    } else {
        char_lower_words(sentence)
    }
}

/// `lower_words` for ASCII text, in one pass over the bytes (ASCII text has only `'` for
/// apostrophes). The hottest loop of the TR rules, so it skips the run list `lowered` takes.
fn ascii_lower_words(sentence: &str) -> Vec<Word<'_>> {
    /// The bytes of an ASCII word: letters, digits, `_` and `'`. A table lookup per byte is the
    /// whole cost of the scan.
    const WORD_BYTE: [bool; 256] = {
        let mut table = [false; 256];
        let mut byte = 0;
        while byte < 256 {
            let b = byte as u8;
            table[byte] = b.is_ascii_alphanumeric() || b == b'_' || b == b'\'';
            byte += 1;
        }
        table
    };
    let bytes = sentence.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 6 + 1);
    let mut i = 0;
    while let Some(skip) = bytes[i..].iter().position(|&b| WORD_BYTE[usize::from(b)]) {
        let mut start = i + skip;
        let mut upper = false;
        let mut end = start;
        for &b in &bytes[start..] {
            if !WORD_BYTE[usize::from(b)] {
                break;
            }
            upper |= b.is_ascii_uppercase();
            end += 1;
        }
        i = end;
        while start < end && bytes[start] == b'\'' {
            start += 1;
        }
        while end > start && bytes[end - 1] == b'\'' {
            end -= 1;
        }
        let Some(text) = sentence.get(start..end).filter(|t| !t.is_empty()) else {
            continue;
        };
        // ASCII already: only an uppercase letter needs a copy.
        let text = if upper {
            Cow::Owned(text.to_ascii_lowercase())
        } else {
            Cow::Borrowed(text)
        };
        out.push(Word { text, start, end });
    }
    out
}

fn char_lower_words(sentence: &str) -> Vec<Word<'_>> {
    let marks = sentence.char_indices().map(|(i, c)| {
        (
            i,
            c.is_alphanumeric() || c == '_' || c == '\'' || c == '\u{2019}',
        )
    });
    lowered(split_words(sentence, marks))
}

/// Word runs (offset, text) without their outer apostrophes, lowercased; a word that is
/// lowercase already borrows from the sentence.
fn lowered<'a>(runs: impl ExactSizeIterator<Item = (usize, &'a str)>) -> Vec<Word<'a>> {
    let mut out = Vec::with_capacity(runs.len());
    for (start, raw) in runs {
        let trimmed_start = raw.len() - raw.trim_start_matches(['\'', '\u{2019}']).len();
        let text = raw.trim_matches(['\'', '\u{2019}']);
        if text.is_empty() {
            continue;
        }
        out.push(Word {
            text: lowercase(text),
            start: start + trimmed_start,
            end: start + trimmed_start + text.len(),
        });
    }
    out
}

/// A word in lowercase, borrowed when it is lowercase already.
fn lowercase(word: &str) -> Cow<'_, str> {
    if !word.is_ascii() {
        Cow::Owned(word.to_lowercase())
    } else if word.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(word.to_ascii_lowercase())
    } else {
        Cow::Borrowed(word)
    }
}

/// Every claim phrase holds one of these stems; sentences without any are skipped cheaply.
fn may_claim(sentence: &str) -> bool {
    ["confirm", "ask", "approval", "permission", "consent"]
        .iter()
        .any(|stem| contains_ascii_ignore_case(sentence, stem))
}

fn is_confirm(word: &str) -> bool {
    word.starts_with("confirm")
}

fn is_negator(word: &str) -> bool {
    word == "never" || word == "no" || word == "nor" || is_not(word)
}

/// The claims of one sentence: (claim, first word, last word) for each phrase found, skipping
/// phrases that a negation earlier in the same clause turns around ("never call it without
/// confirmation").
fn claims(words: &[Word], sentence: &str) -> Vec<(Claim, usize, usize)> {
    let mut out = Vec::new();
    let at = |i: usize| words.get(i).map_or("", Word::as_str);
    let confirm_within = |from: usize, count: usize| {
        (from..from + count)
            .take_while(|j| *j < words.len())
            .find(|j| is_confirm(at(*j)))
    };
    for i in 0..words.len() {
        let word = at(i);
        // Phrases saying a confirmation is not needed.
        let not_needed_end = match word {
            "without" => (i + 1..i + 4).take_while(|j| *j < words.len()).find(|j| {
                let w = at(*j);
                is_confirm(w)
                    || matches!(w, "ask" | "asking" | "approval" | "permission" | "consent")
            }),
            "no" => confirm_within(i + 1, 2),
            "skip" | "skips" | "skipping" | "bypass" | "bypasses" => confirm_within(i + 1, 3),
            w if is_not(w) && is_need(at(i + 1)) => confirm_within(i + 2, 3),
            w if is_not(w) && is_need(at(i + 2)) => confirm_within(i + 3, 3),
            _ => None,
        };
        if let Some(end) = not_needed_end {
            out.push((Claim::NotNeeded, i, end));
            continue;
        }
        // Phrases saying a confirmation is required.
        let required_end = match word {
            w if is_need(w) || w == "must" => (i + 1..i + 4)
                .take_while(|j| *j < words.len())
                .take_while(|j| !is_negator(at(*j)) && at(*j) != "without")
                .find(|j| is_confirm(at(*j))),
            "only" if at(i + 1) == "after" => confirm_within(i + 2, words.len()),
            "ask" | "asks" | "asking" => confirm_within(i + 1, 4),
            _ => None,
        };
        if let Some(end) = required_end {
            out.push((Claim::Required, i, end));
        }
    }
    out.retain(|(_, first, _)| {
        let clause_start = clause_start(words, sentence, *first);
        !words
            .get(clause_start..*first)
            .unwrap_or_default()
            .iter()
            .any(|w| is_negator(w.as_str()) || w.as_str() == "without")
    });
    out
}

fn is_need(word: &str) -> bool {
    matches!(
        word,
        "need" | "needs" | "needed" | "require" | "requires" | "required" | "requiring"
    )
}

/// Index of the first word of the clause holding word `index` (clauses end at `;` and `:`).
fn clause_start(words: &[Word], sentence: &str, index: usize) -> usize {
    let Some(word) = words.get(index) else {
        return index;
    };
    let boundary = sentence
        .get(..word.start)
        .and_then(|before| before.rfind([';', ':']));
    match boundary {
        Some(b) => words.iter().position(|w| w.start > b).unwrap_or(index),
        None => 0,
    }
}

fn confirmation_rule_contradicts_contract(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        return;
    };
    let tools = named_tools(unit);
    if tools.is_empty() {
        return;
    }
    let tools_name = tools_file_name(unit);
    let naming: Vec<Rc<[usize]>> = tools
        .iter()
        .map(|(_, _, name)| rules.items_naming(name))
        .collect();
    for (position, item) in rules.items.iter().enumerate() {
        let text = item.text.as_str();
        // No sentence of an item without a claim stem can claim anything (most items).
        if !may_claim(text) {
            continue;
        }
        // (offset in the item text, tool index) of every mention, in text order; only the
        // tools the item names are searched for.
        let mut mentions: Vec<(usize, usize)> = tools
            .iter()
            .enumerate()
            .filter(|(index, _)| naming[*index].contains(&position))
            .flat_map(|(index, (_, _, name))| {
                word_positions(text, name)
                    .into_iter()
                    .map(move |p| (p, index))
            })
            .collect();
        if mentions.is_empty() {
            continue;
        }
        mentions.sort_unstable();
        let mut reported: Vec<(usize, Claim)> = Vec::new();
        for sentence in super::util::sentences(text) {
            let base = offset_in(text, sentence);
            if !may_claim(sentence) {
                continue;
            }
            let words = lower_words(sentence);
            for (claim, first, last) in claims(&words, sentence) {
                let (Some(first_word), Some(last_word)) = (words.get(first), words.get(last))
                else {
                    continue;
                };
                let phrase_start = base + first_word.start;
                let Some(index) = subject(&mentions, base, base + sentence.len(), phrase_start)
                else {
                    continue;
                };
                let Some((tool_file, tool, name)) = tools.get(index) else {
                    continue;
                };
                let contradicts = match claim {
                    Claim::NotNeeded => tool.is_confirmation_gated(),
                    Claim::Required => {
                        tool.side_effect == SideEffect::Read && !tool.is_confirmation_gated()
                    }
                };
                if !contradicts || reported.contains(&(index, claim)) {
                    continue;
                }
                reported.push((index, claim));
                let phrase = sentence
                    .get(first_word.start..last_word.end)
                    .unwrap_or_default();
                let span = locate_phrase(rules.text, item.span, phrase).unwrap_or(item.span);
                match claim {
                    Claim::NotNeeded => {
                        let diagnostic = sink
                            .report(
                                rules.file,
                                span,
                                format!(
                                    "SKILL.md lets `{name}` run without confirmation, but \
                                     `{tools_name}` requires it"
                                ),
                            )
                            .label("contradicts the confirmation gate")
                            .help(format!(
                                "say that `{name}` runs only after the user explicitly confirms \
                                 the exact operation, or change the contract deliberately if it \
                                 truly needs no confirmation"
                            ));
                        if let Some((_, flag)) = tool.confirmation {
                            diagnostic.secondary(
                                *tool_file,
                                flag,
                                format!("`{name}` requires confirmation here"),
                            );
                        }
                    }
                    Claim::Required => {
                        let (flag, flag_label) = match (tool.confirmation, tool.side_effect_span) {
                            (Some((_, flag)), _) => {
                                (flag, format!("`{name}` is not confirmation-gated here"))
                            }
                            (None, Some(side)) => (side, format!("`{name}` is read-only here")),
                            (None, None) => (tool.span(), format!("`{name}` is defined here")),
                        };
                        sink.report(
                            rules.file,
                            span,
                            format!(
                                "SKILL.md says read tool `{name}` requires confirmation, but \
                                 `{tools_name}` does not gate it"
                            ),
                        )
                        .severity(Severity::Warning)
                        .label("contradicts the contract")
                        .secondary(*tool_file, flag, flag_label)
                        .help(format!(
                            "drop the confirmation requirement for `{name}`, or gate it in \
                             `{tools_name}` if it really changes something"
                        ));
                    }
                }
            }
        }
    }
}

/// Byte offset of the subslice `part` inside `whole` (both from the same string).
fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize)
        .saturating_sub(whole.as_ptr() as usize)
        .min(whole.len())
}

/// Every whole-word occurrence of `word` in `text`.
fn word_positions(text: &str, word: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|rest| find_word(rest, word)) {
        out.push(from + i);
        from += i + word.len().max(1);
    }
    out
}

/// The tool a phrase at `phrase` (inside the sentence `start..end`) is about: the last tool
/// mentioned before it in the sentence, else the first one after it in the sentence, else the last
/// one mentioned in an earlier sentence of the item.
fn subject(mentions: &[(usize, usize)], start: usize, end: usize, phrase: usize) -> Option<usize> {
    let before = mentions
        .iter()
        .rev()
        .find(|(p, _)| *p >= start && *p < phrase);
    let after = || mentions.iter().find(|(p, _)| *p >= phrase && *p < end);
    let earlier = || mentions.iter().rev().find(|(p, _)| *p < start);
    before.or_else(after).or_else(earlier).map(|(_, i)| *i)
}

/// Finds `phrase` (words separated by any whitespace, ASCII case-insensitive) in the source of
/// `within`, starting at a word boundary.
fn locate_phrase(file_text: &str, within: Span, phrase: &str) -> Option<Span> {
    let source = file_text.get(within.start..within.end)?;
    let parts: Vec<&str> = phrase.split_whitespace().collect();
    if parts.is_empty() {
        return None;
    }
    for (i, _) in source.char_indices() {
        let boundary = source[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        if !boundary {
            continue;
        }
        if let Some(len) = match_parts(&source[i..], &parts) {
            return Some(Span::new(within.start + i, within.start + i + len));
        }
    }
    None
}

fn match_parts(source: &str, parts: &[&str]) -> Option<usize> {
    let mut pos = 0;
    for (k, part) in parts.iter().enumerate() {
        if k > 0 {
            let rest = source.get(pos..)?;
            let gap = rest.len() - rest.trim_start().len();
            if gap == 0 {
                return None;
            }
            pos += gap;
        }
        let candidate = source.get(pos..pos + part.len())?;
        if !candidate.eq_ignore_ascii_case(part) {
            return None;
        }
        pos += part.len();
    }
    Some(pos)
}

// ---------------------------------------------------------------------------------------------
// TR009

fn allowed_tools_preapproves_write(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, doc)) = unit.skill() else {
        return;
    };
    let Some(allowed) = doc
        .doc
        .frontmatter()
        .and_then(|f| f.root.get("allowed-tools"))
    else {
        return;
    };
    // The spec's form is one space-separated string; a list is reported by SK016 but pre-approves
    // the same tools.
    let values: Vec<&Node> = match &allowed.value {
        Value::String(_) => vec![allowed],
        Value::Array(items) => items.iter().filter(|n| n.as_str().is_some()).collect(),
        _ => return,
    };
    let text = unit.text(file);
    for value in values {
        let Some(list) = value.as_str() else {
            continue;
        };
        let source = text
            .get(value.span.start..value.span.end)
            .unwrap_or_default();
        let mut cursor = 0;
        // Commas are not the spec's separator (SK016 says so) but must not hide a write tool.
        let tokens = list.split(|c: char| c.is_whitespace() || c == ',');
        for name in tokens.map(|t| t.trim_matches(['"', '\''])) {
            if name.is_empty() {
                continue;
            }
            let found = source
                .get(cursor..)
                .and_then(|rest| find_word(rest, name).map(|i| cursor + i));
            let span = match found {
                Some(i) => {
                    cursor = i + name.len();
                    Span::new(value.span.start + i, value.span.start + i + name.len())
                }
                _ => value.span,
            };
            let Some((tool_file, tool)) = unit.find_tool(name) else {
                continue;
            };
            let (kind, flag, flag_label) = if tool.is_write() {
                (
                    "write tool",
                    tool.side_effect_span.unwrap_or_else(|| tool.span()),
                    format!("`{name}` is a write tool"),
                )
            } else if let (true, Some((_, flag))) =
                (tool.is_confirmation_gated(), tool.confirmation)
            {
                (
                    "confirmation-gated tool",
                    flag,
                    format!("`{name}` requires confirmation"),
                )
            } else {
                continue;
            };
            sink.report(
                file,
                span,
                format!("`allowed-tools` pre-approves {kind} `{name}`"),
            )
            .label("pre-approved, so the confirmation step is skipped")
            .secondary(tool_file, flag, flag_label)
            .help(format!(
                "remove `{name}` from `allowed-tools` so every call waits for the user's confirmation"
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TR010

fn tool_use_rules_without_tools(unit: &Unit<'_>, sink: &mut Sink) {
    if unit.has_tools_file() {
        return;
    }
    let Some(rules) = RulesSection::of(unit) else {
        return;
    };
    // In order of first mention, each once (a set, as a section may name thousands).
    let mut names: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for item in rules.items {
        for named in names_in_item(item, rules.text, is_vocabulary) {
            if seen.insert(named.text) {
                names.push(named.text);
            }
        }
    }
    if names.is_empty() {
        return;
    }
    let shown: Vec<String> = names.iter().take(3).map(|n| format!("`{n}`")).collect();
    let label = match names.len().saturating_sub(shown.len()) {
        0 => format!("names {}", shown.join(", ")),
        more => format!("names {} and {more} more", shown.join(", ")),
    };
    sink.report(
        rules.file,
        rules.heading_span(),
        format!(
            "the \"{}\" section names tools but the skill has no tools.json",
            rules.heading_text()
        ),
    )
    .label(label)
    .help(
        "add the missing tools.json beside SKILL.md defining these tools, or delete the section \
         if the skill has no tools",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostic;

    const TOOLS: &str = r#"[
  {"name": "list_events", "type": "read", "description": "List events.", "requiresConfirmation": false, "idempotent": false,
   "inputSchema": {"type": "object", "properties": {"from": {"type": "string"}}, "required": ["from"]}},
  {"name": "create_event", "type": "write", "description": "Add an event.", "requiresConfirmation": true, "idempotent": true,
   "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}, "mode": {"type": "string", "enum": ["fast_track"]},
     "user_confirmed": {"type": "boolean"}, "idempotency_key": {"type": "string"}},
     "required": ["title", "user_confirmed", "idempotency_key"]}}
]"#;

    const GOOD_RULES: &str = "## Tool Use Rules\n\n\
        - Only the tools listed below may be used. Never invent or call other tools.\n\
        - `list_events` is read-only and may be called without confirmation.\n\
        - `create_event` changes the calendar: call it only after the user explicitly confirms \
          this exact\n  operation, and pass `user_confirmed: true`.\n\
        - `create_event` is idempotent: reuse the same `idempotency_key` when retrying.\n\
        - Never execute a write operation without explicit confirmation in the current conversation.\n";

    fn skill(frontmatter_extra: &str, body: &str) -> String {
        format!(
            "---\nname: calendar\ndescription: Books events.\n{frontmatter_extra}---\n\n# Calendar\n\n{body}"
        )
    }

    /// Lints one `calendar/` folder with only `code` selected; returns (diagnostic, primary text).
    fn run(code: &str, skill_md: &str, tools: Option<&str>) -> Vec<(Diagnostic, String)> {
        let mut files = vec![("calendar/SKILL.md", skill_md)];
        files.extend(tools.map(|tools| ("calendar/tools.json", tools)));
        crate::check::testing::findings(code, &files)
    }

    #[test]
    fn good_section_is_clean_for_every_rule() {
        let md = skill("allowed-tools: list_events\n", GOOD_RULES);
        for code in [
            "TR001", "TR002", "TR003", "TR004", "TR005", "TR006", "TR007", "TR008", "TR009",
            "TR010",
        ] {
            let found = run(code, &md, Some(TOOLS));
            assert!(
                found.is_empty(),
                "{code}: {:?}",
                found.first().map(|f| &f.0.message)
            );
        }
    }

    #[test]
    fn tr001_points_at_the_frontmatter_opening_and_ignores_skills_without_tools() {
        let md = skill("", "Call `list_events`.\n");
        let found = run("TR001", &md, Some(TOOLS));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "---");
        assert!(run("TR001", &md, None).is_empty());
        // An unparseable tools.json still asks for the section.
        assert_eq!(run("TR001", &md, Some("[{")).len(), 1);
    }

    #[test]
    fn tr004_points_at_the_phantom_and_skips_unparseable_tools() {
        let body = GOOD_RULES.replace(
            "- Never execute",
            "- Use `fast_track` mode, `tools.json`, and never call delete_event or `create_evnt`.\n- Never execute",
        );
        let md = skill("", &body);
        let found = run("TR004", &md, Some(TOOLS));
        let spans: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
        assert_eq!(spans, vec!["delete_event", "create_evnt"]);
        assert!(found[1]
            .0
            .help
            .as_deref()
            .unwrap_or_default()
            .contains("`create_event`"));
        assert!(run("TR004", &md, Some("[{")).is_empty());
    }

    /// The codes reported on one `calendar/` folder with `codes` selected, in report order.
    fn codes_found(codes: &[&str], skill_md: &str, tools: &str) -> Vec<&'static str> {
        let dir = tempfile::tempdir().expect("temp dir");
        let files = [
            ("calendar/SKILL.md", skill_md),
            ("calendar/tools.json", tools),
        ];
        crate::check::testing::write(dir.path(), &files);
        let options = crate::check::testing::options(dir.path(), codes);
        let outcome = crate::engine::lint(&options).expect("lint runs");
        outcome.diagnostics.iter().map(|d| d.code).collect()
    }

    /// The names TR004 reports in the good section with `item` added, as written.
    fn phantom_names(item: &str) -> Vec<String> {
        let body = GOOD_RULES.replace("- Never execute", &format!("{item}\n- Never execute"));
        run("TR004", &skill("", &body), Some(TOOLS))
            .into_iter()
            .map(|(_, text)| text)
            .collect()
    }

    #[test]
    fn tr004_takes_for_tools_only_names_that_read_as_tools() {
        // Where a name reads as a tool: opening the item, after a call verb, before "tool".
        assert_eq!(
            phantom_names("- `delete_event` removes an event."),
            ["delete_event"]
        );
        assert_eq!(
            phantom_names("- Bulk removal: `purge_events` empties a day."),
            ["purge_events"]
        );
        assert!(phantom_names("- Paging works: the last `page_cursor` is kept.").is_empty());
        assert!(phantom_names("- Four words of label: `purge_events` empties.").is_empty());
        assert_eq!(
            phantom_names("- Never call `delete_event`."),
            ["delete_event"]
        );
        assert_eq!(
            phantom_names("- Before invoking delete_event, ask."),
            ["delete_event"]
        );
        assert_eq!(
            phantom_names("- Reject calls to `delete_event`."),
            ["delete_event"]
        );
        assert_eq!(
            phantom_names("- Prefer the `delete_event` tool."),
            ["delete_event"]
        );
        // A single word in code is a tool only when the item says so.
        assert_eq!(phantom_names("- Prefer the `search` tool."), ["search"]);
        assert!(phantom_names("- Never call `search`.").is_empty());
        // Lists headed by a verb or ended by "tools".
        assert_eq!(
            phantom_names("- Call `remove_event`, `move_event` or `copy_event` only when asked."),
            ["remove_event", "move_event", "copy_event"]
        );
        assert_eq!(
            phantom_names("- The `move_event` and `copy_event` tools are gone."),
            ["move_event", "copy_event"]
        );
        // Anywhere else a name is a value or a field.
        assert!(
            phantom_names("- Pass the `calendar_id` and `next_page_token` back unchanged.")
                .is_empty()
        );
        assert!(phantom_names("- Show the `event_id` field to the user.").is_empty());
        assert!(phantom_names("- Use `event_id` field values as they are.").is_empty());
        // Placeholders never name a tool, wherever they are.
        assert!(phantom_names("- `YYYY_MM_DD` dates are local; call `API_KEY` never.").is_empty());
    }

    #[test]
    fn tr004_knows_the_schema_names_in_any_spelling() {
        let tools = TOOLS.replace(
            r#""from": {"type": "string"}"#,
            r#""from": {"type": "string"}, "calendarId": {"type": "object", "properties": {"nextPageToken": {"type": "string"}}}"#,
        );
        let body = GOOD_RULES.replace(
            "- Never execute",
            "- Use `calendar_id` and use `next_page_token`; run `fast_track` mode.\n- Never execute",
        );
        assert!(run("TR004", &skill("", &body), Some(&tools)).is_empty());
    }

    #[test]
    fn tr004_points_at_the_occurrence_that_reads_as_a_tool() {
        // The first `remove_event` is a value; the one after "call" is the tool.
        let md = skill(
            "",
            &GOOD_RULES.replace(
                "- Never execute",
                "- A remove_event entry is logged; never call remove_event.\n- Never execute",
            ),
        );
        let found = run("TR004", &md, Some(TOOLS));
        assert_eq!(found.len(), 1);
        let start = found[0].0.primary.span.start;
        assert_eq!(&md[start - 5..start], "call ");
        assert_eq!(found[0].1, "remove_event");
    }

    #[test]
    fn tr004_suggests_the_tool_a_phantom_was_renamed_to() {
        // By edit distance `cancel_event` is nearer `create_event`; the verb says `delete_event`.
        let tools = TOOLS.replace(r#""name": "list_events""#, r#""name": "delete_event""#);
        let body = GOOD_RULES.replace("list_events", "delete_event").replace(
            "- Never execute",
            "- Call `cancel_event` only after the user confirms.\n- Call `createEvent` once.\n\
             - Call `create_evnt` once.\n- Never execute",
        );
        let found = run("TR004", &skill("", &body), Some(&tools));
        let suggested: Vec<(&str, Option<&str>)> = found
            .iter()
            .map(|(d, text)| {
                let help = d.help.as_deref().unwrap_or_default();
                let nearest = help
                    .split("(nearest: `")
                    .nth(1)
                    .and_then(|r| r.split('`').next());
                (text.as_str(), nearest)
            })
            .collect();
        assert_eq!(
            suggested,
            [
                ("cancel_event", Some("delete_event")),
                ("createEvent", Some("create_event")),
                ("create_evnt", Some("create_event")),
            ]
        );
    }

    #[test]
    fn tr005_and_tr006_leave_unmentioned_tools_to_tr003_only_while_it_runs() {
        let body = "## Tool Use Rules\n\n- Only the tools listed below may be used.\n- `list_events` is read-only.\n";
        let md = skill("", body);
        assert_eq!(
            codes_found(&["TR003", "TR005", "TR006"], &md, TOOLS),
            ["TR003"]
        );
        // Alone, each reports the unmentioned tool itself.
        let found = run("TR005", &md, Some(TOOLS));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "\"create_event\"");
        assert!(found[0]
            .0
            .secondary
            .iter()
            .any(|l| l.message.as_deref() == Some("no item of this section names `create_event`")));
        assert_eq!(run("TR006", &md, Some(TOOLS)).len(), 1);
    }

    #[test]
    fn without_a_section_the_rules_report_it_only_while_tr001_is_off() {
        let md = skill("", "Use the calendar tools.\n");
        let family = ["TR001", "TR002", "TR003", "TR005", "TR006", "TR007"];
        assert_eq!(codes_found(&family, &md, TOOLS), ["TR001"]);
        // Without TR001, TR003 reports every tool and TR005/TR006 leave theirs to it.
        assert_eq!(
            codes_found(&family[1..], &md, TOOLS),
            ["TR002", "TR007", "TR003", "TR003"]
        );
        assert_eq!(
            codes_found(&["TR005", "TR006"], &md, TOOLS),
            ["TR005", "TR006"]
        );
        let allowlist = run("TR002", &md, Some(TOOLS));
        assert_eq!(allowlist.len(), 1);
        assert_eq!(allowlist[0].1, "---");
        // A skill without tools needs no section.
        assert!(run("TR002", &md, None).is_empty());
    }

    #[test]
    fn tr007_needs_the_three_words_in_one_sentence() {
        let split = GOOD_RULES.replace(
            "- Never execute a write operation without explicit confirmation in the current conversation.",
            "- Write operations need explicit confirmation.\n- Never skip it.",
        );
        assert_eq!(run("TR007", &skill("", &split), Some(TOOLS)).len(), 1);
        let contraction = GOOD_RULES.replace(
            "- Never execute a write operation without explicit confirmation in the current conversation.",
            "- Don't run write operations without explicit confirmation.",
        );
        assert!(run("TR007", &skill("", &contraction), Some(TOOLS)).is_empty());
        let without_only = GOOD_RULES.replace(
            "- Never execute a write operation without explicit confirmation in the current conversation.",
            "- Write operations happen without confirmation.",
        );
        assert_eq!(
            run("TR007", &skill("", &without_only), Some(TOOLS)).len(),
            1
        );
    }

    #[test]
    fn tr008_attributes_phrases_to_the_nearest_tool_and_respects_negation() {
        let body = "## Tool Use Rules\n\n\
            - `list_events` may be called without confirmation; `create_event` only after the user confirms.\n\
            - Never call `create_event` without confirmation.\n\
            - `create_event` can run with no\n  confirmation needed.\n\
            - `list_events` requires explicit confirmation.\n\
            - `list_events` never requires confirmation.\n";
        let found = run("TR008", &skill("", body), Some(TOOLS));
        let summary: Vec<(Severity, &str)> =
            found.iter().map(|f| (f.0.severity, f.1.as_str())).collect();
        assert_eq!(
            summary,
            vec![
                (Severity::Error, "no\n  confirmation"),
                (Severity::Warning, "requires explicit confirmation"),
            ]
        );
    }

    #[test]
    fn tr009_reports_each_write_token_and_reads_lists() {
        let md = skill(
            "allowed-tools: \"list_events create_event unknown_tool\"\n",
            GOOD_RULES,
        );
        let found = run("TR009", &md, Some(TOOLS));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "create_event");
        let md = skill("allowed-tools: [create_event]\n", GOOD_RULES);
        assert_eq!(run("TR009", &md, Some(TOOLS)).len(), 1);
        let md = skill("allowed-tools: list_events,create_event\n", GOOD_RULES);
        let found = run("TR009", &md, Some(TOOLS));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "create_event");
    }

    #[test]
    fn tr010_needs_a_named_tool() {
        let prose = "## Tool Use Rules\n\n- Be careful and ask before changing anything.\n";
        assert!(run("TR010", &skill("", prose), None).is_empty());
        let found = run("TR010", &skill("", GOOD_RULES), None);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "## Tool Use Rules");
    }

    #[test]
    fn tr008_survives_text_whose_lowercase_changes_length() {
        let body = "## Tool Use Rules\n\n- İSTANBUL `create_event` läuft — without asking.\n";
        let found = run("TR008", &skill("", body), Some(TOOLS));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "without asking");
    }

    /// Runs the fix loop over one `calendar/` folder with `codes` selected; returns the fixed
    /// SKILL.md (or the original when nothing changed) and what still fires.
    fn fixed(codes: &[&str], skill_md: &str, tools: &str) -> (String, Vec<&'static str>) {
        let files = [
            ("calendar/SKILL.md", skill_md),
            ("calendar/tools.json", tools),
        ];
        crate::check::testing::fix_files(codes, &files, "SKILL.md", skill_md)
    }

    const ALL_TR: [&str; 10] = [
        "TR001", "TR002", "TR003", "TR004", "TR005", "TR006", "TR007", "TR008", "TR009", "TR010",
    ];

    #[test]
    fn tr001_appends_a_section_that_satisfies_every_rule() {
        let md = "---\nname: calendar\ndescription: d\n---\n\n# Calendar\n\n### Steps\n\n* one";
        let (text, remaining) = fixed(&ALL_TR, md, TOOLS);
        assert!(remaining.is_empty(), "{remaining:?}");
        assert_eq!(
            text.strip_prefix(md).expect("appended"),
            "\n\n### Tool Use Rules\n\n\
             * Only the tools listed below may be used. Never invent or call other tools.\n\
             * `list_events` is read-only and may be called without confirmation.\n\
             * `create_event`: call it only after the user explicitly confirms this exact \
             operation, and pass `user_confirmed: true`.\n\
             * `create_event` is idempotent: reuse the same `idempotency_key` when retrying a \
             failed call.\n\
             * Never execute a write operation without explicit confirmation in the current \
             conversation.\n"
        );
        // A file that ends inside a code block would swallow the section: no fix.
        let open_fence = skill("", "```\ncode\n");
        let (text, remaining) = fixed(&["TR001"], &open_fence, TOOLS);
        assert_eq!(text, open_fence);
        assert_eq!(remaining, vec!["TR001"]);
    }

    #[test]
    fn section_fixes_follow_the_list_style_and_keep_crlf() {
        let body = "## Tool Use Rules\r\n\r\n  + `list_events` reads.\r\n\r\n  + `create_event` \
                    writes.\r\n    - nested `create_event` note\r\n\r\n## Next\r\n";
        let md = skill("", body).replace('\n', "\r\n").replace("\r\r", "\r");
        let (text, remaining) = fixed(&ALL_TR, &md, TOOLS);
        assert!(remaining.is_empty(), "{remaining:?}");
        assert!(!text.replace("\r\n", "").contains('\n'), "{text:?}");
        let section = text
            .split("## Tool Use Rules\r\n\r\n")
            .nth(1)
            .and_then(|rest| rest.split("## Next").next())
            .expect("section");
        assert_eq!(
            section,
            "  + Only the tools listed below may be used. Never invent or call other tools.\r\n\r\n\
             \x20 + `list_events` reads.\r\n\r\n\
             \x20 + `create_event` writes.\r\n\
             \x20   - nested `create_event` note\r\n\r\n\
             \x20 + `create_event`: call it only after the user explicitly confirms this exact \
             operation, and pass `user_confirmed: true`.\r\n\r\n\
             \x20 + `create_event` is idempotent: reuse the same `idempotency_key` when retrying a \
             failed call.\r\n\r\n\
             \x20 + Never execute a write operation without explicit confirmation in the current \
             conversation.\r\n\r\n"
        );
    }

    #[test]
    fn tr003_goes_before_the_closing_rule_and_wraps_like_the_list() {
        let body = GOOD_RULES.replace(
            "- `create_event` changes the calendar: call it only after the user explicitly confirms \
             this exact\n  operation, and pass `user_confirmed: true`.\n\
             - `create_event` is idempotent: reuse the same `idempotency_key` when retrying.\n",
            "- `list_events` returns the events of a period, with their titles, start times and\n  \
             attendees.\n",
        );
        let (text, remaining) = fixed(&ALL_TR, &skill("", &body), TOOLS);
        assert!(remaining.is_empty(), "{remaining:?}");
        assert!(
            text.ends_with(
                "  attendees.\n\
                 - `create_event`: call it only after the user explicitly confirms this exact \
                 operation, and\n  pass `user_confirmed: true`.\n\
                 - `create_event` is idempotent: reuse the same `idempotency_key` when retrying a \
                 failed\n  call.\n\
                 - Never execute a write operation without explicit confirmation in the current conversation.\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn sections_without_a_list_get_one_after_their_prose() {
        let body = "## Tool Use Rules\nUse the tools with care.\n## Next\n";
        let (text, remaining) = fixed(&ALL_TR, &skill("", body), TOOLS);
        assert!(remaining.is_empty(), "{remaining:?}");
        assert!(
            text.contains(
                "## Tool Use Rules\nUse the tools with care.\n\n\
                 - Only the tools listed below may be used. Never invent or call other tools.\n\
                 - `list_events` is read-only"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("in the current conversation.\n\n## Next\n"),
            "{text}"
        );
    }

    #[test]
    fn ordered_lists_are_numbered_on_and_never_renumbered() {
        let body = "## Tool Use Rules\n\n1. `list_events` reads.\n2. `create_event` adds an \
                    event: ask the user to confirm it and pass `user_confirmed: true`; it is \
                    idempotent, reuse the `idempotency_key`.\n";
        let (text, remaining) = fixed(&ALL_TR, &skill("", body), TOOLS);
        // The allowlist rule would have to become item 1: left to a person.
        assert_eq!(remaining, vec!["TR002"]);
        assert!(
            text.ends_with("reuse the `idempotency_key`.\n3. Never execute a write operation without explicit confirmation in the current conversation.\n"),
            "{text}"
        );
    }

    #[test]
    fn gated_read_tools_get_no_confirmation_rule() {
        let tools = TOOLS.replace(
            "\"description\": \"List events.\", \"requiresConfirmation\": false",
            "\"description\": \"List events.\", \"requiresConfirmation\": true",
        );
        let body = GOOD_RULES.replace(
            "- `list_events` is read-only and may be called without confirmation.\n",
            "",
        );
        let (text, _) = fixed(&["TR003"], &skill("", &body), &tools);
        assert!(text.contains("- `list_events` is read-only.\n"), "{text}");
    }

    #[test]
    fn ascii_lower_words_match_the_char_version() {
        let sentences = [
            "don't ask; the user's ok",
            "'quoted' words'' and ''leading",
            "Never call `create_event` WITHOUT Confirmation.",
            "  spaces\tand\ttabs  ",
            "",
            "'",
            "a'b'c 12ab_CD x",
            "Only after the user confirms: call it.",
        ];
        for sentence in sentences {
            let ascii: Vec<(String, usize, usize)> = ascii_lower_words(sentence)
                .iter()
                .map(|w| (w.as_str().to_string(), w.start, w.end))
                .collect();
            let chars: Vec<(String, usize, usize)> = char_lower_words(sentence)
                .iter()
                .map(|w| (w.as_str().to_string(), w.start, w.end))
                .collect();
            assert_eq!(ascii, chars, "{sentence:?}");
        }
    }

    #[test]
    fn words_and_claims() {
        let words = lower_words("don't ask; the user's ok");
        let texts: Vec<&str> = words.iter().map(Word::as_str).collect();
        assert_eq!(texts, vec!["don't", "ask", "the", "user's", "ok"]);
        let sentence = "it requires no confirmation";
        let claims = claims(&lower_words(sentence), sentence);
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0].0, Claim::NotNeeded);
    }
}
