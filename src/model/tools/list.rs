//! The container of a tool list (a root array, `tools`/`functions`, a JSON-RPC `result.tools`, a
//! single tool read for its content) and whether the file is a tool list at all.

use super::dialect::{detect, normalise, Detected};
use super::{
    NotToolList, Shape, ShapeProblem, ShapeProblemKind, ToolsDoc, BUNDLE_VERSION_KEYS,
    CONTAINER_KEYS, DIALECT_KEYS,
};
use crate::parse::json::parse_json_document;
use crate::parse::node::{pointer_token, Node, Value};
use crate::source::Span;

pub(super) fn parse_tool_list(text: &str, by_content: bool) -> ToolsDoc {
    let mut doc = ToolsDoc {
        by_content,
        ..ToolsDoc::default()
    };
    let parsed = match parse_json_document(text) {
        Ok(parsed) => parsed,
        Err(error) => {
            doc.parse_error = Some(error);
            return doc;
        }
    };
    let bundle = is_bundle(&parsed.root);
    let list = match take_list(parsed.root, by_content) {
        Contents::List(list) => list,
        Contents::Broken(problem) => {
            doc.duplicate_keys = parsed.duplicate_keys;
            doc.problems.push(problem);
            return doc;
        }
        Contents::NotAList(why) => {
            doc.not_a_tool_list = Some(why);
            return doc;
        }
    };
    let bundle = bundle && list.pointer == "/tools";
    let mut detected: Vec<Option<Detected>> = list.entries.iter().map(detect).collect();
    if detected.iter().all(Option::is_none) {
        if let Some(catalogue) = catalogue(&list.entries, by_content, bundle) {
            detected = catalogue;
        }
    }
    if let Some(label) = not_a_tool_list(&list, &detected) {
        doc.not_a_tool_list = Some(NotToolList {
            span: list.anchor,
            label,
        });
        return doc;
    }
    doc.duplicate_keys = parsed.duplicate_keys;
    doc.bundle = bundle;
    doc.entries = list.entries.len();
    let first = detected.iter().flatten().next().copied();
    doc.dialect = first.map(|d| d.shape.dialect());
    let mut unknown = Vec::new();
    for (index, (entry, own)) in list.entries.into_iter().zip(detected).enumerate() {
        let key = list.keys.get(index);
        let pointer = match key.and_then(Node::as_str) {
            Some(key) => format!("/{}", pointer_token(key)),
            None if list.single => String::new(),
            None => format!("{}/{index}", list.pointer),
        };
        if !entry.is_object() {
            unknown.push(Unknown {
                span: opening(&entry),
                name: None,
                found: Some(entry.type_name()),
                pointer,
            });
            continue;
        }
        let shape = match (own, first) {
            (Some(own), Some(first)) if own.shape != first.shape => {
                doc.problems.push(ShapeProblem {
                    kind: ShapeProblemKind::Mixed,
                    span: own.marker,
                    message: format!(
                        "{} is {} but the file's first tool is {}; one file holds one dialect",
                        entry_named(&entry, &pointer),
                        own.shape.described(),
                        first.shape.described()
                    ),
                    label: format!("makes this {}", own.shape.described()),
                    secondary: Some((
                        first.marker,
                        format!("the first tool is {}", first.shape.described()),
                    )),
                    expected: None,
                });
                continue;
            }
            (Some(own), _) => own.shape,
            // An unmarked entry in a forge file is a forge entry with keys missing: TJ002
            // explains what is missing better than "no dialect" would. An OpenAI function may
            // omit `parameters` (no arguments), and so may a Docker catalogue tool its
            // `arguments`, so a bare `{name, description}` among them is one of them.
            (None, Some(first))
                if matches!(
                    first.shape,
                    Shape::Forge | Shape::OpenAiFlat | Shape::Docker
                ) =>
            {
                first.shape
            }
            (None, _) => {
                unknown.push(Unknown {
                    span: entry
                        .member("name")
                        .map_or_else(|| opening(&entry), |m| m.value.span),
                    name: entry.get("name").and_then(Node::as_str).map(str::to_string),
                    found: None,
                    pointer,
                });
                continue;
            }
        };
        let mut tool = normalise(entry, shape.dialect(), pointer);
        tool.named_by_key = key.cloned();
        doc.tools.push(tool);
    }
    doc.problems.extend(unknown_entries(
        unknown,
        first.map(|f| f.shape),
        list.anchor,
    ));
    doc.problems.sort_by_key(|p| p.span.start);
    doc
}

/// An entry that is no tool: where it is, its name if it has one, what it is when it is no object.
pub(super) struct Unknown {
    span: Span,
    name: Option<String>,
    found: Option<&'static str>,
    pointer: String,
}

