//! The low-level server: `server.setRequestHandler(ListToolsRequestSchema, handler)`, whose
//! handler returns the tools as objects (`{ name, description, inputSchema, annotations }`),
//! written inline or held by constants of the file (an object, an array of them, arrays spread).
//! Tool objects elsewhere in the file are read when the file says a server lists them (typed as
//! the SDK's `Tool`, or the value of a `tools:` member) and otherwise counted as not read. An `inputSchema` is a JSON Schema literal, or
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
    // The start of every tool object read, so that one listed twice is read once.
    let mut read = Vec::new();
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
                // `tools: [READ_TOOL, WRITE_TOOL]`, `tools: TOOLS`: constants of the file.
                "identifier" => {
                    if let Ok(value) = reader.resolve(n, 0) {
                        if value.kind() == "object" && is_tool_object(reader, value) {
                            tools.push(value);
                        } else if value.kind() == "array" {
                            tools.extend(array_tools(reader, value, 0));
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
            if read.contains(&tool.start_byte()) {
                continue;
            }
            read.push(tool.start_byte());
            match read_tool(reader, tool) {
                Ok(registration) => out.push(registration),
                Err(why) => unresolved.push(why),
            }
        }
    }
    out.extend(listed_elsewhere(reader, root, &mut read, unresolved));
    out
}

/// The tool objects an array holds: objects written in it, constants it names, arrays it
/// spreads.
fn array_tools<'t>(
    reader: &Reader<'_, 't>,
    array: SyntaxNode<'t>,
    depth: usize,
) -> Vec<SyntaxNode<'t>> {
    let mut out = Vec::new();
    if depth > crate::parse::code::MAX_DEPTH {
        return out;
    }
    for element in named_children(array) {
        let element = match element.kind() {
            "spread_element" => match element.named_child(0) {
                Some(inner) => inner,
                None => continue,
            },
            _ => element,
        };
        match reader.resolve(element, depth + 1) {
            Ok(value) if value.kind() == "object" && is_tool_object(reader, value) => {
                out.push(value)
            }
            Ok(value) if value.kind() == "array" => {
                out.extend(array_tools(reader, value, depth + 1))
            }
            _ => {}
        }
    }
    out
}

/// Tool objects outside a `ListTools` handler: read when the file says they are the tools a
/// server lists (the array or object is typed as the SDK's `Tool` — `satisfies Tool[]`,
/// `const t: Tool = …` — or is the value of a `tools:` member, directly or by the constant
/// holding it); otherwise, as they reach the server only through code of another file (an
/// argument, a loop), each is counted as not read, never guessed.
fn listed_elsewhere<'t>(
    reader: &Reader<'_, 't>,
    root: SyntaxNode<'t>,
    read: &mut Vec<usize>,
    unresolved: &mut Vec<Unresolved>,
) -> Vec<Registration> {
    let mut out = Vec::new();
    let mut holders = Vec::new();
    find_all(root, |n| {
        let holder = match n.kind() {
            "array" => !array_tools(reader, n, 0).is_empty(),
            "object" => is_tool_object(reader, n),
            _ => false,
        };
        if holder {
            holders.push(n);
        }
        holder
    });
    for holder in holders {
        // What another request handler returns (`CallTool`'s result) is no listing.
        if in_request_handler(reader, holder) {
            continue;
        }
        let tools = match holder.kind() {
            "array" => array_tools(reader, holder, 0),
            _ => vec![holder],
        };
        let listed =
            typed_as_sdk_tool(reader, holder) || reaches_tools_member(reader, root, holder);
        for tool in tools {
            if read.contains(&tool.start_byte()) {
                continue;
            }
            read.push(tool.start_byte());
            if !listed {
                let name = reader
                    .pair(tool, "name")
                    .and_then(|(_, v)| reader.string(v, 0).ok())
                    .map_or_else(|| "a tool object".to_string(), |(n, _)| format!("`{n}`"));
                unresolved.push(Unresolved {
                    part: "registration",
                    span: span_of(tool),
                    why: format!(
                        "{name} is handed to code of another file, not listed by a ListTools handler or a `tools:` result of this file"
                    ),
                });
                continue;
            }
            match read_tool(reader, tool) {
                Ok(registration) => out.push(registration),
                Err(why) => unresolved.push(why),
            }
        }
    }
    out
}

