//! Tools registered in source code as tools of the one model: each registration
//! ([`crate::parse::code`]) is an MCP-shaped entry with spans into the source, normalised as an
//! MCP tool is (its annotations give the side effect), and keeps what only source has: how it
//! was registered, what could not be read, and its handler's calls.

use super::dialect::normalise;
use super::{Dialect, ToolsDoc};
use crate::parse::code::{parse_code_at, Context, HandlerCall, Lang, Unresolved};
use crate::source::Span;

/// What a tool registered in source code has beyond its entry.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeFacts {
    pub lang: Lang,
    /// How it is registered: `registerTool`, `server.tool`, `@tool`, `Tool(…)`.
    pub form: &'static str,
    /// Whether the input schema was built from zod or type hints (its root cannot carry
    /// `additionalProperties`: the SDK writes it).
    pub built_schema: bool,
    /// The parts that could not be read: no rule reports on them.
    pub unresolved: Vec<Unresolved>,
    /// The handler's calls, when the handler is in the file.
    pub handler: Vec<HandlerCall>,
    pub handler_span: Option<Span>,
}

/// Reads the tools the source file at `rel_path` registers (`context`: what the project's other
/// files tell).
pub fn parse_source(lang: Lang, text: &str, context: &Context, rel_path: &str) -> ToolsDoc {
    let code = parse_code_at(lang, text, context, rel_path);
    let mut doc = ToolsDoc {
        dialect: Some(Dialect::Source),
        entries: code.registrations.len() + code.unresolved.len(),
        code: Some(lang),
        unresolved: code.unresolved,
        ..ToolsDoc::default()
    };
    for registration in code.registrations {
        let mut tool = normalise(registration.entry, Dialect::Source, String::new());
        tool.code = Some(Box::new(CodeFacts {
            lang,
            form: registration.form,
            built_schema: registration.built_schema,
            unresolved: registration.unresolved,
            handler: registration.handler,
            handler_span: registration.handler_span,
        }));
        doc.tools.push(tool);
    }
    doc
}
