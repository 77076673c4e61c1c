use super::name_problem;
use super::sk005_skill_name_folder_mismatch::name_value;
use super::sk013_skill_body_too_long::line_count;
use crate::source::Span;

#[test]
fn line_count_matches_str_lines() {
    for text in [
        "",
        "\n",
        "a",
        "a\n",
        "a\nb",
        "a\r\nb\r\n",
        "\n\n",
        "a\n\nb\n",
        "é\n日本",
    ] {
        assert_eq!(line_count(text), text.lines().count(), "{text:?}");
    }
}

#[test]
fn name_fix_keeps_the_quoting_and_quotes_when_yaml_would_retype() {
    let value = |line: &str, folder: &str| {
        let start = line.find(": ").map_or(0, |i| i + 2);
        let end = line.find(" #").unwrap_or(line.len());
        name_value(line, Span::new(start, end), folder)
    };
    assert_eq!(
        value("name: pdf-filler # old", "pdf-forms"),
        Some("pdf-forms".into())
    );
    assert_eq!(value("name: 'x'", "pdf-forms"), Some("'pdf-forms'".into()));
    assert_eq!(
        value("name: \"x\"", "pdf-forms"),
        Some("\"pdf-forms\"".into())
    );
    assert_eq!(value("name: x", "123"), Some("\"123\"".into()));
    assert_eq!(value("name: x", "1e5"), Some("\"1e5\"".into()));
    assert_eq!(value("name: x", "null"), Some("\"null\"".into()));
    assert_eq!(value("name: x", "no"), Some("\"no\"".into()));
    // A folder name that is not a valid skill name: rename the folder instead.
    assert_eq!(value("name: x", "PDF_Forms"), None);
    assert_eq!(value("name: >-", "pdf-forms"), None);
}

#[test]
fn name_rules() {
    assert_eq!(name_problem("pdf-forms"), None);
    assert_eq!(
        name_problem("données"),
        None,
        "Unicode lowercase letters are allowed"
    );
    assert!(name_problem("PDF").is_some_and(|p| p.contains("uppercase")));
    assert!(name_problem("-pdf").is_some_and(|p| p.contains("starts or ends")));
    assert!(name_problem("pdf--forms").is_some_and(|p| p.contains("doubled")));
    assert!(name_problem("pdf_forms").is_some_and(|p| p.contains("`_`")));
    assert!(name_problem(&"a".repeat(65)).is_some_and(|p| p.contains("64")));
}

/// One root cause, one error: a `name` that is invalid and differs from its folder is SK004's
/// finding alone, carrying the fix to the folder's name; SK005 reports it only when SK004 is off.
#[test]
fn an_invalid_name_is_one_error_with_the_fix() {
    use crate::rule_testing::lint_files_among;
    let files = [(
        "pages/SKILL.md",
        "---\nname: My Pages!\ndescription: Writes pages. Use when asked.\n---\n\nBody.\n",
    )];
    let both = lint_files_among(&["SK004", "SK005"], &files);
    let codes: Vec<&str> = both.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["SK004"]);
    let fix = both.diagnostics[0]
        .fix
        .as_ref()
        .expect("SK004 carries a fix");
    assert_eq!(fix.description, "set `name` to `pages`, the folder name");
    assert_eq!(fix.edits[0].replacement, "pages");
    let alone = lint_files_among(&["SK005"], &files);
    let codes: Vec<&str> = alone.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["SK005"]);
    // A valid name that differs from its folder is still SK005's.
    let valid = lint_files_among(
        &["SK004", "SK005"],
        &[(
            "pages/SKILL.md",
            "---\nname: notes\ndescription: Writes pages. Use when asked.\n---\n\nBody.\n",
        )],
    );
    let codes: Vec<&str> = valid.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["SK005"]);
}
