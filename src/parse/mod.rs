//! Span-preserving parsers, the word scanning rules and facts share ([`words`]) and the grammar of
//! inline suppression comments ([`suppression`]). Each keeps byte offsets in file coordinates.

pub mod code;
pub mod frontmatter;
pub mod json;
pub mod markdown;
pub mod node;
pub mod shell;
pub mod suppression;
pub mod words;
pub mod yaml;

pub use node::{Member, Node, Value};
