//! YAML with a span on every key and value, built from saphyr-parser's event stream.
//!
//! We build our own tree instead of using a DOM loader so that we control the hostile cases:
//! duplicate keys are errors, alias expansion has a node budget (an alias bomb stops early instead of
//! exhausting memory), nesting depth is bounded, and portability hazards (flow collections, anchors,
//! tags) are recorded for SK015.

use super::node::{KeyIndex, Member, Node, Number, Value};
use crate::source::Span;
use saphyr_parser::{Event, Parser, ScalarStyle, Span as YamlSpan};
use std::collections::HashMap;

/// Aliases may re-use at most this many nodes in total; more is treated as an alias bomb.
const ALIAS_NODE_BUDGET: usize = 10_000;
/// Aliases may re-use at most this many bytes of text (scalars and keys) in total, or the length
/// of the document when that is more: a few nodes can hold megabytes (a 2 MB scalar aliased
/// 9,000 times is 18 GB), so nodes alone do not bound the memory an expansion takes.
const ALIAS_BYTE_BUDGET: usize = 1 << 20;
/// Frontmatter is shallow; anything deeper than this is hostile or broken.
const MAX_DEPTH: usize = 128;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub span: Span,
    /// Where a duplicate key was first defined (for a secondary label).
    pub first_definition: Option<Span>,
}

/// YAML constructs that are valid YAML but rejected by stricter consumers (the Agent Skills reference
/// validator uses StrictYAML).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct YamlFeatures {
    pub flow_collections: Vec<Span>,
    pub anchors: Vec<Span>,
    pub aliases: Vec<Span>,
    pub tags: Vec<Span>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct YamlDocument {
    /// `None` for an empty document (only comments or nothing).
    pub root: Option<Node>,
    pub features: YamlFeatures,
}

/// Converts saphyr's character indices into byte offsets in file coordinates.
struct Offsets<'a> {
    text: &'a str,
    base: usize,
    /// Byte offset of every char index; empty when the text is ASCII (indices are then bytes).
    table: Vec<usize>,
}

impl<'a> Offsets<'a> {
    fn new(text: &'a str, base: usize) -> Self {
        let table = if text.is_ascii() {
            Vec::new()
        } else {
            let mut t: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            t.push(text.len());
            t
        };
        Offsets { text, base, table }
    }

    fn byte(&self, char_index: usize) -> usize {
        let local = if self.table.is_empty() {
            char_index.min(self.text.len())
        } else {
            self.table
                .get(char_index)
                .copied()
                .unwrap_or(self.text.len())
        };
        local + self.base
    }

    /// Byte span of an event, with trailing whitespace trimmed (block collections end after the
    /// newline) and a flow collection's closing bracket included.
    fn span(&self, span: &YamlSpan) -> Span {
        let start = self.byte(span.start.index());
        let end = self.byte(span.end.index()).max(start);
        let local = &self.text[start - self.base..end - self.base];
        let trimmed = local.trim_end();
        Span::new(start, start + trimmed.len())
    }

    fn char_at(&self, byte: usize) -> Option<char> {
        self.text
            .get(byte.checked_sub(self.base)?..)?
            .chars()
            .next()
    }
}

enum Frame {
    Sequence {
        start: usize,
        anchor: usize,
        items: Vec<Node>,
    },
    Mapping {
        start: usize,
        anchor: usize,
        members: Vec<Member>,
        pending_key: Option<(String, Span)>,
        keys: KeyIndex,
    },
}

struct Builder<'a> {
    offsets: Offsets<'a>,
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Node, Weight)>,
    alias_budget: usize,
    alias_bytes: usize,
    root: Option<Node>,
    features: YamlFeatures,
    documents: usize,
}

/// Parses `text` (a slice of a file starting at byte `base`) as a single YAML document.
pub fn parse_yaml(text: &str, base: usize) -> Result<YamlDocument, YamlError> {
    // Frontmatter and requirement files are nearly always plain block YAML: one key or list item
    // per line, one-line scalars. A line-based pass builds the same tree several times faster than
    // the event parser (which was a fifth of all instructions); anything else goes to saphyr.
    match fast::parse(text, base) {
        Some(document) => Ok(document),
        None => parse_yaml_with_saphyr(text, base),
    }
}

/// The reference parser (saphyr-parser events). Public so the fuzz target can check that the
/// line-based pass agrees with it.
#[doc(hidden)]
pub fn parse_yaml_with_saphyr(text: &str, base: usize) -> Result<YamlDocument, YamlError> {
    let mut builder = Builder {
        offsets: Offsets::new(text, base),
        stack: Vec::new(),
        anchors: HashMap::new(),
        alias_budget: ALIAS_NODE_BUDGET,
        alias_bytes: ALIAS_BYTE_BUDGET.max(text.len()),
        root: None,
        features: YamlFeatures::default(),
        documents: 0,
    };
    let mut parser = Parser::new_from_str(text);
    while let Some(event) = parser.next_event() {
        let (event, span) = event.map_err(|e| {
            let at = builder.offsets.byte(e.marker().index());
            YamlError {
                message: e.info().to_string(),
                span: Span::new(at, at),
                first_definition: None,
            }
        })?;
        builder.event(event, &span)?;
    }
    Ok(YamlDocument {
        root: builder.root,
        features: builder.features,
    })
}

