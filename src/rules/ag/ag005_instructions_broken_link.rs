//! AG005 `instructions-broken-link`: `AGENTS.md` or `CLAUDE.md` links to a file that does not
//! exist.

use crate::check::{Sink, Unit};

pub(super) fn instructions_broken_link(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.instruction_docs() {
        let name = unit.repo.file_name(file);
        for (destination, span) in &doc.missing_links {
            sink.report(
                file,
                *span,
                format!("{name} links to `{destination}`, which does not exist"),
            )
            .label("no such file (read from this file's folder)")
            .help("fix the path (relative to the folder of this file) or add the file; an agent that follows the link finds nothing");
        }
    }
}
