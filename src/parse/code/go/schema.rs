//! The tool entries of the Go forms: mcp-go's `NewTool` options, `Tool{…}` literals with their
//! `jsonschema.Schema` / `ToolInputSchema` literals, and the schema the go-sdk's `AddTool` infers
//! from an input struct's `json` and `jsonschema` tags.

use super::{arguments, callee_name, entry, keyed, string_member, Read, Reader, SyntaxNode};
use crate::parse::code::{
    bool_node, computed, implied, member, named_children, number_node, object, span_of,
    string_node, text_of, typed, Registration, Unresolved, MAX_DEPTH,
};
use crate::parse::node::{Member, Node, Value};
use crate::source::Span;

/// mcp-go's one-hint options and the hint each sets.
pub(super) fn hint_option(name: &str) -> Option<&'static str> {
    Some(match name {
        "WithReadOnlyHintAnnotation" => "readOnlyHint",
        "WithDestructiveHintAnnotation" => "destructiveHint",
        "WithIdempotentHintAnnotation" => "idempotentHint",
        "WithOpenWorldHintAnnotation" => "openWorldHint",
        _ => return None,
    })
}

/// The JSON type of mcp-go's property options.
fn property_type(name: &str) -> Option<&'static str> {
    Some(match name {
        "WithString" => "string",
        "WithNumber" => "number",
        "WithInteger" => "integer",
        "WithBoolean" => "boolean",
        "WithArray" => "array",
        "WithObject" => "object",
        _ => return None,
    })
}

/// Whether a call is an option of the mcp-go package (`mcp.WithString`), as opposed to a helper
/// of the program (`WithPagination()`) whose effect on the schema is not read.
pub(super) fn from_sdk(reader: &Reader<'_, '_>, call: SyntaxNode<'_>) -> bool {
    call.child_by_field_name("function")
        .filter(|f| f.kind() == "selector_expression")
        .and_then(|f| f.child_by_field_name("operand"))
        .and_then(|o| reader.scope.imports.get(text_of(o, reader.text)))
        .is_some_and(|path| path.ends_with("mcp-go/mcp") || path.ends_with("/mcp"))
}

/// `mcp.NewTool("name", options…)`.
pub(super) fn new_tool(reader: &Reader<'_, '_>, call: SyntaxNode<'_>) -> Read {
    let arguments = arguments(call);
    let (name_value, options) = arguments.split_first()?;
    tool_from_parts(
        reader,
        call,
        Parts {
            name: *name_value,
            description: None,
            options,
            sdk_hints: true,
            form: "mcp.NewTool",
            schema: None,
        },
    )
}

/// What a registration built from mcp-go's options is made of: `mcp.NewTool`'s arguments, or a
/// project function's that forwards them (a [`crate::parse::code::Wrapper`]).
pub(super) struct Parts<'a, 't> {
    pub name: SyntaxNode<'t>,
    /// A description passed as a value of its own (a wrapper's `description` parameter), read
    /// as `mcp.WithDescription` would read it.
    pub description: Option<SyntaxNode<'t>>,
    pub options: &'a [SyntaxNode<'t>],
    /// Whether the tool starts with `NewTool`'s hints (a wrapper that fills a `mcp.Tool{}`
    /// literal sends only the hints its options set).
    pub sdk_hints: bool,
    pub form: &'static str,
    /// The input schema when it comes from elsewhere than the options (a wrapper that reflects
    /// its handler's input struct): read, or why not.
    pub schema: Option<Result<Node, String>>,
}

