use super::*;
use crate::catalog::catalog;

#[test]
fn dates_are_strict_and_days_count_from_the_epoch() {
    assert_eq!(
        Date::parse("2024-02-29"),
        Some(Date {
            year: 2024,
            month: 2,
            day: 29
        })
    );
    for bad in [
        "2023-02-29",
        "2024-13-01",
        "2024-00-10",
        "2024-1-01",
        "24-01-01",
        "2024/01/01",
        "2024-01-32",
        "+024-01-01",
    ] {
        assert_eq!(Date::parse(bad), None, "{bad}");
    }
    assert_eq!(Date::from_days_since_epoch(0).to_string(), "1970-01-01");
    assert_eq!(
        Date::from_days_since_epoch(19_782).to_string(),
        "2024-02-29"
    );
    assert_eq!(Date::from_days_since_epoch(-1).to_string(), "1969-12-31");
    assert!(Date::parse("2025-01-01") < Date::parse("2025-01-02"));
}

#[test]
fn entry_paths_are_relative_to_the_baseline_folder() {
    assert_eq!(
        relative_between(Path::new("/r"), Path::new("/r/skills/a/SKILL.md")),
        "skills/a/SKILL.md"
    );
    assert_eq!(
        relative_between(Path::new("/r/ci"), Path::new("/r/skills/a/SKILL.md")),
        "../skills/a/SKILL.md"
    );
}

fn entries(text: &str) -> Result<Vec<Entry>, String> {
    parse_entries(text, Path::new("b.json"), catalog()).map_err(|e| {
        let span = e.span.unwrap_or(0..0);
        format!("{} at {:?}", e.message, &text[span])
    })
}

