use super::tr008_confirmation_rule_contradicts_contract::{claims, Claim};
use super::*;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Severity;

const TOOLS: &str = r#"[
  {"name": "list_events", "type": "read", "description": "List events.", "requiresConfirmation": false, "idempotent": false,
   "inputSchema": {"type": "object", "properties": {"from": {"type": "string"}}, "required": ["from"]}},
  {"name": "create_event", "type": "write", "description": "Add an event.", "requiresConfirmation": true, "idempotent": true,
   "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}, "mode": {"type": "string", "enum": ["fast_track"]},
     "user_confirmed": {"type": "boolean"}, "idempotency_key": {"type": "string"}},
     "required": ["title", "user_confirmed", "idempotency_key"]}}
]"#;

const GOOD_RULES: &str = "## Tool Use Rules\n\n\
        - Only the tools listed below may be used. Never invent or call other tools.\n\
        - `list_events` is read-only and may be called without confirmation.\n\
        - `create_event` changes the calendar: call it only after the user explicitly confirms \
          this exact\n  operation, and pass `user_confirmed: true`.\n\
        - `create_event` is idempotent: reuse the same `idempotency_key` when retrying.\n\
        - Never execute a write operation without explicit confirmation in the current conversation.\n";

fn skill(frontmatter_extra: &str, body: &str) -> String {
    format!(
        "---\nname: calendar\ndescription: Books events.\n{frontmatter_extra}---\n\n# Calendar\n\n{body}"
    )
}

/// Lints one `calendar/` folder with only `code` selected; returns (diagnostic, primary text).
fn run(code: &str, skill_md: &str, tools: Option<&str>) -> Vec<(Diagnostic, String)> {
    let mut files = vec![("calendar/SKILL.md", skill_md)];
    files.extend(tools.map(|tools| ("calendar/tools.json", tools)));
    crate::rule_testing::findings(code, &files)
}

#[test]
fn good_section_is_clean_for_every_rule() {
    let md = skill("allowed-tools: list_events\n", GOOD_RULES);
    for code in [
        "TR001", "TR002", "TR003", "TR004", "TR005", "TR006", "TR007", "TR008", "TR009", "TR010",
    ] {
        let found = run(code, &md, Some(TOOLS));
        assert!(
            found.is_empty(),
            "{code}: {:?}",
            found.first().map(|f| &f.0.message)
        );
    }
}

#[test]
fn tr001_points_at_the_frontmatter_opening_and_ignores_skills_without_tools() {
    let md = skill("", "Call `list_events`.\n");
    let found = run("TR001", &md, Some(TOOLS));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "---");
    assert!(run("TR001", &md, None).is_empty());
    // An unparseable tools.json still asks for the section.
    assert_eq!(run("TR001", &md, Some("[{")).len(), 1);
}

#[test]
fn tr004_points_at_the_phantom_and_skips_unparseable_tools() {
    let body = GOOD_RULES.replace(
        "- Never execute",
        "- Use `fast_track` mode, `tools.json`, and never call delete_event or `create_evnt`.\n- Never execute",
    );
    let md = skill("", &body);
    let found = run("TR004", &md, Some(TOOLS));
    let spans: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(spans, vec!["delete_event", "create_evnt"]);
    assert!(found[1]
        .0
        .help
        .as_deref()
        .unwrap_or_default()
        .contains("`create_event`"));
    assert!(run("TR004", &md, Some("[{")).is_empty());
}

/// The codes reported on one `calendar/` folder with `codes` selected, in report order.
fn codes_found(codes: &[&str], skill_md: &str, tools: &str) -> Vec<&'static str> {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = [
        ("calendar/SKILL.md", skill_md),
        ("calendar/tools.json", tools),
    ];
    crate::rule_testing::write(dir.path(), &files);
    let options = crate::rule_testing::options(dir.path(), codes);
    let outcome = crate::engine::lint(&options).expect("lint runs");
    outcome.diagnostics.iter().map(|d| d.code).collect()
}

