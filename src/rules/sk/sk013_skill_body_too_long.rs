//! SK013 `skill-body-too-long`: The SKILL.md body is longer than 500 lines.

use crate::check::{Sink, Unit};
use crate::source::Span;

const BODY_MAX_LINES: usize = 500;

/// What `str::lines().count()` gives, from a SIMD newline count: every `\n` ends a line, and a
/// last line without one counts too.
pub(super) fn line_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count()
        + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

pub(super) fn skill_body_too_long(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    let text = unit.text(file);
    let body = crate::source::slice(text, skill.doc.body_span);
    let lines = line_count(body);
    if lines <= BODY_MAX_LINES {
        return;
    }
    // Point at the first line past the limit.
    let mut offset = skill.doc.body_span.start;
    for line in body.split_inclusive('\n').take(BODY_MAX_LINES) {
        offset += line.len();
    }
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    sink.report(
        file,
        Span::new(offset, line_end),
        format!("skill body is {lines} lines, over the recommended {BODY_MAX_LINES}"),
    )
    .label(format!("line {} of the body", BODY_MAX_LINES + 1))
    .help("move reference material into separate files that the body links to");
}
