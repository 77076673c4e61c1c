//! PL001 `plugin-manifest-invalid`: A plugin manifest or marketplace is not valid JSON.

use crate::check::{Sink, Unit};
use crate::rules::phrasing::report_json_problems;

pub(super) fn plugin_manifest_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.manifests() {
        report_json_problems(sink, file, &doc.parsed, &doc.what());
    }
}
