//! The skill's Tool Use Rules section and what its items say about tools: the section under the
//! heading configured in `tool_use_rules_heading` with its list items and paragraphs
//! ([`find_section`]), which items name a given tool ([`items_naming`]), and which names an item
//! reads as tools by the grammar of TR004 ([`names_in_item`]). The TR rules, and anything else
//! that asks what a section says about a tool, read these.

use crate::index::UnitView;
use crate::parse::markdown::{Section, TextBlock};
use crate::parse::words::{
    contains_word, find_word, is_word_char, looks_like_snake_case_identifier, words,
};
use crate::source::Span;
use std::cell::OnceCell;
use std::collections::HashSet;

/// The unit's SKILL.md section under the configured heading, with its items; `None` without a
/// SKILL.md or without such a section.
pub(crate) fn find_section<'a>(unit: &UnitView<'a>) -> Option<(Section<'a>, Vec<&'a TextBlock>)> {
    let (_, doc) = unit.skill()?;
    let name = unit.settings().tool_use_rules_heading.as_str();
    let section = doc.doc.body.section(name)?;
    Some((section, doc.doc.body.blocks_in(section.content).collect()))
}

/// Up to this many bytes of item text, a tool name's items are found by scanning them; past it,
/// through an index of their words.
const SCANNED_ITEMS_LEN: usize = 4096;

/// The positions of the `items` that name `name` as a whole word. `word_index` holds the items'
/// words, built by the first lookup that needs it and kept by the caller for the next ones.
pub(crate) fn items_naming<'a>(
    items: &[&'a TextBlock],
    name: &str,
    word_index: &OnceCell<Vec<(&'a str, u32)>>,
) -> Vec<usize> {
    // A name made of word characters occurs as a whole word exactly where it is one of an item's
    // words; any other name (`a.b`, `get-x`) is searched for item by item. So are the items of an
    // ordinary section: scanning a few kilobytes per name costs less than sorting every word,
    // and stays linear in the number of names.
    let items_len: usize = items.iter().map(|item| item.text.len()).sum();
    if name.is_empty() || !name.chars().all(is_word_char) || items_len <= SCANNED_ITEMS_LEN {
        return (0..items.len())
            .filter(|i| contains_word(&items[*i].text, name))
            .collect();
    }
    let index = word_index.get_or_init(|| {
        let mut index: Vec<(&'a str, u32)> = Vec::new();
        for (position, item) in items.iter().enumerate() {
            let position = u32::try_from(position).unwrap_or(u32::MAX);
            index.extend(words(&item.text).map(|(_, w)| (w, position)));
        }
        index.sort_unstable();
        index.dedup();
        index
    });
    let first = index.partition_point(|(word, _)| *word < name);
    index[first..]
        .iter()
        .take_while(|(word, _)| *word == name)
        .map(|(_, position)| *position as usize)
        .collect()
}

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

/// Contract vocabulary and file names, which items mention without meaning a tool.
pub(crate) fn is_vocabulary(name: &str) -> bool {
    NOT_TOOL_NAMES.contains(&name)
        || name
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && FILE_EXTENSIONS.contains(&ext))
}

/// A name an item gives to something that reads as a tool, with where it is written.
pub(crate) struct NamedInItem<'a> {
    pub(crate) text: &'a str,
    pub(crate) span: Span,
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
        out.extend(words(plain).map(|(offset, word)| Token {
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
pub(crate) fn names_in_item<'a>(
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
