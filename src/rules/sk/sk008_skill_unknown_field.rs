//! SK008 `skill-unknown-field`: The skill frontmatter has a top-level key the spec does not
//! define.

use super::skill_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::parse::{Node, Value};

/// The six top-level keys of the Agent Skills specification.
const SPEC_FIELDS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

pub(super) fn skill_unknown_field(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let extra = unit
        .settings()
        .extra_fields_for(&unit.repo.file(file).rel_path);
    // A skill that ships in a Claude Code or Cursor plugin (or sits in `.claude/skills/`) is read
    // by that host, which defines more keys: its dialect is the host's, whatever the config says.
    let host_fields = super::host_fields(unit);
    for member in fm.root.as_object().unwrap_or_default() {
        let key = member.key.as_str();
        if SPEC_FIELDS.contains(&key)
            || extra.iter().any(|e| e == key)
            || host_fields.contains(&key)
        {
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
