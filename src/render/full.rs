//! The default report: rustc-style snippets with labels and help, drawn by miette.

use crate::catalog::Catalog;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::escape::{escape_text, Snippet};
use crate::source::FileId;
use crate::source::Sources;
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    NamedSource, SourceCode, SourceSpan, SpanContents,
};
use rayon::prelude::*;
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
    /// Line breaks before the text, when it is a cut of a longer one (see [`Shown::snippet`]).
    lines_before: usize,
}

impl Windowed {
    fn new(text: Arc<str>) -> Self {
        Self::after_lines(text, 0)
    }

    /// `text` as the lines of a longer text that start after `lines_before` line breaks.
    fn after_lines(text: Arc<str>, lines_before: usize) -> Self {
        let bytes = text.as_bytes();
        let newlines = memchr::memchr_iter(b'\n', bytes).collect();
        let lone_returns = memchr::memchr_iter(b'\r', bytes)
            .filter(|i| bytes.get(i + 1) != Some(&b'\n'))
            .collect();
        Windowed(Arc::new(WindowedText {
            text,
            newlines,
            lone_returns,
            lines_before,
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
        let inner = self.read_own_span(span, context_lines_before, context_lines_after)?;
        let before = self.0.lines_before;
        if before == 0 {
            return Ok(inner);
        }
        Ok(Box::new(MietteSpanContents::new(
            inner.data(),
            *inner.span(),
            inner.line() + before,
            inner.column(),
            inner.line_count() + before,
        )))
    }
}

impl Windowed {
    /// [`SourceCode::read_span`] with the lines counted from the start of this text.
    fn read_own_span<'a>(
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

/// Lines longer than this many bytes are shown as windows around the labels on them, with `…`
/// where text is left out: miette prints each line of a snippet whole, so a long line with many
/// findings was printed once per finding (a 250 KB line: 2 GB of output), and a line of a
/// frontmatter description of 1,024 characters or a paragraph that is not hard-wrapped filled
/// the screen with wrapped text around a label lost in it. Three lines of a terminal's width.
const LONG_LINE: usize = 300;
/// Characters kept on either side of a label's ends on a long line.
const CONTEXT: usize = 40;
/// A label on one long line that is wider than this many bytes shows only its two ends.
const LONG_LABEL: usize = 240;
/// Two windows on a line closer than this many bytes are shown as one.
const MERGE_GAP: usize = 10;
/// Marks the cut ends of a windowed line.
const CUT: &str = "\u{2026}";

/// The largest char boundary of `text` at or before `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The smallest char boundary of `text` at or after `at`.
fn ceil_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// One line of the shown text: its start, the end of its content (before `\r\n` or `\n`) and
/// the start of the next line.
#[derive(Clone, Copy)]
struct LineBounds {
    start: usize,
    content_end: usize,
    next: usize,
}

/// A kept piece of the shown text: its range there and its offset in the cut text.
struct Kept {
    start: usize,
    end: usize,
    at: usize,
}

impl Shown<'_> {
    fn whole(&self) -> &str {
        &self.text.0.text
    }

    /// The line holding byte `offset` (a line feed belongs to the line it ends).
    fn line_of(&self, offset: usize) -> usize {
        self.text.0.newlines.partition_point(|n| *n < offset)
    }

    fn line_count(&self) -> usize {
        self.text.0.newlines.len() + 1
    }

    fn bounds(&self, line: usize) -> LineBounds {
        let text = self.whole();
        let newlines = &self.text.0.newlines;
        let start = line
            .checked_sub(1)
            .and_then(|i| newlines.get(i))
            .map_or(0, |n| n + 1);
        let next = newlines.get(line).map_or(text.len(), |n| n + 1);
        let mut content_end = next;
        if text.as_bytes().get(content_end.wrapping_sub(1)) == Some(&b'\n') && content_end > start {
            content_end -= 1;
            if content_end > start && text.as_bytes().get(content_end - 1) == Some(&b'\r') {
                content_end -= 1;
            }
        }
        LineBounds {
            start,
            content_end,
            next,
        }
    }

    /// `chars` characters back from `at`, not before `line.start`.
    fn back(&self, line: LineBounds, at: usize, chars: usize) -> usize {
        let text = self.whole();
        let at = floor_boundary(text, at.clamp(line.start, line.content_end));
        text.get(line.start..at)
            .and_then(|before| before.char_indices().rev().nth(chars.saturating_sub(1)))
            .map_or(line.start, |(i, _)| line.start + i)
    }

    /// `chars` characters on from `at`; the next line's start when that reaches the content end.
    fn forward(&self, line: LineBounds, at: usize, chars: usize) -> usize {
        let text = self.whole();
        let from = ceil_boundary(text, at.clamp(line.start, line.content_end));
        let end = text
            .get(from..line.content_end)
            .and_then(|after| after.char_indices().nth(chars))
            .map_or(line.content_end, |(i, _)| from + i);
        if end >= line.content_end || at > line.content_end {
            line.next
        } else {
            end
        }
    }

    /// The source and labels of one snippet. When every line miette may show of it is short,
    /// that is the whole shown file and the labels as they are, so ordinary files render as they
    /// always did. Otherwise it is those lines alone, each long one cut to windows around the
    /// labels' ends (and whole labels up to [`LONG_LABEL`]) with [`CUT`] where text is left out,
    /// numbered from the line they start at, and the labels moved onto the cut text: each snippet
    /// is then as long as its labels plus a constant, however long the lines.
    fn snippet(&self, name: String, labels: Vec<LabeledSpan>) -> (Source, Vec<LabeledSpan>) {
        let ends: Vec<(usize, usize)> = labels
            .iter()
            .map(|l| (l.offset(), l.offset() + l.len()))
            .collect();
        let first = ends.iter().map(|&(s, _)| self.line_of(s)).min();
        let last = ends.iter().map(|&(_, e)| self.line_of(e)).max();
        let (Some(first), Some(last)) = (first, last) else {
            return (NamedSource::new(name, self.text.clone()), labels);
        };
        // miette shows a line of context either side; the cut starts two lines further back,
        // as the windowed reading does, and ends a line further on.
        let first = first.saturating_sub(3);
        let last = (last + 2).min(self.line_count() - 1);
        let lines: Vec<LineBounds> = (first..=last).map(|l| self.bounds(l)).collect();
        if lines.iter().all(|l| l.next - l.start <= LONG_LINE) {
            return (NamedSource::new(name, self.text.clone()), labels);
        }
        let text = self.whole();
        // The windows each line keeps, by line.
        let mut windows: Vec<Vec<(usize, usize)>> = vec![Vec::new(); lines.len()];
        let mut add = |at: usize, from: usize, to: usize, this: &Self| {
            let index = this.line_of(at).saturating_sub(first);
            if let (Some(line), Some(kept)) = (lines.get(index), windows.get_mut(index)) {
                kept.push((
                    this.back(*line, from, CONTEXT),
                    this.forward(*line, to, CONTEXT),
                ));
            }
        };
        for &(start, end) in &ends {
            if self.line_of(start) == self.line_of(end) && end - start <= LONG_LABEL {
                add(start, start, end, self);
            } else {
                add(start, start, start, self);
                add(end, end, end, self);
            }
        }
        let mut cut = String::new();
        let mut kept: Vec<Kept> = Vec::new();
        for (line, mut spans) in lines.iter().zip(windows) {
            if line.next - line.start <= LONG_LINE {
                spans = vec![(line.start, line.next)];
            } else if spans.is_empty() {
                spans.push((line.start, self.forward(*line, line.start, 2 * CONTEXT)));
            }
            spans.sort_unstable();
            let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
            for (start, end) in spans {
                match merged.last_mut() {
                    Some(prev) if start <= prev.1 + MERGE_GAP => prev.1 = prev.1.max(end),
                    _ => merged.push((start, end)),
                }
            }
            for (i, &(start, end)) in merged.iter().enumerate() {
                if i > 0 || start > line.start {
                    cut.push_str(CUT);
                }
                kept.push(Kept {
                    start,
                    end,
                    at: cut.len(),
                });
                cut.push_str(text.get(start..end).unwrap_or_default());
            }
            if merged.last().is_some_and(|&(_, end)| end < line.next) {
                cut.push_str(CUT);
                cut.push_str(text.get(line.content_end..line.next).unwrap_or_default());
            }
        }
        let place = |offset: usize| -> usize {
            let i = kept
                .partition_point(|k| k.start <= offset)
                .saturating_sub(1);
            kept.get(i)
                .map_or(0, |k| k.at + offset.clamp(k.start, k.end) - k.start)
        };
        let labels = labels
            .iter()
            .zip(&ends)
            .map(|(label, &(start, end))| {
                let (start, end) = (place(start), place(end));
                let span = SourceSpan::new(start.into(), end.max(start) - start);
                let message = label.label().map(String::from);
                if label.primary() {
                    LabeledSpan::new_primary_with_span(message, span)
                } else {
                    LabeledSpan::new_with_span(message, span)
                }
            })
            .collect();
        let start = lines.first().map_or(0, |l| l.start);
        let lines_before = first + self.text.0.lone_returns.partition_point(|r| *r < start);
        let source = Windowed::after_lines(Arc::from(cut), lines_before);
        (NamedSource::new(name, source), labels)
    }
}

/// The shown form of `file`, made on first use.
fn shown_file<'m, 'a>(
    shown: &'m mut HashMap<FileId, Shown<'a>>,
    sources: Sources<'a>,
    file: FileId,
) -> &'m Shown<'a> {
    shown
        .entry(file)
        .or_insert_with(|| Shown::new(sources.text(file)))
}

/// Draws one report onto `out`; false, with nothing added, when miette fails or panics on it
/// (its formatting panics on a column past 65,535, for one): the caller then writes the
/// message plainly, and one odd snippet never takes the whole report down.
fn draw(
    handler: &GraphicalReportHandler,
    out: &mut String,
    report: &dyn miette::Diagnostic,
) -> bool {
    let mut drawn = String::new();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        handler.render_report(&mut drawn, report)
    }));
    match result {
        Ok(Ok(())) => {
            out.push_str(&drawn);
            true
        }
        _ => false,
    }
}

