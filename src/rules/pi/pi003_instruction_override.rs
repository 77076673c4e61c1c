//! PI003 `instruction-override`: An instruction to drop the instructions the model already has.

use crate::check::{Sink, Unit};
use crate::semantic::cues::Cue;

pub(super) fn instruction_override(unit: &Unit<'_>, sink: &mut Sink) {
    super::report_visible(
        unit,
        sink,
        Cue::Override,
        "tells the model to set aside its instructions or training",
        "delete it; a skill adds instructions, it never replaces the user's or the system's",
    );
}
