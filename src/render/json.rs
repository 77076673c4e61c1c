//! `--format json` (= `json-v1`): a versioned array of diagnostics, documented in
//! `docs/output-formats.md` and described by `docs/json-v1.schema.json`.

use super::Positions;
use crate::catalog::Catalog;
use crate::diagnostic::{Diagnostic, Label};
use crate::source::Sources;
use rayon::prelude::*;
use serde::Serialize;

#[derive(Serialize)]
struct Position {
    line: usize,
    column: usize,
    offset: usize,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    path: &'a str,
    start: Position,
    end: Position,
    message: Option<&'a str>,
    primary: bool,
    /// The path as the human formats show it (relative to the current folder).
    display_path: &'a str,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    path: &'a str,
    start: Position,
    end: Position,
    replacement: &'a str,
    display_path: &'a str,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    applicability: &'static str,
    description: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'static str,
    name: &'a str,
    category: &'static str,
    severity: &'static str,
    message: &'a str,
    path: &'a str,
    start: Position,
    end: Position,
    labels: Vec<JsonLabel<'a>>,
    help: Option<&'a str>,
    fix: Option<JsonFix<'a>>,
    /// The path as the human formats show it: relative to the current folder, or as given
    /// when outside it (`path` stays relative to the lint root, as json-v1 defines it).
    display_path: &'a str,
    /// On a finding about a tool of the effect model's rules: the tool's effect, capabilities
    /// and evidence. Absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<JsonTool<'a>>,
}

#[derive(Serialize)]
struct JsonTool<'a> {
    name: &'a str,
    effect: &'static str,
    capabilities: &'a [&'static str],
    evidence: Vec<JsonEvidence<'a>>,
}

#[derive(Serialize)]
struct JsonEvidence<'a> {
    claim: &'a str,
    basis: &'static str,
    source: &'static str,
    text: &'a str,
}

fn position(positions: &Positions<'_>, label: &Label, at_end: bool) -> Position {
    let offset = if at_end {
        label.span.end
    } else {
        label.span.start
    };
    let lc = if at_end {
        positions.end(label.file, label.span)
    } else {
        positions.start(label.file, label.span)
    };
    Position {
        line: lc.line,
        column: lc.column,
        offset,
    }
}

fn json_label<'a>(
    sources: Sources<'a>,
    positions: &Positions<'_>,
    label: &'a Label,
    primary: bool,
) -> JsonLabel<'a> {
    JsonLabel {
        path: &sources.file(label.file).rel_path,
        display_path: sources.path(label.file),
        start: position(positions, label, false),
        end: position(positions, label, true),
        message: label.message.as_deref(),
        primary,
    }
}

pub fn render(sources: Sources<'_>, diagnostics: &[Diagnostic], catalog: &Catalog) -> String {
    super::collect_text(|emit| render_into(sources, diagnostics, catalog, emit))
}

/// Diagnostics serialized at once, in parallel: a piece of the report.
const ITEMS_PER_PIECE: usize = 512;

/// [`render`]'s text handed to `emit` a batch of items at a time: serde_json's pretty form of
/// the whole array, written item by item (an item's lines indented one level, the items joined
/// by `,`), so that the report is never held whole.
pub fn render_into(
    sources: Sources<'_>,
    diagnostics: &[Diagnostic],
    catalog: &Catalog,
    emit: &mut super::Emit<'_>,
) -> std::io::Result<()> {
    if diagnostics.is_empty() {
        return emit("[]\n");
    }
    let positions = Positions::new(sources, diagnostics);
    let batches = diagnostics.chunks(ITEMS_PER_PIECE);
    let last = batches.len() - 1;
    batches.enumerate().try_for_each(|(index, batch)| {
        let items: Vec<String> = batch
            .par_iter()
            .map(|d| {
                serde_json::to_string_pretty(&item(sources, &positions, catalog, d))
                    .unwrap_or_else(|_| "{}".to_string())
            })
            .collect();
        let lead = if index == 0 { "[\n" } else { ",\n" };
        let mut piece = super::json_elements(lead, &items, "  ");
        if index == last {
            piece.push_str("\n]\n");
        }
        // serde_json leaves C1 controls and bidi overrides raw: escaped, so that the report is
        // safe to print to a terminal and to show in a viewer.
        emit(&crate::escape::escape_json_text(piece))
    })
}

