//! Tools registered in source code, read statically: one module per language holds the parser
//! and the forms it recognises ([`typescript`] for TypeScript and JavaScript, [`python`], `go`). Nothing
//! read is ever run or imported: a file is parsed into a concrete syntax tree (tree-sitter, one
//! tree API for every grammar), the registration calls are found in it, and what a reader of the
//! file can resolve (string constants, concatenations, template literals without substitutions,
//! `const` objects and schemas in the same file) is resolved. What cannot be resolved is recorded
//! as [`Unresolved`], never guessed.
//!
//! A registration becomes an MCP tool entry [`Node`] (`name`, `title`, `description`,
//! `inputSchema`, `annotations`) whose every span points into the source file, so the model
//! above reads it as any tool list. The handler's calls are kept as [`HandlerCall`]s for the
//! effect model to judge.
//!
//! Most source files register nothing: [`may_register_tools`] decides with a byte search, before
//! any parse, which files are worth parsing.

mod go;
pub mod modules;
pub mod python;
pub mod typescript;

use crate::parse::node::{Member, Node, Number, Value};
use crate::source::Span;

/// The languages tools are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    /// `.ts`, `.mts`, `.cts`.
    TypeScript,
    /// `.tsx`.
    Tsx,
    /// `.js`, `.mjs`, `.cjs`, `.jsx`.
    JavaScript,
    /// `.py`.
    Python,
    /// `.go`.
    Go,
}

impl Lang {
    /// The language of a file by its name; `None` for every other file, and for TypeScript
    /// declaration files (`.d.ts`), which register nothing.
    pub fn of_file_name(file_name: &str) -> Option<Lang> {
        let (stem, extension) = file_name.rsplit_once('.')?;
        match extension {
            "ts" | "mts" | "cts" if !stem.ends_with(".d") => Some(Lang::TypeScript),
            "tsx" => Some(Lang::Tsx),
            "js" | "mjs" | "cjs" | "jsx" => Some(Lang::JavaScript),
            "py" => Some(Lang::Python),
            // Go's own tests register test doubles.
            "go" if !stem.ends_with("_test") => Some(Lang::Go),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Lang::TypeScript => "TypeScript",
            Lang::Tsx => "TSX",
            Lang::JavaScript => "JavaScript",
            Lang::Python => "Python",
            Lang::Go => "Go",
        }
    }

    /// The line comment that opens an inline suppression in this language.
    pub fn line_comment(self) -> &'static str {
        match self {
            Lang::Python => "#",
            _ => "//",
        }
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
        }
    }
}

/// The file extensions read as source, for the walk's name patterns.
pub const EXTENSIONS: [&str; 10] = [
    "ts", "mts", "cts", "tsx", "js", "mjs", "cjs", "jsx", "py", "go",
];

/// Every word [`may_register_tools`] looks for.
const REGISTRATION_WORDS: &[&str] = &[
    "mcp",
    "MCP",
    ".tool",
    "Tool(",
    "add_tool(",
    "@function_tool",
    "langchain",
    "@tool",
    "agents",
    ".as_tool(",
    "FunctionTool(",
    "from_function(",
    "BaseTool",
    "NewTool(",
    "Tool{",
    "@modelcontextprotocol/",
    "registerTool",
    ".tool(",
    "ListToolsRequestSchema",
    "inputSchema",
    "tool(",
    "execute",
    "@openai/agents",
    ".asTool(",
    "extends",
    "Tool extends",
    "Tool {",
    "description",
];

static SEARCHERS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
    std::sync::LazyLock::new(|| {
        REGISTRATION_WORDS
            .iter()
            .map(|word| memchr::memmem::Finder::new(word.as_bytes()))
            .collect()
    });

