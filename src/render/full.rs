//! The default report: rustc-style snippets with labels and help, drawn by miette.

use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::escape::{escape_text, Snippet};
use crate::index::Repo;
use crate::rules::registry;
use crate::source::FileId;
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    NamedSource, SourceCode, SourceSpan, SpanContents,
};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

pub const DEFAULT_WIDTH: usize = 100;

type Source = NamedSource<Windowed>;

/// A file's text as miette reads it, from a few lines before each span instead of from the
/// start of the file: miette's own reader counts lines from offset 0 for every snippet, which
/// made a file with many findings quadratic. The snippet is miette's own reading of the window,
/// its line numbers moved by the lines before it, so the output is the same bytes.
#[derive(Clone)]
struct Windowed(Arc<WindowedText>);

struct WindowedText {
    text: Arc<str>,
    /// Offsets of the `\n` bytes.
    newlines: Vec<usize>,
    /// Offsets of the `\r` bytes not followed by `\n`: miette counts them as line breaks too.
    lone_returns: Vec<usize>,
}

impl Windowed {
    fn new(text: Arc<str>) -> Self {
        let bytes = text.as_bytes();
        let newlines = memchr::memchr_iter(b'\n', bytes).collect();
        let lone_returns = memchr::memchr_iter(b'\r', bytes)
            .filter(|i| bytes.get(i + 1) != Some(&b'\n'))
            .collect();
        Windowed(Arc::new(WindowedText {
            text,
            newlines,
            lone_returns,
        }))
    }
}

impl SourceCode for Windowed {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let whole = self.0.text.as_bytes();
        let newlines = &self.0.newlines;
        // The window starts on a line two more lines back than miette shows, so its reading of
        // the window ends in the same state as its reading of the whole file.
        let line = newlines.partition_point(|n| *n < span.offset());
        let back = context_lines_before + 2;
        let Some(window_start) = line
            .checked_sub(back + 1)
            .and_then(|i| newlines.get(i))
            .map(|n| n + 1)
        else {
            return whole.read_span(span, context_lines_before, context_lines_after);
        };
        let window = whole.get(window_start..).unwrap_or_default();
        let shifted = SourceSpan::new((span.offset() - window_start).into(), span.len());
        let inner = window.read_span(&shifted, context_lines_before, context_lines_after)?;
        // Line breaks before the window: its `\n`s, and the lone `\r`s miette also counts.
        let lines_before =
            (line - back) + self.0.lone_returns.partition_point(|r| *r < window_start);
        let data: &'a [u8] = whole
            .get(window_start + inner.span().offset()..)
            .and_then(|rest| rest.get(..inner.data().len()))
            .unwrap_or_default();
        Ok(Box::new(MietteSpanContents::new(
            data,
            SourceSpan::new(
                (inner.span().offset() + window_start).into(),
                inner.span().len(),
            ),
            inner.line() + lines_before,
            inner.column(),
            inner.line_count() + lines_before,
        )))
    }
}

/// One diagnostic (or one related location in another file) in miette's terms.
struct Report {
    message: String,
    code: Option<String>,
    severity: miette::Severity,
    help: Option<String>,
    source: Source,
    labels: Vec<LabeledSpan>,
    related: Vec<Report>,
}

impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c.as_str()) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related.iter().map(|r| r as &dyn miette::Diagnostic),
            ))
        }
    }
}

fn miette_severity(severity: Severity) -> miette::Severity {
    match severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    }
}

/// A file's snippet text as shown (control characters escaped) with the map from file offsets to
/// shown offsets, built once per file.
struct Shown<'a> {
    snippet: Snippet<'a>,
    text: Windowed,
    /// The file's own length: spans are clamped to it before they are mapped.
    len: usize,
}

impl<'a> Shown<'a> {
    fn new(text: &'a str) -> Self {
        let snippet = Snippet::new(text);
        let shown = Windowed::new(Arc::<str>::from(snippet.text.as_ref()));
        Shown {
            snippet,
            text: shown,
            len: text.len(),
        }
    }

