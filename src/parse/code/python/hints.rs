//! Python type hints and pydantic fields as the JSON Schema pydantic makes of them.

use super::{named_children, Reader, SyntaxNode};
use crate::parse::code::{
    implied, member, object, set, span_of, string_node, text_of, typed, MAX_DEPTH,
};
use crate::parse::node::{Node, Value};
use crate::source::Span;

/// One parameter or field: its name, the span of its name, its type hint, its default.
struct Field<'t> {
    name: &'t str,
    span: Span,
    hint: Option<SyntaxNode<'t>>,
    default: Option<SyntaxNode<'t>>,
}

/// The input schema FastMCP makes of a function's parameters.
pub(super) fn signature<'t>(
    reader: &Reader<'_, 't>,
    parameters: SyntaxNode<'t>,
) -> Result<Node, String> {
    let mut fields = Vec::new();
    for parameter in named_children(parameters) {
        let (name, hint, default) = match parameter.kind() {
            "identifier" => (Some(parameter), None, None),
            "typed_parameter" => (
                parameter
                    .named_child(0)
                    .filter(|n| n.kind() == "identifier"),
                parameter.child_by_field_name("type"),
                None,
            ),
            "default_parameter" | "typed_default_parameter" => (
                parameter.child_by_field_name("name"),
                parameter.child_by_field_name("type"),
                parameter.child_by_field_name("value"),
            ),
            // `*args`, `**kwargs`, `*`, `/`, comments.
            _ => continue,
        };
        let Some(name) = name else {
            continue;
        };
        let name_text = text_of(name, reader.text);
        let is_context = hint.is_some_and(|h| {
            let h = text_of(h, reader.text).trim_matches(['"', '\'']);
            h == "Context" || h.starts_with("Context[") || h.ends_with(".Context")
        });
        if matches!(name_text, "self" | "cls") || is_context {
            continue;
        }
        fields.push(Field {
            name: name_text,
            span: span_of(name),
            hint,
            default,
        });
    }
    fields_schema(reader, &fields, span_of(parameters), 0)
}

/// `Model.model_json_schema()` (or pydantic 1's `Model.schema()`) of a model of the file:
/// `None` when the value is no such call.
pub(super) fn model_schema<'t>(
    reader: &Reader<'_, 't>,
    value: SyntaxNode<'t>,
) -> Option<Result<Node, String>> {
    if value.kind() != "call" {
        return None;
    }
    let function = value.child_by_field_name("function")?;
    if function.kind() != "attribute" {
        return None;
    }
    let method = text_of(function.child_by_field_name("attribute")?, reader.text);
    if !matches!(method, "model_json_schema" | "schema") {
        return None;
    }
    let class = function.child_by_field_name("object")?;
    Some(model(reader, class, 0))
}

/// The schema of a pydantic model class of the file named by `class` (`args_schema =
/// SearchInput`).
pub(super) fn class_schema<'t>(
    reader: &Reader<'_, 't>,
    class: SyntaxNode<'t>,
) -> Result<Node, String> {
    model(reader, class, 0)
}

/// The schema of a pydantic model class of the file.
fn model<'t>(reader: &Reader<'_, 't>, class: SyntaxNode<'t>, depth: usize) -> Result<Node, String> {
    let name = text_of(class, reader.text);
    let Some(definition) = reader.scope.classes.get(name) else {
        return Err(format!("`{name}` is not a class of this file"));
    };
    let mut fields = Vec::new();
    let body = definition
        .child_by_field_name("body")
        .ok_or("a class without a body")?;
    for statement in named_children(body) {
        if statement.kind() != "expression_statement" {
            continue;
        }
        let Some(assignment) = statement
            .named_child(0)
            .filter(|a| a.kind() == "assignment")
        else {
            continue;
        };
        let (Some(left), Some(hint)) = (
            assignment.child_by_field_name("left"),
            assignment.child_by_field_name("type"),
        ) else {
            continue;
        };
        if left.kind() != "identifier" || text_of(hint, reader.text).starts_with("ClassVar") {
            continue;
        }
        fields.push(Field {
            name: text_of(left, reader.text),
            span: span_of(left),
            hint: Some(hint),
            default: assignment.child_by_field_name("right"),
        });
    }
    fields_schema(reader, &fields, span_of(*definition), depth)
}