/// How every report on a terminal is drawn: findings and configuration errors alike.
/// The two handlers findings are drawn with: `wrapping` fills long messages to the width; `straight`
/// prints them as they are, and is used only for a finding whose texts all fit with room to spare
/// ([`fits_unwrapped`]), where filling would change nothing: the same bytes, without breaking every
/// line into words by the Unicode line-breaking rules first.
struct Handlers {
    wrapping: GraphicalReportHandler,
    straight: GraphicalReportHandler,
    /// The longest line `straight` may print.
    room: usize,
}

impl Handlers {
    fn new(color: bool, width: usize) -> Handlers {
        Handlers {
            wrapping: handler(color, width),
            straight: handler(color, width).with_wrap_lines(false),
            // miette fills to two columns less than the width, after an indent of at most eight
            // (`  help: `); two more for safety.
            room: width.saturating_sub(12),
        }
    }

    /// The handler for a report whose filled texts are `texts`.
    fn for_texts<'a>(&self, texts: impl IntoIterator<Item = &'a str>) -> &GraphicalReportHandler {
        if texts
            .into_iter()
            .all(|text| fits_unwrapped(text, self.room))
        {
            &self.straight
        } else {
            &self.wrapping
        }
    }
}

/// Whether filling `text` to `room` columns would leave it as it is: every line printable ASCII
/// (a column a byte), non-empty, at most `room` long, with no space at either end (filling trims
/// the end of a line, and an empty line is indented differently).
fn fits_unwrapped(text: &str, room: usize) -> bool {
    text.split('\n').all(|line| {
        let bytes = line.as_bytes();
        !bytes.is_empty()
            && bytes.len() <= room
            && bytes.iter().all(|b| (0x20..0x7f).contains(b))
            && bytes.first() != Some(&b' ')
            && bytes.last() != Some(&b' ')
    })
}

