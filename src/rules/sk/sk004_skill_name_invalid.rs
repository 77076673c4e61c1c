//! SK004 `skill-name-invalid`: The skill name breaks the naming rules.

use super::{is_blank, name_problem, skill_with_frontmatter};
use crate::check::{Sink, Unit};

pub(super) fn skill_name_invalid(unit: &Unit<'_>, sink: &mut Sink) {
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
