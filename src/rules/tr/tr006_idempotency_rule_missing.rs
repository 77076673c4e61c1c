//! TR006 `idempotency-rule-missing`: An idempotent tool has no idempotency rule in the Tool Use
//! Rules section.

use super::{
    documentable, idempotency_item, named_tools, report_without_section, RuleFinding, RulesSection,
};
use crate::check::{code, Sink, Unit};
use crate::diagnostic::Fix;
use crate::model::tools::Tool;
use crate::rules::util::contains_ignore_case;

pub(super) fn idempotency_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        report_without_section(unit, sink, &IDEMPOTENCY_FINDING);
        return;
    };
    for (file, tool, name) in named_tools(unit) {
        if !(IDEMPOTENCY_FINDING.applies)(tool)
            || rules.any_item(name, |item| contains_ignore_case(&item.text, "idempoten"))
        {
            continue;
        }
        // As for TR005: an unmentioned tool is TR003's finding only when TR003 reports it.
        let mentioned = rules.any_item(name, |_| true);
        if !mentioned && unit.reports(code::TR003, file) {
            continue;
        }
        let section_label = if mentioned {
            format!("no item of this section tells the agent how to retry `{name}`")
        } else {
            format!("no item of this section names `{name}`")
        };
        let diagnostic = sink
            .report(file, tool.span(), (IDEMPOTENCY_FINDING.message)(name))
            .label(IDEMPOTENCY_FINDING.label)
            .secondary(rules.file, rules.heading_span(), section_label)
            .help(format!(
                "add an item such as \"`{name}` is idempotent: reuse the same `idempotency_key` \
                 when retrying a failed call\""
            ));
        if let Some((_, flag)) = tool.idempotent {
            diagnostic.secondary(file, flag, "declared idempotent here");
        }
        let edit = documentable(name)
            .then(|| rules.insert_items(&[idempotency_item(tool, name)], rules.last_mention(name)))
            .flatten();
        if let Some(edit) = edit {
            diagnostic.fix(Fix::safe(
                format!("add an idempotency rule for `{name}`"),
                vec![edit],
            ));
        }
    }
}

const IDEMPOTENCY_FINDING: RuleFinding = RuleFinding {
    applies: Tool::is_idempotent,
    message: |name| format!("idempotent tool `{name}` has no idempotency rule in SKILL.md"),
    label: "idempotent, but no item says how to retry it",
    rule: "the idempotency rule",
};
