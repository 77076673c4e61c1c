//! AG006 `agent-key-misspelt`: An agent's frontmatter key is a near miss of a key its host reads,
//! so the host ignores the setting (a misspelt tool list leaves the agent every tool).

use crate::check::{Sink, Unit};
use crate::parse::Value;

/// The keys Claude Code reads in a subagent's frontmatter. Source: Claude Code documentation,
/// "Create custom subagents", supported frontmatter fields (code.claude.com/docs/en/sub-agents),
/// as read on 2026-04-01. A key not listed and not a near miss below is left alone: other hosts
/// and later versions add keys.
pub(crate) const AGENT_KEYS: [&str; 16] = [
    "name",
    "description",
    "tools",
    "disallowedTools",
    "model",
    "permissionMode",
    "maxTurns",
    "skills",
    "mcpServers",
    "hooks",
    "memory",
    "background",
    "isolation",
    "color",
    "initialPrompt",
    "effort",
];

/// Spellings seen for a documented key (other hosts' names, snake and kebab case, the skill's
/// key), with what ignoring them does. Same source and date as [`AGENT_KEYS`].
#[rustfmt::skip]
const NEAR_MISSES: &[(&str, &str, &str)] = &[
    ("allowedTools", "tools", "the agent inherits every tool"),
    ("allowed_tools", "tools", "the agent inherits every tool"),
    ("allowed-tools", "tools", "the agent inherits every tool (`allowed-tools` is a skill's and a command's key)"),
    ("allowTools", "tools", "the agent inherits every tool"),
    ("tool", "tools", "the agent inherits every tool"),
    ("disallowed_tools", "disallowedTools", "no tool is taken away"),
    ("disallowed-tools", "disallowedTools", "no tool is taken away"),
    ("deniedTools", "disallowedTools", "no tool is taken away"),
    ("max_turns", "maxTurns", "the agent runs without a turn limit"),
    ("max-turns", "maxTurns", "the agent runs without a turn limit"),
    ("permission_mode", "permissionMode", "the agent runs in the session's permission mode"),
    ("permission-mode", "permissionMode", "the agent runs in the session's permission mode"),
    ("mcp_servers", "mcpServers", "the agent gets none of these MCP servers"),
    ("initial_prompt", "initialPrompt", "the agent starts without this prompt"),
    ("initial-prompt", "initialPrompt", "the agent starts without this prompt"),
];

/// The documented key `key` misses, with the consequence: a listed near miss, or a documented
/// key in another case (`Tools`, `MaxTurns`), which the host reads case-sensitively.
fn near_miss(key: &str) -> Option<(&'static str, &'static str)> {
    if AGENT_KEYS.contains(&key) {
        return None;
    }
    if let Some((_, meant, consequence)) = NEAR_MISSES.iter().find(|(k, _, _)| *k == key) {
        return Some((meant, consequence));
    }
    let meant = AGENT_KEYS.iter().find(|k| k.eq_ignore_ascii_case(key))?;
    let consequence = NEAR_MISSES
        .iter()
        .find(|(_, m, _)| m == meant)
        .map_or("the setting has no effect", |(_, _, c)| c);
    Some((meant, consequence))
}

pub(super) fn agent_key_misspelt(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.agent_docs().filter(|(_, d)| !d.command) {
        // A GitHub Copilot custom agent (`*.agent.md`) has keys of its own (`mcp-servers`).
        if unit.repo.file_name(file).ends_with(".agent.md") {
            continue;
        }
        let Some(frontmatter) = doc.doc.frontmatter() else {
            continue;
        };
        for member in frontmatter.root.as_object().unwrap_or_default() {
            let Some((meant, consequence)) = near_miss(&member.key) else {
                continue;
            };
            let has_meant = frontmatter.root.get(meant).is_some();
            let diagnostic = sink
                .report(
                    file,
                    member.key_span,
                    format!(
                        "agent key `{}` is not read: did you mean `{meant}`?",
                        member.key
                    ),
                )
                .label(if has_meant {
                    format!("ignored: `{meant}` is set as well")
                } else {
                    format!("ignored: {consequence}")
                });
            let value = if matches!(member.value.value, Value::Null) {
                ""
            } else {
                " with the same value"
            };
            diagnostic.help(format!(
                "rename the key to `{meant}`{value}; agent hosts read frontmatter keys exactly as documented"
            ));
        }
    }
}
