//! SK: `SKILL.md` against the Agent Skills specification.

use crate::check::Unit;
use crate::check::{Check, RuleImpl, Sink};
use crate::diagnostic::{Edit, Fix};
use crate::index::Repo;
use crate::model::skill::{
    FoundAt, Frontmatter, FrontmatterState, Outside, ReferenceProblem, SkillDoc,
};
use crate::parse::{Node, Value};
use crate::source::{FileId, Span};
use std::collections::HashMap;
use unicode_normalization::UnicodeNormalization;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: "SK001", check: Check::Unit(frontmatter_missing) },
    RuleImpl { code: "SK002", check: Check::Unit(frontmatter_invalid) },
    RuleImpl { code: "SK003", check: Check::Unit(name_missing) },
    RuleImpl { code: "SK004", check: Check::Unit(name_invalid) },
    RuleImpl { code: "SK005", check: Check::Unit(name_folder_mismatch) },
    RuleImpl { code: "SK006", check: Check::Unit(description_missing) },
    RuleImpl { code: "SK007", check: Check::Unit(description_too_long) },
    RuleImpl { code: "SK008", check: Check::Unit(unknown_field) },
    RuleImpl { code: "SK009", check: Check::Unit(compatibility_invalid) },
    RuleImpl { code: "SK010", check: Check::Unit(metadata_invalid) },
    RuleImpl { code: "SK011", check: Check::Unit(broken_reference) },
    RuleImpl { code: "SK012", check: Check::Unit(file_lowercase) },
    RuleImpl { code: "SK013", check: Check::Unit(body_too_long) },
    RuleImpl { code: "SK014", check: Check::Repo(name_duplicate) },
    RuleImpl { code: "SK015", check: Check::Unit(yaml_not_portable) },
    RuleImpl { code: "SK016", check: Check::Unit(allowed_tools_invalid) },
    RuleImpl { code: "SK017", check: Check::Unit(reference_outside_skill) },
];

/// The six top-level keys of the Agent Skills specification.
const SPEC_FIELDS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];
const NAME_MAX: usize = 64;
const DESCRIPTION_MAX: usize = 1024;
const COMPATIBILITY_MAX: usize = 500;
const BODY_MAX_LINES: usize = 500;

fn skill_with_frontmatter<'a>(unit: &Unit<'a>) -> Option<(FileId, &'a SkillDoc, &'a Frontmatter)> {
    let (file, skill) = unit.skill()?;
    let frontmatter = skill.doc.frontmatter()?;
    Some((file, skill, frontmatter))
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// The first line of the file, where a diagnostic about the file as a whole points.
fn first_line(text: &str) -> Span {
    let end = text.find('\n').unwrap_or(text.len());
    Span::new(0, text[..end].trim_end().len())
}

fn frontmatter_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    match &skill.doc.frontmatter {
        FrontmatterState::Missing => {
            sink.report(file, first_line(unit.text(file)), "SKILL.md has no YAML frontmatter")
                .label("expected `---` on the first line")
                .help("start the file with a `---` line, then `name:` and `description:`, then a closing `---`");
        }
        FrontmatterState::Unterminated { opening } => {
            sink.report(
                file,
                *opening,
                "the frontmatter opened here is never closed",
            )
            .label("no closing `---` line follows")
            .help("end the frontmatter with a line containing only `---`");
        }
        _ => {}
    }
}

fn frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    let FrontmatterState::Invalid { error } = &skill.doc.frontmatter else {
        return;
    };
    match error.first_definition {
        Some(first) => {
            sink.report(
                file,
                error.span,
                format!("{} in the frontmatter", error.message),
            )
            .label("defined again here")
            .secondary(file, first, "first defined here")
            .help("keep one definition; YAML tools disagree on which duplicate wins");
        }
        None => {
            sink.report(
                file,
                error.span,
                format!("frontmatter is not valid YAML: {}", error.message),
            )
            .label("the YAML parser stopped here");
        }
    }
}

fn name_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    match fm.root.member("name") {
        None => {
            sink.report(file, fm.opening, "skill has no `name`")
                .label("frontmatter without `name`")
                .help("add `name:` with the skill folder's name");
        }
        Some(member) if is_blank(&member.value) => {
            sink.report(file, member.key_span, "skill `name` is empty")
                .help("set `name:` to the skill folder's name");
        }
        Some(_) => {}
    }
}

