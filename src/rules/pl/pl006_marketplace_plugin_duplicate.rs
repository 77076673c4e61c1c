//! PL006 `marketplace-plugin-duplicate`: Two entries of one marketplace share a name.

use crate::check::{Sink, Unit};
use crate::parse::Node;
use std::collections::HashMap;

pub(super) fn marketplace_plugin_duplicate(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.manifests().filter(|(_, d)| d.marketplace) {
        let entries = doc
            .root_node()
            .and_then(|r| r.get("plugins"))
            .and_then(Node::as_array)
            .unwrap_or_default();
        let mut first: HashMap<&str, crate::source::Span> = HashMap::new();
        for entry in entries {
            let Some(name) = entry.get("name") else {
                continue;
            };
            let Some(text) = name.as_str() else {
                continue;
            };
            match first.get(text) {
                Some(earlier) => {
                    sink.report(
                        file,
                        name.span,
                        format!("the marketplace lists plugin `{text}` twice"),
                    )
                    .label("listed again here")
                    .secondary(file, *earlier, "first listed here")
                    .help("keep one entry per plugin; users install plugins by name, so only one of these can be installed");
                }
                None => {
                    first.insert(text, name.span);
                }
            }
        }
    }
}
