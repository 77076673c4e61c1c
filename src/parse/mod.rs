//! Span-preserving parsers. Each keeps byte offsets in file coordinates.

pub mod frontmatter;
pub mod json;
pub mod markdown;
pub mod node;
pub mod yaml;

pub use node::{Member, Node, Value};