/// What an alias to a node copies: its nodes and the bytes of its scalars and keys.
#[derive(Debug, Clone, Copy, Default)]
struct Weight {
    nodes: usize,
    bytes: usize,
}

fn weigh(node: &Node) -> Weight {
    let mut weight = Weight {
        nodes: 1,
        bytes: match &node.value {
            Value::String(s) => s.len(),
            Value::Number(n) => n.raw.len(),
            _ => 0,
        },
    };
    let mut add = |child: Weight, key: usize| {
        weight.nodes = weight.nodes.saturating_add(child.nodes);
        weight.bytes = weight.bytes.saturating_add(child.bytes).saturating_add(key);
    };
    match &node.value {
        Value::Array(items) => items.iter().for_each(|item| add(weigh(item), 0)),
        Value::Object(members) => members
            .iter()
            .for_each(|m| add(weigh(&m.value), m.key.len())),
        _ => {}
    }
    weight
}

impl Builder<'_> {
    fn error(&self, message: impl Into<String>, span: Span) -> YamlError {
        YamlError {
            message: message.into(),
            span,
            first_definition: None,
        }
    }

    fn event(&mut self, event: Event<'_>, yaml_span: &YamlSpan) -> Result<(), YamlError> {
        let span = self.offsets.span(yaml_span);
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(self.error(
                        "a second YAML document starts here; frontmatter holds exactly one",
                        span,
                    ));
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                if tag.is_some() {
                    self.features.tags.push(span);
                }
                if anchor > 0 {
                    self.features.anchors.push(span);
                }
                let forced_string = tag.as_ref().is_some_and(|t| t.suffix == "str");
                let value = if style == ScalarStyle::Plain && !forced_string {
                    resolve_plain(&text)
                } else {
                    Value::String(text.into_owned())
                };
                self.push(Node::new(span, value), anchor)?;
            }
            Event::SequenceStart(anchor, tag) => {
                self.start_collection(false, anchor, tag.is_some(), span)?
            }
            Event::MappingStart(anchor, tag) => {
                self.start_collection(true, anchor, tag.is_some(), span)?
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Err(self.error("unbalanced collection end", span));
                };
                let (start, anchor, value) = match frame {
                    Frame::Sequence {
                        start,
                        anchor,
                        items,
                    } => (start, anchor, Value::Array(items)),
                    Frame::Mapping {
                        start,
                        anchor,
                        members,
                        ..
                    } => (start, anchor, Value::Object(members)),
                };
                let mut end = span.end.max(start);
                // Flow collections: make sure the closing bracket is inside the span.
                if matches!(self.offsets.char_at(end), Some(']' | '}')) {
                    end += 1;
                }
                let text = crate::source::slice(
                    self.offsets.text,
                    Span::new(start - self.offsets.base, end - self.offsets.base),
                );
                let trimmed = text.trim_end().len();
                self.push(Node::new(Span::new(start, start + trimmed), value), anchor)?;
            }
            Event::Alias(id) => {
                self.features.aliases.push(span);
                // Checked before the copy is made: the budget bounds the memory, not just the
                // count.
                let Some(weight) = self.anchors.get(&id).map(|(_, weight)| *weight) else {
                    return Err(self.error("alias to an unknown anchor", span));
                };
                if weight.nodes > self.alias_budget {
                    return Err(self.error(
                        format!(
                            "aliases expand to more than {ALIAS_NODE_BUDGET} nodes (an alias bomb?)"
                        ),
                        span,
                    ));
                }
                if weight.bytes > self.alias_bytes {
                    return Err(self.error(
                        format!(
                            "aliases expand to more than {} bytes of text (an alias bomb?)",
                            ALIAS_BYTE_BUDGET.max(self.offsets.text.len())
                        ),
                        span,
                    ));
                }
                self.alias_budget -= weight.nodes;
                self.alias_bytes -= weight.bytes;
                let Some((node, _)) = self.anchors.get(&id).cloned() else {
                    return Err(self.error("alias to an unknown anchor", span));
                };
                self.push(node, 0)?;
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {}
        }
        Ok(())
    }

    fn start_collection(
        &mut self,
        is_mapping: bool,
        anchor: usize,
        tagged: bool,
        span: Span,
    ) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.error(format!("nesting deeper than {MAX_DEPTH} levels"), span));
        }
        if tagged {
            self.features.tags.push(span);
        }
        if anchor > 0 {
            self.features.anchors.push(span);
        }
        if matches!(self.offsets.char_at(span.start), Some('[' | '{')) {
            self.features.flow_collections.push(span);
        }
        self.stack.push(if is_mapping {
            Frame::Mapping {
                start: span.start,
                anchor,
                members: Vec::new(),
                pending_key: None,
                keys: KeyIndex::default(),
            }
        } else {
            Frame::Sequence {
                start: span.start,
                anchor,
                items: Vec::new(),
            }
        });
        Ok(())
    }

    fn push(&mut self, node: Node, anchor: usize) -> Result<(), YamlError> {
        if anchor > 0 {
            let weight = weigh(&node);
            self.anchors.insert(anchor, (node.clone(), weight));
        }
        match self.stack.last_mut() {
            None => {
                self.root = Some(node);
            }
            Some(Frame::Sequence { items, .. }) => items.push(node),
            Some(Frame::Mapping {
                members,
                pending_key,
                keys,
                ..
            }) => match pending_key.take() {
                None => {
                    let key = match &node.value {
                        Value::String(s) => s.clone(),
                        Value::Null => String::new(),
                        Value::Bool(b) => b.to_string(),
                        Value::Number(n) => n.raw.clone(),
                        Value::Array(_) | Value::Object(_) => {
                            return Err(YamlError {
                                message: "a collection used as a mapping key is not supported"
                                    .to_string(),
                                span: node.span,
                                first_definition: None,
                            })
                        }
                    };
                    if let Some(first) = keys.find(members, &key).and_then(|i| members.get(i)) {
                        return Err(YamlError {
                            message: format!("duplicate key `{key}`"),
                            span: node.span,
                            first_definition: Some(first.key_span),
                        });
                    }
                    *pending_key = Some((key, node.span));
                }
                Some((key, key_span)) => members.push(Member {
                    key,
                    key_span,
                    value: node,
                }),
            },
        }
        Ok(())
    }
}

