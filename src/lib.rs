//! skilllint: a static analyzer for repositories of AI-agent skills and tool contracts.
//!
//! Data flows one way: walk ([`discover`]) → read & parse ([`parse`], [`model`]) → index
//! ([`index`]) → check ([`rules`]) → triage ([`selection`]) → render ([`render`]).

pub mod config;
pub mod diagnostic;
pub mod discover;
pub mod engine;
pub mod fix;
pub mod index;
pub mod model;
pub mod parse;
pub mod render;
pub mod rules;
pub mod schema;
pub mod selection;
pub mod source;
pub mod suppress;

pub use engine::{lint, LintError, LintOptions, LintOutcome};
