//! Python: the MCP SDK's registrations.
//!
//! - FastMCP (`mcp.server.fastmcp`, `fastmcp`): `@mcp.tool()` / `@mcp.tool(name=…, title=…,
//!   description=…, annotations=…)` on a function: the name is the function's unless given, the
//!   description its docstring unless given, the input schema the one pydantic makes of the
//!   signature (type hints, defaults, `Optional`, `Annotated[…, Field(description=…)]`; `self`,
//!   `ctx` and `Context` parameters left out, as FastMCP leaves them out).
//! - The low-level server: `Tool(name=…, description=…, inputSchema=…, annotations=…)`
//!   (`types.Tool` too), the schema a dict literal or `Model.model_json_schema()` of a pydantic
//!   model of the same file.

mod agents;
mod calls;
mod hints;
mod instance;

use super::{
    abbreviate, bool_node, computed, find_all, member, named_children, number_node, object,
    plus_operands, read_candidates, span_of, string_node, text_of, unescape, CodeDoc, HandlerCall,
    Read, Registration, Unresolved, MAX_DEPTH,
};
use crate::parse::node::{Member, Node, Value};
use crate::source::Span;
use std::collections::HashMap;

type SyntaxNode<'t> = tree_sitter::Node<'t>;

/// Module-level names: assignments, classes (with their own assignments), imports.
struct Scope<'t> {
    text: &'t str,
    values: HashMap<String, Option<SyntaxNode<'t>>>,
    classes: HashMap<&'t str, SyntaxNode<'t>>,
    imports: HashMap<&'t str, String>,
}

impl<'t> Scope<'t> {
    fn new(root: SyntaxNode<'t>, text: &'t str) -> Self {
        let mut scope = Scope {
            text,
            values: HashMap::new(),
            classes: HashMap::new(),
            imports: HashMap::new(),
        };
        scope.read_block(root, None);
        let mut imports = Vec::new();
        find_all(root, |n| {
            if matches!(n.kind(), "import_statement" | "import_from_statement") {
                imports.push(n);
            }
            false
        });
        for statement in imports {
            scope.import(statement);
        }
        scope
    }

    /// The assignments and classes of a module or class body; `prefix` is the class name.
    fn read_block(&mut self, block: SyntaxNode<'t>, prefix: Option<&str>) {
        let text = self.text;
        for statement in named_children(block) {
            let statement = if statement.kind() == "decorated_definition" {
                match statement.child_by_field_name("definition") {
                    Some(d) => d,
                    None => continue,
                }
            } else {
                statement
            };
            match statement.kind() {
                "expression_statement" => {
                    let Some(assignment) = statement.named_child(0) else {
                        continue;
                    };
                    if assignment.kind() != "assignment" {
                        continue;
                    }
                    let (Some(left), right) = (
                        assignment.child_by_field_name("left"),
                        assignment.child_by_field_name("right"),
                    ) else {
                        continue;
                    };
                    if left.kind() != "identifier" {
                        continue;
                    }
                    let name = match prefix {
                        Some(class) => format!("{class}.{}", text_of(left, text)),
                        None => text_of(left, text).to_string(),
                    };
                    self.values
                        .entry(name)
                        .and_modify(|v| *v = None)
                        .or_insert(right);
                }
                "class_definition" if prefix.is_none() => {
                    let Some(name) = statement.child_by_field_name("name") else {
                        continue;
                    };
                    let name = text_of(name, text);
                    self.classes.insert(name, statement);
                    if let Some(body) = statement.child_by_field_name("body") {
                        self.read_block(body, Some(name));
                    }
                }
                "function_definition" if prefix.is_none() => {
                    if let Some(name) = statement.child_by_field_name("name") {
                        self.values
                            .entry(text_of(name, text).to_string())
                            .and_modify(|v| *v = None)
                            .or_insert(Some(statement));
                    }
                }
                _ => {}
            }
        }
    }

