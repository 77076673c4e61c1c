//! Go: the registrations of both Go MCP SDKs.
//!
//! - mark3labs/mcp-go: `mcp.NewTool("name", mcp.WithDescription(…), mcp.WithString("p",
//!   mcp.Required(), mcp.Description(…), mcp.Enum(…)), …, mcp.WithReadOnlyHintAnnotation(true),
//!   mcp.WithToolAnnotation(mcp.ToolAnnotation{…}))`. What the SDK emits is what is judged:
//!   `NewTool` starts every tool with `readOnlyHint: false`, `destructiveHint: true`,
//!   `idempotentHint: false`, `openWorldHint: true` (spans on the `NewTool` call), each
//!   `With…HintAnnotation` overrides one, and `WithToolAnnotation` replaces them all.
//! - The official go-sdk (and servers with their own `Tool` type): a `mcp.Tool{Name: …,
//!   Description: …, Annotations: &mcp.ToolAnnotations{…}, InputSchema: &jsonschema.Schema{…}}`
//!   literal, in `mcp.AddTool(server, &mcp.Tool{…}, handler)` or anywhere else; without an
//!   `InputSchema`, the schema `AddTool` infers from the handler's input struct (`json` and
//!   `jsonschema` tags) when the struct is declared in the file.
//!
//! The handler is the argument after the tool (`s.AddTool(tool, handler)`), the value returned
//! beside it (`return mcp.NewTool(…), func(…) {…}`), or the `Handler` field of the literal that
//! holds it; a function literal, or a function or method of the same file.

mod schema;
mod wrappers;

use super::call_arguments as arguments;

pub(super) use wrappers::wrappers;

use super::{
    abbreviate, bool_node, computed, find_all, member, named_children, object, plus_operands,
    read_candidates, span_of, string_node, text_of, unescape, CodeDoc, Context, GoPackage,
    HandlerCall, Read, Unresolved, MAX_DEPTH,
};
use crate::parse::node::{Member, Node};
use crate::source::Span;
use std::collections::HashMap;

type SyntaxNode<'t> = tree_sitter::Node<'t>;

/// Package-level names of the file: constants and variables, functions, methods, struct types,
/// imports (local name to import path).
struct Scope<'t> {
    values: HashMap<&'t str, Option<SyntaxNode<'t>>>,
    functions: HashMap<&'t str, SyntaxNode<'t>>,
    types: HashMap<&'t str, SyntaxNode<'t>>,
    imports: HashMap<String, String>,
}

impl<'t> Scope<'t> {
    fn new(root: SyntaxNode<'t>, text: &'t str) -> Self {
        let mut scope = Scope {
            values: HashMap::new(),
            functions: HashMap::new(),
            types: HashMap::new(),
            imports: HashMap::new(),
        };
        for declaration in named_children(root) {
            match declaration.kind() {
                "const_declaration" | "var_declaration" => scope.read_specs(declaration, text),
                "function_declaration" | "method_declaration" => {
                    if let Some(name) = declaration.child_by_field_name("name") {
                        // A function and a method of one name: the bare name is the function.
                        // Two methods of one name on different receivers: neither is followed.
                        let name = text_of(name, text);
                        let method = declaration.kind() == "method_declaration";
                        match scope.functions.get(name).map(|f| f.kind()) {
                            None => {
                                scope.functions.insert(name, declaration);
                            }
                            Some("function_declaration") if method => {}
                            Some(_) if !method => {
                                scope.functions.insert(name, declaration);
                            }
                            Some(_) => {
                                scope.functions.remove(name);
                            }
                        }
                    }
                }
                "type_declaration" => {
                    for spec in named_children(declaration) {
                        let (Some(name), Some(kind)) = (
                            spec.child_by_field_name("name"),
                            spec.child_by_field_name("type"),
                        ) else {
                            continue;
                        };
                        scope.types.insert(text_of(name, text), kind);
                    }
                }
                "import_declaration" => {
                    let mut specs = Vec::new();
                    find_all(declaration, |n| {
                        if n.kind() == "import_spec" {
                            specs.push(n);
                        }
                        false
                    });
                    for spec in specs {
                        let Some(path) = spec.child_by_field_name("path") else {
                            continue;
                        };
                        let path = text_of(path, text).trim_matches(['"', '`']).to_string();
                        let local = match spec.child_by_field_name("name") {
                            Some(name) => text_of(name, text).to_string(),
                            None => path.rsplit('/').next().unwrap_or(&path).to_string(),
                        };
                        scope.imports.insert(local, path);
                    }
                }
                _ => {}
            }
        }
        scope
    }

