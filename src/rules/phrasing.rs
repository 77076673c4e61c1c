//! Wording that several rule families share: how a frontmatter problem or a schema error is
//! reported, and how a JSON pointer reads. One place, so a DRIVER.md, a TOOL.md and a SECRETS.md
//! say the same thing about the same problem; rule families never import each other.

use crate::check::Sink;
use crate::index::Repo;
use crate::model::document::{Frontmatter, FrontmatterState, MarkdownDoc};
use crate::schema::{self, SchemaError};
use crate::source::{FileId, Span};

/// A key defined twice in YAML frontmatter (`error.span` the second definition, `first` the
/// first), in one wording for every family.
pub(crate) fn report_duplicate_key(
    sink: &mut Sink,
    file: FileId,
    error: &crate::parse::yaml::YamlError,
    first: Span,
) {
    sink.report(
        file,
        error.span,
        format!("{} in the frontmatter", error.message),
    )
    .label("defined again here")
    .secondary(file, first, "first defined here")
    .help("keep one definition; YAML readers disagree on which duplicate wins");
}

/// Where meta-validation reports a bad root `type`, which SC002 reports instead (SC001, TM009).
pub(crate) const ROOT_TYPE_POINTER: &str = "/type";

/// What is wrong with an uncompilable pattern, by where it is.
pub(crate) fn pattern_problem(keyword: &str) -> &'static str {
    if keyword == "pattern" {
        "the `pattern` is not a regular expression the validator can compile"
    } else {
        "this `patternProperties` key is not a regular expression the validator can compile"
    }
}

/// What SC001 and TM009 say about a pattern: why it cannot be compiled, or that it and others
/// were not compiled at all.
pub(crate) fn bad_pattern_problem(bad: &crate::schema::BadPattern) -> String {
    match bad.not_judged {
        Some(count) => format!(
            "this {} and {} other distinct patterns were not checked: skilllint compiles at most {} distinct patterns per folder",
            if bad.keyword == "pattern" { "`pattern`" } else { "`patternProperties` key" },
            count - 1,
            crate::schema::MAX_PATTERNS_JUDGED
        ),
        None => pattern_problem(bad.keyword).to_string(),
    }
}

/// The first line of a file, where a finding about a file without frontmatter points.
fn first_line(text: &str) -> Span {
    let end = text.find('\n').unwrap_or(text.len());
    Span::new(0, text[..end].trim_end().len())
}

/// What to do about a manifest without frontmatter, when nothing more specific applies.
pub(crate) const GENERIC_MISSING_HELP: &str =
    "start the file with a `---` line, the frontmatter keys, and a closing `---` line";