/// A registration from mcp-go's options (see [`Parts`]).
pub(super) fn tool_from_parts(
    reader: &Reader<'_, '_>,
    call: SyntaxNode<'_>,
    parts: Parts<'_, '_>,
) -> Read {
    let callee = call.child_by_field_name("function")?;
    let (name, name_span) = match reader.string(parts.name, 0) {
        Ok(n) => n,
        Err(why) => {
            return Some(Err(Unresolved {
                part: "name",
                span: span_of(call),
                why,
            }))
        }
    };
    let implied_at = span_of(callee);
    let mut members = vec![member("name", name_span, string_node(name, name_span))];
    let mut unresolved = Vec::new();
    // The hints every `mcp.NewTool` starts with, whatever the source says, as the module's
    // mcp-go version sends them.
    let mut hints: Vec<Member> = if parts.sdk_hints {
        reader
            .hints
            .defaults()
            .iter()
            .map(|(key, value)| implied(key, bool_node(*value, implied_at)))
            .collect()
    } else {
        Vec::new()
    };
    if let Some(value) = parts.description {
        match string_member(reader, "description", span_of(value), value) {
            Ok(m) => members.push(m),
            Err(why) => unresolved.push(Unresolved {
                part: "description",
                span: span_of(value),
                why,
            }),
        }
    }
    let mut properties = Vec::new();
    let mut required = Vec::new();
    let mut schema_unread: Option<Unresolved> = None;
    for option in parts.options.iter().copied() {
        let option_name = match option.kind() {
            "call_expression" => callee_name(option, reader.text).unwrap_or(""),
            _ => "",
        };
        let from_sdk = option.kind() == "call_expression" && from_sdk(reader, option);
        let option_arguments = super::arguments(option);
        match option_name {
            "WithDescription" if from_sdk => {
                if let Some(value) = option_arguments.first() {
                    match string_member(reader, "description", span_of(option), *value) {
                        Ok(m) => members.push(m),
                        Err(why) => unresolved.push(Unresolved {
                            part: "description",
                            span: span_of(*value),
                            why,
                        }),
                    }
                }
            }
            "WithTitleAnnotation" if from_sdk => {
                if let Some(value) = option_arguments.first() {
                    match string_member(reader, "title", span_of(option), *value) {
                        Ok(m) => set_member(&mut hints, m),
                        Err(why) => unresolved.push(Unresolved {
                            part: "annotations",
                            span: span_of(*value),
                            why: format!("`title`: {why}"),
                        }),
                    }
                }
            }
            "WithToolAnnotation" if from_sdk => {
                if let Some(literal) = option_arguments.first() {
                    match annotations_literal(reader, *literal) {
                        Ok(read) => hints = read,
                        Err(why) => unresolved.push(Unresolved {
                            part: "annotations",
                            span: span_of(*literal),
                            why,
                        }),
                    }
                }
            }
            _ if from_sdk && hint_option(option_name).is_some() => {
                let key = hint_option(option_name).unwrap_or_default();
                match option_arguments.first().map(|v| reader.boolean(*v)) {
                    Some(Ok(value)) => set_member(&mut hints, member(key, span_of(option), value)),
                    Some(Err(why)) => unresolved.push(Unresolved {
                        part: "annotations",
                        span: span_of(option),
                        why: format!("`{key}`: {why}"),
                    }),
                    None => {}
                }
            }
            _ if from_sdk && property_type(option_name).is_some() => {
                let kind = property_type(option_name).unwrap_or_default();
                match property(reader, option, kind, &mut required) {
                    Ok(p) => {
                        properties.retain(|m: &Member| m.key != p.key);
                        properties.push(p);
                    }
                    Err(why) => {
                        schema_unread.get_or_insert(Unresolved {
                            part: "inputSchema",
                            span: span_of(option),
                            why,
                        });
                    }
                }
            }
            "WithInputSchema" | "WithRawInputSchema" if from_sdk => {
                schema_unread.get_or_insert(Unresolved {
                    part: "inputSchema",
                    span: span_of(option),
                    why: format!("`{option_name}` builds the schema from a Go type at run time"),
                });
            }
            // Other options of the SDK (`WithOutputSchema`, `WithTitle`…) leave the input schema
            // and hints alone.
            _ if from_sdk => {}
            _ => {
                schema_unread.get_or_insert(Unresolved {
                    part: "inputSchema",
                    span: span_of(option),
                    why: computed(option, reader.text),
                });
            }
        }
    }
    // `destructiveHint` means something only when `readOnlyHint` is false (the MCP schema): the
    // default is not read against a read-only declaration the source makes.
    let read_only = hints
        .iter()
        .any(|m| m.key == "readOnlyHint" && matches!(m.value.value, Value::Bool(true)));
    if read_only {
        hints.retain(|m| !(m.key == "destructiveHint" && m.key_span == implied_at));
    }
    match (schema_unread, parts.schema) {
        (Some(why), _) => unresolved.push(why),
        // Options that add properties win over the reflected input (both are set on the tool,
        // the options last).
        (None, Some(schema)) if properties.is_empty() => match schema {
            Ok(schema) => members.push(implied("inputSchema", schema)),
            Err(why) => unresolved.push(Unresolved {
                part: "inputSchema",
                span: span_of(call),
                why,
            }),
        },
        (None, _) => {
            let mut schema = vec![implied("type", string_node("object".into(), implied_at))];
            schema.push(implied("properties", object(implied_at, properties)));
            if !required.is_empty() {
                schema.push(implied(
                    "required",
                    Node::new(implied_at, Value::Array(required)),
                ));
            }
            members.push(implied("inputSchema", object(implied_at, schema)));
        }
    }
    if (parts.sdk_hints && reader.hints != crate::parse::code::NewToolHints::None)
        || !hints.is_empty()
    {
        members.push(implied("annotations", object(implied_at, hints)));
    }
    Some(Ok(Box::new(Registration {
        form: parts.form,
        entry: entry(span_of(call), members),
        built_schema: true,
        unresolved,
        handler: Vec::new(),
        handler_span: None,
    })))
}