    /// `const ( A = "x"; B = A + "y" )`, `var C = …`: one name, one value.
    fn read_specs(&mut self, declaration: SyntaxNode<'t>, text: &'t str) {
        let mut specs = Vec::new();
        find_all(declaration, |n| {
            if matches!(n.kind(), "const_spec" | "var_spec") {
                specs.push(n);
            }
            false
        });
        for spec in specs {
            let mut cursor = spec.walk();
            let names: Vec<SyntaxNode<'t>> = spec
                .children_by_field_name("name", &mut cursor)
                .filter(|n| n.kind() == "identifier")
                .collect();
            let values: Vec<SyntaxNode<'t>> = spec
                .child_by_field_name("value")
                .map(named_children)
                .unwrap_or_default();
            for (index, name) in names.iter().enumerate() {
                let value = values.get(index).copied();
                self.values
                    .entry(text_of(*name, text))
                    .and_modify(|v| *v = None)
                    .or_insert(value);
            }
        }
    }
}

pub(super) struct Reader<'s, 't> {
    scope: &'s Scope<'t>,
    text: &'t str,
    /// The file's package and the file's own name in it, when the package's other files are
    /// known.
    package: Option<(&'s GoPackage, &'s str)>,
    /// The hints mcp-go's `NewTool` gives, by the version the file's module requires.
    hints: super::NewToolHints,
}

impl Reader<'_, '_> {
    /// Runs `read` with a reader of the first other file of the package that spells `name` and
    /// whose scope `declares` says holds it; `None` when no file does (or the package is not
    /// known).
    fn in_package<T>(
        &self,
        name: &str,
        declares: impl Fn(&Scope<'_>) -> bool,
        read: impl FnOnce(&Reader<'_, '_>) -> T,
    ) -> Option<T> {
        let (package, own) = self.package?;
        for (text, tree) in package.others_naming(own, name) {
            let scope = Scope::new(tree.root_node(), text);
            if declares(&scope) {
                let reader = Reader {
                    scope: &scope,
                    text,
                    package: self.package,
                    hints: self.hints,
                };
                return Some(read(&reader));
            }
        }
        None
    }

    /// Where what the file does not declare was looked for, for messages.
    fn looked_in(&self) -> &'static str {
        match self.package {
            Some(_) => "this package",
            None => "this file",
        }
    }
}

impl<'t> Reader<'_, 't> {
    /// Follows a name to the package-level constant it holds.
    fn resolve(&self, mut node: SyntaxNode<'t>) -> Result<SyntaxNode<'t>, String> {
        for _ in 0..MAX_DEPTH {
            match node.kind() {
                "parenthesized_expression" => match node.named_child(0) {
                    Some(inner) => node = inner,
                    None => return Ok(node),
                },
                "identifier" => {
                    let name = text_of(node, self.text);
                    match self.scope.values.get(name) {
                        Some(Some(value)) => node = *value,
                        Some(None) => {
                            return Err(format!("`{name}` is assigned more than once in this file"))
                        }
                        None => return Err(format!("`{name}` is not a constant of this file")),
                    }
                }
                _ => return Ok(node),
            }
        }
        Err("nested too deeply".into())
    }

    /// A string as a reader of the file resolves it: literals, `+` concatenations, package
    /// constants, and the default text of a translation helper (`t("KEY", "text")`).
    fn string(&self, node: SyntaxNode<'t>, depth: usize) -> Result<(String, Span), String> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        let written = node;
        let node = self.resolve(node)?;
        match node.kind() {
            "interpreted_string_literal" => {
                let raw = text_of(node, self.text);
                let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
                Ok((unescape(inner), span_of(node)))
            }
            "raw_string_literal" => {
                let raw = text_of(node, self.text);
                let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
                // Carriage returns are dropped from raw strings by the compiler.
                Ok((inner.replace('\r', ""), span_of(node)))
            }
            "binary_expression" => match plus_operands(node) {
                Some(operands) => {
                    let (left, right) = operands?;
                    let (l, _) = self.string(left, depth + 1)?;
                    let (r, _) = self.string(right, depth + 1)?;
                    Ok((l + &r, span_of(node)))
                }
                None => Err(computed(written, self.text)),
            },
            "call_expression" => match translated_default(node, self.text) {
                Some(default) => self.string(default, depth + 1),
                // A pointer helper (`utils.Ptr("…")`, `ptr.To("…")`): the string it points to.
                None => match (pointer_helper(node, self.text), arguments(node).as_slice()) {
                    (true, [only]) => self.string(*only, depth + 1),
                    _ => Err(computed(written, self.text)),
                },
            },
            _ => Err(computed(written, self.text)),
        }
    }

    /// A boolean: `true`, `false`, a pointer helper of one (`mcp.ToBoolPtr(true)`,
    /// `ptr.To(false)`, `jsonschema.Ptr(true)`), a constant of one.
    fn boolean(&self, node: SyntaxNode<'t>) -> Result<Node, String> {
        let node = self.resolve(node)?;
        match node.kind() {
            "true" => Ok(bool_node(true, span_of(node))),
            "false" => Ok(bool_node(false, span_of(node))),
            "call_expression" => {
                let arguments = arguments(node);
                match arguments.as_slice() {
                    [only] if pointer_helper(node, self.text) => self.boolean(*only),
                    _ => Err(computed(node, self.text)),
                }
            }
            _ => Err(computed(node, self.text)),
        }
    }
}