/// Whether a node is inside a `setRequestHandler(…)` call.
fn in_request_handler(reader: &Reader<'_, '_>, node: SyntaxNode<'_>) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        let handler = n.kind() == "call_expression"
            && n.child_by_field_name("function")
                .and_then(|f| f.child_by_field_name("property"))
                .is_some_and(|p| text_of(p, reader.text) == "setRequestHandler");
        if handler {
            return true;
        }
        at = n.parent();
    }
    false
}

/// The expression around a value, through `as`, `satisfies`, parentheses and `!`.
fn outermost(node: SyntaxNode<'_>) -> SyntaxNode<'_> {
    let mut node = node;
    while let Some(parent) = node.parent() {
        if !matches!(
            parent.kind(),
            "as_expression"
                | "satisfies_expression"
                | "parenthesized_expression"
                | "non_null_expression"
        ) {
            break;
        }
        node = parent;
    }
    node
}

/// `[…] satisfies Tool[]`, `{…} as Tool`, `const tools: Tool[] = […]`, `ToolSchema.parse({…})`, with
/// `Tool` and `ToolSchema` the MCP SDK's.
fn typed_as_sdk_tool(reader: &Reader<'_, '_>, holder: SyntaxNode<'_>) -> bool {
    let is_sdk_tool = |type_node: SyntaxNode<'_>| {
        let written = text_of(type_node, reader.text)
            .trim_start_matches(':')
            .trim()
            .trim_start_matches("readonly ")
            .trim();
        let name = written
            .strip_suffix("[]")
            .or_else(|| {
                written
                    .strip_prefix("Array<")
                    .and_then(|w| w.strip_suffix('>'))
            })
            .or_else(|| {
                written
                    .strip_prefix("ReadonlyArray<")
                    .and_then(|w| w.strip_suffix('>'))
            })
            .unwrap_or(written)
            .trim();
        let head = name.split('.').next().unwrap_or(name);
        reader.scope.imports.get(head).is_some_and(|module| {
            module.starts_with("@modelcontextprotocol/")
                && ((module.ends_with(".Tool") && !name.contains('.')) || name.ends_with(".Tool"))
        })
    };
    let mut node = holder;
    while let Some(parent) = node.parent() {
        match parent.kind() {
            "as_expression" | "satisfies_expression" => {
                if named_children(parent)
                    .get(1)
                    .is_some_and(|t| is_sdk_tool(*t))
                {
                    return true;
                }
            }
            "parenthesized_expression" | "non_null_expression" => {}
            // `ToolSchema.parse({…})`: validated as the SDK's tool.
            "arguments" => {
                let call = parent.parent().filter(|c| c.kind() == "call_expression");
                let function = call.and_then(|c| c.child_by_field_name("function"));
                let parsed = function.is_some_and(|f| {
                    let callee = text_of(f, reader.text);
                    let schema = callee.strip_suffix(".parse").unwrap_or("");
                    let head = schema.split('.').next().unwrap_or(schema);
                    schema.ends_with("ToolSchema")
                        && reader.scope.imports.get(head).is_some_and(|module| {
                            module.starts_with("@modelcontextprotocol/")
                                && (schema.contains('.') || module.ends_with(".ToolSchema"))
                        })
                });
                return parsed && named_children(parent).len() == 1;
            }
            "variable_declarator" => {
                return parent.child_by_field_name("type").is_some_and(is_sdk_tool);
            }
            _ => return false,
        }
        node = parent;
    }
    false
}

/// `tools: […]`, `{ tools }` or `tools: NAME` with `NAME` the constant holding the value.
fn reaches_tools_member(
    reader: &Reader<'_, '_>,
    root: SyntaxNode<'_>,
    holder: SyntaxNode<'_>,
) -> bool {
    let node = outermost(holder);
    let Some(parent) = node.parent() else {
        return false;
    };
    if parent.kind() == "pair" {
        return parent
            .child_by_field_name("key")
            .and_then(|k| reader.key_name(k))
            .is_some_and(|k| k == "tools");
    }
    if parent.kind() != "variable_declarator" {
        return false;
    }
    let Some(name) = parent
        .child_by_field_name("name")
        .map(|n| text_of(n, reader.text))
    else {
        return false;
    };
    let uses = find_all(root, |n| match n.kind() {
        "pair" => {
            n.child_by_field_name("key")
                .and_then(|k| reader.key_name(k))
                .is_some_and(|k| k == "tools")
                && n.child_by_field_name("value")
                    .is_some_and(|v| text_of(v, reader.text) == name)
        }
        "shorthand_property_identifier" => name == "tools" && text_of(n, reader.text) == "tools",
        _ => false,
    });
    !uses.is_empty()
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
