//! zod schemas as the JSON Schema the MCP SDK sends for them.

use super::{abbreviate, named_children, Reader, SyntaxNode};
use crate::parse::code::{call_arguments, computed};
use crate::parse::code::{
    implied, member, object, set, span_of, string_node, text_of, typed, MAX_DEPTH,
};
use crate::parse::node::{Member, Node, Value};
use crate::source::Span;

/// A converted schema and whether the property it is the value of may be left out.
struct Schema {
    node: Node,
    optional: bool,
}

/// The input schema of a registration: a raw shape (`{ path: z.string() }`), a `z.object(…)`,
/// `Schema.shape`, or a constant holding one of them.
pub(super) fn input_schema<'t>(
    reader: &Reader<'_, 't>,
    node: SyntaxNode<'t>,
) -> Result<Node, String> {
    let resolved = reader.resolve(node, 0)?;
    if resolved.kind() == "object" {
        return shape(reader, resolved, span_of(resolved), 0);
    }
    let schema = convert(reader, resolved, 0)?;
    if schema.node.get("type").and_then(Node::as_str) != Some("object") {
        return Err(format!(
            "`{}` is no object schema",
            abbreviate(text_of(resolved, reader.text))
        ));
    }
    Ok(schema.node)
}

/// Whether an object literal is a zod raw shape: every value a zod schema (or it is empty).
pub(super) fn is_shape<'t>(reader: &Reader<'_, 't>, object_node: SyntaxNode<'t>) -> bool {
    match reader.members(object_node) {
        Ok(members) => members.iter().all(|(_, _, v)| is_zod(reader, *v)),
        Err(_) => false,
    }
}

/// Whether an expression is a zod schema: a call chain that starts at `z.` (or `zod.`), or a
/// constant holding one.
pub(super) fn is_zod<'t>(reader: &Reader<'_, 't>, node: SyntaxNode<'t>) -> bool {
    let Ok(mut node) = reader.resolve(node, 0) else {
        return false;
    };
    for _ in 0..MAX_DEPTH {
        match node.kind() {
            "call_expression" => match node.child_by_field_name("function") {
                Some(f) => node = f,
                None => return false,
            },
            "member_expression" => match node.child_by_field_name("object") {
                Some(o) => node = o,
                None => return false,
            },
            "identifier" => return matches!(text_of(node, reader.text), "z" | "zod"),
            _ => return false,
        }
    }
    false
}

/// An object schema from a raw shape.
fn shape<'t>(
    reader: &Reader<'_, 't>,
    shape_node: SyntaxNode<'t>,
    span: Span,
    depth: usize,
) -> Result<Node, String> {
    let mut properties = Vec::new();
    let mut required = Vec::new();
    for (key, key_span, value) in reader.members(shape_node)? {
        let schema = convert(reader, value, depth + 1)?;
        if !schema.optional {
            required.push(string_node(key.clone(), key_span));
        }
        properties.push(member(&key, key_span, schema.node));
    }
    let mut members = vec![
        implied("type", string_node("object".into(), span)),
        implied("properties", object(span_of(shape_node), properties)),
    ];
    if !required.is_empty() {
        members.push(implied("required", Node::new(span, Value::Array(required))));
    }
    members.push(implied(
        "additionalProperties",
        Node::new(span, Value::Bool(false)),
    ));
    Ok(object(span, members))
}

fn remove(node: &mut Node, key: &str) {
    if let Value::Object(members) = &mut node.value {
        members.retain(|m| m.key != key);
    }
}

