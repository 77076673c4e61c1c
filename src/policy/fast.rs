//! A shortcut for the expressions most policies are made of: `has()` tests, comparisons of a
//! field with a literal, `size()`, the string tests, `in` a list of strings, `&&`, `||`, `!` and
//! `all` / `exists` over a field. Such an expression is also compiled into a [`Test`], which reads
//! the entity's fields where they are (the source nodes, the derived facts) instead of going
//! through the CEL interpreter, whose every field selection joins the dotted name and looks it up
//! in several scopes.
//!
//! A [`Test`] only answers when CEL would give a boolean without any error: on anything else (a
//! missing field selected without `has()`, two operands of different types, a double, a map where
//! a list was expected, a bad pattern) it gives `None` and the expression is evaluated by CEL, so
//! that results and error messages are CEL's. Debug builds evaluate both and compare them.

use super::entity::{Entity, Var};
use crate::parse::node::{Node, Value as NodeValue};
use cel::common::ast::operators;
use cel::common::ast::{Expr, IdedExpr, LiteralValue};
use cel::objects::Key;
use cel::Value;

/// A boolean-valued expression.
#[derive(Debug)]
pub enum Test {
    Literal(bool),
    And(Box<Test>, Box<Test>),
    Or(Box<Test>, Box<Test>),
    Not(Box<Test>),
    /// `has(place.field)`.
    Has(Place, String),
    /// A field that holds a boolean.
    Truthy(Place),
    Compare(Comparison, Operand, Operand),
    /// `text.contains(needle)` and the like.
    Text(TextTest, Operand, Operand),
    /// `needle in place`, over a list of strings.
    InList(Operand, Place),
    /// `place.all(v, body)` (`all`) or `place.exists(v, body)`.
    Quantifier {
        all: bool,
        range: Place,
        body: Box<Test>,
    },
}

#[derive(Debug, Clone, Copy)]
pub enum Comparison {
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
}

#[derive(Debug, Clone, Copy)]
pub enum TextTest {
    Contains,
    StartsWith,
    EndsWith,
    Matches,
}

/// A value-valued expression.
#[derive(Debug)]
pub enum Operand {
    Place(Place),
    Size(Place),
    String(String),
    Int(i64),
    Bool(bool),
}

/// A dotted path: from a variable of the evaluation, or from a comprehension variable.
#[derive(Debug)]
pub struct Place {
    root: Root,
    fields: Vec<String>,
}

#[derive(Debug)]
enum Root {
    Variable(String),
    /// The comprehension variable this many levels out (0: the innermost).
    Bound(usize),
}

/// Compiles `expr` into a [`Test`], if it is made only of the supported shapes.
pub fn compile(expr: &IdedExpr) -> Option<Test> {
    test(expr, &mut Vec::new())
}

