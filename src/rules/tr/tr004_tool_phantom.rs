//! TR004 `tool-phantom`: The Tool Use Rules section names a tool that tools.json does not
//! define.

use super::{named_tools, skill_name, tools_are_complete, tools_file_name, RulesSection};
use crate::check::{Sink, Unit};
use crate::parse::node::{Node, Value};
use crate::semantic::tool_use_rules::{is_vocabulary, names_in_item};
use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

pub(super) fn tool_phantom(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        return;
    };
    // A tools file that did not parse (or lost entries) gives no reliable list to compare with.
    if !tools_are_complete(unit) {
        return;
    }
    let tools = named_tools(unit);
    let tool_names: Vec<&str> = tools.iter().map(|(_, _, name)| *name).collect();
    let skill_name = skill_name(rules.doc);
    // Names the tools' schemas define, as written and folded (see `fold_name`), collected only
    // when an item names something that is not a tool (most sections name tools only).
    let schema_names: OnceCell<(HashSet<&str>, HashSet<String>)> = OnceCell::new();
    let schema_names = || {
        schema_names.get_or_init(|| {
            let mut known = HashSet::new();
            for (_, tool, _) in &tools {
                // The input schema (script parameters converted) and the rest of the definition,
                // which holds an MCP `outputSchema`.
                if let Some(schema) = tool.schema() {
                    collect_schema_names(schema, &mut known);
                }
                collect_schema_names(tool.definition(), &mut known);
            }
            let folded = known
                .iter()
                .map(|name| fold_name(name))
                .filter(|folded| !folded.is_empty())
                .collect();
            (known, folded)
        })
    };
    // Each defined tool by its name with verbs reduced to a synonym group's first (see
    // `rename_key`): a phantom with the same key is most likely the tool renamed. The first tool
    // of a key, by name, wins.
    let renames: OnceCell<HashMap<String, &str>> = OnceCell::new();
    let renames = || {
        renames.get_or_init(|| {
            let mut sorted = tool_names.clone();
            sorted.sort_unstable();
            let mut by_key = HashMap::new();
            for name in sorted {
                let key = rename_key(name);
                if !key.is_empty() {
                    by_key.entry(key).or_insert(name);
                }
            }
            by_key
        })
    };
    let tools_name = tools_file_name(unit);
    for item in rules.items {
        let is_known = |name: &str| {
            tool_names.contains(&name) || skill_name == Some(name) || is_vocabulary(name) || {
                let (known, folded) = schema_names();
                known.contains(name) || folded.contains(&fold_name(name))
            }
        };
        for named in names_in_item(item, rules.text, is_known) {
            let suggestion = renames()
                .get(&rename_key(named.text))
                .copied()
                .or_else(|| crate::rules::util::nearest(named.text, tool_names.iter().copied()));
            let help = match suggestion {
                Some(nearest) => format!(
                    "use a tool `{tools_name}` defines (nearest: `{nearest}`), define `{}` there, \
                     or remove the item",
                    named.text
                ),
                None => format!(
                    "define `{}` in `{tools_name}` if the skill needs it, otherwise remove the item",
                    named.text
                ),
            };
            sink.report(
                rules.file,
                named.span,
                format!(
                    "`{}` is named as a tool but `{tools_name}` does not define it",
                    named.text
                ),
            )
            .label("not a tool of this skill")
            .help(help);
        }
    }
}

/// Verbs that tool names use for the same operation, each group led by the word it reduces to:
/// a tool renamed from `cancel_event` to `delete_event`, or `fetchNote` to `get_note`, keeps the
/// rest of its name.
const VERB_SYNONYMS: &[&[&str]] = &[
    &[
        "delete", "remove", "cancel", "destroy", "drop", "erase", "trash",
    ],
    &["create", "add", "insert", "new", "make"],
    &["update", "edit", "modify", "change", "patch"],
    &[
        "get", "fetch", "read", "retrieve", "show", "view", "describe",
    ],
    &["list", "search", "find", "query"],
    &["send", "post"],
];

/// A tool name's words, lowercase, each verb replaced by the first of its synonym group, joined
/// by `_`: `cancelEvent`, `cancel_event` and `delete-event` share the key `delete_event`.
fn rename_key(name: &str) -> String {
    let words: Vec<String> = crate::rules::util::name_words(name)
        .into_iter()
        .map(|word| {
            VERB_SYNONYMS
                .iter()
                .find(|group| group.contains(&word.as_str()))
                .map_or(word, |group| group[0].to_string())
        })
        .collect();
    words.join("_")
}

/// A schema name without case and separators, so that an item's `event_id` is the schema's
/// `eventId` (or `event-id`).
fn fold_name(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Property names (at any depth) and string `enum`/`const` values of an input schema: words an
/// item may put in code without naming a tool.
fn collect_schema_names<'a>(schema: &'a Node, out: &mut HashSet<&'a str>) {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Object(members) => {
                for member in members {
                    match member.key.as_str() {
                        "properties" | "patternProperties" | "$defs" | "definitions" => {
                            for property in member.value.as_object().unwrap_or_default() {
                                out.insert(property.key.as_str());
                            }
                        }
                        "enum" => out.extend(
                            member
                                .value
                                .as_array()
                                .unwrap_or_default()
                                .iter()
                                .filter_map(Node::as_str),
                        ),
                        "const" => out.extend(member.value.as_str()),
                        _ => {}
                    }
                    stack.push(&member.value);
                }
            }
            Value::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
}
