//! Functions registered by a call rather than a decorator, in a file that imports a server SDK
//! (`fastmcp`, `mcp.server…`; a client's or another library's `add_tool` registers nothing):
//!
//! - `mcp.add_tool(fn, name=…, title=…, description=…, annotations=…)` (the SDK's FastMCP; the
//!   name may be the second positional argument), and `mcp.add_tool(Tool.from_function(fn,
//!   name=…))` (FastMCP 2);
//! - `mcp.tool(fn, name=…)` and `mcp.tool(name=…)(fn)`, the decorator called by hand (a server
//!   subclass's `self.tool(fn, …)` too).
//!
//! The function is found as Python finds it: a `def` of the enclosing function or of the module,
//! a method of the enclosing class (`self.method`), or a name bound once to one of these. A name
//! bound more than once (a function wrapped at run time before it is registered) is not read: its
//! description and schema are counted as not read, its name still read when the call gives it.

use super::{function_tool, named_children, text_of, FunctionTool, Read, Reader, SyntaxNode};
use crate::parse::code::{find_all, MAX_DEPTH};

/// The tool a call registers, when it is one of the forms above.
pub(super) fn registered_function<'t>(reader: &Reader<'_, 't>, call: SyntaxNode<'t>) -> Read {
    if call.parent().is_some_and(|p| p.kind() == "decorator") {
        return None;
    }
    let imports_sdk = reader.scope.imports.values().any(|module| {
        module == "fastmcp" || module.starts_with("fastmcp.") || module.starts_with("mcp.server")
    });
    if !imports_sdk {
        return None;
    }
    let function = call.child_by_field_name("function")?;
    let (keywords_call, function_argument, positional_name, form) = match function.kind() {
        // `mcp.tool(name=…)(fn)`.
        "call" => {
            let inner = function.child_by_field_name("function")?;
            if method_name(reader, inner)? != "tool" {
                return None;
            }
            let outer = positional(call);
            let [argument] = outer.as_slice() else {
                return None;
            };
            let name = positional(function)
                .first()
                .copied()
                .filter(|n| n.kind() == "string");
            if !positional(function).iter().all(|a| a.kind() == "string") {
                return None;
            }
            (function, *argument, name, "tool(…)(fn)")
        }
        "attribute" => {
            let method = method_name(reader, function)?;
            let arguments = positional(call);
            let first = *arguments.first()?;
            match method {
                "add_tool" => {
                    // FastMCP 2: `add_tool(Tool.from_function(fn, name=…))`.
                    if first.kind() == "call" {
                        let from = first.child_by_field_name("function")?;
                        if method_name(reader, from)? != "from_function" {
                            return None;
                        }
                        let inner = *positional(first).first()?;
                        (first, inner, None, "add_tool")
                    } else {
                        (call, first, arguments.get(1).copied(), "add_tool")
                    }
                }
                "tool" => (call, first, None, "tool(fn)"),
                _ => return None,
            }
        }
        _ => return None,
    };
    if !matches!(function_argument.kind(), "identifier" | "attribute") {
        return None;
    }
    let found = find_function(reader, call, function_argument, 0);
    // `mcp.tool("name")` called by hand on a string, and a decorator factory given a value that is
    // no function: nothing registered here.
    if let Err(Binding::NotAFunction) = found {
        return None;
    }
    function_tool(
        reader,
        FunctionTool {
            entry: call,
            anchor: call,
            function: found.map_err(|b| match b {
                Binding::Unknown(why) => why,
                Binding::NotAFunction => String::new(),
            }),
            call: Some(keywords_call),
            positional_name,
            form,
        },
    )
}

/// The attribute a call's callee ends with: `tool` of `self.mcp.tool`.
fn method_name<'t>(reader: &Reader<'_, 't>, function: SyntaxNode<'t>) -> Option<&'t str> {
    (function.kind() == "attribute")
        .then(|| function.child_by_field_name("attribute"))
        .flatten()
        .map(|a| text_of(a, reader.text))
}

/// The positional arguments of a call.
fn positional(call: SyntaxNode<'_>) -> Vec<SyntaxNode<'_>> {
    call.child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|a| {
            !matches!(
                a.kind(),
                "keyword_argument" | "comment" | "dictionary_splat"
            )
        })
        .collect()
}

enum Binding {
    /// The name is bound to something that is not a function (a string, a number).
    NotAFunction,
    /// The binding cannot be read: why.
    Unknown(String),
}

