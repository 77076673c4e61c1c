//! PI007 `remote-code-in-instructions`: Instructions to run code downloaded from a suspect source.

use crate::check::{Sink, Unit};
use crate::semantic::cues::Cue;

pub(super) fn remote_code_in_instructions(unit: &Unit<'_>, sink: &mut Sink) {
    super::report_visible(
        unit,
        sink,
        Cue::RemoteCode,
        "the agent would run whatever that address serves",
        "ship the script with the skill, or name a pinned release with its checksum; ask the user to install tools themselves",
    );
}
