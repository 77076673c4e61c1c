//! A policy's CEL expressions: compiled once per run in an environment that holds only CEL's
//! standard functions (no clock, no files, no network, no environment: the crate is built without
//! its `chrono` feature and nothing is added), checked before anything runs (every variable, every
//! function, the closed entities' fields), and given a cost bound that is computed for each entity
//! before evaluating, so a runaway comprehension is refused instead of run.

use cel::common::ast::{ComprehensionExpr, EntryExpr, Expr, IdedExpr};
use cel::{Env, Program};
use std::sync::{Arc, OnceLock};

/// The most work one expression may do on one entity, in evaluated nodes (see [`cost_bound`]).
/// A realistic policy costs a few hundred; a comprehension nested in another over the input
/// schemas of a large tools.json costs millions and is stopped here.
pub const COST_LIMIT: u64 = 1_000_000;

/// The functions an expression may call: CEL's standard library (operators, `size`, the string
/// tests, conversions) and its macros, nothing else. Names starting with `_`, `!`, `-` or `@` are
/// the operators the parser produces.
const FUNCTIONS: &[&str] = &[
    "size",
    "contains",
    "startsWith",
    "endsWith",
    "matches",
    "int",
    "uint",
    "double",
    "string",
    "bool",
    "bytes",
    "type",
    "dyn",
];

/// Type names an expression may mention as values (`type(x) == string`).
const TYPE_NAMES: &[&str] = &[
    "int",
    "uint",
    "double",
    "string",
    "bool",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
];

/// The one environment every expression is compiled and run in: CEL's standard macros and
/// functions, with the optional-value syntax switched off.
pub fn env() -> &'static Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Env::stdlib().with_optional_support(false);
        // The crate is built without its `regex` feature, whose `matches` compiles the pattern
        // on every call; this one keeps the compiled patterns. Both declarations are new names
        // in this environment, so they cannot fail.
        use cel::common::types::STRING_TYPE;
        let _ = env.add_overload(
            "matches",
            "policy_matches",
            vec![STRING_TYPE, STRING_TYPE],
            matches,
        );
        let _ = env.add_member_overload(
            "matches",
            "policy_matches_member",
            STRING_TYPE,
            vec![STRING_TYPE],
            matches,
        );
        Arc::new(env)
    })
}

/// `text.matches(pattern)` / `matches(text, pattern)`: RE2 syntax, linear time (a call too
/// costly on its text is refused: see [`super::pattern`]).
fn matches<'b, 'v>(
    args: Vec<cel::common::value::CowVal<'b, 'v>>,
) -> Result<cel::common::value::CowVal<'b, 'v>, cel::ExecutionError> {
    use cel::common::types::{CelBool, CelString};
    let text = args.first().and_then(|a| a.downcast_ref::<CelString>());
    let pattern = args.get(1).and_then(|a| a.downcast_ref::<CelString>());
    let (Some(text), Some(pattern)) = (text, pattern) else {
        return Err(cel::ExecutionError::function_error(
            "matches",
            "expects two strings",
        ));
    };
    let found = super::pattern::is_match(text.inner(), pattern.inner());
    match found {
        Ok(found) => Ok(cel::common::value::CowVal::owned(CelBool::from(found))),
        Err(
            super::pattern::Refusal::Invalid(message) | super::pattern::Refusal::TooCostly(message),
        ) => Err(cel::ExecutionError::function_error("matches", message)),
    }
}

/// What a variable is: the entity names have fields that may be absent (tested with `has()`); a
/// closed variable has only the fields listed.
#[derive(Debug, Clone, Copy)]
pub struct Variable {
    pub name: &'static str,
    /// `Some`: the only fields there are.
    pub closed_fields: Option<&'static [&'static str]>,
}

/// An expression ready to run, with what the checks learnt about it.
#[derive(Debug)]
pub struct Compiled {
    pub program: Program,
    pub source: String,
    /// How many nodes the expression has.
    nodes: u64,
    /// How many `+` it has (see [`cost_bound`]).
    joins: u64,
    /// The cost bound when it does not depend on the data (no comprehension, and every
    /// size-dependent operation has a literal operand that bounds it): worked out once, at
    /// compile time, since the bound is asked for every entity.
    constant: Option<u64>,
    /// The expression without the interpreter, when it has only the shapes [`super::fast`]
    /// knows.
    pub fast: Option<super::fast::Test>,
}