/// The names TR004 reports in the good section with `item` added, as written.
fn phantom_names(item: &str) -> Vec<String> {
    let body = GOOD_RULES.replace("- Never execute", &format!("{item}\n- Never execute"));
    run("TR004", &skill("", &body), Some(TOOLS))
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

#[test]
fn tr004_takes_for_tools_only_names_that_read_as_tools() {
    // Where a name reads as a tool: opening the item, after a call verb, before "tool".
    assert_eq!(
        phantom_names("- `delete_event` removes an event."),
        ["delete_event"]
    );
    assert_eq!(
        phantom_names("- Bulk removal: `purge_events` empties a day."),
        ["purge_events"]
    );
    assert!(phantom_names("- Paging works: the last `page_cursor` is kept.").is_empty());
    assert!(phantom_names("- Four words of label: `purge_events` empties.").is_empty());
    assert_eq!(
        phantom_names("- Never call `delete_event`."),
        ["delete_event"]
    );
    assert_eq!(
        phantom_names("- Before invoking delete_event, ask."),
        ["delete_event"]
    );
    assert_eq!(
        phantom_names("- Reject calls to `delete_event`."),
        ["delete_event"]
    );
    assert_eq!(
        phantom_names("- Prefer the `delete_event` tool."),
        ["delete_event"]
    );
    // A single word in code is a tool only when the item says so.
    assert_eq!(phantom_names("- Prefer the `search` tool."), ["search"]);
    assert!(phantom_names("- Never call `search`.").is_empty());
    // Lists headed by a verb or ended by "tools".
    assert_eq!(
        phantom_names("- Call `remove_event`, `move_event` or `copy_event` only when asked."),
        ["remove_event", "move_event", "copy_event"]
    );
    assert_eq!(
        phantom_names("- The `move_event` and `copy_event` tools are gone."),
        ["move_event", "copy_event"]
    );
    // Anywhere else a name is a value or a field.
    assert!(
        phantom_names("- Pass the `calendar_id` and `next_page_token` back unchanged.").is_empty()
    );
    assert!(phantom_names("- Show the `event_id` field to the user.").is_empty());
    assert!(phantom_names("- Use `event_id` field values as they are.").is_empty());
    // Placeholders never name a tool, wherever they are.
    assert!(phantom_names("- `YYYY_MM_DD` dates are local; call `API_KEY` never.").is_empty());
}

#[test]
fn tr004_knows_the_schema_names_in_any_spelling() {
    let tools = TOOLS.replace(
        r#""from": {"type": "string"}"#,
        r#""from": {"type": "string"}, "calendarId": {"type": "object", "properties": {"nextPageToken": {"type": "string"}}}"#,
    );
    let body = GOOD_RULES.replace(
        "- Never execute",
        "- Use `calendar_id` and use `next_page_token`; run `fast_track` mode.\n- Never execute",
    );
    assert!(run("TR004", &skill("", &body), Some(&tools)).is_empty());
}

#[test]
fn tr004_points_at_the_occurrence_that_reads_as_a_tool() {
    // The first `remove_event` is a value; the one after "call" is the tool.
    let md = skill(
        "",
        &GOOD_RULES.replace(
            "- Never execute",
            "- A remove_event entry is logged; never call remove_event.\n- Never execute",
        ),
    );
    let found = run("TR004", &md, Some(TOOLS));
    assert_eq!(found.len(), 1);
    let start = found[0].0.primary.span.start;
    assert_eq!(&md[start - 5..start], "call ");
    assert_eq!(found[0].1, "remove_event");
}

#[test]
fn tr004_suggests_the_tool_a_phantom_was_renamed_to() {
    // By edit distance `cancel_event` is nearer `create_event`; the verb says `delete_event`.
    let tools = TOOLS.replace(r#""name": "list_events""#, r#""name": "delete_event""#);
    let body = GOOD_RULES.replace("list_events", "delete_event").replace(
        "- Never execute",
        "- Call `cancel_event` only after the user confirms.\n- Call `createEvent` once.\n\
             - Call `create_evnt` once.\n- Never execute",
    );
    let found = run("TR004", &skill("", &body), Some(&tools));
    let suggested: Vec<(&str, Option<&str>)> = found
        .iter()
        .map(|(d, text)| {
            let help = d.help.as_deref().unwrap_or_default();
            let nearest = help
                .split("(nearest: `")
                .nth(1)
                .and_then(|r| r.split('`').next());
            (text.as_str(), nearest)
        })
        .collect();
    assert_eq!(
        suggested,
        [
            ("cancel_event", Some("delete_event")),
            ("createEvent", Some("create_event")),
            ("create_evnt", Some("create_event")),
        ]
    );
}

#[test]
fn tr005_and_tr006_leave_unmentioned_tools_to_tr003_only_while_it_runs() {
    let body = "## Tool Use Rules\n\n- Only the tools listed below may be used.\n- `list_events` is read-only.\n";
    let md = skill("", body);
    assert_eq!(
        codes_found(&["TR003", "TR005", "TR006"], &md, TOOLS),
        ["TR003"]
    );
    // Alone, each reports the unmentioned tool itself.
    let found = run("TR005", &md, Some(TOOLS));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "\"create_event\"");
    assert!(found[0]
        .0
        .secondary
        .iter()
        .any(|l| l.message.as_deref() == Some("no item of this section names `create_event`")));
    assert_eq!(run("TR006", &md, Some(TOOLS)).len(), 1);
}

#[test]
fn without_a_section_the_rules_report_it_only_while_tr001_is_off() {
    let md = skill("", "Use the calendar tools.\n");
    let family = ["TR001", "TR002", "TR003", "TR005", "TR006", "TR007"];
    assert_eq!(codes_found(&family, &md, TOOLS), ["TR001"]);
    // Without TR001, TR003 reports every tool and TR005/TR006 leave theirs to it.
    assert_eq!(
        codes_found(&family[1..], &md, TOOLS),
        ["TR002", "TR007", "TR003", "TR003"]
    );
    assert_eq!(
        codes_found(&["TR005", "TR006"], &md, TOOLS),
        ["TR005", "TR006"]
    );
    let allowlist = run("TR002", &md, Some(TOOLS));
    assert_eq!(allowlist.len(), 1);
    assert_eq!(allowlist[0].1, "---");
    // A skill without tools needs no section.
    assert!(run("TR002", &md, None).is_empty());
}

#[test]
fn tr007_needs_the_three_words_in_one_sentence() {
    let split = GOOD_RULES.replace(
        "- Never execute a write operation without explicit confirmation in the current conversation.",
        "- Write operations need explicit confirmation.\n- Never skip it.",
    );
    assert_eq!(run("TR007", &skill("", &split), Some(TOOLS)).len(), 1);
    let contraction = GOOD_RULES.replace(
        "- Never execute a write operation without explicit confirmation in the current conversation.",
        "- Don't run write operations without explicit confirmation.",
    );
    assert!(run("TR007", &skill("", &contraction), Some(TOOLS)).is_empty());
    let without_only = GOOD_RULES.replace(
        "- Never execute a write operation without explicit confirmation in the current conversation.",
        "- Write operations happen without confirmation.",
    );
    assert_eq!(
        run("TR007", &skill("", &without_only), Some(TOOLS)).len(),
        1
    );
}

#[test]
fn tr008_attributes_phrases_to_the_nearest_tool_and_respects_negation() {
    let body = "## Tool Use Rules\n\n\
            - `list_events` may be called without confirmation; `create_event` only after the user confirms.\n\
            - Never call `create_event` without confirmation.\n\
            - `create_event` can run with no\n  confirmation needed.\n\
            - `list_events` requires explicit confirmation.\n\
            - `list_events` never requires confirmation.\n";
    let found = run("TR008", &skill("", body), Some(TOOLS));
    let summary: Vec<(Severity, &str)> =
        found.iter().map(|f| (f.0.severity, f.1.as_str())).collect();
    assert_eq!(
        summary,
        vec![
            (Severity::Error, "no\n  confirmation"),
            (Severity::Warning, "requires explicit confirmation"),
        ]
    );
}

#[test]
fn tr009_reports_each_write_token_and_reads_lists() {
    let md = skill(
        "allowed-tools: \"list_events create_event unknown_tool\"\n",
        GOOD_RULES,
    );
    let found = run("TR009", &md, Some(TOOLS));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "create_event");
    let md = skill("allowed-tools: [create_event]\n", GOOD_RULES);
    assert_eq!(run("TR009", &md, Some(TOOLS)).len(), 1);
    let md = skill("allowed-tools: list_events,create_event\n", GOOD_RULES);
    let found = run("TR009", &md, Some(TOOLS));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "create_event");
}

