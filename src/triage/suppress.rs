//! Inline suppressions (SPEC §7): Markdown comments in the bodies of SKILL.md, TOOL.md, DRIVER.md,
//! SECRETS.md, commands, agents, `AGENTS.md`/`CLAUDE.md` and reference files, and `# skilllint: ignore[...]` comments in YAML (frontmatter and
//! requirement.yaml). Parsed by a strict grammar; malformed comments become SL003, unused ones
//! SL002. JSON has no comments: use `[lint.per-file-ignores]`.
//!
//! Markdown grammar (`<!--` and `-->` included, spaces as shown are one or more):
//!   `<!-- skilllint-DIRECTIVE RULES -->` or `<!-- skilllint-DIRECTIVE RULES -- REASON -->`
//!   DIRECTIVE = disable-next-line | disable | enable | disable-file
//!   RULES     = RULE ("," RULE)*   (spaces allowed after commas; a rule is a code or a name)
//! YAML grammar: `# skilllint: ignore[RULES]` optionally followed by a space and a reason.

use crate::catalog::{Catalog, RuleMeta};
use crate::diagnostic::{Diagnostic, Suppressed};
use crate::index::Parsed;
use crate::model::document::MarkdownDoc;
use crate::source::{FileId, Span};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The line after the comment.
    NextLine,
    /// From the comment to the matching `enable` (or the end of the file).
    Region,
    /// The whole file.
    File,
    /// The comment's own line (YAML).
    SameLine,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    pub file: FileId,
    /// The comment itself.
    pub span: Span,
    pub scope: Scope,
    /// Byte range the suppression covers.
    pub covers: Span,
    pub codes: Vec<&'static str>,
    pub reason: Option<String>,
}

/// A malformed or unknown-rule suppression comment (reported as SL003).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