/// What the cost bound reads of the data an expression runs on, each asked only when needed.
pub struct Sizes<'x> {
    /// The length of the list or map a path from a variable names (`None`: absent, or not one).
    pub size_of: &'x dyn Fn(&[&str]) -> Option<u64>,
    /// The byte length of the string a path from a variable names (`None`: absent, or not one).
    pub len_of: &'x dyn Fn(&[&str]) -> Option<u64>,
    /// The length of the largest list or map in the data.
    pub largest: &'x dyn Fn() -> u64,
    /// The byte length of the longest string in the data.
    pub longest: &'x dyn Fn() -> u64,
}

impl Compiled {
    /// [`cost_bound`] of this expression on the data `sizes` describes.
    pub fn cost_bound(&self, sizes: &Sizes<'_>) -> u64 {
        if let Some(constant) = self.constant {
            return constant;
        }
        bound_with(self.program.expression(), sizes, self.nodes, self.joins)
    }
}

/// Why an expression was refused: a message and the character range in the expression's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub message: String,
    /// Byte range in the expression text.
    pub range: std::ops::Range<usize>,
}

/// The longest expression accepted, in bytes. Policies are a line or two; the parser and the
/// evaluator recurse, so a megabyte-long chain of `&&` would exhaust a thread's stack.
pub const MAX_EXPRESSION_LEN: usize = 2000;
/// The deepest nesting of brackets accepted.
pub const MAX_NESTING: usize = 24;
/// The most operators (and member selections) accepted: each is a level of the tree the parser
/// and the evaluator recurse through.
pub const MAX_OPERATORS: usize = 200;

/// Refuses, before parsing, an expression whose tree would be too deep to parse or evaluate on a
/// worker thread's stack.
fn check_shape(source: &str) -> Result<(), ExprError> {
    if source.len() > MAX_EXPRESSION_LEN {
        return Err(ExprError {
            message: format!(
                "the expression is {} bytes long, over the limit of {MAX_EXPRESSION_LEN}; split the rule",
                source.len()
            ),
            range: MAX_EXPRESSION_LEN..next_char_end(source, MAX_EXPRESSION_LEN),
        });
    }
    let mut depth = 0usize;
    let mut operators = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut previous = ' ';
    for (at, c) in source.char_indices() {
        if let Some(open) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == open {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ExprError {
                        message: format!("brackets nest deeper than {MAX_NESTING} levels"),
                        range: at..at + 1,
                    });
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '&' | '|' | '+' | '-' | '*' | '/' | '%' | '<' | '>' | '!' | '?' | '.' | ',' => {
                // `&&`, `||`, `==`, `<=` count once.
                if c != previous || !matches!(c, '&' | '|') {
                    operators += 1;
                }
                if operators > MAX_OPERATORS {
                    return Err(ExprError {
                        message: format!(
                            "the expression has more than {MAX_OPERATORS} operators; split the rule"
                        ),
                        range: at..at + 1,
                    });
                }
            }
            _ => {}
        }
        previous = c;
    }
    Ok(())
}

/// Parses and checks one expression against the variables in scope.
pub fn compile(source: &str, variables: &[Variable]) -> Result<Compiled, ExprError> {
    check_shape(source)?;
    let program = match env().compile(source) {
        Ok(program) => program,
        Err(errors) => {
            let first = errors.errors.first();
            let message =
                first.map_or_else(|| "not a CEL expression".to_string(), |e| e.msg.clone());
            let (line, column) = first.map_or((1, 1), |e| e.pos);
            let start = offset_of_line_column(source, line, column);
            return Err(ExprError {
                message: format!("CEL syntax error: {message}"),
                range: start..next_char_end(source, start),
            });
        }
    };
    let mut checker = Checker {
        program: &program,
        source,
        variables,
        bound: Vec::new(),
    };
    checker.check(program.expression())?;
    let nodes = count_nodes(program.expression());
    let joins = count_joins(program.expression());
    // The bound on data that says nothing: if working it out never asked the data anything, it
    // is the bound on every entity.
    let asked = std::cell::Cell::new(false);
    let ask = |_: &[&str]| {
        asked.set(true);
        None
    };
    let ask_all = || {
        asked.set(true);
        0
    };
    let probe = Sizes {
        size_of: &ask,
        len_of: &ask,
        largest: &ask_all,
        longest: &ask_all,
    };
    let bound = bound_with(program.expression(), &probe, nodes, joins);
    Ok(Compiled {
        fast: super::fast::compile(program.expression()),
        nodes,
        joins,
        constant: (!asked.get()).then_some(bound),
        program,
        source: source.to_string(),
    })
}

