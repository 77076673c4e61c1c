use super::*;
use crate::model::{FileKind, Parsed};
use std::path::Path;

fn options(select: &[&str]) -> LintOptions {
    LintOptions {
        select: select.iter().map(|s| s.to_string()).collect(),
        threads: Some(2),
        ..LintOptions::default()
    }
}

#[test]
fn a_prose_secrets_file_is_not_read_and_says_so_only_when_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let prose = dir.path().join("docs/SECRETS.md");
    let manifest = dir.path().join("SECRETS.md");
    std::fs::create_dir_all(dir.path().join("docs")).expect("folder");
    std::fs::write(&prose, "# Secrets checklist\n\n- [ ] rotate keys\n").expect("file");
    std::fs::write(&manifest, "---\nsecrets: []\n---\n").expect("file");
    let lint_paths = |paths: Vec<PathBuf>| {
        let options = LintOptions {
            paths,
            ..options(&["ALL"])
        };
        lint(&options).expect("lints")
    };

    let walked = lint_paths(vec![dir.path().to_path_buf()]);
    let read: Vec<&str> = walked
        .repo
        .files
        .iter()
        .map(|f| f.rel_path.as_str())
        .collect();
    assert_eq!(read, ["SECRETS.md"]);
    assert!(walked
        .diagnostics
        .iter()
        .all(|d| d.primary.file == FileId(0)));

    let named = lint_paths(vec![prose.clone()]);
    let found: Vec<(&str, &str)> = named
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.as_str()))
        .collect();
    assert_eq!(found, [("SL004", crate::discover::PROSE_SECRETS_NOT_READ)]);
    assert_eq!(named.repo.files.len(), 1);
}

#[test]
fn cross_folder_rules_see_contracts_while_folder_parses_are_dropped() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/XC003/fires");
    let mut options = options(&["XC003"]);
    options.paths = vec![fixture.clone()];
    let outcome = lint(&options).expect("the fixture lints");
    let tools = outcome
        .repo
        .file_by_path("calendar/tools.json")
        .expect("tools.json is in the run");
    let contract = outcome
        .repo
        .file_by_path(".tools/list-events/TOOL.md")
        .expect("TOOL.md is in the run");
    // XC003 links calendar/tools.json to a contract in another folder...
    assert!(
        outcome
            .diagnostics
            .iter()
            .any(|d| d.code == "XC003" && d.primary.file == tools),
        "{:?}",
        outcome.diagnostics
    );
    // ...although only the contract stayed parsed after the units were checked.
    assert!(matches!(
        outcome.repo.parsed(tools),
        Parsed::Pending(FileKind::Tools { by_content: false })
    ));
    assert!(matches!(outcome.repo.parsed(contract), Parsed::Contract(_)));
}

#[test]
fn suppressions_are_read_from_every_file_of_a_folder() {
    // `skill.md` beside `SKILL.md` plays no role in its unit; its comments still count.
    let skill = "---\nname: a\ndescription: Does a. Use when asked.\n---\n\nBody.\n";
    let files = vec![
        ("a/SKILL.md".to_string(), skill.to_string()),
        (
            "a/skill.md".to_string(),
            format!("{skill}<!-- skilllint-disable-next-line -->\n"),
        ),
    ];
    let outcome = lint_in_memory(&options(&["SL003"]), files).expect("lints");
    let second = outcome.repo.file_by_path("a/skill.md").expect("in the run");
    assert_eq!(
        outcome
            .diagnostics
            .iter()
            .map(|d| (d.code, d.primary.file))
            .collect::<Vec<_>>(),
        vec![("SL003", second)]
    );
}

/// The files of a fixture folder, as (path relative to it, text).
fn fixture_texts(dir: &Path) -> Vec<(String, String)> {
    let mut pending = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            let entries = std::fs::read_dir(&path).expect("fixture folder is readable");
            pending.extend(entries.flatten().map(|e| e.path()));
        } else if let (Ok(text), Ok(rel)) = (std::fs::read_to_string(&path), path.strip_prefix(dir))
        {
            files.push((rel.to_string_lossy().replace('\\', "/"), text));
        }
    }
    files.sort();
    files
}

