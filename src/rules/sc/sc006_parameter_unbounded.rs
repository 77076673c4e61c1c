//! SC006 `parameter-unbounded`: A numeric or string parameter accepts any value.

use super::{declared_types, parameters, resolve};
use crate::check::{Sink, Unit};
use crate::model::tools::Dialect;

pub(super) fn parameter_unbounded(unit: &Unit<'_>, sink: &mut Sink) {
    for subject in unit.schema_subjects() {
        // Docker's catalogue writes an argument as a name, a type and a description: it has no
        // place for a bound.
        if subject.dialect == Some(Dialect::Docker) {
            continue;
        }
        let sites = unit.schema_sites(subject.schema);
        for (site, key_span) in parameters(&sites) {
            let Some(node) = resolve(subject.schema, site.node) else {
                continue;
            };
            if node.get("enum").is_some() || node.get("const").is_some() {
                continue;
            }
            let types = declared_types(node);
            let what = || subject.describe(site, &sites);
            let numeric = types.iter().find(|t| matches!(**t, "integer" | "number"));
            if let Some(kind) = numeric {
                let low = ["minimum", "exclusiveMinimum"]
                    .iter()
                    .any(|k| node.get(k).is_some());
                let high = ["maximum", "exclusiveMaximum"]
                    .iter()
                    .any(|k| node.get(k).is_some());
                let missing = match (low, high) {
                    (true, true) => None,
                    (true, false) => Some("no `maximum`"),
                    (false, true) => Some("no `minimum`"),
                    (false, false) => Some("neither `minimum` nor `maximum`"),
                };
                if let Some(missing) = missing {
                    sink.report(
                        subject.file,
                        key_span,
                        format!("{} is an unbounded {kind}: {missing}", what()),
                    )
                    .label("unbounded number")
                    .help("give the range the tool really accepts with `minimum` and `maximum` (or an `enum`), so an out-of-range value fails validation");
                }
                continue;
            }
            let free = types.contains(&"string")
                && !["pattern", "format", "maxLength"]
                    .iter()
                    .any(|k| node.get(k).is_some());
            if free {
                sink.report(
                    subject.file,
                    key_span,
                    format!("{} is a free-form string", what()),
                )
                .label("no `enum`, `pattern`, `format` or `maxLength`")
                .help("constrain it with an `enum`, a `pattern`, a `format` (date-time, uri, …) or at least a `maxLength`");
            }
        }
    }
}
