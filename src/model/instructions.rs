//! `AGENTS.md` and `CLAUDE.md`: the instructions an agent reads for the folder they sit in. Read
//! for their links (AG005), and as text the model reads (the PI rules, SE003, inline
//! suppressions).

use crate::model::document::{parse_markdown_doc, MarkdownDoc};
use crate::source::{SourceFile, Span};

#[derive(Debug, Clone, PartialEq)]
pub struct InstructionsDoc {
    /// The Markdown structure: where its comments, code blocks and quotations are.
    pub doc: MarkdownDoc,
    /// Relative links whose target does not exist, as written, with the span of the destination.
    pub missing_links: Vec<(String, Span)>,
}

pub fn parse_instructions(
    source: &SourceFile,
    reference_root: Option<&std::path::Path>,
) -> InstructionsDoc {
    let doc = parse_markdown_doc(&source.text);
    let dir = crate::source::folder_of(&source.abs_path);
    let missing_links =
        crate::model::skill::find_missing_link_targets(&doc.body, dir, reference_root);
    InstructionsDoc { doc, missing_links }
}
