//! SK004 `skill-name-invalid`: The skill name breaks the naming rules.

use super::sk005_skill_name_folder_mismatch::name_value;
use super::{is_blank, name_problem, skill_with_frontmatter};
use crate::check::{Sink, Unit};
use crate::diagnostic::{Edit, Fix};

pub(super) fn skill_name_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill, fm)) = skill_with_frontmatter(unit) else {
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
        let diagnostic = sink
            .report(file, name.span, format!("skill name `{text}` {problem}"))
            .label("invalid name")
            .help("use 1-64 lowercase letters, digits and single hyphens, e.g. `pdf-forms`");
        // The folder's name, when it is a valid name, is the one the skill is found by: the fix
        // (and SK005 stays silent on the same name).
        if let Some(replacement) = name_value(unit.text(file), name.span, &skill.folder_name) {
            diagnostic.fix(Fix::unsafe_(
                format!("set `name` to `{}`, the folder name", skill.folder_name),
                vec![Edit::replace(file, name.span, replacement)],
            ));
        }
    }
}
