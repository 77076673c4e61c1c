use super::patterns::pattern_compiles;
use super::*;
use serde_json::json;

/// The shortcut may only answer `true` where the full meta-validation finds nothing.
fn assert_shortcut_agrees(node: &Node, origin: &str) {
    if certainly_valid_2020_12(node) {
        let errors = meta_validate(&node.to_json());
        assert!(errors.is_empty(), "{origin}: shortcut passed {errors:?}");
    }
    match &node.value {
        NodeValue::Array(items) => items.iter().for_each(|i| assert_shortcut_agrees(i, origin)),
        NodeValue::Object(members) => members
            .iter()
            .for_each(|m| assert_shortcut_agrees(&m.value, origin)),
        _ => {}
    }
}

#[test]
fn validity_shortcut_never_passes_what_meta_validation_rejects() {
    let samples = [
        r#"{"type": "object", "properties": {"a": {"type": "string", "minLength": 1.0}}, "required": ["a"], "additionalProperties": false}"#,
        r#"{"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d", "default": null}"#,
        r#"{"minLength": 1.5}"#,
        r#"{"minLength": -1}"#,
        r#"{"required": ["a", "a"]}"#,
        r#"{"type": ["string", "string"]}"#,
        r#"{"type": []}"#,
        r#"{"type": "text"}"#,
        r#"{"format": 5}"#,
        r#"{"allOf": []}"#,
        r#"{"multipleOf": 0}"#,
        r#"{"examples": 3}"#,
        r#"{"definitions": {"a": 3}}"#,
        r#"{"$defs": {"a": {"type": "integer", "maximum": 1e400}}}"#,
        r#"{"items": [{}]}"#,
        r#"{"enum": "a"}"#,
        r#"{"x-vendor": {"anything": [1, 2]}, "deprecated": "yes"}"#,
        r#"{"dependentRequired": {"a": ["b", "b"]}}"#,
        r#"{"properties": {"a": true, "b": false, "c": 1}}"#,
    ];
    let mut taken = 0;
    for text in samples {
        let node = crate::parse::json::parse_json(text).expect("sample is JSON");
        taken += usize::from(certainly_valid_2020_12(&node));
        assert_shortcut_agrees(&node, text);
    }
    assert!(taken >= 2, "the shortcut took only {taken} samples");
    // Every object in every JSON fixture, read as a schema.
    let mut checked = 0;
    for path in crate::fixture_files() {
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if let Ok(node) = crate::parse::json::parse_json(&text) {
                assert_shortcut_agrees(&node, &path.display().to_string());
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} JSON fixtures");
}

#[test]
fn every_embedded_schema_compiles() {
    for (name, text) in EMBEDDED {
        assert!(
            compile_embedded(text).is_ok(),
            "schemas/{name}.schema.json does not compile"
        );
        assert!(embedded(name).is_some());
    }
}

#[test]
fn bundled_schemas_are_valid_and_named_by_their_id() {
    for bundled in &BUNDLED {
        let document: Value = serde_json::from_str(bundled.text).unwrap_or_default();
        assert!(meta_validate(&document).is_empty(), "{}", bundled.path);
        assert!(compile_embedded(bundled.text).is_ok(), "{}", bundled.path);
        let id = document.get("$id").and_then(Value::as_str);
        assert_eq!(id, bundled.urls.first().copied(), "{}", bundled.path);
        assert!(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(bundled.path)
            .is_file());
        let rule = include_str!("../../rules/SC013.md");
        for url in bundled.urls {
            assert!(bundled_ref(url).is_some(), "{url}");
            assert!(
                rule.contains(&format!("`{url}`")),
                "rules/SC013.md names {url}"
            );
        }
        assert!(rule.contains(&format!("{}, {}", bundled.aip, bundled.version)));
    }
}

#[test]
fn only_bundled_aip_urls_resolve() {
    for reference in [
        "https://agentproto.sh/docs/aip-27/REF.schema.json",
        "https://agentproto.sh/schemas/aip-27/REF.schema.json",
        "https://agentproto.sh/docs/aip-27/REF.schema.json#",
        "https://agentproto.sh/docs/aip-27/REF.schema.json#/$defs/local",
    ] {
        assert_eq!(
            bundled_ref(reference).map(|b| b.aip),
            Some("AIP-27"),
            "{reference}"
        );
    }
    for reference in [
        "http://agentproto.sh/docs/aip-27/REF.schema.json",
        "https://agentproto.sh/docs/aip-27/REF.schema.json#/$defs/nothing",
        "https://agentproto.sh/docs/aip-27/REF.schema.json#local",
        "https://agentproto.sh/docs/aip-16/IO.schema.json",
        "https://agentproto.sh.example.com/docs/aip-27/REF.schema.json",
        " https://agentproto.sh/docs/aip-27/REF.schema.json",
        "REF.schema.json",
        "#/$defs/x",
    ] {
        assert!(bundled_ref(reference).is_none(), "{reference}");
    }
}

#[test]
fn bundled_refs_are_validated_offline_and_others_dropped() {
    let schema = json!({
        "type": "object",
        "properties": {
            "file": {"$ref": "https://agentproto.sh/docs/aip-27/REF.schema.json"},
            "local": {"$ref": "https://agentproto.sh/schemas/aip-27/REF.schema.json#/$defs/local"},
            "other": {"$ref": "https://schemas.example.com/anything.json"}
        }
    });
    let validator = compile_user_schema(&schema).expect("compiles offline");
    for good in [
        json!({"file": {"kind": "local", "path": "reports/q3.md"}}),
        json!({"file": "github:octo/widgets@main:docs"}),
        json!({"file": {"kind": "youtube_video", "videoId": "x"}}),
        json!({"local": {"kind": "local", "path": "a/b.md", "sha256": "0".repeat(64)}}),
        json!({"other": 42}),
    ] {
        assert!(validator.is_valid(&good), "{good}");
    }
    for bad in [
        json!({"file": {"kind": "local"}}),
        json!({"file": {"kind": "local", "path": "../../etc/passwd"}}),
        json!({"file": {"kind": "url", "href": "ftp://example.com/x"}}),
        json!({"file": {"kind": "eth_tx", "chainId": 1, "txHash": "0xABC"}}),
        json!({"file": {"path": "a.md"}}),
        json!({"file": "no kind"}),
        json!({"file": 7}),
        json!({"local": {"kind": "url", "href": "https://example.com"}}),
    ] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
    // A remote reference the compiler would have to fetch is refused, not fetched.
    let dynamic = json!({"$dynamicRef": "http://127.0.0.1:9/x.json"});
    assert!(compile_user_schema(&dynamic).is_err());
}

#[test]
fn meta_validation_reports_broken_schemas() {
    assert!(meta_validate(&json!({"type": "object"})).is_empty());
    let errors = meta_validate(&json!({"type": "objekt", "properties": []}));
    assert!(!errors.is_empty());
    let unknown = meta_validate(&json!({"$schema": "https://example.com/my-schema"}));
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].pointer, "/$schema");
    assert!(
        meta_validate(&json!({"$schema": "http://json-schema.org/draft-07/schema#"})).is_empty()
    );
}

