//! Strict JSON with a span on every key and value (jsonc-parser with every extension switched off).

use super::node::{Member, Node, Number, Value};
use crate::source::Span;
use jsonc_parser::ast;
use jsonc_parser::{CollectOptions, CommentCollectionStrategy, ParseOptions};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub message: String,
    /// Where the parser stopped.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DuplicateKey {
    pub key: String,
    pub first: Span,
    pub duplicate: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct JsonDocument {
    pub root: Node,
    /// Duplicate object keys are legal JSON but almost always a mistake; the rules report them.
    pub duplicate_keys: Vec<DuplicateKey>,
}

fn strict_options() -> ParseOptions {
    ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Parses strict JSON (RFC 8259). Nesting deeper than 512 levels is an error, not a stack overflow.
pub fn parse_json_document(text: &str) -> Result<JsonDocument, JsonError> {
    let collect = CollectOptions {
        comments: CommentCollectionStrategy::Off,
        tokens: false,
    };
    let parsed = jsonc_parser::parse_to_ast(text, &collect, &strict_options()).map_err(|e| {
        let range = e.range();
        JsonError {
            message: e.kind().to_string(),
            span: Span::new(range.start, range.end.max(range.start)),
        }
    })?;
    let Some(value) = parsed.value else {
        return Err(JsonError {
            message: "the file contains no JSON value".to_string(),
            span: Span::empty(text.len()),
        });
    };
    let mut duplicate_keys = Vec::new();
    let root = convert(&value, &mut duplicate_keys);
    Ok(JsonDocument {
        root,
        duplicate_keys,
    })
}

pub fn parse_json(text: &str) -> Result<Node, JsonError> {
    parse_json_document(text).map(|d| d.root)
}

fn span(range: &jsonc_parser::common::Range) -> Span {
    Span::new(range.start, range.end)
}

fn convert(value: &ast::Value<'_>, duplicates: &mut Vec<DuplicateKey>) -> Node {
    match value {
        ast::Value::StringLit(s) => Node::new(span(&s.range), Value::String(s.value.to_string())),
        ast::Value::NumberLit(n) => {
            let raw = n.value.to_string();
            let integer = !raw.contains(['.', 'e', 'E']);
            let parsed = raw.parse::<f64>().unwrap_or(f64::NAN);
            Node::new(
                span(&n.range),
                Value::Number(Number {
                    raw,
                    value: parsed,
                    integer,
                }),
            )
        }
        ast::Value::BooleanLit(b) => Node::new(span(&b.range), Value::Bool(b.value)),
        ast::Value::NullKeyword(n) => Node::new(span(&n.range), Value::Null),
        ast::Value::Array(a) => Node::new(
            span(&a.range),
            Value::Array(a.elements.iter().map(|e| convert(e, duplicates)).collect()),
        ),
        ast::Value::Object(o) => {
            let mut members: Vec<Member> = Vec::with_capacity(o.properties.len());
            for prop in &o.properties {
                let (key, key_span) = match &prop.name {
                    ast::ObjectPropName::String(s) => (s.value.to_string(), span(&s.range)),
                    ast::ObjectPropName::Word(w) => (w.value.to_string(), span(&w.range)),
                };
                if let Some(first) = members.iter().find(|m| m.key == key) {
                    duplicates.push(DuplicateKey {
                        key: key.clone(),
                        first: first.key_span,
                        duplicate: key_span,
                    });
                }
                members.push(Member {
                    key,
                    key_span,
                    value: convert(&prop.value, duplicates),
                });
            }
            Node::new(span(&o.range), Value::Object(members))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_keys_and_values() {
        let text = "{\n  \"name\": \"x\",\n  \"n\": 1.5\n}";
        let doc = parse_json_document(text).expect("valid");
        let member = doc.root.member("name").expect("member");
        assert_eq!(
            &text[member.key_span.start..member.key_span.end],
            "\"name\""
        );
        assert_eq!(
            &text[member.value.span.start..member.value.span.end],
            "\"x\""
        );
        assert_eq!(doc.root.get("n").and_then(Node::as_f64), Some(1.5));
    }

    #[test]
    fn rejects_json5_extensions() {
        for text in [
            "{\"a\": 1,}",
            "// c\n{}",
            "{'a': 1}",
            "{a: 1}",
            "[0x10]",
            "[+1]",
        ] {
            assert!(parse_json(text).is_err(), "{text} must be rejected");
        }
    }

    #[test]
    fn truncated_json_reports_where_it_stopped() {
        let text = "[{\"name\": \"x\"";
        let err = parse_json(text).expect_err("truncated");
        assert!(err.span.start <= text.len());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let err = parse_json(&text).expect_err("too deep");
        assert!(err.message.contains("nesting"), "{}", err.message);
    }

    #[test]
    fn duplicate_keys_are_recorded() {
        let doc = parse_json_document(r#"{"a": 1, "a": 2}"#).expect("valid");
        assert_eq!(doc.duplicate_keys.len(), 1);
        assert_eq!(doc.duplicate_keys[0].key, "a");
    }

    #[test]
    fn empty_input_is_an_error() {
        assert!(parse_json("  \n").is_err());
    }
}