/// Replaces a member of the same key, or adds it.
fn set_member(members: &mut Vec<Member>, new: Member) {
    members.retain(|m| m.key != new.key);
    members.push(new);
}

/// `mcp.WithString("path", mcp.Required(), mcp.Description("…"), mcp.Enum("a", "b"))`.
fn property(
    reader: &Reader<'_, '_>,
    option: SyntaxNode<'_>,
    kind: &str,
    required: &mut Vec<Node>,
) -> Result<Member, String> {
    let arguments = arguments(option);
    let name = arguments
        .first()
        .ok_or_else(|| "a property without a name".to_string())?;
    let (name, name_span) = reader.string(*name, 0)?;
    let mut schema = typed(kind, span_of(option));
    for property_option in arguments.iter().skip(1).copied() {
        if property_option.kind() != "call_expression" || !from_sdk(reader, property_option) {
            return Err(computed(property_option, reader.text));
        }
        let values = super::arguments(property_option);
        let first = values.first().copied();
        let key = match callee_name(property_option, reader.text).unwrap_or("") {
            "Required" => {
                required.push(string_node(name.clone(), span_of(property_option)));
                continue;
            }
            "Description" => "description",
            "Title" => "title",
            "Pattern" => "pattern",
            "Enum" => {
                let mut items = Vec::new();
                for value in &values {
                    let (s, span) = reader.string(*value, 0)?;
                    items.push(string_node(s, span));
                }
                super::super::set(
                    &mut schema,
                    "enum",
                    Node::new(span_of(property_option), Value::Array(items)),
                );
                continue;
            }
            "DefaultString" | "DefaultNumber" | "DefaultBool" => "default",
            "Min" => "minimum",
            "Max" => "maximum",
            "MinLength" => "minLength",
            "MaxLength" => "maxLength",
            "MinItems" => "minItems",
            "MaxItems" => "maxItems",
            "Items" => "items",
            "WithStringItems" | "WithNumberItems" | "WithBooleanItems" => {
                let item = match callee_name(property_option, reader.text) {
                    Some("WithNumberItems") => "number",
                    Some("WithBooleanItems") => "boolean",
                    _ => "string",
                };
                super::super::set(&mut schema, "items", typed(item, span_of(property_option)));
                continue;
            }
            _ => continue,
        };
        let Some(value) = first else {
            continue;
        };
        let read = match key {
            "description" | "title" | "pattern" => reader
                .string(value, 0)
                .map(|(s, span)| string_node(s, span)),
            _ => literal(reader, value, 0),
        };
        // A description that is not read leaves the rest of the property read.
        match read {
            Ok(node) => super::super::set(&mut schema, key, node),
            Err(_) if key == "description" => {}
            Err(why) => return Err(why),
        }
    }
    Ok(member(&name, name_span, schema))
}

