//! Splits a Markdown file into its YAML frontmatter and body.

use crate::source::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// The file does not start with a `---` line.
    Missing,
    /// An opening `---` without a closing line; the span covers the opening delimiter.
    Unterminated {
        opening: Span,
    },
    Found(Frontmatter),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontmatter {
    /// The YAML between the delimiter lines (file coordinates).
    pub yaml: Span,
    /// The opening `---` line, for diagnostics about the block as a whole.
    pub opening: Span,
    /// Everything after the closing delimiter line.
    pub body: Span,
}

/// Finds `---` frontmatter at the very start of `text` (after an optional UTF-8 BOM). The closing
/// delimiter is a line that is exactly `---` or `...` (trailing spaces allowed).
pub fn split(text: &str) -> Split {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let rest = &text[start..];
    let Some(first_line_end) = line_end(rest, 0) else {
        return if is_delimiter(rest, &["---"]) {
            Split::Unterminated {
                opening: Span::new(start, start + 3),
            }
        } else {
            Split::Missing
        };
    };
    if !is_delimiter(&rest[..first_line_end], &["---"]) {
        return Split::Missing;
    }
    let opening = Span::new(start, start + 3);
    let yaml_start = next_line(rest, first_line_end);
    let mut line_start = yaml_start;
    while line_start < rest.len() {
        let end = line_end(rest, line_start).unwrap_or(rest.len());
        if is_delimiter(&rest[line_start..end], &["---", "..."]) {
            let body_start = next_line(rest, end);
            return Split::Found(Frontmatter {
                yaml: Span::new(start + yaml_start, start + line_start),
                opening,
                body: Span::new(start + body_start, text.len()),
            });
        }
        line_start = next_line(rest, end);
    }
    Split::Unterminated { opening }
}

/// Whether `text` opens with a `---` line (after an optional UTF-8 BOM): whether [`split`] finds
/// frontmatter there, closed or not, without looking past the first line.
pub fn opens(text: &str) -> bool {
    let rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_line = match line_end(rest, 0) {
        Some(end) => &rest[..end],
        None => rest,
    };
    is_delimiter(first_line, &["---"])
}

fn line_end(text: &str, from: usize) -> Option<usize> {
    memchr::memchr(b'\n', &text.as_bytes()[from..]).map(|i| from + i)
}

fn next_line(text: &str, line_end: usize) -> usize {
    (line_end + 1).min(text.len())
}

fn is_delimiter(line: &str, delimiters: &[&str]) -> bool {
    let line = line
        .strip_suffix('\r')
        .unwrap_or(line)
        .trim_end_matches([' ', '\t']);
    delimiters.contains(&line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_agrees_with_split() {
        for text in [
            "",
            "---",
            "---\n",
            "--- \r\nname: x\n---\n",
            "\u{feff}---\nname: x\n---\nbody",
            "\u{feff}# Title",
            "# Secrets checklist\n---\n",
            " ---\n",
            "----\n",
            "---x\n",
        ] {
            assert_eq!(opens(text), split(text) != Split::Missing, "{text:?}");
        }
    }

    fn found(text: &str) -> Frontmatter {
        match split(text) {
            Split::Found(f) => f,
            other => panic!("expected frontmatter, got {other:?}"),
        }
    }

    #[test]
    fn splits_yaml_and_body() {
        let text = "---\nname: a\n---\n# Body\n";
        let f = found(text);
        assert_eq!(&text[f.yaml.start..f.yaml.end], "name: a\n");
        assert_eq!(&text[f.body.start..f.body.end], "# Body\n");
    }

    #[test]
    fn tolerates_bom_and_crlf() {
        let text = "\u{feff}---\r\nname: a\r\n---\r\nbody";
        let f = found(text);
        assert_eq!(&text[f.yaml.start..f.yaml.end], "name: a\r\n");
        assert_eq!(&text[f.body.start..f.body.end], "body");
    }

    #[test]
    fn missing_and_unterminated() {
        assert_eq!(split("# Title\n"), Split::Missing);
        assert_eq!(split(""), Split::Missing);
        assert_eq!(split("----\n"), Split::Missing);
        assert!(matches!(
            split("---\nname: a\n"),
            Split::Unterminated { .. }
        ));
        assert!(matches!(split("---"), Split::Unterminated { .. }));
    }

    #[test]
    fn empty_frontmatter() {
        let f = found("---\n---\n");
        assert!(f.yaml.is_empty());
    }
}
