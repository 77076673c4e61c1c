//! TR rules: the SKILL.md "Tool Use Rules" section mirrors the tool surface of tools.json
//! (SPEC §3.3). "A contract that exists in JSON but not in the instructions (or vice versa) fails."
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::phrasing` and `rules::util`, and from this module, never from a
//! sibling rule or another family.

#[cfg(test)]
mod tests;
mod tr001_tool_use_rules_missing;
mod tr002_tool_allowlist_rule_missing;
mod tr003_tool_undocumented;
mod tr004_tool_phantom;
mod tr005_confirmation_rule_missing;
mod tr006_idempotency_rule_missing;
mod tr007_write_closing_rule_missing;
mod tr008_confirmation_rule_contradicts_contract;
mod tr009_allowed_tools_preapproves_write;
mod tr010_tool_use_rules_without_tools;

use super::util::{contains_ascii_ignore_case, split_words};
use crate::check::Unit;
use crate::check::{code, Check, RuleImpl, Sink};
use crate::diagnostic::Edit;
use crate::edit::markdown::{item_end, line_after, ListItem, Marker};
use crate::edit::newline;
use crate::index::Parsed;
use crate::model::skill::SkillDoc;
use crate::model::tools::{Dialect, SideEffect, Tool};
use crate::parse::markdown::parse_markdown;
use crate::parse::markdown::{Section, TextBlock};
use crate::source::{FileId, Span};
use std::borrow::Cow;
use std::rc::Rc;
use tr001_tool_use_rules_missing::tool_use_rules_missing;
use tr002_tool_allowlist_rule_missing::tool_allowlist_rule_missing;
use tr003_tool_undocumented::tool_undocumented;
use tr004_tool_phantom::tool_phantom;
use tr005_confirmation_rule_missing::confirmation_rule_missing;
use tr006_idempotency_rule_missing::idempotency_rule_missing;
use tr007_write_closing_rule_missing::write_closing_rule_missing;
use tr008_confirmation_rule_contradicts_contract::confirmation_rule_contradicts_contract;
use tr009_allowed_tools_preapproves_write::allowed_tools_preapproves_write;
use tr010_tool_use_rules_without_tools::tool_use_rules_without_tools;

pub const RULES: &[RuleImpl] = &[
    RuleImpl {
        code: code::TR001,
        check: Check::Unit(tool_use_rules_missing),
    },
    RuleImpl {
        code: code::TR002,
        check: Check::Unit(tool_allowlist_rule_missing),
    },
    RuleImpl {
        code: code::TR003,
        check: Check::Unit(tool_undocumented),
    },
    RuleImpl {
        code: code::TR004,
        check: Check::Unit(tool_phantom),
    },
    RuleImpl {
        code: code::TR005,
        check: Check::Unit(confirmation_rule_missing),
    },
    RuleImpl {
        code: code::TR006,
        check: Check::Unit(idempotency_rule_missing),
    },
    RuleImpl {
        code: code::TR007,
        check: Check::Unit(write_closing_rule_missing),
    },
    RuleImpl {
        code: code::TR008,
        check: Check::Unit(confirmation_rule_contradicts_contract),
    },
    RuleImpl {
        code: code::TR009,
        check: Check::Unit(allowed_tools_preapproves_write),
    },
    RuleImpl {
        code: code::TR010,
        check: Check::Unit(tool_use_rules_without_tools),
    },
];

/// The SKILL.md of a unit with its Tool Use Rules section and the section's items, as the TR
/// rules read and extend it.
struct RulesSection<'a> {
    /// The configured heading text ("Tool Use Rules"), for messages.
    name: &'a str,
    file: FileId,
    text: &'a str,
    doc: &'a SkillDoc,
    section: Section<'a>,
    items: &'a [&'a TextBlock],
    /// The unit, whose facts record which items name which tool.
    unit: Unit<'a>,
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
            unit: *unit,
        })
    }

    fn heading_span(&self) -> Span {
        self.section.heading.span
    }

    fn heading_text(&self) -> &'a str {
        self.name
    }

    /// The positions of the items that name `name` as a whole word (see
    /// [`crate::semantic::UnitFacts::items_naming`]).
    fn items_naming(&self, name: &'a str) -> Rc<[usize]> {
        self.unit.items_naming(name)
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
fn wrap_width<'t>(
    text: &str,
    listed: impl Iterator<Item = (&'t TextBlock, ListItem)>,
    limit: usize,
) -> Option<usize> {
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
        // The list items with how each is written, read again on every pass instead of kept: a
        // section of 200,000 one-line items held 20 MB of them. The first pass makes sure every
        // marker reads, so later passes can skip what does not.
        let listed = || {
            self.items
                .iter()
                .filter(|b| b.is_list_item)
                .map(move |block| Some((*block, ListItem::of(text, block)?)))
        };
        let mut top: Option<usize> = None;
        for entry in listed() {
            let width = entry?.1.indent_width();
            top = Some(top.map_or(width, |top| top.min(width)));
        }
        let (at, insert) = match top {
            None => self.new_list(items)?,
            Some(top) => {
                let tops = || {
                    listed()
                        .flatten()
                        .filter(move |(_, item)| item.indent_width() == top)
                };
                // Items separated by blank lines: keep the new ones loose too.
                let mut loose = false;
                let mut previous: Option<(&TextBlock, ListItem)> = None;
                for (block, item) in tops() {
                    if let Some((previous_block, previous_item)) = &previous {
                        let end = item_end(text, previous_block, previous_item, limit);
                        if text
                            .get(end..item.line_start)
                            .is_some_and(|gap| !gap.is_empty() && gap.trim().is_empty())
                        {
                            loose = true;
                            break;
                        }
                    }
                    previous = Some((block, item));
                }
                let (last_block, last) = tops().next_back()?;
                let wrap = wrap_width(text, listed().flatten(), limit);
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
                        let (_, first) = tops().next()?;
                        if first.is_ordered() {
                            return None;
                        }
                        before(&first)
                    }
                    Slot::BeforeClosing
                        if tops().nth(1).is_some()
                            && !last.is_ordered()
                            && is_closing_item(last_block) =>
                    {
                        before(&last)
                    }
                    Slot::After(target) => {
                        // The top-level item holding the target (itself, or the item it is
                        // nested in): the last that starts before it and ends after it.
                        let holder = tops().rfind(|(block, item)| {
                            item.line_start <= target.span.start
                                && target.span.start < item_end(text, block, item, limit)
                        });
                        match holder {
                            Some((block, item))
                                if !item.is_ordered() || std::ptr::eq(block, last_block) =>
                            {
                                after(block, &item)
                            }
                            _ => after(last_block, &last),
                        }
                    }
                    Slot::End | Slot::BeforeClosing => after(last_block, &last),
                }
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
        let Some((start, fixed_part)) = self.read_back_text(edit, body.start) else {
            return false;
        };
        let markdown = parse_markdown(&fixed_part, start);
        let Some(section) = markdown.section(self.name) else {
            return false;
        };
        // A set: every new item is looked up in it (TR003 inserts one per undocumented tool).
        let texts: std::collections::HashSet<&str> = markdown
            .blocks_in(section.content)
            .filter(|b| b.is_list_item)
            .map(|b| b.text.as_str())
            .collect();
        items
            .iter()
            .all(|item| texts.contains(item_text(item).as_str()))
    }
}

impl RulesSection<'_> {
    /// The part of the text with `edit` applied that decides how the new items read, and where
    /// it starts: from the section's heading, when it opens a line, else from the body's
    /// `start`, up to the first line after the inserted text that starts a list item at the
    /// margin (it ends the item before it, so nothing after it changes the new items), else the
    /// end. Only that part is built and parsed: parsing the whole text again made a 4 MB list
    /// peak at 490 MB, and copying it whole to apply the edit cost 8 MB more. `None` when the
    /// edit does not apply to the text.
    fn read_back_text(&self, edit: &Edit, start: usize) -> Option<(usize, String)> {
        let text = self.text;
        let span = edit.span;
        let applies = span.start <= span.end
            && span.end <= text.len()
            && text.is_char_boundary(span.start)
            && text.is_char_boundary(span.end);
        if !applies {
            return None;
        }
        let heading = self.section.heading.span.start;
        let at_margin = heading >= start
            && (heading == 0 || text.as_bytes().get(heading - 1) == Some(&b'\n'))
            && text[heading..].starts_with('#');
        let from = if at_margin { heading } else { start };
        let from = from.min(span.start);
        // Where the window ends, in the text before the edit (what follows the edit is the
        // same text in both): the whole rest for a replacement.
        let end = if span.is_empty() {
            // The first line after the inserted text.
            let ends_line = if edit.replacement.is_empty() {
                span.start == 0 || text[..span.start].ends_with('\n')
            } else {
                edit.replacement.ends_with('\n')
            };
            let rest = &text[span.start..];
            let mut line = if ends_line {
                span.start
            } else {
                span.start + rest.find('\n').map_or(rest.len(), |i| i + 1)
            };
            loop {
                let Some(rest) = text.get(line..).filter(|rest| !rest.is_empty()) else {
                    break text.len();
                };
                if ["- ", "* ", "+ "]
                    .iter()
                    .any(|marker| rest.starts_with(marker))
                {
                    break line;
                }
                line += rest.find('\n').map_or(rest.len(), |i| i + 1);
            }
        } else {
            text.len()
        };
        let mut part = String::with_capacity(end.saturating_sub(from) + edit.replacement.len());
        part.push_str(&text[from..span.start]);
        part.push_str(&edit.replacement);
        part.push_str(&text[span.end..end.max(span.end)]);
        Some((from, part))
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
    (missing && !unit.reports(code::TR001, file)).then_some(file)
}

/// The label a finding of a skill without the section puts on the start of its SKILL.md.
fn no_section_label(unit: &Unit<'_>) -> String {
    format!(
        "no \"{}\" section in this file",
        unit.settings().tool_use_rules_heading
    )
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

fn skill_name(doc: &SkillDoc) -> Option<&str> {
    doc.doc.frontmatter()?.root.get("name")?.as_str()
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

/// TR005 or TR006 for a skill without the section that TR001 does not report: each tool the rule
/// applies to, unless TR003 (which then reports every tool) reports it.
fn report_without_section(unit: &Unit<'_>, sink: &mut Sink, finding: &RuleFinding) {
    let Some(skill) = unreported_missing_section(unit) else {
        return;
    };
    let heading = &unit.settings().tool_use_rules_heading;
    for (file, tool, name) in named_tools(unit) {
        if !(finding.applies)(tool) || unit.reports(code::TR003, file) {
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