/// Whether a file's bytes can hold a tool registration of a form [`parse_code`] reads: it names
/// an MCP SDK and a registration word. Cheap (a few substring searches), so that the files of a
/// large repository that register nothing are never parsed.
pub fn may_register_tools(lang: Lang, text: &str) -> bool {
    // The searchers are built once: building one costs more than searching a small file.
    let has = |needle: &str| {
        let known = REGISTRATION_WORDS.iter().position(|w| *w == needle);
        match known.and_then(|i| SEARCHERS.get(i)) {
            Some(finder) => finder.find(text.as_bytes()).is_some(),
            None => memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some(),
        }
    };
    match lang {
        Lang::Python => {
            ((has("mcp") || has("MCP")) && (has(".tool") || has("Tool(") || has("add_tool(")))
                || has("@function_tool")
                || (has("langchain") && has("@tool"))
                // OpenAI Agents' agents as tools and `FunctionTool`; LangChain's tools built
                // from a function or a `BaseTool` subclass.
                || (has("agents") && (has(".as_tool(") || has("FunctionTool(")))
                || (has("langchain") && (has("from_function(") || has("BaseTool")))
        }
        // mcp-go's `mcp.NewTool(…)`, a `mcp.Tool{…}` literal of either Go SDK.
        Lang::Go => has("mcp") && (has("NewTool(") || has("Tool{")),
        // `@modelcontextprotocol/sdk`, and the split packages of the SDK's second version
        // (`@modelcontextprotocol/server`).
        // Tool objects (`inputSchema`) typed or listed as the SDK's tools.
        // FastMCP's `addTool({…, execute})`, the AI SDK's and OpenAI Agents' `tool({…, execute})`.
        _ => {
            (has("@modelcontextprotocol/")
                && (has("registerTool")
                    || has(".tool(")
                    || has("ListToolsRequestSchema")
                    || has("inputSchema")))
                || ((has("tool(") || has("Tool(")) && has("execute"))
                // OpenAI Agents JS: an agent as a tool.
                || (has("@openai/agents") && has(".asTool("))
                // A tool class of a framework (`class AddTool extends MCPTool`).
                || (has("extends")
                    && (has("Tool extends") || has("Tool {"))
                    && has("description"))
        }
    }
}

/// A function of the project that registers a tool from its own parameters, such as
/// `MustTool(name, description, handler, options...)` wrapping mcp-go's `NewTool` or filling a
/// `mcp.Tool{}`: its calls elsewhere, in any file of the project, are read as registrations.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wrapper {
    pub lang: Lang,
    /// The package it is declared in (Go's `package` clause): a call names it `package.Function`
    /// from another package, or `Function` from the same one.
    pub package: String,
    pub function: String,
    /// A method (`s.addTool(…)`), called on a value of the same package.
    pub method: bool,
    pub roles: WrapperRoles,
}

/// Where a part of the tool is among a wrapper's arguments: the argument at `position`, or, with
/// a `field`, that field of the struct literal passed there (`newTool(opts{name: "x"})`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WrapperArg {
    pub position: usize,
    pub field: Option<String>,
}

/// Which parameter of a [`Wrapper`] is which part of the tool.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WrapperRoles {
    pub name: WrapperArg,
    pub description: Option<WrapperArg>,
    /// The handler, whose input struct is reflected into the input schema and whose body is
    /// read for effects.
    pub handler: Option<usize>,
    /// The first of the SDK options (a variadic `...mcp.ToolOption`).
    pub options: Option<usize>,
    /// Whether the tool starts with the SDK's default hints (built by `NewTool`) rather than
    /// none (a `Tool{}` literal).
    pub sdk_hints: bool,
    /// Whether the wrapper adds parameters of its own (options of the SDK, or values not read,
    /// beside the caller's): the schema of its calls is then not read.
    pub own_schema: bool,
    /// Whether it sets hints of its own: the annotations of its calls are then not read.
    pub own_hints: bool,
}

/// The hints mark3labs/mcp-go's `NewTool` starts every tool with, which depend on the version the
/// module requires: none before v0.21.0; from v0.21.0 the four defaults, but as plain `bool`s
/// with `omitempty`, so only the true ones (`destructiveHint`, `openWorldHint`) are sent; from
/// v0.27.0 all four, as pointers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NewToolHints {
    /// v0.27.0 and later, or a version that cannot be told.
    #[default]
    All,
    TrueOnly,
    None,
}

