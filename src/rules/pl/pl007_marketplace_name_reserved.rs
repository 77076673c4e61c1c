//! PL007 `marketplace-name-reserved`: A Claude Code marketplace takes a name reserved for
//! Anthropic's official marketplaces.

use crate::check::{Sink, Unit};
use crate::model::plugin::Host;

/// The marketplace names Claude Code reserves for Anthropic's own marketplaces. Source: Claude
/// Code documentation, "Create and distribute a plugin marketplace", marketplace schema, reserved
/// names, as read on 2026-12-07.
pub(crate) const RESERVED_MARKETPLACE_NAMES: [&str; 7] = [
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "life-sciences",
];

pub(super) fn marketplace_name_reserved(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit
        .manifests()
        .filter(|(_, d)| d.marketplace && d.host == Host::ClaudeCode)
    {
        let Some((name, span)) = doc.name() else {
            continue;
        };
        if !RESERVED_MARKETPLACE_NAMES.contains(&name) {
            continue;
        }
        // Anthropic's own marketplaces carry these names; their owner is Anthropic.
        let owner_email = doc
            .root_node()
            .and_then(|r| r.get("owner"))
            .and_then(|o| o.get("email"))
            .and_then(|e| e.as_str())
            .unwrap_or_default();
        if owner_email.to_ascii_lowercase().ends_with("@anthropic.com") {
            continue;
        }
        sink.report(
            file,
            span,
            format!("marketplace name `{name}` is reserved for Anthropic's official marketplaces"),
        )
        .label("Claude Code refuses to add a marketplace with this name")
        .help("choose a name of your own (your organisation's or the collection's); users type it after `@` when they install a plugin");
    }
}
