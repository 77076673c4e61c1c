//! Suppressions as triage uses them: which findings the inline comments of
//! [`crate::parse::suppression`] silence, and where a new comment goes for a finding
//! (`--add-noqa`, the language server's code action). JSON has no comments: use
//! `[lint.per-file-ignores]`.

use crate::diagnostic::{Diagnostic, Suppressed};
use crate::index::Parsed;
use crate::parse::suppression::{line_bounds, Suppression};
use crate::source::Span;

/// Where a suppression comment for a finding goes in its file: YAML (requirement.yaml, a
/// Markdown file's frontmatter) takes `# skilllint: ignore[CODE]` on the finding's line, a
/// Markdown body `<!-- skilllint-disable-next-line CODE -->` on the line before. JSON has no
/// comments, and nothing goes above a frontmatter's opening `---`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentPlace {
    Yaml,
    Markdown,
    /// A finding about the file as a whole, reported at its start (above the frontmatter):
    /// `<!-- skilllint-disable-file CODE -->` at the top of the body.
    MarkdownFile,
}

/// The comment form for a finding at `offset` of a file parsed as `parsed`, if it has one.
pub fn comment_place(parsed: &Parsed, offset: usize) -> Option<CommentPlace> {
    if let Parsed::Requirement(_) = parsed {
        return Some(CommentPlace::Yaml);
    }
    let doc = parsed.markdown_doc()?;
    if let Some(frontmatter) = doc.frontmatter() {
        if frontmatter.yaml.start <= offset && offset < frontmatter.yaml.end {
            return Some(CommentPlace::Yaml);
        }
    }
    // Never above the frontmatter's opening `---`, which must stay the first line: a finding
    // reported there is about the whole file.
    if offset >= doc.body_span.start && doc.body_span.start < doc.body_span.end {
        Some(CommentPlace::Markdown)
    } else if offset == 0 {
        Some(CommentPlace::MarkdownFile)
    } else {
        None
    }
}

/// The text edit (a span of `text` and its replacement) that silences `codes` for a finding at
/// `offset`, in the form `place` says: codes added to a YAML line's `# skilllint: ignore[…]`
/// when it has one (one comment a line is read), else a new comment.
pub fn comment_edit(
    place: CommentPlace,
    text: &str,
    offset: usize,
    codes: &[&str],
) -> (Span, String) {
    let line = line_bounds(text, offset);
    let line_text = &text[line.start..line.end];
    let list = codes.join(", ");
    match place {
        CommentPlace::Yaml => match line_text.find("# skilllint: ignore[") {
            Some(at) => {
                let at = line.start + at + "# skilllint: ignore[".len();
                (Span::empty(at), format!("{list}, "))
            }
            None => {
                // Before a `\r` ending, so the line keeps it.
                let end = line.start + line_text.trim_end().len();
                (Span::empty(end), format!(" # skilllint: ignore[{list}]"))
            }
        },
        CommentPlace::MarkdownFile => {
            let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
            let comment = format!("<!-- skilllint-disable-file {list} -->");
            match body_start(text) {
                Some(at) => (Span::empty(at), format!("{comment}{newline}")),
                // No body yet: the comment starts one after the frontmatter.
                None if text.ends_with('\n') => {
                    (Span::empty(text.len()), format!("{comment}{newline}"))
                }
                None => (
                    Span::empty(text.len()),
                    format!("{newline}{comment}{newline}"),
                ),
            }
        }
        CommentPlace::Markdown => {
            let indent: String = line_text.chars().take_while(|c| *c == ' ').collect();
            let newline = if text[line.end..].starts_with("\r\n") || line_text.ends_with('\r') {
                "\r\n"
            } else {
                "\n"
            };
            (
                Span::empty(line.start),
                format!("{indent}<!-- skilllint-disable-next-line {list} -->{newline}"),
            )
        }
    }
}

/// Where a Markdown file's body starts: after its frontmatter's closing `---` line (the file's
/// start when it has none); `None` when nothing follows the frontmatter.
fn body_start(text: &str) -> Option<usize> {
    use crate::parse::frontmatter::{split, Split};
    let start = match split(text) {
        Split::Found(frontmatter) => frontmatter.body.start,
        Split::Missing => 0,
        Split::Unterminated { .. } => text.len(),
    };
    (start < text.len()).then_some(start)
}

/// Splits findings into kept and suppressed; returns the suppressions no finding used.
pub fn apply(
    diagnostics: Vec<Diagnostic>,
    suppressions: &[Suppression],
) -> (Vec<Diagnostic>, Vec<Suppressed>, Vec<bool>) {
    // Most runs have no suppression comments: keep the diagnostics where they are.
    if suppressions.is_empty() {
        return (diagnostics, Vec::new(), Vec::new());
    }
    let mut used = vec![false; suppressions.len()];
    let mut kept = Vec::with_capacity(diagnostics.len());
    let mut suppressed = Vec::new();
    for diagnostic in diagnostics {
        let hit = suppressions.iter().position(|s| {
            s.file == diagnostic.primary.file
                && s.codes.contains(&diagnostic.code)
                && s.covers.start <= diagnostic.primary.span.start
                && diagnostic.primary.span.start <= s.covers.end
        });
        match hit {
            Some(index) => {
                used[index] = true;
                suppressed.push(Suppressed {
                    justification: suppressions[index].reason.clone(),
                    diagnostic,
                    by: crate::diagnostic::SuppressedBy::Comment,
                });
            }
            None => kept.push(diagnostic),
        }
    }
    (kept, suppressed, used)
}