    /// `import subprocess as sp`, `from shutil import rmtree`.
    fn import(&mut self, statement: SyntaxNode<'t>) {
        let text = self.text;
        let module = statement
            .child_by_field_name("module_name")
            .map(|m| text_of(m, text).to_string());
        let mut cursor = statement.walk();
        for name in statement.children_by_field_name("name", &mut cursor) {
            let (imported, local) = match name.kind() {
                "aliased_import" => match (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ) {
                    (Some(n), Some(a)) => (text_of(n, text), text_of(a, text)),
                    _ => continue,
                },
                _ => (text_of(name, text), text_of(name, text)),
            };
            let qualified = match &module {
                Some(module) => format!("{module}.{imported}"),
                None => imported.to_string(),
            };
            // `import os.path` binds `os`.
            let local = if module.is_none() && name.kind() != "aliased_import" {
                local.split('.').next().unwrap_or(local)
            } else {
                local
            };
            let qualified = if module.is_none() && name.kind() != "aliased_import" {
                local.to_string()
            } else {
                qualified
            };
            self.imports.insert(local, qualified);
        }
    }

    fn value(&self, name: &str) -> Result<SyntaxNode<'t>, String> {
        match self.values.get(name) {
            Some(Some(value)) => Ok(*value),
            Some(None) => Err(format!("`{name}` is assigned more than once in this file")),
            None if self.imports.contains_key(name) => {
                Err(format!("`{name}` is imported from another module"))
            }
            None => Err(format!("`{name}` is not a constant of this file")),
        }
    }
}

pub(super) struct Reader<'s, 't> {
    scope: &'s Scope<'t>,
    text: &'t str,
}

