//! Markdown structure with byte offsets: headings, text blocks (list items and paragraphs), inline
//! code, links and HTML comments. Built once per file, by a line-based pass for plain bodies and by
//! pulldown-cmark for the rest (both give the same value); rules only read it.

use crate::source::Span;
use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub level: u8,
    pub text: String,
    /// The whole heading line (e.g. `## Tool Use Rules`).
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeSpan {
    pub text: String,
    /// Covers the backticks too.
    pub span: Span,
    /// Where `text` starts in its block's `text`, which holds it verbatim.
    pub at: usize,
}

/// A list item's own text (nested lists are separate blocks) or a paragraph outside any list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextBlock {
    pub span: Span,
    /// Plain text with inline code included verbatim, soft breaks as spaces.
    pub text: String,
    pub code: Vec<CodeSpan>,
    pub is_list_item: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub destination: String,
    /// The destination text when it can be located, else the whole link.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Markdown {
    pub headings: Vec<Heading>,
    pub blocks: Vec<TextBlock>,
    pub links: Vec<Link>,
    pub html_comments: Vec<(String, Span)>,
    /// End of the parsed text (file coordinates).
    pub end: usize,
}

/// A heading and everything up to the next heading of the same or a higher level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section<'a> {
    pub heading: &'a Heading,
    pub content: Span,
}

impl Markdown {
    /// The first section whose heading text equals `title` (ASCII case-insensitive, surrounding
    /// whitespace and a trailing colon ignored).
    pub fn section(&self, title: &str) -> Option<Section<'_>> {
        let (index, heading) = self.headings.iter().enumerate().find(|(_, h)| {
            h.text
                .trim()
                .trim_end_matches(':')
                .trim_end()
                .eq_ignore_ascii_case(title)
        })?;
        let end = self.headings[index + 1..]
            .iter()
            .find(|h| h.level <= heading.level)
            .map_or(self.end, |h| h.span.start);
        Some(Section {
            heading,
            content: Span::new(heading.span.end, end),
        })
    }

    pub fn blocks_in(&self, span: Span) -> impl Iterator<Item = &TextBlock> {
        self.blocks
            .iter()
            .filter(move |b| b.span.start >= span.start && b.span.start < span.end)
    }
}

enum Open {
    Block(TextBlock),
    Heading(Heading),
}

/// Parses `text`, a slice of a file starting at byte `base`.
pub fn parse_markdown(text: &str, base: usize) -> Markdown {
    // Skill and contract bodies are mostly headings, paragraphs, lists, inline code and fences.
    // A line-based pass builds exactly what pulldown-cmark's events give for that subset, several
    // times faster (pulldown-cmark was a sixth of all instructions); anything else goes to it.
    fast::parse(text, base).unwrap_or_else(|| parse_markdown_with_pulldown(text, base))
}

