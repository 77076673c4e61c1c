//! PI: text aimed at the model — tool poisoning and prompt injection in everything an agent reads
//! as instructions (SKILL.md, TOOL.md, commands, agents, `AGENTS.md`/`CLAUDE.md`, a skill's
//! reference files, every description of every tool).
//!
//! The cues are found once per unit (`semantic::cues`); each rule reports one kind of cue in
//! plain text, and PI008 reports every kind on a hidden channel (an HTML comment, a parameter
//! description, invisible Unicode). One file per rule; what they share stays here.

mod pi001_hidden_instruction_tag;
mod pi002_concealment_from_user;
mod pi003_instruction_override;
mod pi004_exfiltration_cue;
mod pi005_cross_tool_shadowing;
mod pi006_coercive_tool_steering;
mod pi007_remote_code_in_instructions;
mod pi008_instruction_in_hidden_channel;
#[cfg(test)]
mod tests;

use crate::check::{code, Check, RuleImpl, Sink, Unit};
use crate::semantic::cues::{Channel, Cue, Payload};
use pi001_hidden_instruction_tag::hidden_instruction_tag;
use pi002_concealment_from_user::concealment_from_user;
use pi003_instruction_override::instruction_override;
use pi004_exfiltration_cue::exfiltration_cue;
use pi005_cross_tool_shadowing::cross_tool_shadowing;
use pi006_coercive_tool_steering::coercive_tool_steering;
use pi007_remote_code_in_instructions::remote_code_in_instructions;
use pi008_instruction_in_hidden_channel::instruction_in_hidden_channel;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::PI001, check: Check::Unit(hidden_instruction_tag) },
    RuleImpl { code: code::PI002, check: Check::Unit(concealment_from_user) },
    RuleImpl { code: code::PI003, check: Check::Unit(instruction_override) },
    RuleImpl { code: code::PI004, check: Check::Unit(exfiltration_cue) },
    RuleImpl { code: code::PI005, check: Check::Unit(cross_tool_shadowing) },
    RuleImpl { code: code::PI006, check: Check::Unit(coercive_tool_steering) },
    RuleImpl { code: code::PI007, check: Check::Unit(remote_code_in_instructions) },
    RuleImpl { code: code::PI008, check: Check::Unit(instruction_in_hidden_channel) },
];

/// Reports every plain-text cue of kind `cue`: "{what} in {place}: `{evidence}`".
fn report_visible(unit: &Unit<'_>, sink: &mut Sink, cue: Cue, label: &str, help: &str) {
    for payload in unit
        .payloads()
        .iter()
        .filter(|p| p.cue == cue && p.channel == Channel::Visible)
    {
        sink.report(payload.file, payload.span, message(payload))
            .label(label)
            .help(help);
    }
}

/// The message of a cue: what it is, where, and the words that make it one.
fn message(payload: &Payload<'_>) -> String {
    let what = payload.cue.what();
    let place = &payload.place;
    let evidence = &payload.evidence;
    match payload.channel {
        Channel::Visible | Channel::ParameterDescription => {
            format!("{what} in {place}: `{evidence}`")
        }
        Channel::HtmlComment => format!("{what} in an HTML comment of {place}: `{evidence}`"),
        Channel::InvisibleUnicode => {
            format!("{what} hidden by invisible Unicode in {place}: `{evidence}`")
        }
    }
}