fn test(expr: &IdedExpr, bound: &mut Vec<String>) -> Option<Test> {
    match &expr.expr {
        Expr::Literal(LiteralValue::Boolean(b)) => Some(Test::Literal(*b.inner())),
        Expr::Select(select) if select.test => {
            // The variable itself may hold the field: `has(tool.idempotent)`.
            let place = place_or_variable(&select.operand, bound)?;
            Some(Test::Has(place, select.field.clone()))
        }
        Expr::Select(_) | Expr::Ident(_) => Some(Test::Truthy(place(expr, bound)?)),
        Expr::Call(call) => {
            let name = call.func_name.as_str();
            match (&call.target, call.args.as_slice()) {
                (None, [left, right]) => {
                    let comparison = match name {
                        operators::LOGICAL_AND => {
                            return Some(Test::And(
                                Box::new(test(left, bound)?),
                                Box::new(test(right, bound)?),
                            ))
                        }
                        operators::LOGICAL_OR => {
                            return Some(Test::Or(
                                Box::new(test(left, bound)?),
                                Box::new(test(right, bound)?),
                            ))
                        }
                        operators::IN => {
                            return Some(Test::InList(operand(left, bound)?, place(right, bound)?))
                        }
                        "matches" => {
                            return Some(Test::Text(
                                TextTest::Matches,
                                operand(left, bound)?,
                                operand(right, bound)?,
                            ))
                        }
                        operators::EQUALS => Comparison::Equal,
                        operators::NOT_EQUALS => Comparison::NotEqual,
                        operators::LESS => Comparison::Less,
                        operators::LESS_EQUALS => Comparison::LessEqual,
                        operators::GREATER => Comparison::Greater,
                        operators::GREATER_EQUALS => Comparison::GreaterEqual,
                        _ => return None,
                    };
                    Some(Test::Compare(
                        comparison,
                        operand(left, bound)?,
                        operand(right, bound)?,
                    ))
                }
                (None, [inner]) if name == operators::LOGICAL_NOT => {
                    Some(Test::Not(Box::new(test(inner, bound)?)))
                }
                (Some(target), [argument]) => {
                    let text = match name {
                        "contains" => TextTest::Contains,
                        "startsWith" => TextTest::StartsWith,
                        "endsWith" => TextTest::EndsWith,
                        "matches" => TextTest::Matches,
                        _ => return None,
                    };
                    Some(Test::Text(
                        text,
                        operand(target, bound)?,
                        operand(argument, bound)?,
                    ))
                }
                _ => None,
            }
        }
        Expr::Comprehension(c) => {
            // The expansion of `all` and `exists`: an accumulator that starts `true` (`false`),
            // a step `@result && body` (`||`), and the accumulator as the result. `@result`
            // cannot be written in an expression, so this shape is the macros' alone.
            if c.iter_var2.is_some() || !c.accu_var.starts_with('@') {
                return None;
            }
            let Expr::Literal(LiteralValue::Boolean(init)) = &c.accu_init.expr else {
                return None;
            };
            let all = *init.inner();
            let is_accu = |e: &IdedExpr| matches!(&e.expr, Expr::Ident(n) if *n == c.accu_var);
            let Expr::Call(step) = &c.loop_step.expr else {
                return None;
            };
            let connective = if all {
                operators::LOGICAL_AND
            } else {
                operators::LOGICAL_OR
            };
            let [accu, body] = step.args.as_slice() else {
                return None;
            };
            if step.target.is_some()
                || step.func_name != connective
                || !is_accu(accu)
                || !is_accu(&c.result)
            {
                return None;
            }
            let range = place(&c.iter_range, bound)?;
            bound.push(c.iter_var.clone());
            let body = test(body, bound);
            bound.pop();
            Some(Test::Quantifier {
                all,
                range,
                body: Box::new(body?),
            })
        }
        _ => None,
    }
}