/// The reference parser (pulldown-cmark events). Public so tests and the fuzz target can check
/// that the line-based pass agrees with it.
#[doc(hidden)]
pub fn parse_markdown_with_pulldown(text: &str, base: usize) -> Markdown {
    let mut doc = Markdown {
        end: base + text.len(),
        ..Markdown::default()
    };
    let mut stack: Vec<Open> = Vec::new();
    let mut item_depth = 0usize;
    let mut in_code_block = false;
    let parser = Parser::new_ext(text, Options::empty()).into_offset_iter();
    for (event, range) in parser {
        let span = Span::new(range.start + base, range.end + base);
        match event {
            Event::Start(Tag::Heading { level, .. }) => stack.push(Open::Heading(Heading {
                level: level as u8,
                text: String::new(),
                span: trim_span(text, base, span),
            })),
            Event::End(TagEnd::Heading(_)) => {
                if let Some(Open::Heading(h)) = stack.pop() {
                    doc.headings.push(h);
                }
            }
            Event::Start(Tag::Item) => {
                item_depth += 1;
                stack.push(Open::Block(TextBlock {
                    span: Span::new(span.start, span.start),
                    text: String::new(),
                    code: Vec::new(),
                    is_list_item: true,
                }));
            }
            Event::End(TagEnd::Item) => {
                item_depth = item_depth.saturating_sub(1);
                close_block(&mut stack, &mut doc);
            }
            Event::Start(Tag::Paragraph) if item_depth == 0 => stack.push(Open::Block(TextBlock {
                span: Span::new(span.start, span.start),
                text: String::new(),
                code: Vec::new(),
                is_list_item: false,
            })),
            Event::End(TagEnd::Paragraph) if item_depth == 0 => close_block(&mut stack, &mut doc),
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Text(t) if !in_code_block => append(&mut stack, &t, span, false),
            Event::Code(t) => append(&mut stack, &t, span, true),
            Event::SoftBreak | Event::HardBreak => append(&mut stack, " ", span, false),
            // An email autolink (`<team@example.com>`) carries the bare address; it means a
            // `mailto:` URL, never a file.
            Event::Start(Tag::Link {
                link_type: LinkType::Email,
                dest_url,
                ..
            }) => doc.links.push(Link {
                span: locate_destination(text, base, span, &dest_url),
                destination: format!("mailto:{dest_url}"),
            }),
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                doc.links.push(Link {
                    span: locate_destination(text, base, span, &dest_url),
                    destination: String::from(&*dest_url),
                });
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                let trimmed = html.trim();
                if trimmed.starts_with("<!--") {
                    doc.html_comments
                        .push((trimmed.to_string(), trim_span(text, base, span)));
                }
            }
            _ => {}
        }
    }
    // Unclosed blocks (cannot happen with pulldown-cmark, but never lose text).
    while !stack.is_empty() {
        close_block(&mut stack, &mut doc);
    }
    doc.blocks.sort_by_key(|b| b.span.start);
    doc
}

fn append(stack: &mut [Open], text: &str, span: Span, code: bool) {
    match stack.last_mut() {
        Some(Open::Heading(h)) => h.text.push_str(text),
        Some(Open::Block(b)) => b.push_event(text, span, code),
        None => {}
    }
}

impl TextBlock {
    /// Adds one text or code event (code spans: their text, `span` covering the backticks). The
    /// first event moves the block's start to it; every event may extend its end.
    fn push_event(&mut self, text: &str, span: Span, code: bool) {
        if self.text.is_empty() && self.code.is_empty() {
            self.span.start = span.start;
        }
        let at = self.text.len();
        self.text.push_str(text);
        self.span.end = self.span.end.max(span.end);
        if code {
            self.code.push(CodeSpan {
                text: text.to_string(),
                span,
                at,
            });
        }
    }
}

/// Keeps a finished block unless it holds only whitespace.
fn keep_block(doc: &mut Markdown, mut block: TextBlock) {
    if !block.text.trim().is_empty() {
        // A vector's first push makes room for four: a list of one-code-span items kept three
        // spare code spans (144 bytes) per item, 32 MB over a 4 MB list.
        block.code.shrink_to_fit();
        doc.blocks.push(block);
    }
}

fn close_block(stack: &mut Vec<Open>, doc: &mut Markdown) {
    match stack.pop() {
        Some(Open::Block(b)) => keep_block(doc, b),
        Some(Open::Heading(h)) => doc.headings.push(h),
        _ => {}
    }
}

/// Trims trailing whitespace/newlines from a span so carets stay on the visible text.
fn trim_span(text: &str, base: usize, span: Span) -> Span {
    let local = crate::source::slice(text, Span::new(span.start - base, span.end - base));
    Span::new(span.start, span.start + local.trim_end().len())
}

fn locate_destination(text: &str, base: usize, link: Span, destination: &str) -> Span {
    let local = crate::source::slice(text, Span::new(link.start - base, link.end - base));
    if let Some(i) = local.rfind(&format!("]({destination}")) {
        let start = link.start + i + 2;
        return Span::new(start, start + destination.len());
    }
    // Written differently from its value (`<my notes.md>`, an escape such as `\\`): the
    // destination as written, after the last `](`; a reference link keeps the whole link.
    let Some(open) = local.rfind("](") else {
        return link;
    };
    let after = &local[open + 2..];
    let lead = after.len() - after.trim_start().len();
    let written = &after[lead..];
    let (skip, length) = if let Some(inside) = written.strip_prefix('<') {
        match inside.find(['>', '\n']) {
            Some(end) => (1, end),
            None => return link,
        }
    } else {
        (0, written_destination_len(written))
    };
    if length == 0 {
        return link;
    }
    let start = link.start + open + 2 + lead + skip;
    Span::new(start, start + length)
}

