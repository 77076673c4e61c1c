//! HK009 `hook-matcher-missing`: A `PreToolUse`/`PostToolUse` hook has no matcher, so it runs on
//! every tool call.

use super::hk008_hook_package_on_every_call::matches_every_tool;
use crate::check::{Sink, Unit};

pub(super) fn hook_matcher_missing(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, _, hooks) in unit.hook_sets() {
        if hooks.flat {
            continue;
        }
        let mut seen = Vec::new();
        for command in &hooks.commands {
            if !matches!(command.event.as_str(), "PreToolUse" | "PostToolUse")
                || !matches_every_tool(command.matcher.as_deref())
            {
                continue;
            }
            let span = hooks
                .matchers
                .iter()
                .rev()
                .find(|m| {
                    m.event == command.event
                        && m.span.start < command.span.start
                        && command.matcher.as_deref() == Some(m.text.as_str())
                })
                .map_or(command.span, |m| m.span);
            if seen.contains(&span) {
                continue;
            }
            seen.push(span);
            let what = if command.matcher.is_some() {
                "a matcher that lets every tool through"
            } else {
                "no matcher"
            };
            sink.report(file, span, format!("{} hook has {what}", command.event))
                .label("runs on every tool call")
                .help("name the tools it is for (`\"matcher\": \"Edit|Write\"`); a hook that must see every call can stay as it is (this rule is off unless selected)");
        }
    }
}
