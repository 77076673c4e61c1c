//! [`Driver`]: the typed view of an AIP-30 `DRIVER.md` or `CLI.md`'s frontmatter (kind, where a
//! finding about the kind points, `implements[]`, the JSON that the driver schemas validate). A
//! pure view of the one file: the TOOL.md each `implements[]` entry names is resolved in
//! `semantic::bindings`.

use crate::model::document::{Frontmatter, MarkdownDoc};
use crate::parse::node::Node;
use crate::source::{FileId, Span};

/// A driver file with a valid frontmatter.
#[derive(Debug)]
pub struct Driver<'a> {
    pub file: FileId,
    pub fm: &'a Frontmatter,
    /// A `CLI.md` (AIP-29), which is a `kind: cli` driver even when it omits `kind`.
    pub cli: bool,
}

impl<'a> Driver<'a> {
    /// The view of `file`, whose parsed document is `doc`; `None` when its frontmatter could not
    /// be read (DR001 reports it).
    pub fn new(file: FileId, doc: &'a MarkdownDoc, cli: bool) -> Option<Self> {
        doc.frontmatter().map(|fm| Driver { file, fm, cli })
    }

    /// The declared `kind`, or `cli` for a CLI.md that omits it.
    pub fn kind(&self) -> Option<&'a str> {
        match self.fm.root.get("kind") {
            Some(node) => node.as_str(),
            None if self.cli => Some("cli"),
            None => None,
        }
    }

    /// Where a finding about the kind points: the `kind` value, else the opening `---`.
    pub fn kind_span(&self) -> Span {
        self.fm.root.get("kind").map_or(self.fm.opening, |n| n.span)
    }

    pub fn implements(&self) -> &'a [Node] {
        self.fm
            .root
            .get("implements")
            .and_then(Node::as_array)
            .unwrap_or_default()
    }

    /// The frontmatter as JSON, with `kind: cli` filled in for a CLI.md that omits it.
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = self.fm.root.to_json();
        if self.cli {
            if let Some(map) = json.as_object_mut() {
                map.entry("kind")
                    .or_insert_with(|| serde_json::Value::String("cli".to_string()));
            }
        }
        json
    }
}