impl NewToolHints {
    /// What a `go.mod` that requires mcp-go tells: `None` when it does not require it.
    pub fn of_go_mod(text: &str) -> Option<NewToolHints> {
        let line = text
            .lines()
            .map(|l| l.trim_start().trim_start_matches("require").trim())
            .find(|l| l.starts_with("github.com/mark3labs/mcp-go "))?;
        let version = line.split_whitespace().nth(1)?.strip_prefix('v')?;
        let mut parts = version.split(['.', '-', '+']);
        let major: u32 = parts.next()?.parse().ok()?;
        let minor: u32 = parts.next()?.parse().ok()?;
        Some(match (major, minor) {
            (0, 0..=20) => NewToolHints::None,
            (0, 21..=26) => NewToolHints::TrueOnly,
            _ => NewToolHints::All,
        })
    }

    /// The hints themselves.
    pub(crate) fn defaults(self) -> &'static [(&'static str, bool)] {
        const ALL: [(&str, bool); 4] = [
            ("readOnlyHint", false),
            ("destructiveHint", true),
            ("idempotentHint", false),
            ("openWorldHint", true),
        ];
        const TRUE_ONLY: [(&str, bool); 2] = [("destructiveHint", true), ("openWorldHint", true)];
        match self {
            NewToolHints::All => &ALL,
            NewToolHints::TrueOnly => &TRUE_ONLY,
            NewToolHints::None => &[],
        }
    }
}

/// What other files of the project tell the reader of one source file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// The mcp-go hints of each Go module that requires mcp-go, by the folder of its `go.mod`
    /// (relative, `""` for the root); a file reads its nearest.
    pub mcp_go: std::collections::BTreeMap<String, NewToolHints>,
    /// Sorted.
    pub wrappers: Vec<Wrapper>,
    /// The Go packages of the folders that register tools, by folder (relative, `""` for the
    /// root): a handler or an input struct declared in another file of the package is read there.
    pub packages: std::collections::BTreeMap<String, std::sync::Arc<GoPackage>>,
    /// The TypeScript and JavaScript modules that files registering tools import by relative
    /// path, by relative path ([`modules`]).
    pub modules: std::collections::BTreeMap<String, std::sync::Arc<str>>,
}

/// The Go files of one folder (one package), each parsed once, when first asked for.
#[derive(Default)]
pub struct GoPackage {
    /// File name and text, sorted by name.
    pub files: Vec<(String, std::sync::Arc<str>)>,
    trees: Vec<std::sync::OnceLock<Option<tree_sitter::Tree>>>,
}

impl GoPackage {
    pub fn new(mut files: Vec<(String, std::sync::Arc<str>)>) -> Self {
        files.sort_by(|a, b| a.0.cmp(&b.0));
        let trees = files.iter().map(|_| std::sync::OnceLock::new()).collect();
        GoPackage { files, trees }
    }

    /// The syntax tree of the package's file at `index` (`None` where the parser gave none).
    fn tree(&self, index: usize) -> Option<&tree_sitter::Tree> {
        let (_, text) = self.files.get(index)?;
        self.trees
            .get(index)?
            .get_or_init(|| {
                let mut parser = tree_sitter::Parser::new();
                parser.set_language(&Lang::Go.grammar()).ok()?;
                parser.parse(&**text, None)
            })
            .as_ref()
    }

    /// The tree of the file `name` when its text in the package is `text` (the file being read
    /// is then parsed once, for itself and for its siblings).
    fn own_tree(&self, name: &str, text: &str) -> Option<&tree_sitter::Tree> {
        let index = self
            .files
            .iter()
            .position(|(n, t)| n == name && **t == *text)?;
        self.tree(index)
    }

    /// The other files of the package than `own` whose text holds `word` (the name looked
    /// for: a file that does not spell it cannot declare it, and is not parsed): text and tree.
    pub(crate) fn others_naming<'p>(
        &'p self,
        own: &'p str,
        word: &'p str,
    ) -> impl Iterator<Item = (&'p str, &'p tree_sitter::Tree)> + 'p {
        self.files
            .iter()
            .enumerate()
            .filter(move |(_, (name, text))| {
                name != own && memchr::memmem::find(text.as_bytes(), word.as_bytes()).is_some()
            })
            .filter_map(|(index, (_, text))| Some((&**text, self.tree(index)?)))
    }
}

