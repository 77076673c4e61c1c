//! [`Contract`]: the typed view of an AIP-14 `TOOL.md`'s frontmatter (id, version, inputs,
//! idempotency, where a finding about the contract points). A pure view of the one file: which
//! TOOL.md a driver or a tool is bound to is resolved in `semantic`, and how messages word a
//! contract stays with the rules.

use crate::model::document::{Frontmatter, MarkdownDoc};
use crate::parse::node::{Member, Node};
use crate::source::{FileId, Span};
use semver::Version;

/// A TOOL.md and its frontmatter.
#[derive(Debug, Clone, Copy)]
pub struct Contract<'a> {
    pub file: FileId,
    /// `None` when the TOOL.md's frontmatter could not be read (TM001 reports it).
    pub fm: Option<&'a Frontmatter>,
}

impl<'a> Contract<'a> {
    /// The view of `file`, whose parsed document is `doc` (`None`: not a parsed TOOL.md).
    pub fn new(file: FileId, doc: Option<&'a MarkdownDoc>) -> Self {
        Contract {
            file,
            fm: doc.and_then(MarkdownDoc::frontmatter),
        }
    }

    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.fm?.root.get(key)
    }

    pub fn member(&self, key: &str) -> Option<&'a Member> {
        self.fm?.root.member(key)
    }

    pub fn id(&self) -> Option<&'a str> {
        self.get("id")?.as_str()
    }

    pub fn version(&self) -> Option<Version> {
        Version::parse(self.get("version")?.as_str()?.trim()).ok()
    }

    /// A span that stands for the whole contract: its `id` value, else the opening `---`.
    pub fn anchor(&self) -> Span {
        match self.fm {
            Some(fm) => fm.root.get("id").map_or(fm.opening, |n| n.span),
            None => Span::empty(0),
        }
    }

    /// The contract's `inputs` key, else its anchor: where a label about its inputs points.
    pub fn inputs_span(&self) -> Span {
        self.member("inputs").map_or(self.anchor(), |m| m.key_span)
    }

    /// The `inputs` schema's `properties` member names, when it declares any.
    pub fn input_properties(&self) -> Option<&'a [Member]> {
        self.get("inputs")?.get("properties")?.as_object()
    }

    /// The `idempotent` value, when it is `true`.
    pub fn idempotent(&self) -> Option<&'a Node> {
        self.get("idempotent").filter(|n| n.as_bool() == Some(true))
    }
}
