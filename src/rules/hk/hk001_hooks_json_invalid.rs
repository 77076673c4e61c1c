//! HK001 `hooks-json-invalid`: A hook configuration is not valid JSON.

use crate::check::{Sink, Unit};
use crate::rules::phrasing::report_json_problems;

pub(super) fn hooks_json_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.hooks_files() {
        report_json_problems(sink, file, &doc.parsed, "the hook configuration");
    }
}