fn is_blank(node: &Node) -> bool {
    match &node.value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// NFKC normalisation; ASCII text is already normalised and is copied as it is.
fn nfkc(text: &str) -> String {
    if text.is_ascii() {
        text.to_string()
    } else {
        text.nfkc().collect()
    }
}

/// Why a skill name breaks the naming rules, if it does.
fn name_problem(name: &str) -> Option<String> {
    let normalized = nfkc(name);
    let length = chars(&normalized);
    if length > NAME_MAX {
        return Some(format!(
            "is {length} characters long; the limit is {NAME_MAX}"
        ));
    }
    if let Some(c) = normalized
        .chars()
        .find(|c| !(c.is_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Some(if c.is_uppercase() {
            format!("contains the uppercase letter `{c}`; names are lowercase")
        } else {
            format!("contains `{c}`; only lowercase letters, digits and `-` are allowed")
        });
    }
    if normalized.starts_with('-') || normalized.ends_with('-') {
        return Some("starts or ends with `-`".to_string());
    }
    if normalized.contains("--") {
        return Some("contains a doubled `--`".to_string());
    }
    None
}

fn name_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(name) = fm.root.get("name").filter(|n| !is_blank(n)) else {
        return;
    };
    let Some(text) = name.as_str() else {
        sink.report(
            file,
            name.span,
            format!("skill `name` must be a string, found {}", name.type_name()),
        )
        .help("quote the value so YAML reads it as text");
        return;
    };
    if let Some(problem) = name_problem(text) {
        sink.report(file, name.span, format!("skill name `{text}` {problem}"))
            .label("invalid name")
            .help("use 1-64 lowercase letters, digits and single hyphens, e.g. `pdf-forms`");
    }
}

fn name_folder_mismatch(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(name) = fm.root.get("name") else {
        return;
    };
    let Some(text) = name.as_str().filter(|t| !t.trim().is_empty()) else {
        return;
    };
    let normalized = nfkc(text);
    let folder = nfkc(&skill.folder_name);
    if folder.is_empty() || normalized == folder {
        return;
    }
    let diagnostic = sink
        .report(
            file,
            name.span,
            format!(
                "skill name `{text}` does not match its folder `{}`",
                skill.folder_name
            ),
        )
        .label(format!("expected `{}`", skill.folder_name))
        .help(
            "agents find a skill by its folder; rename the folder or change `name` so they agree",
        );
    if let Some(replacement) = name_value(unit.text(file), name.span, &skill.folder_name) {
        diagnostic.fix(Fix::unsafe_(
            format!("set `name` to `{}`, the folder name", skill.folder_name),
            vec![Edit::replace(file, name.span, replacement)],
        ));
    }
}

/// The YAML text that replaces the `name` value at `span` with `folder`, in the value's own quoting
/// style. `None` when the folder name is not a valid skill name itself (then the folder should be
/// renamed instead) or the value is not a one-line scalar.
fn name_value(text: &str, span: Span, folder: &str) -> Option<String> {
    if name_problem(folder).is_some() || folder.is_empty() {
        return None;
    }
    let source = text.get(span.start..span.end)?;
    if source.is_empty() || source.contains(['\n', '\r']) {
        return None;
    }
    // A valid name has no quote, backslash or YAML indicator that would need escaping.
    match source.chars().next()? {
        '"' => Some(format!("\"{folder}\"")),
        '\'' => Some(format!("'{folder}'")),
        '|' | '>' | '&' | '*' | '!' | '[' | '{' => None,
        // Plain: quoted only when YAML would read the folder name as a number, boolean or null
        // (YAML 1.1 readers also take `yes`, `no`, `on`, `off` for booleans).
        _ if matches!(crate::parse::yaml::resolve_plain(folder), Value::String(_))
            && !matches!(folder, "y" | "n" | "yes" | "no" | "on" | "off") =>
        {
            Some(folder.to_string())
        }
        _ => Some(format!("\"{folder}\"")),
    }
}

fn description_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let help = "say what the skill does and when to use it, in one or two sentences";
    match fm.root.member("description") {
        None => {
            sink.report(file, fm.opening, "skill has no `description`")
                .label("frontmatter without `description`")
                .help(help);
        }
        Some(member) if is_blank(&member.value) => {
            sink.report(file, member.key_span, "skill `description` is empty")
                .help(help);
        }
        Some(member) if member.value.as_str().is_none() => {
            sink.report(
                file,
                member.value.span,
                format!(
                    "skill `description` must be a string, found {}",
                    member.value.type_name()
                ),
            )
            .help(help);
        }
        Some(_) => {}
    }
}

fn description_too_long(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(description) = fm.root.get("description") else {
        return;
    };
    let Some(text) = description.as_str() else {
        return;
    };
    let length = chars(text);
    if length > DESCRIPTION_MAX {
        sink.report(
            file,
            description.span,
            format!("skill description is {length} characters, over the {DESCRIPTION_MAX} limit"),
        )
        .help("keep the description short and move details into the body");
    }
}