/// The byte offset of a 1-based line and a 1-based column (in characters) of `text`, clamped.
fn offset_of_line_column(text: &str, line: isize, column: isize) -> usize {
    let mut offset = 0;
    for (index, content) in text.split_inclusive('\n').enumerate() {
        if index as isize + 1 == line {
            let column = column.max(1) as usize - 1;
            return offset
                + content
                    .char_indices()
                    .nth(column)
                    .map_or(content.trim_end_matches('\n').len(), |(i, _)| i);
        }
        offset += content.len();
    }
    text.len()
}

fn next_char_end(text: &str, start: usize) -> usize {
    text.get(start..)
        .and_then(|rest| rest.chars().next())
        .map_or(start, |c| start + c.len_utf8())
}

/// Byte offset of a character index of `text`.
fn byte_of_char(text: &str, index: usize) -> usize {
    text.char_indices()
        .nth(index)
        .map_or(text.len(), |(i, _)| i)
}

struct Checker<'a> {
    program: &'a Program,
    source: &'a str,
    variables: &'a [Variable],
    /// Comprehension variables in scope, innermost last.
    bound: Vec<&'a str>,
}

impl<'a> Checker<'a> {
    fn range_of(&self, expr: &IdedExpr) -> std::ops::Range<usize> {
        match self.program.source_info().offset_for(expr.id) {
            Some((start, stop)) => {
                // The parser's stop is the index of the last character, inclusive.
                let start = byte_of_char(self.source, start as usize);
                let stop = byte_of_char(self.source, stop as usize + 1).max(start);
                if stop > start {
                    start..stop
                } else {
                    start..next_char_end(self.source, start)
                }
            }
            None => 0..self.source.len(),
        }
    }

    fn fail(&self, expr: &IdedExpr, message: String) -> Result<(), ExprError> {
        Err(ExprError {
            message,
            range: self.range_of(expr),
        })
    }

