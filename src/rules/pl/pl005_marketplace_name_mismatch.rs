//! PL005 `marketplace-name-mismatch`: A marketplace entry's name differs from the name in the
//! manifest of the plugin it points to.

use crate::check::{Sink, Unit};
use crate::index::Parsed;
use crate::parse::Node;

pub(super) fn marketplace_name_mismatch(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.manifests().filter(|(_, d)| d.marketplace) {
        let Some(entries) = doc
            .root_node()
            .and_then(|r| r.get("plugins"))
            .and_then(Node::as_array)
        else {
            continue;
        };
        for (index, root) in &doc.sources {
            let Some(entry) = entries.get(*index) else {
                continue;
            };
            let Some(name) = entry.get("name").filter(|n| n.as_str().is_some()) else {
                continue;
            };
            let manifest =
                crate::source::join_path(root, &format!("{}/plugin.json", doc.host.manifest_dir()));
            let Some(id) = unit.repo.file_by_path(&manifest) else {
                continue;
            };
            let Parsed::Manifest(plugin) = unit.repo.parsed(id) else {
                continue;
            };
            let (Some(listed), Some((actual, actual_span))) = (name.as_str(), plugin.name()) else {
                continue;
            };
            if listed != actual {
                sink.report(
                    file,
                    name.span,
                    format!("marketplace entry `{listed}` points to plugin `{actual}`"),
                )
                .label("the name users install")
                .secondary(id, actual_span, "the plugin's own name")
                .help(format!(
                    "use one name in both files; {} installs the entry's name but namespaces the plugin's commands and skills by its manifest name",
                    doc.host.display()
                ));
            }
        }
    }
}