fn unknown_field(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let extra = &unit.settings().skill_extra_fields;
    for member in fm.root.as_object().unwrap_or_default() {
        let key = member.key.as_str();
        if SPEC_FIELDS.contains(&key) || extra.iter().any(|e| e == key) {
            continue;
        }
        sink.report(
            file,
            member.key_span,
            format!("unknown frontmatter field `{key}`"),
        )
        .label("not an Agent Skills field")
        .help(unknown_field_help(key, &member.value));
    }
}

/// Where an unknown key can go. `metadata` takes strings only, so a list or a map is never sent
/// there as it is.
fn unknown_field_help(key: &str, value: &Node) -> String {
    const ALLOW: &str = "allow it with `extra-fields` in the `[skills]` config";
    let elsewhere = match &value.value {
        Value::String(_) => format!("move it under `metadata`, or {ALLOW}"),
        Value::Array(_) | Value::Object(_) => {
            let what = if matches!(value.value, Value::Array(_)) {
                "a list"
            } else {
                "a map"
            };
            format!(
                "{ALLOW} if your runtime reads it; {what} cannot move under `metadata`, which holds only strings"
            )
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => format!(
            "move it under `metadata` as a quoted string (`metadata` values are strings), or {ALLOW}"
        ),
    };
    if crate::model::skill::CLAUDE_CODE_FIELDS.contains(&key) {
        format!(
            "`{key}` is a Claude Code field: set `dialect = \"claude-code\"` in the `[skills]` config if the skill is for Claude Code; otherwise {elsewhere}"
        )
    } else {
        elsewhere
    }
}

fn compatibility_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(value) = fm.root.get("compatibility") else {
        return;
    };
    let problem = match value.as_str() {
        None => format!(
            "`compatibility` must be a string, found {}",
            value.type_name()
        ),
        Some(text) if text.trim().is_empty() => "`compatibility` is empty".to_string(),
        Some(text) if chars(text) > COMPATIBILITY_MAX => format!(
            "`compatibility` is {} characters, over the {COMPATIBILITY_MAX} limit",
            chars(text)
        ),
        Some(_) => return,
    };
    sink.report(file, value.span, problem)
        .help("describe the environment the skill needs in one string of 1-500 characters");
}

fn metadata_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(metadata) = fm.root.get("metadata") else {
        return;
    };
    let Some(members) = metadata.as_object() else {
        sink.report(
            file,
            metadata.span,
            format!(
                "`metadata` must be a map of strings, found {}",
                metadata.type_name()
            ),
        )
        .help("write `metadata:` followed by indented `key: value` lines");
        return;
    };
    for member in members {
        if member.value.as_str().is_none() {
            sink.report(
                file,
                member.value.span,
                format!(
                    "metadata value `{}` must be a string, found {}",
                    member.key,
                    member.value.type_name()
                ),
            )
            .help("quote the value (e.g. `version: \"1.0\"`)");
        }
    }
}

fn broken_reference(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    for reference in &skill.broken_references {
        let ReferenceProblem::Missing {
            leaves_folder,
            found_at,
        } = &reference.problem
        else {
            continue;
        };
        let diagnostic = sink
            .report(
                file,
                reference.span,
                format!("link to `{}`, which does not exist", reference.destination),
            )
            .label(if *leaves_folder {
                "no such file (the path also leaves the skill folder)"
            } else {
                "no such file in the skill folder"
            });
        match found_at {
            Some(FoundAt::EnclosingFolder(path)) => diagnostic.help(format!(
                "`{path}` exists, outside the skill folder: copy it into the skill folder (e.g. under `references/`) and link to the copy, or link to it by URL"
            )),
            Some(FoundAt::ForwardSlashes(path)) => diagnostic.help(format!(
                "the file exists as `{path}`: separate the folders of a link with `/`"
            )),
            None => diagnostic.help("fix the path (relative to the skill folder) or add the file"),
        };
    }
}

const MACHINE_PATH_HELP: &str = "the path exists only on one machine: copy the file into the skill folder (e.g. under `references/`) and link to it with a relative path, or link to it by URL";
const OUTSIDE_HELP: &str = "a skill is installed as its folder alone, so this file does not come with it: copy it into the skill folder (e.g. under `references/`) and link to the copy, or link to it by URL";

