//! Strict JSON with a span on every key and value (jsonc-parser with every extension switched off).

use super::node::{KeyIndex, Member, Node, Number, Value};
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
    // A UTF-8 byte order mark is not JSON, but editors on Windows write one. Read as the three
    // bytes of whitespace it occupies, every span stays an offset into the file as it is.
    let spaced;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            spaced = format!("   {rest}");
            spaced.as_str()
        }
        None => text,
    };
    // Almost every file is plain valid JSON: a direct pass builds the tree without jsonc-parser's
    // intermediate AST (which cost a third of JSON time and most of its allocations). Anything the
    // direct pass does not accept goes to jsonc-parser, whose messages the diagnostics rely on.
    match fast::parse(text) {
        Some(document) => Ok(document),
        None => parse_json_document_with_jsonc(text),
    }
}

/// The reference parser (jsonc-parser in strict mode). Public so the fuzz target can check that the
/// direct pass agrees with it.
#[doc(hidden)]
pub fn parse_json_document_with_jsonc(text: &str) -> Result<JsonDocument, JsonError> {
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
                Value::Number(Box::new(Number {
                    raw,
                    value: parsed,
                    integer,
                })),
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
            let mut keys = KeyIndex::default();
            for prop in &o.properties {
                let (key, key_span) = match &prop.name {
                    ast::ObjectPropName::String(s) => (s.value.to_string(), span(&s.range)),
                    ast::ObjectPropName::Word(w) => (w.value.to_string(), span(&w.range)),
                };
                if let Some(first) = keys.find(&members, &key).and_then(|i| members.get(i)) {
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

/// For a JSON string literal as written (`raw`, quotes included, starting at file offset
/// `base`): the file offset of every byte of its decoded text, and one more for its end. `None`
/// when the literal has no escape, where byte `i` of the text is at `base + 1 + i`.
pub fn string_offsets(raw: &str, base: usize) -> Option<Vec<usize>> {
    if !raw.contains('\\') {
        return None;
    }
    let bytes = raw.as_bytes();
    let mut offsets = Vec::with_capacity(raw.len());
    let mut i = usize::from(bytes.first() == Some(&b'"'));
    let end = if raw.len() > i && bytes.last() == Some(&b'"') {
        raw.len() - 1
    } else {
        raw.len()
    };
    let hex = |at: usize| {
        raw.get(at..at + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    while i < end {
        let start = i;
        if bytes[i] != b'\\' {
            let len = raw[i..].chars().next().map_or(1, char::len_utf8);
            offsets.extend((0..len).map(|k| base + i + k));
            i += len;
            continue;
        }
        // Every byte an escape decodes to is placed at the escape's backslash.
        let (decoded_len, raw_len) = match (bytes.get(i + 1), hex(i + 2)) {
            (Some(b'u'), Some(0xD800..=0xDBFF))
                if raw.get(i + 6..i + 8) == Some("\\u")
                    && hex(i + 8).is_some_and(|low| (0xDC00..0xE000).contains(&low)) =>
            {
                (4, 12)
            }
            (Some(b'u'), Some(code)) => (char::from_u32(code).map_or(3, char::len_utf8), 6),
            _ => (1, 2),
        };
        offsets.extend((0..decoded_len).map(|_| base + start));
        i += raw_len;
    }
    offsets.push(base + end);
    Some(offsets)
}

/// A strict JSON parser for the common case. It accepts a subset of what jsonc-parser accepts and
/// returns `None` for everything else (errors included), so the caller can defer to jsonc-parser.
mod fast {
    use super::{DuplicateKey, JsonDocument};
    use crate::parse::node::{KeyIndex, Member, Node, Number, Value};
    use crate::source::Span;

    /// Below jsonc-parser's own limit, so deep documents get its error message.
    const MAX_DEPTH: usize = 500;

    pub fn parse(text: &str) -> Option<JsonDocument> {
        let mut parser = Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            depth: 0,
            duplicates: Vec::new(),
            item_stack: Vec::new(),
            member_stack: Vec::new(),
        };
        parser.skip_whitespace();
        let root = parser.value()?;
        parser.skip_whitespace();
        if parser.pos != parser.bytes.len() {
            return None;
        }
        Some(JsonDocument {
            root,
            duplicate_keys: parser.duplicates,
        })
    }

    struct Parser<'a> {
        text: &'a str,
        bytes: &'a [u8],
        pos: usize,
        depth: usize,
        duplicates: Vec<DuplicateKey>,
        /// Values of the arrays and objects being read, innermost last: each collection is
        /// moved into a vector of exactly its size when it closes, instead of growing its own.
        item_stack: Vec<Node>,
        member_stack: Vec<Member>,
    }

    impl Parser<'_> {
        fn skip_whitespace(&mut self) {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
        }

        fn value(&mut self) -> Option<Node> {
            let start = self.pos;
            match *self.bytes.get(self.pos)? {
                b'{' => self.object(),
                b'[' => self.array(),
                b'"' => {
                    let text = self.string()?;
                    Some(Node::new(Span::new(start, self.pos), Value::String(text)))
                }
                b't' => self.literal("true", Value::Bool(true)),
                b'f' => self.literal("false", Value::Bool(false)),
                b'n' => self.literal("null", Value::Null),
                b'-' | b'0'..=b'9' => self.number(),
                _ => None,
            }
        }

        fn literal(&mut self, word: &str, value: Value) -> Option<Node> {
            let start = self.pos;
            if !self.bytes[start..].starts_with(word.as_bytes()) {
                return None;
            }
            self.pos += word.len();
            Some(Node::new(Span::new(start, self.pos), value))
        }

        fn digits(&mut self) -> usize {
            let start = self.pos;
            while self.bytes.get(self.pos).is_some_and(u8::is_ascii_digit) {
                self.pos += 1;
            }
            self.pos - start
        }

        fn number(&mut self) -> Option<Node> {
            let start = self.pos;
            if self.bytes[self.pos] == b'-' {
                self.pos += 1;
            }
            let integer_start = self.pos;
            let integer_digits = self.digits();
            if integer_digits == 0 || (integer_digits > 1 && self.bytes[integer_start] == b'0') {
                return None;
            }
            let mut integer = true;
            if self.bytes.get(self.pos) == Some(&b'.') {
                self.pos += 1;
                integer = false;
                if self.digits() == 0 {
                    return None;
                }
            }
            if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
                self.pos += 1;
                integer = false;
                if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                    self.pos += 1;
                }
                if self.digits() == 0 {
                    return None;
                }
            }
            let raw = &self.text[start..self.pos];
            let value = raw.parse::<f64>().unwrap_or(f64::NAN);
            Some(Node::new(
                Span::new(start, self.pos),
                Value::Number(Box::new(Number {
                    raw: raw.to_string(),
                    value,
                    integer,
                })),
            ))
        }

        /// Reads a string token starting at its opening quote; returns the unescaped text.
        fn string(&mut self) -> Option<String> {
            self.pos += 1;
            let start = self.pos;
            self.skip_plain_run()?;
            if self.bytes[self.pos] == b'"' {
                let text = self.text[start..self.pos].to_string();
                self.pos += 1;
                return Some(text);
            }
            let mut out = String::with_capacity(self.pos - start + 16);
            out.push_str(&self.text[start..self.pos]);
            loop {
                let run_start = self.pos;
                self.skip_plain_run()?;
                out.push_str(&self.text[run_start..self.pos]);
                if self.bytes[self.pos] == b'"' {
                    self.pos += 1;
                    return Some(out);
                }
                self.pos += 1;
                let escaped = match *self.bytes.get(self.pos)? {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        let code = self.hex4()?;
                        // Surrogates (paired or lone) are left to jsonc-parser.
                        if (0xd800..0xe000).contains(&code) {
                            return None;
                        }
                        char::from_u32(code)?
                    }
                    _ => return None,
                };
                self.pos += 1;
                out.push(escaped);
            }
        }

        /// Moves to the next `"` or `\\` of a string; `None` at a control character or the end
        /// of the text (both invalid inside a string).
        fn skip_plain_run(&mut self) -> Option<()> {
            let rest = &self.bytes[self.pos..];
            let run = memchr::memchr2(b'"', b'\\', rest)?;
            // A fold, unlike an early-exit `any`, is vectorised.
            if rest[..run]
                .iter()
                .fold(false, |control, &b| control | (b < 0x20))
            {
                return None;
            }
            self.pos += run;
            Some(())
        }

        /// Reads the four hex digits after `\u`, leaving `pos` on the last of them.
        fn hex4(&mut self) -> Option<u32> {
            let digits = self.text.get(self.pos + 1..self.pos + 5)?;
            if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            self.pos += 4;
            u32::from_str_radix(digits, 16).ok()
        }

        fn array(&mut self) -> Option<Node> {
            let start = self.pos;
            let first_item = self.item_stack.len();
            if !self.open(b']')? {
                loop {
                    let item = self.value()?;
                    self.item_stack.push(item);
                    if self.after_element(b']')? {
                        break;
                    }
                }
            }
            self.depth -= 1;
            let items = self.item_stack.split_off(first_item);
            Some(Node::new(Span::new(start, self.pos), Value::Array(items)))
        }

        fn object(&mut self) -> Option<Node> {
            let start = self.pos;
            let first_member = self.member_stack.len();
            let mut keys = KeyIndex::default();
            if !self.open(b'}')? {
                loop {
                    if self.bytes.get(self.pos) != Some(&b'"') {
                        return None;
                    }
                    let key_start = self.pos;
                    let key = self.string()?;
                    let key_span = Span::new(key_start, self.pos);
                    self.skip_whitespace();
                    if self.bytes.get(self.pos) != Some(&b':') {
                        return None;
                    }
                    self.pos += 1;
                    self.skip_whitespace();
                    let siblings = &self.member_stack[first_member..];
                    if let Some(first) = keys.find(siblings, &key).and_then(|i| siblings.get(i)) {
                        self.duplicates.push(DuplicateKey {
                            key: key.clone(),
                            first: first.key_span,
                            duplicate: key_span,
                        });
                    }
                    let value = self.value()?;
                    self.member_stack.push(Member {
                        key,
                        key_span,
                        value,
                    });
                    if self.after_element(b'}')? {
                        break;
                    }
                }
            }
            self.depth -= 1;
            Some(Node::new(
                Span::new(start, self.pos),
                Value::Object(self.member_stack.split_off(first_member)),
            ))
        }

        /// After an array item or object member: `Some(true)` when `close` ends the collection,
        /// `Some(false)` after a comma (whitespace skipped), `None` for anything else.
        fn after_element(&mut self, close: u8) -> Option<bool> {
            self.skip_whitespace();
            let byte = *self.bytes.get(self.pos)?;
            self.pos += 1;
            if byte == close {
                Some(true)
            } else if byte == b',' {
                self.skip_whitespace();
                Some(false)
            } else {
                None
            }
        }

        /// Steps over an opening bracket: `Some(true)` when `close` follows at once (an empty
        /// collection, also stepped over), `None` when nesting gets too deep.
        fn open(&mut self, close: u8) -> Option<bool> {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return None;
            }
            self.pos += 1;
            self.skip_whitespace();
            let empty = self.bytes.get(self.pos) == Some(&close);
            if empty {
                self.pos += 1;
            }
            Some(empty)
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
    fn direct_pass_agrees_with_jsonc_parser() {
        // (text, whether the direct pass takes it): what it declines goes to jsonc-parser.
        let samples = [
            (
                r#"{"a": [1, -2.5e3, 0, true, false, null], "b": {"c": "d\"e\\f\u00e9\n/\/"}}"#,
                true,
            ),
            ("  [ ]  ", true),
            ("{}", true),
            (r#"{"a": 1, "b": {"a": 2, "a": 3}, "a": 4}"#, true),
            ("[\"é ü 日本\"]", true),
            (r#""caf\u00e9 \ud83d\ude00""#, false),
            ("[\"raw\ttab\"]", false),
            ("\u{feff}{}", false),
            ("[01]", false),
            ("[1.]", false),
            ("[-]", false),
            ("[1e]", false),
            ("{\"a\" 1}", false),
            ("[1 2]", false),
            ("[\"\\x\"]", false),
            ("[tru]", false),
            ("{\"k\": \"v\"} x", false),
            ("", false),
        ];
        for (text, direct) in samples {
            let reference = parse_json_document_with_jsonc(text);
            match fast::parse(text) {
                Some(document) => {
                    assert!(direct, "the direct pass took {text:?}");
                    assert_eq!(Ok(document), reference, "{text}");
                }
                None => assert!(!direct, "the direct pass declined {text:?}"),
            }
        }
        let deep = "[".repeat(600) + &"]".repeat(600);
        assert!(fast::parse(&deep).is_none());
    }

    #[test]
    fn empty_input_is_an_error() {
        assert!(parse_json("  \n").is_err());
    }
}
