//! Tools declared as one object:
//!
//! - FastMCP (`fastmcp`): `server.addTool({name, description, parameters, annotations, execute})`;
//! - the Vercel AI SDK (`ai`): `tool({description, inputSchema | parameters, execute})`, named by
//!   the key it is the value of (`tools: { weather: tool(…) }`); a `tool(…)` that no key names is
//!   counted as not read, never given a made-up name;
//! - the OpenAI Agents SDK (`@openai/agents`): `tool({name, description, parameters, execute})`.
//!
//! A `tool(…)` imported from elsewhere, or a project's own wrapper of it imported by relative path
//! (`injectableTool(…)` from `./util.js`), is read only when it has the same shape (an `execute`
//! function, a description and a zod `parameters` or `inputSchema`), so an unrelated `tool()`
//! helper gives no tool. The object may be built from spreads of objects of the file (`{
//! ...toolDefs.list_tables, execute }`): their members are read as the spread gives them.

use super::around::Around;
use super::{
    call_arguments, empty_schema, handler_body, handler_calls, read_annotations, unwrap_expression,
    zod, Parts, Reader, SyntaxNode,
};
use crate::parse::code::{
    bool_node, find_all, implied, member, object, span_of, string_node, text_of, CodeDoc,
    Registration, Unresolved,
};

/// The modules whose `tool` is a tool definition whatever its arguments look like.
const TOOL_MODULES: [&str; 4] = [
    "ai",
    "@openai/agents",
    "@openai/agents-core",
    "@openai/agents-openai",
];

#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// `server.addTool({…})`.
    AddTool,
    /// `tool({…})` of a tool module.
    Tool,
    /// `tool({…})` of another module, read by its shape.
    ToolShaped,
}

/// Every object-declared tool of the file, into `doc`.
pub(super) fn object_tools<'t>(
    reader: &Reader<'_, 't>,
    around: &Around<'t>,
    root: SyntaxNode<'t>,
    doc: &mut CodeDoc,
) {
    let mut calls = Vec::new();
    find_all(root, |n| {
        if n.kind() == "call_expression" {
            calls.push(n);
        }
        false
    });
    for call in calls {
        let Some(form) = form_of(reader, call) else {
            continue;
        };
        let outcome = read_call(reader, call, form);
        if let Outcome::Tool(registration) = outcome {
            doc.registrations.push(registration);
            continue;
        }
        // A tool object that is a loop variable or a parameter of a local function.
        let expanded = around.expanded(reader, call, |bound| match read_call(bound, call, form) {
            Outcome::Tool(registration) => Some(Ok(registration)),
            Outcome::Unresolved(unresolved) => Some(Err(unresolved)),
            Outcome::NotATool | Outcome::NotAnObject => None,
        });
        match (expanded.filter(|e| e.iter().any(Result::is_ok)), outcome) {
            (Some(readings), _) => doc.take_all(readings),
            (None, Outcome::Unresolved(unresolved)) => doc.unresolved.push(unresolved),
            _ => {}
        }
    }
}

/// What one call of a tool-defining function amounts to.
enum Outcome {
    Tool(Registration),
    Unresolved(Unresolved),
    /// An object that is not a tool (an unrelated `addTool`, a `tool()` helper).
    NotATool,
    /// The argument is not an object the file spells out.
    NotAnObject,
}

fn read_call<'t>(reader: &Reader<'_, 't>, call: SyntaxNode<'t>, form: Form) -> Outcome {
    let arguments = call_arguments(call);
    let [argument] = arguments.as_slice() else {
        return Outcome::NotATool;
    };
    let Ok(config) = reader.resolve(*argument, 0) else {
        return Outcome::NotAnObject;
    };
    if config.kind() != "object" {
        return Outcome::NotAnObject;
    }
    let has = |key: &str| reader.pair(config, key).is_some();
    let execute = reader
        .pair(config, "execute")
        .is_some_and(|(_, v)| handler_body(reader, v).is_some() || v.kind() == "identifier");
    let shaped = execute
        && ["parameters", "inputSchema"].iter().any(|key| {
            reader
                .pair(config, key)
                .is_some_and(|(_, v)| zod::is_zod(reader, v))
        });
    let is_tool = match form {
        Form::AddTool => has("name") && has("execute"),
        Form::Tool => execute || has("description"),
        Form::ToolShaped => shaped && has("description"),
    };
    if !is_tool {
        return Outcome::NotATool;
    }
    match read(reader, call, config, form) {
        Ok(registration) => Outcome::Tool(registration),
        Err(unresolved) => Outcome::Unresolved(unresolved),
    }
}

