//! `self.name` in a method, as a reader of the class resolves it: a class attribute (`name =
//! "search"`), an assignment in `__init__` (`self.name = "search"`), or a base class's
//! `__init__` storing what the subclass passes it (`super().__init__(TOOL_NAME)` with `def
//! __init__(self, tool_name): self.name = tool_name`). Base classes are followed within the file.

use super::{Reader, SyntaxNode};
use crate::parse::code::{find_all, named_children, text_of};

/// How many base classes deep an attribute is looked for.
const MAX_BASES: usize = 8;

/// The value `self.<attribute>` holds where `node` (that attribute) is written.
pub(super) fn attribute<'t>(
    reader: &Reader<'_, 't>,
    node: SyntaxNode<'t>,
) -> Option<SyntaxNode<'t>> {
    let object = node.child_by_field_name("object")?;
    if object.kind() != "identifier" || text_of(object, reader.text) != "self" {
        return None;
    }
    let attribute = text_of(node.child_by_field_name("attribute")?, reader.text);
    let mut at = node;
    let class = loop {
        at = at.parent()?;
        if at.kind() == "class_definition" {
            break at;
        }
    };
    in_class(reader, class, attribute, 0)
}

/// The value a class gives `self.<attribute>`, its bases included.
fn in_class<'t>(
    reader: &Reader<'_, 't>,
    class: SyntaxNode<'t>,
    attribute: &str,
    depth: usize,
) -> Option<SyntaxNode<'t>> {
    if depth > MAX_BASES {
        return None;
    }
    let name = text_of(class.child_by_field_name("name")?, reader.text);
    if let Some(Some(value)) = reader.scope.values.get(&format!("{name}.{attribute}")) {
        return Some(*value);
    }
    if let Some(init) = method(reader, class, "__init__") {
        if let Some(value) = assigned(reader, init, attribute) {
            // Stored from a parameter: only a subclass's call can tell.
            return parameter_index(reader, init, value)
                .is_none()
                .then_some(value);
        }
        if let Some(arguments) = super_init_arguments(reader, init) {
            let base = first_base(reader, class)?;
            return from_base(reader, base, attribute, arguments, depth + 1);
        }
    }
    let base = first_base(reader, class)?;
    in_class(reader, base, attribute, depth + 1)
}

/// What a base class's `__init__` stores in `self.<attribute>` when called with `arguments`.
fn from_base<'t>(
    reader: &Reader<'_, 't>,
    base: SyntaxNode<'t>,
    attribute: &str,
    arguments: SyntaxNode<'t>,
    depth: usize,
) -> Option<SyntaxNode<'t>> {
    let init = method(reader, base, "__init__");
    let Some(init) = init else {
        return in_class(reader, base, attribute, depth);
    };
    let value = assigned(reader, init, attribute)?;
    let Some((index, parameter)) = parameter_index(reader, init, value) else {
        return Some(value);
    };
    let mut positional = 0;
    for argument in named_children(arguments) {
        match argument.kind() {
            "keyword_argument" => {
                let key = argument.child_by_field_name("name");
                if key.is_some_and(|k| text_of(k, reader.text) == parameter) {
                    return argument.child_by_field_name("value");
                }
            }
            "comment" => {}
            "list_splat" | "dictionary_splat" => return None,
            _ => {
                if positional == index {
                    return Some(argument);
                }
                positional += 1;
            }
        }
    }
    None
}

/// The method `name` of a class body.
fn method<'t>(
    reader: &Reader<'_, 't>,
    class: SyntaxNode<'t>,
    name: &str,
) -> Option<SyntaxNode<'t>> {
    let body = class.child_by_field_name("body")?;
    named_children(body).into_iter().find_map(|statement| {
        let function = match statement.kind() {
            "decorated_definition" => statement.child_by_field_name("definition")?,
            _ => statement,
        };
        (function.kind() == "function_definition"
            && function
                .child_by_field_name("name")
                .is_some_and(|n| text_of(n, reader.text) == name))
        .then_some(function)
    })
}

/// The value of the one `self.<attribute> = …` of a method (`None` when there are several).
fn assigned<'t>(
    reader: &Reader<'_, 't>,
    function: SyntaxNode<'t>,
    attribute: &str,
) -> Option<SyntaxNode<'t>> {
    let target = format!("self.{attribute}");
    let body = function.child_by_field_name("body")?;
    let assignments = find_all(body, |n| {
        n.kind() == "assignment"
            && n.child_by_field_name("left")
                .is_some_and(|l| l.kind() == "attribute" && text_of(l, reader.text) == target)
    });
    match assignments.as_slice() {
        [one] => one.child_by_field_name("right"),
        _ => None,
    }
}

/// Where `value` (a bare name) stands among the function's parameters after `self`, and its
/// name.
fn parameter_index<'t>(
    reader: &Reader<'_, 't>,
    function: SyntaxNode<'t>,
    value: SyntaxNode<'t>,
) -> Option<(usize, &'t str)> {
    if value.kind() != "identifier" {
        return None;
    }
    let wanted = text_of(value, reader.text);
    let parameters = function.child_by_field_name("parameters")?;
    named_children(parameters)
        .into_iter()
        .filter(|p| p.kind() != "comment")
        .skip(1)
        .enumerate()
        .find_map(|(i, parameter)| {
            let name = match parameter.kind() {
                "identifier" => Some(parameter),
                "typed_parameter" => parameter.named_child(0),
                _ => parameter.child_by_field_name("name"),
            }?;
            let name = text_of(name, reader.text);
            (name == wanted).then_some((i, name))
        })
}

/// The arguments of `super().__init__(…)` in a method.
fn super_init_arguments<'t>(
    reader: &Reader<'_, 't>,
    init: SyntaxNode<'t>,
) -> Option<SyntaxNode<'t>> {
    let body = init.child_by_field_name("body")?;
    find_all(body, |n| {
        n.kind() == "call"
            && n.child_by_field_name("function").is_some_and(|f| {
                let callee = text_of(f, reader.text);
                callee == "super().__init__" || callee.ends_with(".__init__")
            })
    })
    .first()
    .and_then(|call| call.child_by_field_name("arguments"))
}

/// The first base class, when the file declares it.
fn first_base<'t>(reader: &Reader<'_, 't>, class: SyntaxNode<'t>) -> Option<SyntaxNode<'t>> {
    let bases = class.child_by_field_name("superclasses")?;
    named_children(bases)
        .into_iter()
        .find(|b| b.kind() == "identifier")
        .and_then(|b| reader.scope.classes.get(text_of(b, reader.text)).copied())
}
