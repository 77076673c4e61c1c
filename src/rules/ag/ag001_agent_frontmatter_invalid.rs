//! AG001 `agent-frontmatter-invalid`: A command's or agent's frontmatter is not valid YAML.

use crate::check::{Sink, Unit};
use crate::model::document::FrontmatterState;
use crate::rules::report::{report_frontmatter_problem, GENERIC_MISSING_HELP};

pub(super) fn agent_frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.agent_docs() {
        // A command needs no frontmatter (its body is the prompt); an agent without one is not
        // read as an agent at all.
        if matches!(doc.doc.frontmatter, FrontmatterState::Missing) {
            continue;
        }
        // Claude Code reads a frontmatter that is not YAML leniently (its own agents carry
        // descriptions with `: ` and `<example>` lines that no YAML reader accepts): a YAML
        // error is only reported where another host reads the file.
        if matches!(doc.doc.frontmatter, FrontmatterState::Invalid { .. })
            && read_by_claude_code(unit, file)
        {
            continue;
        }
        report_frontmatter_problem(unit.repo, file, &doc.doc, sink, GENERIC_MISSING_HELP);
    }
}

/// Whether Claude Code reads the file: it is in a Claude Code plugin or under `.claude/`.
fn read_by_claude_code(unit: &Unit<'_>, file: crate::source::FileId) -> bool {
    let dir = crate::source::parent_dir(&unit.repo.file(file).rel_path);
    dir.split('/').any(|segment| segment == ".claude")
        || unit
            .repo
            .contracts
            .plugins
            .plugin_of(dir)
            .is_some_and(|(_, hosts)| hosts.contains(crate::model::plugin::Host::ClaudeCode))
}