/// Reports a frontmatter that is missing or never closed, in the file named `name` (SK001, and
/// through [`report_frontmatter_problem`] DR001, TM001 and SE001); nothing in any other state.
pub(crate) fn report_absent_frontmatter(
    text: &str,
    file: FileId,
    name: &str,
    state: &FrontmatterState,
    sink: &mut Sink,
    missing_help: &str,
) {
    match state {
        FrontmatterState::Missing => {
            sink.report(
                file,
                first_line(text),
                format!("{name} has no YAML frontmatter"),
            )
            .label("expected `---` on the first line")
            .help(missing_help);
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
        FrontmatterState::Valid(_) | FrontmatterState::Invalid { .. } => {}
    }
}

/// Reports a missing, unterminated or unparsable frontmatter (DR001, TM001-style, SE001).
pub(crate) fn report_frontmatter_problem(
    repo: &Repo,
    file: FileId,
    doc: &MarkdownDoc,
    sink: &mut Sink,
    missing_help: &str,
) {
    let name = repo.file_name(file);
    let text = repo.text(file);
    report_absent_frontmatter(text, file, name, &doc.frontmatter, sink, missing_help);
    if let FrontmatterState::Invalid { error } = &doc.frontmatter {
        match error.first_definition {
            Some(first) => report_duplicate_key(sink, file, error, first),
            None => {
                sink.report(
                    file,
                    error.span,
                    format!("{name} frontmatter is not valid YAML: {}", error.message),
                )
                .label("the YAML parser stopped here")
                .help("fix the YAML at or just before this point; the rest of the file is not checked until it parses");
            }
        }
    }
}

/// A JSON pointer as a reader writes the path: `/implements/0/version` → `implements[0].version`.
pub(crate) fn display_path(pointer: &str) -> String {
    crate::schema::display_path("", pointer)
}

/// Where a finding about a missing key of the object at `parent` points: the object's own key,
/// or (for an array item) the item's first key, or the frontmatter's opening `---` for the root.
fn missing_key_anchor(fm: &Frontmatter, pointers: &mut schema::Pointers<'_>, parent: &str) -> Span {
    if parent.is_empty() {
        return fm.opening;
    }
    if let Some(span) = pointers.key_span(parent) {
        let is_item = parent
            .rsplit('/')
            .next()
            .is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
        if !is_item {
            return span;
        }
    }
    match pointers.node(parent) {
        Some(node) => node
            .as_object()
            .and_then(|members| members.first())
            .map_or(node.span, |m| m.key_span),
        None => pointers.span(parent),
    }
}

/// Reports schema errors one per failing key: missing keys at their parent (the opening `---` for
/// the root), unknown keys and bad values at their key. `what` names the document
/// (`driver frontmatter`).
pub(crate) fn report_schema_errors(
    file: FileId,
    fm: &Frontmatter,
    errors: &[SchemaError],
    what: &str,
    help: &str,
    sink: &mut Sink,
) {
    let mut pointers = schema::Pointers::new(&fm.root);
    for error in errors {
        let (parent, last) = error.pointer.rsplit_once('/').unwrap_or(("", ""));
        let key = last.replace("~1", "/").replace("~0", "~");
        match error.keyword.as_str() {
            "required" => {
                let span = missing_key_anchor(fm, &mut pointers, parent);
                let (message, label) = if parent.is_empty() {
                    (
                        format!("{what} lacks required `{key}`"),
                        format!("no `{key}` in this frontmatter"),
                    )
                } else {
                    (
                        format!("`{}` lacks required `{key}`", display_path(parent)),
                        format!("no `{key}` here"),
                    )
                };
                sink.report(file, span, message).label(label).help(help);
            }
            "additionalProperties" => {
                let span = pointers.span(&error.pointer);
                let message = if parent.is_empty() {
                    format!("unknown key `{key}` in the {what}")
                } else {
                    format!("unknown key `{key}` in `{}`", display_path(parent))
                };
                sink.report(file, span, message)
                    .label("not a key of this object")
                    .help(help);
            }
            _ => {
                let span = pointers.span(&error.pointer);
                let message = if error.pointer.is_empty() {
                    format!("the {what} {}", error.message)
                } else {
                    format!("`{}` {}", display_path(&error.pointer), error.message)
                };
                sink.report(file, span, message).help(help);
            }
        }
    }
}

/// Reports a JSON file that does not parse, whose root is not an object, or that defines a key
/// twice (PL001, HK001, MC001). `what` names the file (`Claude Code plugin manifest`).
pub(crate) fn report_json_problems(
    sink: &mut Sink,
    file: FileId,
    parsed: &Result<crate::parse::json::JsonDocument, crate::parse::json::JsonError>,
    what: &str,
) {
    match parsed {
        Err(error) => {
            sink.report(
                file,
                error.span,
                format!("{what} is not valid JSON: {}", error.message),
            )
            .label("the JSON parser stopped here")
            .help("fix the JSON at or just before this point; nothing else in the file is checked until it parses");
        }
        Ok(document) => {
            if !document.root.is_object() {
                sink.report(
                    file,
                    document.root.span,
                    format!(
                        "{what} must be a JSON object, found {}",
                        crate::schema::with_article(document.root.type_name())
                    ),
                )
                .label("expected `{`")
                .help("write the file as one JSON object of keys and values");
            }
            for duplicate in &document.duplicate_keys {
                sink.report(
                    file,
                    duplicate.duplicate,
                    format!("key `{}` is defined twice", duplicate.key),
                )
                .label("defined again here")
                .secondary(file, duplicate.first, "first defined here")
                .help("keep one definition; JSON readers disagree on which duplicate wins");
            }
        }
    }
}

/// What an unscoped grant of a built-in tool lets the agent do, and the scope that would do
/// instead (SK021, AG004): the label and the help.
pub(crate) fn unrestricted_grant_help(tool: &str) -> (&'static str, String) {
    if tool == "Bash" {
        (
            "runs any shell command without asking the user",
            "scope the grant to the commands the workflow needs, e.g. `Bash(git status:*)` or `Bash(npm test:*)`; every other command then asks first".to_string(),
        )
    } else {
        (
            "writes any file without asking the user",
            format!("scope the grant to the files the workflow writes, e.g. `{tool}(docs/**)`; every other write then asks first"),
        )
    }
}

/// What the effect model knows of a tool, as a finding about it carries it (`--format json`).
pub(crate) fn tool_facts(
    effect: &crate::semantic::effect::ToolEffect<'_>,
) -> crate::diagnostic::ToolFacts {
    use crate::diagnostic::{EvidenceFacts, ToolFacts};
    ToolFacts {
        name: effect.tool.display_name(),
        effect: effect.effect.as_str(),
        capabilities: effect.capabilities.iter().map(|c| c.as_str()).collect(),
        evidence: effect
            .evidence
            .iter()
            .map(|e| EvidenceFacts {
                claim: e.claim.key(),
                basis: e.basis.as_str(),
                source: e.source,
                text: e.text.clone(),
            })
            .collect(),
    }
}