/// Whether a call is a helper that returns a pointer to its argument (`mcp.ToBoolPtr(true)`,
/// `ptr.To(false)`, `jsonschema.Ptr(1.0)`, `utils.Ptr("…")`).
fn pointer_helper(call: SyntaxNode<'_>, text: &str) -> bool {
    let callee = call
        .child_by_field_name("function")
        .map(|f| text_of(f, text))
        .unwrap_or("");
    callee.ends_with("Ptr")
        || callee.ends_with("ptr")
        || callee.ends_with(".To")
        || callee.ends_with("Pointer")
}

/// `t("TOOL_X_DESCRIPTION", "text")`: a translation helper's key and the default text it falls
/// back to, which is what is sent unless the deployment overrides it.
fn translated_default<'t>(call: SyntaxNode<'t>, text: &str) -> Option<SyntaxNode<'t>> {
    let callee = call.child_by_field_name("function")?;
    if !matches!(text_of(callee, text), "t" | "T" | "tr" | "translate") {
        return None;
    }
    match arguments(call).as_slice() {
        [key, default] if key.kind() == "interpreted_string_literal" => Some(*default),
        _ => None,
    }
}

/// The `Key: value` elements of a composite literal's body, keys as written.
fn keyed<'t>(literal: SyntaxNode<'t>, text: &'t str) -> Vec<(&'t str, Span, SyntaxNode<'t>)> {
    let Some(body) = literal.child_by_field_name("body") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for element in named_children(body) {
        if element.kind() != "keyed_element" {
            continue;
        }
        let (Some(key), Some(value)) = (element.named_child(0), element.named_child(1)) else {
            continue;
        };
        let value = match value.kind() {
            "literal_element" => match value.named_child(0) {
                Some(inner) => inner,
                None => continue,
            },
            _ => value,
        };
        let key_text = text_of(key, text);
        out.push((key_text, span_of(key), value));
    }
    out
}

/// The selector's field name of a callee (`NewTool` of `mcp.NewTool`), the callee itself when
/// it is a bare name.
fn callee_name<'t>(call: SyntaxNode<'t>, text: &'t str) -> Option<&'t str> {
    let function = call.child_by_field_name("function")?;
    match function.kind() {
        "selector_expression" => function
            .child_by_field_name("field")
            .map(|f| text_of(f, text)),
        "identifier" => Some(text_of(function, text)),
        _ => None,
    }
}