#[test]
fn both_shapes_are_read_and_mistakes_point_at_their_key() {
    let entry = r#"{"rule": "write-tool-without-confirmation", "path": "a/tools.json", "fingerprint": "00", "expires": "2030-01-01"}"#;
    let list = entries(&format!("[{entry}]")).expect("an array of entries");
    assert_eq!(list[0].rule, "TJ003");
    assert_eq!(list[0].expires, Date::parse("2030-01-01"));
    let object = entries(&format!(
        r#"{{"$schema": "x", "version": 1, "entries": [{entry}]}}"#
    ))
    .expect("an object with entries");
    assert_eq!(object.len(), 1);
    for (text, at) in [
        (
            r#"[{"rule": "TJ003", "path": "a", "fingerprint": "0", "expire": "2030-01-01"}]"#,
            "\"expire\"",
        ),
        (
            r#"[{"rule": "TJ003", "path": "a", "fingerprint": "0", "expires": "2030-02-30"}]"#,
            "\"2030-02-30\"",
        ),
        (r#"[{"rule": "TJ003", "path": 3, "fingerprint": "0"}]"#, "3"),
        (r#"{"version": 2, "entries": []}"#, "2"),
        (r#"{"entries": [], "extra": 1}"#, "\"extra\""),
        (r#""entries""#, "\"entries\""),
    ] {
        let error = entries(text).expect_err(text);
        assert!(error.ends_with(&format!("at {at:?}")), "{text}: {error}");
    }
    assert!(entries(r#"[{"rule": "TJ003", "path": "a"}]"#)
        .expect_err("nothing to match by")
        .contains("fingerprint"));
}

fn entry(rule: &str, path: &str, fingerprint: Option<&str>, message: Option<&str>) -> Entry {
    Entry {
        rule: rule.to_string(),
        path: path.to_string(),
        fingerprint: fingerprint.map(str::to_string),
        message: message.map(str::to_string),
        reason: None,
        owner: None,
        expires: None,
        span: Span::empty(0),
        rule_span: Span::empty(0),
        expires_span: None,
    }
}

fn finding<'a>(rule: &'a str, fingerprint: &str, message: &'a str) -> Key<'a> {
    Key {
        rule,
        path: "a/tools.json".to_string(),
        fingerprint: fingerprint.to_string(),
        message,
        counts_left_out: false,
    }
}

/// The matching as it was written first: for each finding, a search of its rule and file's
/// entries in order, pass by pass. What [`match_entries`] must still decide.
fn match_by_search(keys: &[Key<'_>], entries: &[Entry]) -> Vec<Option<usize>> {
    type Pass = dyn Fn(&Key<'_>, &Entry) -> bool;
    let passes: [&Pass; 4] = [
        &|k, e| {
            e.fingerprint.as_deref() == Some(k.fingerprint.as_str())
                && e.message.as_deref() == Some(k.message)
        },
        &|k, e| e.fingerprint.as_deref() == Some(k.fingerprint.as_str()),
        &|k, e| !k.counts_left_out && e.message.as_deref() == Some(k.message),
        &|k, e| {
            !k.counts_left_out
                && e.message
                    .as_deref()
                    .is_some_and(|m| without_numbers(m) == without_numbers(k.message))
        },
    ];
    let mut used = vec![false; entries.len()];
    let mut matched = vec![None; keys.len()];
    for pass in passes {
        for (finding, key) in keys.iter().enumerate() {
            if matched[finding].is_some() {
                continue;
            }
            let found = (0..entries.len()).find(|&index| {
                !used[index]
                    && entries[index].rule == key.rule
                    && entries[index].path == key.path
                    && pass(key, &entries[index])
            });
            if let Some(index) = found {
                used[index] = true;
                matched[finding] = Some(index);
            }
        }
    }
    matched
}

#[test]
fn matching_decides_as_a_search_would_in_linear_steps() {
    // A mix where every pass has work: few fingerprints and messages, so findings compete
    // for the same entries, some entries lack a fingerprint or a message, two files.
    let mut seed: u64 = 7;
    let mut next = |below: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % below
    };
    let messages: Vec<String> = (0..8)
        .map(|i| format!("tool `t{}` is {} lines", i % 3, i))
        .collect();
    let mut entries = Vec::new();
    for _ in 0..400 {
        let fingerprint = format!("f{}", next(6));
        let message = messages[next(8) as usize].clone();
        let path = if next(4) == 0 {
            "b/tools.json"
        } else {
            "a/tools.json"
        };
        entries.push(match next(5) {
            0 => entry("TJ003", path, Some(&fingerprint), None),
            1 => entry("TJ003", path, None, Some(&message)),
            _ => entry("TJ003", path, Some(&fingerprint), Some(&message)),
        });
    }
    let fingerprints: Vec<String> = (0..500).map(|_| format!("f{}", next(7))).collect();
    let picked: Vec<usize> = (0..500).map(|_| next(8) as usize).collect();
    let mut keys: Vec<Key<'_>> = fingerprints
        .iter()
        .zip(&picked)
        .map(|(fingerprint, &m)| finding("TJ003", fingerprint, &messages[m]))
        .collect();
    for key in keys.iter_mut().step_by(9) {
        key.counts_left_out = true;
    }
    assert_eq!(
        match_entries(&keys, &entries),
        match_by_search(&keys, &entries)
    );

    // A large baseline of one rule and file against a file at the finding cap, nothing
    // matching: every pass looks at each entry and each finding once, where a search per
    // finding looked at their product (1,001 × 20,000 per pass).
    let many: Vec<Entry> = (0..20_000)
        .map(|i| {
            entry(
                "TJ003",
                "a/tools.json",
                Some(&format!("e{i}")),
                Some(&format!("old tool `x{i}`")),
            )
        })
        .collect();
    let names: Vec<(String, String)> = (0..1001)
        .map(|i| (format!("k{i}"), format!("new tool `y{i}`")))
        .collect();
    let keys: Vec<Key<'_>> = names
        .iter()
        .map(|(fingerprint, message)| finding("TJ003", fingerprint, message))
        .collect();
    let mut steps = 0;
    let matched = match_entries_counting(&keys, &many, &mut steps);
    assert!(matched.iter().all(Option::is_none));
    assert!(
        steps <= 4 * (many.len() + keys.len()),
        "{steps} steps for {} entries and {} findings",
        many.len(),
        keys.len()
    );
}

#[test]
fn a_count_of_left_out_findings_is_fingerprinted_by_the_findings_it_stands_for() {
    let code = "SC016";
    let text = "aa bb cc dd";
    let span = |start: usize| Span::new(start, start + 2);
    let left_out = |findings: &[(Span, u64)]| LeftOut {
        findings: findings.to_vec(),
    };
    let three = left_out(&[(span(0), 1), (span(3), 2), (span(6), 3)]);
    let reordered = left_out(&[(span(6), 3), (span(0), 1), (span(3), 2)]);
    assert_eq!(
        left_out_fingerprint(code, text, &three),
        left_out_fingerprint(code, text, &reordered)
    );
    // The same findings on moved lines.
    let moved_text = "\n\naa bb cc dd";
    let moved = left_out(&[(span(2), 1), (span(5), 2), (span(8), 3)]);
    assert_eq!(
        left_out_fingerprint(code, text, &three),
        left_out_fingerprint(code, moved_text, &moved)
    );
    // One more, one fewer, one changed (its text or its message): another fingerprint.
    let four = left_out(&[(span(0), 1), (span(3), 2), (span(6), 3), (span(9), 4)]);
    let two = left_out(&[(span(0), 1), (span(3), 2)]);
    let swapped = left_out(&[(span(0), 1), (span(3), 2), (span(9), 3)]);
    let reworded = left_out(&[(span(0), 1), (span(3), 2), (span(6), 9)]);
    for other in [four, two, swapped, reworded] {
        assert_ne!(
            left_out_fingerprint(code, text, &three),
            left_out_fingerprint(code, text, &other),
            "{other:?}"
        );
    }
    // A count matches an entry by that fingerprint alone: the message, which says only how
    // many, never pairs it with an entry for other findings.
    let entries = [entry(
        code,
        "a/tools.json",
        Some("digest-then"),
        Some("100 more findings of this rule in this file not reported"),
    )];
    let mut count = finding(
        code,
        "digest-now",
        "101 more findings of this rule in this file not reported",
    );
    count.counts_left_out = true;
    assert_eq!(match_entries(&[count], &entries), [None]);
}

#[test]
fn findings_match_by_content_then_by_fingerprint_then_by_message() {
    let entries = [
        entry("TJ003", "a/tools.json", Some("f1"), Some("tool `a`")),
        entry("TJ003", "a/tools.json", Some("f1"), Some("tool `b`")),
        entry("TJ003", "a/tools.json", Some("f9"), Some("tool `c`")),
        entry("TJ003", "b/tools.json", Some("f1"), Some("tool `a`")),
    ];
    let keys = [
        // Same text as two entries: told apart by the message.
        finding("TJ003", "f1", "tool `b`"),
        finding("TJ003", "f1", "tool `a`"),
        // Its flagged text changed, its message did not.
        finding("TJ003", "f2", "tool `c`"),
        // New: a third finding with the same text as the first two.
        finding("TJ003", "f1", "tool `d`"),
        finding("SC005", "f1", "tool `a`"),
    ];
    assert_eq!(
        match_entries(&keys, &entries),
        [Some(1), Some(0), Some(2), None, None]
    );
    // A count in the message moved with the lines, and so did the flagged line.
    let long = [entry(
        "SK013",
        "a/tools.json",
        Some("f1"),
        Some("body is 612 lines, over 500"),
    )];
    let moved = [finding("SK013", "f2", "body is 615 lines, over 500")];
    assert_eq!(match_entries(&moved, &long), [Some(0)]);
    assert_eq!(without_numbers("612 lines, over 500"), "# lines, over #");
}

/// docs/baseline.schema.json describes what `write` writes and what `load` reads: a written
/// file validates, and the schema's entry keys are the parser's.
#[test]
fn the_schema_describes_the_file() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../../docs/baseline.schema.json")).expect("JSON");
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("the schema compiles");
    let files = [SourceFile {
        rel_path: "a/tools.json".to_string(),
        abs_path: PathBuf::from("/r/a/tools.json"),
        text: "[false]".to_string(),
    }];
    let d = Diagnostic::new("TJ003", Severity::Error, FileId(0), Span::new(1, 6), "m");
    let mut old = Baseline::empty(Path::new("/r/b.json"), Path::new("/"));
    old.entries.push(Entry {
        reason: Some("why".to_string()),
        owner: Some("@team".to_string()),
        expires: Date::parse("2030-01-01"),
        ..entry("TJ003", "a/tools.json", None, Some("m"))
    });
    let (text, written) = write(&[&d], Sources::new(&files), &old, Path::new("/"));
    assert_eq!(
        written,
        Written {
            entries: 1,
            added: 0,
            kept: 1,
            pruned: 0
        }
    );
    let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    assert!(text.contains("\"expires\": \"2030-01-01\""), "{text}");
    let read = parse_entries(&text, Path::new("b.json"), catalog()).expect("reads back");
    assert_eq!(read[0].reason.as_deref(), Some("why"));
    // Every key the schema names is one the parser accepts, and no other.
    let keys: Vec<&str> = schema["$defs"]["entry"]["properties"]
        .as_object()
        .expect("entry properties")
        .keys()
        .map(String::as_str)
        .collect();
    for key in &keys {
        let mut entry =
            serde_json::json!({"rule": "TJ003", "path": "a", "fingerprint": "0000000000000000"});
        entry[key] = serde_json::Value::String(
            if *key == "expires" {
                "2030-01-01"
            } else {
                "0000000000000000"
            }
            .to_string(),
        );
        let text = serde_json::Value::Array(vec![entry]).to_string();
        assert!(
            parse_entries(&text, Path::new("b.json"), catalog()).is_ok(),
            "{key}: {text}"
        );
    }
    assert_eq!(keys.len(), 7);
}