/// Resolves a plain scalar with the YAML 1.2 core schema: null, boolean, number or string.
pub(crate) fn resolve_plain(text: &str) -> Value {
    match classify_plain(text) {
        Plain::Null => Value::Null,
        Plain::Bool(b) => Value::Bool(b),
        Plain::Number { value, integer } => number(text, value, integer),
        Plain::String => Value::String(text.to_string()),
    }
}

/// What a plain scalar resolves to, without copying its text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Plain {
    Null,
    Bool(bool),
    Number { value: f64, integer: bool },
    String,
}

pub(crate) fn classify_plain(text: &str) -> Plain {
    // Most scalars are words or sentences: only these first bytes can start a null, a boolean
    // or a number.
    if !matches!(
        text.as_bytes().first(),
        None | Some(
            b'0'..=b'9' | b'+' | b'-' | b'.' | b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F'
        )
    ) {
        return Plain::String;
    }
    let number = |value: f64, integer: bool| Plain::Number { value, integer };
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Plain::Null,
        "true" | "True" | "TRUE" => return Plain::Bool(true),
        "false" | "False" | "FALSE" => return Plain::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return number(f64::INFINITY, false)
        }
        "-.inf" | "-.Inf" | "-.INF" => return number(f64::NEG_INFINITY, false),
        ".nan" | ".NaN" | ".NAN" => return number(f64::NAN, false),
        _ => {}
    }
    // Past the words above, a letter cannot start a null, a boolean or a number (most keys).
    if text.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) {
        return Plain::String;
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if let Ok(v) = i64::from_str_radix(hex, 16) {
            return number(v as f64, true);
        }
    }
    if let Some(oct) = text.strip_prefix("0o") {
        if let Ok(v) = i64::from_str_radix(oct, 8) {
            return number(v as f64, true);
        }
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(v) = text.parse::<f64>() {
            return number(v, true);
        }
    }
    if is_core_float(digits) {
        if let Ok(v) = text.parse::<f64>() {
            return number(v, false);
        }
    }
    Plain::String
}