/// Converts one zod expression.
fn convert<'t>(
    reader: &Reader<'_, 't>,
    node: SyntaxNode<'t>,
    depth: usize,
) -> Result<Schema, String> {
    if depth > MAX_DEPTH {
        return Err("a schema nested too deeply".into());
    }
    let written = node;
    let node = reader.resolve(node, depth)?;
    let unknown = || {
        format!(
            "`{}` is not a zod schema skilllint reads",
            abbreviate(text_of(written, reader.text))
        )
    };
    match node.kind() {
        "call_expression" => {}
        // `Schema.shape` names the shape of an object schema: the same object.
        "member_expression" => {
            let object_node = node.child_by_field_name("object").ok_or_else(unknown)?;
            let property = node.child_by_field_name("property").ok_or_else(unknown)?;
            if text_of(property, reader.text) == "shape" {
                return convert(reader, object_node, depth + 1);
            }
            return Err(unknown());
        }
        _ => return Err(unknown()),
    }
    let function = node.child_by_field_name("function").ok_or_else(unknown)?;
    if function.kind() != "member_expression" {
        return Err(unknown());
    }
    let receiver = function.child_by_field_name("object").ok_or_else(unknown)?;
    let method = function
        .child_by_field_name("property")
        .map(|p| text_of(p, reader.text))
        .ok_or_else(unknown)?;
    let args = call_arguments(node);
    let receiver_text = text_of(receiver, reader.text);
    if matches!(receiver_text, "z" | "zod" | "z.coerce" | "zod.coerce") {
        return base(
            reader,
            method,
            &args,
            span_of(function),
            span_of(node),
            depth,
        );
    }
    let mut schema = convert(reader, receiver, depth + 1)?;
    modify(reader, &mut schema, method, &args, span_of(function), depth)?;
    Ok(schema)
}

/// `z.<method>(args)`.
fn base<'t>(
    reader: &Reader<'_, 't>,
    method: &str,
    args: &[SyntaxNode<'t>],
    callee: Span,
    span: Span,
    depth: usize,
) -> Result<Schema, String> {
    let plain = |node: Node| {
        Ok(Schema {
            node,
            optional: false,
        })
    };
    match method {
        "string" | "number" | "boolean" | "null" => plain(typed(method, callee)),
        "bigint" => plain(typed("integer", callee)),
        "date" => {
            let mut node = typed("string", callee);
            set(&mut node, "format", string_node("date-time".into(), callee));
            plain(node)
        }
        "any" | "unknown" => plain(object(callee, Vec::new())),
        // zod 4's string formats.
        "url" | "email" | "uuid" | "ipv4" | "ipv6" | "iso" => {
            let format = match method {
                "url" => "uri",
                other => other,
            };
            let mut node = typed("string", callee);
            if method != "iso" {
                set(&mut node, "format", string_node(format.into(), callee));
            }
            plain(node)
        }
        // `z.preprocess(fn, schema)`: the schema is what the SDK lists.
        "preprocess" => {
            let inner = args.get(1).ok_or("`z.preprocess` without a schema")?;
            convert(reader, *inner, depth + 1)
        }
        "enum" => {
            let values = args.first().ok_or("`z.enum` without values")?;
            let values = reader.value(*values, depth + 1)?;
            let mut node = typed("string", callee);
            set(&mut node, "enum", values);
            plain(node)
        }
        "literal" => {
            let value = args.first().ok_or("`z.literal` without a value")?;
            let value = reader.value(*value, depth + 1)?;
            let mut node = typed(value.type_name(), callee);
            set(&mut node, "const", value);
            plain(node)
        }
        "array" => {
            let items = args.first().ok_or("`z.array` without items")?;
            let items = convert(reader, *items, depth + 1)?;
            let mut node = typed("array", callee);
            set(&mut node, "items", items.node);
            plain(node)
        }
        "object" | "strictObject" | "looseObject" => {
            let shape_arg = args.first().ok_or("`z.object` without a shape")?;
            let shape_node = reader.resolve(*shape_arg, depth + 1)?;
            if shape_node.kind() != "object" {
                return Err(computed(shape_node, reader.text));
            }
            let mut node = super::zod::shape(reader, shape_node, span, depth + 1)?;
            if method == "looseObject" {
                remove(&mut node, "additionalProperties");
            }
            plain(node)
        }
        "union" | "discriminatedUnion" | "xor" => {
            let options = args.last().ok_or("`z.union` without options")?;
            let options = reader.resolve(*options, depth + 1)?;
            if options.kind() != "array" {
                return Err("a union of options computed at run time".into());
            }
            let mut any_of = Vec::new();
            for option in named_children(options) {
                if option.kind() != "comment" {
                    any_of.push(convert(reader, option, depth + 1)?.node);
                }
            }
            plain(object(
                span,
                vec![implied(
                    "anyOf",
                    Node::new(span_of(options), Value::Array(any_of)),
                )],
            ))
        }
        "record" => {
            let values = args.last().ok_or("`z.record` without values")?;
            let values = convert(reader, *values, depth + 1)?;
            let mut node = typed("object", callee);
            set(&mut node, "additionalProperties", values.node);
            plain(node)
        }
        "optional" | "nullable" | "nullish" => {
            let inner = args.first().ok_or("an empty wrapper")?;
            let mut schema = convert(reader, *inner, depth + 1)?;
            modify(reader, &mut schema, method, &[], callee, depth)?;
            Ok(schema)
        }
        _ => Err(format!("`z.{method}` is not a zod schema skilllint reads")),
    }
}