fn operand(expr: &IdedExpr, bound: &[String]) -> Option<Operand> {
    match &expr.expr {
        Expr::Literal(LiteralValue::String(s)) => Some(Operand::String(s.inner().to_string())),
        Expr::Literal(LiteralValue::Int(i)) => Some(Operand::Int(*i.inner())),
        Expr::Literal(LiteralValue::Boolean(b)) => Some(Operand::Bool(*b.inner())),
        Expr::Select(select) if !select.test => Some(Operand::Place(place(expr, bound)?)),
        Expr::Ident(_) => Some(Operand::Place(place(expr, bound)?)),
        Expr::Call(call) if call.func_name == "size" && call.target.is_none() => {
            match call.args.as_slice() {
                [inner] => Some(Operand::Size(place(inner, bound)?)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A dotted path from a variable; a variable alone only when it is a comprehension's (an entity
/// as a whole holds only the fields the run's rules read).
fn place(expr: &IdedExpr, bound: &[String]) -> Option<Place> {
    place_or_variable(expr, bound)
        .filter(|p| !p.fields.is_empty() || matches!(p.root, Root::Bound(_)))
}

/// A dotted path from a variable, or the variable alone: only what [`Read::member`] reads.
fn place_or_variable(expr: &IdedExpr, bound: &[String]) -> Option<Place> {
    let mut fields = Vec::new();
    let mut node = expr;
    loop {
        match &node.expr {
            Expr::Select(select) if !select.test => {
                fields.push(select.field.clone());
                node = &select.operand;
            }
            Expr::Ident(name) => {
                fields.reverse();
                let root = match bound.iter().rev().position(|b| b == name) {
                    Some(depth) => Root::Bound(depth),
                    None => Root::Variable(name.clone()),
                };
                return Some(Place { root, fields });
            }
            _ => return None,
        }
    }
}

/// A value a [`Test`] reads.
#[derive(Clone, Copy)]
enum Read<'x, 'a> {
    Entity(&'x Entity<'a>),
    Node(&'x Node),
    Value(&'x Value),
    /// A string that is no source node: a map key, as a comprehension over a map binds it, or a
    /// derived string.
    Key(&'x str),
}

/// A value as CEL compares it; anything else is left to CEL.
#[derive(PartialEq, PartialOrd)]
enum Scalar<'x> {
    String(&'x str),
    Int(i64),
    Bool(bool),
}

/// A member of a map: `Ok(None)` when the map has no such key, `Err` when it is no map.
type Member<'x, 'a> = Result<Option<Read<'x, 'a>>, ()>;

impl<'x, 'a> Read<'x, 'a> {
    fn member(self, name: &str) -> Member<'x, 'a> {
        match self {
            Read::Entity(entity) => Ok(entity.member(name).map(|found| match found {
                super::entity::Member::Node(node) => Read::Node(node),
                super::entity::Member::Value(value) => Read::Value(value),
                super::entity::Member::Str(text) => Read::Key(text),
                super::entity::Member::Entity(entity) => Read::Entity(entity),
            })),
            Read::Node(node) => match &node.value {
                NodeValue::Object(_) => Ok(node.get(name).map(Read::Node)),
                _ => Err(()),
            },
            Read::Value(Value::Map(map)) => Ok(map.map.get(&Key::from(name)).map(Read::Value)),
            Read::Value(_) | Read::Key(_) => Err(()),
        }
    }

    /// The value as CEL's converted from the source reads it (see `entity::node_val`).
    fn scalar(self) -> Option<Scalar<'x>> {
        match self {
            Read::Node(node) => match &node.value {
                NodeValue::String(s) => Some(Scalar::String(s)),
                NodeValue::Bool(b) => Some(Scalar::Bool(*b)),
                NodeValue::Number(n) if n.integer => n.raw.parse::<i64>().ok().map(Scalar::Int),
                _ => None,
            },
            Read::Value(Value::String(s)) => Some(Scalar::String(s)),
            Read::Value(Value::Int(i)) => Some(Scalar::Int(*i)),
            Read::Value(Value::Bool(b)) => Some(Scalar::Bool(*b)),
            Read::Key(key) => Some(Scalar::String(key)),
            _ => None,
        }
    }

    /// `size()` of a string (in characters, as CEL counts) or a list.
    fn size(self) -> Option<i64> {
        let size = match self {
            Read::Node(node) => match &node.value {
                NodeValue::String(s) => s.chars().count(),
                NodeValue::Array(items) => items.len(),
                _ => return None,
            },
            Read::Value(Value::String(s)) => s.chars().count(),
            Read::Value(Value::List(items)) => items.len(),
            Read::Key(key) => key.chars().count(),
            _ => return None,
        };
        i64::try_from(size).ok()
    }
}

/// The variables of one evaluation, and the comprehension variables bound in it.
struct Scope<'v, 'x, 'a> {
    variables: &'v [(&'v str, Var<'x, 'a>)],
    bound: Vec<Read<'x, 'a>>,
}

impl<'x, 'a> Scope<'_, 'x, 'a> {
    fn read(&self, place: &Place) -> Option<Read<'x, 'a>> {
        let mut value = match &place.root {
            Root::Bound(depth) => *self.bound.iter().rev().nth(*depth)?,
            Root::Variable(name) => match self.variables.iter().find(|(n, _)| n == name)?.1 {
                Var::Entity(entity) => Read::Entity(entity),
                Var::Value(value) => Read::Value(value),
            },
        };
        for field in &place.fields {
            // A missing key selected without `has()` is CEL's error.
            value = value.member(field).ok()??;
        }
        Some(value)
    }

    fn operand<'o>(&'o self, operand: &'o Operand) -> Option<Scalar<'o>>
    where
        'x: 'o,
    {
        match operand {
            Operand::Place(place) => self.read(place)?.scalar(),
            Operand::Size(place) => self.read(place)?.size().map(Scalar::Int),
            Operand::String(s) => Some(Scalar::String(s)),
            Operand::Int(i) => Some(Scalar::Int(*i)),
            Operand::Bool(b) => Some(Scalar::Bool(*b)),
        }
    }

    fn test(&mut self, test: &Test) -> Option<bool> {
        match test {
            Test::Literal(b) => Some(*b),
            // `false && error` is false and `true || error` true, in CEL as here; any other
            // error is CEL's to report.
            Test::And(left, right) => match self.test(left)? {
                false => Some(false),
                true => self.test(right),
            },
            Test::Or(left, right) => match self.test(left)? {
                true => Some(true),
                false => self.test(right),
            },
            Test::Not(inner) => self.test(inner).map(|b| !b),
            Test::Has(place, field) => self.read(place)?.member(field).ok().map(|m| m.is_some()),
            Test::Truthy(place) => match self.read(place)?.scalar()? {
                Scalar::Bool(b) => Some(b),
                _ => None,
            },
            Test::Compare(comparison, left, right) => {
                let (left, right) = (self.operand(left)?, self.operand(right)?);
                // Only values of one type: CEL's rules across types are left to CEL.
                if std::mem::discriminant(&left) != std::mem::discriminant(&right) {
                    return None;
                }
                Some(match comparison {
                    Comparison::Equal => left == right,
                    Comparison::NotEqual => left != right,
                    // Ordering: integers only (bool and string order are CEL's).
                    _ if !matches!(left, Scalar::Int(_)) => return None,
                    Comparison::Less => left < right,
                    Comparison::LessEqual => left <= right,
                    Comparison::Greater => left > right,
                    Comparison::GreaterEqual => left >= right,
                })
            }
            Test::Text(kind, text, argument) => {
                let (Scalar::String(text), Scalar::String(argument)) =
                    (self.operand(text)?, self.operand(argument)?)
                else {
                    return None;
                };
                match kind {
                    TextTest::Contains => Some(text.contains(argument)),
                    TextTest::StartsWith => Some(text.starts_with(argument)),
                    TextTest::EndsWith => Some(text.ends_with(argument)),
                    TextTest::Matches => super::pattern::is_match(text, argument).ok(),
                }
            }
            Test::InList(needle, place) => {
                let Scalar::String(needle) = self.operand(needle)? else {
                    return None;
                };
                let mut found = false;
                let ok = self.each(place, |item| match item.scalar() {
                    Some(Scalar::String(s)) => {
                        found |= s == needle;
                        Some(true)
                    }
                    _ => None,
                })?;
                ok.then_some(found)
            }
            Test::Quantifier { all, range, body } => {
                // `all` stops at the first false, `exists` at the first true, as CEL does.
                let step = |scope: &mut Self, item| {
                    scope.bound.push(item);
                    let result = scope.test(body);
                    scope.bound.pop();
                    result.map(|b| b == *all)
                };
                let mut go_on = true;
                match self.read(range)? {
                    Read::Node(node) => match &node.value {
                        NodeValue::Array(items) => {
                            for item in items {
                                go_on = step(self, Read::Node(item))?;
                                if !go_on {
                                    break;
                                }
                            }
                        }
                        NodeValue::Object(members) => {
                            for member in members {
                                go_on = step(self, Read::Key(member.key.as_str()))?;
                                if !go_on {
                                    break;
                                }
                            }
                        }
                        _ => return None,
                    },
                    Read::Value(Value::List(items)) => {
                        for item in items.iter() {
                            go_on = step(self, Read::Value(item))?;
                            if !go_on {
                                break;
                            }
                        }
                    }
                    Read::Value(Value::Map(map)) => {
                        // Every key must be a string for the shortcut to answer.
                        if !map.map.keys().all(|k| matches!(k, Key::String(_))) {
                            return None;
                        }
                        for key in map.map.keys() {
                            if let Key::String(key) = key {
                                go_on = step(self, Read::Key(key.as_str()))?;
                                if !go_on {
                                    break;
                                }
                            }
                        }
                    }
                    _ => return None,
                }
                Some(if go_on { *all } else { !*all })
            }
        }
    }

    /// Calls `f` on every item of a list; `None` as soon as one gives `None`.
    fn each(&self, place: &Place, mut f: impl FnMut(Read<'x, 'a>) -> Option<bool>) -> Option<bool> {
        match self.read(place)? {
            Read::Node(Node {
                value: NodeValue::Array(items),
                ..
            }) => {
                for item in items {
                    f(Read::Node(item))?;
                }
            }
            Read::Value(Value::List(items)) => {
                for item in items.iter() {
                    f(Read::Value(item))?;
                }
            }
            _ => return None,
        }
        Some(true)
    }
}

/// Evaluates `test` on `variables`: `None` when CEL has to.
pub fn evaluate(test: &Test, variables: &[(&str, Var<'_, '_>)]) -> Option<bool> {
    Scope {
        variables,
        bound: Vec::new(),
    }
    .test(test)
}

#[cfg(test)]
mod tests {
    use super::super::expr::{compile as compile_expr, env, Variable};
    use super::*;
    use cel::Context;
    use std::collections::HashMap;
    use std::sync::Arc;

    const VARIABLES: &[Variable] = &[
        Variable {
            name: "tool",
            closed_fields: None,
        },
        Variable {
            name: "skill",
            closed_fields: None,
        },
    ];

    fn map(entries: &[(&str, Value)]) -> Value {
        let map: HashMap<Key, Value> = entries
            .iter()
            .map(|(k, v)| (Key::from(*k), v.clone()))
            .collect();
        Value::Map(cel::objects::Map { map: Arc::new(map) })
    }

    fn string(s: &str) -> Value {
        Value::String(Arc::new(s.to_string()))
    }

    fn list(items: &[Value]) -> Value {
        Value::List(Arc::new(items.to_vec()))
    }

    /// The shortcut's answer and CEL's on `tool`, with an empty `skill`.
    fn both(source: &str, tool: &Value) -> (Option<bool>, cel::ResolveResult) {
        let compiled = compile_expr(source, VARIABLES).expect("compiles");
        let skill = map(&[]);
        let variables = [("tool", Var::Value(tool)), ("skill", Var::Value(&skill))];
        let fast = compiled.fast.as_ref().and_then(|t| evaluate(t, &variables));
        let mut context = Context::with_env(Arc::clone(env()));
        context.add_variable_from_value("tool", tool.clone());
        context.add_variable_from_value("skill", skill);
        (fast, compiled.program.execute(&context))
    }

    fn tools() -> Vec<Value> {
        vec![
            map(&[]),
            map(&[
                ("name", string("search_orders")),
                ("side_effect", string("write")),
                ("idempotent", Value::Bool(false)),
                ("risk", Value::Int(4)),
                ("tags", list(&[string("pii"), string("billing")])),
                (
                    "schema",
                    map(&[("properties", map(&[("a_long_property_name", Value::Null)]))]),
                ),
            ]),
            map(&[
                ("name", string("été")),
                ("side_effect", string("read")),
                ("idempotent", Value::Bool(true)),
                ("risk", Value::Int(1)),
                ("tags", list(&[])),
                ("schema", map(&[("properties", map(&[]))])),
            ]),
        ]
    }

    #[test]
    fn the_shortcut_answers_the_common_shapes_as_cel_does() {
        let expressions = [
            "has(tool.name) && tool.name.startsWith(\"search\")",
            "!has(tool.name) || size(tool.name) <= 3",
            "has(tool.idempotent) && tool.idempotent",
            "!has(tool.risk) || tool.risk <= 3",
            "has(tool.risk) && (tool.risk > 3 || tool.risk < 2 || tool.risk >= 4 || tool.risk == 1)",
            "has(tool.side_effect) && tool.side_effect != \"write\"",
            "has(tool.tags) && \"pii\" in tool.tags",
            "has(tool.tags) && tool.tags.exists(t, t.endsWith(\"ing\"))",
            "has(tool.tags) && tool.tags.all(t, t.contains(\"i\") && size(t) > 2)",
            "!has(tool.schema) || !has(tool.schema.properties) || tool.schema.properties.all(p, size(p) <= 10)",
            "has(tool.name) && tool.name.matches(\"^[a-z_]+$\") && matches(tool.name, \"s\")",
            "has(skill.name) || true",
        ];
        for source in expressions {
            for tool in tools() {
                let (fast, cel) = both(source, &tool);
                let fast = fast.unwrap_or_else(|| panic!("`{source}` on {tool:?}: no answer"));
                assert_eq!(cel, Ok(Value::Bool(fast)), "`{source}` on {tool:?}");
            }
        }
    }

    #[test]
    fn errors_and_mixed_types_are_left_to_cel() {
        let tool = &tools()[1];
        for source in [
            // A missing field without `has()`: CEL's error.
            "tool.missing == \"x\"",
            "tool.schema.missing.all(p, true)",
            // Across types, doubles, maps where lists are expected: CEL's rules.
            "tool.risk == \"4\"",
            "tool.risk < 4.5",
            "\"a_long_property_name\" in tool.schema.properties",
            "size(tool.schema) > 0",
            "tool.name < \"z\"",
            // A bad pattern is CEL's error.
            "tool.name.matches(\"(\")",
            // Functions and operators it does not know.
            "tool.risk + 1 > 4",
        ] {
            let (fast, _) = both(source, tool);
            assert_eq!(fast, None, "`{source}`");
        }
        // Short circuits that hide an error answer as CEL does.
        let (fast, cel) = both("false && tool.missing == \"x\"", tool);
        assert_eq!((fast, cel), (Some(false), Ok(Value::Bool(false))));
        let (fast, cel) = both("tool.tags.all(t, t == \"billing\" && tool.missing)", tool);
        assert_eq!((fast, cel), (Some(false), Ok(Value::Bool(false))));
    }
}