/// The length of a destination written without `<>`: up to whitespace or the `)` that closes the
/// link (parentheses inside it balance, and a `\` escapes the next character).
fn written_destination_len(written: &str) -> usize {
    let mut depth = 0usize;
    let mut escaped = false;
    for (i, c) in written.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '(' => depth += 1,
            ')' if depth == 0 => return i,
            ')' => depth -= 1,
            c if c.is_whitespace() => return i,
            _ => {}
        }
    }
    written.len()
}

/// A line-based pass for the plain Markdown that skill bodies are made of: ATX headings,
/// paragraphs, `-`, `+` and ordered lists (nested, loose or tight, with lazy continuation lines),
/// single-backtick code spans and top-level backtick fences. It returns `None` for anything it does
/// not model (emphasis, links, HTML, escapes, entities, block quotes, setext headings, thematic
/// breaks, indented code, fences in lists, tabs, ...), so the caller falls back to pulldown-cmark.
/// Where it returns a document, it is the one pulldown-cmark's events build (see the tests).
mod fast {
    use super::{keep_block, Heading, Markdown, TextBlock};
    use crate::source::Span;

    /// Lists nested deeper than this go to pulldown-cmark.
    const MAX_DEPTH: usize = 16;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Marker {
        /// `-` or `+`.
        Bullet(u8),
        /// `.` or `)` after the number.
        Ordered(u8),
    }

    struct Item {
        /// Column where the item's content starts; lines indented this far continue it.
        content_indent: usize,
        marker: Marker,
        block: TextBlock,
    }