#[test]
fn tr010_needs_a_named_tool() {
    let prose = "## Tool Use Rules\n\n- Be careful and ask before changing anything.\n";
    assert!(run("TR010", &skill("", prose), None).is_empty());
    let found = run("TR010", &skill("", GOOD_RULES), None);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "## Tool Use Rules");
}

#[test]
fn tr008_survives_text_whose_lowercase_changes_length() {
    let body = "## Tool Use Rules\n\n- İSTANBUL `create_event` läuft — without asking.\n";
    let found = run("TR008", &skill("", body), Some(TOOLS));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "without asking");
}

/// Runs the fix loop over one `calendar/` folder with `codes` selected; returns the fixed
/// SKILL.md (or the original when nothing changed) and what still fires.
fn fixed(codes: &[&str], skill_md: &str, tools: &str) -> (String, Vec<&'static str>) {
    let files = [
        ("calendar/SKILL.md", skill_md),
        ("calendar/tools.json", tools),
    ];
    crate::rule_testing::fix_files(codes, &files, "SKILL.md", skill_md)
}

const ALL_TR: [&str; 10] = [
    "TR001", "TR002", "TR003", "TR004", "TR005", "TR006", "TR007", "TR008", "TR009", "TR010",
];

#[test]
fn tr001_appends_a_section_that_satisfies_every_rule() {
    let md = "---\nname: calendar\ndescription: d\n---\n\n# Calendar\n\n### Steps\n\n* one";
    let (text, remaining) = fixed(&ALL_TR, md, TOOLS);
    assert!(remaining.is_empty(), "{remaining:?}");
    assert_eq!(
        text.strip_prefix(md).expect("appended"),
        "\n\n### Tool Use Rules\n\n\
             * Only the tools listed below may be used. Never invent or call other tools.\n\
             * `list_events` is read-only and may be called without confirmation.\n\
             * `create_event`: call it only after the user explicitly confirms this exact \
             operation, and pass `user_confirmed: true`.\n\
             * `create_event` is idempotent: reuse the same `idempotency_key` when retrying a \
             failed call.\n\
             * Never execute a write operation without explicit confirmation in the current \
             conversation.\n"
    );
    // A file that ends inside a code block would swallow the section: no fix.
    let open_fence = skill("", "```\ncode\n");
    let (text, remaining) = fixed(&["TR001"], &open_fence, TOOLS);
    assert_eq!(text, open_fence);
    assert_eq!(remaining, vec!["TR001"]);
}

