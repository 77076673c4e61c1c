//! PL: plugin manifests and marketplaces of Claude Code, Codex and Cursor (`plugin.json`,
//! `marketplace.json`): valid JSON, the host's schema (bundled, written from its public docs),
//! known keys, paths that exist inside the plugin, and marketplace entries that agree with the
//! plugins they name.
//!
//! One file per rule, `<code>_<rule name>.rs`; what several rules of the family share stays here.

mod pl001_plugin_manifest_invalid;
mod pl002_plugin_manifest_schema_violation;
mod pl003_plugin_manifest_unknown_key;
mod pl004_plugin_path_broken;
mod pl005_marketplace_name_mismatch;
mod pl006_marketplace_plugin_duplicate;
mod pl007_marketplace_name_reserved;
#[cfg(test)]
mod tests;

use crate::check::Unit;
use crate::check::{code, Check, RuleImpl};
use crate::model::plugin::{Host, ManifestDoc};
use crate::parse::Node;
use crate::source::FileId;
use pl001_plugin_manifest_invalid::plugin_manifest_invalid;
use pl002_plugin_manifest_schema_violation::plugin_manifest_schema_violation;
use pl003_plugin_manifest_unknown_key::plugin_manifest_unknown_key;
use pl004_plugin_path_broken::plugin_path_broken;
use pl005_marketplace_name_mismatch::marketplace_name_mismatch;
use pl006_marketplace_plugin_duplicate::marketplace_plugin_duplicate;
use pl007_marketplace_name_reserved::marketplace_name_reserved;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::PL001, check: Check::Unit(plugin_manifest_invalid) },
    RuleImpl { code: code::PL002, check: Check::Unit(plugin_manifest_schema_violation) },
    RuleImpl { code: code::PL003, check: Check::Unit(plugin_manifest_unknown_key) },
    RuleImpl { code: code::PL004, check: Check::Unit(plugin_path_broken) },
    RuleImpl { code: code::PL005, check: Check::Unit(marketplace_name_mismatch) },
    RuleImpl { code: code::PL006, check: Check::Unit(marketplace_plugin_duplicate) },
    RuleImpl { code: code::PL007, check: Check::Unit(marketplace_name_reserved) },
];

/// The unit's manifests whose JSON root is an object.
fn parsed_manifests<'a>(unit: &Unit<'a>) -> Vec<(FileId, &'a ManifestDoc, &'a Node)> {
    unit.manifests()
        .filter_map(|(id, doc)| {
            let root = doc.root_node().filter(|r| r.is_object())?;
            Some((id, doc, root))
        })
        .collect()
}

/// The bundled schema a manifest is checked against.
fn schema_name(doc: &ManifestDoc) -> &'static str {
    match (doc.host, doc.marketplace) {
        (Host::ClaudeCode, false) => "claude-plugin",
        (Host::ClaudeCode, true) => "claude-marketplace",
        (Host::Codex, false) => "codex-plugin",
        (Host::Codex, true) => "codex-marketplace",
        (Host::Cursor, false) => "cursor-plugin",
        (Host::Cursor, true) => "cursor-marketplace",
    }
}

/// The bundled schema's text as JSON, parsed once per process, for the keys it defines.
fn schema_document(name: &str) -> Option<&'static serde_json::Value> {
    static PARSED: std::sync::OnceLock<Vec<(&'static str, Option<serde_json::Value>)>> =
        std::sync::OnceLock::new();
    PARSED
        .get_or_init(|| {
            crate::schema::EMBEDDED
                .iter()
                .map(|(n, text)| (*n, serde_json::from_str(text).ok()))
                .collect()
        })
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, v)| v.as_ref())
}
