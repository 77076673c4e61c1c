//! HK003 `hook-event-unknown`: A hook is registered on an event its host does not have.

use super::events_for;
use crate::check::{Sink, Unit};
use crate::parse::Node;
use crate::rules::util::nearest;

pub(super) fn hook_event_unknown(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, root, hooks) in unit.hook_sets() {
        let Some(events) = root.pointer(&hooks.pointer).and_then(Node::as_object) else {
            continue;
        };
        let (known, host) = events_for(hooks.flat);
        for event in events {
            if known.contains(&event.key.as_str()) {
                continue;
            }
            let same_but_case = known.iter().find(|k| k.eq_ignore_ascii_case(&event.key));
            let suggestion = same_but_case
                .copied()
                .or_else(|| nearest(&event.key, known.iter().copied()));
            let diagnostic = sink
                .report(
                    file,
                    event.key_span,
                    format!("`{}` is not a {host} hook event", event.key),
                )
                .label("these hooks never run");
            match suggestion {
                Some(name) => diagnostic.help(format!(
                    "did you mean `{name}`? Event names are case-sensitive"
                )),
                None => diagnostic.help(format!(
                    "use one of the {host} hook events, e.g. `{}`",
                    known[0]
                )),
            };
        }
    }
}
