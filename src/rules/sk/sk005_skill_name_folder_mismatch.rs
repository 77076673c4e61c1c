//! SK005 `skill-name-folder-mismatch`: The skill name differs from its folder name.

use super::{name_problem, nfkc, skill_with_frontmatter};
use crate::check::{code, Sink, Unit};
use crate::diagnostic::{Edit, Fix};
use crate::parse::Value;
use crate::source::Span;

pub(super) fn skill_name_folder_mismatch(unit: &Unit<'_>, sink: &mut Sink) {
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
    // One root cause, one error: a name SK004 reports as invalid is that error, whose fix sets
    // it to the folder's name, and not also a mismatch.
    if name_problem(text).is_some() && unit.reports(code::SK004, file) {
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
pub(super) fn name_value(text: &str, span: Span, folder: &str) -> Option<String> {
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