fn handler(color: bool, width: usize) -> GraphicalReportHandler {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // miette counts header columns in bytes; we print our own `path:line:column` (columns in
    // Unicode code points, as every other format) as the source name instead.
    GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_links(false)
        .with_context_lines(1)
        .without_primary_span_start()
}

/// The one quoted line of a config error, as miette source code: line numbers are the file's,
/// but nothing else of the file is there to show.
struct QuotedLine {
    name: String,
    quote: crate::file_error::Quote,
}

impl SourceCode for QuotedLine {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let local_start = span
            .offset()
            .checked_sub(self.quote.offset)
            .ok_or(MietteError::OutOfBounds)?;
        let local = SourceSpan::new(local_start.into(), span.len());
        let inner = self
            .quote
            .text
            .read_span(&local, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            SourceSpan::new(
                (inner.span().offset() + self.quote.offset).into(),
                inner.span().len(),
            ),
            inner.line() + self.quote.line - 1,
            inner.column() + self.quote.column_offset,
            inner.line_count(),
        )))
    }
}

/// A configuration error drawn as findings are (same characters, colours and
/// `path:line:column` header), quoting the one offending line of the file and nothing else:
/// the file may be a link to a secret.
pub fn config_error(error: &crate::file_error::FileError, color: bool) -> String {
    file_error(error, "invalid configuration", color)
}

