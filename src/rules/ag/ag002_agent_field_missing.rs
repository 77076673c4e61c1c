//! AG002 `agent-field-missing`: A subagent lacks the `name` or `description` the host needs.

use crate::check::{Sink, Unit};
use crate::parse::Value;

pub(super) fn agent_field_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.agent_docs().filter(|(_, d)| !d.command) {
        let Some(frontmatter) = doc.doc.frontmatter() else {
            continue;
        };
        // A GitHub Copilot custom agent (`*.agent.md`) is named after its file when its
        // frontmatter gives no `name`; only its `description` is required.
        let named_by_file = unit.repo.file_name(file).ends_with(".agent.md");
        for key in ["name", "description"] {
            if key == "name" && named_by_file {
                continue;
            }
            let value = frontmatter.root.get(key);
            let blank = match value.map(|v| &v.value) {
                None | Some(Value::Null) => true,
                Some(Value::String(s)) => s.trim().is_empty(),
                Some(_) => false,
            };
            if !blank {
                continue;
            }
            let span = value.map_or(frontmatter.opening, |v| v.span);
            let why = if key == "name" {
                "the host registers and invokes agents by name"
            } else {
                "the model reads it to decide when to hand a task to this agent"
            };
            sink.report(file, span, format!("agent has no `{key}`"))
                .label(format!("no `{key}` in this frontmatter"))
                .help(format!("add `{key}`: {why}"));
        }
    }
}
