//! Markdown structure with byte offsets: headings, text blocks (list items and paragraphs), inline
//! code, links and HTML comments. Built once per file with pulldown-cmark; rules only read it.

use crate::source::Span;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

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
            Event::Text(t) if !in_code_block => append(&mut stack, &t, span, None),
            Event::Code(t) => append(&mut stack, &t, span, Some(String::from(&*t))),
            Event::SoftBreak | Event::HardBreak => append(&mut stack, " ", span, None),
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

fn append(stack: &mut [Open], text: &str, span: Span, code: Option<String>) {
    match stack.last_mut() {
        Some(Open::Heading(h)) => h.text.push_str(text),
        Some(Open::Block(b)) => {
            if b.text.is_empty() && b.code.is_empty() {
                b.span.start = span.start;
            }
            b.text.push_str(text);
            b.span.end = b.span.end.max(span.end);
            if let Some(code_text) = code {
                b.code.push(CodeSpan {
                    text: code_text,
                    span,
                });
            }
        }
        None => {}
    }
}

fn close_block(stack: &mut Vec<Open>, doc: &mut Markdown) {
    match stack.pop() {
        Some(Open::Block(b)) if !b.text.trim().is_empty() => doc.blocks.push(b),
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
    match local.rfind(&format!("]({destination}")) {
        Some(i) => {
            let start = link.start + i + 2;
            Span::new(start, start + destination.len())
        }
        None => link,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