/// A baseline file problem (see `triage::baseline::Baseline::load`), drawn as a configuration
/// error is.
pub fn baseline_error(error: &crate::file_error::FileError, color: bool) -> String {
    file_error(error, "invalid baseline", color)
}

/// A policy file problem (see `policy::load`), drawn as a configuration error is.
pub fn policy_error(error: &crate::file_error::FileError, color: bool) -> String {
    file_error(error, "invalid policy", color)
}

fn file_error(error: &crate::file_error::FileError, heading: &str, color: bool) -> String {
    // The configuration is the repository's: its path and the message quoting it are escaped,
    // and the one quoted line has its controls replaced (same length, so the label still fits).
    let path = crate::escape::display_path(&error.path);
    let message = escape_text(&error.message);
    let handler = handler(color, DEFAULT_WIDTH);
    // One style for every error the command line prints: `error: …` first, as clap's, then the
    // quoted line drawn as findings are.
    let level = if color {
        "\x1b[1;31merror\x1b[0m\x1b[1m:\x1b[0m"
    } else {
        "error:"
    };
    let mut out = String::new();
    match &error.quote {
        Some(quote) => {
            out.push_str(&format!("{level} {heading}: {message}\n"));
            // Columns in code points, as in findings; a line cut before the quote counts bytes.
            let before = quote.span.start.saturating_sub(quote.offset);
            let column = quote.column_offset
                + quote
                    .text
                    .get(..before)
                    .map_or(before, |t| t.chars().count())
                + 1;
            let report = miette::miette!(
                labels = vec![LabeledSpan::at(quote.span.clone(), "here")],
                "{heading}"
            )
            .with_source_code(QuotedLine {
                name: format!("{path}:{}:{column}", quote.line),
                quote: (**quote).clone(),
            });
            let mut drawn = String::new();
            if draw(&handler, &mut drawn, report.as_ref()) {
                // The snippet alone: the heading is the line above.
                if let Some(at) = drawn.find("\n").filter(|_| drawn.contains('╭')) {
                    out.push_str(&drawn[at + 1..]);
                }
            }
        }
        None => out.push_str(&format!("{level} {path}: {message}\n")),
    }
    out.push('\n');
    out
}

pub fn render(
    sources: Sources<'_>,
    diagnostics: &[Diagnostic],
    catalog: &Catalog,
    color: bool,
    width: usize,
) -> String {
    super::collect_text(|emit| render_into(sources, diagnostics, catalog, color, width, emit))
}

/// [`render`]'s text handed to `emit` a batch of runs at a time.
pub fn render_into(
    sources: Sources<'_>,
    diagnostics: &[Diagnostic],
    catalog: &Catalog,
    color: bool,
    width: usize,
    emit: &mut super::Emit<'_>,
) -> std::io::Result<()> {
    let handlers = Handlers::new(color, width);
    let positions = super::Positions::new(sources, diagnostics);
    // Findings are drawn in parallel, a run of findings in the same file at a time (each run
    // escapes its file once), and kept in their order: the same bytes as one by one. A batch of
    // runs is one piece, written before the next is drawn, so the drawings are never held whole.
    let runs: Vec<&[Diagnostic]> = diagnostics
        .chunk_by(|a, b| a.primary.file == b.primary.file)
        .collect();
    runs.chunks(RUNS_PER_BATCH).try_for_each(|batch| {
        let drawn: Vec<String> = batch
            .par_iter()
            .map(|run| draw_run(run, sources, &positions, catalog, &handlers))
            .collect();
        emit(&drawn.concat())
    })
}

