//! DR010 `builtin-driver-has-io`: A builtin driver declares an install step, an auth surface or
//! network egress.

use crate::check::{Sink, Unit};
use crate::parse::node::Node;
use crate::semantic::bindings::drivers;
use crate::source::Span;

pub(super) fn builtin_driver_has_io(unit: &Unit<'_>, sink: &mut Sink) {
    for driver in drivers(unit) {
        if driver.kind() != Some("builtin") {
            continue;
        }
        let root = &driver.fm.root;
        let non_empty = |node: &Node| node.as_array().is_none_or(|items| !items.is_empty());
        let mut found: Vec<(Span, &str, &str)> = Vec::new();
        if let Some(member) = root.member("install").filter(|m| non_empty(&m.value)) {
            found.push((
                member.key_span,
                "install",
                "a builtin is part of the host; nothing is installed",
            ));
        }
        if let Some(member) = root.member("auth") {
            found.push((
                member.key_span,
                "auth",
                "a builtin runs with the host's own identity",
            ));
        }
        if let Some(member) = root
            .get("network")
            .and_then(|n| n.member("egress"))
            .filter(|m| non_empty(&m.value))
        {
            found.push((
                member.key_span,
                "network.egress",
                "a builtin makes no outbound connections",
            ));
        }
        for (span, key, why) in found {
            sink.report(
                driver.file,
                span,
                format!("builtin driver declares `{key}`"),
            )
            .label(why)
            .help(format!(
                "remove `{key}`, or declare the driver with the kind that matches how it really runs (`cli`, `http`, `mcp`, `sdk`)"
            ));
        }
    }
}