/// Every registration of the file: the SDK's forms, and the calls of the project's wrappers
/// (`context`'s and the file's own).
pub(super) fn registrations(
    tree: &tree_sitter::Tree,
    text: &str,
    context: &Context,
    package: Option<(&GoPackage, &str)>,
    hints: super::NewToolHints,
) -> CodeDoc {
    let root = tree.root_node();
    let scope = Scope::new(root, text);
    let reader = Reader {
        scope: &scope,
        text,
        package,
        hints,
    };
    // A wrapper builds a tool itself: only a file that may register one declares one.
    let declared = if super::may_register_tools(super::Lang::Go, text) {
        wrappers::declared(&reader, root)
    } else {
        Vec::new()
    };
    let package_name = wrappers::package_name(root, text);
    read_candidates(root, &["call_expression", "composite_literal"], |node| {
        // What a wrapper builds from its parameters is read where it is called.
        let at = node.start_byte();
        if declared
            .iter()
            .any(|(_, start, end)| *start <= at && at < *end)
        {
            return None;
        }
        let read = match node.kind() {
            "call_expression"
                if callee_name(node, text) == Some("NewTool")
                    && schema::from_sdk(&reader, node) =>
            {
                schema::new_tool(&reader, node)
            }
            "call_expression" => {
                let known = context
                    .wrappers
                    .iter()
                    .chain(declared.iter().map(|(w, _, _)| w));
                let wrapper = wrappers::called(node, text, package_name, known)?;
                return wrappers::call(&reader, node, wrapper);
            }
            "composite_literal" => schema::tool_literal(&reader, node),
            _ => None,
        };
        read.map(|read| {
            read.map(|mut registration| {
                match handler_of(&reader, node) {
                    Some(Ok(handler)) => read_handler(&reader, handler, &mut registration),
                    Some(Err(unresolved)) => registration.unresolved.push(unresolved),
                    None => {}
                }
                registration
            })
        })
    })
}

/// The calls of a handler, in this file or (a function named) in another file of the package,
/// into the registration; those read in another file point at where this one names the handler.
fn read_handler(
    reader: &Reader<'_, '_>,
    handler: SyntaxNode<'_>,
    registration: &mut crate::parse::code::Registration,
) {
    if let Some(body) = function_body(reader, handler) {
        registration.handler = handler_calls(reader, body);
        registration.handler_span = Some(span_of(body));
        return;
    }
    if handler.kind() != "identifier" {
        return;
    }
    let name = text_of(handler, reader.text);
    let at = span_of(handler);
    let calls = reader.in_package(
        name,
        |scope| scope.functions.contains_key(name),
        |sibling| {
            let body = sibling
                .scope
                .functions
                .get(name)
                .and_then(|f| f.child_by_field_name("body"))?;
            let mut calls = handler_calls(sibling, body);
            for call in &mut calls {
                call.span = at;
            }
            Some(calls)
        },
    );
    if let Some(Some(calls)) = calls {
        registration.handler = calls;
        registration.handler_span = Some(at);
    }
}

/// The handler registered with the tool at `node`; `Err` for a handler in another package
/// (`tools.Exec`, `handlers.New(deps)`), whose body is not followed.
fn handler_of<'t>(
    reader: &Reader<'_, 't>,
    node: SyntaxNode<'t>,
) -> Option<Result<SyntaxNode<'t>, Unresolved>> {
    // `&mcp.Tool{…}` is the argument, not the literal.
    let mut at = node;
    while let Some(parent) = at.parent() {
        if matches!(parent.kind(), "unary_expression" | "literal_element") {
            at = parent;
        } else {
            break;
        }
    }
    let parent = at.parent()?;
    let handler = match parent.kind() {
        "argument_list" | "expression_list" => {
            let siblings = named_children(parent);
            let position = siblings.iter().position(|s| s.id() == at.id())?;
            siblings
                .into_iter()
                .skip(position + 1)
                .find(|s| s.kind() != "comment" && s.kind() != "nil")?
        }
        // `server.ServerTool{Tool: …, Handler: h}`.
        "keyed_element" => {
            let literal = parent.parent()?.parent()?;
            keyed(literal, reader.text)
                .into_iter()
                .find(|(k, _, _)| *k == "Handler")
                .map(|(_, _, v)| v)?
        }
        _ => return None,
    };
    if let Some(package) = other_package(reader, handler) {
        return Some(Err(Unresolved {
            part: "handler",
            span: span_of(handler),
            why: format!(
                "`{}` is a function of the package `{package}`, not followed",
                abbreviate(text_of(handler, reader.text))
            ),
        }));
    }
    Some(Ok(handler))
}

/// The import path of the package a handler expression names (`tools.Exec`, `tools.New(deps)`).
fn other_package(reader: &Reader<'_, '_>, handler: SyntaxNode<'_>) -> Option<String> {
    let function = match handler.kind() {
        "call_expression" => handler.child_by_field_name("function")?,
        _ => handler,
    };
    if function.kind() != "selector_expression" {
        return None;
    }
    let operand = function.child_by_field_name("operand")?;
    if operand.kind() != "identifier" {
        return None;
    }
    reader
        .scope
        .imports
        .get(text_of(operand, reader.text))
        .cloned()
}