impl<'t> Reader<'_, 't> {
    /// Follows names (`NAME`, `Class.MEMBER`) to the value assigned to them.
    fn resolve(&self, mut node: SyntaxNode<'t>, depth: usize) -> Result<SyntaxNode<'t>, String> {
        for _ in depth..MAX_DEPTH {
            match node.kind() {
                "parenthesized_expression" => match node.named_child(0) {
                    Some(inner) => node = inner,
                    None => return Ok(node),
                },
                // `Names.MEMBER.value`: an enum member's value is what it is assigned.
                "attribute"
                    if node
                        .child_by_field_name("attribute")
                        .is_some_and(|a| text_of(a, self.text) == "value")
                        && node
                            .child_by_field_name("object")
                            .is_some_and(|o| o.kind() == "attribute") =>
                {
                    match node.child_by_field_name("object") {
                        Some(object) => node = object,
                        None => return Ok(node),
                    }
                }
                "identifier" | "attribute" => {
                    let name = text_of(node, self.text);
                    if node.kind() == "attribute" && !self.scope.values.contains_key(name) {
                        match instance::attribute(self, node) {
                            Some(value) => {
                                node = value;
                                continue;
                            }
                            None => return Ok(node),
                        }
                    }
                    node = self.scope.value(name)?;
                }
                _ => return Ok(node),
            }
        }
        Err("nested too deeply".into())
    }

    /// A string as a reader of the file resolves it: literals (not f-strings with
    /// substitutions), implicit and `+` concatenations, constants.
    fn string(&self, node: SyntaxNode<'t>, depth: usize) -> Result<(String, Span), String> {
        self.string_in(node, depth, false)
    }

    /// A description: as [`Reader::string`], and an f-string read with its substitutions kept
    /// as written (`{local_tz}`), as the text around them is what the model reads.
    fn text(&self, node: SyntaxNode<'t>, depth: usize) -> Result<(String, Span), String> {
        self.string_in(node, depth, true)
    }

    fn string_in(
        &self,
        node: SyntaxNode<'t>,
        depth: usize,
        lenient: bool,
    ) -> Result<(String, Span), String> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        let written = node;
        let node = self.resolve(node, depth)?;
        match node.kind() {
            "string" => string_literal(node, self.text, lenient).map(|s| (s, span_of(node))),
            "concatenated_string" => {
                let mut out = String::new();
                for part in named_children(node) {
                    out.push_str(&string_literal(part, self.text, lenient)?);
                }
                Ok((out, span_of(node)))
            }
            "binary_operator" => match plus_operands(node) {
                Some(operands) => {
                    let (left, right) = operands?;
                    let (l, _) = self.string_in(left, depth + 1, lenient)?;
                    let (r, _) = self.string_in(right, depth + 1, lenient)?;
                    Ok((l + &r, span_of(node)))
                }
                None => Err(computed(written, self.text)),
            },
            _ => Err(computed(written, self.text)),
        }
    }

    /// A literal value as JSON: dicts with string keys, lists, strings, numbers, `True`,
    /// `False`, `None`, constants followed.
    fn value(&self, node: SyntaxNode<'t>, depth: usize) -> Result<Node, String> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        let node = self.resolve(node, depth)?;
        let span = span_of(node);
        match node.kind() {
            "true" => Ok(bool_node(true, span)),
            "false" => Ok(bool_node(false, span)),
            "none" => Ok(Node::new(span, Value::Null)),
            "integer" | "float" => {
                number_node(text_of(node, self.text), span).ok_or_else(|| computed(node, self.text))
            }
            "unary_operator" if text_of(node, self.text).starts_with('-') => {
                number_node(&text_of(node, self.text).replace(' ', ""), span)
                    .ok_or_else(|| computed(node, self.text))
            }
            "dictionary" => {
                let mut members = Vec::new();
                for pair in named_children(node) {
                    if pair.kind() == "comment" {
                        continue;
                    }
                    let (Some(key), Some(value)) = (
                        pair.child_by_field_name("key"),
                        pair.child_by_field_name("value"),
                    ) else {
                        return Err("a dict with a spread or a computed entry".into());
                    };
                    let (key_text, key_span) = self.string(key, depth + 1)?;
                    let value = if key_text == "description" {
                        self.text(value, depth + 1)
                            .map(|(text, span)| string_node(text, span))?
                    } else {
                        self.value(value, depth + 1)?
                    };
                    members.push(member(&key_text, key_span, value));
                }
                Ok(object(span, members))
            }
            "list" | "tuple" => {
                let mut items = Vec::new();
                for item in named_children(node) {
                    if item.kind() != "comment" {
                        items.push(self.value(item, depth + 1)?);
                    }
                }
                Ok(Node::new(span, Value::Array(items)))
            }
            "call" => {
                // `dict(type="object", …)`.
                let function = node.child_by_field_name("function");
                if function.is_some_and(|f| text_of(f, self.text) == "dict") {
                    let mut members = Vec::new();
                    for (key, key_span, value) in self.keywords(node)? {
                        members.push(member(key, key_span, self.value(value, depth + 1)?));
                    }
                    return Ok(object(span, members));
                }
                Err(computed(node, self.text))
            }
            _ => self
                .string(node, depth + 1)
                .map(|(value, span)| string_node(value, span)),
        }
    }

    /// The keyword arguments of a call; `Err` for `**kwargs`.
    fn keywords(
        &self,
        call: SyntaxNode<'t>,
    ) -> Result<Vec<(&'t str, Span, SyntaxNode<'t>)>, String> {
        let mut out = Vec::new();
        let Some(arguments) = call.child_by_field_name("arguments") else {
            return Ok(out);
        };
        for argument in named_children(arguments) {
            match argument.kind() {
                "keyword_argument" => {
                    if let (Some(name), Some(value)) = (
                        argument.child_by_field_name("name"),
                        argument.child_by_field_name("value"),
                    ) {
                        out.push((text_of(name, self.text), span_of(name), value));
                    }
                }
                "dictionary_splat" => return Err("keyword arguments spread from a dict".into()),
                _ => {}
            }
        }
        Ok(out)
    }

    fn keyword(&self, call: SyntaxNode<'t>, key: &str) -> Option<(Span, SyntaxNode<'t>)> {
        self.keywords(call)
            .ok()?
            .into_iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, span, value)| (span, value))
    }
}