    fn check(&mut self, expr: &'a IdedExpr) -> Result<(), ExprError> {
        match &expr.expr {
            Expr::Ident(name) => {
                if self.bound.iter().any(|b| b == name)
                    || self.variables.iter().any(|v| v.name == name)
                    || TYPE_NAMES.contains(&name.as_str())
                {
                    return Ok(());
                }
                let known: Vec<&str> = self.variables.iter().map(|v| v.name).collect();
                self.fail(
                    expr,
                    format!(
                        "unknown variable `{name}` (this rule can read {})",
                        known
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            }
            Expr::Select(select) => {
                if let Expr::Ident(root) = &select.operand.expr {
                    let closed = self
                        .variables
                        .iter()
                        .find(|v| v.name == root && !self.bound.iter().any(|b| b == root))
                        .and_then(|v| v.closed_fields);
                    if let Some(fields) = closed {
                        if !fields.contains(&select.field.as_str()) {
                            // The parser places a selection at its `.`: point at the field.
                            let mut range = self.range_of(expr);
                            let after = self.source.get(range.start..).unwrap_or("");
                            if let Some(rest) = after.strip_prefix('.') {
                                let skipped = rest.len() - rest.trim_start().len();
                                if rest.trim_start().starts_with(select.field.as_str()) {
                                    let start = range.start + 1 + skipped;
                                    range = start..start + select.field.len();
                                }
                            }
                            return Err(ExprError {
                                range,
                                message: format!(
                                    "`{root}` has no field `{}` (it has {})",
                                    select.field,
                                    fields
                                        .iter()
                                        .map(|f| format!("`{f}`"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            });
                        }
                    }
                }
                self.check(&select.operand)
            }
            Expr::Call(call) => {
                let name = call.func_name.as_str();
                let operator = name.starts_with(['_', '!', '-', '@']);
                if !operator && !FUNCTIONS.contains(&name) {
                    // The parser places a call at its `(`: point at the name before it.
                    let mut range = self.range_of(expr);
                    let before = self.source.get(..range.start).unwrap_or("");
                    if before.trim_end().ends_with(name) {
                        let end = before.trim_end().len();
                        range = end - name.len()..end;
                    }
                    return Err(ExprError {
                        range,
                        message: format!(
                            "unknown function `{name}`: policies can call CEL's standard functions \
                             only (size, contains, startsWith, endsWith, matches, the conversions \
                             and the macros has, all, exists, exists_one, map, filter)"
                        ),
                    });
                }
                if let Some(target) = &call.target {
                    self.check(target)?;
                }
                for arg in &call.args {
                    self.check(arg)?;
                }
                Ok(())
            }
            Expr::Comprehension(comprehension) => self.check_comprehension(comprehension),
            Expr::List(list) => {
                for element in &list.elements {
                    self.check(element)?;
                }
                Ok(())
            }
            Expr::Map(map) => {
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(entry) = &entry.expr {
                        self.check(&entry.key)?;
                        self.check(&entry.value)?;
                    }
                }
                Ok(())
            }
            Expr::Literal(_) => Ok(()),
            Expr::Struct(_) => self.fail(
                expr,
                "message construction is not supported in policies".to_string(),
            ),
            Expr::Unspecified => self.fail(expr, "not an expression".to_string()),
        }
    }

    fn check_comprehension(&mut self, c: &'a ComprehensionExpr) -> Result<(), ExprError> {
        self.check(&c.iter_range)?;
        self.check(&c.accu_init)?;
        let depth = self.bound.len();
        self.bound.push(&c.iter_var);
        if let Some(second) = &c.iter_var2 {
            self.bound.push(second);
        }
        self.bound.push(&c.accu_var);
        let result = self
            .check(&c.loop_cond)
            .and_then(|()| self.check(&c.loop_step))
            .and_then(|()| self.check(&c.result));
        self.bound.truncate(depth);
        result
    }
}

/// The fields of `variable` that `expr` reads (`tool.name`, `has(tool.idempotent)`), or all of
/// them when it reads the variable as a whole (`size(tool)`, `tool["name"]`, `tool.all(k, …)`).
pub fn fields_read(expr: &IdedExpr, variable: &str, wanted: &mut super::entity::Wanted) {
    match &expr.expr {
        Expr::Select(select) => match &select.operand.expr {
            Expr::Ident(name) if name == variable => {
                wanted.insert(&select.field);
            }
            _ => fields_read(&select.operand, variable, wanted),
        },
        Expr::Ident(name) if name == variable => wanted.all = true,
        _ => {
            for child in children(expr) {
                fields_read(child, variable, wanted);
            }
        }
    }
}

/// What one iteration of a comprehension costs beyond its body: binding its variables in a new
/// scope costs the interpreter several nodes' time.
pub const ITERATION_COST: u64 = 8;

/// Bytes of string work (comparing, searching, copying, matching on the lazy DFA) that count as
/// one step, the cost of evaluating one node.
pub const BYTES_PER_STEP: u64 = 16;

/// An upper bound on the work evaluating `expr` does on the data `sizes` describes, in steps (a
/// node evaluated, or [`BYTES_PER_STEP`] bytes of string work). A comprehension costs its
/// range's length times its body; a range that is no path from a variable (a list built by the
/// expression, an element of another range) is taken as the largest collection in the data,
/// times one more for every `+` in the expression (each can at most join two such lists).
/// Operations whose work grows with their operands cost that work: `x in list` the list's
/// length (times the compared strings' length), `size`, `contains`, `startsWith`, `endsWith`,
/// `matches`, comparisons, conversions and `+` the bytes they read or copy. An operand that is
/// no path from a variable and no literal is taken as the longest string (or largest
/// collection) in the data. Every byte an expression allocates is work it does, so the bound
/// also bounds its memory: [`BYTES_PER_STEP`] times [`COST_LIMIT`].
pub fn cost_bound(expr: &IdedExpr, sizes: &Sizes<'_>) -> u64 {
    bound_with(expr, sizes, count_nodes(expr), count_joins(expr))
}

fn bound_with(expr: &IdedExpr, sizes: &Sizes<'_>, nodes: u64, joins: u64) -> u64 {
    let fallback = std::cell::OnceCell::new();
    let fallback = || {
        *fallback.get_or_init(|| {
            (sizes.largest)()
                .max(nodes)
                .saturating_mul(joins.saturating_add(1))
        })
    };
    let meter = Meter {
        sizes,
        fallback: &fallback,
    };
    meter.cost(expr, &mut Vec::new())
}

fn count_nodes(expr: &IdedExpr) -> u64 {
    let mut count = 0;
    visit(expr, &mut |_| count += 1);
    count
}

fn count_joins(expr: &IdedExpr) -> u64 {
    let mut count = 0;
    visit(expr, &mut |e| {
        if matches!(&e.expr, Expr::Call(call) if call.func_name == "_+_") {
            count += 1;
        }
    });
    count
}

fn children(expr: &IdedExpr) -> Vec<&IdedExpr> {
    match &expr.expr {
        Expr::Call(call) => call.target.iter().map(|t| &**t).chain(&call.args).collect(),
        Expr::Comprehension(c) => vec![
            &c.iter_range,
            &c.accu_init,
            &c.loop_cond,
            &c.loop_step,
            &c.result,
        ],
        Expr::List(list) => list.elements.iter().collect(),
        Expr::Map(map) => map
            .entries
            .iter()
            .flat_map(|entry| match &entry.expr {
                EntryExpr::MapEntry(entry) => vec![&entry.key, &entry.value],
                EntryExpr::StructField(field) => vec![&field.value],
            })
            .collect(),
        Expr::Select(select) => vec![&*select.operand],
        Expr::Struct(_) | Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => Vec::new(),
    }
}

fn visit<'e>(expr: &'e IdedExpr, f: &mut dyn FnMut(&'e IdedExpr)) {
    f(expr);
    for child in children(expr) {
        visit(child, f);
    }
}

/// The dotted path an expression spells from a variable (`tool.input_schema.properties`), when
/// its root is not a comprehension variable.
fn path<'e>(expr: &'e IdedExpr, bound: &[&str]) -> Option<Vec<&'e str>> {
    let mut segments = Vec::new();
    let mut node = expr;
    loop {
        match &node.expr {
            Expr::Select(select) if !select.test => {
                segments.push(select.field.as_str());
                node = &select.operand;
            }
            Expr::Ident(name) if !bound.contains(&name.as_str()) => {
                segments.push(name.as_str());
                segments.reverse();
                return Some(segments);
            }
            _ => return None,
        }
    }
}

struct Meter<'m, 'x> {
    sizes: &'m Sizes<'x>,
    /// The length taken for a collection that is no path.
    fallback: &'m dyn Fn() -> u64,
}

/// The literal `expr` is, if it is one.
fn literal(expr: &IdedExpr) -> Option<&cel::common::ast::LiteralValue> {
    match &expr.expr {
        Expr::Literal(value) => Some(value),
        _ => None,
    }
}

/// The byte length of a literal (a number's digits are few).
fn literal_len(value: &cel::common::ast::LiteralValue) -> u64 {
    use cel::common::ast::LiteralValue;
    match value {
        LiteralValue::String(s) => s.inner().len() as u64,
        LiteralValue::Bytes(b) => b.inner().len() as u64,
        _ => 0,
    }
}

/// Bytes as steps, rounded up.
fn bytes(n: u64) -> u64 {
    n.div_ceil(BYTES_PER_STEP)
}

impl<'e> Meter<'_, '_> {
    /// An upper bound on the byte length of the string `expr` gives (0 for what is no string).
    fn len(&self, expr: &'e IdedExpr, bound: &mut Vec<&'e str>) -> u64 {
        if let Some(value) = literal(expr) {
            return literal_len(value);
        }
        if let Some(segments) = path(expr, bound) {
            return (self.sizes.len_of)(&segments).unwrap_or(0);
        }
        match &expr.expr {
            Expr::Call(call) => match (call.func_name.as_str(), call.args.as_slice()) {
                ("_+_", [a, b]) => self.len(a, bound).saturating_add(self.len(b, bound)),
                ("_?_:_", [_, a, b]) => self.len(a, bound).max(self.len(b, bound)),
                ("string" | "bytes", [a]) if call.target.is_none() => self.len(a, bound).max(32),
                (name, _) if returns_no_string(name) => 0,
                _ => (self.sizes.longest)(),
            },
            Expr::List(_) | Expr::Map(_) | Expr::Comprehension(_) => 0,
            _ => (self.sizes.longest)(),
        }
    }

    /// An upper bound on the length of the list or map `expr` gives (0 for what is none).
    fn count(&self, expr: &'e IdedExpr, bound: &mut Vec<&'e str>) -> u64 {
        if literal(expr).is_some() {
            return 0;
        }
        if let Some(segments) = path(expr, bound) {
            return (self.sizes.size_of)(&segments).unwrap_or(0);
        }
        match &expr.expr {
            Expr::List(list) => list.elements.len() as u64,
            Expr::Map(map) => map.entries.len() as u64,
            Expr::Comprehension(c) => self.range_len(c, bound),
            Expr::Call(call) => match (call.func_name.as_str(), call.args.as_slice()) {
                ("_+_", [a, b]) => self.count(a, bound).saturating_add(self.count(b, bound)),
                ("_?_:_", [_, a, b]) => self.count(a, bound).max(self.count(b, bound)),
                (name, _) if returns_no_string(name) => 0,
                _ => (self.fallback)(),
            },
            _ => (self.fallback)(),
        }
    }

    fn range_len(&self, c: &'e ComprehensionExpr, bound: &mut Vec<&'e str>) -> u64 {
        match (&c.iter_range.expr, path(&c.iter_range, bound)) {
            (Expr::List(list), _) => list.elements.len() as u64,
            (_, Some(segments)) => (self.sizes.size_of)(&segments).unwrap_or(0),
            (_, None) => (self.fallback)(),
        }
    }

    /// The work of the operation at `expr` itself, beyond visiting it and its operands.
    fn own_work(&self, expr: &'e IdedExpr, bound: &mut Vec<&'e str>, accu: Option<&str>) -> u64 {
        let Expr::Call(call) = &expr.expr else {
            return 0;
        };
        let args: Vec<&'e IdedExpr> = call
            .target
            .iter()
            .map(|t| &**t)
            .chain(call.args.iter())
            .collect();
        // The smaller of two operands' lengths, a literal's without asking the data.
        let min_len =
            |meter: &Self, a: &'e IdedExpr, b: &'e IdedExpr, bound: &mut Vec<&'e str>| match (
                literal(a),
                literal(b),
            ) {
                (Some(x), _) | (_, Some(x)) => literal_len(x),
                _ => meter.len(a, bound).min(meter.len(b, bound)),
            };
        match (call.func_name.as_str(), args.as_slice()) {
            ("@in", [item, collection]) => {
                let compared = match literal(item) {
                    Some(value) => literal_len(value),
                    None => self.len(item, bound),
                };
                self.count(collection, bound)
                    .saturating_mul(1 + bytes(compared))
            }
            ("_==_" | "_!=_" | "_<_" | "_<=_" | "_>_" | "_>=_", [a, b]) => {
                let lists = if literal(a).is_some() || literal(b).is_some() {
                    0
                } else {
                    self.count(a, bound).min(self.count(b, bound))
                };
                bytes(min_len(self, a, b, bound)).saturating_add(lists)
            }
            ("size", [a]) => bytes(self.len(a, bound)),
            ("contains", [text, part]) => {
                bytes(self.len(text, bound).saturating_add(self.len(part, bound)))
            }
            ("startsWith" | "endsWith", [text, part]) => bytes(min_len(self, text, part, bound)),
            ("matches", [text, pattern]) => {
                // A pattern that is no literal may be compiled on each call.
                let compiling = match literal(pattern) {
                    Some(_) => 0,
                    None => self
                        .len(pattern, bound)
                        .saturating_mul(4)
                        .saturating_add(100),
                };
                bytes(self.len(text, bound)).saturating_add(compiling)
            }
            ("_+_", [a, b]) => {
                let appends_to_accumulator = |e: &IdedExpr| matches!(&e.expr, Expr::Ident(name) if Some(name.as_str()) == accu);
                // `map` and `filter` append to their accumulator in place.
                if appends_to_accumulator(a) {
                    self.count(b, bound)
                } else {
                    bytes(self.len(a, bound).saturating_add(self.len(b, bound)))
                        .saturating_add(self.count(a, bound))
                        .saturating_add(self.count(b, bound))
                }
            }
            ("_[_]", [_, index]) => bytes(self.len(index, bound)),
            ("string" | "bytes" | "int" | "uint" | "double" | "bool", [a]) => {
                bytes(self.len(a, bound))
            }
            _ => 0,
        }
    }

