//! JSON edits for fixes: members and array items are inserted or removed in the layout the file
//! already uses (indentation, one member per line or inline, spacing after `:` and `,`), so a fixed
//! file reads as if a careful person had edited it. Pure text arithmetic over the parse tree: no
//! lint, no I/O.

use super::newline;
use crate::diagnostic::Edit;
use crate::parse::node::{Member, Node, Value};
use crate::source::{FileId, Span};

/// A JSON value to write into a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Bool(bool),
    Str(&'a str),
    Array(Vec<Json<'a>>),
    Object(Vec<(&'a str, Json<'a>)>),
}

impl Json<'_> {
    /// An object whose values are all scalars (`{"type": "boolean", "description": "…"}`).
    fn is_leaf_object(&self) -> bool {
        matches!(self, Json::Object(members)
            if members.iter().all(|(_, v)| matches!(v, Json::Bool(_) | Json::Str(_))))
    }
}

/// Where a new member goes in an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place<'k> {
    /// Before the first member.
    First,
    /// After the member with this key, or after the last member when there is none.
    After(&'k str),
    /// After the last member.
    Last,
}

/// How a new object that holds only scalars is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Leaf {
    /// On one line: `{` + pad + members joined by sep + pad + `}`.
    Inline { pad: String, sep: String },
    /// One member per line.
    Block,
}

/// The layout to render new values in, read from the container they go into.
#[derive(Debug, Clone)]
struct Style {
    /// Between a key and its value (`": "`).
    colon: String,
    /// Whether objects that hold objects get one member per line.
    block: bool,
    leaf: Leaf,
}

/// A JSON file being edited: its text, newline and indentation unit.
///
/// Every fact about the whole file (newline, indentation step, where lines start) is read on
/// first use and kept, so a rule that fixes many tools of one file builds one `JsonText` (see
/// `Unit::json_text`) and pays for each fact once: recomputed per fix, a file of many tools, or
/// one long line of them, made the fixes quadratic.
pub struct JsonText<'t> {
    text: &'t str,
    file: FileId,
    newline: std::cell::OnceCell<&'static str>,
    /// The indentation step, read from the file on first use (rules create a `JsonText` for every
    /// tool they look at, but need the layout only for the few they fix).
    unit: std::cell::OnceCell<String>,
    /// Offsets where lines start, for finding a line's start without searching back along it.
    line_starts: std::cell::OnceCell<Vec<usize>>,
    /// The last line whose indentation was measured: (line start, indentation width).
    last_indentation: std::cell::Cell<Option<(usize, usize)>>,
}

impl std::fmt::Debug for JsonText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonText")
            .field("file", &self.file)
            .finish()
    }
}

impl<'t> JsonText<'t> {
    pub fn new(text: &'t str, file: FileId) -> Self {
        JsonText {
            text,
            file,
            newline: std::cell::OnceCell::new(),
            unit: std::cell::OnceCell::new(),
            line_starts: std::cell::OnceCell::new(),
            last_indentation: std::cell::Cell::new(None),
        }
    }

