//! Frontmatter splitting and YAML with spans: never panics, every span lies inside the text, and the
//! line-based fast pass agrees with the event parser.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skilllint::model::document::{parse_markdown_doc, FrontmatterState};
use skilllint::parse::{Node, Value};

fn check_spans(node: &Node, len: usize) {
    assert!(node.span.start <= node.span.end && node.span.end <= len);
    match &node.value {
        Value::Array(items) => items.iter().for_each(|n| check_spans(n, len)),
        Value::Object(members) => members.iter().for_each(|m| {
            assert!(m.key_span.end <= len);
            check_spans(&m.value, len);
        }),
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let doc = parse_markdown_doc(text);
    if let FrontmatterState::Valid(frontmatter) = &doc.frontmatter {
        check_spans(&frontmatter.root, text.len());
        let _ = frontmatter.root.to_json();
    }
    // The line-based fast pass must build exactly what the event parser builds. Compared through
    // Debug, where `.nan` equals itself.
    let parsed = skilllint::parse::yaml::parse_yaml(text, 5);
    let reference = skilllint::parse::yaml::parse_yaml_with_saphyr(text, 5);
    if let (Ok(document), Ok(expected)) = (&parsed, &reference) {
        assert_eq!(
            format!("{document:?}"),
            format!("{expected:?}"),
            "the fast YAML pass disagrees with saphyr"
        );
    }
    assert_eq!(parsed.is_ok(), reference.is_ok(), "the fast YAML pass accepted an invalid document");
});
