//! `AGENTS.md` and `CLAUDE.md`: the instructions an agent reads for the folder they sit in. Read
//! for their links (AG005); what the prose says is not judged here.

use crate::model::document::parse_markdown_doc;
use crate::source::{SourceFile, Span};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionsDoc {
    /// Relative links whose target does not exist, as written, with the span of the destination.
    pub missing_links: Vec<(String, Span)>,
}

pub fn parse_instructions(
    source: &SourceFile,
    reference_root: Option<&std::path::Path>,
) -> InstructionsDoc {
    let doc = parse_markdown_doc(&source.text);
    let dir = crate::source::folder_of(&source.abs_path);
    InstructionsDoc {
        missing_links: crate::model::skill::find_missing_link_targets(
            &doc.body,
            dir,
            reference_root,
        ),
    }
}