    fn newline(&self) -> &'static str {
        self.newline.get_or_init(|| newline(self.text))
    }

    fn unit(&self) -> &str {
        self.unit.get_or_init(|| indent_unit(self.text))
    }

    /// The start of the line holding `offset`.
    fn line_start(&self, offset: usize) -> usize {
        let starts = self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i + 1));
            starts
        });
        let offset = crate::source::clamp_to_char_boundary(self.text, offset);
        // `starts[0]` is 0, so at least one start is at or before `offset`.
        let line = starts
            .partition_point(|start| *start <= offset)
            .saturating_sub(1);
        starts.get(line).copied().unwrap_or(0)
    }

    /// The indentation (spaces and tabs) of the line holding `offset`, as
    /// [`super::indentation_at`] finds it.
    fn indentation(&self, offset: usize) -> &'t str {
        let line_start = self.line_start(offset);
        let width = match self.last_indentation.get() {
            Some((start, width)) if start == line_start => width,
            _ => {
                let line = self.text.get(line_start..).unwrap_or_default();
                let width = line.len() - line.trim_start_matches([' ', '\t']).len();
                self.last_indentation.set(Some((line_start, width)));
                width
            }
        };
        self.slice(line_start, line_start + width)
    }

    fn slice(&self, start: usize, end: usize) -> &'t str {
        self.text.get(start..end).unwrap_or_default()
    }

    /// True when the container's first entry starts on a new line (one entry per line).
    fn is_block(&self, container: &Node, first_start: usize) -> bool {
        self.slice(container.span.start, first_start).contains('\n')
    }

    /// True when the value at `offset` is the first thing on its line, after at most a key: how a
    /// pretty-printer lays out nested values. Decides the layout of an empty `{}`.
    fn opens_own_line(&self, offset: usize) -> bool {
        let line_start = self.line_start(offset);
        let before = self.slice(line_start, offset).trim();
        if before.is_empty() {
            return true;
        }
        // `"key":`
        let Some(key) = before.strip_suffix(':').map(str::trim_end) else {
            return false;
        };
        key.len() >= 2 && key.starts_with('"') && key.ends_with('"') && !key[1..].contains("\": ")
    }

    /// The indentation of the entries of a block container: the first entry's, else one unit
    /// deeper than the container's line.
    fn entry_indent(&self, container: &Node, first_start: Option<usize>) -> String {
        match first_start {
            Some(start) if self.is_block(container, start) => self.indentation(start).to_string(),
            _ => format!("{}{}", self.indentation(container.span.start), self.unit()),
        }
    }

    /// The layout of values inserted into `object`, read from its members.
    fn style_of(&self, object: &Node) -> Style {
        let members = object.as_object().unwrap_or_default();
        let colon = members
            .first()
            .map(|m| self.slice(m.key_span.end, m.value.span.start))
            .filter(|c| c.trim() == ":" && !c.contains('\n'))
            .unwrap_or(": ")
            .to_string();
        let block = match members.first() {
            Some(first) => self.is_block(object, first.key_span.start),
            None => self.opens_own_line(object.span.start),
        };
        // A sibling object tells how members' objects are written.
        let sibling = members.iter().find_map(|m| match &m.value.value {
            Value::Object(inner) if !inner.is_empty() => Some((&m.value, inner)),
            _ => None,
        });
        let leaf = match sibling {
            Some((node, inner)) if !self.slice(node.span.start, node.span.end).contains('\n') => {
                let first = &inner[0];
                let pad = self.slice(node.span.start + 1, first.key_span.start);
                let sep = match inner.get(1) {
                    Some(second) => self.slice(first.value.span.end, second.key_span.start),
                    None => ", ",
                };
                Leaf::Inline {
                    pad: if pad.trim().is_empty() { pad } else { "" }.to_string(),
                    sep: if sep.trim() == "," { sep } else { ", " }.to_string(),
                }
            }
            Some(_) => Leaf::Block,
            None if block => Leaf::Block,
            None => Leaf::Inline {
                pad: String::new(),
                sep: ", ".to_string(),
            },
        };
        Style {
            colon,
            block,
            leaf: if block {
                leaf
            } else {
                // An inline container never gets multi-line members.
                match leaf {
                    Leaf::Block => Leaf::Inline {
                        pad: String::new(),
                        sep: ", ".to_string(),
                    },
                    inline => inline,
                }
            },
        }
    }

    /// Renders `value` as it would be written on a line indented by `indent`.
    fn render(&self, value: &Json, indent: &str, style: &Style) -> String {
        match value {
            Json::Bool(b) => b.to_string(),
            Json::Str(s) => json_string(s),
            Json::Array(items) => {
                let rendered: Vec<String> = items
                    .iter()
                    .map(|item| self.render(item, indent, style))
                    .collect();
                format!("[{}]", rendered.join(", "))
            }
            Json::Object(members) if members.is_empty() => "{}".to_string(),
            Json::Object(members) => {
                let inline = match (&style.leaf, value.is_leaf_object(), style.block) {
                    (Leaf::Inline { pad, sep }, true, _) => Some((pad.as_str(), sep.as_str())),
                    (_, false, false) => Some(("", ", ")),
                    _ => None,
                };
                match inline {
                    Some((pad, sep)) => {
                        let parts: Vec<String> = members
                            .iter()
                            .map(|(k, v)| self.member_text(k, v, indent, style))
                            .collect();
                        format!("{{{pad}{}{pad}}}", parts.join(sep))
                    }
                    None => {
                        let inner = format!("{indent}{}", self.unit());
                        let parts: Vec<String> = members
                            .iter()
                            .map(|(k, v)| {
                                format!("{inner}{}", self.member_text(k, v, &inner, style))
                            })
                            .collect();
                        let nl = self.newline();
                        format!("{{{nl}{}{nl}{indent}}}", parts.join(&format!(",{nl}")))
                    }
                }
            }
        }
    }

    fn member_text(&self, key: &str, value: &Json, indent: &str, style: &Style) -> String {
        format!(
            "{}{}{}",
            json_string(key),
            style.colon,
            self.render(value, indent, style)
        )
    }

    /// Inserts `members` into `object` at `place`, as one edit. `None` when `object` is not an
    /// object whose braces are where its span says.
    pub fn insert_members(
        &self,
        object: &Node,
        place: Place<'_>,
        members: &[(&str, Json)],
    ) -> Option<Edit> {
        let existing = object.as_object()?;
        if !self.is_delimited(object, '{', '}') || members.is_empty() {
            return None;
        }
        let style = self.style_of(object);
        let nl = self.newline();
        if existing.is_empty() {
            let interior = Span::new(object.span.start + 1, object.span.end - 1);
            let text = if style.block {
                let indent = self.entry_indent(object, None);
                let outer = self.indentation(object.span.start);
                let parts: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{indent}{}", self.member_text(k, v, &indent, &style)))
                    .collect();
                format!("{nl}{}{nl}{outer}", parts.join(&format!(",{nl}")))
            } else {
                let parts: Vec<String> = members
                    .iter()
                    .map(|(k, v)| self.member_text(k, v, "", &style))
                    .collect();
                parts.join(", ")
            };
            return Some(Edit::replace(self.file, interior, text));
        }
        let first = &existing[0];
        let indent = if style.block {
            self.indentation(first.key_span.start).to_string()
        } else {
            self.indentation(object.span.start).to_string()
        };
        let sep = self.separator(
            object,
            existing
                .iter()
                .map(|m| (m.key_span.start, m.value.span.end))
                .collect(),
            &indent,
        );
        let parts: Vec<String> = members
            .iter()
            .map(|(k, v)| self.member_text(k, v, &indent, &style))
            .collect();
        match place {
            Place::First => Some(Edit::insert(
                self.file,
                first.key_span.start,
                format!("{}{sep}", parts.join(&sep)),
            )),
            Place::After(_) | Place::Last => {
                let anchor = match place {
                    Place::After(key) => existing.iter().find(|m| m.key == key),
                    _ => None,
                }
                .or(existing.last())?;
                Some(Edit::insert(
                    self.file,
                    anchor.value.span.end,
                    format!("{sep}{}", parts.join(&sep)),
                ))
            }
        }
    }

    /// The text between two entries of a container, including the comma: copied from the
    /// container when it has two entries, else built from its layout.
    fn separator(&self, container: &Node, entries: Vec<(usize, usize)>, indent: &str) -> String {
        if let [(_, first_end), (second_start, _), ..] = entries.as_slice() {
            let between = self.slice(*first_end, *second_start);
            if between.trim() == "," {
                return between.to_string();
            }
        }
        match entries.first() {
            Some((start, _)) if self.is_block(container, *start) => {
                format!(",{}{indent}", self.newline())
            }
            _ => ", ".to_string(),
        }
    }

    fn is_delimited(&self, node: &Node, open: char, close: char) -> bool {
        let source = self.slice(node.span.start, node.span.end);
        source.len() >= 2 && source.starts_with(open) && source.ends_with(close)
    }

    /// Appends `value` as the last item of `array`.
    pub fn append_item(&self, array: &Node, value: &Json) -> Option<Edit> {
        let items = array.as_array()?;
        if !self.is_delimited(array, '[', ']') {
            return None;
        }
        let style = Style {
            colon: ": ".to_string(),
            block: false,
            leaf: Leaf::Inline {
                pad: String::new(),
                sep: ", ".to_string(),
            },
        };
        let Some(last) = items.last() else {
            let interior = Span::new(array.span.start + 1, array.span.end - 1);
            return Some(Edit::replace(
                self.file,
                interior,
                self.render(value, "", &style),
            ));
        };
        let indent = self.indentation(last.span.start).to_string();
        let sep = self.separator(
            array,
            items.iter().map(|i| (i.span.start, i.span.end)).collect(),
            &indent,
        );
        Some(Edit::insert(
            self.file,
            last.span.end,
            format!("{sep}{}", self.render(value, &indent, &style)),
        ))
    }

    /// Removes the first member called `key` from `object`, with the comma that joined it.
    pub fn remove_member(&self, object: &Node, key: &str) -> Option<Edit> {
        let members: &[Member] = object.as_object()?;
        let index = members.iter().position(|m| m.key == key)?;
        let entries: Vec<(usize, usize)> = members
            .iter()
            .map(|m| (m.key_span.start, m.value.span.end))
            .collect();
        self.remove_entry(object, '{', '}', &entries, index)
    }

    /// Removes item `index` of `array`, with the comma that joined it.
    pub fn remove_item(&self, array: &Node, index: usize) -> Option<Edit> {
        let entries: Vec<(usize, usize)> = array
            .as_array()?
            .iter()
            .map(|i| (i.span.start, i.span.end))
            .collect();
        self.remove_entry(array, '[', ']', &entries, index)
    }

    fn remove_entry(
        &self,
        container: &Node,
        open: char,
        close: char,
        entries: &[(usize, usize)],
        index: usize,
    ) -> Option<Edit> {
        if !self.is_delimited(container, open, close) || index >= entries.len() {
            return None;
        }
        let span = if entries.len() == 1 {
            // The only entry: the container becomes empty (`{}`, `[]`).
            Span::new(container.span.start + 1, container.span.end - 1)
        } else if index + 1 < entries.len() {
            // Up to the next entry, so its line and indentation take the removed one's place.
            Span::new(entries[index].0, entries[index + 1].0)
        } else {
            // The last entry: from the end of the one before, taking the comma with it.
            Span::new(entries[index - 1].1, entries[index].1)
        };
        Some(Edit::replace(self.file, span, ""))
    }

    /// Replaces the value `node` with `value`.
    pub fn replace(&self, node: &Node, value: &Json) -> Edit {
        let style = self.style_of(node);
        let indent = self.indentation(node.span.start).to_string();
        Edit::replace(self.file, node.span, self.render(value, &indent, &style))
    }
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("\"{text}\""))
}