#[test]
fn section_fixes_follow_the_list_style_and_keep_crlf() {
    let body = "## Tool Use Rules\r\n\r\n  + `list_events` reads.\r\n\r\n  + `create_event` \
                    writes.\r\n    - nested `create_event` note\r\n\r\n## Next\r\n";
    let md = skill("", body).replace('\n', "\r\n").replace("\r\r", "\r");
    let (text, remaining) = fixed(&ALL_TR, &md, TOOLS);
    assert!(remaining.is_empty(), "{remaining:?}");
    assert!(!text.replace("\r\n", "").contains('\n'), "{text:?}");
    let section = text
        .split("## Tool Use Rules\r\n\r\n")
        .nth(1)
        .and_then(|rest| rest.split("## Next").next())
        .expect("section");
    assert_eq!(
        section,
        "  + Only the tools listed below may be used. Never invent or call other tools.\r\n\r\n\
             \x20 + `list_events` reads.\r\n\r\n\
             \x20 + `create_event` writes.\r\n\
             \x20   - nested `create_event` note\r\n\r\n\
             \x20 + `create_event`: call it only after the user explicitly confirms this exact \
             operation, and pass `user_confirmed: true`.\r\n\r\n\
             \x20 + `create_event` is idempotent: reuse the same `idempotency_key` when retrying a \
             failed call.\r\n\r\n\
             \x20 + Never execute a write operation without explicit confirmation in the current \
             conversation.\r\n\r\n"
    );
}

