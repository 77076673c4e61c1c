//! Project functions that register a tool from their parameters ([`Wrapper`]), as servers write
//! them so that every tool file says `MustTool("name", "description", handler, options...)`:
//! found where they are declared, read where they are called.
//!
//! A function is a wrapper when its body builds a tool whose name is one of its parameters:
//! `mcp.NewTool(name, …)`, a `mcp.Tool{Name: name}` literal, or a call of a wrapper of the same
//! file that passes the parameter on. Which other parameter is the description, the handler and
//! the variadic SDK options is read the same way; what the wrapper does with a parameter that is
//! not passed to one of those is not guessed.

use super::schema::{from_sdk, hint_option, Parts};
use super::{arguments, callee_name, keyed, Read, Reader, Scope, SyntaxNode};
use crate::parse::code::{
    find_all, named_children, span_of, text_of, Lang, Unresolved, Wrapper, WrapperArg, WrapperRoles,
};

/// A parameter of a function: its name, its type as written, whether it is variadic.
struct Param<'t> {
    name: &'t str,
    type_text: &'t str,
    variadic: bool,
}

fn params<'t>(function: SyntaxNode<'t>, text: &'t str) -> Vec<Param<'t>> {
    let Some(list) = function.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for declaration in named_children(list) {
        let variadic = declaration.kind() == "variadic_parameter_declaration";
        if !variadic && declaration.kind() != "parameter_declaration" {
            continue;
        }
        let type_text = declaration
            .child_by_field_name("type")
            .map_or("", |t| text_of(t, text));
        let mut cursor = declaration.walk();
        let names: Vec<SyntaxNode<'t>> = declaration
            .children_by_field_name("name", &mut cursor)
            .collect();
        if names.is_empty() {
            // An unnamed parameter still takes a position.
            out.push(Param {
                name: "",
                type_text,
                variadic,
            });
        }
        for name in names {
            out.push(Param {
                name: text_of(name, text),
                type_text,
                variadic,
            });
        }
    }
    out
}

/// The package clause's name of a file.
pub(super) fn package_name<'t>(root: SyntaxNode<'t>, text: &'t str) -> &'t str {
    named_children(root)
        .into_iter()
        .find(|n| n.kind() == "package_clause")
        .and_then(|clause| clause.named_child(0))
        .map_or("", |name| text_of(name, text))
}

