//! Tools declared as classes of a framework that registers them for the program:
//!
//! - mcp-framework: `class AddTool extends MCPTool { name = "add"; description = "…"; schema =
//!   z.object({…}); async execute(input) {…} }`;
//! - any class that extends a base and carries a tool's whole shape: a string `name` (or `static
//!   toolName`), a string `description`, a zod schema (`schema`, `argsShape`, `inputSchema` or
//!   `parameters`) and the method that runs it (`execute`, `run`, `_call`, `handler`), as
//!   LangChain.js `StructuredTool` subclasses and in-house tool bases write them.
//!
//! The base class, often in another package, may set hints of its own (from an operation type,
//! say): unless the class declares its `annotations`, they are counted as not read, never taken
//! to be absent. An abstract class is a base, not a tool.

use super::{
    empty_schema, handler_calls, read_annotations, text_of, zod, Parts, Reader, SyntaxNode,
};
use crate::parse::code::{
    find_all, implied, member, named_children, object, span_of, string_node, CodeDoc, Registration,
    Unresolved,
};

/// The members that may hold the input schema, in the order they are looked for.
const SCHEMA_MEMBERS: [&str; 4] = ["schema", "inputSchema", "argsShape", "parameters"];
/// How the names of the methods that run a tool begin (`execute`, `executeWithClient`, `run`,
/// `_call`, `handle`).
const RUN_METHODS: [&str; 5] = ["execute", "run", "_call", "handle", "invoke"];

/// Every class-declared tool of the file, into `doc`.
pub(super) fn class_tools<'t>(reader: &Reader<'_, 't>, root: SyntaxNode<'t>, doc: &mut CodeDoc) {
    let classes = find_all(root, |n| matches!(n.kind(), "class_declaration" | "class"));
    for class in classes {
        if let Some(read) = read_class(reader, class) {
            match read {
                Ok(registration) => doc.registrations.push(registration),
                Err(unresolved) => doc.unresolved.push(unresolved),
            }
        }
    }
}

/// A class's members by name: fields' values and methods.
struct Members<'t> {
    fields: Vec<(&'t str, SyntaxNode<'t>, SyntaxNode<'t>)>,
    methods: Vec<(&'t str, SyntaxNode<'t>)>,
}

impl<'t> Members<'t> {
    fn of(reader: &Reader<'_, 't>, body: SyntaxNode<'t>) -> Self {
        let mut members = Members {
            fields: Vec::new(),
            methods: Vec::new(),
        };
        for child in named_children(body) {
            match child.kind() {
                "public_field_definition" | "field_definition" => {
                    let key = child
                        .child_by_field_name("name")
                        .or_else(|| child.child_by_field_name("property"));
                    if let (Some(key), Some(value)) = (key, child.child_by_field_name("value")) {
                        members.fields.push((text_of(key, reader.text), key, value));
                    }
                }
                "method_definition" => {
                    if let Some(name) = child.child_by_field_name("name") {
                        members.methods.push((text_of(name, reader.text), child));
                    }
                }
                _ => {}
            }
        }
        members
    }

    fn field(&self, name: &str) -> Option<(SyntaxNode<'t>, SyntaxNode<'t>)> {
        self.fields
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, key, value)| (*key, *value))
    }
}

fn read_class<'t>(
    reader: &Reader<'_, 't>,
    class: SyntaxNode<'t>,
) -> Option<Result<Registration, Unresolved>> {
    let base = base_name(reader, class)?;
    let body = class.child_by_field_name("body")?;
    let members = Members::of(reader, body);
    let framework = reader
        .scope
        .imports
        .get(base)
        .is_some_and(|module| module == "mcp-framework.MCPTool");
    let (name_key, name_value) = members
        .field("name")
        .or_else(|| members.field("toolName"))?;
    let (description_key, description_value) = members.field("description")?;
    let schema = SCHEMA_MEMBERS.iter().find_map(|m| members.field(m));
    let run = RUN_METHODS
        .iter()
        .find_map(|m| members.methods.iter().find(|(n, _)| n.starts_with(m)))
        .map(|(_, method)| *method);
    if !framework {
        // By its shape only: every part of a tool. A `schema` must be zod's; the members only
        // tools name (`argsShape`, `inputSchema`, `parameters`) may be any object literal, whose
        // values are often the project's helpers returning schemas.
        let schema_shaped = SCHEMA_MEMBERS.iter().any(|m| {
            members.field(m).is_some_and(|(_, value)| {
                zod_like(reader, value)
                    || (*m != "schema"
                        && reader.resolve(value, 0).is_ok_and(|v| v.kind() == "object"))
            })
        });
        if run.is_none() || !schema_shaped {
            return None;
        }
    }
    let (name, name_span) = match reader.string(name_value, 0) {
        Ok(read) => read,
        Err(why) => {
            return Some(Err(Unresolved {
                part: "name",
                span: span_of(name_key),
                why,
            }))
        }
    };
    let mut parts = Parts::default();
    let mut members_out = vec![member("name", name_span, string_node(name, name_span))];
    match reader.string(description_value, 0) {
        Ok((text, span)) => members_out.push(member(
            "description",
            span_of(description_key),
            string_node(text, span),
        )),
        Err(why) => parts.unresolved("description", span_of(description_value), why),
    }
    match schema {
        Some((_, value)) => match zod::input_schema(reader, value) {
            Ok(schema) => members_out.push(implied("inputSchema", schema)),
            Err(why) => parts.unresolved("inputSchema", span_of(value), why),
        },
        None => members_out.push(implied("inputSchema", empty_schema(name_span))),
    }
    match members.field("annotations") {
        Some((key, value)) => read_annotations(reader, span_of(key), value, &mut parts),
        None if !framework => parts.unresolved(
            "annotations",
            span_of(class),
            format!("the base class `{base}` may set hints of its own"),
        ),
        None => {}
    }
    members_out.extend(parts.members);
    if let Some(annotations) = parts.annotations {
        members_out.push(annotations);
    }
    let handler = run.and_then(|m| m.child_by_field_name("body"));
    Some(Ok(Registration {
        form: if framework {
            "MCPTool class"
        } else {
            "tool class"
        },
        entry: object(span_of(class), members_out),
        built_schema: true,
        unresolved: parts.unresolved,
        handler: handler
            .map(|b| handler_calls(reader, b))
            .unwrap_or_default(),
        handler_span: handler.map(span_of),
    }))
}

/// A zod schema, or an object of members at least one of which is one (the others may be the
/// project's helpers returning schemas), or an empty object.
fn zod_like<'t>(reader: &Reader<'_, 't>, value: SyntaxNode<'t>) -> bool {
    if zod::is_zod(reader, value) {
        return true;
    }
    let Ok(object) = reader.resolve(value, 0) else {
        return false;
    };
    object.kind() == "object"
        && reader.members(object).is_ok_and(|members| {
            members.is_empty() || members.iter().any(|(_, _, v)| zod::is_zod(reader, *v))
        })
}

/// The class it extends, by the name written (`MCPTool`, `AtlasToolBase`).
fn base_name<'t>(reader: &Reader<'_, 't>, class: SyntaxNode<'t>) -> Option<&'t str> {
    let heritage = named_children(class)
        .into_iter()
        .find(|c| c.kind() == "class_heritage")?;
    let value = named_children(heritage)
        .into_iter()
        .find_map(|c| match c.kind() {
            "extends_clause" => c.child_by_field_name("value"),
            "identifier" | "member_expression" => Some(c),
            _ => None,
        })?;
    Some(text_of(value, reader.text))
}
