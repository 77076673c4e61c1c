//! SK009 `skill-compatibility-invalid`: The compatibility field is not a string of 1 to 500
//! characters.

use super::{chars, skill_with_frontmatter};
use crate::check::{Sink, Unit};

const COMPATIBILITY_MAX: usize = 500;

pub(super) fn skill_compatibility_invalid(unit: &Unit<'_>, sink: &mut Sink) {
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
