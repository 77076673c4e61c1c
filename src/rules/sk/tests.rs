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