/// The position of the parameter an argument names, as written (`name`, or `options...`).
fn param_of(params: &[Param<'_>], argument: SyntaxNode<'_>, text: &str) -> Option<usize> {
    let argument = match argument.kind() {
        "variadic_argument" => argument.named_child(0)?,
        _ => argument,
    };
    if argument.kind() != "identifier" {
        return None;
    }
    let name = text_of(argument, text);
    params
        .iter()
        .position(|p| !p.name.is_empty() && p.name == name)
}

/// The parameter, or the field of a parameter (`options.name`), a value is.
fn arg_of(params: &[Param<'_>], value: SyntaxNode<'_>, text: &str) -> Option<WrapperArg> {
    if value.kind() == "selector_expression" {
        let operand = value.child_by_field_name("operand")?;
        let field = value.child_by_field_name("field")?;
        return Some(WrapperArg {
            position: param_of(params, operand, text)?,
            field: Some(text_of(field, text).to_string()),
        });
    }
    Some(WrapperArg {
        position: param_of(params, value, text)?,
        field: None,
    })
}

/// The roles of a function's parameters when its body builds a tool named by one of them.
fn roles_of(
    reader: &Reader<'_, '_>,
    function: SyntaxNode<'_>,
    known: &[(Wrapper, usize)],
) -> Option<WrapperRoles> {
    let params = params(function, reader.text);
    if params.is_empty() {
        return None;
    }
    let body = function.child_by_field_name("body")?;
    let mut sites = Vec::new();
    find_all(body, |n| {
        if matches!(n.kind(), "call_expression" | "composite_literal") {
            sites.push(n);
        }
        false
    });
    let mut found: Option<WrapperRoles> = None;
    for site in &sites {
        let Some(roles) = site_roles(reader, *site, &params, known) else {
            continue;
        };
        // Two tools built from different parameters: not one wrapper.
        if found.as_ref().is_some_and(|f| f.name != roles.name) {
            return None;
        }
        found = Some(roles);
    }
    let mut roles = found?;
    if roles.sdk_hints {
        // `NewTool(name, opts...)` with `opts` gathered in the body: the description and the
        // options are wherever the body writes them.
        roles.options = roles.options.or_else(|| {
            params
                .iter()
                .position(|p| p.variadic && p.type_text.ends_with("ToolOption"))
        });
        for site in &sites {
            own_options(reader, *site, &params, &mut roles);
        }
    }
    if roles.handler.is_none() {
        // The one parameter typed as a handler that is no other part.
        let taken = [
            Some(roles.name.position),
            roles.description.as_ref().map(|d| d.position),
            roles.options,
        ];
        let handlers: Vec<usize> = params
            .iter()
            .enumerate()
            .filter(|(i, p)| !taken.contains(&Some(*i)) && is_handler(p))
            .map(|(i, _)| i)
            .collect();
        if let [only] = handlers.as_slice() {
            roles.handler = Some(*only);
        }
    }
    Some(roles)
}

/// What one place of a `NewTool` wrapper's body adds to the options: the description from a
/// parameter (`mcp.WithDescription(description)`), or options of its own, in the `NewTool`
/// call, a `[]mcp.ToolOption{…}` literal or an `append` to one.
fn own_options(
    reader: &Reader<'_, '_>,
    site: SyntaxNode<'_>,
    params: &[Param<'_>],
    roles: &mut WrapperRoles,
) {
    let text = reader.text;
    let elements: Vec<SyntaxNode<'_>> = match site.kind() {
        "call_expression" => match callee_name(site, text) {
            Some("NewTool") => arguments(site).into_iter().skip(1).collect(),
            Some("append") => arguments(site).into_iter().skip(1).collect(),
            _ => return,
        },
        "composite_literal"
            if site
                .child_by_field_name("type")
                .is_some_and(|t| text_of(t, text).ends_with("ToolOption")) =>
        {
            site.child_by_field_name("body")
                .map(named_children)
                .unwrap_or_default()
                .into_iter()
                .map(|e| match e.kind() {
                    "literal_element" => e.named_child(0).unwrap_or(e),
                    _ => e,
                })
                .collect()
        }
        _ => return,
    };
    for element in elements {
        let named = match element.kind() {
            "variadic_argument" => element.named_child(0),
            _ => Some(element),
        };
        let Some(named) = named else { continue };
        if named.kind() == "identifier" {
            // The caller's options, or the wrapper's own slice of them.
            if param_of(params, named, text).is_some()
                || !reader.scope.values.contains_key(text_of(named, text))
            {
                continue;
            }
        }
        // A slice of options built in place is read as a place of its own.
        if named.kind() == "composite_literal" || callee_name(named, text) == Some("append") {
            continue;
        }
        // A package-level option (`explanationArgument = mcp.WithString(…)`) is what it holds.
        let option = reader.resolve(named).unwrap_or(named);
        let option_name = match option.kind() {
            "call_expression" => callee_name(option, text).unwrap_or(""),
            _ => "",
        };
        if option_name == "WithDescription" {
            roles.description = arguments(option)
                .first()
                .and_then(|d| arg_of(params, *d, text))
                .or(roles.description.take());
            continue;
        }
        let sdk = option.kind() == "call_expression" && from_sdk(reader, option);
        match option_name {
            _ if sdk
                && (hint_option(option_name).is_some() || option_name == "WithToolAnnotation") =>
            {
                roles.own_hints = true
            }
            "WithTitleAnnotation" | "WithTitle" | "WithOutputSchema" if sdk => {}
            _ if sdk => roles.own_schema = true,
            _ => {
                roles.own_schema = true;
                roles.own_hints = true;
            }
        }
    }
}

/// The roles of a function's parameters at one place of its body that builds a tool: a
/// `NewTool` call, a `Tool{}` literal, or a call of another wrapper, whose name is a parameter.
fn site_roles(
    reader: &Reader<'_, '_>,
    site: SyntaxNode<'_>,
    params: &[Param<'_>],
    known: &[(Wrapper, usize)],
) -> Option<WrapperRoles> {
    let text = reader.text;
    match site.kind() {
        "call_expression"
            if callee_name(site, text) == Some("NewTool") && from_sdk(reader, site) =>
        {
            let given = arguments(site);
            let (name, options) = given.split_first()?;
            let mut roles = WrapperRoles {
                name: arg_of(params, *name, text)?,
                description: None,
                handler: None,
                options: None,
                sdk_hints: true,
                own_schema: false,
                own_hints: false,
            };
            for option in options {
                if option.kind() == "variadic_argument" {
                    roles.options = roles.options.or(param_of(params, *option, text));
                }
            }
            Some(roles)
        }
        "composite_literal" if is_tool_type(site, text) => {
            let fields = keyed(site, text);
            let field = |key: &str| {
                fields
                    .iter()
                    .find(|(k, _, _)| *k == key)
                    .and_then(|(_, _, v)| arg_of(params, *v, text))
            };
            let has = |key: &str| fields.iter().any(|(k, _, _)| *k == key);
            let handler = params.iter().any(is_handler);
            Some(WrapperRoles {
                name: field("Name")?,
                description: field("Description"),
                handler: None,
                // Options applied to the literal in a loop: the variadic `ToolOption`s.
                options: params
                    .iter()
                    .position(|p| p.variadic && p.type_text.ends_with("ToolOption")),
                sdk_hints: false,
                // A schema the wrapper writes is the handler's input reflected, when it has one.
                own_schema: !handler && (has("InputSchema") || has("RawInputSchema")),
                own_hints: has("Annotations"),
            })
        }
        "call_expression" => {
            let called = callee_name(site, text)?;
            let (inner, _) = known.iter().find(|(w, _)| w.function == called)?;
            let given = arguments(site);
            // Only plain parameters are followed through a second wrapper.
            let at = |position: Option<usize>| {
                position
                    .and_then(|p| given.get(p))
                    .and_then(|a| param_of(params, *a, text))
            };
            let plain = |arg: &WrapperArg| {
                arg.field.is_none().then_some(())?;
                at(Some(arg.position)).map(|position| WrapperArg {
                    position,
                    field: None,
                })
            };
            Some(WrapperRoles {
                name: plain(&inner.roles.name)?,
                description: inner.roles.description.as_ref().and_then(plain),
                handler: at(inner.roles.handler),
                options: at(inner.roles.options),
                sdk_hints: inner.roles.sdk_hints,
                own_schema: inner.roles.own_schema,
                own_hints: inner.roles.own_hints,
            })
        }
        _ => None,
    }
}

/// Whether a parameter is the tool's handler: a function, or a handler type, named or typed as a
/// handler (`toolHandler ToolHandlerFunc[T, R]`, `handler func(…)`); another function parameter
/// (`buildRequest func(…)`) is a helper of the wrapper.
fn is_handler(param: &Param<'_>) -> bool {
    let named = |text: &str| text.contains("andler");
    (param.type_text.starts_with("func") || named(param.type_text))
        && (named(param.name) || named(param.type_text))
}

/// Whether a composite literal is of a type named `Tool` (`mcp.Tool{…}`).
fn is_tool_type(literal: SyntaxNode<'_>, text: &str) -> bool {
    literal
        .child_by_field_name("type")
        .is_some_and(|t| text_of(t, text) == "Tool" || text_of(t, text).ends_with(".Tool"))
}

/// The wrappers a file declares, each with the byte offset of its declaration (registrations
/// inside a wrapper are its template, not tools).
pub(super) fn declared<'t>(
    reader: &Reader<'_, 't>,
    root: SyntaxNode<'t>,
) -> Vec<(Wrapper, usize, usize)> {
    let package = package_name(root, reader.text).to_string();
    let functions: Vec<SyntaxNode<'t>> = named_children(root)
        .into_iter()
        .filter(|n| matches!(n.kind(), "function_declaration" | "method_declaration"))
        .collect();
    let mut known: Vec<(Wrapper, usize)> = Vec::new();
    // A wrapper may call another of the file declared after it: a few rounds reach them.
    for _ in 0..4 {
        let before = known.len();
        for function in &functions {
            if known.iter().any(|(_, at)| *at == function.start_byte()) {
                continue;
            }
            let Some(name) = function.child_by_field_name("name") else {
                continue;
            };
            if let Some(roles) = roles_of(reader, *function, &known) {
                known.push((
                    Wrapper {
                        lang: Lang::Go,
                        package: package.clone(),
                        function: text_of(name, reader.text).to_string(),
                        method: function.kind() == "method_declaration",
                        roles,
                    },
                    function.start_byte(),
                ));
            }
        }
        if known.len() == before {
            break;
        }
    }
    known
        .into_iter()
        .filter_map(|(wrapper, at)| {
            let function = functions.iter().find(|f| f.start_byte() == at)?;
            Some((wrapper, function.start_byte(), function.end_byte()))
        })
        .collect()
}

/// The wrappers of a file, for the project's [`crate::parse::code::Context`].
pub(in crate::parse::code) fn wrappers(tree: &tree_sitter::Tree, text: &str) -> Vec<Wrapper> {
    let root = tree.root_node();
    let scope = Scope::new(root, text);
    let reader = Reader {
        scope: &scope,
        text,
        package: None,
        hints: crate::parse::code::NewToolHints::default(),
    };
    let mut found: Vec<Wrapper> = declared(&reader, root)
        .into_iter()
        .map(|(w, _, _)| w)
        .collect();
    found.sort();
    found
}

/// The wrapper a call names, from this file's package or another: `pkg.MustTool(…)` for a
/// function of package `pkg`, `MustTool(…)` inside it, `s.addTool(…)` for a method of it.
pub(super) fn called<'w>(
    call: SyntaxNode<'_>,
    text: &str,
    package: &str,
    mut wrappers: impl Iterator<Item = &'w Wrapper>,
) -> Option<&'w Wrapper> {
    let function = call.child_by_field_name("function")?;
    let (qualifier, name) = match function.kind() {
        "identifier" => (None, text_of(function, text)),
        "selector_expression" => (
            Some(text_of(function.child_by_field_name("operand")?, text)),
            text_of(function.child_by_field_name("field")?, text),
        ),
        _ => return None,
    };
    wrappers.find(|w| {
        w.lang == Lang::Go
            && w.function == name
            && match (qualifier, w.method) {
                (None, false) => w.package == package,
                (Some(q), false) => q == w.package,
                (Some(_), true) => w.package == package,
                (None, true) => false,
            }
    })
}