impl std::fmt::Debug for GoPackage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.files.iter().map(|(name, _)| name))
            .finish()
    }
}

impl PartialEq for GoPackage {
    fn eq(&self, other: &Self) -> bool {
        self.files == other.files
    }
}

impl Eq for GoPackage {}

impl Context {
    /// A search for the calls of the wrappers, built once for a run: whether a file calls one
    /// is then a single pass over its bytes, however many wrappers the project declares.
    /// The mcp-go hints of the Go file at `rel_path`: its nearest module's.
    pub fn new_tool_hints(&self, rel_path: &str) -> NewToolHints {
        let mut folder = rel_path.rsplit_once('/').map_or("", |(folder, _)| folder);
        loop {
            if let Some(hints) = self.mcp_go.get(folder) {
                return *hints;
            }
            if folder.is_empty() {
                return NewToolHints::default();
            }
            folder = folder.rsplit_once('/').map_or("", |(parent, _)| parent);
        }
    }

    pub fn wrapper_calls(&self) -> WrapperCalls {
        let mut by_lang: Vec<(Lang, Vec<String>)> = Vec::new();
        for wrapper in &self.wrappers {
            let needle = format!("{}(", wrapper.function);
            match by_lang.iter_mut().find(|(lang, _)| *lang == wrapper.lang) {
                Some((_, needles)) => needles.push(needle),
                None => by_lang.push((wrapper.lang, vec![needle])),
            }
        }
        WrapperCalls {
            by_lang: by_lang
                .into_iter()
                .filter_map(|(lang, needles)| {
                    Some((lang, aho_corasick::AhoCorasick::new(needles).ok()?))
                })
                .collect(),
        }
    }
}

/// See [`Context::wrapper_calls`].
pub struct WrapperCalls {
    by_lang: Vec<(Lang, aho_corasick::AhoCorasick)>,
}

impl WrapperCalls {
    /// Whether the text calls a wrapper of its language (a byte search, before any parse).
    pub fn in_text(&self, lang: Lang, text: &str) -> bool {
        self.by_lang
            .iter()
            .any(|(of, search)| *of == lang && search.is_match(text))
    }
}

/// The wrappers a source file declares ([`Wrapper`]); Go only.
pub fn wrappers_of(lang: Lang, text: &str) -> Vec<Wrapper> {
    if lang != Lang::Go {
        return Vec::new();
    }
    let mut parser = tree_sitter::Parser::new();
    if parser.set_language(&lang.grammar()).is_err() {
        return Vec::new();
    }
    match parser.parse(text, None) {
        Some(tree) => go::wrappers(&tree, text),
        None => Vec::new(),
    }
}

/// What could not be read of a registration, or a registration that could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// The part (`name`, `description`, `inputSchema`, `annotations`, `registration`).
    pub part: &'static str,
    pub span: Span,
    /// Why, for `skilllint tools`: "`ReadArgs` is imported from another module".
    pub why: String,
}

/// A call in a tool's handler, as written: the callee with imports resolved (`fs/promises.rm`,
/// `subprocess.run`, `fetch`), and for an HTTP call the method when it is a literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerCall {
    pub callee: String,
    /// `POST`, `DELETE`…: the `method` of a `fetch` options object, or the verb of
    /// `axios.post` / `requests.delete`.
    pub method: Option<String>,
    /// Whether the first argument is a literal (a fixed command or path) rather than a value
    /// computed at run time.
    pub literal_argument: bool,
    /// The first argument as written (its first characters), for telling a scratch file the
    /// handler made (`temp_path`) from what it is given.
    pub argument: String,
    pub span: Span,
}

/// One tool registration found in a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Registration {
    /// How it is written: `registerTool`, `server.tool`, `@tool`, `Tool(…)`.
    pub form: &'static str,
    /// The MCP tool entry it amounts to, spans into the file.
    pub entry: Node,
    /// Whether `inputSchema` was built from a schema builder (zod, a signature) rather than
    /// written out as a JSON Schema literal: its root cannot carry `additionalProperties`.
    pub built_schema: bool,
    /// Parts that could not be read (left out of `entry`).
    pub unresolved: Vec<Unresolved>,
    /// The calls of its handler, when the handler is in the file.
    pub handler: Vec<HandlerCall>,
    /// Where the handler is, when found.
    pub handler_span: Option<Span>,
}