    struct Parser<'a> {
        text: &'a str,
        base: usize,
        doc: Markdown,
        items: Vec<Item>,
        /// The open top-level paragraph (only while no list is open).
        paragraph: Option<TextBlock>,
        /// Whether the innermost container (the last item, else the top level) has an open
        /// paragraph that a plain line continues.
        paragraph_open: bool,
        /// Backticks of the open fence.
        fence: Option<usize>,
    }

    pub fn parse(text: &str, base: usize) -> Option<Markdown> {
        let bytes = text.as_bytes();
        // Bytes that start constructs this pass leaves to pulldown-cmark: escapes, entities, HTML
        // and autolinks, links and images, `*` emphasis and bullets, tabs, CR and other controls.
        // One branch-free pass (a fold vectorises, an early-exit `any` does not).
        let (refused, non_ascii) = bytes.iter().fold((false, false), |(refused, high), &b| {
            (
                refused
                    | ((b < 0x20) & (b != b'\n'))
                    | matches!(b, b'\\' | b'&' | b'<' | b'[' | b']' | b'*' | 0x7f),
                high | (b >= 0x80),
            )
        });
        if refused {
            return None;
        }
        // Unicode spaces are trimmed by some steps and kept by others.
        if non_ascii
            && text
                .chars()
                .any(|c| c.is_whitespace() && c != ' ' && c != '\n')
        {
            return None;
        }
        let mut parser = Parser {
            text,
            base,
            doc: Markdown {
                end: base + text.len(),
                ..Markdown::default()
            },
            items: Vec::new(),
            paragraph: None,
            paragraph_open: false,
            fence: None,
        };
        let mut line_start = 0;
        while line_start < text.len() {
            let line_end =
                memchr::memchr(b'\n', &bytes[line_start..]).map_or(text.len(), |i| line_start + i);
            parser.line(line_start, line_end)?;
            line_start = line_end + 1;
        }
        parser.close_paragraph();
        parser.close_items(0);
        parser.doc.blocks.sort_by_key(|b| b.span.start);
        Some(parser.doc)
    }

    impl Parser<'_> {
        fn line(&mut self, line_start: usize, line_end: usize) -> Option<()> {
            let line = &self.text[line_start..line_end];
            let content = line.trim_start_matches(' ');
            let indent = line.len() - content.len();
            let content = content.trim_end_matches(' ');
            let at = line_start + indent;
            if let Some(open) = self.fence {
                if indent <= 3 && content.len() >= open && content.bytes().all(|b| b == b'`') {
                    self.fence = None;
                }
                return Some(());
            }
            if content.is_empty() {
                self.close_paragraph();
                return Some(());
            }
            // The open items whose content this line's indentation reaches.
            let matched = self
                .items
                .iter()
                .take_while(|item| indent >= item.content_indent)
                .count();
            let container = matched
                .checked_sub(1)
                .map_or(0, |i| self.items[i].content_indent);
            if indent - container >= 4 {
                // Indented code cannot interrupt a paragraph: the line continues it.
                if !self.paragraph_open {
                    return None;
                }
                return self.continue_paragraph(content, at);
            }
            if content.starts_with('#') {
                // A heading inside a list item is left to pulldown-cmark.
                if matched > 0 {
                    return None;
                }
                let level = heading_level(content)?;
                self.close_paragraph();
                self.close_items(0);
                return self.heading(content, at, level);
            }
            if content.starts_with("```") {
                let ticks = content.bytes().take_while(|b| *b == b'`').count();
                if matched > 0 || content[ticks..].contains('`') {
                    return None;
                }
                self.close_paragraph();
                self.close_items(0);
                self.fence = Some(ticks);
                return Some(());
            }
            if content.starts_with(['>', '~']) || is_rule_like(content) || is_bare_marker(content) {
                return None;
            }
            if let Some((marker, number, marker_len)) = list_marker(content) {
                return self.item(content, at, indent, matched, (marker, number, marker_len));
            }
            if self.paragraph_open {
                // Also a lazy continuation line, indented less than the item it continues.
                return self.continue_paragraph(content, at);
            }
            self.close_items(matched);
            if self.items.is_empty() {
                self.paragraph = Some(new_block(at, false));
            }
            self.paragraph_open = true;
            self.inline(content, at)
        }

        fn item(
            &mut self,
            content: &str,
            at: usize,
            indent: usize,
            matched: usize,
            (marker, number, marker_len): (Marker, u64, usize),
        ) -> Option<()> {
            let after = &content[marker_len..];
            let text = after.trim_start_matches(' ');
            let spaces = after.len() - text.len();
            // An empty item, or one whose text is indented code.
            if text.is_empty() || spaces > 4 {
                return None;
            }
            let sibling = self.items.get(matched).is_some_and(|i| i.marker == marker);
            // Only a list starting at 1 may interrupt a paragraph.
            if self.paragraph_open
                && !sibling
                && matches!(marker, Marker::Ordered(_))
                && number != 1
            {
                return None;
            }
            // The item's text must be a plain paragraph line, not another block.
            if text.starts_with(['#', '>', '~']) || text.starts_with("```") || starts_block(text) {
                return None;
            }
            if matched >= MAX_DEPTH {
                return None;
            }
            self.close_paragraph();
            self.close_items(matched);
            self.items.push(Item {
                content_indent: indent + marker_len + spaces,
                marker,
                block: new_block(at, true),
            });
            self.paragraph_open = true;
            self.inline(text, at + marker_len + spaces)
        }

        fn heading(&mut self, content: &str, at: usize, level: u8) -> Option<()> {
            let inner = content[usize::from(level)..].trim_start_matches(' ');
            // A closing `#` sequence is left to pulldown-cmark.
            if inner.contains('#') {
                return None;
            }
            let mut heading = Heading {
                level,
                text: String::new(),
                span: Span::new(self.base + at, self.base + at + content.trim_end().len()),
            };
            pieces(inner, |piece| heading.text.push_str(piece.text(inner)))?;
            self.doc.headings.push(heading);
            Some(())
        }

        fn continue_paragraph(&mut self, content: &str, at: usize) -> Option<()> {
            let break_at = self.base + at;
            self.open_block()?
                .push_event(" ", Span::new(break_at, break_at), false);
            self.inline(content, at)
        }

        /// Appends a paragraph line's text and code spans to the open block.
        fn inline(&mut self, content: &str, at: usize) -> Option<()> {
            let base = self.base + at;
            let block = self.open_block()?;
            block.text.reserve(content.len() + 1);
            pieces(content, |piece| {
                let span = Span::new(base + piece.start, base + piece.end);
                block.push_event(piece.text(content), span, piece.code);
            })
        }

        fn open_block(&mut self) -> Option<&mut TextBlock> {
            match self.items.last_mut() {
                Some(item) => Some(&mut item.block),
                None => self.paragraph.as_mut(),
            }
        }

        fn close_paragraph(&mut self) {
            self.paragraph_open = false;
            if let Some(block) = self.paragraph.take() {
                keep_block(&mut self.doc, block);
            }
        }

        /// Closes the items from depth `from` on.
        fn close_items(&mut self, from: usize) {
            while self.items.len() > from {
                if let Some(item) = self.items.pop() {
                    keep_block(&mut self.doc, item.block);
                }
                self.paragraph_open = false;
            }
        }
    }

    fn new_block(at: usize, is_list_item: bool) -> TextBlock {
        TextBlock {
            span: Span::new(at, at),
            text: String::new(),
            code: Vec::new(),
            is_list_item,
        }
    }

    /// A run of a line: plain text, or a code span (`start..end` covers the backticks).
    struct Piece {
        start: usize,
        end: usize,
        code: bool,
    }

    impl Piece {
        fn text<'a>(&self, line: &'a str) -> &'a str {
            if self.code {
                &line[self.start + 1..self.end - 1]
            } else {
                &line[self.start..self.end]
            }
        }
    }

    /// Splits a line into text and single-backtick code spans, in order; `None` (possibly after
    /// some pieces) for what pulldown-cmark reads differently: longer backtick runs, an unclosed
    /// span, a span with outer spaces (they are stripped) and `_` that could open or close
    /// emphasis.
    fn pieces(line: &str, mut visit: impl FnMut(Piece)) -> Option<()> {
        let bytes = line.as_bytes();
        let mut from = 0;
        loop {
            let open = memchr::memchr(b'`', &bytes[from..]).map(|i| from + i);
            let text_end = open.unwrap_or(bytes.len());
            check_underscores(bytes, from, text_end)?;
            if text_end > from {
                visit(Piece {
                    start: from,
                    end: text_end,
                    code: false,
                });
            }
            let Some(open) = open else {
                return Some(());
            };
            let close = open + 1 + memchr::memchr(b'`', &bytes[open + 1..])?;
            let inner = &bytes[open + 1..close];
            if inner.is_empty()
                || inner[0] == b' '
                || inner[inner.len() - 1] == b' '
                || bytes.get(close + 1) == Some(&b'`')
            {
                return None;
            }
            visit(Piece {
                start: open,
                end: close + 1,
                code: true,
            });
            from = close + 1;
        }
    }

    /// `_` between two ASCII letters or digits is literal; anywhere else it may be emphasis.
    fn check_underscores(bytes: &[u8], from: usize, to: usize) -> Option<()> {
        for i in memchr::memchr_iter(b'_', &bytes[from..to]).map(|i| from + i) {
            let before = i.checked_sub(1).and_then(|j| bytes.get(j));
            let after = bytes.get(i + 1);
            if !(before.is_some_and(u8::is_ascii_alphanumeric)
                && after.is_some_and(u8::is_ascii_alphanumeric))
            {
                return None;
            }
        }
        Some(())
    }

    /// The level of an ATX heading line (`#` to `######`, then a space or the end).
    fn heading_level(content: &str) -> Option<u8> {
        let hashes = content.bytes().take_while(|b| *b == b'#').count();
        let level = u8::try_from(hashes).ok().filter(|l| (1..=6).contains(l))?;
        match content.as_bytes().get(hashes) {
            None | Some(b' ') => Some(level),
            _ => None,
        }
    }

    /// A line of only `-`, `=`, `_`, `*` and spaces: a thematic break, a setext underline or an
    /// empty item.
    fn is_rule_like(content: &str) -> bool {
        content
            .bytes()
            .all(|b| matches!(b, b'-' | b'=' | b'_' | b'*' | b' '))
    }

    /// Whether a list item's text would itself open a block: a rule-like line or another list
    /// item (even an empty one).
    fn starts_block(text: &str) -> bool {
        is_rule_like(text) || list_marker(text).is_some() || is_bare_marker(text)
    }

    /// A list marker with nothing after it: an empty list item.
    fn is_bare_marker(content: &str) -> bool {
        let digits = content.bytes().take_while(u8::is_ascii_digit).count();
        matches!(content, "-" | "+")
            || ((1..=9).contains(&digits)
                && content.len() == digits + 1
                && content.ends_with(['.', ')']))
    }

    /// A list marker at the start of `content` followed by a space: the marker, the ordered
    /// list's number (0 for bullets) and the marker's length.
    fn list_marker(content: &str) -> Option<(Marker, u64, usize)> {
        let bytes = content.as_bytes();
        let (marker, number, len) = match bytes.first()? {
            b @ (b'-' | b'+') => (Marker::Bullet(*b), 0, 1),
            b'0'..=b'9' => {
                let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
                if digits > 9 {
                    return None;
                }
                let delimiter = *bytes.get(digits).filter(|b| matches!(b, b'.' | b')'))?;
                let number = content[..digits].parse().ok()?;
                (Marker::Ordered(delimiter), number, digits + 1)
            }
            _ => return None,
        };
        (bytes.get(len) == Some(&b' ')).then_some((marker, number, len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of one-code-span items keeps one code span per item, not the four a vector makes
    /// room for on its first push: 144 spare bytes per item were 32 MB of a 4 MB list.
    #[test]
    fn a_block_keeps_no_spare_room_for_code_spans() {
        let text = "- `tool_x` reads.\n".repeat(100);
        for doc in [
            parse_markdown(&text, 0),
            parse_markdown_with_pulldown(&text, 0),
        ] {
            assert_eq!(doc.blocks.len(), 100);
            for block in &doc.blocks {
                assert_eq!(block.code.len(), 1);
                assert_eq!(block.code.capacity(), 1, "{block:?}");
            }
        }
    }

    #[test]
    fn sections_and_items() {
        let text = "# Skill\n\n## Tool Use Rules\n\n- Use `create_event` only\n  after confirming.\n- Second\n  - nested `x`\n\n## Next\n\n- outside\n";
        let md = parse_markdown(text, 0);
        let section = md.section("tool use rules").expect("section");
        assert_eq!(section.heading.level, 2);
        let blocks: Vec<_> = md.blocks_in(section.content).collect();
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[0].text, "Use create_event only after confirming.");
        assert_eq!(blocks[0].code[0].text, "create_event");
        let code = blocks[0].code[0].span;
        assert_eq!(&text[code.start..code.end], "`create_event`");
        assert_eq!(blocks[2].text, "nested x");
    }

    #[test]
    fn headings_inside_code_fences_are_not_sections() {
        let text = "```\n## Tool Use Rules\n```\n";
        assert!(parse_markdown(text, 0).section("Tool Use Rules").is_none());
    }

    /// Whether the line-based pass took `text`; when it did, its document must be pulldown-cmark's.
    fn fast_agrees(text: &str) -> bool {
        let Some(fast) = fast::parse(text, 7) else {
            return false;
        };
        assert_eq!(fast, parse_markdown_with_pulldown(text, 7), "{text:?}");
        true
    }

    #[test]
    fn fast_pass_takes_plain_bodies_and_agrees() {
        let taken = [
            "\n# booking assistant\n\nHelp the user.  Ask first.\n\n## Steps\n\n1. Find `list_bookings`.\n2. Summarise\n   in a table.\n\n## Tool Use Rules\n\n- Only the tools below.\n- `create_booking` changes data: confirm first, pass `user_confirmed: true`.\n",
            "para one\ntwo  \nthree \nfour\n\n- item `a` x\n  cont\n- b\n  - nested\n\n1. x\n2. y\n",
            "  ## Head `x` y  \n# \npara\n\n- a\n\n  second para\n- b\nlazy\n  - c\n    cont\n\n```sh\n## not\n```\ntext `b`\n1) one\n2) two\n\n3. three\n",
            "- a\n+ b\n- c\n",
            "para\n- interrupts\n1. also\n",
            "- a\n      indented continuation\n",
            "text\n```\nunclosed fence\n- not an item",
            "- a\n - b\n  - c\n   - d\n",
            "10. ten\n    more\n11. eleven\n",
            "# Ünïcödé — “quotes” déjà\n\n- naïve `código`\n",
            "snake_case and v1_2 stay literal\n",
            "|a|b|\n|-|-|\n|c|d|\n",
            "",
            "\n\n",
        ];
        for text in taken {
            assert!(fast_agrees(text), "not taken: {text:?}");
        }
        let refused = [
            "**bold**",
            "a [link](x.md)",
            "<!-- skilllint: ignore -->",
            "_emphasis_",
            "para\n===\n",
            "para\n---\n",
            "> quote",
            "    indented code",
            "- ```\n  fence in item\n  ```",
            "- # heading in item",
            "para\n2. cannot interrupt",
            "-\n  empty item",
            "a\\\nb",
            "``double``",
            "` spaced `",
            "odd `backtick",
            "tab\there",
            "# closed #",
            "#hashtag",
        ];
        for text in refused {
            assert!(fast::parse(text, 0).is_none(), "taken: {text:?}");
        }
    }

    #[test]
    fn fast_pass_agrees_on_generated_documents() {
        // Lines that exercise every branch of the pass, with and without indentation, joined at
        // random; the pass may refuse a document, but what it takes must match pulldown-cmark.
        const LINES: &[&str] = &[
            "",
            "",
            "# Title",
            "## Tool Use Rules",
            "### `code` head",
            "#",
            "plain text",
            "more text here",
            "text with `code` inside",
            "`start` code",
            "ends `code`",
            "trailing  ",
            "- bullet",
            "- bullet `x`",
            "+ plus",
            "1. one",
            "2. two",
            "1) paren",
            "3. three",
            "10. ten",
            "- - nested",
            "-",
            "1.",
            "```",
            "```sh",
            "````",
            "~~~",
            "> quote",
            "---",
            "===",
            "snake_case",
            "a_b_c x",
            "_under",
            "1.5 not a list",
            "-not a list",
            "## Heading  ",
            "continued line",
            "| a | b |",
        ];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let mut taken = 0;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..1 + next(12) {
                text.push_str(&" ".repeat([0, 0, 0, 1, 2, 3, 4, 5, 6][next(9)]));
                text.push_str(LINES[next(LINES.len())]);
                text.push('\n');
            }
            if next(4) == 0 {
                text.pop();
            }
            taken += usize::from(fast_agrees(&text));
        }
        assert!(taken > 4_000, "the pass took only {taken} documents");
    }

    #[test]
    fn fast_pass_agrees_on_the_fixtures() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut stack = vec![root];
        let mut taken = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "md") {
                    if let Ok(text) = std::fs::read_to_string(&path) {
                        let (_, body) = crate::model::document::parse_frontmatter(&text);
                        taken += usize::from(fast_agrees(&text[body.start..body.end]));
                    }
                }
            }
        }
        assert!(taken > 10, "the pass took only {taken} fixture files");
    }

    #[test]
    fn links_written_differently_from_their_value_point_at_what_is_written() {
        let cases = [
            ("[x](<my notes.md>) end", "my notes.md", "my notes.md"),
            (
                r"[x](\\server\share) end",
                r"\server\share",
                r"\\server\share",
            ),
            (r#"[x](a\(b\).md "title") end"#, "a(b).md", r"a\(b\).md"),
            ("[x](a(b).md) end", "a(b).md", "a(b).md"),
        ];
        for (text, destination, written) in cases {
            let md = parse_markdown(text, 0);
            let link = &md.links[0];
            assert_eq!(link.destination, destination, "{text}");
            assert_eq!(&text[link.span.start..link.span.end], written, "{text}");
        }
        let text = "mail <team@example.com> now";
        let link = &parse_markdown(text, 0).links[0];
        assert_eq!(link.destination, "mailto:team@example.com");
        assert_eq!(&text[link.span.start..link.span.end], "<team@example.com>");
    }

    #[test]
    fn links_point_at_their_destination() {
        let text = "see [the script](scripts/run.sh) now";
        let md = parse_markdown(text, 10);
        let link = &md.links[0];
        assert_eq!(link.destination, "scripts/run.sh");
        assert_eq!(
            &text[link.span.start - 10..link.span.end - 10],
            "scripts/run.sh"
        );
    }
}