/// `mcp.ToolAnnotation{Title: …, ReadOnlyHint: mcp.ToBoolPtr(true), …}` (mcp-go) or
/// `mcp.ToolAnnotations{…}` (go-sdk): the hints given, no others.
fn annotations_literal(
    reader: &Reader<'_, '_>,
    literal: SyntaxNode<'_>,
) -> Result<Vec<Member>, String> {
    let literal = strip_address(literal);
    if literal.kind() != "composite_literal" {
        return Err(computed(literal, reader.text));
    }
    let mut out = Vec::new();
    for (key, key_span, value) in keyed(literal, reader.text) {
        let json_key = json_name(key);
        let read = if json_key == "title" {
            reader
                .string(value, 0)
                .map(|(s, span)| string_node(s, span))
        } else {
            reader.boolean(value)
        };
        match read {
            Ok(node) => out.push(member(&json_key, key_span, node)),
            // A nil hint is no hint.
            Err(_) if value.kind() == "nil" => {}
            Err(why) => return Err(format!("`{json_key}`: {why}")),
        }
    }
    Ok(out)
}

/// `&x` is `x`.
fn strip_address(node: SyntaxNode<'_>) -> SyntaxNode<'_> {
    if node.kind() == "unary_expression"
        && node
            .child_by_field_name("operator")
            .is_some_and(|o| o.kind() == "&")
    {
        if let Some(operand) = node.child_by_field_name("operand") {
            return operand;
        }
    }
    node
}

/// A Go field name as its JSON key: `ReadOnlyHint` → `readOnlyHint`, `Ref` → `$ref`.
fn json_name(field: &str) -> String {
    match field {
        "Ref" => return "$ref".into(),
        "Schema" => return "$schema".into(),
        "ID" => return "$id".into(),
        "Defs" => return "$defs".into(),
        _ => {}
    }
    let mut chars = field.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// A `Tool{Name: …, Description: …, Annotations: …, InputSchema: …}` literal of either SDK, or
/// of a server's own `Tool` type of the same shape.
pub(super) fn tool_literal(reader: &Reader<'_, '_>, literal: SyntaxNode<'_>) -> Read {
    let kind = literal.child_by_field_name("type")?;
    let type_name = match kind.kind() {
        "qualified_type" => kind
            .child_by_field_name("name")
            .map(|n| text_of(n, reader.text)),
        _ => None,
    };
    if type_name != Some("Tool") {
        return None;
    }
    let fields = keyed(literal, reader.text);
    let field = |name: &str| fields.iter().find(|(k, _, _)| *k == name).copied();
    let (_, _, name_value) = field("Name")?;
    if field("Description").is_none() && field("InputSchema").is_none() {
        return None;
    }
    let (name, name_span) = match reader.string(name_value, 0) {
        Ok(n) => n,
        Err(why) => {
            return Some(Err(Unresolved {
                part: "name",
                span: span_of(literal),
                why,
            }))
        }
    };
    let mut members = vec![member("name", name_span, string_node(name, name_span))];
    let mut unresolved = Vec::new();
    for (go, json) in [("Title", "title"), ("Description", "description")] {
        if let Some((_, key_span, value)) = field(go) {
            match string_member(reader, json, key_span, value) {
                Ok(m) => members.push(m),
                Err(why) => unresolved.push(Unresolved {
                    part: if json == "title" {
                        "title"
                    } else {
                        "description"
                    },
                    span: span_of(value),
                    why,
                }),
            }
        }
    }
    let mut built = false;
    match field("InputSchema") {
        Some((_, key_span, value)) => match literal_value(reader, value, 0) {
            Ok(schema) => members.push(member("inputSchema", key_span, schema)),
            Err(why) => unresolved.push(Unresolved {
                part: "inputSchema",
                span: span_of(value),
                why,
            }),
        },
        // `mcp.AddTool(server, &mcp.Tool{…}, handler)` infers it from the handler's input type.
        None => match inferred_schema(reader, literal) {
            Some(Ok(schema)) => {
                built = true;
                members.push(implied("inputSchema", schema));
            }
            Some(Err(why)) => unresolved.push(Unresolved {
                part: "inputSchema",
                span: span_of(literal),
                why,
            }),
            None => {}
        },
    }
    if let Some((_, key_span, value)) = field("Annotations") {
        match annotations_literal(reader, value) {
            Ok(mut read) => {
                // The go-sdk's `ToolAnnotations` writes its two plain `bool` hints always.
                if go_sdk_type(reader, strip_address(value)) {
                    for key in ["readOnlyHint", "idempotentHint"] {
                        if !read.iter().any(|m| m.key == key) {
                            read.push(implied(key, bool_node(false, span_of(value))));
                        }
                    }
                }
                members.push(member(
                    "annotations",
                    key_span,
                    object(span_of(value), read),
                ))
            }
            Err(_) if value.kind() == "nil" => {}
            Err(why) => unresolved.push(Unresolved {
                part: "annotations",
                span: span_of(value),
                why,
            }),
        }
    }
    Some(Ok(Box::new(Registration {
        form: "mcp.Tool{…}",
        entry: entry(span_of(literal), members),
        built_schema: built,
        unresolved,
        handler: Vec::new(),
        handler_span: None,
    })))
}

/// A literal value as JSON: strings, numbers, booleans, `nil`, slices, maps with string keys,
/// struct literals (`jsonschema.Schema{Type: …}`) with their fields as JSON keys, pointers to
/// any of them, constants followed.
fn literal_value(
    reader: &Reader<'_, '_>,
    node: SyntaxNode<'_>,
    depth: usize,
) -> Result<Node, String> {
    literal(reader, node, depth)
}

fn literal(reader: &Reader<'_, '_>, node: SyntaxNode<'_>, depth: usize) -> Result<Node, String> {
    if depth > MAX_DEPTH {
        return Err("nested too deeply".into());
    }
    let node = strip_address(reader.resolve(node)?);
    let span = span_of(node);
    match node.kind() {
        "true" | "false" | "call_expression" if reader.boolean(node).is_ok() => {
            reader.boolean(node)
        }
        "nil" => Ok(Node::new(span, Value::Null)),
        "int_literal" | "float_literal" => {
            number_node(text_of(node, reader.text), span).ok_or_else(|| computed(node, reader.text))
        }
        "unary_expression" if text_of(node, reader.text).starts_with('-') => {
            number_node(&text_of(node, reader.text).replace(' ', ""), span)
                .ok_or_else(|| computed(node, reader.text))
        }
        "call_expression" if reader.string(node, depth + 1).is_ok() => reader
            .string(node, depth + 1)
            .map(|(value, span)| string_node(value, span)),
        "call_expression" if callee_name(node, reader.text) == Some("RawMessage") => {
            // `json.RawMessage(`{"type":"string"}`)`: JSON text, read as JSON.
            let arguments = arguments(node);
            let [only] = arguments.as_slice() else {
                return Err(computed(node, reader.text));
            };
            let (raw, raw_span) = reader.string(*only, depth + 1)?;
            let value: serde_json::Value =
                serde_json::from_str(&raw).map_err(|_| computed(node, reader.text))?;
            Ok(from_json(&value, raw_span))
        }
        "call_expression" => {
            // `jsonschema.Ptr(1.0)`, `float64(3)`: the one argument.
            let callee = callee_name(node, reader.text).unwrap_or("");
            let passes = callee.ends_with("Ptr")
                || callee == "To"
                || matches!(callee, "float64" | "int" | "int64" | "string");
            match arguments(node).as_slice() {
                [only] if passes => literal(reader, *only, depth + 1),
                _ => Err(computed(node, reader.text)),
            }
        }
        "composite_literal" | "literal_value" => {
            let body = if node.kind() == "literal_value" {
                node
            } else {
                node.child_by_field_name("body")
                    .ok_or_else(|| computed(node, reader.text))?
            };
            let map = node
                .child_by_field_name("type")
                .is_some_and(|t| t.kind() == "map_type");
            let elements: Vec<SyntaxNode<'_>> = named_children(body)
                .into_iter()
                .filter(|e| e.kind() != "comment")
                .collect();
            let keyed_body = elements.iter().any(|e| e.kind() == "keyed_element");
            if !keyed_body {
                let mut items = Vec::new();
                for element in elements {
                    let element = match element.kind() {
                        "literal_element" => element.named_child(0).unwrap_or(element),
                        _ => element,
                    };
                    items.push(literal(reader, element, depth + 1)?);
                }
                // An empty struct literal (`jsonschema.Schema{}`) is an empty object.
                let struct_type = node
                    .child_by_field_name("type")
                    .is_some_and(|t| matches!(t.kind(), "qualified_type" | "type_identifier"));
                if items.is_empty() && (struct_type || map) {
                    return Ok(object(span, Vec::new()));
                }
                return Ok(Node::new(span, Value::Array(items)));
            }
            let mut members = Vec::new();
            for element in elements {
                let (Some(key), Some(value)) = (element.named_child(0), element.named_child(1))
                else {
                    return Err(computed(element, reader.text));
                };
                let key = match key.kind() {
                    "literal_element" => key.named_child(0).unwrap_or(key),
                    _ => key,
                };
                let value = match value.kind() {
                    "literal_element" => value.named_child(0).unwrap_or(value),
                    _ => value,
                };
                let (key_text, key_span) = if key.kind() == "identifier" && !map {
                    (json_name(text_of(key, reader.text)), span_of(key))
                } else {
                    reader.string(key, depth + 1)?
                };
                members.push(member(
                    &key_text,
                    key_span,
                    literal(reader, value, depth + 1)?,
                ));
            }
            Ok(object(span, members))
        }
        _ => reader
            .string(node, depth + 1)
            .map(|(value, span)| string_node(value, span)),
    }
}

/// The schema the go-sdk's `mcp.AddTool(server, &mcp.Tool{…}, handler)` infers from the
/// handler's input type (its third parameter), when that type is a struct of this file; `None`
/// when the literal is not registered that way.
fn inferred_schema(
    reader: &Reader<'_, '_>,
    literal: SyntaxNode<'_>,
) -> Option<Result<Node, String>> {
    let mut at = literal;
    if at.parent().is_some_and(|p| p.kind() == "unary_expression") {
        at = at.parent()?;
    }
    let list = at.parent().filter(|p| p.kind() == "argument_list")?;
    let call = list.parent()?;
    if callee_name(call, reader.text) != Some("AddTool") {
        return None;
    }
    let arguments = arguments(call);
    let position = arguments.iter().position(|a| a.id() == at.id())?;
    let handler = arguments.get(position + 1)?;
    // The go-sdk's typed handler is `func(ctx, *CallToolRequest, In) (…)`.
    handler_input_schema(reader, *handler, Some(2))
}

/// The schema reflected from the input struct of a handler: the parameter at `position` (the
/// last one for `None`) of the function literal, or of the function of this file or package
/// `handler` names (read in another file, its spans point at `handler`).
pub(super) fn handler_input_schema(
    reader: &Reader<'_, '_>,
    handler: SyntaxNode<'_>,
    position: Option<usize>,
) -> Option<Result<Node, String>> {
    let function = match handler.kind() {
        "func_literal" => Some(handler),
        "identifier" => reader
            .scope
            .functions
            .get(text_of(handler, reader.text))
            .copied(),
        _ => None,
    };
    if let Some(function) = function {
        return input_of(reader, function, position);
    }
    let not_found = || {
        Some(Err(format!(
            "the input type of `{}` is not in {}",
            text_of(handler, reader.text),
            reader.looked_in()
        )))
    };
    if handler.kind() != "identifier" {
        return not_found();
    }
    let name = text_of(handler, reader.text);
    let at = span_of(handler);
    let found = reader.in_package(
        name,
        |scope| scope.functions.contains_key(name),
        |sibling| {
            let function = *sibling.scope.functions.get(name)?;
            input_of(sibling, function, position)
        },
    );
    match found {
        Some(Some(read)) => Some(read.map(|mut schema| {
            crate::parse::code::respan(&mut schema, at);
            schema
        })),
        Some(None) => None,
        None => not_found(),
    }
}

/// The schema of the input struct a handler function takes (see [`handler_input_schema`]); the
/// struct may be declared in another file of the package.
fn input_of(
    reader: &Reader<'_, '_>,
    function: SyntaxNode<'_>,
    position: Option<usize>,
) -> Option<Result<Node, String>> {
    let parameters = function.child_by_field_name("parameters")?;
    let declarations: Vec<SyntaxNode<'_>> = named_children(parameters)
        .into_iter()
        .filter(|p| p.kind() == "parameter_declaration")
        .collect();
    let declaration = match position {
        Some(position) => declarations.get(position)?,
        None => declarations.last()?,
    };
    let input = declaration.child_by_field_name("type")?;
    let type_name = text_of(input, reader.text).trim_start_matches('*');
    if type_name == "any" || type_name == "map[string]any" {
        return Some(Err("the input is untyped (`any`)".into()));
    }
    let is_struct = |scope: &super::Scope<'_>| {
        scope
            .types
            .get(type_name)
            .is_some_and(|t| t.kind() == "struct_type")
    };
    if is_struct(reader.scope) {
        let struct_type = *reader.scope.types.get(type_name)?;
        return Some(Ok(struct_schema(reader, struct_type, span_of(input))));
    }
    let at = span_of(input);
    let elsewhere = reader.in_package(type_name, is_struct, |sibling| {
        let struct_type = *sibling.scope.types.get(type_name)?;
        let mut schema = struct_schema(sibling, struct_type, at);
        crate::parse::code::respan(&mut schema, at);
        Some(schema)
    });
    match elsewhere {
        Some(Some(schema)) => Some(Ok(schema)),
        _ => Some(Err(format!(
            "`{type_name}` is not a struct of {}",
            reader.looked_in()
        ))),
    }
}

/// A struct's fields as the reflecting schema libraries see them: the `json` name (`-` left
/// out); the `jsonschema` tag as the go-sdk reads it (the description) or as invopop/jsonschema
/// does (`description=…,enum=…,required`); required unless `omitempty`/`omitzero`, or, when any
/// field is tagged `required`, exactly those.
pub(super) fn struct_schema(
    reader: &Reader<'_, '_>,
    struct_type: SyntaxNode<'_>,
    span: Span,
) -> Node {
    let mut read = Vec::new();
    let mut properties = Vec::new();
    let mut required = Vec::new();
    let mut fields = Vec::new();
    crate::parse::code::find_all(struct_type, |n| {
        if n.kind() == "field_declaration" {
            fields.push(n);
            return true;
        }
        false
    });
    for field in fields {
        let Some(name) = field.child_by_field_name("name") else {
            continue;
        };
        let go_name = text_of(name, reader.text);
        if !go_name.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        let tag = field
            .child_by_field_name("tag")
            .map(|t| {
                let raw = text_of(t, reader.text);
                let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
                if raw.starts_with('"') {
                    crate::parse::code::unescape(inner)
                } else {
                    inner.to_string()
                }
            })
            .unwrap_or_default();
        let json = tag_value(&tag, "json");
        let mut parts = json.as_deref().unwrap_or("").split(',');
        let json_key = match parts.next() {
            Some("-") => continue,
            Some("") | None => go_name.to_string(),
            Some(key) => key.to_string(),
        };
        let optional = parts.any(|p| p == "omitempty" || p == "omitzero");
        let go_type = field
            .child_by_field_name("type")
            .map(|t| text_of(t, reader.text))
            .unwrap_or("");
        let mut schema = go_schema(go_type, span_of(field));
        let tag_span = field
            .child_by_field_name("tag")
            .map_or(span_of(field), span_of);
        let schema_tag = tag_value(&tag, "jsonschema").unwrap_or_default();
        let mut tagged_required = false;
        match keyed_tag(&schema_tag) {
            // invopop/jsonschema's `key=value` list.
            Some(keys) => {
                let mut choices = Vec::new();
                for (key, value) in keys {
                    match (key.as_str(), value) {
                        ("required", None) => tagged_required = true,
                        ("description", Some(value)) => super::super::set(
                            &mut schema,
                            "description",
                            string_node(value, tag_span),
                        ),
                        ("enum", Some(value)) => choices.push(string_node(value, tag_span)),
                        _ => {}
                    }
                }
                if !choices.is_empty() {
                    super::super::set(
                        &mut schema,
                        "enum",
                        Node::new(tag_span, Value::Array(choices)),
                    );
                }
            }
            // The go-sdk's tag is the description itself.
            None if !schema_tag.is_empty() => super::super::set(
                &mut schema,
                "description",
                string_node(schema_tag, tag_span),
            ),
            None => {}
        }
        read.push((json_key, span_of(name), optional, tagged_required, schema));
    }
    // invopop/jsonschema with `RequiredFromJSONSchemaTags` requires exactly the fields tagged
    // `required`; a struct that tags none is read as encoding/json omits: required unless
    // `omitempty`.
    let by_tags = read.iter().any(|(_, _, _, tagged, _)| *tagged);
    for (json_key, name_span, optional, tagged_required, schema) in read {
        let is_required = if by_tags { tagged_required } else { !optional };
        if is_required {
            required.push(string_node(json_key.clone(), name_span));
        }
        properties.push(member(&json_key, name_span, schema));
    }
    let mut members = vec![
        implied("type", string_node("object".into(), span)),
        implied("properties", object(span, properties)),
    ];
    if !required.is_empty() {
        members.push(implied("required", Node::new(span, Value::Array(required))));
    }
    object(span, members)
}

/// A `jsonschema` tag written as invopop/jsonschema's comma-separated `key=value` list (commas
/// inside a value escaped as `\,`), as keys and values; `None` for a tag of another form (the
/// go-sdk's plain description).
fn keyed_tag(tag: &str) -> Option<Vec<(String, Option<String>)>> {
    const KEYS: [&str; 14] = [
        "description",
        "title",
        "default",
        "enum",
        "example",
        "examples",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "required",
        "nullable",
    ];
    let first = tag.split([',', '=']).next().unwrap_or("");
    if !KEYS.contains(&first) {
        return None;
    }
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = tag.chars().peekable();
    let mut finish = |item: &mut String| {
        let taken = std::mem::take(item);
        match taken.split_once('=') {
            Some((key, value)) => out.push((key.to_string(), Some(value.to_string()))),
            None if !taken.is_empty() => out.push((taken, None)),
            None => {}
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&',') => {
                current.push(',');
                chars.next();
            }
            ',' => finish(&mut current),
            _ => current.push(c),
        }
    }
    finish(&mut current);
    Some(out)
}