/// The text of one string literal; `Err` for a bytes literal, and for an f-string with
/// substitutions unless `lenient` (then they are kept as written).
fn string_literal(node: SyntaxNode<'_>, text: &str, lenient: bool) -> Result<String, String> {
    if node.kind() != "string" {
        return Err(computed(node, text));
    }
    let mut raw_prefix = false;
    let mut out = String::new();
    for part in named_children(node) {
        match part.kind() {
            "string_start" => {
                let prefix = text_of(part, text).to_ascii_lowercase();
                if prefix.contains('b') {
                    return Err("a bytes literal".into());
                }
                raw_prefix = prefix.contains('r');
            }
            "string_content" => {
                let content = text_of(part, text);
                if raw_prefix {
                    out.push_str(content);
                } else {
                    out.push_str(&unescape(content));
                }
            }
            "escape_sequence" => out.push_str(&unescape(text_of(part, text))),
            "interpolation" if lenient => out.push_str(text_of(part, text)),
            "interpolation" => return Err("an f-string with substitutions".into()),
            _ => {}
        }
    }
    Ok(out)
}

/// Every registration of the file.
pub(super) fn registrations(tree: &tree_sitter::Tree, text: &str) -> CodeDoc {
    let root = tree.root_node();
    let scope = Scope::new(root, text);
    let reader = Reader {
        scope: &scope,
        text,
    };
    let mut doc = read_candidates(root, &["decorated_definition", "call"], |node| {
        match node.kind() {
            "decorated_definition" => decorated(&reader, node),
            _ => tool_call(&reader, node)
                .or_else(|| agents::tool_call(&reader, node))
                .or_else(|| calls::registered_function(&reader, node)),
        }
    });
    // Tool classes hold calls that are candidates of their own: looked for apart, in a file
    // that names a tool base class.
    let names_base = ["BaseTool", "StructuredTool"]
        .iter()
        .any(|base| memchr::memmem::find(text.as_bytes(), base.as_bytes()).is_some());
    if names_base {
        let classes = find_all(root, |n| n.kind() == "class_definition");
        for class in classes {
            doc.take(agents::tool_class(&reader, class));
        }
    }
    doc.sort_by_position();
    doc
}

/// The `tool` decorator of a definition: `@x.tool`, `@x.tool(…)`; its call when it has one.
fn tool_decorator<'t>(
    reader: &Reader<'_, 't>,
    definition: SyntaxNode<'t>,
) -> Option<(SyntaxNode<'t>, Option<SyntaxNode<'t>>)> {
    for decorator in named_children(definition) {
        if decorator.kind() != "decorator" {
            continue;
        }
        let expression = decorator.named_child(0)?;
        let (callee, call) = match expression.kind() {
            "call" => (
                expression.child_by_field_name("function")?,
                Some(expression),
            ),
            _ => (expression, None),
        };
        if callee.kind() == "attribute"
            && callee
                .child_by_field_name("attribute")
                .is_some_and(|a| text_of(a, reader.text) == "tool")
        {
            return Some((decorator, call));
        }
        // OpenAI Agents' `@function_tool` and LangChain's `@tool`, by what they are imported
        // from: a `tool` decorator of another library is not read.
        if callee.kind() == "identifier" {
            let imported = reader
                .scope
                .imports
                .get(text_of(callee, reader.text))
                .map(String::as_str)
                .unwrap_or("");
            let agents = imported.starts_with("agents.") && imported.ends_with(".function_tool");
            let langchain = imported.starts_with("langchain") && imported.ends_with(".tool");
            if agents || langchain {
                return Some((decorator, call));
            }
        }
    }
    None
}

fn decorated(reader: &Reader<'_, '_>, node: SyntaxNode<'_>) -> Read {
    let (decorator, call) = tool_decorator(reader, node)?;
    let function = node.child_by_field_name("definition")?;
    if function.kind() != "function_definition" {
        return None;
    }
    // `@mcp.tool("name")`: FastMCP 2 takes the name positionally too.
    let positional_name = call
        .and_then(|c| c.child_by_field_name("arguments"))
        .and_then(|a| a.named_child(0))
        .filter(|a| a.kind() != "keyword_argument");
    let form = match decorator.named_child(0).map(|d| text_of(d, reader.text)) {
        Some(d) if d.starts_with("function_tool") => "@function_tool",
        _ => "@tool",
    };
    function_tool(
        reader,
        FunctionTool {
            entry: node,
            anchor: decorator,
            function: Ok(function),
            call,
            positional_name,
            form,
        },
    )
}

