//! SK001 `skill-frontmatter-missing`: SKILL.md does not begin with a YAML frontmatter block.

use crate::check::{Sink, Unit};
use crate::model::document::FrontmatterState;
use crate::source::Span;

/// The first line of the file, where a diagnostic about the file as a whole points.
fn first_line(text: &str) -> Span {
    let end = text.find('\n').unwrap_or(text.len());
    Span::new(0, text[..end].trim_end().len())
}

pub(super) fn skill_frontmatter_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    match &skill.doc.frontmatter {
        FrontmatterState::Missing => {
            sink.report(file, first_line(unit.text(file)), "SKILL.md has no YAML frontmatter")
                .label("expected `---` on the first line")
                .help("start the file with a `---` line, then `name:` and `description:`, then a closing `---`");
        }
        FrontmatterState::Unterminated { opening } => {
            sink.report(
                file,
                *opening,
                "the frontmatter opened here is never closed",
            )
            .label("no closing `---` line follows")
            .help("end the frontmatter with a line containing only `---`");
        }
        _ => {}
    }
}