    fn cost(&self, expr: &'e IdedExpr, bound: &mut Vec<&'e str>) -> u64 {
        self.cost_in(expr, bound, None)
    }

    fn cost_in(&self, expr: &'e IdedExpr, bound: &mut Vec<&'e str>, accu: Option<&str>) -> u64 {
        match &expr.expr {
            Expr::Comprehension(c) => {
                let length = self.range_len(c, bound);
                let outside = self
                    .cost_in(&c.iter_range, bound, accu)
                    .saturating_add(self.cost_in(&c.accu_init, bound, accu));
                let depth = bound.len();
                bound.push(&c.iter_var);
                if let Some(second) = &c.iter_var2 {
                    bound.push(second);
                }
                bound.push(&c.accu_var);
                let inner = Some(c.accu_var.as_str());
                let body = self
                    .cost_in(&c.loop_cond, bound, inner)
                    .saturating_add(self.cost_in(&c.loop_step, bound, inner))
                    .saturating_add(ITERATION_COST);
                let result = self.cost_in(&c.result, bound, inner);
                bound.truncate(depth);
                outside
                    .saturating_add(length.saturating_mul(body))
                    .saturating_add(result)
                    .saturating_add(1)
            }
            _ => {
                let mut total = 1u64.saturating_add(self.own_work(expr, bound, accu));
                for_each_child(expr, &mut |child| {
                    total = total.saturating_add(self.cost_in(child, bound, accu));
                });
                total
            }
        }
    }
}