/// A function registered as a tool, by a decorator or a call.
struct FunctionTool<'t> {
    /// What the entry spans: the decorated definition, the registering call.
    entry: SyntaxNode<'t>,
    /// Where a name that cannot be read is reported.
    anchor: SyntaxNode<'t>,
    /// The function's definition, or why it cannot be found.
    function: Result<SyntaxNode<'t>, String>,
    /// The call whose keywords override the function's name, title, description, annotations.
    call: Option<SyntaxNode<'t>>,
    positional_name: Option<SyntaxNode<'t>>,
    form: &'static str,
}

fn function_tool<'t>(reader: &Reader<'_, 't>, tool: FunctionTool<'t>) -> Read {
    let FunctionTool {
        entry,
        anchor,
        function,
        call,
        positional_name,
        form,
    } = tool;
    let mut members = Vec::new();
    let mut unresolved = Vec::new();
    // `@function_tool(name_override=…, description_override=…)` names what `@mcp.tool` calls
    // `name` and `description`.
    let given = |key: &'static str| {
        call.and_then(|c| {
            reader.keyword(c, key).or_else(|| match key {
                "name" => reader.keyword(c, "name_override"),
                "description" => reader.keyword(c, "description_override"),
                _ => None,
            })
        })
    };
    match (given("name").map(|(_, v)| v).or(positional_name), &function) {
        (Some(value), _) => match reader.string(value, 0) {
            Ok((name, span)) => members.push(member("name", span, string_node(name, span))),
            Err(why) => {
                return Some(Err(Unresolved {
                    part: "name",
                    span: span_of(anchor),
                    why,
                }))
            }
        },
        (None, Ok(function)) => {
            let function_name = function.child_by_field_name("name")?;
            let span = span_of(function_name);
            let name = text_of(function_name, reader.text).to_string();
            members.push(member("name", span, string_node(name, span)));
        }
        (None, Err(why)) => {
            return Some(Err(Unresolved {
                part: "registration",
                span: span_of(anchor),
                why: why.clone(),
            }))
        }
    }
    if let Some((key_span, value)) = given("title") {
        match reader.string(value, 0) {
            Ok((title, span)) => members.push(member("title", key_span, string_node(title, span))),
            Err(why) => unresolved.push(Unresolved {
                part: "title",
                span: span_of(value),
                why,
            }),
        }
    }
    let body = function
        .as_ref()
        .ok()
        .and_then(|f| f.child_by_field_name("body"));
    match (given("description"), &function) {
        (Some((key_span, value)), _) => match reader.text(value, 0) {
            Ok((text, span)) => {
                members.push(member("description", key_span, string_node(text, span)))
            }
            Err(why) => unresolved.push(Unresolved {
                part: "description",
                span: span_of(value),
                why,
            }),
        },
        (None, Ok(_)) => {
            if let Some(doc) = body.and_then(|b| docstring(reader, b)) {
                members.push(doc);
            }
        }
        (None, Err(why)) => unresolved.push(Unresolved {
            part: "description",
            span: span_of(anchor),
            why: why.clone(),
        }),
    }
    match &function {
        Ok(function) => {
            let parameters = function.child_by_field_name("parameters");
            match parameters.map(|p| hints::signature(reader, p)) {
                Some(Ok(schema)) => members.push(super::implied("inputSchema", schema)),
                Some(Err(why)) => unresolved.push(Unresolved {
                    part: "inputSchema",
                    span: function
                        .child_by_field_name("name")
                        .map_or(span_of(*function), span_of),
                    why,
                }),
                None => {}
            }
        }
        Err(why) => unresolved.push(Unresolved {
            part: "inputSchema",
            span: span_of(anchor),
            why: why.clone(),
        }),
    }
    if let Some((key_span, value)) = given("annotations") {
        annotations(reader, key_span, value, &mut members, &mut unresolved);
    }
    let calls = body.map(|b| handler_calls(reader, b)).unwrap_or_default();
    Some(Ok(Box::new(Registration {
        form,
        entry: object(span_of(entry), members),
        built_schema: true,
        unresolved,
        handler: calls,
        handler_span: body.map(span_of),
    })))
}

