//! How the tools a run read drifted from `skilllint.lock`: a tool whose pinned facts changed
//! (LK001), a tool the lock does not pin (LK002), a pinned tool that is gone (LK003), and a lock
//! that cannot be read (LK004). Reported through the rules' sinks, with the run's selection,
//! per-file ignores and severity overrides, and merged into the run's findings in their order.

use super::{entries, read, Locked, ReadEntry, LOCK_FILE_NAME};
use crate::catalog::{catalog, code};
use crate::diagnostic::Diagnostic;
use crate::engine::{Files, LintError, LintOutcome};
use crate::english::plural;
use crate::inventory::{lint_with_inventory, Inventory, Row};
use crate::model::FileKind;
use crate::settings::LintOptions;
use crate::sink::Sink;
use crate::source::FileId;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A lint of `options.paths`, and when the lint root holds a `skilllint.lock` that the run read,
/// the drift of its tools from it. Without a lock this is [`crate::lint`].
pub fn lint(options: &LintOptions) -> Result<LintOutcome, LintError> {
    let root = options.root();
    if std::fs::symlink_metadata(root.join(LOCK_FILE_NAME)).is_err() {
        return crate::lint(options);
    }
    let (mut outcome, inventory) = lint_with_inventory(options, Files::Walk)?;
    let found = drift(options, &outcome, &inventory);
    if !found.is_empty() {
        outcome.diagnostics.extend(found);
        outcome
            .diagnostics
            .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }
    Ok(outcome)
}

/// The LK findings of a run whose files include the lock at its root; none when they do not.
pub fn drift(
    options: &LintOptions,
    outcome: &LintOutcome,
    inventory: &Inventory,
) -> Vec<Diagnostic> {
    let repo = &outcome.repo;
    let Some(lock_file) = repo.files.iter().enumerate().find_map(|(i, f)| {
        let is_lock = matches!(repo.parsed.get(i).map(|p| p.kind()), Some(FileKind::Lock));
        (is_lock && f.rel_path == LOCK_FILE_NAME).then_some(FileId(i as u32))
    }) else {
        return Vec::new();
    };
    let mut diagnostics = Vec::new();
    let mut report = |rule: crate::catalog::RuleCode, run: &mut dyn FnMut(&mut Sink)| {
        let Some(meta) = catalog().get(rule.as_str()) else {
            return;
        };
        let mut sink = Sink::new(meta);
        run(&mut sink);
        diagnostics.extend(sink.finish());
    };
    let locked = match read(repo.text(lock_file)) {
        Ok(locked) => locked,
        Err(error) => {
            report(code::LK004, &mut |sink| {
                sink.report(lock_file, error.span, error.message.clone())
                    .primary
                    .message = Some("here".to_string());
            });
            return reported(outcome, diagnostics);
        }
    };
    let by_path: HashMap<&str, FileId> = repo
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.rel_path.as_str(), FileId(i as u32)))
        .collect();
    let current = entries(inventory);
    let rows: HashMap<(&str, &str), &Row> = inventory
        .rows
        .iter()
        .map(|r| ((r.path.as_str(), r.name.as_str()), r))
        .collect();
    let pinned: BTreeMap<(&str, &str), &ReadEntry> = locked
        .iter()
        .map(|e| ((e.locked.path.as_str(), e.locked.name.as_str()), e))
        .collect();
    report(code::LK001, &mut |sink| {
        for now in &current {
            let Some(entry) = pinned.get(&now.key()) else {
                continue;
            };
            let changes = changes(&entry.locked, now);
            let (Some(row), Some(file)) = (rows.get(&now.key()), by_path.get(now.path.as_str()))
            else {
                continue;
            };
            if changes.is_empty() {
                continue;
            }
            let d = sink.report(
                *file,
                row.span,
                format!(
                    "{} `{}` differs from `{LOCK_FILE_NAME}`: {}",
                    noun(row.dialect),
                    now.name,
                    crate::english::join_and(&changes)
                ),
            );
            d.primary.message = Some("changed since the lock".to_string());
            d.secondary.push(crate::diagnostic::Label {
                file: lock_file,
                span: entry.name_span,
                message: Some("pinned here".to_string()),
            });
            d.help = Some(
                "review the change; if it is meant, run `skilllint lock` and commit the lock with it"
                    .to_string(),
            );
        }
    });
    report(code::LK002, &mut |sink| {
        for now in current.iter().filter(|e| !pinned.contains_key(&e.key())) {
            let (Some(row), Some(file)) = (rows.get(&now.key()), by_path.get(now.path.as_str()))
            else {
                continue;
            };
            let what = if now.capabilities.is_empty() {
                now.effect.clone()
            } else {
                format!("{} ({})", now.effect, now.capabilities.join(", "))
            };
            let d = sink.report(
                *file,
                row.span,
                format!(
                    "{} `{}` is not pinned in `{LOCK_FILE_NAME}`",
                    noun(row.dialect),
                    now.name
                ),
            );
            d.primary.message = Some(format!("new: {what}"));
            d.help = Some(
                "review what the tool can do; if it is meant, run `skilllint lock` and commit the lock with it"
                    .to_string(),
            );
        }
    });
    let now_keys: HashSet<(&str, &str)> = current.iter().map(Locked::key).collect();
    // A tools file that did not parse is reported as such (TJ001, SL001): its tools are not
    // gone, they could not be read.
    let unread: HashSet<&str> = inventory.unread.iter().map(|u| u.path.as_str()).collect();
    let whole_root = matches!(options.paths.as_slice(), [only] if only.is_dir());
    // Each gone tool by its file: a file whose every pinned tool is gone because the file is
    // (deleted, or no longer read) is one finding, not one per tool.
    let mut gone: BTreeMap<&str, (Vec<&ReadEntry>, Option<&'static str>)> = BTreeMap::new();
    for (key, entry) in &pinned {
        if now_keys.contains(key) || unread.contains(key.0) {
            continue;
        }
        // Gone only where the run could see it: its file was read and no longer has the tool,
        // or the file is not there at all. A file the run did not read (not named, excluded)
        // or could not parse proves nothing.
        let read_here = by_path.contains_key(key.0);
        let file_missing = std::fs::symlink_metadata(outcome.root.join(key.0)).is_err();
        // A file the walk of the whole root passed over without reading it as tools (its JSON
        // broken, its shape no longer a tool list's) hides its tools from every rule: as gone
        // as a deleted one. Excluded files and, in a run over named files, the files not named
        // are not looked at.
        let walked_past = whole_root && !read_here && !outcome.excluded.iter().any(|e| e == key.0);
        let why = if file_missing {
            Some("no longer exists")
        } else if read_here {
            None
        } else if walked_past {
            Some("is no longer read as a tool list")
        } else {
            continue;
        };
        let slot = gone.entry(key.0).or_default();
        slot.0.push(entry);
        slot.1 = why;
    }
    report(code::LK003, &mut |sink| {
        for (path, (entries, file_gone)) in &gone {
            let help = "if the removal is meant, run `skilllint lock` and commit the lock with it";
            match (file_gone, entries.as_slice()) {
                (Some(why), [first, ..]) => {
                    let names: Vec<String> = entries
                        .iter()
                        .map(|e| format!("`{}`", e.locked.name))
                        .collect();
                    let tools = if names.len() == 1 {
                        format!("pinned tool {} is", names[0])
                    } else if names.len() <= 3 {
                        format!("pinned tools {} are", crate::english::join_and(&names))
                    } else {
                        format!(
                            "{} pinned tools ({}, {} and {} more) are",
                            names.len(),
                            names[0],
                            names[1],
                            names.len() - 2
                        )
                    };
                    let d = sink.report(
                        lock_file,
                        first.name_span,
                        format!("{tools} gone: `{path}` {why}"),
                    );
                    d.primary.message = Some("pinned here".to_string());
                    d.help = Some(help.to_string());
                }
                _ => {
                    for entry in entries {
                        let d = sink.report(
                            lock_file,
                            entry.name_span,
                            format!(
                                "pinned tool `{}` is gone: `{path}` no longer defines it",
                                entry.locked.name
                            ),
                        );
                        d.primary.message = Some("pinned here".to_string());
                        d.help = Some(help.to_string());
                    }
                }
            }
        }
    });
    reported(outcome, diagnostics)
}

