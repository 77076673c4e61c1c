//! JSON pointers of the validator's errors mapped back to spans in the file, and shown as paths a
//! reader recognises.

use crate::parse::node::Member;
use crate::parse::Node;
use crate::source::Span;
use std::collections::HashMap;

/// A JSON pointer as a path a reader recognises: `/retry/max_attempts` → `retry.max_attempts`,
/// `/examples/0/name` → `examples[0].name`, appended to `base` (which may be empty).
pub fn display_path(base: &str, pointer: &str) -> String {
    let mut out = base.to_string();
    for raw in pointer.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{token}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        }
    }
    out
}

/// The span to report a failure at `pointer` (an instance path into `root`): the member's key
/// when the pointer names an object member that exists, else the nearest existing ancestor value.
pub fn span_for_pointer(root: &Node, pointer: &str) -> Span {
    span_for_pointer_by(root, pointer, &mut |node, key| node.member(key))
}

/// [`span_for_pointer`] with `member` finding an object's member by key.
pub(super) fn span_for_pointer_by<'a>(
    root: &'a Node,
    pointer: &str,
    member: &mut impl FnMut(&'a Node, &str) -> Option<&'a Member>,
) -> Span {
    let mut current = pointer;
    loop {
        if current.is_empty() {
            return root.span;
        }
        if let Some(span) = root.pointer_key_span_by(current, member) {
            return span;
        }
        if let Some(node) = root.pointer_by(current, member) {
            return node.span;
        }
        current = current.rsplit_once('/').map_or("", |(parent, _)| parent);
    }
}

/// Resolves many JSON pointers into one tree, answering as [`Node::pointer`],
/// [`Node::pointer_key_span`] and [`span_for_pointer`] do. An object of more than a few members is
/// indexed by key the first time a pointer passes through it, so reporting a failure at each key
/// of a large mapping costs a lookup per failure rather than a scan of the mapping (which made
/// a frontmatter of 50,000 unknown keys take seconds).
pub struct Pointers<'a> {
    root: &'a Node,
    /// Per indexed object (by address), the first member of each key.
    indexed: HashMap<usize, HashMap<&'a str, &'a Member>>,
}

/// Objects with at most this many members are scanned; an index does not pay for itself.
pub(super) const SCAN_MEMBERS: usize = 16;

impl<'a> Pointers<'a> {
    pub fn new(root: &'a Node) -> Self {
        Pointers {
            root,
            indexed: HashMap::new(),
        }
    }

    /// The first member of `node` called `key`, as [`Node::member`] finds it.
    fn member(
        indexed: &mut HashMap<usize, HashMap<&'a str, &'a Member>>,
        node: &'a Node,
        key: &str,
    ) -> Option<&'a Member> {
        let members = node.as_object()?;
        if members.len() <= SCAN_MEMBERS {
            return members.iter().find(|m| m.key == key);
        }
        let index = indexed
            .entry(std::ptr::from_ref(node) as usize)
            .or_insert_with(|| {
                let mut index = HashMap::with_capacity(members.len());
                for member in members {
                    index.entry(member.key.as_str()).or_insert(member);
                }
                index
            });
        index.get(key).copied()
    }

    /// The node at `pointer`, as [`Node::pointer`] finds it.
    pub fn node(&mut self, pointer: &str) -> Option<&'a Node> {
        let indexed = &mut self.indexed;
        self.root
            .pointer_by(pointer, &mut |node, key| Self::member(indexed, node, key))
    }

    /// The key span of the member (or the span of the item) `pointer` names, as
    /// [`Node::pointer_key_span`] finds it.
    pub fn key_span(&mut self, pointer: &str) -> Option<Span> {
        let indexed = &mut self.indexed;
        self.root
            .pointer_key_span_by(pointer, &mut |node, key| Self::member(indexed, node, key))
    }

    /// Where a failure at `pointer` is reported, as [`span_for_pointer`] answers.
    pub fn span(&mut self, pointer: &str) -> Span {
        let indexed = &mut self.indexed;
        span_for_pointer_by(self.root, pointer, &mut |node, key| {
            Self::member(indexed, node, key)
        })
    }
}
