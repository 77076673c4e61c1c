//! Strict JSON with spans: never panics; JSON pointers of every value resolve back to it; the direct
//! parser and the jsonc-parser reference agree on every valid document; the schema validity shortcut
//! never passes what meta-validation rejects.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // A leading byte order mark is read as three bytes of white space (offsets stay offsets
    // into the file): the reference sees it that way too.
    let unmarked = text.strip_prefix('\u{feff}').map(|rest| format!("   {rest}"));
    let reference =
        skilllint::parse::json::parse_json_document_with_jsonc(unmarked.as_deref().unwrap_or(text));
    let parsed = skilllint::parse::json::parse_json_document(text);
    if let Ok(doc) = &reference {
        assert_eq!(parsed.as_ref(), Ok(doc), "the direct parser disagrees with jsonc-parser");
    } else {
        assert_eq!(parsed, reference, "the direct parser accepted what jsonc-parser rejects");
    }
    if let Ok(doc) = parsed {
        assert!(doc.root.span.end <= text.len());
        let _ = doc.root.pointer("/0/inputSchema/properties");
        let _ = skilllint::schema::span_for_pointer(&doc.root, "/tools/0/name");
        let errors = skilllint::schema::meta_validate(&doc.root.to_json());
        if skilllint::schema::certainly_valid_2020_12(&doc.root) {
            assert!(errors.is_empty(), "the validity shortcut passed an invalid schema: {errors:?}");
        }
    }
});