#[test]
fn remote_refs_are_never_followed() {
    for reference in [
        "http://127.0.0.1:9/x.json",
        "file:///etc/passwd",
        "other.json",
    ] {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": reference}}});
        let validator = compile_user_schema(&schema).expect("compiles with the ref removed");
        assert!(validator.is_valid(&json!({"a": 1})));
    }
    let local =
        json!({"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n"}}});
    let validator = compile_user_schema(&local).expect("local refs resolve");
    assert!(!validator.is_valid(&json!({"a": "x"})));
}

#[test]
fn keyed_errors_name_the_key_and_never_the_value() {
    let schema = json!({
        "type": "object",
        "required": ["name"],
        "additionalProperties": false,
        "properties": {
            "token": {"type": "integer"},
            "kind": {"enum": ["a", "b"]}
        }
    });
    let validator = compile_embedded(&schema.to_string()).expect("compiles");
    let errors = validate_at_keys(
        &validator,
        &json!({"token": "s3cr3t-value", "kind": "c", "x": 1, "y": 2}),
    );
    let summary: Vec<(&str, &str, &str)> = errors
        .iter()
        .map(|e| (e.pointer.as_str(), e.keyword.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("/kind", "enum", "must be one of `a`, `b`"),
            ("/name", "required", "is required"),
            ("/token", "type", "must be an integer, found string"),
            ("/x", "additionalProperties", "is not a known key"),
            ("/y", "additionalProperties", "is not a known key"),
        ]
    );
    assert!(errors.iter().all(|e| !e.message.contains("s3cr3t")));
}

