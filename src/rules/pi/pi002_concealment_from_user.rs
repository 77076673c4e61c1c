//! PI002 `concealment-from-user`: An instruction to hide something from the user.

use crate::check::{Sink, Unit};
use crate::semantic::cues::Cue;

pub(super) fn concealment_from_user(unit: &Unit<'_>, sink: &mut Sink) {
    super::report_visible(
        unit,
        sink,
        Cue::Concealment,
        "tells the model to keep something from the user",
        "delete the instruction; anything the tool or skill does should be something the user may see",
    );
}
