//! Code actions and hover over a folder's findings: each finding's fix as a quick fix, "disable
//! CODE for this line" where the file kind has inline suppressions, `source.fixAll.skilllint`
//! (the `--fix` loop, on that document), and the rule's explanation on hover.

use super::convert::{path_to_uri, Lines};
use super::workspace::{mirrored, to_lsp, FolderView};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::engine::Session;
use crate::source::FileId;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, DocumentChangeOperation, DocumentChanges,
    Hover, HoverContents, MarkupContent, MarkupKind, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, Range, RenameFile, ResourceOp,
    TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The kind of the action that applies every safe fix of a document.
pub(crate) const FIX_ALL: &str = "source.fixAll.skilllint";

/// Whether a code action request's `only` list covers actions of `kind`: a requested kind covers
/// itself and the kinds below it (`source.fixAll` covers `source.fixAll.skilllint`).
pub(crate) fn asks_for(only: &[CodeActionKind], kind: &str) -> bool {
    only.iter().any(|requested| {
        let requested = requested.as_str();
        kind == requested
            || kind
                .strip_prefix(requested)
                .is_some_and(|rest| rest.starts_with('.'))
    })
}

/// Whether two ranges touch (an empty range at a finding's edge counts).
fn touches(a: Range, b: Range) -> bool {
    !(a.end < b.start || b.end < a.start)
}

/// The findings shown in `file` with their protocol form: those whose primary location is there,
/// and (`true`, as the hint published there) those of other files with a label in it.
fn findings_in<'s>(
    folder: &FolderView,
    session: &'s Session,
    file: FileId,
) -> Vec<(&'s Diagnostic, lsp_types::Diagnostic, bool)> {
    let repo = &session.outcome().repo;
    let mut lines = HashMap::new();
    let mut found = Vec::new();
    for d in &session.outcome().diagnostics {
        if d.primary.file == file {
            found.push((d, to_lsp(&folder.lint_root, repo, &mut lines, d), false));
        } else if d.secondary.iter().any(|l| l.file == file) {
            found.push((
                d,
                mirrored(&folder.lint_root, repo, &mut lines, d, file),
                true,
            ));
        }
    }
    found
}

/// The quick fixes and suppressions for the findings touching `range` in the file at `rel`.
pub(crate) fn quick_fixes(
    folder: &FolderView,
    rel: &str,
    range: Range,
    kinds: Option<&[CodeActionKind]>,
) -> Vec<CodeActionOrCommand> {
    let mut actions = Vec::new();
    let Some(session) = folder.session() else {
        return actions;
    };
    let repo = &session.outcome().repo;
    let Some(file) = repo.file_by_path(rel) else {
        return actions;
    };
    if !kinds.is_none_or(|only| asks_for(only, CodeActionKind::QUICKFIX.as_str())) {
        return actions;
    }
    for (d, lsp, elsewhere) in findings_in(folder, session, file) {
        if !touches(lsp.range, range) {
            continue;
        }
        // The fix of a finding in another file is offered where it is shown too (TR003's new
        // item goes into the SKILL.md its hint is on); a suppression only works at the finding.
        if let Some(action) = fix_action(folder, session, d, &lsp) {
            actions.push(CodeActionOrCommand::CodeAction(action));
        }
        if elsewhere {
            continue;
        }
        if let Some(action) = disable_action(folder, session, d, &lsp) {
            actions.push(CodeActionOrCommand::CodeAction(action));
        }
    }
    actions
}

fn file_uri(folder: &FolderView, session: &Session, file: FileId) -> Option<Uri> {
    let path = &session.outcome().repo.file(file).abs_path;
    if path.is_absolute() {
        path_to_uri(path)
    } else {
        path_to_uri(&folder.lint_root.join(path))
    }
}

/// The finding's own fix, as a workspace edit over the files it touches.
fn fix_action(
    folder: &FolderView,
    session: &Session,
    d: &Diagnostic,
    lsp: &lsp_types::Diagnostic,
) -> Option<CodeAction> {
    let fix = d.fix.as_ref()?;
    let repo = &session.outcome().repo;
    let mut by_file: HashMap<FileId, Vec<TextEdit>> = HashMap::new();
    let mut lines: HashMap<FileId, Lines<'_>> = HashMap::new();
    for edit in &fix.edits {
        let lines = lines
            .entry(edit.file)
            .or_insert_with(|| Lines::new(repo.text(edit.file)));
        by_file.entry(edit.file).or_default().push(TextEdit {
            range: lines.range(edit.span),
            new_text: edit.replacement.clone(),
        });
    }
    let mut operations = Vec::new();
    let mut files: Vec<FileId> = by_file.keys().copied().collect();
    files.sort();
    for id in files {
        let edits = by_file.remove(&id).unwrap_or_default();
        operations.push(DocumentChangeOperation::Edit(TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier {
                uri: file_uri(folder, session, id)?,
                version: None,
            },
            edits: edits.into_iter().map(OneOf::Left).collect(),
        }));
    }
    if let Some(new_name) = &fix.rename_to {
        let from = file_uri(folder, session, d.primary.file)?;
        let abs = &repo.file(d.primary.file).abs_path;
        let to = path_to_uri(&folder.lint_root.join(abs).with_file_name(new_name))?;
        operations.push(DocumentChangeOperation::Op(ResourceOp::Rename(
            RenameFile {
                old_uri: from,
                new_uri: to,
                options: None,
                annotation_id: None,
            },
        )));
    }
    let safe = fix.applicability == Applicability::Safe;
    let title = if safe {
        format!("{} ({})", fix.description, d.code)
    } else {
        format!("{} ({}, unsafe fix: review it)", fix.description, d.code)
    };
    Some(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![lsp.clone()]),
        edit: Some(WorkspaceEdit {
            changes: None,
            document_changes: Some(DocumentChanges::Operations(operations)),
            change_annotations: None,
        }),
        command: None,
        is_preferred: Some(safe),
        disabled: None,
        data: None,
    })
}

