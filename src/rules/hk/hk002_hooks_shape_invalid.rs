//! HK002 `hooks-shape-invalid`: A hook configuration is not shaped as its host reads it.

use crate::check::{Sink, Unit};
use crate::parse::{Node, Value};
use crate::rules::phrasing::display_path;
use crate::source::FileId;

/// The key each hook type must carry.
fn required_for(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "command" => &["command"],
        "prompt" | "agent" => &["prompt"],
        "http" => &["url"],
        "mcp_tool" => &["server", "tool"],
        _ => return None,
    })
}

struct Report<'s, 'k> {
    sink: &'s mut Sink,
    file: FileId,
    _k: std::marker::PhantomData<&'k ()>,
}

impl Report<'_, '_> {
    fn at(&mut self, node: &Node, pointer: &str, message: String, help: &str) {
        self.sink
            .report(
                self.file,
                node.span,
                format!("`{}` {message}", display_path(pointer)),
            )
            .label("not what the client reads here")
            .help(help.to_string());
    }
}

/// Checks one hook object (an entry of a matcher group's `hooks`, or of a Cursor event list).
fn check_hook(report: &mut Report<'_, '_>, hook: &Node, pointer: &str, flat: bool) {
    let Some(_) = hook.as_object() else {
        report.at(
            hook,
            pointer,
            format!("must be an object, found {}", hook.type_name()),
            "write each hook as an object such as `{\"type\": \"command\", \"command\": \"…\"}`",
        );
        return;
    };
    let kind = match hook.get("type") {
        Some(node) => match node.as_str() {
            Some(kind) if required_for(kind).is_some() => kind,
            _ => {
                report.at(
                    node,
                    &format!("{pointer}/type"),
                    "must be `command`, `prompt`, `agent`, `http` or `mcp_tool`".to_string(),
                    "use one of the hook types the client runs",
                );
                return;
            }
        },
        // Cursor's hooks are commands unless they say otherwise; Claude Code's name their type.
        None if flat => "command",
        None => {
            report
                .sink
                .report(
                    report.file,
                    hook.span,
                    format!("`{}` lacks required `type`", display_path(pointer)),
                )
                .label("no `type` in this hook")
                .help("add `\"type\": \"command\"` (or `prompt`, `agent`, `http`, `mcp_tool`)");
            return;
        }
    };
    for key in required_for(kind).unwrap_or_default() {
        match hook.get(key) {
            Some(value) if value.as_str().is_some_and(|s| !s.trim().is_empty()) => {}
            Some(value) => report.at(
                value,
                &format!("{pointer}/{key}"),
                format!("must be a non-empty string, found {}", value.type_name()),
                "write what the hook runs as one string",
            ),
            None => {
                report
                    .sink
                    .report(
                        report.file,
                        hook.span,
                        format!("`{}` lacks required `{key}`", display_path(pointer)),
                    )
                    .label(format!("a `{kind}` hook without `{key}`"))
                    .help(format!(
                        "add `{key}`; the client skips a `{kind}` hook without it"
                    ));
            }
        }
    }
    if let Some(timeout) = hook.get("timeout") {
        let positive = timeout.as_f64().is_some_and(|t| t > 0.0);
        if !positive && !matches!(timeout.value, Value::Null) {
            report.at(
                timeout,
                &format!("{pointer}/timeout"),
                "must be a positive number of seconds".to_string(),
                "give the timeout in seconds, e.g. `30`",
            );
        }
    }
}

pub(super) fn hooks_shape_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.hooks_files() {
        if let Ok(json) = &doc.parsed {
            if let Some(hooks) = json.root.get("hooks").filter(|h| !h.is_object()) {
                sink.report(
                    file,
                    hooks.span,
                    format!("`hooks` must be an object of events, found {}", hooks.type_name()),
                )
                .label("expected `{`")
                .help("map each event name to a list of hooks, e.g. `\"hooks\": {\"PostToolUse\": [ … ]}`");
            }
        }
    }
    for (file, root, hooks) in unit.hook_sets() {
        let Some(events) = root.pointer(&hooks.pointer).and_then(Node::as_object) else {
            continue;
        };
        let mut report = Report {
            sink: &mut *sink,
            file,
            _k: std::marker::PhantomData,
        };
        for event in events {
            let event_pointer = format!(
                "{}/{}",
                hooks.pointer,
                crate::parse::node::pointer_token(&event.key)
            );
            let Some(groups) = event.value.as_array() else {
                report.at(
                    &event.value,
                    &event_pointer,
                    format!("must be a list, found {}", event.value.type_name()),
                    "list the event's hooks in an array",
                );
                continue;
            };
            for (g, group) in groups.iter().enumerate() {
                let group_pointer = format!("{event_pointer}/{g}");
                if hooks.flat {
                    check_hook(&mut report, group, &group_pointer, true);
                    continue;
                }
                if !group.is_object() {
                    report.at(
                        group,
                        &group_pointer,
                        format!("must be an object, found {}", group.type_name()),
                        "write each entry as `{\"matcher\": \"…\", \"hooks\": [ … ]}`",
                    );
                    continue;
                }
                if let Some(matcher) = group.get("matcher").filter(|m| m.as_str().is_none()) {
                    report.at(
                        matcher,
                        &format!("{group_pointer}/matcher"),
                        format!("must be a string, found {}", matcher.type_name()),
                        "write the matcher as one string, e.g. `\"Edit|Write\"`",
                    );
                }
                match group.get("hooks") {
                    Some(inner) => match inner.as_array() {
                        Some(list) => {
                            for (h, hook) in list.iter().enumerate() {
                                check_hook(
                                    &mut report,
                                    hook,
                                    &format!("{group_pointer}/hooks/{h}"),
                                    false,
                                );
                            }
                        }
                        None => report.at(
                            inner,
                            &format!("{group_pointer}/hooks"),
                            format!("must be a list, found {}", inner.type_name()),
                            "list the hooks to run in an array",
                        ),
                    },
                    None => {
                        report
                            .sink
                            .report(
                                file,
                                group.span,
                                format!(
                                    "`{}` lacks required `hooks`",
                                    display_path(&group_pointer)
                                ),
                            )
                            .label("a matcher group without hooks")
                            .help("add `\"hooks\": [{\"type\": \"command\", \"command\": \"…\"}]`");
                    }
                }
            }
        }
    }
}
