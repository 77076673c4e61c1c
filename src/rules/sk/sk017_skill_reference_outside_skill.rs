//! SK017 `skill-reference-outside-skill`: The skill body links to a file outside the skill
//! folder.

use crate::check::{Sink, Unit};
use crate::model::skill::{BrokenReference, Outside, ReferenceProblem};
use std::collections::HashMap;

const MACHINE_PATH_HELP: &str = "the path exists only on one machine: copy the file into the skill folder (e.g. under `references/`) and link to it with a relative path, or link to it by URL";

const OUTSIDE_HELP: &str = "a skill is installed as its folder alone, so this file does not come with it: copy it into the skill folder (e.g. under `references/`) and link to the copy, or link to it by URL";

pub(super) fn skill_reference_outside_skill(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, skill)) = unit.skill() else {
        return;
    };
    // A plugin is installed as a whole: a file elsewhere in the skill's plugin comes with it.
    let plugin_root = unit
        .repo
        .contracts
        .plugins
        .plugin_of(unit.dir())
        .map(|(root, _)| root);
    let leaving: Vec<(&BrokenReference, &Outside)> = skill
        .broken_references
        .iter()
        .filter_map(|reference| {
            let ReferenceProblem::Outside(outside) = &reference.problem else {
                return None;
            };
            if let (Outside::Existing { target, .. }, Some(root)) = (outside, plugin_root) {
                let inside = root.is_empty()
                    || target
                        .strip_prefix(root)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
                // ... except a file of a sibling skill: skills are also installed one by one
                // (a skill directory, `skills add`), and then the sibling is not there. A link
                // to the sibling itself (its folder or `SKILL.md`) names a skill, which the host
                // loads by name; a link into its files depends on what it ships.
                if inside && !into_other_skill(unit, target) {
                    return None;
                }
            }
            Some((reference, outside))
        })
        .collect();
    // A symlinked folder is one problem however many links lead through it (a skill linking
    // fifty pages of a symlinked `references/` would otherwise get fifty findings): the first
    // link through each symlink is reported, with the count of the others.
    let mut through: HashMap<&str, usize> = HashMap::new();
    for (_, outside) in &leaving {
        if let Some(symlink) = symlink_of(outside) {
            *through.entry(symlink).or_default() += 1;
        }
    }
    for (reference, outside) in leaving {
        let more = match symlink_of(outside) {
            // Taken out when reported: a later link through the same symlink finds none.
            Some(symlink) => match through.remove(symlink) {
                Some(links) => links - 1,
                None => continue,
            },
            None => 0,
        };
        let also = match more {
            0 => String::new(),
            1 => ", as does 1 more link of this file".to_string(),
            n => format!(", as do {n} more links of this file"),
        };
        let destination = &reference.destination;
        let leads_out = format!("link to `{destination}` leads outside the skill folder");
        let through_symlink = format!("{leads_out} through a symlink{also}");
        let (message, label) = match outside {
            Outside::Existing {
                symlink: None,
                target,
            } => (
                leads_out,
                match other_skill(unit, target) {
                    Some(sibling) => format!("exists, but in another skill (`{sibling}`)"),
                    None => "exists, but outside the skill folder".to_string(),
                },
            ),
            Outside::Existing {
                symlink: Some(symlink),
                ..
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

/// Whether `target` is a file inside another skill's folder other than its `SKILL.md`.
fn into_other_skill(unit: &Unit<'_>, target: &str) -> bool {
    other_skill(unit, target).is_some_and(|sibling| {
        let (dir, name) = crate::source::split_path(target);
        target != sibling && !(dir == sibling && name.eq_ignore_ascii_case("SKILL.md"))
    })
}

/// The folder of the skill, other than this unit's, that holds `target` (a path relative to the
/// lint root): the nearest enclosing folder with a `SKILL.md`.
fn other_skill<'a>(unit: &Unit<'_>, target: &'a str) -> Option<&'a str> {
    let mut folder = target;
    while !folder.is_empty() {
        if folder == unit.dir() {
            return None;
        }
        if unit
            .repo
            .file_by_path(&crate::source::join_path(folder, "SKILL.md"))
            .is_some()
        {
            return Some(folder);
        }
        folder = crate::source::parent_dir(folder);
    }
    None
}

/// The symlink in the skill folder a link leaves through, if it leaves through one.
fn symlink_of(outside: &Outside) -> Option<&str> {
    match outside {
        Outside::Existing {
            symlink: Some(symlink),
            ..
        }
        | Outside::BeyondLintRoot {
            symlink: Some(symlink),
        } => Some(symlink),
        _ => None,
    }
}