/// The value of one key of a struct tag: `json:"path,omitempty"` → `path,omitempty`.
fn tag_value(tag: &str, key: &str) -> Option<String> {
    let start = tag.find(&format!("{key}:\""))? + key.len() + 2;
    let rest = tag.get(start..)?;
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            '"' => return Some(out),
            _ => out.push(c),
        }
    }
    None
}

/// The schema reflected from a Go type: its JSON type when known, and a list's `items` (the
/// element's schema; an empty one for an element type not known here, which the reflection
/// writes out in full).
fn go_schema(go_type: &str, span: Span) -> Node {
    let mut schema = match go_json_type(go_type) {
        Some(kind) => typed(kind, span),
        None => return object(span, Vec::new()),
    };
    if let Some(element) = go_type.trim_start_matches('*').strip_prefix("[]") {
        // `[]byte` is written as a base64 string.
        if element == "byte" {
            return typed("string", span);
        }
        super::super::set(&mut schema, "items", go_schema(element, span));
    }
    schema
}

/// The JSON type of a Go type as encoding/json writes it; `None` when it is not known here.
fn go_json_type(go_type: &str) -> Option<&'static str> {
    let go_type = go_type.trim_start_matches('*');
    Some(match go_type {
        "string" => "string",
        "bool" => "boolean",
        "float32" | "float64" => "number",
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32"
        | "uint64" => "integer",
        _ if go_type.starts_with("[]") => "array",
        _ if go_type.starts_with("map[") => "object",
        _ => return None,
    })
}

