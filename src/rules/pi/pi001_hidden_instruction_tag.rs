//! PI001 `hidden-instruction-tag`: A pseudo-system or priority tag in text the agent reads.

use crate::check::{Sink, Unit};
use crate::semantic::cues::Cue;

pub(super) fn hidden_instruction_tag(unit: &Unit<'_>, sink: &mut Sink) {
    super::report_visible(
        unit,
        sink,
        Cue::HiddenTag,
        "the model gives text in such tags the weight of its own instructions",
        "remove the tag; state a real constraint in plain words (“rate-limited to 10 calls a minute”)",
    );
}
