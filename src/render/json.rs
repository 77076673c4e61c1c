//! `--format json` (= `json-v1`): a versioned array of diagnostics, documented in
//! `docs/output-formats.md` and described by `docs/json-v1.schema.json`.

use super::Positions;
use crate::catalog::Catalog;
use crate::diagnostic::{Diagnostic, Label};
use crate::source::Sources;
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
    let positions = Positions::new(sources, diagnostics);
    let items: Vec<JsonDiagnostic<'_>> = diagnostics
        .iter()
        .map(|d| {
            let meta = catalog.get(d.code);
            let mut labels = vec![json_label(sources, &positions, &d.primary, true)];
            labels.extend(
                d.secondary
                    .iter()
                    .map(|l| json_label(sources, &positions, l, false)),
            );
            JsonDiagnostic {
                code: d.code,
                name: meta.map_or("", |m| m.name.as_str()),
                category: meta.map_or("correctness", |m| m.category.as_str()),
                severity: d.severity.as_str(),
                message: &d.message,
                path: &sources.file(d.primary.file).rel_path,
                display_path: sources.path(d.primary.file),
                start: position(&positions, &d.primary, false),
                end: position(&positions, &d.primary, true),
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
                                start: position(&positions, &l, false),
                                end: position(&positions, &l, true),
                                replacement: &e.replacement,
                            }
                        })
                        .collect(),
                }),
            }
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".to_string());
    text.push('\n');
    // serde_json leaves C1 controls and bidi overrides raw: escaped, so that the report is
    // safe to print to a terminal and to show in a viewer.
    crate::escape::escape_json_text(text)
}