/// A function's docstring as its `description` member.
fn docstring(reader: &Reader<'_, '_>, body: SyntaxNode<'_>) -> Option<Member> {
    let first = body.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let string = first.named_child(0)?;
    if string.kind() != "string" {
        return None;
    }
    let text = string_literal(string, reader.text, true).ok()?;
    let span = span_of(string);
    Some(member("description", span, string_node(text, span)))
}

/// `annotations=ToolAnnotations(readOnlyHint=True, …)` or `annotations={…}`.
fn annotations(
    reader: &Reader<'_, '_>,
    key_span: Span,
    value: SyntaxNode<'_>,
    members: &mut Vec<Member>,
    unresolved: &mut Vec<Unresolved>,
) {
    let value = match reader.resolve(value, 0) {
        Ok(v) => v,
        Err(why) => {
            unresolved.push(Unresolved {
                part: "annotations",
                span: span_of(value),
                why,
            });
            return;
        }
    };
    let pairs: Result<Vec<(String, Span, SyntaxNode<'_>)>, String> = match value.kind() {
        "call" => reader.keywords(value).map(|k| {
            k.into_iter()
                .map(|(k, s, v)| (k.to_string(), s, v))
                .collect()
        }),
        "dictionary" => named_children(value)
            .into_iter()
            .filter(|p| p.kind() == "pair")
            .map(|p| {
                let key = p
                    .child_by_field_name("key")
                    .ok_or("a dict entry without a key")?;
                let v = p
                    .child_by_field_name("value")
                    .ok_or("a dict entry without a value")?;
                let (k, s) = reader.string(key, 0)?;
                Ok((k, s, v))
            })
            .collect(),
        _ => Err(computed(value, reader.text)),
    };
    let pairs = match pairs {
        Ok(p) => p,
        Err(why) => {
            unresolved.push(Unresolved {
                part: "annotations",
                span: span_of(value),
                why,
            });
            return;
        }
    };
    let mut read = Vec::new();
    for (key, span, v) in pairs {
        match reader.value(v, 0) {
            Ok(node) => read.push(member(&key, span, node)),
            Err(why) => unresolved.push(Unresolved {
                part: "annotations",
                span: span_of(v),
                why: format!("`{key}`: {why}"),
            }),
        }
    }
    members.push(member(
        "annotations",
        key_span,
        object(span_of(value), read),
    ));
}

/// `Tool(name=…, description=…, inputSchema=…)`, `types.Tool(…)`.
fn tool_call(reader: &Reader<'_, '_>, call: SyntaxNode<'_>) -> Read {
    let function = call.child_by_field_name("function")?;
    let callee = text_of(function, reader.text);
    if !matches!(
        callee,
        "Tool" | "types.Tool" | "mcp.types.Tool" | "mcp_types.Tool"
    ) {
        return None;
    }
    // `Tool(…)` of another library: an MCP tool has a name and an input schema.
    reader.keyword(call, "inputSchema")?;
    keyword_tool(
        reader,
        call,
        ["name", "description", "inputSchema"],
        "Tool(…)",
    )
}