/// "tool `name`" for an entry with a name, else its JSON pointer, for messages.
pub(super) fn entry_named(entry: &Node, pointer: &str) -> String {
    match entry.get("name").and_then(Node::as_str) {
        Some(name) => format!("tool `{name}`"),
        None => format!("`{}`", root_or(pointer)),
    }
}

/// A JSON pointer for messages: the root's empty pointer written `/`.
pub(super) fn root_or(pointer: &str) -> &str {
    if pointer.is_empty() {
        "/"
    } else {
        pointer
    }
}

/// How many names a merged finding lists before "and N more".
pub(super) const NAMES_SHOWN: usize = 5;

/// The entries that are no tool, as TJ002 problems: one for a single entry, on it; one for the
/// whole file when there are several (in a file of no known dialect, on the list itself), with
/// the count and the entries named by their `name`.
pub(super) fn unknown_entries(
    unknown: Vec<Unknown>,
    first: Option<Shape>,
    anchor: Span,
) -> Option<ShapeProblem> {
    let expected = first.map(|f| (f.key(), f.dialect()));
    let tail = |what: String| match first {
        Some(first) => format!("{what}; the file's first tool is {}", first.described()),
        None => what,
    };
    let label = match first {
        Some(first) => format!("expected `{}`", first.key()),
        None => "no `inputSchema`, `input_schema`, `parameters` or `script`".to_string(),
    };
    let describe = |u: &Unknown| match &u.name {
        Some(name) => format!("`{name}`"),
        None => format!("`{}`", root_or(&u.pointer)),
    };
    match unknown.as_slice() {
        [] => None,
        [one] => Some(ShapeProblem {
            kind: ShapeProblemKind::Entry,
            span: one.span,
            message: match (&one.name, one.found) {
                (_, Some(found)) => {
                    format!("{} must be a tool object, found {found}", describe(one))
                }
                (Some(name), None) => tail(format!("tool `{name}` matches no tools.json dialect")),
                (None, None) => tail(format!("{} matches no tools.json dialect", describe(one))),
            },
            label: if one.found.is_some() {
                "expected an object".to_string()
            } else {
                label
            },
            secondary: None,
            expected,
        }),
        [first_entry, ..] => {
            let mut names: Vec<String> = unknown.iter().take(NAMES_SHOWN).map(describe).collect();
            if unknown.len() > NAMES_SHOWN {
                names.push(format!("{} more", unknown.len() - NAMES_SHOWN));
            }
            let count = unknown.len();
            Some(ShapeProblem {
                kind: ShapeProblemKind::Entry,
                span: if first.is_some() {
                    first_entry.span
                } else {
                    anchor
                },
                message: tail(format!(
                    "{count} entries match no tools.json dialect: {}",
                    join_and(&names)
                )),
                label: if first.is_some() {
                    format!("{label} (the first of {count})")
                } else {
                    format!("{count} entries of no dialect")
                },
                secondary: None,
                expected,
            })
        }
    }
}

pub(crate) use crate::english::join_and;

/// Keys a catalogue entry may carry besides its name and description: what Docker's catalogue and
/// hand-written tool indexes put there (grouping, display, hints).
pub(super) const CATALOGUE_KEYS: [&str; 4] = ["category", "tags", "toolset", "group"];

/// Whether the file's root is a DXT / MCP Bundle manifest: an object with a top-level
/// `dxt_version` or `manifest_version` and a `tools` array.
pub(super) fn is_bundle(root: &Node) -> bool {
    root.as_object().is_some_and(|members| {
        members
            .iter()
            .any(|m| BUNDLE_VERSION_KEYS.contains(&m.key.as_str()))
    }) && root.get("tools").and_then(Node::as_array).is_some()
}

