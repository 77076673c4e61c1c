//! SE003 `hidden-unicode`: Invisible Unicode characters hide text from reviewers in
//! agent-facing content.

use crate::check::{Sink, Unit};
use crate::semantic::invisible::{describe_run, hidden_runs, tag_text, HiddenRun};
use crate::source::FileId;

fn report_hidden(sink: &mut Sink, file: FileId, run: &HiddenRun, place: &str) {
    let diagnostic = sink.report(
        file,
        run.span,
        format!("hidden Unicode in {place}: {}", describe_run(run)),
    );
    match tag_text(run) {
        Some(text) => diagnostic.label(format!("invisible text: `{}`", text.replace('`', "'"))),
        None => diagnostic.label("invisible to a reviewer, read by the agent"),
    };
    diagnostic.help("delete these characters; text that needs right-to-left or joining marks should be written so a reviewer can see what the agent reads");
}

pub(super) fn hidden_unicode(unit: &Unit<'_>, sink: &mut Sink) {
    // Commands and agents are prompts: their whole text is read by the model, as a skill's is,
    // and so are AGENTS.md, CLAUDE.md and a skill's reference files.
    let agent_docs = unit.agent_docs().map(|(id, _)| id);
    let whole_files = unit
        .files
        .skill
        .into_iter()
        .chain(unit.files.contract)
        .chain(agent_docs)
        .chain(unit.prose_files());
    for file in whole_files {
        let text = unit.text(file);
        let name = unit.repo.file_name(file);
        for run in hidden_runs(text, 0, false) {
            report_hidden(sink, file, &run, name);
        }
    }
    // Whether each tools file can hold a hidden character, decided once per file: asked per
    // tool, the whole-file scan made a file of many tools quadratic.
    let mut may_hide: Vec<(FileId, bool)> = Vec::new();
    for (file, tool) in unit.tools() {
        let text = unit.text(file);
        let known = may_hide.iter().find(|(f, _)| *f == file).map(|(_, m)| *m);
        let may = known.unwrap_or_else(|| {
            // A description is a piece of its file: a file of plain ASCII without `\u` escapes
            // (nearly every tools file) has no hidden character in any description.
            let may =
                !(text.is_ascii() && crate::rules::util::find_substring(text, "\\u").is_none());
            may_hide.push((file, may));
            may
        });
        if !may {
            continue;
        }
        let mut nodes = Vec::new();
        crate::semantic::cues::descriptions(&tool.entry, &mut nodes);
        let own = tool.description().map(|n| n.span);
        for node in nodes {
            let Some(raw) = text.get(node.span.start..node.span.end) else {
                continue;
            };
            let runs = hidden_runs(raw, node.span.start, true);
            if runs.is_empty() {
                continue;
            }
            let place = if Some(node.span) == own {
                format!("the description of tool `{}`", tool.display_name())
            } else {
                format!("a description inside tool `{}`", tool.display_name())
            };
            for run in runs {
                report_hidden(sink, file, &run, &place);
            }
        }
    }
}