/// A tool object built from keywords: the name, `title`, the description, the input schema (a
/// dict literal or a model's `model_json_schema()`), `annotations`; `keys` names the name, the
/// description and the schema as the form spells them.
fn keyword_tool(
    reader: &Reader<'_, '_>,
    call: SyntaxNode<'_>,
    keys: [&str; 3],
    form: &'static str,
) -> Read {
    let [name_key, description_key, schema_key] = keys;
    let (_, name_value) = reader.keyword(call, name_key)?;
    let schema = reader.keyword(call, schema_key);
    let (name, name_span) = match reader.string(name_value, 0) {
        Ok(n) => n,
        Err(why) => {
            return Some(Err(Unresolved {
                part: "name",
                span: span_of(call),
                why,
            }))
        }
    };
    let mut members = vec![member("name", name_span, string_node(name, name_span))];
    let mut unresolved = Vec::new();
    for (key, written) in [("title", "title"), ("description", description_key)] {
        if let Some((key_span, value)) = reader.keyword(call, written) {
            match reader.text(value, 0) {
                Ok((text, span)) => members.push(member(key, key_span, string_node(text, span))),
                Err(why) => unresolved.push(Unresolved {
                    part: if key == "title" {
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
    let read_schema = schema.map(|(key, value)| {
        let read = hints::model_schema(reader, value)
            .inspect(|read| built = read.is_ok())
            .unwrap_or_else(|| reader.value(value, 0));
        (key, value, read)
    });
    match read_schema {
        Some((key, _, Ok(schema))) => members.push(member("inputSchema", key, schema)),
        Some((_, value, Err(why))) => unresolved.push(Unresolved {
            part: "inputSchema",
            span: span_of(value),
            why,
        }),
        None => {}
    }
    if let Some((key_span, value)) = reader.keyword(call, "annotations") {
        annotations(reader, key_span, value, &mut members, &mut unresolved);
    }
    Some(Ok(Box::new(Registration {
        form,
        entry: object(span_of(call), members),
        built_schema: built,
        unresolved,
        handler: Vec::new(),
        handler_span: None,
    })))
}

/// The calls of a handler's body, and of the module's functions it calls by name.
fn handler_calls(reader: &Reader<'_, '_>, body: SyntaxNode<'_>) -> Vec<HandlerCall> {
    super::handler_calls(
        body,
        &["call"],
        |call| call.child_by_field_name("function"),
        |function| {
            reader
                .scope
                .value(text_of(function, reader.text))
                .ok()
                .filter(|f| f.kind() == "function_definition")
                .and_then(|f| f.child_by_field_name("body"))
        },
        |call, function| describe_call(reader, call, function),
    )
}

fn describe_call(
    reader: &Reader<'_, '_>,
    call: SyntaxNode<'_>,
    function: SyntaxNode<'_>,
) -> Option<HandlerCall> {
    if !matches!(function.kind(), "identifier" | "attribute") {
        return None;
    }
    let path = text_of(function, reader.text);
    if path.contains(|c: char| c.is_whitespace() || c == '(' || c == '[') {
        // `Path(x).unlink`, `client().post`: the method alone.
        let method = function.child_by_field_name("attribute")?;
        return Some(HandlerCall {
            callee: format!("?.{}", text_of(method, reader.text)),
            method: None,
            literal_argument: false,
            argument: String::new(),
            span: span_of(function),
        });
    }
    let callee = super::qualify(path, &reader.scope.imports);
    let arguments: Vec<SyntaxNode<'_>> = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    let positional: Vec<SyntaxNode<'_>> = arguments
        .iter()
        .copied()
        .filter(|a| a.kind() != "keyword_argument" && a.kind() != "comment")
        .collect();
    let literal_argument = positional
        .first()
        .is_some_and(|a| a.kind() == "string" && string_literal(*a, reader.text, false).is_ok());
    // `open(path, "w")`: the mode is what the effect model needs.
    let method = if callee == "open" {
        positional
            .get(1)
            .copied()
            .or_else(|| reader.keyword(call, "mode").map(|(_, v)| v))
            .and_then(|m| reader.string(m, 0).ok())
            .map(|(m, _)| m)
    } else {
        reader
            .keyword(call, "method")
            .and_then(|(_, v)| reader.string(v, 0).ok())
            .map(|(m, _)| m.to_ascii_uppercase())
    };
    Some(HandlerCall {
        callee,
        method,
        literal_argument,
        argument: positional
            .first()
            .map(|a| abbreviate(text_of(*a, reader.text)))
            .unwrap_or_default(),
        span: span_of(function),
    })
}