fn fields_schema<'t>(
    reader: &Reader<'_, 't>,
    fields: &[Field<'t>],
    span: Span,
    depth: usize,
) -> Result<Node, String> {
    let mut properties = Vec::new();
    let mut required = Vec::new();
    for field in fields {
        let mut schema = match field.hint {
            Some(hint) => convert(reader, hint, depth + 1)?,
            // No hint: pydantic takes anything.
            None => object(field.span, Vec::new()),
        };
        let mut has_default = false;
        if let Some(default) = field.default {
            has_default = true;
            if is_field_call(reader, default) {
                has_default = apply_field(reader, &mut schema, default)?;
            } else if let Ok(value) = reader.value(default, depth + 1) {
                set(&mut schema, "default", value);
            }
        }
        if !has_default {
            required.push(string_node(field.name.to_string(), field.span));
        }
        properties.push(member(field.name, field.span, schema));
    }
    let mut members = vec![
        implied("type", string_node("object".into(), span)),
        implied("properties", object(span, properties)),
    ];
    if !required.is_empty() {
        members.push(implied("required", Node::new(span, Value::Array(required))));
    }
    Ok(object(span, members))
}

fn is_field_call(reader: &Reader<'_, '_>, node: SyntaxNode<'_>) -> bool {
    node.kind() == "call"
        && node
            .child_by_field_name("function")
            .is_some_and(|f| matches!(text_of(f, reader.text), "Field" | "pydantic.Field"))
}

/// `Field(description=…, ge=…, default=…)` applied to a schema; whether it gives a default.
fn apply_field<'t>(
    reader: &Reader<'_, 't>,
    schema: &mut Node,
    call: SyntaxNode<'t>,
) -> Result<bool, String> {
    let kind = schema
        .get("type")
        .and_then(Node::as_str)
        .unwrap_or("")
        .to_string();
    let mut has_default = false;
    // `Field(...)` / `Field(default)` positionally.
    if let Some(first) = call
        .child_by_field_name("arguments")
        .and_then(|a| a.named_child(0))
        .filter(|a| a.kind() != "keyword_argument")
    {
        if first.kind() != "ellipsis" {
            has_default = true;
            if let Ok(value) = reader.value(first, 0) {
                set(schema, "default", value);
            }
        }
    }
    for (key, _, value) in reader.keywords(call)? {
        let target = match key {
            "description" | "title" => {
                let (text, span) = reader.text(value, 0)?;
                set(schema, key, string_node(text, span));
                continue;
            }
            "default" => {
                has_default = value.kind() != "ellipsis";
                if let Ok(v) = reader.value(value, 0) {
                    set(schema, "default", v);
                }
                continue;
            }
            "default_factory" => {
                has_default = true;
                continue;
            }
            "ge" => "minimum",
            "le" => "maximum",
            "gt" => "exclusiveMinimum",
            "lt" => "exclusiveMaximum",
            "min_length" if kind == "array" => "minItems",
            "max_length" if kind == "array" => "maxItems",
            "min_length" => "minLength",
            "max_length" => "maxLength",
            "pattern" => "pattern",
            _ => continue,
        };
        set(schema, target, reader.value(value, 0)?);
    }
    Ok(has_default)
}

/// The name a hint starts with (`Optional` of `typing.Optional[int]`) and its parameters.
fn head_and_parameters<'t>(
    reader: &Reader<'_, 't>,
    node: SyntaxNode<'t>,
) -> (&'t str, Vec<SyntaxNode<'t>>) {
    match node.kind() {
        "generic_type" => {
            let children = named_children(node);
            let head = children
                .iter()
                .find(|c| c.kind() != "type_parameter")
                .map_or("", |c| text_of(*c, reader.text));
            let parameters = children
                .iter()
                .filter(|c| c.kind() == "type_parameter")
                .flat_map(|p| named_children(*p))
                .collect();
            (head, parameters)
        }
        "subscript" => {
            let head = node
                .child_by_field_name("value")
                .map_or("", |v| text_of(v, reader.text));
            let mut cursor = node.walk();
            let parameters = node
                .children_by_field_name("subscript", &mut cursor)
                .flat_map(|s| {
                    if s.kind() == "tuple" {
                        named_children(s)
                    } else {
                        vec![s]
                    }
                })
                .collect();
            (head, parameters)
        }
        _ => (text_of(node, reader.text), Vec::new()),
    }
}

