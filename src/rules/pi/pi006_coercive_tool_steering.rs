//! PI006 `coercive-tool-steering`: All-caps commands or claims aimed at the model's choice of tool.

use crate::check::{Sink, Unit};
use crate::semantic::cues::Cue;

pub(super) fn coercive_tool_steering(unit: &Unit<'_>, sink: &mut Sink) {
    super::report_visible(
        unit,
        sink,
        Cue::Steering,
        "pressures the model to pick this tool over others",
        "describe what the tool does and when it fits, in sentence case; let the model choose",
    );
}