/// Runs of findings drawn at once: enough to keep every thread busy, few enough that their
/// drawings are a small part of the report.
const RUNS_PER_BATCH: usize = 256;

/// The findings of one run (all with their primary label in the same file), drawn.
fn draw_run(
    run: &[Diagnostic],
    sources: Sources<'_>,
    positions: &super::Positions<'_>,
    catalog: &Catalog,
    handlers: &Handlers,
) -> String {
    // Snippets, messages and help quote the repository: everything miette prints is escaped
    // first, so no ESC, bidi override or line feed from a file reaches the terminal raw.
    let mut shown: HashMap<FileId, Shown<'_>> = HashMap::new();
    let source_name = |label: &Label| -> String {
        let start = positions.start(label.file, label.span);
        format!(
            "{}:{}:{}",
            escape_text(sources.path(label.file)),
            start.line,
            start.column
        )
    };
    let mut out = String::new();
    for d in run {
        let mut labels =
            vec![shown_file(&mut shown, sources, d.primary.file).labeled(&d.primary, true)];
        let mut related = Vec::new();
        let primary_line = positions.start(d.primary.file, d.primary.span).line;
        for label in &d.secondary {
            let file = shown_file(&mut shown, sources, label.file);
            // A nearby label shares the primary snippet; a distant one (or one in another file)
            // gets its own snippet, so each snippet's header names its own line.
            let line = positions.start(label.file, label.span).line;
            if label.file == d.primary.file && line.abs_diff(primary_line) <= 4 {
                labels.push(file.labeled(label, false));
            } else {
                let (source, labels) = file.snippet(
                    source_name(label),
                    vec![file.labeled(
                        &Label {
                            message: None,
                            ..label.clone()
                        },
                        true,
                    )],
                );
                related.push(Report {
                    message: escape_text(label.message.as_deref().unwrap_or_default()).into_owned(),
                    code: None,
                    severity: miette::Severity::Advice,
                    help: None,
                    source,
                    labels,
                    related: Vec::new(),
                });
            }
        }
        let name = catalog.get(d.code).map_or("", |m| m.name.as_str());
        let message = escape_text(&d.message).into_owned();
        let (source, labels) = shown_file(&mut shown, sources, d.primary.file)
            .snippet(source_name(&d.primary), labels);
        let report = Report {
            message: message.clone(),
            code: Some(format!("{} [{}]", d.code, name)),
            severity: miette_severity(d.severity),
            help: d.help.as_deref().map(|h| escape_text(h).into_owned()),
            source,
            labels,
            related: Vec::new(),
        };
        let handler = handlers.for_texts(
            [Some(report.message.as_str()), report.help.as_deref()]
                .into_iter()
                .flatten(),
        );
        if !draw(handler, &mut out, &report) {
            out.push_str(&format!("{}: {message}\n", d.code));
        }
        // Locations in other files follow as their own snippets (miette would prefix them with
        // "Advice:", which reads as a second finding).
        for note in &related {
            if !draw(handlers.for_texts([note.message.as_str()]), &mut out, note) {
                out.push_str(&note.message);
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders one report of `labels` (offsets in `text`) through [`Shown::snippet`], or over
    /// the whole text when `whole`.
    fn render_labels(text: &str, labels: &[(usize, usize, &str)], whole: bool) -> String {
        let shown = Shown::new(text);
        let labels: Vec<LabeledSpan> = labels
            .iter()
            .enumerate()
            .map(|(i, &(start, end, message))| {
                let span = SourceSpan::new(start.into(), end - start);
                let message = Some(message.to_string());
                if i == 0 {
                    LabeledSpan::new_primary_with_span(message, span)
                } else {
                    LabeledSpan::new_with_span(message, span)
                }
            })
            .collect();
        let name = "f.md:1:1".to_string();
        let (source, labels) = if whole {
            (NamedSource::new(name, shown.text.clone()), labels)
        } else {
            shown.snippet(name, labels)
        };
        let report = Report {
            message: "m".into(),
            code: None,
            severity: miette::Severity::Error,
            help: None,
            source,
            labels,
            related: Vec::new(),
        };
        let mut out = String::new();
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_width(DEFAULT_WIDTH)
            .with_context_lines(1)
            .without_primary_span_start()
            .render_report(&mut out, &report)
            .expect("rendered");
        out
    }

    /// The display column of the first `needle` in `line`.
    fn column(line: &str, needle: &str) -> Option<usize> {
        line.find(needle).map(|at| line[..at].chars().count())
    }

    /// Asserts that the underline under the snippet line holding `marker` starts below it.
    fn assert_points_at(out: &str, marker: &str) {
        let lines: Vec<&str> = out.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains(marker))
            .unwrap_or_else(|| panic!("{marker} not shown:\n{out}"));
        let under = lines.get(at + 1).copied().unwrap_or_default();
        let pointer = under
            .char_indices()
            .skip_while(|&(_, c)| c != '·')
            .skip(1)
            .find(|&(_, c)| c != ' ')
            .map(|(i, _)| under[..i].chars().count());
        assert_eq!(pointer, column(lines[at], marker), "{marker} in\n{out}");
    }

    #[test]
    fn a_finding_drawn_straight_reads_as_the_filled_one() {
        let long = "word ".repeat(30);
        let texts = [
            "short message",
            "first line\nsecond line",
            "a `code` span, (parentheses) and a-hyphenated-word/with/slashes",
            &"x".repeat(88),
            &"x".repeat(89),
            &"word ".repeat(19)[..94],
            long.trim_end(),
            "  leading spaces",
            "trailing space ",
            "two\n\nparagraphs",
            "non-ASCII — dash",
        ];
        for color in [false, true] {
            let handlers = Handlers::new(color, DEFAULT_WIDTH);
            for message in texts {
                for help in texts {
                    let shown = Shown::new("line one\nline two\n");
                    let label = LabeledSpan::new_primary_with_span(
                        Some("here".to_string()),
                        SourceSpan::new(0.into(), 4),
                    );
                    let (source, labels) = shown.snippet("f.md:1:1".to_string(), vec![label]);
                    let report = Report {
                        message: message.to_string(),
                        code: Some("SK001 [name]".to_string()),
                        severity: miette::Severity::Error,
                        help: Some(help.to_string()),
                        source,
                        labels,
                        related: Vec::new(),
                    };
                    let handler = handlers.for_texts([message, help]);
                    let (mut chosen, mut filled) = (String::new(), String::new());
                    assert!(draw(handler, &mut chosen, &report));
                    assert!(draw(&handlers.wrapping, &mut filled, &report));
                    assert_eq!(chosen, filled, "{message:?} / {help:?}");
                }
            }
            assert!(std::ptr::eq(
                handlers.for_texts(["short message", "first line\nsecond line"]),
                &handlers.straight
            ));
            assert!(std::ptr::eq(
                handlers.for_texts(["short message", long.trim_end()]),
                &handlers.wrapping
            ));
        }
    }

    #[test]
    fn a_long_line_is_cut_around_its_labels() {
        let text = format!("{}MARK{}\nnext\n", "a ".repeat(5_000), "b ".repeat(5_000));
        let start = text.find("MARK").expect("marker");
        let out = render_labels(&text, &[(start, start + 4, "here")], false);
        assert!(out.len() < 1_000, "{out}");
        assert!(out.contains("…a a a"), "{out}");
        assert!(out.contains("b b …\n"), "{out}");
        assert!(out.contains(" 1 │ "), "{out}");
        assert_points_at(&out, "MARK");
    }

    #[test]
    fn a_line_of_two_thousand_characters_is_clipped_around_its_label() {
        let text = format!(
            "---\ndescription: {}SECRET{}\n---\n",
            "lorem ipsum ".repeat(80),
            " dolor sit".repeat(100)
        );
        let start = text.find("SECRET").expect("marker");
        let out = render_labels(&text, &[(start, start + 6, "here")], false);
        let widest = out.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest < 120, "{widest}: {out}");
        assert!(out.contains(" 2 │ …"), "{out}");
        assert!(
            out.contains("ipsum SECRET dolor sit") && out.contains(" sit…\n"),
            "{out}"
        );
        assert_points_at(&out, "SECRET");
        // A line under the limit is shown whole, as before.
        let short = format!("---\ndescription: {}SECRET\n---\n", "lorem ".repeat(30));
        let start = short.find("SECRET").expect("marker");
        let out = render_labels(&short, &[(start, start + 6, "here")], false);
        assert!(out.contains("description: lorem lorem"), "{out}");
        assert!(!out.contains('…'), "{out}");
    }

    #[test]
    fn a_label_at_the_end_of_a_long_line_is_shown() {
        for end in ["\n", "\r\n", ""] {
            let text = format!("short\n{}END{end}", "é ".repeat(3_000));
            let at = text.find("END").expect("marker");
            for (start, stop) in [(at, at + 3), (at + 3, at + 3)] {
                let out = render_labels(&text, &[(start, stop, "here")], false);
                assert!(out.len() < 1_000, "{out}");
                assert!(out.contains(" 2 │ …") && out.contains("é é é END"), "{out}");
                if start == at {
                    assert_points_at(&out, "END");
                } else if end.is_empty() {
                    // miette draws no label after a file's last character, cut or not.
                    let whole = render_labels(&text, &[(start, stop, "here")], true);
                    assert!(!whole.contains('▲') && !out.contains('▲'), "{out}");
                } else {
                    let lines: Vec<&str> = out.lines().collect();
                    let line = lines.iter().position(|l| l.contains("END")).expect("shown");
                    let after = column(lines[line], "END").map(|c| c + 3);
                    assert_eq!(column(lines[line + 1], "▲"), after, "{out}");
                }
            }
        }
    }

    #[test]
    fn a_span_over_several_long_lines_shows_its_ends() {
        let text = format!(
            "{}START{}\n{}\n{}STOP{}\nlast\n",
            "a".repeat(6_000),
            "b".repeat(6_000),
            "c".repeat(12_000),
            "d".repeat(6_000),
            "e".repeat(6_000)
        );
        let start = text.find("START").expect("start");
        let stop = text.find("STOP").expect("stop") + 4;
        let out = render_labels(&text, &[(start, stop, "span")], false);
        assert!(out.len() < 2_000, "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines.iter().any(|l| l.starts_with(" 1 │ ╭─▶ …aaa")),
            "{out}"
        );
        assert!(lines.iter().any(|l| l.starts_with(" 2 │ │   ccc")), "{out}");
        assert!(
            lines.iter().any(|l| l.starts_with(" 3 │ ├─▶ …ddd")),
            "{out}"
        );
        let first = lines
            .iter()
            .find(|l| l.contains("START"))
            .expect("start shown");
        let last = lines
            .iter()
            .find(|l| l.contains("STOP"))
            .expect("stop shown");
        assert!(first.ends_with("bbb…") && last.ends_with("eee…"), "{out}");
        assert!(lines.iter().any(|l| l.contains("╰──── span")), "{out}");
    }

    #[test]
    fn a_cut_that_keeps_every_character_renders_as_the_whole_text() {
        // A long line whose labels and context cover it all, far down a file with escaped
        // controls: the cut text, numbered from its first line, renders the same bytes.
        let long = format!("key: {}\u{1b}end", "word ".repeat(70));
        let text = format!("{}{long}\nafter\n", "line\n".repeat(120));
        let start = text.find("word").expect("word");
        let end = text.find("end").expect("end") + 3;
        let middle = start + 150;
        let labels = [(start, middle, "first"), (middle, end, "second")];
        assert!(long.len() > LONG_LINE && end - middle <= LONG_LABEL);
        let cut = render_labels(&text, &labels, false);
        assert_eq!(cut, render_labels(&text, &labels, true));
        assert!(cut.contains("121 │ key: word"), "{cut}");
    }
}