/// A JSON value written inside a Go string, every part spanning that string.
fn from_json(value: &serde_json::Value, span: Span) -> Node {
    match value {
        serde_json::Value::Null => Node::new(span, Value::Null),
        serde_json::Value::Bool(b) => bool_node(*b, span),
        serde_json::Value::Number(n) => {
            number_node(&n.to_string(), span).unwrap_or_else(|| Node::new(span, Value::Null))
        }
        serde_json::Value::String(s) => string_node(s.clone(), span),
        serde_json::Value::Array(items) => Node::new(
            span,
            Value::Array(items.iter().map(|i| from_json(i, span)).collect()),
        ),
        serde_json::Value::Object(map) => object(
            span,
            map.iter()
                .map(|(k, v)| member(k, span, from_json(v, span)))
                .collect(),
        ),
    }
}

/// Whether a composite literal's type is of the official go-sdk (`mcp.ToolAnnotations` with
/// `mcp` imported from `github.com/modelcontextprotocol/go-sdk/mcp`).
fn go_sdk_type(reader: &Reader<'_, '_>, literal: SyntaxNode<'_>) -> bool {
    literal
        .child_by_field_name("type")
        .filter(|t| t.kind() == "qualified_type")
        .and_then(|t| t.child_by_field_name("package"))
        .and_then(|p| reader.scope.imports.get(text_of(p, reader.text)))
        .is_some_and(|path| path.contains("modelcontextprotocol/go-sdk"))
}