/// `<schema>.<method>(args)`.
fn modify<'t>(
    reader: &Reader<'_, 't>,
    schema: &mut Schema,
    method: &str,
    args: &[SyntaxNode<'t>],
    callee: Span,
    depth: usize,
) -> Result<(), String> {
    let kind = schema
        .node
        .get("type")
        .and_then(Node::as_str)
        .unwrap_or("")
        .to_string();
    let number = |i: usize| -> Result<Node, String> {
        let arg = args
            .get(i)
            .ok_or_else(|| format!("`.{method}()` without a bound"))?;
        let value = reader.value(*arg, depth + 1)?;
        match value.value {
            Value::Number(_) => Ok(value),
            _ => Err(format!("the bound of `.{method}()` is not a number")),
        }
    };
    match method {
        "optional" => schema.optional = true,
        "nullish" | "nullable" => {
            if method == "nullish" {
                schema.optional = true;
            }
            if !kind.is_empty() {
                let span = schema.node.member("type").map_or(callee, |m| m.value.span);
                let both = vec![
                    string_node(kind.clone(), span),
                    string_node("null".into(), callee),
                ];
                set(
                    &mut schema.node,
                    "type",
                    Node::new(span, Value::Array(both)),
                );
            }
        }
        "default" | "prefault" | "catch" => {
            schema.optional = true;
            if method == "default" {
                if let Some(Ok(value)) = args.first().map(|a| reader.value(*a, depth + 1)) {
                    set(&mut schema.node, "default", value);
                }
            }
        }
        "describe" => {
            let arg = args.first().ok_or("`.describe()` without text")?;
            let (text, span) = reader.string(*arg, depth + 1)?;
            set(&mut schema.node, "description", string_node(text, span));
        }
        "meta" => {
            if let Some(Ok(meta)) = args.first().map(|a| reader.value(*a, depth + 1)) {
                if let Some(description) = meta.member("description") {
                    set(&mut schema.node, "description", description.value.clone());
                }
            }
        }
        "min" | "max" | "length" | "gte" | "lte" | "gt" | "lt" => {
            let bound = number(0)?;
            let keys: &[&str] = match (kind.as_str(), method) {
                ("string", "min" | "gte") => &["minLength"],
                ("string", "max" | "lte") => &["maxLength"],
                ("string", "length") => &["minLength", "maxLength"],
                ("array", "min" | "gte") => &["minItems"],
                ("array", "max" | "lte") => &["maxItems"],
                ("array", "length") => &["minItems", "maxItems"],
                (_, "min" | "gte") => &["minimum"],
                (_, "max" | "lte") => &["maximum"],
                (_, "gt") => &["exclusiveMinimum"],
                (_, "lt") => &["exclusiveMaximum"],
                _ => &[],
            };
            for key in keys {
                set(&mut schema.node, key, bound.clone());
            }
        }
        "nonempty" => {
            let key = if kind == "array" {
                "minItems"
            } else {
                "minLength"
            };
            let one = crate::parse::code::number_node("1", callee).ok_or("a bound")?;
            set(&mut schema.node, key, one);
        }
        "int" => set(
            &mut schema.node,
            "type",
            string_node("integer".into(), callee),
        ),
        "positive" | "nonnegative" | "negative" | "nonpositive" => {
            let zero = crate::parse::code::number_node("0", callee).ok_or("a bound")?;
            let key = match method {
                "positive" => "exclusiveMinimum",
                "nonnegative" => "minimum",
                "negative" => "exclusiveMaximum",
                _ => "maximum",
            };
            set(&mut schema.node, key, zero);
        }
        "email" | "url" | "uuid" | "datetime" | "date" | "ipv4" | "ipv6" => {
            let format = match method {
                "url" => "uri",
                "datetime" => "date-time",
                other => other,
            };
            set(
                &mut schema.node,
                "format",
                string_node(format.into(), callee),
            );
        }
        "regex" => {
            if let Some(arg) = args.first().filter(|a| a.kind() == "regex") {
                if let Some(pattern) = arg.child_by_field_name("pattern") {
                    let text = text_of(pattern, reader.text).to_string();
                    set(
                        &mut schema.node,
                        "pattern",
                        string_node(text, span_of(pattern)),
                    );
                }
            }
        }
        "array" => {
            let items = std::mem::replace(&mut schema.node, typed("array", callee));
            set(&mut schema.node, "items", items);
            schema.optional = false;
        }
        "passthrough" | "loose" | "catchall" => remove(&mut schema.node, "additionalProperties"),
        "strict" => set(
            &mut schema.node,
            "additionalProperties",
            Node::new(callee, Value::Bool(false)),
        ),
        "extend" | "merge" | "safeExtend" => {
            let arg = args.first().ok_or("`.extend()` without a shape")?;
            let extra = reader.resolve(*arg, depth + 1)?;
            let extra = if extra.kind() == "object" {
                shape(reader, extra, span_of(extra), depth + 1)?
            } else {
                convert(reader, extra, depth + 1)?.node
            };
            merge(&mut schema.node, &extra);
        }
        // No effect on the JSON Schema, or an effect that only narrows at run time.
        "refine" | "superRefine" | "transform" | "pipe" | "brand" | "readonly" | "trim"
        | "toLowerCase" | "toUpperCase" | "finite" | "safe" | "check" | "overwrite"
        | "startsWith" | "endsWith" | "includes" | "lowercase" | "uppercase" | "normalize" => {}
        _ => {
            return Err(format!("`.{method}()` is not read on a zod schema"));
        }
    }
    Ok(())
}

/// `extra`'s properties and required names added to `base` (an object schema).
fn merge(base: &mut Node, extra: &Node) {
    let extra_properties: Vec<Member> = extra
        .get("properties")
        .and_then(Node::as_object)
        .map(<[Member]>::to_vec)
        .unwrap_or_default();
    let extra_required: Vec<Node> = extra
        .get("required")
        .and_then(Node::as_array)
        .map(<[Node]>::to_vec)
        .unwrap_or_default();
    let Value::Object(members) = &mut base.value else {
        return;
    };
    for m in members.iter_mut() {
        match (&*m.key, &mut m.value.value) {
            ("properties", Value::Object(properties)) => {
                for p in &extra_properties {
                    properties.retain(|q| q.key != p.key);
                    properties.push(p.clone());
                }
            }
            ("required", Value::Array(required)) => required.extend(extra_required.iter().cloned()),
            _ => {}
        }
    }
    if !extra_required.is_empty() && !members.iter().any(|m| m.key == "required") {
        members.push(implied(
            "required",
            Node::new(base.span, Value::Array(extra_required)),
        ));
    }
}