/// The value a wrapper's call passes for one part: the argument, or the field of the struct
/// literal passed there.
fn passed<'t>(
    reader: &Reader<'_, 't>,
    arguments: &[SyntaxNode<'t>],
    arg: &WrapperArg,
) -> Result<SyntaxNode<'t>, String> {
    let value = *arguments
        .get(arg.position)
        .ok_or_else(|| "the wrapper's call passes fewer arguments".to_string())?;
    let Some(field) = &arg.field else {
        return Ok(value);
    };
    let literal = match value.kind() {
        "unary_expression" => value.named_child(0).unwrap_or(value),
        _ => value,
    };
    if literal.kind() != "composite_literal" {
        return Err(super::computed(value, reader.text));
    }
    keyed(literal, reader.text)
        .into_iter()
        .find(|(key, _, _)| key == field)
        .map(|(_, _, v)| v)
        .ok_or_else(|| format!("the wrapper's call sets no `{field}`"))
}

/// A wrapper's call read as the registration it makes.
pub(super) fn call(reader: &Reader<'_, '_>, call: SyntaxNode<'_>, wrapper: &Wrapper) -> Read {
    let arguments = arguments(call);
    let roles = &wrapper.roles;
    let name = match passed(reader, &arguments, &roles.name) {
        Ok(name) => name,
        Err(why) => {
            return Some(Err(Unresolved {
                part: "name",
                span: span_of(call),
                why,
            }))
        }
    };
    let handler = roles.handler.and_then(|h| arguments.get(h)).copied();
    let options = match roles.options {
        Some(first) => arguments.get(first..).unwrap_or(&[]),
        None => &[],
    };
    let schema = match handler {
        Some(handler) => super::schema::handler_input_schema(reader, handler, None),
        // A `Tool{}` the wrapper fills has the schema the wrapper gives it, not read here.
        None if !roles.sdk_hints => Some(Err(format!(
            "`{}` builds the input schema itself",
            wrapper.function
        ))),
        None => None,
    };
    let (description, description_unread) = match &roles.description {
        Some(arg) => match passed(reader, &arguments, arg) {
            Ok(value) => (Some(value), None),
            Err(why) => (None, Some(why)),
        },
        None => (
            None,
            Some(format!(
                "`{}` sets the description itself",
                wrapper.function
            )),
        ),
    };
    let mut read = super::schema::tool_from_parts(
        reader,
        call,
        Parts {
            name,
            description,
            options,
            sdk_hints: roles.sdk_hints,
            form: "tool wrapper",
            schema,
        },
    );
    if let Some(Ok(registration)) = &mut read {
        let mut unread = |part: &'static str, why: String| {
            remove_member(&mut registration.entry, part);
            registration.unresolved.push(Unresolved {
                part,
                span: span_of(call),
                why,
            });
        };
        if let Some(why) = description_unread {
            unread("description", why);
        }
        if roles.own_schema {
            unread(
                "inputSchema",
                format!("`{}` adds parameters of its own", wrapper.function),
            );
        }
        if roles.own_hints {
            unread(
                "annotations",
                format!("`{}` sets hints of its own", wrapper.function),
            );
        }
        if let Some(handler) = handler {
            super::read_handler(reader, handler, registration);
        }
    }
    read
}

/// Drops a member of an object node (a part that is not read is left out, never half-read).
fn remove_member(node: &mut crate::parse::node::Node, key: &str) {
    if let crate::parse::node::Value::Object(members) = &mut node.value {
        members.retain(|m| m.key != key);
    }
}