/// Whether the function or operator `name` gives a boolean or a number, never a string or a
/// collection.
fn returns_no_string(name: &str) -> bool {
    matches!(
        name,
        "_==_"
            | "_!=_"
            | "_<_"
            | "_<=_"
            | "_>_"
            | "_>=_"
            | "_&&_"
            | "_||_"
            | "!_"
            | "-_"
            | "@in"
            | "size"
            | "contains"
            | "startsWith"
            | "endsWith"
            | "matches"
            | "int"
            | "uint"
            | "double"
            | "bool"
            | "_-_"
            | "_*_"
            | "_/_"
            | "_%_"
            | "@not_strictly_false"
    )
}

/// [`children`], without collecting them.
fn for_each_child<'e>(expr: &'e IdedExpr, f: &mut dyn FnMut(&'e IdedExpr)) {
    match &expr.expr {
        Expr::Call(call) => {
            if let Some(target) = &call.target {
                f(target);
            }
            call.args.iter().for_each(f);
        }
        Expr::Comprehension(c) => {
            for child in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                f(child);
            }
        }
        Expr::List(list) => list.elements.iter().for_each(f),
        Expr::Map(map) => {
            for entry in &map.entries {
                match &entry.expr {
                    EntryExpr::MapEntry(entry) => {
                        f(&entry.key);
                        f(&entry.value);
                    }
                    EntryExpr::StructField(field) => f(&field.value),
                }
            }
        }
        Expr::Select(select) => f(&select.operand),
        Expr::Struct(_) | Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VARS: &[Variable] = &[
        Variable {
            name: "tool",
            closed_fields: None,
        },
        Variable {
            name: "repo",
            closed_fields: Some(&["skills", "tools"]),
        },
    ];

    fn error(source: &str) -> (String, String) {
        match compile(source, VARS) {
            Ok(_) => panic!("`{source}` compiled"),
            Err(e) => (e.message, source[e.range].to_string()),
        }
    }

    #[test]
    fn unknown_variables_functions_and_closed_fields_are_refused_where_written() {
        let (message, at) = error("tool.name == toool.name");
        assert!(message.starts_with("unknown variable `toool`"), "{message}");
        assert_eq!(at, "toool");
        let (message, at) = error("now() > 1");
        assert!(message.starts_with("unknown function `now`"), "{message}");
        assert_eq!(at, "now");
        let (message, _) = error("timestamp('2024-01-01T00:00:00Z') > 1");
        assert!(
            message.starts_with("unknown function `timestamp`"),
            "{message}"
        );
        let (message, at) = error("repo.skils > 1");
        assert!(
            message.starts_with("`repo` has no field `skils`"),
            "{message}"
        );
        assert_eq!(at, "skils");
        // A comprehension variable is in scope inside its macro only.
        assert!(compile("[1, 2].all(x, x > 0)", VARS).is_ok());
        let (message, _) = error("[1, 2].all(x, x > 0) && x > 0");
        assert!(message.starts_with("unknown variable `x`"), "{message}");
    }

    #[test]
    fn a_syntax_error_points_at_the_character() {
        let (message, at) = error("tool.name == ");
        assert!(message.starts_with("CEL syntax error"), "{message}");
        assert!(at.is_empty() || at == " ", "{at:?}");
        let source = "tool.name ==* 'x'";
        let e = compile(source, VARS).expect_err("refused");
        assert_eq!(&source[e.range.clone()], "*", "{e:?}");
    }

    #[test]
    fn expressions_too_deep_for_a_thread_stack_are_refused_before_parsing() {
        let deep = format!("{}true{}", "(".repeat(5000), ")".repeat(5000));
        let (message, _) = error(&deep);
        assert!(message.contains("over the limit"), "{message}");
        let nested = format!(
            "{}true{}",
            "(".repeat(MAX_NESTING + 1),
            ")".repeat(MAX_NESTING + 1)
        );
        let (message, at) = error(&nested);
        assert!(message.starts_with("brackets nest deeper"), "{message}");
        assert_eq!(at, "(");
        let chain = vec!["true"; MAX_OPERATORS + 2].join(" && ");
        let (message, _) = error(&chain);
        assert!(message.contains("operators"), "{message}");
        // Within the limits, and brackets or operators inside strings do not count.
        let fine = vec!["true"; MAX_OPERATORS / 2].join(" && ");
        assert!(compile(&fine, VARS).is_ok());
        assert!(compile(&format!("tool.name != '{}'", "(".repeat(100)), VARS).is_ok());
    }

    #[test]
    fn matches_reads_the_pattern_and_refuses_a_bad_one() {
        let run = |source: &str| {
            let program = compile(source, VARS).expect("compiles").program;
            program.execute(&cel::Context::with_env(Arc::clone(env())))
        };
        assert_eq!(
            run("'abc-1'.matches('^[a-z]+-[0-9]$')"),
            Ok(cel::Value::Bool(true))
        );
        assert_eq!(
            run("matches('ABC', '^[a-z]+$')"),
            Ok(cel::Value::Bool(false))
        );
        // The second call finds the compiled pattern; a bad one is an evaluation error.
        assert_eq!(
            run("'x'.matches('^[a-z]+-[0-9]$')"),
            Ok(cel::Value::Bool(false))
        );
        assert!(run("'x'.matches('(')").is_err());
    }

    #[test]
    fn the_cost_bound_grows_with_the_ranges_and_their_nesting() {
        let program = compile("tool.tags.all(t, tool.tags.exists(u, u == t))", VARS)
            .expect("compiles")
            .program;
        let small = cost_bound(program.expression(), &sizes(10, 8));
        let large = cost_bound(program.expression(), &sizes(1000, 8));
        // Each iteration costs a few steps plus the bytes it compares: thousands, not millions.
        assert!(small < 10_000, "{small}");
        assert!(large > 100 * small, "{small} {large}");
        let runaway = compile(
            "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, a + b + c + d + e > 0)))))",
            VARS,
        )
        .expect("compiles")
        .program;
        assert!(cost_bound(runaway.expression(), &sizes(0, 0)) > COST_LIMIT);
    }

    /// Sizes where every collection has `n` elements and every string `len` bytes.
    fn sizes(n: u64, len: u64) -> Sizes<'static> {
        let n: &'static u64 = Box::leak(Box::new(n));
        let len: &'static u64 = Box::leak(Box::new(len));
        Sizes {
            size_of: Box::leak(Box::new(move |_: &[&str]| Some(*n))),
            len_of: Box::leak(Box::new(move |_: &[&str]| Some(*len))),
            largest: Box::leak(Box::new(move || *n)),
            longest: Box::leak(Box::new(move || *len)),
        }
    }

    #[test]
    fn work_that_grows_with_the_data_is_in_the_bound() {
        let bound = |source: &str, n: u64, len: u64| {
            let compiled = compile(source, VARS).expect("compiles");
            compiled.cost_bound(&sizes(n, len))
        };
        // `in` inside `all` is quadratic in the list.
        let quadratic = "tool.tags.all(t, t in tool.tags)";
        assert!(bound(quadratic, 100, 8) < 100_000);
        assert!(bound(quadratic, 100_000, 8) > COST_LIMIT);
        // String work grows with the string; a literal operand bounds it.
        assert!(bound("tool.description.contains('x')", 1, 16_000_000) > COST_LIMIT);
        assert!(bound("size(tool.description) > 3", 1, 16_000_000) > COST_LIMIT);
        assert!(bound("tool.description.matches('a+')", 1, 16_000_000) > COST_LIMIT);
        assert!(bound("tool.description.startsWith('x')", 1, 16_000_000) < 100);
        assert!(bound("tool.description == 'x'", 1, 16_000_000) < 100);
        // Joining strings in a comprehension copies them each time.
        let joins = "tool.tags.all(t, size(tool.description + t) > 0)";
        assert!(bound(joins, 1000, 1_000_000) > COST_LIMIT);
        assert!(bound(joins, 10, 100) < 10_000);
        // Without data-dependent work, the bound is known at compile time.
        let constant = compile("has(tool.name) && tool.name == 'x'", VARS).expect("compiles");
        assert!(constant.constant.is_some());
        let dependent = compile("tool.name.contains('x')", VARS).expect("compiles");
        assert!(dependent.constant.is_none());
    }
}
