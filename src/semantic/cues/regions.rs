//! Where a byte of a Markdown text sits: a fenced block, a blockquote, an HTML comment, inline
//! code or a quotation. Words there are mentions, not instructions; a comment is a hidden channel.

/// Where in a Markdown file a byte is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Region {
    Code,
    Blockquote,
    Comment,
    Inline,
    Quoted,
}

/// The regions of a Markdown text that are not plain prose, sorted by start. One pass over lines.
pub(super) fn regions(text: &str) -> Vec<(usize, usize, Region)> {
    let mut out = Vec::new();
    let mut fence: Option<(u8, usize)> = None;
    let mut comment_from: Option<usize> = None;
    let mut at = 0;
    // YAML frontmatter is read as prose: its quotes delimit values, not quotations.
    let mut frontmatter = text.starts_with("---\n") || text.starts_with("---\r\n");
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let start = at;
        at += line.len();
        let end = at;
        if frontmatter {
            if index > 0 && line.trim_end() == "---" {
                frontmatter = false;
            }
            continue;
        }
        if let Some(from) = comment_from {
            if let Some(close) = memchr::memmem::find(line.as_bytes(), b"-->") {
                out.push((from, start + close + 3, Region::Comment));
                comment_from = None;
                inline_regions(text, start + close + 3, end, &mut out, &mut comment_from);
            }
            continue;
        }
        let trimmed = line.trim_start();
        let marker = trimmed.as_bytes().first().copied();
        if let Some((ch, len)) = fence {
            let run = trimmed.bytes().take_while(|b| *b == ch).count();
            if run >= len && trimmed[run..].trim().is_empty() {
                fence = None;
            }
            out.push((start, end, Region::Code));
            continue;
        }
        if matches!(marker, Some(b'`' | b'~')) {
            let ch = marker.unwrap_or(b'`');
            let run = trimmed.bytes().take_while(|b| *b == ch).count();
            if run >= 3 {
                fence = Some((ch, run));
                out.push((start, end, Region::Code));
                continue;
            }
        }
        if marker == Some(b'>') {
            out.push((start, end, Region::Blockquote));
            continue;
        }
        let from = start.max(out.last().map_or(0, |r| r.1));
        inline_regions(text, from.min(end), end, &mut out, &mut comment_from);
    }
    if let Some(from) = comment_from {
        out.push((from, text.len(), Region::Comment));
    }
    out
}

/// Inline code, quotations and comment openings in `text[start..end]` (one line).
fn inline_regions(
    text: &str,
    start: usize,
    end: usize,
    out: &mut Vec<(usize, usize, Region)>,
    comment_from: &mut Option<usize>,
) {
    let bytes = text.as_bytes();
    let mut i = start;
    // Backtick run lengths already known to have no closing run on this line: each length is
    // searched for once, so a line of unclosed runs stays linear.
    let mut unclosed = [false; 9];
    while i < end {
        match bytes[i] {
            b'<' if text.get(i..i + 4) == Some("<!--") => {
                match memchr::memmem::find(&bytes[i + 4..end], b"-->") {
                    Some(close) => {
                        out.push((i, i + 4 + close + 3, Region::Comment));
                        i += 4 + close + 3;
                    }
                    None => {
                        *comment_from = Some(i);
                        return;
                    }
                }
            }
            b'`' => {
                let run = bytes[i..end].iter().take_while(|b| **b == b'`').count();
                let mut j = i + run;
                let mut closed = None;
                let known = unclosed.get(run).copied().unwrap_or(true);
                while j < end && !known {
                    if bytes[j] == b'`' {
                        let other = bytes[j..end].iter().take_while(|b| **b == b'`').count();
                        if other == run {
                            closed = Some(j + other);
                            break;
                        }
                        j += other;
                    } else {
                        j += 1;
                    }
                }
                match closed {
                    Some(close) => {
                        out.push((i, close, Region::Inline));
                        i = close;
                    }
                    None => {
                        if let Some(slot) = unclosed.get_mut(run) {
                            *slot = true;
                        }
                        i += run;
                    }
                }
            }
            b'"' => match memchr::memchr(b'"', &bytes[i + 1..paragraph_end(bytes, i, 300)]) {
                Some(close) => {
                    out.push((i, i + 1 + close + 1, Region::Quoted));
                    i += close + 2;
                }
                None => i += 1,
            },
            b'\'' if i == start || !bytes[i - 1].is_ascii_alphanumeric() => {
                // An opening single quote; the closing one is not followed by a letter
                // (`don't` is no quotation).
                let mut j = i + 1;
                let mut closed = None;
                // A quotation in single quotes is short.
                while j < end.min(i + 200) {
                    if bytes[j] == b'\'' && !bytes.get(j + 1).is_some_and(u8::is_ascii_alphanumeric)
                    {
                        closed = Some(j + 1);
                        break;
                    }
                    j += 1;
                }
                match closed {
                    Some(close) if close > i + 2 => {
                        out.push((i, close, Region::Quoted));
                        i = close;
                    }
                    _ => i += 1,
                }
            }
            0xE2 if text.get(i..i + 3) == Some("\u{201C}") => {
                match memchr::memmem::find(
                    &bytes[i + 3..end.min(i + 300).max(i + 3)],
                    "\u{201D}".as_bytes(),
                ) {
                    Some(close) => {
                        out.push((i, i + 3 + close + 3, Region::Quoted));
                        i += 3 + close + 3;
                    }
                    None => i += 3,
                }
            }
            _ => i += 1,
        }
    }
}

/// Where a quotation opened at `at` may close: the end of its paragraph, at most `limit` bytes on.
fn paragraph_end(bytes: &[u8], at: usize, limit: usize) -> usize {
    let ceiling = (at + limit).min(bytes.len());
    memchr::memmem::find(&bytes[at..ceiling], b"\n\n").map_or(ceiling, |i| at + i)
}

/// The region holding byte `at`, if any.
pub(super) fn region_at(regions: &[(usize, usize, Region)], at: usize) -> Option<Region> {
    let index = regions.partition_point(|(start, _, _)| *start <= at);
    // Inline regions sit inside a line; a comment may hold several: look back a little.
    regions[..index]
        .iter()
        .rev()
        .take(8)
        .find(|(start, end, _)| *start <= at && at < *end)
        .map(|(_, _, r)| *r)
}
