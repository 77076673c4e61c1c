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
//!
//! Only the reading: which comments a file holds and what they cover. Rule names are resolved by
//! the caller (the check stage, against the catalog); triage applies the suppressions to the
//! findings and writes new comments (`--add-noqa`, the language server's code action).

use crate::parse::markdown::Markdown;
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

/// The line holding `offset`, without its line feed.
pub(crate) fn line_bounds(text: &str, offset: usize) -> Span {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end = text[offset.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |i| offset + i);
    Span::new(start, end)
}

struct Collector<'a> {
    /// A rule code or name to its code; `None` for an unknown rule.
    resolve: &'a dyn Fn(&str) -> Option<&'static str>,
    file: FileId,
    suppressions: Vec<Suppression>,
    malformed: Vec<Malformed>,
}

impl Collector<'_> {
    /// Resolves rule names to codes; unknown ones are reported and dropped.
    fn codes(&mut self, rules: &[String], span: Span) -> Vec<&'static str> {
        let mut codes = Vec::new();
        for rule in rules {
            match (self.resolve)(rule) {
                Some(code) => codes.push(code),
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

fn markdown_suppressions(collector: &mut Collector<'_>, body: &Markdown, text: &str) {
    let mut open: Vec<(usize, Suppression)> = Vec::new();
    for (comment, span) in &body.html_comments {
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
    line_comment_suppressions(collector, text, region, "#");
}

/// `<marker> skilllint: ignore[RULES]` comments (`#` in YAML and Python, `//` in TypeScript and
/// JavaScript): about their own line after code, about the next line on a line of their own.
fn line_comment_suppressions(
    collector: &mut Collector<'_>,
    text: &str,
    region: Span,
    marker: &str,
) {
    let yaml = crate::source::slice(text, region);
    if !yaml.contains("skilllint") {
        return;
    }
    let spaced = format!("{marker} skilllint");
    let tight = format!("{marker}skilllint");
    let mut offset = region.start;
    for line in yaml.split_inclusive('\n') {
        if let Some(hash) = line.find(&spaced).or_else(|| line.find(&tight)) {
            let comment = &line[hash + marker.len()..];
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

/// The `# skilllint: ignore[RULES]` (Python) or `// skilllint: ignore[RULES]` (TypeScript,
/// JavaScript) comments of a source file, and the malformed ones, in text order.
pub fn collect_in_code(
    file: FileId,
    text: &str,
    marker: &str,
    resolve: &dyn Fn(&str) -> Option<&'static str>,
) -> (Vec<Suppression>, Vec<Malformed>) {
    let mut collector = Collector {
        resolve,
        file,
        suppressions: Vec::new(),
        malformed: Vec::new(),
    };
    line_comment_suppressions(&mut collector, text, Span::new(0, text.len()), marker);
    (collector.suppressions, collector.malformed)
}

/// The suppression comments of one file, and the malformed ones, in text order: those in its
/// YAML (`yaml`: all of a requirement.yaml, or a Markdown file's frontmatter), then those in its
/// Markdown `body`. `resolve` turns a rule code or name into its code (`None`: no such rule, a
/// malformed suppression).
pub fn collect(
    file: FileId,
    text: &str,
    yaml: Option<Span>,
    body: Option<&Markdown>,
    resolve: &dyn Fn(&str) -> Option<&'static str>,
) -> (Vec<Suppression>, Vec<Malformed>) {
    let mut collector = Collector {
        resolve,
        file,
        suppressions: Vec::new(),
        malformed: Vec::new(),
    };
    if let Some(yaml) = yaml {
        yaml_suppressions(&mut collector, text, yaml);
    }
    if let Some(body) = body {
        markdown_suppressions(&mut collector, body, text);
    }
    (collector.suppressions, collector.malformed)
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

    fn known(rule: &str) -> Option<&'static str> {
        ["SK008"].into_iter().find(|code| *code == rule)
    }

    fn frontmatter_yaml(text: &str) -> Span {
        match crate::parse::frontmatter::split(text) {
            crate::parse::frontmatter::Split::Found(frontmatter) => frontmatter.yaml,
            _ => panic!("frontmatter"),
        }
    }

    #[test]
    fn a_yaml_comment_covers_its_own_line_only() {
        let text = "---\nname: a\nowner: x # skilllint: ignore[SK008]\nteam: y\n---\n";
        let mut collector = Collector {
            resolve: &known,
            file: FileId(0),
            suppressions: Vec::new(),
            malformed: Vec::new(),
        };
        yaml_suppressions(&mut collector, text, frontmatter_yaml(text));
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
        let mut collector = Collector {
            resolve: &known,
            file: FileId(0),
            suppressions: Vec::new(),
            malformed: Vec::new(),
        };
        yaml_suppressions(&mut collector, text, frontmatter_yaml(text));
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
    fn collect_reads_the_yaml_then_the_body_and_reports_unknown_rules() {
        let text = "---\nname: a # skilllint: ignore[SK008]\n---\n<!-- skilllint-disable-next-line nope -->\nbody\n<!-- skilllint-disable-file SK008 -- generated -->\n";
        let yaml = frontmatter_yaml(text);
        let body_start = text.find("<!--").expect("body");
        let body = crate::parse::markdown::parse_markdown(&text[body_start..], body_start);
        let (found, malformed) = collect(FileId(3), text, Some(yaml), Some(&body), &known);
        let scopes: Vec<Scope> = found.iter().map(|s| s.scope).collect();
        assert_eq!(scopes, [Scope::SameLine, Scope::File]);
        assert!(found
            .iter()
            .all(|s| s.file == FileId(3) && s.codes == ["SK008"]));
        assert_eq!(found[1].reason.as_deref(), Some("generated"));
        let [unknown] = malformed.as_slice() else {
            panic!("{malformed:?}");
        };
        assert_eq!(unknown.message, "suppression names unknown rule `nope`");
        assert_eq!(
            collect(FileId(0), text, None, None, &known),
            (vec![], vec![])
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