/// The file's indentation step: a tab when indented lines start with one, else the smallest
/// number of leading spaces of an indented line; two spaces for a file on one line.
fn indent_unit(text: &str) -> String {
    let mut smallest: Option<usize> = None;
    for line in text.lines() {
        let content = line.trim_start_matches([' ', '\t']);
        if content.is_empty() || content.len() == line.len() {
            continue;
        }
        if line.starts_with('\t') {
            return "\t".to_string();
        }
        let width = line.len() - line.trim_start_matches(' ').len();
        smallest = Some(smallest.map_or(width, |s| s.min(width)));
    }
    " ".repeat(smallest.unwrap_or(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::apply_edits;
    use crate::parse::json::parse_json;

    fn apply(text: &str, edit: Option<Edit>) -> String {
        let edit = edit.expect("an edit");
        let (out, skipped) = apply_edits(text, &[&edit]);
        assert!(skipped.is_empty());
        assert!(parse_json(&out).is_ok(), "not JSON any more:\n{out}");
        out
    }

    fn confirmed() -> Json<'static> {
        Json::Object(vec![
            ("type", Json::Str("boolean")),
            ("description", Json::Str("Must be true.")),
        ])
    }

    #[test]
    fn inserts_into_an_empty_object_in_the_files_layout() {
        let text = "{\n  \"a\": {\n    \"properties\": {}\n  }\n}\n";
        let root = parse_json(text).expect("JSON");
        let props = root.pointer("/a/properties").expect("properties");
        let json = JsonText::new(text, FileId(0));
        let out = apply(
            text,
            json.insert_members(props, Place::Last, &[("user_confirmed", confirmed())]),
        );
        assert_eq!(
            out,
            "{\n  \"a\": {\n    \"properties\": {\n      \"user_confirmed\": {\n        \"type\": \"boolean\",\n        \"description\": \"Must be true.\"\n      }\n    }\n  }\n}\n"
        );
        // On one line, an empty object stays on one line.
        let text = r#"{"properties": {}}"#;
        let root = parse_json(text).expect("JSON");
        let props = root.get("properties").expect("properties");
        let out = apply(
            text,
            JsonText::new(text, FileId(0)).insert_members(
                props,
                Place::Last,
                &[("k", Json::Bool(true))],
            ),
        );
        assert_eq!(out, r#"{"properties": {"k": true}}"#);
    }

    #[test]
    fn inserts_after_the_last_member_copying_sibling_style() {
        let text = "{\n    \"properties\": {\n        \"a\": { \"type\": \"string\" },\n        \"b\": { \"type\": \"string\" }\n    },\n    \"required\": [\"a\", \"b\"]\n}";
        let root = parse_json(text).expect("JSON");
        let json = JsonText::new(text, FileId(0));
        let props = root.get("properties").expect("properties");
        let required = root.get("required").expect("required");
        let edits = [
            json.insert_members(props, Place::Last, &[("user_confirmed", confirmed())])
                .expect("insert"),
            json.append_item(required, &Json::Str("user_confirmed"))
                .expect("append"),
        ];
        let (out, _) = apply_edits(text, &edits.iter().collect::<Vec<_>>());
        assert_eq!(
            out,
            "{\n    \"properties\": {\n        \"a\": { \"type\": \"string\" },\n        \"b\": { \"type\": \"string\" },\n        \"user_confirmed\": { \"type\": \"boolean\", \"description\": \"Must be true.\" }\n    },\n    \"required\": [\"a\", \"b\", \"user_confirmed\"]\n}"
        );
    }

    #[test]
    fn inserts_after_a_named_member_and_first() {
        let text = "{\n  \"name\": \"x\",\n  \"type\": \"write\",\n  \"idempotent\": true\n}";
        let root = parse_json(text).expect("JSON");
        let json = JsonText::new(text, FileId(0));
        let out = apply(
            text,
            json.insert_members(
                &root,
                Place::After("type"),
                &[("requiresConfirmation", Json::Bool(true))],
            ),
        );
        assert_eq!(
            out,
            "{\n  \"name\": \"x\",\n  \"type\": \"write\",\n  \"requiresConfirmation\": true,\n  \"idempotent\": true\n}"
        );
        let out = apply(
            text,
            json.insert_members(&root, Place::First, &[("a", Json::Bool(false))]),
        );
        assert!(
            out.starts_with("{\n  \"a\": false,\n  \"name\": \"x\","),
            "{out}"
        );
    }

    #[test]
    fn crlf_files_keep_crlf_and_tabs() {
        let text = "{\r\n\t\"properties\": {\r\n\t\t\"a\": {\r\n\t\t\t\"type\": \"string\"\r\n\t\t}\r\n\t}\r\n}\r\n";
        let root = parse_json(text).expect("JSON");
        let json = JsonText::new(text, FileId(0));
        let props = root.get("properties").expect("properties");
        let out = apply(
            text,
            json.insert_members(props, Place::Last, &[("user_confirmed", confirmed())]),
        );
        assert_eq!(
            out,
            "{\r\n\t\"properties\": {\r\n\t\t\"a\": {\r\n\t\t\t\"type\": \"string\"\r\n\t\t},\r\n\t\t\"user_confirmed\": {\r\n\t\t\t\"type\": \"boolean\",\r\n\t\t\t\"description\": \"Must be true.\"\r\n\t\t}\r\n\t}\r\n}\r\n"
        );
        assert!(!out.replace("\r\n", "").contains('\n'));
    }

    #[test]
    fn new_nested_objects_follow_four_and_two_space_indentation() {
        for unit in ["  ", "    "] {
            let text = format!("[\n{unit}{{\n{unit}{unit}\"inputSchema\": {{\n{unit}{unit}{unit}\"type\": \"object\"\n{unit}{unit}}}\n{unit}}}\n]\n");
            let root = parse_json(&text).expect("JSON");
            let schema = root.pointer("/0/inputSchema").expect("schema");
            let json = JsonText::new(&text, FileId(0));
            let members = [
                (
                    "properties",
                    Json::Object(vec![("user_confirmed", confirmed())]),
                ),
                ("required", Json::Array(vec![Json::Str("user_confirmed")])),
            ];
            let out = apply(
                &text,
                json.insert_members(schema, Place::After("type"), &members),
            );
            let i3 = unit.repeat(3);
            let i4 = unit.repeat(4);
            let i5 = unit.repeat(5);
            let expected = format!(
                "[\n{unit}{{\n{unit}{unit}\"inputSchema\": {{\n{i3}\"type\": \"object\",\n{i3}\"properties\": {{\n{i4}\"user_confirmed\": {{\n{i5}\"type\": \"boolean\",\n{i5}\"description\": \"Must be true.\"\n{i4}}}\n{i3}}},\n{i3}\"required\": [\"user_confirmed\"]\n{unit}{unit}}}\n{unit}}}\n]\n"
            );
            assert_eq!(out, expected, "unit {unit:?}");
        }
    }

    #[test]
    fn removes_members_and_items_with_their_commas() {
        let text = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}";
        let root = parse_json(text).expect("JSON");
        let json = JsonText::new(text, FileId(0));
        assert_eq!(
            apply(text, json.remove_member(&root, "b")),
            "{\n  \"a\": 1,\n  \"c\": 3\n}"
        );
        assert_eq!(
            apply(text, json.remove_member(&root, "c")),
            "{\n  \"a\": 1,\n  \"b\": 2\n}"
        );
        assert_eq!(
            apply(text, json.remove_member(&root, "a")),
            "{\n  \"b\": 2,\n  \"c\": 3\n}"
        );
        assert!(json.remove_member(&root, "zz").is_none());
        let text = r#"{"only": {"x": 1}, "list": ["x", "y"], "one": ["x"]}"#;
        let root = parse_json(text).expect("JSON");
        let json = JsonText::new(text, FileId(0));
        let only = root.get("only").expect("only");
        assert_eq!(
            apply(text, json.remove_member(only, "x")),
            r#"{"only": {}, "list": ["x", "y"], "one": ["x"]}"#
        );
        let list = root.get("list").expect("list");
        assert_eq!(
            apply(text, json.remove_item(list, 1)),
            r#"{"only": {"x": 1}, "list": ["x"], "one": ["x"]}"#
        );
        let one = root.get("one").expect("one");
        assert_eq!(
            apply(text, json.remove_item(one, 0)),
            r#"{"only": {"x": 1}, "list": ["x", "y"], "one": []}"#
        );
    }

    #[test]
    fn appends_to_empty_and_multi_line_arrays() {
        let text = "{\"r\": [], \"m\": [\n    \"a\"\n  ]}";
        let root = parse_json(text).expect("JSON");
        let json = JsonText::new(text, FileId(0));
        let r = root.get("r").expect("r");
        assert_eq!(
            apply(text, json.append_item(r, &Json::Str("k"))),
            "{\"r\": [\"k\"], \"m\": [\n    \"a\"\n  ]}"
        );
        let m = root.get("m").expect("m");
        assert_eq!(
            apply(text, json.append_item(m, &Json::Str("k"))),
            "{\"r\": [], \"m\": [\n    \"a\",\n    \"k\"\n  ]}"
        );
    }

    #[test]
    fn replaces_a_value() {
        let text = r#"{"requiresConfirmation": false}"#;
        let root = parse_json(text).expect("JSON");
        let json = JsonText::new(text, FileId(0));
        let flag = root.get("requiresConfirmation").expect("flag");
        assert_eq!(
            apply(text, Some(json.replace(flag, &Json::Bool(true)))),
            r#"{"requiresConfirmation": true}"#
        );
    }
}