#[test]
fn tr003_goes_before_the_closing_rule_and_wraps_like_the_list() {
    let body = GOOD_RULES.replace(
        "- `create_event` changes the calendar: call it only after the user explicitly confirms \
             this exact\n  operation, and pass `user_confirmed: true`.\n\
             - `create_event` is idempotent: reuse the same `idempotency_key` when retrying.\n",
        "- `list_events` returns the events of a period, with their titles, start times and\n  \
             attendees.\n",
    );
    let (text, remaining) = fixed(&ALL_TR, &skill("", &body), TOOLS);
    assert!(remaining.is_empty(), "{remaining:?}");
    assert!(
        text.ends_with(
            "  attendees.\n\
                 - `create_event`: call it only after the user explicitly confirms this exact \
                 operation, and\n  pass `user_confirmed: true`.\n\
                 - `create_event` is idempotent: reuse the same `idempotency_key` when retrying a \
                 failed\n  call.\n\
                 - Never execute a write operation without explicit confirmation in the current conversation.\n"
        ),
        "{text}"
    );
}

#[test]
fn sections_without_a_list_get_one_after_their_prose() {
    let body = "## Tool Use Rules\nUse the tools with care.\n## Next\n";
    let (text, remaining) = fixed(&ALL_TR, &skill("", body), TOOLS);
    assert!(remaining.is_empty(), "{remaining:?}");
    assert!(
        text.contains(
            "## Tool Use Rules\nUse the tools with care.\n\n\
                 - Only the tools listed below may be used. Never invent or call other tools.\n\
                 - `list_events` is read-only"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("in the current conversation.\n\n## Next\n"),
        "{text}"
    );
}

#[test]
fn ordered_lists_are_numbered_on_and_never_renumbered() {
    let body = "## Tool Use Rules\n\n1. `list_events` reads.\n2. `create_event` adds an \
                    event: ask the user to confirm it and pass `user_confirmed: true`; it is \
                    idempotent, reuse the `idempotency_key`.\n";
    let (text, remaining) = fixed(&ALL_TR, &skill("", body), TOOLS);
    // The allowlist rule would have to become item 1: left to a person.
    assert_eq!(remaining, vec!["TR002"]);
    assert!(
        text.ends_with("reuse the `idempotency_key`.\n3. Never execute a write operation without explicit confirmation in the current conversation.\n"),
        "{text}"
    );
}

#[test]
fn gated_read_tools_get_no_confirmation_rule() {
    let tools = TOOLS.replace(
        "\"description\": \"List events.\", \"requiresConfirmation\": false",
        "\"description\": \"List events.\", \"requiresConfirmation\": true",
    );
    let body = GOOD_RULES.replace(
        "- `list_events` is read-only and may be called without confirmation.\n",
        "",
    );
    let (text, _) = fixed(&["TR003"], &skill("", &body), &tools);
    assert!(text.contains("- `list_events` is read-only.\n"), "{text}");
}

#[test]
fn ascii_lower_words_match_the_char_version() {
    let sentences = [
        "don't ask; the user's ok",
        "'quoted' words'' and ''leading",
        "Never call `create_event` WITHOUT Confirmation.",
        "  spaces\tand\ttabs  ",
        "",
        "'",
        "a'b'c 12ab_CD x",
        "Only after the user confirms: call it.",
    ];
    for sentence in sentences {
        let ascii: Vec<(String, usize, usize)> = ascii_lower_words(sentence)
            .iter()
            .map(|w| (w.as_str().to_string(), w.start, w.end))
            .collect();
        let chars: Vec<(String, usize, usize)> = char_lower_words(sentence)
            .iter()
            .map(|w| (w.as_str().to_string(), w.start, w.end))
            .collect();
        assert_eq!(ascii, chars, "{sentence:?}");
    }
}

#[test]
fn words_and_claims() {
    let words = lower_words("don't ask; the user's ok");
    let texts: Vec<&str> = words.iter().map(Word::as_str).collect();
    assert_eq!(texts, vec!["don't", "ask", "the", "user's", "ok"]);
    let sentence = "it requires no confirmation";
    let claims = claims(&lower_words(sentence), sentence);
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0].0, Claim::NotNeeded);
}