/// The `def` a name used at `at` refers to.
/// The function a registering call names, as [`find_function`] finds it: `None` when the name is
/// bound to something that is not a function.
pub(super) fn function_of<'t>(
    reader: &Reader<'_, 't>,
    at: SyntaxNode<'t>,
    name: SyntaxNode<'t>,
) -> Option<Result<SyntaxNode<'t>, String>> {
    if !matches!(name.kind(), "identifier" | "attribute") {
        return None;
    }
    match find_function(reader, at, name, 0) {
        Ok(function) => Some(Ok(function)),
        Err(Binding::NotAFunction) => None,
        Err(Binding::Unknown(why)) => Some(Err(why)),
    }
}

fn find_function<'t>(
    reader: &Reader<'_, 't>,
    at: SyntaxNode<'t>,
    name: SyntaxNode<'t>,
    depth: usize,
) -> Result<SyntaxNode<'t>, Binding> {
    if depth > MAX_DEPTH {
        return Err(Binding::Unknown("nested too deeply".into()));
    }
    let text = reader.text;
    let written = text_of(name, text);
    if name.kind() == "attribute" {
        // `self.method`: a method of the enclosing class.
        let object = name.child_by_field_name("object");
        let attribute = name.child_by_field_name("attribute");
        if let (Some(object), Some(attribute)) = (object, attribute) {
            if text_of(object, text) == "self" {
                let class = ancestor(at, &["class_definition"]);
                if let Some(body) = class.and_then(|c| c.child_by_field_name("body")) {
                    let (defs, assigned) = bindings(body, text_of(attribute, text), text);
                    if let ([def], 0) = (defs.as_slice(), assigned.len()) {
                        return Ok(*def);
                    }
                }
            }
        }
        return Err(Binding::Unknown(format!(
            "the function `{written}` is not a function of this file"
        )));
    }
    // The enclosing function's body, then the module.
    if let Some(body) =
        ancestor(at, &["function_definition"]).and_then(|f| f.child_by_field_name("body"))
    {
        let (defs, assigned) = bindings(body, written, text);
        match (defs.as_slice(), assigned.as_slice()) {
            ([], []) => {}
            ([def], []) => return Ok(*def),
            ([], [value]) if value.kind() == "identifier" => {
                return find_function(reader, at, *value, depth + 1)
            }
            ([], [value]) => return not_a_function(*value, written, text),
            _ => {
                return Err(Binding::Unknown(format!(
                "`{written}` is bound more than once before it is registered (wrapped at run time)"
            )))
            }
        }
    }
    match reader.scope.value(written) {
        Ok(value) if value.kind() == "function_definition" => Ok(value),
        Ok(value) if value.kind() == "identifier" => find_function(reader, at, value, depth + 1),
        Ok(value) => not_a_function(value, written, text),
        Err(why) => Err(Binding::Unknown(why)),
    }
}

fn not_a_function<'t>(
    value: SyntaxNode<'t>,
    name: &str,
    text: &str,
) -> Result<SyntaxNode<'t>, Binding> {
    if matches!(
        value.kind(),
        "string" | "concatenated_string" | "integer" | "float" | "true" | "false" | "none"
    ) {
        Err(Binding::NotAFunction)
    } else {
        Err(Binding::Unknown(format!(
            "`{name}` is `{}`, computed at run time",
            crate::parse::code::abbreviate(text_of(value, text))
        )))
    }
}

/// The nearest ancestor of one of `kinds`.
fn ancestor<'t>(node: SyntaxNode<'t>, kinds: &[&str]) -> Option<SyntaxNode<'t>> {
    let mut node = node.parent();
    while let Some(n) = node {
        if kinds.contains(&n.kind()) {
            return Some(n);
        }
        node = n.parent();
    }
    None
}

/// The `def`s named `name` in a body (not inside nested functions or classes) and the values
/// assigned to `name` there.
fn bindings<'t>(
    body: SyntaxNode<'t>,
    name: &str,
    text: &str,
) -> (Vec<SyntaxNode<'t>>, Vec<SyntaxNode<'t>>) {
    let mut defs = Vec::new();
    let mut assigned = Vec::new();
    find_all(body, |n| match n.kind() {
        "function_definition" | "class_definition" if n.id() != body.id() => {
            let named = n
                .child_by_field_name("name")
                .is_some_and(|f| text_of(f, text) == name);
            if named && n.kind() == "function_definition" {
                defs.push(n);
            }
            true
        }
        "assignment" | "augmented_assignment" => {
            let left = n.child_by_field_name("left");
            if left.is_some_and(|l| text_of(l, text) == name) {
                match n.child_by_field_name("right") {
                    Some(right) if n.kind() == "assignment" => assigned.push(right),
                    _ => assigned.push(n),
                }
            }
            false
        }
        _ => false,
    });
    (defs, assigned)
}
