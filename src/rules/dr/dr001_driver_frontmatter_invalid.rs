//! DR001 `driver-frontmatter-invalid`: A DRIVER.md or CLI.md has no readable YAML frontmatter
//! mapping.

use crate::check::{Sink, Unit};
use crate::index::Parsed;
use crate::rules::phrasing::{report_frontmatter_problem, GENERIC_MISSING_HELP};

pub(super) fn driver_frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for id in &unit.files.drivers {
        if let Parsed::Driver { doc, .. } = unit.parsed(*id) {
            report_frontmatter_problem(unit.repo, *id, doc, sink, GENERIC_MISSING_HELP);
        }
    }
}