/// A fixture's files as (relative path, text).
type Texts = Vec<(String, String)>;

/// Each rule's fixture folder, with the texts of its firing and its clean fixture.
fn rule_fixtures() -> Vec<(PathBuf, Texts, Texts)> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut rules: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    rules.sort();
    rules
        .into_iter()
        .map(|rule| {
            let fires = fixture_texts(&rule.join("fires"));
            let clean = fixture_texts(&rule.join("clean"));
            (rule, fires, clean)
        })
        .collect()
}

#[test]
fn a_session_after_edits_finds_what_a_fresh_lint_of_the_same_texts_finds() {
    let options = options(&["ALL"]);
    let mut relinted = 0;
    for (rule, fires, clean) in rule_fixtures() {
        // Each file of the firing fixture in turn becomes its clean version (or, without one,
        // loses its second half), then the next one on top, and so on.
        let mut current = fires.clone();
        let Ok(mut session) = Session::in_memory(&options, current.clone()) else {
            panic!("{} lints", rule.display());
        };
        for index in 0..fires.len() {
            let rel = current[index].0.clone();
            let text = match clean.iter().find(|(path, _)| *path == rel) {
                Some((_, text)) => text.clone(),
                None => {
                    let text = &current[index].1;
                    let half = crate::source::clamp_to_char_boundary(text, text.len() / 2);
                    text[..half].to_string()
                }
            };
            current[index].1 = text.clone();
            match session.replace_text(&rel, text) {
                Replaced::Relinted => relinted += 1,
                Replaced::Unchanged | Replaced::NotInRun => {}
                Replaced::NeedsFreshLint => {
                    session = Session::in_memory(&options, current.clone()).expect("lints");
                }
            }
            let fresh = lint_in_memory(&options, current.clone()).expect("lints");
            let kept = session.outcome();
            assert_eq!(
                kept.diagnostics,
                fresh.diagnostics,
                "{} after editing {rel}",
                rule.display()
            );
            assert_eq!(
                kept.suppressed,
                fresh.suppressed,
                "{} after editing {rel}",
                rule.display()
            );
            let texts: Vec<&str> = kept.repo.files.iter().map(|f| f.text.as_str()).collect();
            let fresh_texts: Vec<&str> = fresh.repo.files.iter().map(|f| f.text.as_str()).collect();
            assert_eq!(texts, fresh_texts);
        }
    }
    // The edits went through the incremental path, not only through fresh lints.
    assert!(relinted > 100, "{relinted} edits relinted in place");
}

#[test]
fn a_session_after_a_batch_of_edits_finds_what_a_fresh_lint_of_the_same_texts_finds() {
    // Every file of each firing fixture that has a clean version takes it, all in one
    // `replace_texts`: the units of several folders (and, with a contract among them, every
    // unit) linted again, the repository-wide rules once.
    let options = options(&["ALL"]);
    let mut several = 0;
    for (rule, fires, clean) in rule_fixtures() {
        // Files of no kind a lint reads (a Go module's `go.mod`, which only a lint of a folder
        // on disk looks at) are not in an in-memory run: a batch naming one changes nothing.
        let in_run = |path: &str| {
            crate::discover::classify(path, &options.requirement_files).is_some()
                || crate::discover::source_kind(path).is_some()
        };
        let edits: Vec<(String, String)> = clean
            .iter()
            .filter(|(path, text)| {
                in_run(path) && fires.iter().any(|(p, t)| p == path && t != text)
            })
            .cloned()
            .collect();
        let after: Vec<(String, String)> = fires
            .iter()
            .map(|(path, text)| match edits.iter().find(|(p, _)| p == path) {
                Some(edit) => edit.clone(),
                None => (path.clone(), text.clone()),
            })
            .collect();
        let Ok(mut session) = Session::in_memory(&options, fires.clone()) else {
            panic!("{} lints", rule.display());
        };
        let count = edits.len();
        match session.replace_texts(edits) {
            Replaced::Relinted => several += usize::from(count > 1),
            Replaced::Unchanged | Replaced::NotInRun => {}
            Replaced::NeedsFreshLint => continue,
        }
        let fresh = lint_in_memory(&options, after).expect("lints");
        let kept = session.outcome();
        assert_eq!(kept.diagnostics, fresh.diagnostics, "{}", rule.display());
        assert_eq!(kept.suppressed, fresh.suppressed, "{}", rule.display());
    }
    // Batches of more than one file went through the incremental path.
    assert!(several > 5, "{several} batches relinted in place");
}