/// What a source file registers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CodeDoc {
    pub registrations: Vec<Registration>,
    /// Registrations that could not be read at all (their name is computed at run time).
    pub unresolved: Vec<Unresolved>,
}

/// What a reader makes of one candidate node: a registration, one it could not read, or
/// nothing (not a tool registration).
pub(super) type Read = Option<Result<Box<Registration>, Unresolved>>;

impl CodeDoc {
    /// Keeps what a reader made of one candidate.
    pub(super) fn take(&mut self, read: Read) {
        match read {
            Some(Ok(registration)) => self.registrations.push(*registration),
            Some(Err(unresolved)) => self.unresolved.push(unresolved),
            None => {}
        }
    }

    /// Keeps every reading of a registration read once per binding of its names.
    pub(super) fn take_all(&mut self, readings: Vec<Result<Registration, Unresolved>>) {
        for reading in readings {
            self.take(Some(reading.map(Box::new)));
        }
    }

    /// Registrations and unresolved ones in the order they stand in the file.
    pub(super) fn sort_by_position(&mut self) {
        // Tools read at one place (a call of a local function in a loop) by name.
        fn name(r: &Registration) -> Option<&str> {
            r.entry.get("name").and_then(Node::as_str)
        }
        self.registrations
            .sort_by(|a, b| (a.entry.span.start, name(a)).cmp(&(b.entry.span.start, name(b))));
        self.unresolved.sort_by_key(|u| u.span.start);
    }
}

/// The registrations of a file whose candidates are the nodes of `kinds` (nested ones included,
/// in tree order), each read by `read`; sorted by position.
pub(super) fn read_candidates<'t>(
    root: tree_sitter::Node<'t>,
    kinds: &[&str],
    mut read: impl FnMut(tree_sitter::Node<'t>) -> Read,
) -> CodeDoc {
    let mut candidates = Vec::new();
    find_all(root, |n| {
        if kinds.contains(&n.kind()) {
            candidates.push(n);
        }
        false
    });
    let mut doc = CodeDoc::default();
    for node in candidates {
        doc.take(read(node));
    }
    doc.sort_by_position();
    doc
}

/// Reads the tool registrations of a source file, the calls of the project's wrappers in
/// `context` included.
pub fn parse_code(lang: Lang, text: &str, context: &Context) -> CodeDoc {
    parse_code_at(lang, text, context, "")
}

/// [`parse_code`] for the file at `rel_path` (relative to the root): a Go file reads the other
/// files of its package in `context`.
pub fn parse_code_at(lang: Lang, text: &str, context: &Context, rel_path: &str) -> CodeDoc {
    let parse = |source: &str| {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&lang.grammar()).ok()?;
        parser.parse(source, None)
    };
    match lang {
        Lang::Python => {
            parse(text).map_or_else(CodeDoc::default, |tree| python::registrations(&tree, text))
        }
        Lang::Go => {
            let (folder, name) = rel_path.rsplit_once('/').unwrap_or(("", rel_path));
            let package = context.packages.get(folder).map(|p| (&**p, name));
            let shared = package.and_then(|(p, name)| p.own_tree(name, text));
            let own = match shared {
                Some(_) => None,
                None => parse(text),
            };
            match shared.or(own.as_ref()) {
                Some(tree) => go::registrations(
                    tree,
                    text,
                    context,
                    package,
                    context.new_tool_hints(rel_path),
                ),
                None => CodeDoc::default(),
            }
        }
        _ => {
            let imported = modules::imported(text, rel_path, context);
            if imported.is_empty() {
                return parse(text).map_or_else(CodeDoc::default, |tree| {
                    typescript::registrations(&tree, text, text.len())
                });
            }
            let joined = modules::joined(text, &imported);
            parse(&joined).map_or_else(CodeDoc::default, |tree| {
                modules::own_part(
                    typescript::registrations(&tree, &joined, text.len()),
                    text.len(),
                )
            })
        }
    }
}

