//! Span-preserving parsers, and the word scanning rules and facts share ([`words`]). Each keeps
//! byte offsets in file coordinates.

pub mod frontmatter;
pub mod json;
pub mod markdown;
pub mod node;
pub mod shell;
pub mod words;
pub mod yaml;

pub use node::{Member, Node, Value};
