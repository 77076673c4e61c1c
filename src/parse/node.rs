//! One span-keeping value tree for both JSON and YAML, so schema and contract rules are written once.

use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Bytes of the whole value in file coordinates (quotes and brackets included).
    pub span: Span,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// The number's source text, kept exactly (e.g. `1e3`, `0x10` in YAML) plus its value.
    /// Boxed: numbers are rare next to strings and containers, and inline they would make every
    /// node of the tree larger.
    Number(Box<Number>),
    String(String),
    Array(Vec<Node>),
    Object(Vec<Member>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    pub raw: String,
    pub value: f64,
    /// Whether the source spelled an integer (no fraction or exponent).
    pub integer: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

/// Finds an earlier member of a mapping by key while the mapping is read, for the parsers'
/// duplicate-key checks: a scan for the few keys of an ordinary mapping, a hash index once it
/// grows past `INDEXED_FROM` members (a scan per key made a mapping of many keys quadratic).
#[derive(Debug, Default)]
pub(crate) struct KeyIndex {
    /// Each key's first position among the members indexed so far.
    positions: std::collections::HashMap<String, usize>,
    indexed: usize,
}

impl KeyIndex {
    const INDEXED_FROM: usize = 16;

    /// The position of the first of `members` named `key`. `members` are the mapping's members
    /// read so far, the same list (grown) on every call.
    pub(crate) fn find(&mut self, members: &[Member], key: &str) -> Option<usize> {
        if members.len() < Self::INDEXED_FROM {
            return members.iter().position(|m| m.key == key);
        }
        for (position, member) in members.iter().enumerate().skip(self.indexed) {
            self.positions.entry(member.key.clone()).or_insert(position);
        }
        self.indexed = members.len();
        self.positions.get(key).copied()
    }
}

impl Node {
    pub fn new(span: Span, value: Value) -> Self {
        Node { span, value }
    }

    /// The JSON type name of this value, as messages and JSON Schema use it.
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.integer => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match &self.value {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match &self.value {
            Value::Number(n) => Some(n.value),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.value {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self.value, Value::Object(_))
    }

    /// The first member called `key` (parsers report duplicates separately).
    pub fn member(&self, key: &str) -> Option<&Member> {
        self.as_object()?.iter().find(|m| m.key == key)
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.member(key).map(|m| &m.value)
    }

    /// Looks up an RFC 6901 JSON pointer (`/properties/user_confirmed`).
    pub fn pointer(&self, pointer: &str) -> Option<&Node> {
        self.pointer_by(pointer, &mut |node, key| node.member(key))
    }

    /// The span a diagnostic about `pointer` should use: the member's key when the pointer names an
    /// object member (so the caret lands on `"inputSchema":`), otherwise the value itself.
    pub fn pointer_key_span(&self, pointer: &str) -> Option<Span> {
        self.pointer_key_span_by(pointer, &mut |node, key| node.member(key))
    }

    /// [`Node::pointer`] with `member` finding an object's member by key (a caller resolving many
    /// pointers into one large object can index it instead of scanning).
    pub fn pointer_by<'a>(
        &'a self,
        pointer: &str,
        member: &mut impl FnMut(&'a Node, &str) -> Option<&'a Member>,
    ) -> Option<&'a Node> {
        if pointer.is_empty() {
            return Some(self);
        }
        let mut node = self;
        for raw in pointer.strip_prefix('/')?.split('/') {
            let token = raw.replace("~1", "/").replace("~0", "~");
            node = match &node.value {
                Value::Object(_) => &member(node, &token)?.value,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// [`Node::pointer_key_span`] with `member` finding an object's member by key.
    pub fn pointer_key_span_by<'a>(
        &'a self,
        pointer: &str,
        member: &mut impl FnMut(&'a Node, &str) -> Option<&'a Member>,
    ) -> Option<Span> {
        let (parent, last) = pointer.rsplit_once('/')?;
        let parent = self.pointer_by(parent, member)?;
        let token = last.replace("~1", "/").replace("~0", "~");
        match &parent.value {
            Value::Object(_) => member(parent, &token).map(|m| m.key_span),
            Value::Array(items) => items.get(token.parse::<usize>().ok()?).map(|n| n.span),
            _ => None,
        }
    }

    /// Converts to a `serde_json::Value` (for JSON Schema validation and JSON output).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => {
                if n.integer {
                    if let Ok(i) = n.raw.parse::<i64>() {
                        return serde_json::Value::from(i);
                    }
                }
                serde_json::Number::from_f64(n.value)
                    .map(serde_json::Value::Number)
                    .unwrap_or(serde_json::Value::Null)
            }
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::Array(items) => {
                serde_json::Value::Array(items.iter().map(Node::to_json).collect())
            }
            Value::Object(members) => serde_json::Value::Object(
                members
                    .iter()
                    .map(|m| (m.key.clone(), m.value.to_json()))
                    .collect(),
            ),
        }
    }
}

/// Escapes one JSON pointer token.
pub fn pointer_token(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    push_pointer_token(&mut out, token);
    out
}

/// Appends one JSON pointer token, escaped, to `pointer`: no allocation of its own, and a token
/// with neither `~` nor `/` (nearly all) copied as it is.
pub fn push_pointer_token(pointer: &mut String, token: &str) {
    if !token.contains(['~', '/']) {
        pointer.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

#[cfg(test)]
mod tests {

    use crate::parse::json::parse_json;

    #[test]
    fn pointer_maps_to_value_and_key_spans() {
        let text = r#"{"a": [{"b~/c": true}]}"#;
        let root = parse_json(text).expect("valid JSON");
        let node = root.pointer("/a/0/b~0~1c").expect("pointer resolves");
        assert_eq!(&text[node.span.start..node.span.end], "true");
        let key = root.pointer_key_span("/a/0/b~0~1c").expect("key span");
        assert_eq!(&text[key.start..key.end], r#""b~/c""#);
        assert!(root.pointer("/a/1").is_none());
        assert!(root.pointer("/a/x").is_none());
    }

    #[test]
    fn pointer_tokens_escape_tilde_then_slash() {
        use super::pointer_token;
        assert_eq!(pointer_token("plain"), "plain");
        assert_eq!(pointer_token("a~/b"), "a~0~1b");
        assert_eq!(pointer_token("~1"), "~01");
        assert_eq!(pointer_token("/~"), "~1~0");
        assert_eq!(pointer_token("é/ü"), "é~1ü");
        assert_eq!(pointer_token(""), "");
    }
}
