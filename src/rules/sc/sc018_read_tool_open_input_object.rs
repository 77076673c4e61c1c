//! SC018 `read-tool-open-input-object`: An object in a read-only tool's input schema accepts
//! properties it does not declare (SC003's check, pedantic for tools that change nothing).

use super::{is_read_tool, report_open_objects};
use crate::check::{Sink, Unit};

pub(super) fn read_tool_open_input_object(unit: &Unit<'_>, sink: &mut Sink) {
    report_open_objects(unit, sink, |subject| is_read_tool(unit, subject));
}
