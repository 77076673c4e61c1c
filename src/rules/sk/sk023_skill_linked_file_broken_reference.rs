//! SK023 `skill-linked-file-broken-reference`: A Markdown file the skill links to links to a
//! file that does not exist.

use crate::check::{Sink, Unit};

pub(super) fn skill_linked_file_broken_reference(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _)) = unit.skill() else {
        return;
    };
    let dir = unit.dir();
    let breaks = &unit.repo.linked_breaks;
    let first = breaks.partition_point(|b| b.skill_dir.as_str() < dir);
    for broken in breaks[first..].iter().take_while(|b| b.skill_dir == dir) {
        sink.report(
            file,
            broken.via_span,
            format!(
                "`{}`, which the skill links to, links to `{}` (line {}), which does not exist",
                broken.file, broken.destination, broken.line
            ),
        )
        .label("the agent follows this link, then one that leads nowhere")
        .help(format!(
            "fix the path in `{}` (a link there is read from that file's folder) or add the file",
            broken.file
        ));
    }
}