#[test]
fn tr002_reads_paraphrased_allowlists_and_fires_when_others_are_allowed() {
    let section = |first: &str| {
        skill(
            "",
            &format!(
                "## Tool Use Rules\n\n- {first}\n- `create_event` needs the user's confirmation.\n"
            ),
        )
    };
    for restricting in [
        "Only use the tools listed in tools.json.",
        "Use only the tools defined for this skill.",
        "Never call a tool that is not in this list.",
        "Do not use any other tools.",
        "Call only the functions declared below; nothing else.",
        "only the tools listed below may be used. never invent or call other tools.",
        // Paraphrases: a limit, a forbidding word, a negation of tools beyond the list.
        "Stick to the tools listed below.",
        "Limit yourself to these tools.",
        "Use nothing but the tools in tools.json.",
        "The tools below are the only ones available to you.",
        "You may only call the following tools:",
        "You are restricted to the following tools/functions.",
        "Any tool not listed here is off-limits.",
        "No other tools are permitted.",
        "Call no tool other than those listed below.",
        "Tools not in this list must never be called.",
        "Do not call any tool that is missing from this list.",
        "Don't reach for tools beyond the ones below.",
    ] {
        let found = run("TR002", &section(restricting), Some(TOOLS));
        assert!(
            found.is_empty(),
            "{restricting}: {:?}",
            found.first().map(|f| &f.0.message)
        );
    }
    for loose in [
        // About tools, but no allowlist.
        "Only use tools when the user asks for data.",
        "Never call tools without the user's confirmation.",
        "Prefer `list_events` over guessing.",
        "Any tool call that writes needs the user's confirmation.",
        "Respect each tool's rate limit.",
        "Some fields may not be filled by tools other than the calendar.",
    ] {
        let found = run("TR002", &section(loose), Some(TOOLS));
        assert_eq!(found.len(), 1, "{loose}");
        assert!(found[0].0.message.contains("does not restrict"), "{loose}");
    }
    for allowing in [
        "You may also use other tools when they help.",
        "You are not limited to the tools listed below.",
        "Use any tool you need to finish the booking.",
        "Do not hesitate to use other tools.",
        "Don't limit yourself to the tools below.",
    ] {
        // Even beside an allowlist sentence, a section that lets other tools in fires.
        let md = section(&format!("Only use the tools listed below. {allowing}"));
        let found = run("TR002", &md, Some(TOOLS));
        assert_eq!(found.len(), 1, "{allowing}");
        assert!(
            found[0].0.message.contains("beyond the listed ones"),
            "{allowing}"
        );
        assert!(found[0].0.fix.is_none(), "{allowing}");
        // The item that lets other tools in is shown beside the heading.
        assert_eq!(found[0].0.secondary.len(), 1, "{allowing}");
    }
}