    /// The label at its place in the shown text, its message escaped.
    fn labeled(&self, label: &Label, primary: bool) -> LabeledSpan {
        let start = label.span.start.min(self.len);
        let end = label.span.end.clamp(start, self.len);
        let (start, end) = (self.snippet.offset(start), self.snippet.offset(end));
        let span = SourceSpan::new(start.into(), end - start);
        let message = label
            .message
            .as_deref()
            .map(|m| escape_text(m).into_owned());
        if primary {
            LabeledSpan::new_primary_with_span(message, span)
        } else {
            LabeledSpan::new_with_span(message, span)
        }
    }
}

/// The shown form of `file`, made on first use.
fn shown_file<'m, 'a>(
    shown: &'m mut HashMap<FileId, Shown<'a>>,
    repo: &'a Repo,
    file: FileId,
) -> &'m Shown<'a> {
    shown
        .entry(file)
        .or_insert_with(|| Shown::new(repo.text(file)))
}

pub fn render(repo: &Repo, diagnostics: &[Diagnostic], color: bool, width: usize) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // miette counts header columns in bytes; we print our own `path:line:column` (columns in
    // Unicode code points, as every other format) as the source name instead.
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_links(false)
        .with_context_lines(1)
        .without_primary_span_start();
    let positions = super::Positions::new(repo, diagnostics);
    // Snippets, messages and help quote the repository: everything miette prints is escaped
    // first, so no ESC, bidi override or line feed from a file reaches the terminal raw.
    let mut shown: HashMap<FileId, Shown<'_>> = HashMap::new();
    let source = |label: &Label, file: &Shown<'_>| -> Source {
        let start = positions.start(label.file, label.span);
        let name = format!(
            "{}:{}:{}",
            escape_text(&repo.file(label.file).rel_path),
            start.line,
            start.column
        );
        NamedSource::new(name, file.text.clone())
    };
    let registry = registry();
    let mut out = String::new();
    for d in diagnostics {
        let mut labels =
            vec![shown_file(&mut shown, repo, d.primary.file).labeled(&d.primary, true)];
        let mut related = Vec::new();
        let primary_line = positions.start(d.primary.file, d.primary.span).line;
        for label in &d.secondary {
            let file = shown_file(&mut shown, repo, label.file);
            // A nearby label shares the primary snippet; a distant one (or one in another file)
            // gets its own snippet, so each snippet's header names its own line.
            let line = positions.start(label.file, label.span).line;
            if label.file == d.primary.file && line.abs_diff(primary_line) <= 4 {
                labels.push(file.labeled(label, false));
            } else {
                related.push(Report {
                    message: escape_text(label.message.as_deref().unwrap_or_default()).into_owned(),
                    code: None,
                    severity: miette::Severity::Advice,
                    help: None,
                    source: source(label, file),
                    labels: vec![file.labeled(
                        &Label {
                            message: None,
                            ..label.clone()
                        },
                        true,
                    )],
                    related: Vec::new(),
                });
            }
        }
        let name = registry.meta(d.code).map_or("", |m| m.name.as_str());
        let message = escape_text(&d.message).into_owned();
        let report = Report {
            message: message.clone(),
            code: Some(format!("{} [{}]", d.code, name)),
            severity: miette_severity(d.severity),
            help: d.help.as_deref().map(|h| escape_text(h).into_owned()),
            source: source(&d.primary, shown_file(&mut shown, repo, d.primary.file)),
            labels,
            related: Vec::new(),
        };
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {message}\n", d.code));
        }
        // Locations in other files follow as their own snippets (miette would prefix them with
        // "Advice:", which reads as a second finding).
        for note in &related {
            if handler.render_report(&mut out, note).is_err() {
                out.push_str(&note.message);
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out
}
