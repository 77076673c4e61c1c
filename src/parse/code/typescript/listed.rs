//! The low-level server: `server.setRequestHandler(ListToolsRequestSchema, handler)`, whose
//! handler returns the tools as objects (`{ name, description, inputSchema, annotations }`),
//! written inline or held by constants of the file. An `inputSchema` is a JSON Schema literal, or
//! `zodToJsonSchema(Schema)` / `z.toJSONSchema(Schema)` of a zod schema of the file.

use super::{find_all, named_children, read_annotations, zod, Parts, Reader, SyntaxNode};
use crate::parse::code::computed;
use crate::parse::code::{member, object, span_of, string_node, text_of, Registration, Unresolved};

/// Every tool the `ListTools` handlers of the file return.
pub(super) fn listed_tools<'t>(
    reader: &Reader<'_, 't>,
    root: SyntaxNode<'t>,
    unresolved: &mut Vec<Unresolved>,
) -> Vec<Registration> {
    let handlers = find_all(root, |n| {
        n.kind() == "call_expression" && is_list_tools(reader, n)
    });
    let mut out = Vec::new();
    for call in handlers {
        let Some(handler) = call
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(1))
        else {
            continue;
        };
        // A handler that is not a function of the file (`wrap(async () => ({ tools }))`), or one
        // that returns no tool object it writes: its tools are counted as not read.
        let not_read = |unresolved: &mut Vec<Unresolved>| {
            unresolved.push(Unresolved {
                part: "registration",
                span: span_of(call),
                why: format!(
                    "the tools `{}` lists are not objects of this file",
                    crate::parse::code::abbreviate(text_of(handler, reader.text))
                ),
            })
        };
        let Some(body) = super::handler_body(reader, handler) else {
            not_read(unresolved);
            continue;
        };
        let mut tools = Vec::new();
        find_all(body, |n| {
            match n.kind() {
                "object" if is_tool_object(reader, n) => tools.push(n),
                // `tools: [READ_TOOL, WRITE_TOOL]`: constants of the file.
                "identifier" => {
                    if let Ok(value) = reader.resolve(n, 0) {
                        if value.kind() == "object" && is_tool_object(reader, value) {
                            tools.push(value);
                        }
                    }
                }
                _ => {}
            }
            n.kind() == "object" && is_tool_object(reader, n)
        });
        tools.sort_by_key(|t| t.start_byte());
        tools.dedup_by_key(|t| t.start_byte());
        if tools.is_empty() {
            not_read(unresolved);
        }
        for tool in tools {
            match read_tool(reader, tool) {
                Ok(registration) => out.push(registration),
                Err(why) => unresolved.push(why),
            }
        }
    }
    out
}

/// `<server>.setRequestHandler(ListToolsRequestSchema, …)`.
fn is_list_tools(reader: &Reader<'_, '_>, call: SyntaxNode<'_>) -> bool {
    let method = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "member_expression")
        .and_then(|f| f.child_by_field_name("property"));
    let schema = call
        .child_by_field_name("arguments")
        .and_then(|a| a.named_child(0));
    method.is_some_and(|m| text_of(m, reader.text) == "setRequestHandler")
        && schema.is_some_and(|s| text_of(s, reader.text).ends_with("ListToolsRequestSchema"))
}

/// An object literal with a `name` and an `inputSchema`: an MCP tool.
fn is_tool_object<'t>(reader: &Reader<'_, 't>, node: SyntaxNode<'t>) -> bool {
    reader.pair(node, "name").is_some() && reader.pair(node, "inputSchema").is_some()
}

fn read_tool<'t>(
    reader: &Reader<'_, 't>,
    tool: SyntaxNode<'t>,
) -> Result<Registration, Unresolved> {
    let (_, name_value) = reader.pair(tool, "name").ok_or_else(|| Unresolved {
        part: "name",
        span: span_of(tool),
        why: "a tool object without a name".into(),
    })?;
    let (name, name_span) = reader.string(name_value, 0).map_err(|why| Unresolved {
        part: "name",
        span: span_of(tool),
        why,
    })?;
    let mut parts = Parts::default();
    let mut members = vec![member("name", name_span, string_node(name, name_span))];
    for key in ["title", "description"] {
        let Some((key_span, value)) = reader.pair(tool, key) else {
            continue;
        };
        match reader.string(value, 0) {
            Ok((text, span)) => members.push(member(key, key_span, string_node(text, span))),
            Err(why) => {
                let part = if key == "title" {
                    "title"
                } else {
                    "description"
                };
                parts.unresolved(part, span_of(value), why);
            }
        }
    }
    let mut built = false;
    if let Some((key_span, value)) = reader.pair(tool, "inputSchema") {
        let schema = match reader.resolve(value, 0) {
            Ok(node) if node.kind() == "object" => reader.value(node, 0),
            Ok(node) if is_zod_to_json(reader, node) => {
                built = true;
                node.child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0))
                    .ok_or_else(|| "a conversion without a schema".to_string())
                    .and_then(|schema| zod::input_schema(reader, schema))
            }
            Ok(node) => Err(computed(node, reader.text)),
            Err(why) => Err(why),
        };
        match schema {
            Ok(schema) => members.push(member("inputSchema", key_span, schema)),
            Err(why) => parts.unresolved("inputSchema", span_of(value), why),
        }
    }
    if let Some((key_span, value)) = reader.pair(tool, "annotations") {
        read_annotations(reader, key_span, value, &mut parts);
    }
    members.extend(parts.members);
    if let Some(annotations) = parts.annotations {
        members.push(annotations);
    }
    Ok(Registration {
        form: "ListTools handler",
        entry: object(span_of(tool), members),
        built_schema: built,
        unresolved: parts.unresolved,
        handler: Vec::new(),
        handler_span: None,
    })
}

/// `zodToJsonSchema(Schema)`, `z.toJSONSchema(Schema)`.
fn is_zod_to_json(reader: &Reader<'_, '_>, node: SyntaxNode<'_>) -> bool {
    node.kind() == "call_expression"
        && node.child_by_field_name("function").is_some_and(|f| {
            let callee = text_of(f, reader.text);
            callee.ends_with("zodToJsonSchema") || callee.ends_with("toJSONSchema")
        })
        && named_children(node).len() > 1
}