/// How deep values, schemas and constants are followed: deeper is never hand-written, and the
/// walks over the syntax tree recurse.
pub(crate) const MAX_DEPTH: usize = 48;

/// The span of a syntax node.
pub(crate) fn span_of(node: tree_sitter::Node<'_>) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

/// The text of a syntax node.
pub(crate) fn text_of<'t>(node: tree_sitter::Node<'_>, text: &'t str) -> &'t str {
    text.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// Every node of `root`'s subtree for which `visit` returns true (not descending into them),
/// in document order, without recursion.
pub(crate) fn find_all<'t>(
    root: tree_sitter::Node<'t>,
    mut visit: impl FnMut(tree_sitter::Node<'t>) -> bool,
) -> Vec<tree_sitter::Node<'t>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let take = visit(node);
        if take {
            out.push(node);
        }
        if !take && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// A call's arguments (the `arguments` field of every grammar's call node), comments left out.
pub(crate) fn call_arguments(call: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    call.child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|a| a.kind() != "comment")
        .collect()
}

/// The named children of a node.
/// The two operands of a binary expression (Python's `binary_operator`, TypeScript's
/// `binary_expression`) when its operator is `+`: `None` for another operator, `Some(Err)` when
/// the parser left an operand out.
pub(crate) fn plus_operands(
    node: tree_sitter::Node<'_>,
) -> Option<Result<(tree_sitter::Node<'_>, tree_sitter::Node<'_>), String>> {
    let is_plus = node
        .child_by_field_name("operator")
        .is_some_and(|o| o.kind() == "+");
    is_plus.then(|| {
        match (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        ) {
            (Some(left), Some(right)) => Ok((left, right)),
            _ => Err("an incomplete expression".into()),
        }
    })
}

pub(crate) fn named_children(node: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// Builders of span-keeping nodes.
pub(crate) fn string_node(value: String, span: Span) -> Node {
    Node::new(span, Value::String(value))
}

pub(crate) fn bool_node(value: bool, span: Span) -> Node {
    Node::new(span, Value::Bool(value))
}

pub(crate) fn number_node(raw: &str, span: Span) -> Option<Node> {
    let clean: String = raw.chars().filter(|c| *c != '_').collect();
    let value: f64 = clean.parse().ok()?;
    let integer = !clean.contains(['.', 'e', 'E']);
    Some(Node::new(
        span,
        Value::Number(Box::new(Number {
            raw: raw.to_string(),
            value,
            integer,
        })),
    ))
}

pub(crate) fn member(key: &str, key_span: Span, value: Node) -> Member {
    Member {
        key: key.to_string(),
        key_span,
        value,
    }
}

/// A member whose key is not written anywhere (`type` of a schema built from `z.string()`): its
/// key spans what implies it.
pub(crate) fn implied(key: &str, value: Node) -> Member {
    Member {
        key: key.to_string(),
        key_span: value.span,
        value,
    }
}

/// The decoded text of a string literal's content in JavaScript or Python (escapes resolved;
/// unknown escapes kept as written).
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\n') => {}
            Some('u') => {
                let mut hex = String::new();
                if chars.peek() == Some(&'{') {
                    chars.next();
                    for h in chars.by_ref() {
                        if h == '}' {
                            break;
                        }
                        hex.push(h);
                    }
                } else {
                    for _ in 0..4 {
                        if let Some(h) = chars.next() {
                            hex.push(h);
                        }
                    }
                }
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(decoded) => out.push(decoded),
                    None => {
                        out.push_str("\\u");
                        out.push_str(&hex);
                    }
                }
            }
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(decoded) => out.push(decoded),
                    None => {
                        out.push_str("\\x");
                        out.push_str(&hex);
                    }
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The first characters of an expression, for messages.
/// Why a value is not read: the source text that only running the code would turn into one.
pub(crate) fn computed(node: tree_sitter::Node<'_>, text: &str) -> String {
    format!(
        "`{}` is computed at run time",
        abbreviate(text_of(node, text))
    )
}

pub(crate) fn abbreviate(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let mut out: String = line.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// A callee path (`fs.rm`, `run`) with its first name resolved through the file's imports
/// (`fs/promises.rm`, `subprocess.run`).
pub(crate) fn qualify(path: &str, imports: &std::collections::HashMap<&str, String>) -> String {
    let (head, rest) = match path.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let head = imports.get(head).map_or(head, String::as_str);
    match rest {
        Some(rest) => format!("{head}.{rest}"),
        None => head.to_string(),
    }
}

/// The calls (nodes of `call_kinds`) of a handler's body and of the functions of the file it calls
/// by name, one level down: `callee` gives a call's callee, `body_of` the body of the function
/// an identifier callee names, `describe` what the effect model keeps of a call.
pub(crate) fn handler_calls<'t>(
    body: tree_sitter::Node<'t>,
    call_kinds: &[&str],
    callee: impl Fn(tree_sitter::Node<'t>) -> Option<tree_sitter::Node<'t>>,
    body_of: impl Fn(tree_sitter::Node<'t>) -> Option<tree_sitter::Node<'t>>,
    describe: impl Fn(tree_sitter::Node<'t>, tree_sitter::Node<'t>) -> Option<HandlerCall>,
) -> Vec<HandlerCall> {
    let mut out = Vec::new();
    let mut bodies = vec![body];
    let mut followed = vec![body.start_byte()];
    for _ in 0..2 {
        let mut next = Vec::new();
        for body in bodies {
            let mut calls = Vec::new();
            find_all(body, |n| {
                if call_kinds.contains(&n.kind()) {
                    calls.push(n);
                }
                false
            });
            for call in calls {
                let Some(function) = callee(call) else {
                    continue;
                };
                if function.kind() == "identifier" {
                    if let Some(inner) = body_of(function) {
                        if !followed.contains(&inner.start_byte()) {
                            followed.push(inner.start_byte());
                            next.push(inner);
                        }
                    }
                }
                out.extend(describe(call, function));
            }
        }
        bodies = next;
    }
    out
}

/// Gives every span of a node the one span (a value read in another file, pointed at where
/// this file uses it).
pub(crate) fn respan(node: &mut Node, span: Span) {
    relocate(node, &|_| true, span);
}

/// Points each span of `node` that is `elsewhere` (read in another file) at the nearest place
/// around it that is not (a schema's properties at the `inputSchema` key that takes it), `at` at
/// the outermost.
pub(crate) fn relocate(node: &mut Node, elsewhere: &impl Fn(Span) -> bool, at: Span) {
    let here = if elsewhere(node.span) {
        node.span = at;
        at
    } else {
        node.span
    };
    match &mut node.value {
        Value::Object(members) => {
            for m in members {
                if elsewhere(m.key_span) {
                    m.key_span = here;
                }
                let inner = if elsewhere(m.value.span) {
                    m.key_span
                } else {
                    m.value.span
                };
                relocate(&mut m.value, elsewhere, inner);
            }
        }
        Value::Array(items) => {
            for item in items {
                relocate(item, elsewhere, here);
            }
        }
        _ => {}
    }
}

/// A schema of one JSON type, implied by what spans `span`.
pub(crate) fn typed(kind: &str, span: Span) -> Node {
    object(span, vec![implied("type", string_node(kind.into(), span))])
}

/// Sets `key` of an object schema, replacing what it had.
pub(crate) fn set(node: &mut Node, key: &str, value: Node) {
    if let Value::Object(members) = &mut node.value {
        members.retain(|m| m.key != key);
        members.push(implied(key, value));
    }
}

/// An object node from its members.
/// The input schema of an agent the model calls as a tool (OpenAI Agents' `as_tool`/`asTool`):
/// one required `input` string, no other property.
pub(crate) fn agent_input_schema(at: Span) -> Node {
    let input = object(at, vec![implied("type", string_node("string".into(), at))]);
    object(
        at,
        vec![
            implied("type", string_node("object".into(), at)),
            implied("properties", object(at, vec![implied("input", input)])),
            implied(
                "required",
                Node::new(at, Value::Array(vec![string_node("input".into(), at)])),
            ),
            implied("additionalProperties", bool_node(false, at)),
        ],
    )
}

pub(crate) fn object(span: Span, members: Vec<Member>) -> Node {
    Node::new(span, Value::Object(members))
}

#[cfg(test)]
mod tests;
