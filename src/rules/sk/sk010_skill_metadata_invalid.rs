//! SK010 `skill-metadata-invalid`: The metadata field is not a map of strings to strings.

use super::skill_with_frontmatter;
use crate::check::{Sink, Unit};

pub(super) fn skill_metadata_invalid(unit: &Unit<'_>, sink: &mut Sink) {
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
