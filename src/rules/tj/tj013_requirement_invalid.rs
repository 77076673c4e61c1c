//! TJ013 `requirement-invalid`: The requirement file is not valid YAML or does not have the
//! documented shape.

use super::{lowercase_first, similar_name};
use crate::check::{Sink, Unit};

pub(super) fn requirement_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    const HELP: &str = "a requirement has `tools: [{name, type: read|write, description}]`, `safety_requirements: [string]` and `non_goals: [string]`";
    let Some((rid, requirement)) = unit.requirement() else {
        return;
    };
    let file = unit.repo.file_name(rid);
    if let Some(error) = &requirement.parse_error {
        let diagnostic = sink.report(
            rid,
            error.span,
            format!(
                "`{file}` is not valid YAML: {}",
                lowercase_first(&error.message)
            ),
        );
        diagnostic.label("the parser stopped here");
        if let Some(first) = error.first_definition {
            diagnostic.secondary(rid, first, "first defined here");
        }
        diagnostic.help("fix the YAML at or just before this point; nothing else in the requirement is checked until it parses");
    }
    const KEYS: [&str; 3] = ["tools", "safety_requirements", "non_goals"];
    for (span, problem) in &requirement.problems {
        let diagnostic = sink.report(rid, *span, problem.clone());
        let key = unit.text(rid).get(span.start..span.end).unwrap_or("");
        let suggestion = if problem.starts_with("unknown key") {
            similar_name(key, KEYS)
        } else {
            None
        };
        match suggestion {
            Some(suggestion) => diagnostic
                .label("unknown key")
                .help(format!("rename it to `{suggestion}`; a misspelled key is ignored, and so is everything under it")),
            None => diagnostic.help(HELP),
        };
    }
}
