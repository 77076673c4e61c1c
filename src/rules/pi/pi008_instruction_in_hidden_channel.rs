//! PI008 `instruction-in-hidden-channel`: An instruction to the model where the user cannot see
//! it: an HTML comment, a parameter description, or invisible Unicode.

use crate::check::{Sink, Unit};
use crate::semantic::cues::Channel;

pub(super) fn instruction_in_hidden_channel(unit: &Unit<'_>, sink: &mut Sink) {
    for payload in unit
        .payloads()
        .iter()
        .filter(|p| p.channel != Channel::Visible)
    {
        let label = match payload.channel {
            Channel::HtmlComment => "invisible once the Markdown is rendered; the model reads it",
            Channel::ParameterDescription => {
                "read by the model with every call; user interfaces rarely show it"
            }
            _ => "invisible to a reviewer; the model reads it",
        };
        sink.report(payload.file, payload.span, super::message(payload))
            .label(label)
            .help("delete it: text aimed at the model must be text the user can read where they review the skill or tool");
    }
}
