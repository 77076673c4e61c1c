//! AG007 `agent-model-invalid`: A subagent's or command's `model` is neither a model alias nor a
//! model id its host accepts.

use crate::check::{Sink, Unit};
use crate::parse::Value;

/// The aliases Claude Code resolves in a subagent's or command's `model`. Source: Claude Code
/// documentation, "Create custom subagents" (the `model` field: an alias, a full model id or
/// `inherit`) and "Model configuration" (model aliases), as read on 2026-12-07. Compared
/// ignoring case; each may carry the `[1m]` long-context suffix.
pub(crate) const MODEL_ALIASES: [&str; 8] = [
    "inherit", "default", "sonnet", "opus", "haiku", "opusplan", "best", "fable",
];

/// Whether `value` names a model the host accepts: an alias, a full Claude model id
/// (`claude-sonnet-4-5`, `claude-opus-4-1-20250805`, Vertex's `claude-3-5-sonnet@20240620`),
/// a Bedrock id or inference profile (`anthropic.claude-…`, `us.anthropic.claude-…`) or ARN.
fn accepted(value: &str) -> bool {
    let value = value.trim();
    let bare = value.strip_suffix("[1m]").unwrap_or(value);
    if MODEL_ALIASES.iter().any(|a| a.eq_ignore_ascii_case(bare)) {
        return true;
    }
    if bare.starts_with("arn:aws") {
        return true;
    }
    let id = bare
        .split_once("anthropic.")
        .filter(|(region, _)| region.is_empty() || region.ends_with('.'))
        .map_or(bare, |(_, rest)| rest);
    id.starts_with("claude-")
        && id.bytes().any(|b| b.is_ascii_digit())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'@' | b':' | b'_'))
}

/// The alias a rejected value most likely means (`claude-sonnet` → `sonnet`, `Opus 4` → `opus`).
fn meant(value: &str) -> Option<&'static str> {
    let lower = value.to_ascii_lowercase();
    ["sonnet", "opus", "haiku"]
        .into_iter()
        .find(|family| lower.contains(family))
}

pub(super) fn agent_model_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.agent_docs() {
        // A GitHub Copilot custom agent names models as its picker shows them ("Claude Sonnet 4").
        if unit.repo.file_name(file).ends_with(".agent.md") {
            continue;
        }
        let Some(node) = doc.field("model") else {
            continue;
        };
        let written = match &node.value {
            Value::Null => continue,
            Value::String(s) if s.trim().is_empty() => continue,
            Value::String(s) if accepted(s) => continue,
            Value::String(s) => s.trim().to_string(),
            _ => unit
                .text(file)
                .get(node.span.start..node.span.end)
                .unwrap_or_default()
                .to_string(),
        };
        let what = doc.what();
        let diagnostic = sink
            .report(
                file,
                node.span,
                format!("{what} model `{written}` is not a model Claude Code accepts"),
            )
            .label("not an alias or a Claude model id: the call to the model fails");
        let fix = match meant(&written) {
            Some(alias) => format!("write `{alias}` (the newest model of the family) or a full model id such as `claude-{alias}-4-5`"),
            None => "write an alias (`sonnet`, `opus`, `haiku`, `inherit`) or a full Claude model id such as `claude-sonnet-4-5`".to_string(),
        };
        diagnostic.help(format!(
            "{fix}; leave `model` out to use the configured subagent model"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::accepted;

    #[test]
    fn aliases_ids_and_bedrock_names_are_accepted_other_names_are_not() {
        for ok in [
            "sonnet",
            "Opus",
            "inherit",
            "sonnet[1m]",
            "claude-sonnet-4-5",
            "claude-opus-4-1-20250805",
            "claude-3-5-sonnet@20240620",
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "anthropic.claude-3-haiku-20240307-v1:0",
            "arn:aws:bedrock:us-east-1:123:inference-profile/x",
        ] {
            assert!(accepted(ok), "{ok}");
        }
        for bad in [
            "gpt4",
            "gpt-4o",
            "claude-sonnet",
            "sonnet-4",
            "Claude Sonnet 4",
            "o3",
            "claude",
        ] {
            assert!(!accepted(bad), "{bad}");
        }
    }
}
