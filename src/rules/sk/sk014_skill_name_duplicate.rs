//! SK014 `skill-name-duplicate`: Two skills in the repository share the same name.

use super::nfkc;
use crate::check::{RepoContext, Sink};
use crate::source::{FileId, Span};
use std::collections::HashMap;

pub(super) fn skill_name_duplicate(repo: &RepoContext<'_>, sink: &mut Sink) {
    // Only looked up, never iterated: a hash map, sized once.
    let mut first_by_name: HashMap<String, (FileId, Span)> =
        HashMap::with_capacity(repo.skill_names.len());
    for skill in repo.skill_names {
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