fn number(raw: &str, value: f64, integer: bool) -> Value {
    Value::Number(Box::new(Number {
        raw: raw.to_string(),
        value,
        integer,
    }))
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` without a sign.
fn is_core_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            (!int.is_empty() || !frac.is_empty())
                && int.bytes().all(|b| b.is_ascii_digit())
                && frac.bytes().all(|b| b.is_ascii_digit())
                && !(int.is_empty() && frac.is_empty())
        }
        None => !mantissa.is_empty() && mantissa.bytes().all(|b| b.is_ascii_digit()),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

/// A line-based parser for the plain block YAML that frontmatter is made of. It accepts a subset of
/// YAML on which it builds exactly the tree (spans included) the event parser builds, and returns
/// `None` for anything else (comments, flow collections, anchors, tags, block scalars, multi-line
/// or escaped scalars, tabs, CRLF, empty values, duplicate keys, ...), so the caller falls back.
mod fast {
    use super::{classify_plain, resolve_plain, Plain, YamlDocument, YamlFeatures};
    use crate::parse::node::{KeyIndex, Member, Node, Value};
    use crate::source::Span;

    /// Deeper documents go to the event parser, which reports its own depth limit.
    const MAX_DEPTH: usize = 32;

    /// One non-blank line: `indent` spaces, then content in `[start, end)` (trailing spaces cut).
    #[derive(Clone, Copy)]
    struct Line {
        indent: usize,
        start: usize,
        end: usize,
    }

    pub fn parse(text: &str, base: usize) -> Option<YamlDocument> {
        let lines = split_lines(text)?;
        let first = *lines.first()?;
        if first.indent != 0 {
            return None;
        }
        let mut parser = Parser {
            text,
            base,
            lines,
            next: 0,
            depth: 0,
            flow_collections: Vec::new(),
        };
        if parser.is_item(0) {
            return None;
        }
        let root = parser.mapping(0)?;
        if parser.next != parser.lines.len() {
            return None;
        }
        Some(YamlDocument {
            root: Some(root),
            features: YamlFeatures {
                flow_collections: parser.flow_collections,
                ..YamlFeatures::default()
            },
        })
    }

    fn split_lines(text: &str) -> Option<Vec<Line>> {
        let bytes = text.as_bytes();
        // Tabs and CR change how lines and indentation are read, backslashes may be escapes, and
        // control characters are not printable YAML. One branch-free pass (the compiler
        // vectorises a fold, not an early-exit `any`) finds those and non-ASCII bytes.
        let (refused, non_ascii) = bytes.iter().fold((false, false), |(refused, high), &b| {
            (
                refused | ((b < 0x20) & (b != b'\n')) | (b == 0x7f) | (b == b'\\'),
                high | (b >= 0x80),
            )
        });
        if refused {
            return None;
        }
        // Outside ASCII, only letters, digits and common punctuation: Unicode spaces, line
        // separators, byte order marks and format characters are read differently by YAML.
        if non_ascii && !text.chars().all(|c| c.is_ascii() || plain_non_ascii(c)) {
            return None;
        }
        let mut lines = Vec::new();
        let mut line_start = 0;
        let mut breaks = memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(text.len()));
        while line_start <= text.len() {
            let line_end = breaks.next().unwrap_or(text.len());
            let line = &text[line_start..line_end];
            let content = line.trim_start_matches(' ');
            let indent = line.len() - content.len();
            let content = content.trim_end_matches(' ');
            if !content.is_empty() {
                if content.starts_with("---")
                    || content.starts_with("...")
                    || content.starts_with('#')
                {
                    return None;
                }
                let start = line_start + indent;
                lines.push(Line {
                    indent,
                    start,
                    end: start + content.len(),
                });
            }
            line_start = line_end + 1;
        }
        Some(lines)
    }

    fn plain_non_ascii(c: char) -> bool {
        c.is_alphanumeric()
            || matches!(
                c,
                '—' | '–'
                    | '‘'
                    | '’'
                    | '“'
                    | '”'
                    | '…'
                    | '•'
                    | '·'
                    | '«'
                    | '»'
                    | '€'
                    | '£'
                    | '¥'
                    | '©'
                    | '®'
                    | '™'
                    | '°'
                    | '→'
                    | '←'
                    | '×'
                    | '§'
            )
    }

    struct Parser<'a> {
        text: &'a str,
        base: usize,
        lines: Vec<Line>,
        next: usize,
        depth: usize,
        /// Where each flow collection opens, as the event parser records it.
        flow_collections: Vec<Span>,
    }

    impl<'a> Parser<'a> {
        fn span(&self, start: usize, end: usize) -> Span {
            Span::new(self.base + start, self.base + end)
        }

        fn content(&self, index: usize) -> &'a str {
            let line = self.lines[index];
            &self.text[line.start..line.end]
        }

        /// A `-` list item line (`- x` or a lone `-`).
        fn is_item(&self, index: usize) -> bool {
            let content = self.content(index);
            content == "-" || content.starts_with("- ")
        }

        fn enter(&mut self) -> Option<()> {
            self.depth += 1;
            (self.depth <= MAX_DEPTH).then_some(())
        }

        /// A block mapping whose keys sit at column `indent`, starting at the current line.
        fn mapping(&mut self, indent: usize) -> Option<Node> {
            self.enter()?;
            let start = self.lines[self.next].start;
            let mut members: Vec<Member> = Vec::new();
            let mut keys = KeyIndex::default();
            while let Some(line) = self.lines.get(self.next).copied() {
                if line.indent < indent {
                    break;
                }
                if line.indent > indent || self.is_item(self.next) {
                    return None;
                }
                let content = self.content(self.next);
                let (key, rest) = split_key(content)?;
                let key_span = self.span(line.start, line.start + key.len());
                if keys.find(&members, key).is_some() {
                    return None;
                }
                let value = if rest.is_empty() {
                    self.next += 1;
                    let child = self.lines.get(self.next).copied()?;
                    if child.indent > indent {
                        self.block(child.indent)?
                    } else if child.indent == indent && self.is_item(self.next) {
                        self.sequence(indent, true)?
                    } else {
                        return None;
                    }
                } else {
                    let value_start = line.end - rest.len();
                    let value = self.scalar(value_start, line.end)?;
                    self.next += 1;
                    value
                };
                members.push(Member {
                    key: key.to_string(),
                    key_span,
                    value,
                });
            }
            self.depth -= 1;
            let end = members.last()?.value.span.end;
            Some(Node::new(
                Span::new(self.base + start, end),
                Value::Object(members),
            ))
        }

        /// The block node at the current line, whose content starts at column `indent`.
        fn block(&mut self, indent: usize) -> Option<Node> {
            if self.is_item(self.next) {
                self.sequence(indent, false)
            } else {
                self.mapping(indent)
            }
        }

        /// A block sequence whose `-` markers sit at column `indent`. An `indentless` one (markers
        /// in the column of its parent's keys) starts, for the event parser, at its first item.
        fn sequence(&mut self, indent: usize, indentless: bool) -> Option<Node> {
            self.enter()?;
            let mut start = self.lines[self.next].start;
            if indentless {
                let content = self.content(self.next);
                start += content.len() - content.get(1..)?.trim_start_matches(' ').len();
            }
            let mut items = Vec::new();
            while let Some(line) = self.lines.get(self.next).copied() {
                if line.indent < indent {
                    break;
                }
                if line.indent > indent {
                    return None;
                }
                if !self.is_item(self.next) {
                    break;
                }
                let content = self.content(self.next);
                let after_dash = content.get(1..)?;
                let item = after_dash.trim_start_matches(' ');
                if item.is_empty() || item == "-" || item.starts_with("- ") {
                    return None;
                }
                let item_start = line.end - item.len();
                if split_key(item).is_some() {
                    // `- key: value`: a mapping whose keys sit at the item's column.
                    let column = line.indent + (item_start - line.start);
                    self.lines[self.next] = Line {
                        indent: column,
                        start: item_start,
                        end: line.end,
                    };
                    items.push(self.mapping(column)?);
                } else {
                    items.push(self.scalar(item_start, line.end)?);
                    self.next += 1;
                }
            }
            self.depth -= 1;
            let end = items.last()?.span.end;
            Some(Node::new(
                Span::new(self.base + start, end),
                Value::Array(items),
            ))
        }

        /// A one-line scalar in `[start, end)` of the text.
        fn scalar(&mut self, start: usize, end: usize) -> Option<Node> {
            let raw = &self.text[start..end];
            let span = self.span(start, end);
            let first = raw.as_bytes().first()?;
            let value = match first {
                b'[' | b'{' => return self.flow(start, end),
                b'"' | b'\'' => {
                    let quote = *first as char;
                    let inner = raw.get(1..)?.strip_suffix(quote)?;
                    if inner.contains(quote) {
                        return None;
                    }
                    Value::String(inner.to_string())
                }
                // Indicators: sequences, keys, flow collections, comments, anchors, aliases,
                // tags, block scalars, directives and reserved characters.
                b'-' | b'?' | b':' | b',' | b']' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|'
                | b'>' | b'%' | b'@' | b'`' => return None,
                _ => {
                    if has_comment_or_key(raw) || raw.ends_with(':') {
                        return None;
                    }
                    resolve_plain(raw)
                }
            };
            Some(Node::new(span, value))
        }
    }

    impl Parser<'_> {
        /// A flow sequence or mapping of scalars that fills `[start, end)` of one line:
        /// `[a, "b c"]`, `{ k: v, n: 1 }`. Nested collections, comments, trailing commas and
        /// anything else unusual go to the event parser.
        fn flow(&mut self, start: usize, end: usize) -> Option<Node> {
            let bytes = self.text.as_bytes();
            let mapping = bytes[start] == b'{';
            let close = if mapping { b'}' } else { b']' };
            let skip_spaces = |mut at: usize| {
                while at < end && bytes[at] == b' ' {
                    at += 1;
                }
                at
            };
            let mut items: Vec<Node> = Vec::new();
            let mut members: Vec<Member> = Vec::new();
            let mut keys = KeyIndex::default();
            let mut at = skip_spaces(start + 1);
            if bytes.get(at) == Some(&close) {
                at += 1;
            } else {
                loop {
                    let key = if mapping {
                        let key_end = (at..end).find(|&i| !is_key_byte(bytes[i])).unwrap_or(end);
                        let key = &self.text[at..key_end];
                        if !is_simple_key(key)
                            || bytes.get(key_end..key_end + 2) != Some(b": ")
                            || keys.find(&members, key).is_some()
                        {
                            return None;
                        }
                        let key_span = self.span(at, key_end);
                        at = skip_spaces(key_end + 1);
                        Some((key, key_span))
                    } else {
                        None
                    };
                    let (value, after) = self.flow_scalar(at, end)?;
                    match key {
                        Some((key, key_span)) => members.push(Member {
                            key: key.to_string(),
                            key_span,
                            value,
                        }),
                        None => items.push(value),
                    }
                    at = skip_spaces(after);
                    match bytes.get(at) {
                        Some(b',') => at = skip_spaces(at + 1),
                        Some(&b) if b == close => {
                            at += 1;
                            break;
                        }
                        _ => return None,
                    }
                    if at >= end || bytes[at] == close {
                        return None;
                    }
                }
            }
            if at != end {
                return None;
            }
            self.flow_collections.push(self.span(start, start + 1));
            let value = if mapping {
                Value::Object(members)
            } else {
                Value::Array(items)
            };
            Some(Node::new(self.span(start, end), value))
        }

        /// A quoted scalar, or a plain one of letters, digits, spaces and `_-./`, starting at
        /// `at` inside a flow collection; with the position after it.
        fn flow_scalar(&self, at: usize, end: usize) -> Option<(Node, usize)> {
            let bytes = self.text.as_bytes();
            match *bytes.get(at)? {
                quote @ (b'"' | b'\'') => {
                    let close = at + 1 + memchr::memchr(quote, bytes.get(at + 1..end)?)?;
                    // `''` is an escaped quote inside a single-quoted scalar.
                    if bytes.get(close + 1) == Some(&quote) {
                        return None;
                    }
                    let inner = &self.text[at + 1..close];
                    let node = Node::new(self.span(at, close + 1), Value::String(inner.into()));
                    Some((node, close + 1))
                }
                b'-' => None,
                _ => {
                    let run_end = (at..end)
                        .find(|&i| {
                            !(bytes[i].is_ascii_alphanumeric()
                                || matches!(bytes[i], b'_' | b'-' | b'.' | b'/' | b' '))
                        })
                        .unwrap_or(end);
                    let raw = self.text[at..run_end].trim_end_matches(' ');
                    if raw.is_empty() {
                        return None;
                    }
                    let raw_end = at + raw.len();
                    Some((
                        Node::new(self.span(at, raw_end), resolve_plain(raw)),
                        raw_end,
                    ))
                }
            }
        }
    }

    /// Whether a plain scalar holds `: ` (a key) or ` #` (a comment), which end it early.
    fn has_comment_or_key(raw: &str) -> bool {
        let bytes = raw.as_bytes();
        memchr::memchr2_iter(b':', b'#', bytes).any(|i| match bytes[i] {
            b':' => bytes.get(i + 1) == Some(&b' '),
            _ => i > 0 && bytes[i - 1] == b' ',
        })
    }

    /// Splits `key: rest` or `key:`; `None` unless the key is a simple plain word. `:` is not a
    /// key byte, so such a key ends at the first byte that is not one, which must be the colon
    /// (a short byte scan: a `memchr` search costs more to set up than a key takes to read).
    fn split_key(content: &str) -> Option<(&str, &str)> {
        let bytes = content.as_bytes();
        let colon = bytes.iter().position(|b| !is_key_byte(*b))?;
        if bytes[colon] != b':' || !matches!(bytes.get(colon + 1), None | Some(b' ')) {
            return None;
        }
        let key = &content[..colon];
        let rest = content[colon + 1..].trim_start_matches(' ');
        is_simple_key(key).then_some((key, rest))
    }

    /// Letters, digits and `_-./`.
    const KEY_BYTES: [bool; 256] = {
        let mut table = [false; 256];
        let mut byte = 0;
        while byte < 256 {
            let b = byte as u8;
            table[byte] = b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/');
            byte += 1;
        }
        table
    };

    fn is_key_byte(b: u8) -> bool {
        KEY_BYTES[usize::from(b)]
    }

    /// A plain word the fast pass takes as a key (block or flow): a letter or `_`, then letters,
    /// digits and `_-./`. Keys that are not strings (`true`, `null`, ...) are the event parser's
    /// business.
    fn is_simple_key(key: &str) -> bool {
        let bytes = key.as_bytes();
        bytes
            .first()
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            && bytes.iter().all(|b| is_key_byte(*b))
            && classify_plain(key) == Plain::String
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> YamlDocument {
        parse_yaml(text, 0).expect("valid YAML")
    }

    fn text_of(text: &str, span: Span) -> &str {
        &text[span.start..span.end]
    }

    #[test]
    fn spans_for_keys_and_values() {
        let text = "name: pdf\ndescription: \"Fills forms\"\nmeta:\n  a: b\nlist:\n  - x\n  - y\n";
        let root = parse(text).root.expect("root");
        let name = root.member("name").expect("name");
        assert_eq!(text_of(text, name.key_span), "name");
        assert_eq!(text_of(text, name.value.span), "pdf");
        let desc = root.get("description").expect("description");
        assert_eq!(text_of(text, desc.span), "\"Fills forms\"");
        assert_eq!(text_of(text, root.get("meta").expect("meta").span), "a: b");
        assert_eq!(
            text_of(text, root.get("list").expect("list").span),
            "- x\n  - y"
        );
    }

    #[test]
    fn spans_shift_and_count_bytes_not_chars() {
        let text = "a: é\nb: x\n";
        let root = parse_yaml(text, 100).expect("valid").root.expect("root");
        let b = root.get("b").expect("b");
        assert_eq!(b.span, Span::new(100 + 9, 100 + 10));
    }

    #[test]
    fn flow_collections_and_scalars() {
        let text = "tools: [a, b]\nmeta: {k: v}\nn: 12\nf: 1.5\nt: true\nz: ~\ns: '12'\n";
        let doc = parse(text);
        let root = doc.root.expect("root");
        assert_eq!(
            text_of(text, root.get("tools").expect("tools").span),
            "[a, b]"
        );
        assert_eq!(
            text_of(text, root.get("meta").expect("meta").span),
            "{k: v}"
        );
        assert_eq!(root.get("n").expect("n").type_name(), "integer");
        assert_eq!(root.get("f").expect("f").type_name(), "number");
        assert_eq!(root.get("t").expect("t").as_bool(), Some(true));
        assert_eq!(root.get("z").expect("z").type_name(), "null");
        assert_eq!(root.get("s").expect("s").as_str(), Some("12"));
        assert_eq!(doc.features.flow_collections.len(), 2);
    }

    #[test]
    fn duplicate_keys_are_errors() {
        let text = "name: a\nname: b\n";
        let err = parse_yaml(text, 0).expect_err("duplicate");
        assert_eq!(text_of(text, err.span), "name");
        assert_eq!(err.first_definition, Some(Span::new(0, 4)));
    }

    #[test]
    fn alias_bomb_is_stopped() {
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        let mut prev = 'a';
        for name in ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] {
            text.push_str(&format!(
                "{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
            ));
            prev = name;
        }
        let err = parse_yaml(&text, 0).expect_err("bomb");
        assert!(err.message.contains("alias"), "{}", err.message);
    }

    #[test]
    fn aliases_are_counted_in_bytes_not_only_nodes() {
        let big = "x".repeat(200_000);
        let aliases = vec!["*a"; 50].join(", ");
        let text = format!("a: &a {big}\nb: [{aliases}]\n");
        let err = parse_yaml(&text, 0).expect_err("bomb");
        assert!(err.message.contains("bytes"), "{}", err.message);
        // A few small aliases are fine.
        let text = format!("a: &a {}\nb: [*a, *a, *a]\n", "x".repeat(1000));
        assert!(parse_yaml(&text, 0).is_ok());
    }

    #[test]
    fn anchors_aliases_and_tags_are_recorded() {
        let doc = parse("a: &x 1\nb: *x\nc: !!str 3\n");
        assert_eq!(doc.features.anchors.len(), 1);
        assert_eq!(doc.features.aliases.len(), 1);
        assert_eq!(doc.features.tags.len(), 1);
        let root = doc.root.expect("root");
        assert_eq!(root.get("b").and_then(Node::as_f64), Some(1.0));
        assert_eq!(root.get("c").and_then(Node::as_str), Some("3"));
    }

    /// Where the line-based pass takes a document, it must build exactly what the event parser
    /// builds; `expect_fast` says whether it should take it at all.
    fn assert_fast_agrees(text: &str, expect_fast: Option<bool>) {
        let reference = parse_yaml_with_saphyr(text, 7);
        match fast::parse(text, 7) {
            Some(document) => {
                assert_ne!(expect_fast, Some(false), "the fast pass took {text:?}");
                // Through Debug, where `.nan` equals itself.
                assert_eq!(
                    format!("{:?}", Ok::<_, YamlError>(document)),
                    format!("{reference:?}"),
                    "{text:?}"
                );
            }
            None => assert_ne!(expect_fast, Some(true), "the fast pass declined {text:?}"),
        }
    }

    #[test]
    fn fast_pass_agrees_with_the_event_parser() {
        let taken = [
            "name: pdf\ndescription: Fills PDF forms (v2), e.g. 50% faster. Use when needed.\n",
            "name: x\nmetadata:\n  owner: platform-team\n  version: \"1.6\"\nlicense: MIT\n",
            "tools:\n  - name: list_bookings\n    type: read\n    description: List records.\n  - name: create\n    type: write\nnon_goals:\n  - Do not delete.\n",
            "tools:\n- a\n- 'b c'\nnext: 1\n",
            "a: é ü 日本\nb:   spaced value   \n\n\nc: x-y\n",
            "n: 12\nf: 1.5\nt: true\nz: ~\nnull_word: null\ns: '12'\nhex: 0x1F\ninf: .inf\nnan: .NaN\n",
            "url: https://example.com/a:b\nk.v/x_y-z: 1\n",
            "a:\n  b:\n    c:\n      - d: 1\n        e: 2\n      - f\n",
            "a: b\n",
            "a: b",
            "a: C# & R&D > 3 | x*y {k} [v] it's \"ok\" 100% @me `t` !x\n",
            "q: \"a # b\"\n",
            "a: naïve — “quoted” … 日本語 5 ½\n",
            "a: [1, 2]\n",
            "a:\n  - [x]\n",
            "a: [x, y]\nb: {k: v, k2: \"q\"}\n",
            "a: []\nb: {}\nc: [ ]\n",
            "a: [ \"x\" , 'y' ]\n",
            "a:\n  - { k: v }\n  - [1, 2.5, true, null, hello world, a-b, x/y.z]\n",
            "mutates: [\"database:reports\"]\nrequired: [title, idempotency_key]\n",
            "examples:\n  - name: a\n    input: { title: \"Quarterly review\", idempotency_key: \"k-1\" }\n",
            "a: ['it is', \"C# & {x}, [y]\"]\n",
        ];
        for text in taken {
            assert_fast_agrees(text, Some(true));
        }
        let declined = [
            "a: 1 # comment\n",
            "a: &x 1\nb: *x\n",
            "a: [1, [2]]\n",
            "a: [1, 2,]\n",
            "a: [1, 2] # c\n",
            "a: [1,\n  2]\n",
            "a: {k: v, k: w}\n",
            "a: {k:v}\n",
            "a: {\"k\": v}\n",
            "a: ['it''s']\n",
            "a: [-1, x]\n",
            "a: [x #y]\n",
            "a: [~]\n",
            "a: {true: 1}\n",
            "a: [x] y\n",
            "a: [, x]\n",
            "a: {k: }\n",
            "a: !!str 1\n",
            "a: |\n  text\n",
            "a: multi\n  line\n",
            "a: \"esc\\n\"\n",
            "a: 'it''s'\n",
            "a:\n",
            "a: 1\na: 2\n",
            "- a\n- b\n",
            "scalar\n",
            "",
            "a: 1\r\nb: 2\r\n",
            "a:\tb\n",
            "\u{feff}a: 1\n",
            "true: 1\n",
            "1: x\n",
            "a: 1\n---\nb: 2\n",
            "a:\n  - - x\n",
            "a:\n  -\n    b: 1\n",
            "a: b: c\n",
            "a: b:\n",
            "a:\n    b: 1\n  c: 2\n",
            "\"quoted key\": 1\n",
            "a: \"x\" y\n",
            "a: ? x\n",
            "a: -1\n",
            "a: x #y\n",
            "# lead\na: 1\n",
            "a: 1\n  # indented comment\nb: 2\n",
            "a: @x\n",
            "a: %x\n",
            "a: x\u{85}\n",
            "a: x\u{feff}y\n",
            "k: v\u{3000}\n",
            "a: x\u{2028}y\n",
            "a: \u{a0}x\n",
            "a: x\u{1}y\n",
            "a: x\u{7f}\n",
            "a: zero\u{200b}width\n",
        ];
        for text in declined {
            assert_fast_agrees(text, Some(false));
        }
        // Whatever the fixtures hold: every YAML file and every Markdown frontmatter.
        let mut checked = 0;
        for path in crate::fixture_files() {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let yaml = match path.extension().and_then(|e| e.to_str()) {
                Some("yaml" | "yml") => text.as_str(),
                Some("md") => match crate::parse::frontmatter::split(&text) {
                    crate::parse::frontmatter::Split::Found(fm) => {
                        &text[fm.yaml.start..fm.yaml.end]
                    }
                    _ => continue,
                },
                _ => continue,
            };
            assert_fast_agrees(yaml, None);
            checked += 1;
        }
        assert!(checked > 100, "only {checked} YAML fixtures");
    }

    #[test]
    fn syntax_errors_and_deep_nesting() {
        assert!(parse_yaml("a: \"unclosed\n", 0).is_err());
        let deep = "[".repeat(10_000);
        assert!(parse_yaml(&deep, 0).is_err());
        assert!(parse_yaml("a: 1\n---\nb: 2\n", 0).is_err());
        assert!(parse("").root.is_none());
        assert!(parse("# only a comment\n").root.is_none());
    }
}