/// Every entry a `{name, description}` object (with only keys of some dialect or a catalogue's
/// grouping keys besides): a catalogue, each entry decided by its `description`. In a file read
/// for its content the names must also be tool names (letters, digits, `_`, `-`, `.`), so a list
/// of documented functions (`get_ids (deprecated)`) is not taken for tools. A bundle manifest's
/// tools may be a bare `{name}` (its format makes the description optional): such an entry is
/// decided by its `name`, and SC015 reports the description it lacks.
pub(super) fn catalogue(
    entries: &[Node],
    by_content: bool,
    bundle: bool,
) -> Option<Vec<Option<Detected>>> {
    if entries.is_empty() {
        return None;
    }
    entries
        .iter()
        .map(|entry| {
            let members = entry.as_object()?;
            let name = entry.get("name")?.as_str()?;
            let marker = match entry.member("description") {
                Some(description) => {
                    description.value.as_str()?;
                    description.key_span
                }
                None if bundle => entry.member("name")?.key_span,
                None => return None,
            };
            let keys_fit = members.iter().all(|m| {
                DIALECT_KEYS.contains(&m.key.as_str()) || CATALOGUE_KEYS.contains(&m.key.as_str())
            });
            let name_fits = !by_content
                || (!name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')));
            (keys_fit && name_fits).then_some(Some(Detected {
                shape: Shape::Catalogue,
                marker,
            }))
        })
        .collect()
}

/// A list of tool entries moved out of the parsed file (no copy).
pub(super) struct List {
    entries: Vec<Node>,
    /// JSON pointer of the array (`""`, `/tools`, `/result/tools`).
    pointer: &'static str,
    /// The array sits under a key that names it a list of tools (`tools`, `functions`).
    named: bool,
    /// Where a "not a tool list" finding points: the key holding the array, else the root's
    /// opening bracket.
    anchor: Span,
    /// The file is one tool object (a snapshot): its entry's pointer is the root, ``.
    single: bool,
    /// The root object's keys, as string nodes spanning them, when the tools are its members
    /// ([`keyed`]): each entry's name and pointer (`/<key>`). Empty for a list.
    keys: Vec<Node>,
}

pub(super) enum Contents {
    List(List),
    /// Tools written other than as an array: a TJ002 finding.
    Broken(ShapeProblem),
    /// No tool list at all: a TJ014 finding.
    NotAList(NotToolList),
}

/// Finds the array of tools: the root array, a `tools` or `functions` array, a JSON-RPC
/// `result.tools`. Without one, decides whether the file holds tools written some other way
/// (TJ002) or is no tool list (TJ014).
pub(super) fn take_list(root: Node, by_content: bool) -> Contents {
    let anchor = opening(&root);
    let span = root.span;
    let mut root = match root.value {
        Value::Array(entries) => {
            return Contents::List(List {
                entries,
                pointer: "",
                named: false,
                anchor,
                single: false,
                keys: Vec::new(),
            })
        }
        value => Node::new(span, value),
    };
    // A snapshot holds one tool; so may any file read for its content. A `tools.json` holding
    // one tool object is a broken list (TJ002), as before.
    if by_content && detect(&root).is_some() {
        return Contents::List(List {
            entries: vec![root],
            pointer: "",
            named: false,
            anchor,
            single: true,
            keys: Vec::new(),
        });
    }
    for (key, pointer) in CONTAINER_KEYS.into_iter().zip(["/tools", "/functions"]) {
        let Some(member) = root.member(key).filter(|m| m.value.as_array().is_some()) else {
            continue;
        };
        let anchor = member.key_span;
        if let Some(Value::Array(entries)) = take_member(&mut root, key).map(|n| n.value) {
            return Contents::List(List {
                entries,
                pointer,
                named: true,
                anchor,
                single: false,
                keys: Vec::new(),
            });
        }
    }
    let rpc = root
        .member("result")
        .filter(|r| r.value.get("tools").and_then(Node::as_array).is_some())
        .map(|r| r.key_span);
    if let Some(anchor) = rpc {
        let tools = take_member(&mut root, "result").and_then(|mut r| take_member(&mut r, "tools"));
        if let Some(Value::Array(entries)) = tools.map(|n| n.value) {
            return Contents::List(List {
                entries,
                pointer: "/result/tools",
                named: true,
                anchor,
                single: false,
                keys: Vec::new(),
            });
        }
    }
    if let Some((keys, entries)) = keyed(&mut root) {
        return Contents::List(List {
            entries,
            pointer: "",
            named: true,
            anchor,
            single: false,
            keys,
        });
    }
    without_list(&root, anchor)
}

/// The keys whose object value makes a root member a tool of a catalogue keyed by tool name.
const KEYED_SCHEMA_KEYS: [&str; 3] = ["inputSchema", "input_schema", "parameters"];

/// A catalogue keyed by tool name (`{"create_flag": {"description": …, "inputSchema": {…}}}`):
/// every member of the root an object with an input schema object. Its entries are taken out
/// with their keys as string nodes (spanning the key, so a finding about the name points at
/// it); anything else is left untouched.
pub(super) fn keyed(root: &mut Node) -> Option<(Vec<Node>, Vec<Node>)> {
    let members = root.as_object()?;
    let is_tool = |m: &crate::parse::node::Member| {
        m.value.as_object().is_some_and(|entry| {
            entry
                .iter()
                .any(|e| KEYED_SCHEMA_KEYS.contains(&e.key.as_str()) && e.value.is_object())
        })
    };
    if members.is_empty() || !members.iter().all(is_tool) {
        return None;
    }
    let Value::Object(members) = std::mem::replace(&mut root.value, Value::Null) else {
        return None;
    };
    Some(
        members
            .into_iter()
            .map(|m| (Node::new(m.key_span, Value::String(m.key)), m.value))
            .unzip(),
    )
}

/// A file with no array of tools: a single tool object or tools keyed by name are tools written
/// wrongly; anything else is no tool list.
pub(super) fn without_list(root: &Node, anchor: Span) -> Contents {
    let Some(members) = root.as_object() else {
        return Contents::NotAList(NotToolList {
            span: root.span,
            label: format!("{} JSON {}", article(root.type_name()), root.type_name()),
        });
    };
    if detect(root).is_some() {
        return Contents::Broken(ShapeProblem {
            kind: ShapeProblemKind::Container,
            span: anchor,
            message: "expected an array of tools, found a single tool object".to_string(),
            label: "one tool, not a list".to_string(),
            secondary: None,
            expected: None,
        });
    }
    let Some(member) = members
        .iter()
        .find(|m| CONTAINER_KEYS.contains(&m.key.as_str()))
    else {
        return Contents::NotAList(NotToolList {
            span: anchor,
            label: "an object with no `tools` array".to_string(),
        });
    };
    let value = &member.value;
    let holds_tools = detect(value).is_some()
        || value
            .as_object()
            .is_some_and(|tools| tools.iter().any(|t| detect(&t.value).is_some()));
    let found = format!("{} {}", article(value.type_name()), value.type_name());
    if holds_tools {
        return Contents::Broken(ShapeProblem {
            kind: ShapeProblemKind::Container,
            span: member.key_span,
            message: format!(
                "`/{}` must be an array of tools, found {found}",
                pointer_token(&member.key)
            ),
            label: "expected an array".to_string(),
            secondary: None,
            expected: None,
        });
    }
    Contents::NotAList(NotToolList {
        span: member.key_span,
        label: format!("`{}` holds {found}, not an array of tools", member.key),
    })
}

/// Why an array found where tools belong is no tool list, or `None` when it is one: empty, or
/// with an entry of some dialect, or with a majority of entries that look like tools.
pub(super) fn not_a_tool_list(list: &List, detected: &[Option<Detected>]) -> Option<String> {
    if list.entries.is_empty() || detected.iter().any(Option::is_some) {
        return None;
    }
    let looks_like_tools = list
        .entries
        .iter()
        .filter(|e| looks_like_tool(e, list.named))
        .count();
    if looks_like_tools * 2 > list.entries.len() {
        return None;
    }
    let types: Vec<&str> = list.entries.iter().map(Node::type_name).collect();
    let uniform = types.windows(2).all(|pair| pair[0] == pair[1]);
    let what = match types.first() {
        Some(&kind) if uniform && kind != "object" => format!("an array of {kind}s"),
        _ => "an array whose entries are not tools".to_string(),
    };
    Some(if list.pointer.is_empty() {
        what
    } else {
        format!("`{}` holds {what}", list.pointer.trim_start_matches('/'))
    })
}

/// An object with a `name` and only keys some dialect defines: a tool with its schema missing.
/// In a bare array it also needs a key besides `name`; under a `tools` or `functions` key, whose
/// name already says what the list holds, the `name` is enough.
pub(super) fn looks_like_tool(entry: &Node, named_list: bool) -> bool {
    let Some(members) = entry.as_object() else {
        return false;
    };
    members.iter().any(|m| m.key == "name")
        && members
            .iter()
            .all(|m| DIALECT_KEYS.contains(&m.key.as_str()))
        && (named_list || members.len() > 1)
}

pub(super) fn article(type_name: &str) -> &'static str {
    if matches!(type_name, "array" | "object" | "integer") {
        "an"
    } else {
        "a"
    }
}

/// A one-character span on an object's or array's opening bracket (a JSON container starts with
/// an ASCII `{` or `[`); a scalar's whole span.
pub(super) fn opening(node: &Node) -> Span {
    match node.value {
        Value::Object(_) | Value::Array(_) if !node.span.is_empty() => {
            Span::new(node.span.start, node.span.start + 1)
        }
        _ => node.span,
    }
}

pub(super) fn take_member(node: &mut Node, key: &str) -> Option<Node> {
    let Value::Object(members) = &mut node.value else {
        return None;
    };
    let index = members.iter().position(|m| m.key == key)?;
    Some(members.swap_remove(index).value)
}
