//! SK014 `skill-name-duplicate`: Two skills in the repository share the same name.

use super::nfkc;
use crate::check::{RepoContext, Sink};
use crate::source::{FileId, Span};
use std::collections::HashMap;

pub(super) fn skill_name_duplicate(repo: &RepoContext<'_>, sink: &mut Sink) {
    // Only looked up, never iterated: a hash map, sized once.
    let mut first_by_name: HashMap<(&str, String), (FileId, Span)> =
        HashMap::with_capacity(repo.skill_names.len());
    for skill in repo.skill_names {
        let dir = crate::source::parent_dir(&repo.file(skill.file).rel_path);
        let key = (scope(repo, dir), nfkc(&skill.name));
        match first_by_name.get(&key) {
            Some((first_file, first_span)) => {
                sink.report(
                    skill.file,
                    skill.span,
                    format!("another skill is also named `{}`", skill.name),
                )
                .label("duplicate name")
                .secondary(*first_file, *first_span, "first skill with this name")
                .help("skill names must be unique among the skills one agent sees; agents pick skills by name");
            }
            None => {
                first_by_name.insert(key, (skill.file, skill.span));
            }
        }
    }
}

/// The skills an agent sees together, which names must tell apart: those of one plugin (a host
/// namespaces plugin skills by plugin), those of one host's skill folder (`.claude/skills/`,
/// `.agents/skills/`, `.codex/skills/`: a skill mirrored for two hosts is one skill per host),
/// and all the others.
fn scope<'a>(repo: &'a RepoContext<'_>, dir: &'a str) -> &'a str {
    if let Some((root, _)) = repo.contracts.plugins.plugin_of(dir) {
        return root;
    }
    // `proj/.codex/skills/x` → `proj/.codex`: the innermost hidden folder holding `skills/`.
    let mut end = None;
    let mut offset = 0;
    let mut previous: Option<(usize, &str)> = None;
    for segment in dir.split('/') {
        if segment == "skills" {
            if let Some((start, name)) = previous {
                if name.starts_with('.') {
                    end = Some(start + name.len());
                }
            }
        }
        previous = Some((offset, segment));
        offset += segment.len() + 1;
    }
    match end {
        Some(end) => &dir[..end],
        None => "",
    }
}