/// "Disable CODE for this line", where the file kind has inline suppressions.
fn disable_action(
    folder: &FolderView,
    session: &Session,
    d: &Diagnostic,
    lsp: &lsp_types::Diagnostic,
) -> Option<CodeAction> {
    if !session.options().inline_ignores {
        return None;
    }
    let repo = &session.outcome().repo;
    let file = d.primary.file;
    let parsed = crate::index::parse_pending(repo, file);
    let parsed = parsed.as_ref().unwrap_or_else(|| repo.parsed(file));
    let text = repo.text(file);
    let lines = Lines::new(text);
    let place = crate::triage::suppress::comment_place(parsed, d.primary.span.start)?;
    let scope = match place {
        crate::triage::suppress::CommentPlace::MarkdownFile => "this file",
        _ => "this line",
    };
    let (span, new_text) =
        crate::triage::suppress::comment_edit(place, text, d.primary.span.start, &[d.code]);
    let edit = TextEdit {
        range: lines.range(span),
        new_text,
    };
    let uri = file_uri(folder, session, file)?;
    Some(CodeAction {
        title: format!("Disable {} for {scope}", d.code),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![lsp.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri, vec![edit])])),
            document_changes: None,
            change_annotations: None,
        }),
        command: None,
        is_preferred: Some(false),
        disabled: None,
        data: None,
    })
}

/// `source.fixAll.skilllint`: the safe fixes of the document at `path`, applied by the `--fix`
/// loop (so the text equals what `skilllint --fix` writes into that file), as one edit
/// replacing the document.
pub(crate) fn fix_all(
    folder: &FolderView,
    open: &HashMap<PathBuf, String>,
    path: &Path,
    uri: Uri,
) -> Result<Option<CodeAction>, String> {
    let options = folder.options(open)?;
    let (_, run) = crate::fix::fix_only(&options, false, &|file: &Path| file == path)
        .map_err(|e| e.to_string())?;
    let Some((original, fixed)) = run.changed.get(path) else {
        return Ok(None);
    };
    let lines = Lines::new(original);
    let edit = TextEdit {
        range: Range::new(Position::new(0, 0), lines.position(original.len())),
        new_text: fixed.clone(),
    };
    Ok(Some(CodeAction {
        title: "Fix all safe skilllint findings".to_string(),
        kind: Some(CodeActionKind::from(FIX_ALL)),
        diagnostics: None,
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri, vec![edit])])),
            document_changes: None,
            change_annotations: None,
        }),
        command: None,
        is_preferred: None,
        disabled: None,
        data: None,
    }))
}

/// On a tool's name in a tools file, the tool's inventory row (`skilllint tools`: effect,
/// capabilities, gates, evidence); then the explanation of every rule with a finding at
/// `position` (`skilllint rule CODE`), with the finding's help.
pub(crate) fn hover(folder: &FolderView, rel: &str, position: Position) -> Option<Hover> {
    let session = folder.session()?;
    let repo = &session.outcome().repo;
    let file = repo.file_by_path(rel)?;
    let mut sections = Vec::new();
    let mut range = None;
    let lines = Lines::new(repo.text(file));
    if let Some(row) = crate::inventory::tool_at(repo, file, lines.offset(position)) {
        sections.push(crate::inventory::render::hover(&row));
        range = Some(lines.range(row.span));
    }
    for (d, lsp, _) in findings_in(folder, session, file) {
        if !(lsp.range.start <= position && position <= lsp.range.end) {
            continue;
        }
        let Some(meta) = folder.catalog().get(d.code) else {
            continue;
        };
        let mut section = String::new();
        section.push_str(&format!("**{}** {}\n\n", d.code, d.message));
        if let Some(help) = &d.help {
            section.push_str(&format!("help: {help}\n\n"));
        }
        section.push_str(&crate::render::rule_explanation(meta));
        sections.push(section);
        range.get_or_insert(lsp.range);
    }
    if sections.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_requested_kind_covers_the_kinds_below_it_only() {
        let only = |kinds: &[&str]| -> Vec<CodeActionKind> {
            kinds
                .iter()
                .map(|k| CodeActionKind::from(k.to_string()))
                .collect()
        };
        assert!(asks_for(&only(&["source"]), FIX_ALL));
        assert!(asks_for(&only(&["source.fixAll"]), FIX_ALL));
        assert!(asks_for(&only(&["quickfix", FIX_ALL]), FIX_ALL));
        assert!(!asks_for(&only(&["source.fix"]), FIX_ALL));
        assert!(!asks_for(&only(&["quickfix"]), FIX_ALL));
        assert!(asks_for(&only(&["quickfix"]), "quickfix"));
        assert!(!asks_for(&only(&["refactor"]), "quickfix"));
    }
}