fn item<'a>(
    sources: Sources<'a>,
    positions: &Positions<'_>,
    catalog: &'a Catalog,
    d: &'a Diagnostic,
) -> JsonDiagnostic<'a> {
    let meta = catalog.get(d.code);
    let mut labels = vec![json_label(sources, positions, &d.primary, true)];
    labels.extend(
        d.secondary
            .iter()
            .map(|l| json_label(sources, positions, l, false)),
    );
    JsonDiagnostic {
        code: d.code,
        name: meta.map_or("", |m| m.name.as_str()),
        category: meta.map_or("correctness", |m| m.category.as_str()),
        severity: d.severity.as_str(),
        message: &d.message,
        path: &sources.file(d.primary.file).rel_path,
        display_path: sources.path(d.primary.file),
        start: position(positions, &d.primary, false),
        end: position(positions, &d.primary, true),
        labels,
        help: d.help.as_deref(),
        tool: d.tool.as_deref().map(|t| JsonTool {
            name: &t.name,
            effect: t.effect,
            capabilities: &t.capabilities,
            evidence: t
                .evidence
                .iter()
                .map(|e| JsonEvidence {
                    claim: &e.claim,
                    basis: e.basis,
                    source: e.source,
                    text: &e.text,
                })
                .collect(),
        }),
        fix: d.fix.as_ref().map(|fix| JsonFix {
            applicability: match fix.applicability {
                crate::diagnostic::Applicability::Safe => "safe",
                crate::diagnostic::Applicability::Unsafe => "unsafe",
            },
            description: &fix.description,
            edits: fix
                .edits
                .iter()
                .map(|e| {
                    let l = Label {
                        file: e.file,
                        span: e.span,
                        message: None,
                    };
                    JsonEdit {
                        path: &sources.file(e.file).rel_path,
                        display_path: sources.path(e.file),
                        start: position(positions, &l, false),
                        end: position(positions, &l, true),
                        replacement: &e.replacement,
                    }
                })
                .collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::source::{FileId, SourceFile, Span};

    /// Files and findings enough for several pieces, with text that needs escaping.
    pub(crate) fn many_findings() -> (Vec<SourceFile>, Vec<Diagnostic>) {
        let file = |name: &str| SourceFile {
            rel_path: name.to_string(),
            abs_path: name.into(),
            text: "first line\nsecond \u{202e} line \"quoted\"\n".repeat(4),
        };
        let files = vec![file("a/SKILL.md"), file("b/tools.json")];
        let mut diagnostics: Vec<Diagnostic> = (0..ITEMS_PER_PIECE * 2 + 3)
            .map(|i| {
                let file = FileId((i % 2) as u32);
                let at = i % 40;
                Diagnostic::new(
                    "SK001",
                    Severity::Error,
                    file,
                    Span::new(at, at + 5),
                    format!("finding {i}: \"quoted\" \u{202e}"),
                )
                .with_secondary(FileId(((i + 1) % 2) as u32), Span::new(11, 17), "see here")
                .with_help("do this\nthen that")
            })
            .collect();
        diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        (files, diagnostics)
    }

    #[test]
    fn the_pieces_join_into_the_pretty_form_of_the_whole_array() {
        let (files, diagnostics) = many_findings();
        let sources = Sources::new(&files);
        let catalog = crate::catalog::catalog();
        let pieces =
            super::super::collect_pieces(|emit| render_into(sources, &diagnostics, catalog, emit));
        assert!(pieces.len() > 2, "{} pieces", pieces.len());
        let positions = Positions::new(sources, &diagnostics);
        let whole: Vec<JsonDiagnostic<'_>> = diagnostics
            .iter()
            .map(|d| item(sources, &positions, catalog, d))
            .collect();
        let expected = serde_json::to_string_pretty(&whole).unwrap_or_default() + "\n";
        assert_eq!(pieces.concat(), crate::escape::escape_json_text(expected));
    }

    #[test]
    fn drawing_stops_at_the_first_piece_the_writer_refuses() {
        let (files, diagnostics) = many_findings();
        let sources = Sources::new(&files);
        let mut offered = 0;
        let result = render_into(
            sources,
            &diagnostics,
            crate::catalog::catalog(),
            &mut |_piece| {
                offered += 1;
                Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            },
        );
        assert_eq!(
            result.map_err(|e| e.kind()),
            Err(std::io::ErrorKind::BrokenPipe)
        );
        assert_eq!(offered, 1, "no batch is drawn after the writer failed");
    }

    #[test]
    fn no_findings_is_an_empty_array() {
        let sources = Sources::new(&[]);
        let catalog = crate::catalog::catalog();
        assert_eq!(render(sources, &[], catalog), "[]\n");
    }
}
