//! TR rules: the SKILL.md "Tool Use Rules" section mirrors the tool surface of tools.json
//! (SPEC §3.3). "A contract that exists in JSON but not in the instructions (or vice versa) fails."
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::report` and `rules::util`, and from this module, never from a
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

use super::util::{
    contains_ascii_ignore_case, contains_word, find_word, looks_like_snake_case_identifier,
    split_words,
};
use crate::check::Unit;
use crate::check::{Check, RuleImpl, Sink};
use crate::diagnostic::Edit;
use crate::edit::markdown::{item_end, line_after, ListItem, Marker};
use crate::edit::{apply_edits, newline};
use crate::index::Parsed;
use crate::model::skill::SkillDoc;
use crate::model::tools::{Dialect, SideEffect, Tool};
use crate::parse::markdown::parse_markdown;
use crate::parse::markdown::{Section, TextBlock};
use crate::semantic::UnitMemo;
use crate::source::{FileId, Span};
use std::borrow::Cow;
use std::collections::HashSet;
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
