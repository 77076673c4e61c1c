//! Strict JSON with spans: never panics; JSON pointers of every value resolve back to it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(doc) = skilllint::parse::json::parse_json_document(text) {
        assert!(doc.root.span.end <= text.len());
        let _ = doc.root.pointer("/0/inputSchema/properties");
        let _ = skilllint::schema::span_for_pointer(&doc.root, "/tools/0/name");
        let _ = skilllint::schema::meta_validate(&doc.root.to_json());
    }
});
