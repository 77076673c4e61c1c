//! SC014 `openai-strict-violation`: An OpenAI tool in strict mode has a schema that strict mode
//! rejects.

use super::{is_object_schema, join_and, object_anchor};
use crate::check::{code, Sink, Unit};
use crate::model::tools::Dialect;
use crate::parse::node::Node;
use crate::semantic::schemas::{strict_flag, tool_subject};
use std::collections::BTreeSet;

pub(super) fn openai_strict_violation(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, tool) in unit.tools() {
        if tool.dialect != Dialect::OpenAi {
            continue;
        }
        let Some(strict) = strict_flag(tool) else {
            continue;
        };
        let Some(subject) = tool_subject(file, tool) else {
            continue;
        };
        let schema = subject.schema;
        let sites = unit.schema_sites(schema);
        for site in sites.iter() {
            if !is_object_schema(site.node) {
                continue;
            }
            let what = || subject.describe(site, &sites);
            if site
                .node
                .get("additionalProperties")
                .and_then(Node::as_bool)
                != Some(false)
            {
                let span = site
                    .node
                    .member("additionalProperties")
                    .map_or_else(|| object_anchor(site, &subject), |m| m.value.span);
                sink.report(
                    file,
                    span,
                    format!(
                        "{} lacks `additionalProperties: false`, which strict mode requires",
                        what()
                    ),
                )
                .label("strict mode needs `additionalProperties: false` here")
                .secondary(file, strict.span, "strict mode enabled here")
                .help("add `\"additionalProperties\": false` to every object in the schema, or drop `strict`");
            }
            let declared: Vec<&str> = site
                .node
                .get("properties")
                .and_then(Node::as_object)
                .unwrap_or_default()
                .iter()
                .map(|m| m.key.as_str())
                .collect();
            // A `required` that is not an array is not a valid schema: SC001 reports it while it
            // runs for the file; otherwise it is read as requiring nothing.
            let required: BTreeSet<&str> = match site.node.get("required") {
                None => BTreeSet::new(),
                Some(node) => match node.as_array() {
                    Some(items) => items.iter().filter_map(Node::as_str).collect(),
                    None if unit.reports(code::SC001, file) => continue,
                    None => BTreeSet::new(),
                },
            };
            let missing: Vec<&str> = declared
                .iter()
                .copied()
                .filter(|n| !required.contains(n))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let span = site
                .node
                .member("required")
                .or_else(|| site.node.member("properties"))
                .map_or_else(|| object_anchor(site, &subject), |m| m.key_span);
            let list: Vec<String> = missing.iter().map(|n| format!("`{n}`")).collect();
            sink.report(
                file,
                span,
                format!(
                    "{} does not require {}; strict mode requires every property",
                    what(),
                    join_and(&list)
                ),
            )
            .label("`required` must list every property")
            .secondary(file, strict.span, "strict mode enabled here")
            .help("list every property in `required`; make an optional parameter nullable instead (`\"type\": [\"string\", \"null\"]`)");
        }
    }
}