#[test]
fn a_rule_that_panics_on_an_edited_file_is_sl900_there_and_the_others_still_run() {
    let skill = "---\nname: a\ndescription: Does a. Use when asked.\n---\n\n# A\n";
    let files = vec![
        ("a/SKILL.md".to_string(), skill.to_string()),
        (
            "b/SKILL.md".to_string(),
            skill.replace("name: a", "name: b"),
        ),
    ];
    let options = LintOptions {
        panic_in_rule: Some("SK006".to_string()),
        ..options(&["ALL"])
    };
    let mut session = Session::in_memory(&options, files).expect("lints");
    // `b` takes the name `a` as well: SK014 (repository-wide) now reports the duplicate.
    let edited = skill.to_string();
    assert_eq!(
        session.replace_text("b/SKILL.md", edited),
        Replaced::Relinted
    );
    let outcome = session.outcome();
    let b = outcome.repo.file_by_path("b/SKILL.md").expect("in the run");
    let crashed = |d: &Diagnostic| d.code == "SL900" && d.primary.file == b;
    assert!(
        outcome.diagnostics.iter().any(crashed),
        "{:?}",
        outcome.diagnostics
    );
    assert!(
        outcome.diagnostics.iter().any(|d| d.code == "SK014"),
        "{:?}",
        outcome.diagnostics
    );
}

#[test]
fn a_session_lints_afresh_when_an_edit_changes_what_other_source_files_read() {
    // `server.ts` registers the tools a module it imports spells out: an edit of the module
    // changes the server's findings, which a relint of the module alone would not see.
    let options = options(&["SC016"]);
    let server = "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n\
        import { purge } from \"./defs.js\";\n\
        const server = new McpServer({ name: \"s\", version: \"1\" });\n\
        server.registerTool(purge.name, purge.config, async () => ({ content: [] }));\n";
    // The module registers a tool of its own too, so it is a file of the run.
    let own = "import type { Tool } from \"@modelcontextprotocol/sdk/types.js\";\n\
        export const listed: Tool[] = [{ name: \"ping\", inputSchema: { type: \"object\" } }];\n";
    let ungated = format!("{own}export const purge = {{ name: \"purge_all\", config: {{ description: \"Delete every record.\" }} }};\n");
    let gated = format!("{own}export const purge = {{ name: \"purge_all\", config: {{ description: \"Delete every record.\", annotations: {{ destructiveHint: true }} }} }};\n");
    let files = |defs: &str| {
        vec![
            ("defs.ts".to_string(), defs.to_string()),
            ("server.ts".to_string(), server.to_string()),
        ]
    };
    let mut session = Session::in_memory(&options, files(&ungated)).expect("lints");
    assert_eq!(
        session.outcome().diagnostics.len(),
        1,
        "{:?}",
        session.outcome().diagnostics
    );
    let replaced = session.replace_text("defs.ts", gated.clone());
    assert!(matches!(replaced, Replaced::NeedsFreshLint));
    let fresh = lint_in_memory(&options, files(&gated)).expect("lints");
    assert!(fresh.diagnostics.is_empty(), "{:?}", fresh.diagnostics);
}
