//! SK011 `skill-broken-reference`: The skill body links to a file that does not exist.

use crate::check::{Sink, Unit};
use crate::model::skill::{FoundAt, ReferenceProblem};

pub(super) fn skill_broken_reference(unit: &Unit<'_>, sink: &mut Sink) {
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
