use super::*;

fn entry(name: &str, effect: &str, gates: &[&str]) -> Locked {
    Locked {
        path: "calendar/tools.json".to_string(),
        name: name.to_string(),
        effect: effect.to_string(),
        capabilities: Vec::new(),
        gates: gates.iter().map(|g| g.to_string()).collect(),
        description: Some(fingerprint("Create one event.")),
        schema: None,
    }
}

#[test]
fn a_written_lock_reads_back_as_written_with_the_name_spans() {
    let entries = vec![
        entry("create_event", "write", &["requiresConfirmation: true"]),
        entry("list_events", "read", &[]),
    ];
    let text = render(&entries);
    assert!(text.starts_with("# skilllint.lock"), "{text}");
    let read = read(&text).expect("a written lock reads");
    let back: Vec<Locked> = read.iter().map(|e| e.locked.clone()).collect();
    assert_eq!(back, entries);
    let span = read[1].name_span;
    assert_eq!(&text[span.start..span.end], "\"list_events\"");
}

#[test]
fn the_fingerprint_is_sha256_of_the_text() {
    // The SHA-256 of the empty string, as every implementation gives it.
    assert_eq!(
        fingerprint(""),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_ne!(
        fingerprint("Delete one event."),
        fingerprint("Delete one event. ")
    );
}

#[test]
fn another_version_or_an_unknown_key_is_an_error_at_its_place() {
    let text = "version = 2\n";
    let error = read(text).expect_err("version 2 is refused");
    assert!(error.message.contains("version 2"), "{}", error.message);
    assert_eq!(&text[error.span.start..error.span.end], "2");

    let text = "version = 1\n\n[[tool]]\npath = \"a.json\"\nnmae = \"x\"\neffect = \"read\"\n";
    let error = read(text).expect_err("an unknown key is refused");
    assert!(error.message.contains("nmae"), "{}", error.message);
    assert!(
        text[error.span.start..].starts_with("nmae"),
        "{:?}",
        error.span
    );
}

#[test]
fn an_entry_pinned_twice_keeps_the_first() {
    let text = "version = 1\n\n[[tool]]\npath = \"a.json\"\nname = \"x\"\neffect = \"read\"\n\n[[tool]]\npath = \"a.json\"\nname = \"x\"\neffect = \"write\"\n";
    let read = read(text).expect("reads");
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].locked.effect, "read");
}

#[test]
fn changes_name_the_effect_and_each_gate_dropped_or_added() {
    let pinned = entry("delete_event", "write", &["destructiveHint: true"]);
    let mut now = entry("delete_event", "delete", &["destructiveHint: false"]);
    now.description = Some(fingerprint("Delete every event."));
    assert_eq!(
        drift::changes(&pinned, &now),
        [
            "its effect is `delete` (pinned `write`)",
            "its description changed",
            "1 gate `destructiveHint: true` dropped",
            "1 gate `destructiveHint: false` added",
        ]
    );
    assert!(drift::changes(&pinned, &pinned).is_empty());
}
