//! The agent frameworks' other ways of making a tool, each in a file that imports the framework:
//!
//! - OpenAI Agents (`agents`): `agent.as_tool(tool_name=…, tool_description=…)`, an agent the
//!   model calls with one `input` string; `FunctionTool(name=…, description=…,
//!   params_json_schema=…, on_invoke_tool=…)`;
//! - LangChain (`langchain*`): `StructuredTool.from_function(func=fn, name=…, description=…)`
//!   (and `Tool.from_function`), read as `@tool` reads the function; a `BaseTool` subclass with
//!   `name`, `description` and `args_schema` (a pydantic model of the file) class attributes, its
//!   `_run` the handler.

use super::{
    function_tool, handler_calls, hints, member, object, span_of, string_node, text_of,
    FunctionTool, Read, Reader, Registration, SyntaxNode, Unresolved,
};
use crate::parse::code::{agent_input_schema, implied, named_children};
use crate::parse::node::Value;

/// Whether the file imports a module of `prefix` (`agents`, `langchain`).
fn imports(reader: &Reader<'_, '_>, prefix: &str) -> bool {
    reader.scope.imports.values().any(|m| {
        m == prefix || m.starts_with(&format!("{prefix}.")) || m.starts_with(&format!("{prefix}_"))
    })
}

/// The tool a call makes, when it is one of the call forms above.
pub(super) fn tool_call<'t>(reader: &Reader<'_, 't>, call: SyntaxNode<'t>) -> Read {
    let function = call.child_by_field_name("function")?;
    let callee = text_of(function, reader.text);
    let method = callee.rsplit('.').next().unwrap_or(callee);
    match method {
        "as_tool" if function.kind() == "attribute" && imports(reader, "agents") => {
            agent_as_tool(reader, call)
        }
        "FunctionTool" if imports(reader, "agents") => function_tool_object(reader, call),
        "from_function"
            if matches!(
                callee,
                "StructuredTool.from_function" | "Tool.from_function"
            ) && imports(reader, "langchain") =>
        {
            from_function(reader, call)
        }
        _ => None,
    }
}

/// `agent.as_tool(tool_name="translate", tool_description="…")`.
fn agent_as_tool<'t>(reader: &Reader<'_, 't>, call: SyntaxNode<'t>) -> Read {
    if reader.keyword(call, "tool_name").is_none() {
        return Some(Err(Unresolved {
            part: "name",
            span: span_of(call),
            why: "`as_tool` without `tool_name` is named after the agent at run time".into(),
        }));
    }
    let read = super::keyword_tool(
        reader,
        call,
        ["tool_name", "tool_description", ""],
        "as_tool",
    );
    read.map(|read| {
        read.map(|mut registration| {
            // The SDK runs the agent on one string, strictly.
            let schema = agent_input_schema(span_of(call));
            if let Value::Object(members) = &mut registration.entry.value {
                members.push(implied("inputSchema", schema));
            }
            registration
        })
    })
}

/// `FunctionTool(name=…, description=…, params_json_schema=…, on_invoke_tool=…)`.
fn function_tool_object<'t>(reader: &Reader<'_, 't>, call: SyntaxNode<'t>) -> Read {
    reader.keyword(call, "on_invoke_tool")?;
    super::keyword_tool(
        reader,
        call,
        ["name", "description", "params_json_schema"],
        "FunctionTool(…)",
    )
}

/// `StructuredTool.from_function(func=search, name="search", description="…")`.
fn from_function<'t>(reader: &Reader<'_, 't>, call: SyntaxNode<'t>) -> Read {
    let function_argument = reader.keyword(call, "func").map(|(_, v)| v).or_else(|| {
        call.child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
            .filter(|a| a.kind() != "keyword_argument")
    })?;
    let function = super::calls::function_of(reader, call, function_argument)?;
    function_tool(
        reader,
        FunctionTool {
            entry: call,
            anchor: call,
            function,
            call: Some(call),
            positional_name: None,
            form: "from_function",
        },
    )
}

/// A LangChain `BaseTool` subclass: `name`, `description` and `args_schema` class attributes.
pub(super) fn tool_class<'t>(reader: &Reader<'_, 't>, class: SyntaxNode<'t>) -> Read {
    if !imports(reader, "langchain") {
        return None;
    }
    let bases = class.child_by_field_name("superclasses")?;
    let is_tool = named_children(bases)
        .iter()
        .any(|b| matches!(text_of(*b, reader.text), "BaseTool" | "StructuredTool"));
    if !is_tool {
        return None;
    }
    let class_name = text_of(class.child_by_field_name("name")?, reader.text);
    let attribute = |key: &str| {
        reader
            .scope
            .values
            .get(&format!("{class_name}.{key}"))
            .copied()
            .flatten()
    };
    let name_value = attribute("name")?;
    let (name, name_span) = match reader.string(name_value, 0) {
        Ok(read) => read,
        Err(why) => {
            return Some(Err(Unresolved {
                part: "name",
                span: span_of(class),
                why,
            }))
        }
    };
    if name.is_empty() {
        // A generic tool class whose instances are named where they are made.
        return Some(Err(Unresolved {
            part: "name",
            span: span_of(class),
            why: format!("`{class_name}.name` is empty: each instance is named where it is made"),
        }));
    }
    let mut members = vec![member("name", name_span, string_node(name, name_span))];
    let mut unresolved = Vec::new();
    if let Some(value) = attribute("description") {
        match reader.text(value, 0) {
            Ok((text, span)) => members.push(member("description", span, string_node(text, span))),
            Err(why) => unresolved.push(Unresolved {
                part: "description",
                span: span_of(value),
                why,
            }),
        }
    }
    let mut built = false;
    if let Some(value) = attribute("args_schema").filter(|v| text_of(*v, reader.text) != "None") {
        match hints::class_schema(reader, value) {
            Ok(schema) => {
                built = true;
                members.push(implied("inputSchema", schema));
            }
            Err(why) => unresolved.push(Unresolved {
                part: "inputSchema",
                span: span_of(value),
                why,
            }),
        }
    }
    let run = class.child_by_field_name("body").and_then(|body| {
        named_children(body).into_iter().find(|f| {
            f.kind() == "function_definition"
                && f.child_by_field_name("name")
                    .is_some_and(|n| matches!(text_of(n, reader.text), "_run" | "_arun"))
        })
    });
    let body = run.and_then(|f| f.child_by_field_name("body"));
    Some(Ok(Box::new(Registration {
        form: "BaseTool class",
        entry: object(span_of(class), members),
        built_schema: built,
        unresolved,
        handler: body.map(|b| handler_calls(reader, b)).unwrap_or_default(),
        handler_span: body.map(span_of),
    })))
}