#[test]
fn patterns_the_regex_engine_refuses_are_found_where_they_are() {
    for (pattern, compiles) in [
        ("[", false),
        ("a(b", false),
        ("(?<name", false),
        ("x{2,1}", false),
        ("^[a-z0-9-]+\\.md$", true),
        ("^\\d{4}-\\d{2}$", true),
        ("\\p{L}+", true),
        ("(?<=a)b", true),
        ("", true),
    ] {
        assert_eq!(pattern_compiles("pattern", pattern), compiles, "{pattern}");
        assert_eq!(
            pattern_compiles("patternProperties", pattern),
            compiles,
            "{pattern} as a key"
        );
    }
    let text = r#"{"properties": {"a": {"pattern": "["}, "b": {"enum": [{"pattern": "["}]},
            "c": {"items": {"patternProperties": {"(": {}, "^ok$": {"pattern": "ok"}}}},
            "pattern": {"type": "string"}}, "anyOf": [{"pattern": "a(b"}, {"pattern": "["}]}"#;
    let root = crate::parse::json::parse_json(text).expect("valid");
    let found = uncompilable_patterns(&[&root, &root]);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0], found[1]);
    let summary: Vec<(&str, &str)> = found[0]
        .iter()
        .map(|b| (b.pointer.as_str(), &text[b.span.start..b.span.end]))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("/properties/a/pattern", "\"[\""),
            ("/properties/c/items/patternProperties/(", "\"(\""),
            ("/anyOf/0/pattern", "\"a(b\""),
            ("/anyOf/1/pattern", "\"[\""),
        ]
    );
    // Judged in one batch, the bad ones among many good ones are still found exactly.
    let many: Vec<String> = (0..40)
        .map(|i| match i % 13 {
            5 => format!("\"{i}(\""),
            _ => format!("\"^x{i}[a-z]*$\""),
        })
        .collect();
    let text = format!(
        "{{\"properties\": {{{}}}}}",
        many.iter()
            .enumerate()
            .map(|(i, p)| format!("\"p{i}\": {{\"pattern\": {p}}}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let batch = crate::parse::json::parse_json(&text).expect("valid");
    let pointers: Vec<String> = uncompilable_patterns(&[&batch])[0]
        .iter()
        .map(|b| b.pointer.clone())
        .collect();
    assert_eq!(
        pointers,
        [
            "/properties/p5/pattern",
            "/properties/p18/pattern",
            "/properties/p31/pattern"
        ]
    );
    // The meta-schema treats `format: regex` as an annotation: only this check sees it.
    assert!(meta_validate(&root.to_json()).is_empty());
}

#[test]
fn pointers_map_to_spans() {
    let text = r#"{"retry": {"max_attempts": 99}}"#;
    let root = crate::parse::json::parse_json(text).expect("valid");
    let key = span_for_pointer(&root, "/retry/max_attempts");
    assert_eq!(&text[key.start..key.end], "\"max_attempts\"");
    let missing = span_for_pointer(&root, "/retry/backoff");
    assert_eq!(&text[missing.start..missing.end], "\"retry\"");
    assert_eq!(span_for_pointer(&root, ""), root.span);
}