fn form_of(reader: &Reader<'_, '_>, call: SyntaxNode<'_>) -> Option<Form> {
    let function = call.child_by_field_name("function")?;
    match function.kind() {
        "member_expression" => {
            let property = function.child_by_field_name("property")?;
            // FastMCP's, in a file that imports it: a task runner's `addTool` is no MCP tool.
            let fastmcp = reader
                .scope
                .imports
                .values()
                .any(|m| m == "fastmcp" || m.starts_with("fastmcp."));
            (fastmcp && text_of(property, reader.text) == "addTool").then_some(Form::AddTool)
        }
        "identifier" => {
            let name = text_of(function, reader.text);
            let module = reader.scope.imports.get(name)?;
            let (module, imported) = module.rsplit_once('.')?;
            // A project's own wrapper of `tool` (`injectableTool` from `./util.js`), read by
            // its shape as any `tool` of another module.
            let wrapper = imported.ends_with("Tool") && module.starts_with('.');
            if imported != "tool" && !wrapper {
                return None;
            }
            // The SDKs' entry points below them too (`@openai/agents/realtime`).
            let tool_module = TOOL_MODULES.iter().any(|m| {
                module == *m || module.strip_prefix(m).is_some_and(|r| r.starts_with('/'))
            });
            Some(if imported == "tool" && tool_module {
                Form::Tool
            } else {
                Form::ToolShaped
            })
        }
        _ => None,
    }
}

/// The name a `tool(…)` gets from the object key it is the value of.
fn key_naming(call: SyntaxNode<'_>) -> Option<SyntaxNode<'_>> {
    let mut node = call;
    while let Some(parent) = node.parent() {
        if matches!(
            parent.kind(),
            "parenthesized_expression" | "as_expression" | "satisfies_expression"
        ) {
            node = parent;
            continue;
        }
        if parent.kind() == "pair" && parent.child_by_field_name("value")?.id() == node.id() {
            return parent.child_by_field_name("key");
        }
        return None;
    }
    None
}

fn read<'t>(
    reader: &Reader<'_, 't>,
    call: SyntaxNode<'t>,
    config: SyntaxNode<'t>,
    form: Form,
) -> Result<Registration, Unresolved> {
    let written_name = reader.pair(config, "name");
    let (name, name_span) = match (written_name, form) {
        (Some((_, value)), _) => reader.string(value, 0).map_err(|why| Unresolved {
            part: "name",
            span: span_of(call),
            why,
        })?,
        (None, Form::AddTool) => {
            return Err(Unresolved {
                part: "name",
                span: span_of(call),
                why: "the tool object has no `name`".into(),
            })
        }
        (None, _) => {
            let key = key_naming(call).ok_or_else(|| Unresolved {
                part: "name",
                span: span_of(call),
                why: "`tool(…)` is not the value of a key that names it".into(),
            })?;
            let name = reader.key_name(key).ok_or_else(|| Unresolved {
                part: "name",
                span: span_of(call),
                why: format!("the key `{}` is computed", text_of(key, reader.text)),
            })?;
            (name, span_of(key))
        }
    };
    let mut parts = Parts::default();
    let mut members = vec![member("name", name_span, string_node(name, name_span))];
    if let Some((key_span, value)) = reader.pair(config, "description") {
        match reader.string(value, 0) {
            Ok((text, span)) => {
                members.push(member("description", key_span, string_node(text, span)))
            }
            Err(why) => parts.unresolved("description", span_of(value), why),
        }
    }
    let schema_value = reader
        .pair(config, "inputSchema")
        .or_else(|| reader.pair(config, "parameters"));
    // A JSON Schema written out (`parameters: {type: "object", properties: …}`, which the
    // Agents SDK takes as it is) rather than built.
    let written_schema = schema_value
        .and_then(|(_, value)| reader.resolve(value, 0).ok())
        .filter(|v| v.kind() == "object" && reader.pair(*v, "type").is_some());
    match (schema_value, written_schema) {
        (Some((_, value)), Some(schema)) => match reader.value(schema, 0) {
            Ok(schema) => members.push(implied("inputSchema", schema)),
            Err(why) => parts.unresolved("inputSchema", span_of(value), why),
        },
        (Some((_, value)), None) => match zod::input_schema(reader, value) {
            Ok(schema) => members.push(implied("inputSchema", schema)),
            Err(why) => parts.unresolved("inputSchema", span_of(value), why),
        },
        // Without parameters the SDKs list an empty object schema.
        (None, _) => members.push(implied("inputSchema", empty_schema(name_span))),
    }
    if let Some((key_span, value)) = reader.pair(config, "annotations") {
        read_annotations(reader, key_span, value, &mut parts);
    }
    // OpenAI Agents: `needsApproval: true`, or a function deciding per call, holds the call for
    // the user's approval.
    if let Some((key_span, value)) = reader.pair(config, "needsApproval") {
        let value = reader.resolve(value, 0).unwrap_or(value);
        let gated =
            value.kind() == "true" || super::is_function(value) && value.kind() != "identifier";
        if gated {
            members.push(member(
                "needsApproval",
                key_span,
                bool_node(true, span_of(value)),
            ));
        }
    }
    members.extend(parts.members);
    if let Some(annotations) = parts.annotations {
        members.push(annotations);
    }
    let handler = reader
        .pair(config, "execute")
        .and_then(|(_, v)| handler_body(reader, unwrap_expression(v)));
    Ok(Registration {
        form: match form {
            Form::AddTool => "addTool",
            _ => "tool(…)",
        },
        entry: object(span_of(call), members),
        built_schema: written_schema.is_none(),
        unresolved: parts.unresolved,
        handler: handler
            .map(|b| handler_calls(reader, b))
            .unwrap_or_default(),
        handler_span: handler.map(span_of),
    })
}