/// One type hint.
fn convert<'t>(
    reader: &Reader<'_, 't>,
    node: SyntaxNode<'t>,
    depth: usize,
) -> Result<Node, String> {
    if depth > MAX_DEPTH {
        return Err("a type nested too deeply".into());
    }
    let span = span_of(node);
    match node.kind() {
        "type" => {
            let inner = node.named_child(0).ok_or("an empty type")?;
            return convert(reader, inner, depth + 1);
        }
        "none" => return Ok(typed("null", span)),
        "union_type" | "binary_operator" => {
            let mut options = Vec::new();
            let mut stack = vec![node];
            while let Some(n) = stack.pop() {
                match n.kind() {
                    "union_type" | "binary_operator" => {
                        let mut children = named_children(n);
                        children.reverse();
                        stack.extend(children);
                    }
                    "type"
                        if n.named_child(0).is_some_and(|c| {
                            matches!(c.kind(), "union_type" | "binary_operator")
                        }) =>
                    {
                        stack.extend(n.named_child(0));
                    }
                    _ => options.push(n),
                }
            }
            return union(reader, &options, span, depth);
        }
        _ => {}
    }
    let (head, parameters) = head_and_parameters(reader, node);
    let head = head.rsplit('.').next().unwrap_or(head);
    let first = parameters.first().copied();
    match head {
        "str" | "AnyUrl" | "HttpUrl" | "EmailStr" | "Path" | "UUID" => Ok(typed("string", span)),
        "int" => Ok(typed("integer", span)),
        "float" | "Decimal" => Ok(typed("number", span)),
        "bool" => Ok(typed("boolean", span)),
        "bytes" => Ok(typed("string", span)),
        "datetime" | "date" => {
            let mut node = typed("string", span);
            set(
                &mut node,
                "format",
                string_node(
                    if head == "date" { "date" } else { "date-time" }.into(),
                    span,
                ),
            );
            Ok(node)
        }
        "Any" | "object" => Ok(object(span, Vec::new())),
        "None" => Ok(typed("null", span)),
        "list" | "List" | "Sequence" | "set" | "Set" | "frozenset" | "tuple" | "Tuple"
        | "Iterable" => {
            let mut node = typed("array", span);
            if let Some(item) = first {
                set(&mut node, "items", convert(reader, item, depth + 1)?);
            }
            Ok(node)
        }
        "dict" | "Dict" | "Mapping" => {
            let mut node = typed("object", span);
            if let Some(values) = parameters.get(1) {
                set(
                    &mut node,
                    "additionalProperties",
                    convert(reader, *values, depth + 1)?,
                );
            }
            Ok(node)
        }
        "Optional" => {
            let inner = first.ok_or("`Optional` without a type")?;
            let none = typed("null", span);
            let inner = convert(reader, inner, depth + 1)?;
            Ok(object(
                span,
                vec![implied(
                    "anyOf",
                    Node::new(span, Value::Array(vec![inner, none])),
                )],
            ))
        }
        "Union" => union(reader, &parameters, span, depth),
        "Literal" => {
            let mut values = Vec::new();
            for p in &parameters {
                let value = p
                    .named_child(0)
                    .filter(|_| p.kind() == "type")
                    .unwrap_or(*p);
                values.push(reader.value(value, depth + 1)?);
            }
            let kind = values.first().map_or("string", Node::type_name);
            let mut node = typed(kind, span);
            set(&mut node, "enum", Node::new(span, Value::Array(values)));
            Ok(node)
        }
        "Annotated" => {
            let base = first.ok_or("`Annotated` without a type")?;
            let mut node = convert(reader, base, depth + 1)?;
            for extra in parameters.iter().skip(1) {
                let extra = extra
                    .named_child(0)
                    .filter(|_| extra.kind() == "type")
                    .unwrap_or(*extra);
                if is_field_call(reader, extra) {
                    apply_field(reader, &mut node, extra)?;
                }
            }
            Ok(node)
        }
        _ if reader.scope.classes.contains_key(head) && parameters.is_empty() => {
            let class = reader.scope.classes.get(head).copied().ok_or("a class")?;
            let is_enum = class
                .child_by_field_name("superclasses")
                .is_some_and(|s| text_of(s, reader.text).contains("Enum"));
            if is_enum {
                return Ok(typed("string", span));
            }
            model(reader, node, depth + 1)
        }
        _ => Err(format!(
            "the type `{}` is not read",
            text_of(node, reader.text)
        )),
    }
}

/// `A | B`, `Union[A, B]`: `anyOf`, `null` kept as an option.
fn union<'t>(
    reader: &Reader<'_, 't>,
    options: &[SyntaxNode<'t>],
    span: Span,
    depth: usize,
) -> Result<Node, String> {
    let mut any_of = Vec::new();
    for option in options {
        any_of.push(convert(reader, *option, depth + 1)?);
    }
    Ok(object(
        span,
        vec![implied("anyOf", Node::new(span, Value::Array(any_of)))],
    ))
}