/// The run's selection, per-file ignores and severity overrides, applied to the LK findings as
/// the triage applies them to the rules'.
fn reported(outcome: &LintOutcome, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    crate::triage::report_where_selected(&mut found, &outcome.repo);
    found
}

/// What a row of the inventory is, for a message: the surface's hooks, MCP servers and
/// pre-approvals are pinned beside the tools.
fn noun(dialect: &str) -> &'static str {
    use crate::inventory::surface::{ALLOWED_TOOLS, HOOK, MCP_SERVER};
    match dialect {
        HOOK => "hook",
        MCP_SERVER => "MCP server",
        ALLOWED_TOOLS => "pre-approval",
        _ => "tool",
    }
}

/// What changed between a pinned tool and the tool now, in words, in a fixed order.
pub(super) fn changes(pinned: &Locked, now: &Locked) -> Vec<String> {
    let mut out = Vec::new();
    if pinned.effect != now.effect {
        out.push(format!(
            "its effect is `{}` (pinned `{}`)",
            now.effect, pinned.effect
        ));
    }
    if pinned.capabilities != now.capabilities {
        out.push(format!(
            "its capabilities are {} (pinned {})",
            listed(&now.capabilities),
            listed(&pinned.capabilities)
        ));
    }
    if pinned.description != now.description {
        out.push(describe(
            "description",
            &pinned.description,
            &now.description,
        ));
    }
    if pinned.schema != now.schema {
        out.push(describe("input schema", &pinned.schema, &now.schema));
    }
    let added: Vec<&String> = now
        .gates
        .iter()
        .filter(|g| !pinned.gates.contains(g))
        .collect();
    let dropped: Vec<&String> = pinned
        .gates
        .iter()
        .filter(|g| !now.gates.contains(g))
        .collect();
    if !dropped.is_empty() {
        out.push(format!(
            "{} {} dropped",
            plural(dropped.len(), "gate"),
            quoted(&dropped)
        ));
    }
    if !added.is_empty() {
        out.push(format!(
            "{} {} added",
            plural(added.len(), "gate"),
            quoted(&added)
        ));
    }
    out
}

fn describe(what: &str, pinned: &Option<String>, now: &Option<String>) -> String {
    match (pinned, now) {
        (None, Some(_)) => format!("its {what} is new"),
        (Some(_), None) => format!("its {what} was removed"),
        _ => format!("its {what} changed"),
    }
}

fn listed(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

fn quoted(items: &[&String]) -> String {
    items
        .iter()
        .map(|g| format!("`{g}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