fn reference_outside_skill(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    for reference in &skill.broken_references {
        let ReferenceProblem::Outside(outside) = &reference.problem else {
            continue;
        };
        let destination = &reference.destination;
        let leads_out = format!("link to `{destination}` leads outside the skill folder");
        let through_symlink = format!("{leads_out} through a symlink");
        let (message, label) = match outside {
            Outside::Existing { symlink: None } => (
                leads_out,
                "exists, but outside the skill folder".to_string(),
            ),
            Outside::Existing {
                symlink: Some(symlink),
            } => (
                through_symlink,
                format!("`{symlink}` is a symlink to a place outside the skill folder"),
            ),
            Outside::BeyondLintRoot { symlink: None } => (
                leads_out,
                "outside the lint root too: not looked at".to_string(),
            ),
            Outside::BeyondLintRoot {
                symlink: Some(symlink),
            } => (
                through_symlink,
                format!("`{symlink}` is a symlink to a place outside the lint root: not looked at"),
            ),
            Outside::MachinePath => (
                format!("link to `{destination}`, an absolute path on one machine"),
                "not a file of the skill".to_string(),
            ),
        };
        let help = if matches!(outside, Outside::MachinePath) {
            MACHINE_PATH_HELP
        } else {
            OUTSIDE_HELP
        };
        sink.report(file, reference.span, message)
            .label(label)
            .help(help);
    }
}

fn file_lowercase(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    if skill.lowercase_file_name {
        sink.report(
            file,
            Span::empty(0),
            "skill file is named `skill.md`; the specification expects `SKILL.md`",
        )
        .help("rename the file to `SKILL.md`; case-sensitive systems will not find it")
        .fix(Fix {
            rename_to: Some("SKILL.md".into()),
            ..Fix::safe("rename `skill.md` to `SKILL.md`", vec![])
        });
    }
}

/// What `str::lines().count()` gives, from a SIMD newline count: every `\n` ends a line, and a
/// last line without one counts too.
fn line_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count()
        + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

fn body_too_long(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    let text = unit.text(file);
    let body = crate::source::slice(text, skill.doc.body_span);
    let lines = line_count(body);
    if lines <= BODY_MAX_LINES {
        return;
    }
    // Point at the first line past the limit.
    let mut offset = skill.doc.body_span.start;
    for line in body.split_inclusive('\n').take(BODY_MAX_LINES) {
        offset += line.len();
    }
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    sink.report(
        file,
        Span::new(offset, line_end),
        format!("skill body is {lines} lines, over the recommended {BODY_MAX_LINES}"),
    )
    .label(format!("line {} of the body", BODY_MAX_LINES + 1))
    .help("move reference material into separate files that the body links to");
}

fn name_duplicate(repo: &Repo, sink: &mut Sink) {
    // Only looked up, never iterated: a hash map, sized once.
    let mut first_by_name: HashMap<String, (FileId, Span)> =
        HashMap::with_capacity(repo.skill_names.len());
    for skill in &repo.skill_names {
        let key = nfkc(&skill.name);
        match first_by_name.get(&key) {
            Some((first_file, first_span)) => {
                sink.report(
                    skill.file,
                    skill.span,
                    format!("another skill is also named `{}`", skill.name),
                )
                .label("duplicate name")
                .secondary(*first_file, *first_span, "first skill with this name")
                .help("skill names must be unique; agents pick skills by name");
            }
            None => {
                first_by_name.insert(key, (skill.file, skill.span));
            }
        }
    }
}

fn yaml_not_portable(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let features = &fm.features;
    let groups: [(&[Span], &str, &str); 4] = [
        (
            &features.flow_collections,
            "flow-style collection",
            "write it in block style, one item per line",
        ),
        (
            &features.anchors,
            "YAML anchor",
            "repeat the value instead of anchoring it",
        ),
        (
            &features.aliases,
            "YAML alias",
            "repeat the value instead of aliasing it",
        ),
        (
            &features.tags,
            "YAML tag",
            "remove the tag; quote the value if it must be a string",
        ),
    ];
    let mut found: Vec<(Span, &str, &str)> = groups
        .iter()
        .flat_map(|(spans, what, help)| spans.iter().map(move |s| (*s, *what, *help)))
        .collect();
    found.sort_by_key(|(span, _, _)| *span);
    for (span, what, help) in found {
        sink.report(
            file,
            span,
            format!("{what} in frontmatter is rejected by the reference validator"),
        )
        .label("valid YAML, but not StrictYAML")
        .help(help);
    }
}

fn allowed_tools_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(value) = fm.root.get("allowed-tools") else {
        return;
    };
    match value.as_str() {
        None => {
            sink.report(
                file,
                value.span,
                format!(
                    "`allowed-tools` must be a space-separated string, found {}",
                    value.type_name()
                ),
            )
            .help(
                "write the tools on one line separated by spaces, e.g. `allowed-tools: Read Grep`",
            );
        }
        Some(text) if text.contains(',') => {
            sink.report(
                file,
                value.span,
                "`allowed-tools` separates tools with commas",
            )
            .label("expected spaces between tool names")
            .help("separate the tools with spaces, e.g. `allowed-tools: Read Grep`");
        }
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::{line_count, name_problem, name_value};
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
}
