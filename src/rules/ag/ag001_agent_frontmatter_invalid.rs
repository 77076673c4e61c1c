//! AG001 `agent-frontmatter-invalid`: A command's or agent's frontmatter is not valid YAML.

use crate::check::{Sink, Unit};
use crate::model::document::FrontmatterState;
use crate::rules::phrasing::{report_frontmatter_problem, GENERIC_MISSING_HELP};

pub(super) fn agent_frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.agent_docs() {
        // A command needs no frontmatter (its body is the prompt); an agent without one is not
        // read as an agent at all.
        if matches!(doc.doc.frontmatter, FrontmatterState::Missing) {
            continue;
        }
        report_frontmatter_problem(unit.repo, file, &doc.doc, sink, GENERIC_MISSING_HELP);
    }
}