/// The body of a function literal, or of the function or method of the file a name points to.
fn function_body<'t>(reader: &Reader<'_, 't>, node: SyntaxNode<'t>) -> Option<SyntaxNode<'t>> {
    match node.kind() {
        "func_literal" => node.child_by_field_name("body"),
        "identifier" => reader
            .scope
            .functions
            .get(text_of(node, reader.text))
            .and_then(|f| f.child_by_field_name("body")),
        // A method of the file (`s.handleRun`); `pkg.Run` of an imported package is not.
        "selector_expression" if other_package(reader, node).is_none() => {
            let field = node.child_by_field_name("field")?;
            reader
                .scope
                .functions
                .get(text_of(field, reader.text))
                .filter(|f| f.kind() == "method_declaration")
                .and_then(|f| f.child_by_field_name("body"))
        }
        // `handler(deps)`: a constructor returning the handler.
        "call_expression" => {
            let function = node.child_by_field_name("function")?;
            let body = function_body(reader, function)?;
            let mut literal = None;
            find_all(body, |n| {
                if literal.is_none() && n.kind() == "func_literal" {
                    literal = Some(n);
                    return true;
                }
                false
            });
            literal.and_then(|l| l.child_by_field_name("body"))
        }
        _ => None,
    }
}

/// The calls of a handler's body, and of the functions of the file it calls by name.
fn handler_calls(reader: &Reader<'_, '_>, body: SyntaxNode<'_>) -> Vec<HandlerCall> {
    super::handler_calls(
        body,
        &["call_expression"],
        |call| call.child_by_field_name("function"),
        |function| {
            reader
                .scope
                .functions
                .get(text_of(function, reader.text))
                .and_then(|f| f.child_by_field_name("body"))
        },
        |call, function| describe_call(reader, call, function),
    )
}

/// What the effect model keeps of a call: `os.RemoveAll`, `os/exec.Command` with whether the
/// program is fixed, `net/http.NewRequest` with its method.
fn describe_call(
    reader: &Reader<'_, '_>,
    call: SyntaxNode<'_>,
    function: SyntaxNode<'_>,
) -> Option<HandlerCall> {
    if function.kind() != "selector_expression" {
        return None;
    }
    let operand = function.child_by_field_name("operand")?;
    let field = text_of(function.child_by_field_name("field")?, reader.text);
    if operand.kind() != "identifier" {
        return None;
    }
    let package = reader.scope.imports.get(text_of(operand, reader.text))?;
    let callee = format!("{package}.{field}");
    let arguments = arguments(call);
    // `exec.CommandContext(ctx, name, …)`, `http.NewRequestWithContext(ctx, method, …)`.
    let first = if field.ends_with("Context") {
        arguments.get(1)
    } else {
        arguments.first()
    };
    // A fixed program is no command the tool is given, unless it is a shell given a script.
    let literal_argument = first.is_some_and(|a| {
        reader.string(*a, 0).is_ok_and(|(program, _)| {
            !matches!(
                program.rsplit('/').next().unwrap_or(""),
                "sh" | "bash" | "zsh" | "dash" | "cmd" | "cmd.exe" | "powershell" | "pwsh"
            )
        })
    });
    let method = match (package.as_str(), field) {
        ("net/http", "NewRequest" | "NewRequestWithContext") => first.and_then(|m| {
            let written = text_of(*m, reader.text);
            match written.strip_prefix("http.Method") {
                Some(verb) => Some(verb.to_ascii_uppercase()),
                None => reader
                    .string(*m, 0)
                    .ok()
                    .map(|(s, _)| s.to_ascii_uppercase()),
            }
        }),
        ("net/http", "Post" | "PostForm") => Some("POST".to_string()),
        _ => None,
    };
    Some(HandlerCall {
        callee,
        method,
        literal_argument,
        argument: first
            .map(|a| abbreviate(text_of(*a, reader.text)))
            .unwrap_or_default(),
        span: span_of(function),
    })
}

/// A `Member` of an object built here.
fn entry(span: Span, members: Vec<Member>) -> Node {
    object(span, members)
}

/// A string member, or the reason it is not read.
fn string_member(
    reader: &Reader<'_, '_>,
    key: &str,
    key_span: Span,
    value: SyntaxNode<'_>,
) -> Result<Member, String> {
    reader
        .string(value, 0)
        .map(|(s, span)| member(key, key_span, string_node(s, span)))
}
