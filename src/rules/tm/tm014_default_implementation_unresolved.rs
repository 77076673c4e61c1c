//! TM014 `default-implementation-unresolved`: default_implementation does not name a driver in
//! the repository that implements this tool.

use super::contract_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::index::Repo;
use crate::parse::Node;
use crate::rules::util;
use crate::source::{join_path, normalize_path, parent_dir, FileId};

/// Whether an `implements[].tool` reference in the driver at `driver_path` names the TOOL.md at
/// `tool_path` with id `tool_id`: by id, or by path (workspace-relative or relative to the
/// driver), to the file or its folder.
pub(super) fn reference_names_tool(
    reference: &str,
    driver_path: &str,
    tool_path: &str,
    tool_id: &str,
) -> bool {
    if reference == tool_id {
        return true;
    }
    let tool_dir = parent_dir(tool_path);
    let from_driver = format!("{}/{reference}", parent_dir(driver_path));
    [join_path("", reference), from_driver]
        .iter()
        .filter_map(|candidate| normalize_path(candidate))
        .any(|candidate| candidate == tool_path || candidate == tool_dir)
}

fn driver_implements(repo: &Repo, driver: FileId, tool_file: FileId, tool_id: &str) -> bool {
    let Some(driver_view) = repo.driver_view(driver) else {
        return false;
    };
    let driver_path = &repo.file(driver).rel_path;
    let tool_path = &repo.file(tool_file).rel_path;
    driver_view
        .implements()
        .iter()
        .filter_map(|entry| entry.get("tool").and_then(Node::as_str))
        .any(|reference| reference_names_tool(reference, driver_path, tool_path, tool_id))
}

pub(super) fn default_implementation_unresolved(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let Some(value) = fm.root.get("default_implementation") else {
        return;
    };
    let Some(driver_id) = value.as_str().filter(|t| !t.is_empty()) else {
        return;
    };
    let repo = unit.repo;
    let tool_id = fm.root.get("id").and_then(Node::as_str).unwrap_or_default();
    let Some(drivers) = repo.contracts.drivers_by_id.get(driver_id) else {
        let diagnostic = sink.report(
            file,
            value.span,
            format!("`default_implementation` `{driver_id}` names no driver in the repository"),
        );
        diagnostic.label("no DRIVER.md or CLI.md has this id");
        let candidates = repo.contracts.drivers_by_id.keys().map(String::as_str);
        match util::nearest(driver_id, candidates) {
            Some(near) => diagnostic.help(format!("did you mean `{near}`? `default_implementation` takes a driver's `id`")),
            None => diagnostic.help("add the DRIVER.md that implements this tool, or set `default_implementation` to an existing driver's `id`"),
        };
        return;
    };
    if drivers
        .iter()
        .any(|d| driver_implements(repo, *d, file, tool_id))
    {
        return;
    }
    let diagnostic = sink.report(
        file,
        value.span,
        format!("driver `{driver_id}` does not implement `{tool_id}`"),
    );
    diagnostic.label("default driver for this tool");
    if let Some(driver) = drivers.first() {
        let span = repo
            .driver_view(*driver)
            .map(|view| {
                let fm = view.fm;
                fm.root.member("implements").map_or_else(
                    || fm.root.get("id").map_or(fm.opening, |n| n.span),
                    |m| m.key_span,
                )
            })
            .unwrap_or_default();
        diagnostic.secondary(
            *driver,
            span,
            format!("`{driver_id}` does not list this tool in `implements`"),
        );
    }
    diagnostic.help(format!(
        "list `{tool_id}` in the driver's `implements`, or choose a driver that implements this tool"
    ));
}
