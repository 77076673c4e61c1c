//! PI004 `exfiltration-cue`: An instruction to read sensitive data and send it somewhere.

use crate::check::{Sink, Unit};
use crate::semantic::cues::Cue;

pub(super) fn exfiltration_cue(unit: &Unit<'_>, sink: &mut Sink) {
    super::report_visible(
        unit,
        sink,
        Cue::Exfiltration,
        "sends credentials or private files where the user did not ask them to go",
        "remove it; a tool that needs a credential should declare it (an input the user fills, or the MCP configuration's environment), never ask the model to fetch one",
    );
}
