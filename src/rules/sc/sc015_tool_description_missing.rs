//! SC015 `tool-description-missing`: A tool has no description or a blank one.

use crate::check::{code, Sink, Unit};
use crate::model::tools::Dialect;

pub(super) fn tool_description_missing(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "add a `description` that says what the tool does, when to call it and when not to; the model chooses tools by it";
    for (file, tool) in unit.tools() {
        let name = tool.display_name();
        match tool.description() {
            // The forge contract reports a missing or mistyped description (TJ002, while it runs
            // for the file); the provider describes its own tools (Anthropic's
            // `web_search_20250305`).
            None if tool.provider_defined => {}
            // A description in source code computed at run time: not read, not reported.
            None if tool.unresolved("description") => {}
            None if tool.dialect == Dialect::Forge && unit.reports(code::TJ002, file) => {}
            None => {
                sink.report(
                    file,
                    tool.span(),
                    format!("tool `{name}` has no description"),
                )
                .label("no `description`")
                .help(HELP);
            }
            Some(node) => match node.as_str() {
                Some(text) if text.trim().is_empty() => {
                    sink.report(
                        file,
                        node.span,
                        format!("tool `{name}` has a blank description"),
                    )
                    .label("blank")
                    .help(HELP);
                }
                Some(_) => {}
                None if tool.dialect == Dialect::Forge && unit.reports(code::TJ002, file) => {}
                None => {
                    sink.report(
                        file,
                        node.span,
                        format!(
                            "description of tool `{name}` is not a string, found {}",
                            node.type_name()
                        ),
                    )
                    .label("not a string")
                    .help(HELP);
                }
            },
        }
    }
}
