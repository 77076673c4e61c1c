//! TR005 `confirmation-rule-missing`: A confirmation-gated tool has no confirmation rule in the
//! Tool Use Rules section.

use super::{
    confirmation_item, documentable, named_tools, report_without_section, RuleFinding, RulesSection,
};
use crate::check::{code, Sink, Unit};
use crate::diagnostic::Fix;
use crate::model::tools::{SideEffect, Tool};
use crate::rules::util::contains_ignore_case;

pub(super) fn confirmation_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        report_without_section(unit, sink, &CONFIRMATION_FINDING);
        return;
    };
    for (file, tool, name) in named_tools(unit) {
        if !(CONFIRMATION_FINDING.applies)(tool)
            || rules.any_item(name, |item| contains_ignore_case(&item.text, "confirm"))
        {
            continue;
        }
        // A tool no item mentions at all is TR003's finding, when TR003 reports it (its fix adds
        // the confirmation rule too); else it is reported here, not lost.
        let mentioned = rules.any_item(name, |_| true);
        if !mentioned && unit.reports(code::TR003, file) {
            continue;
        }
        let section_label = if mentioned {
            format!("no item of this section tells the agent to confirm before `{name}`")
        } else {
            format!("no item of this section names `{name}`")
        };
        let diagnostic = sink
            .report(file, tool.span(), (CONFIRMATION_FINDING.message)(name))
            .label(CONFIRMATION_FINDING.label)
            .secondary(rules.file, rules.heading_span(), section_label)
            .help(format!(
                "add an item such as \"`{name}`: call it only after the user explicitly confirms \
                 this exact operation, and pass `user_confirmed: true`\""
            ));
        if let Some((_, flag)) = tool.confirmation {
            diagnostic.secondary(file, flag, "confirmation required here");
        }
        // A gated read tool should lose its gate (TJ006), not gain a rule.
        let edit = (tool.side_effect != SideEffect::Read && documentable(name))
            .then(|| rules.insert_items(&[confirmation_item(tool, name)], rules.last_mention(name)))
            .flatten();
        if let Some(edit) = edit {
            diagnostic.fix(Fix::safe(
                format!("add a confirmation rule for `{name}`"),
                vec![edit],
            ));
        }
    }
}

const CONFIRMATION_FINDING: RuleFinding = RuleFinding {
    applies: Tool::is_confirmation_gated,
    message: |name| {
        format!("confirmation-gated tool `{name}` has no confirmation rule in SKILL.md")
    },
    label: "gated, but no item says to confirm first",
    rule: "the confirmation rule",
};