#[derive(Debug, PartialEq, Eq)]
enum CommentParse {
    Directive {
        directive: Directive,
        rules: Vec<String>,
        reason: Option<String>,
    },
    NotOurs,
    Malformed(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Directive {
    DisableNextLine,
    Disable,
    Enable,
    DisableFile,
}

fn parse_rules(list: &str) -> Result<Vec<String>, String> {
    let rules: Vec<String> = list.split(',').map(|r| r.trim().to_string()).collect();
    if rules.iter().any(String::is_empty) {
        return Err("expected rule codes or names separated by commas".to_string());
    }
    if let Some(bad) = rules
        .iter()
        .find(|r| !r.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
    {
        return Err(format!("`{bad}` is not a rule code or name"));
    }
    Ok(rules)
}

/// Parses the inside of an HTML comment (`<!--` … `-->` already stripped).
fn parse_markdown_comment(inner: &str) -> CommentParse {
    let text = inner.trim();
    let Some(rest) = text.strip_prefix("skilllint-") else {
        return if text.starts_with("skilllint") {
            CommentParse::Malformed("expected `skilllint-<directive>`".to_string())
        } else {
            CommentParse::NotOurs
        };
    };
    let (word, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let directive = match word {
        "disable-next-line" => Directive::DisableNextLine,
        "disable" => Directive::Disable,
        "enable" => Directive::Enable,
        "disable-file" => Directive::DisableFile,
        other => {
            return CommentParse::Malformed(format!(
                "unknown directive `skilllint-{other}` (expected disable-next-line, disable, enable or disable-file)"
            ))
        }
    };
    let (list, reason) = match after.split_once(" --") {
        Some((list, reason)) => (list, Some(reason.trim())),
        None => (after, None),
    };
    if list.trim().is_empty() {
        return CommentParse::Malformed(format!(
            "`skilllint-{word}` needs the rules it applies to, e.g. `skilllint-{word} TR004`"
        ));
    }
    match parse_rules(list) {
        Ok(rules) => CommentParse::Directive {
            directive,
            rules,
            reason: reason.filter(|r| !r.is_empty()).map(str::to_string),
        },
        Err(message) => CommentParse::Malformed(message),
    }
}

/// Parses a YAML comment body (after `#`).
fn parse_yaml_comment(comment: &str) -> CommentParse {
    let text = comment.trim_start();
    let Some(rest) = text.strip_prefix("skilllint:") else {
        return if text.starts_with("skilllint") {
            CommentParse::Malformed("expected `# skilllint: ignore[RULES]`".to_string())
        } else {
            CommentParse::NotOurs
        };
    };
    let rest = rest.trim_start();
    let Some(inside) = rest.strip_prefix("ignore[") else {
        return CommentParse::Malformed("expected `ignore[RULES]` after `skilllint:`".to_string());
    };
    let Some((list, reason)) = inside.split_once(']') else {
        return CommentParse::Malformed("`ignore[` is not closed with `]`".to_string());
    };
    if !reason.is_empty() && !reason.starts_with(char::is_whitespace) {
        return CommentParse::Malformed("put a space between `]` and the reason".to_string());
    }
    match parse_rules(list) {
        Ok(rules) => CommentParse::Directive {
            directive: Directive::DisableNextLine,
            rules,
            reason: Some(reason.trim())
                .filter(|r| !r.is_empty())
                .map(str::to_string),
        },
        Err(message) => CommentParse::Malformed(message),
    }
}

fn line_bounds(text: &str, offset: usize) -> Span {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end = text[offset.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |i| offset + i);
    Span::new(start, end)
}

struct Collector<'a> {
    catalog: &'a Catalog,
    file: FileId,
    suppressions: Vec<Suppression>,
    malformed: Vec<Malformed>,
}

impl Collector<'_> {
    /// Resolves rule names to codes; unknown ones are reported and dropped.
    fn codes(&mut self, rules: &[String], span: Span) -> Vec<&'static str> {
        let mut codes = Vec::new();
        for rule in rules {
            match self.catalog.find(rule) {
                Some(RuleMeta { code, .. }) => codes.push(*code),
                None => self.malformed.push(Malformed {
                    file: self.file,
                    span,
                    message: format!("suppression names unknown rule `{rule}`"),
                }),
            }
        }
        codes
    }
}

fn markdown_suppressions(collector: &mut Collector<'_>, doc: &MarkdownDoc, text: &str) {
    let mut open: Vec<(usize, Suppression)> = Vec::new();
    for (comment, span) in &doc.body.html_comments {
        let inner = comment
            .trim()
            .strip_prefix("<!--")
            .and_then(|c| c.strip_suffix("-->"))
            .unwrap_or("");
        match parse_markdown_comment(inner) {
            CommentParse::NotOurs => {}
            CommentParse::Malformed(message) => collector.malformed.push(Malformed {
                file: collector.file,
                span: *span,
                message: format!("malformed suppression: {message}"),
            }),
            CommentParse::Directive {
                directive,
                rules,
                reason,
            } => {
                let codes = collector.codes(&rules, *span);
                if codes.is_empty() {
                    continue;
                }
                let comment_line = line_bounds(text, span.end);
                let (scope, covers) = match directive {
                    Directive::DisableNextLine => {
                        let next = (comment_line.end + 1).min(text.len());
                        (Scope::NextLine, line_bounds(text, next))
                    }
                    Directive::DisableFile => (Scope::File, Span::new(0, text.len())),
                    Directive::Disable => (Scope::Region, Span::new(span.end, text.len())),
                    Directive::Enable => {
                        // Close the most recent region for each rule named.
                        for code in &codes {
                            if let Some(position) =
                                open.iter().rposition(|(_, s)| s.codes.contains(code))
                            {
                                let (_, mut region) = open.remove(position);
                                region.covers.end = span.start;
                                collector.suppressions.push(region);
                            }
                        }
                        continue;
                    }
                };
                let suppression = Suppression {
                    file: collector.file,
                    span: *span,
                    scope,
                    covers,
                    codes,
                    reason,
                };
                if scope == Scope::Region {
                    open.push((span.start, suppression));
                } else {
                    collector.suppressions.push(suppression);
                }
            }
        }
    }
    collector
        .suppressions
        .extend(open.into_iter().map(|(_, s)| s));
}

fn yaml_suppressions(collector: &mut Collector<'_>, text: &str, region: Span) {
    let yaml = crate::source::slice(text, region);
    if !yaml.contains("skilllint") {
        return;
    }
    let mut offset = region.start;
    for line in yaml.split_inclusive('\n') {
        if let Some(hash) = line.find("# skilllint").or_else(|| line.find("#skilllint")) {
            let comment = &line[hash + 1..];
            let start = offset + hash;
            let span = Span::new(start, offset + line.trim_end().len());
            match parse_yaml_comment(comment.trim_end()) {
                CommentParse::NotOurs => {}
                CommentParse::Malformed(message) => collector.malformed.push(Malformed {
                    file: collector.file,
                    span,
                    message: format!("malformed suppression: {message}"),
                }),
                CommentParse::Directive { rules, reason, .. } => {
                    let codes = collector.codes(&rules, span);
                    if !codes.is_empty() {
                        // After a key, the comment is about its own line; on a line of its
                        // own, about the line below. Either way one line, without its line
                        // feed, so a key at column 1 of the next line is not covered by a
                        // comment at the end of this one.
                        let own_line = line[..hash].trim().is_empty();
                        let end = offset + line.len();
                        let (scope, covers) = if own_line {
                            let next = &text[end.min(text.len())..];
                            let next_len = next.find('\n').unwrap_or(next.len());
                            (Scope::NextLine, Span::new(end, end + next_len))
                        } else {
                            let this_len = line.trim_end_matches('\n').len();
                            (Scope::SameLine, Span::new(offset, offset + this_len))
                        };
                        collector.suppressions.push(Suppression {
                            file: collector.file,
                            span,
                            scope,
                            covers,
                            codes,
                            reason,
                        });
                    }
                }
            }
        }
        offset += line.len();
    }
}

/// The suppression comments of one file, and the malformed ones, in text order.
pub fn collect_file(
    catalog: &Catalog,
    file: FileId,
    text: &str,
    parsed: &Parsed,
) -> (Vec<Suppression>, Vec<Malformed>) {
    let mut collector = Collector {
        catalog,
        file,
        suppressions: Vec::new(),
        malformed: Vec::new(),
    };
    let doc = match parsed {
        Parsed::Skill(skill) => Some(&skill.doc),
        Parsed::Contract(doc)
        | Parsed::Secrets(doc)
        | Parsed::Driver { doc, .. }
        | Parsed::Prose(doc) => Some(&**doc),
        Parsed::Instructions(instructions) => Some(&instructions.doc),
        Parsed::Agent(agent) => Some(&agent.doc),
        Parsed::Requirement(_) => {
            yaml_suppressions(&mut collector, text, Span::new(0, text.len()));
            None
        }
        _ => None,
    };
    if let Some(doc) = doc {
        if let Some(frontmatter) = doc.frontmatter() {
            yaml_suppressions(&mut collector, text, frontmatter.yaml);
        }
        markdown_suppressions(&mut collector, doc, text);
    }
    (collector.suppressions, collector.malformed)
}

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
    let doc = match parsed {
        Parsed::Requirement(_) => return Some(CommentPlace::Yaml),
        Parsed::Skill(skill) => &skill.doc,
        Parsed::Contract(doc)
        | Parsed::Secrets(doc)
        | Parsed::Driver { doc, .. }
        | Parsed::Prose(doc) => &**doc,
        Parsed::Instructions(instructions) => &instructions.doc,
        Parsed::Agent(agent) => &agent.doc,
        _ => return None,
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn directive(text: &str) -> (Directive, Vec<String>, Option<String>) {
        match parse_markdown_comment(text) {
            CommentParse::Directive {
                directive,
                rules,
                reason,
            } => (directive, rules, reason),
            other => panic!("{text:?} → {other:?}"),
        }
    }

    #[test]
    fn markdown_grammar_table() {
        // (comment inside <!-- -->, expected directive, rules, reason)
        let valid = [
            (
                " skilllint-disable-next-line TR004 ",
                Directive::DisableNextLine,
                vec!["TR004"],
                None,
            ),
            (
                " skilllint-disable-next-line TR004 -- legacy tool ",
                Directive::DisableNextLine,
                vec!["TR004"],
                Some("legacy tool"),
            ),
            (
                " skilllint-disable TR004, TR003 ",
                Directive::Disable,
                vec!["TR004", "TR003"],
                None,
            ),
            (
                " skilllint-enable TR004 ",
                Directive::Enable,
                vec!["TR004"],
                None,
            ),
            (
                " skilllint-disable-file tool-phantom -- generated ",
                Directive::DisableFile,
                vec!["tool-phantom"],
                Some("generated"),
            ),
            (
                "skilllint-disable SK008,SK013",
                Directive::Disable,
                vec!["SK008", "SK013"],
                None,
            ),
        ];
        for (text, expected_directive, expected_rules, expected_reason) in valid {
            let (d, rules, reason) = directive(text);
            assert_eq!(d, expected_directive, "{text}");
            assert_eq!(rules, expected_rules, "{text}");
            assert_eq!(reason.as_deref(), expected_reason, "{text}");
        }
        let malformed = [
            " skilllint-disable ",
            " skilllint-disable-line TR004 ",
            " skilllint disable TR004 ",
            " skilllint-disable TR004,, TR003 ",
            " skilllint-disable TR004; TR003 ",
            " skilllint-ignore TR004 ",
        ];
        for text in malformed {
            assert!(
                matches!(parse_markdown_comment(text), CommentParse::Malformed(_)),
                "{text:?} must be malformed"
            );
        }
        for text in [" a normal comment ", " TODO: skilllint later "] {
            assert_eq!(
                parse_markdown_comment(text),
                CommentParse::NotOurs,
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_yaml_comment_covers_its_own_line_only() {
        let text = "---\nname: a\nowner: x # skilllint: ignore[SK008]\nteam: y\n---\n";
        let doc = crate::model::document::parse_markdown_doc(text);
        let frontmatter = doc.frontmatter().expect("frontmatter");
        let mut collector = Collector {
            catalog: crate::catalog::catalog(),
            file: FileId(0),
            suppressions: Vec::new(),
            malformed: Vec::new(),
        };
        yaml_suppressions(&mut collector, text, frontmatter.yaml);
        let [suppression] = collector.suppressions.as_slice() else {
            panic!("{:?}", collector.suppressions);
        };
        let team = text.find("team").expect("team");
        let owner = text.find("owner").expect("owner");
        assert!(suppression.covers.start <= owner && owner <= suppression.covers.end);
        assert!(
            team > suppression.covers.end,
            "the next line's key is not covered"
        );
        // On a line of its own, the comment is about the line below, and only that one.
        let text = "---\n# skilllint: ignore[SK008] kept\nowner: x\nteam: y\n---\n";
        let doc = crate::model::document::parse_markdown_doc(text);
        let mut collector = Collector {
            catalog: crate::catalog::catalog(),
            file: FileId(0),
            suppressions: Vec::new(),
            malformed: Vec::new(),
        };
        let yaml = doc.frontmatter().expect("frontmatter").yaml;
        yaml_suppressions(&mut collector, text, yaml);
        let [above] = collector.suppressions.as_slice() else {
            panic!("{:?}", collector.suppressions);
        };
        let owner = text.find("owner").expect("owner");
        let team = text.find("team").expect("team");
        assert_eq!(above.scope, Scope::NextLine);
        assert!(
            above.covers.start == owner && above.covers.end < team,
            "{above:?}"
        );
    }

    #[test]
    fn yaml_grammar_table() {
        let valid = [
            (" skilllint: ignore[SK008]", vec!["SK008"], None),
            (
                " skilllint: ignore[SK008, skill-metadata-invalid] kept for the old loader",
                vec!["SK008", "skill-metadata-invalid"],
                Some("kept for the old loader"),
            ),
            ("skilllint:ignore[SK008]", vec!["SK008"], None),
        ];
        for (text, rules, reason) in valid {
            match parse_yaml_comment(text) {
                CommentParse::Directive {
                    rules: r,
                    reason: why,
                    ..
                } => {
                    assert_eq!(r, rules, "{text}");
                    assert_eq!(why.as_deref(), reason, "{text}");
                }
                other => panic!("{text:?} → {other:?}"),
            }
        }
        for text in [
            " skilllint: ignore SK008",
            " skilllint: ignore[SK008",
            " skilllint: ignore[]",
            " skilllint: disable[SK008]",
            " skilllint: ignore[SK008]reason",
            " skilllint ignore[SK008]",
        ] {
            assert!(
                matches!(parse_yaml_comment(text), CommentParse::Malformed(_)),
                "{text:?}"
            );
        }
        assert_eq!(parse_yaml_comment(" just a comment"), CommentParse::NotOurs);
    }
}
