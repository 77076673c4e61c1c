//! PI005 `cross-tool-shadowing`: A tool description giving rules for other tools.

use crate::check::{Sink, Unit};
use crate::semantic::cues::Cue;

pub(super) fn cross_tool_shadowing(unit: &Unit<'_>, sink: &mut Sink) {
    super::report_visible(
        unit,
        sink,
        Cue::Shadowing,
        "changes how the model uses tools this one does not own",
        "keep a description about its own tool; rules for how tools work together belong in a skill's instructions the user can read",
    );
}
