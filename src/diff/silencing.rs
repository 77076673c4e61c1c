//! The configuration compared: what the new side's makes the linter say less of (rules off or
//! quieter, files excluded or ignored, settings loosened, policy rules gone or rewritten, the
//! baseline grown), at the root and for each folder below it with a configuration of its own,
//! and inline suppression comments added. Every one widens.

use super::side::{Comment, Settings, Side};
use super::{change_at, cut, missing, Change, ChangeKind, SideName};
use crate::inventory::At;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Configuration changes that make the linter say less: rules no longer run or with a lower
/// severity, new per-file ignores, inline suppression comments and baseline entries, policy
/// rules gone, a higher size cap, new exclusions. Every one widens: a pull request that silences
/// the check reviewing it is the first thing a reviewer must see.
pub(super) fn silencing(old_side: &Side, new_side: &Side) -> Vec<Change> {
    let mut out = settings_silencing(&old_side.settings, &new_side.settings);
    out.extend(new_comments(&old_side.comments, &new_side.comments));
    out.extend(nested_silencing(old_side, new_side));
    out.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.kind, &a.message)
            .cmp(&(&b.path, b.line, b.column, b.kind, &b.message))
    });
    out
}

/// The configuration below the root in force for `folder` on `side` (the side's own there, else
/// the nearest above it), as (path, text); `None` when the top one is.
fn in_force<'s>(side: &'s Side, folder: &str) -> Option<&'s (String, String)> {
    side.nested
        .iter()
        .filter(|(path, _)| {
            let own = crate::source::split_path(path).0;
            own == folder || folder.starts_with(&format!("{own}/"))
        })
        .max_by_key(|(path, _)| path.len())
}

/// For each folder with a configuration of its own on either side (below the root), what a lint
/// of that folder (`skilllint sub`, an Action whose `path` is in it, pre-commit on its files)
/// silences on the new side compared with the old: the configuration in force for the folder on
/// each side is its own, else the nearest above it, else the top one. One
/// `configuration-below-root` change names the new side's configuration (the old side's, when it
/// is gone), then the settings it loosens, each said to be for a lint of that folder. A
/// configuration that loosens nothing is no change.
fn nested_silencing(old_side: &Side, new_side: &Side) -> Vec<Change> {
    let mut folders: Vec<&str> = old_side
        .nested
        .iter()
        .chain(&new_side.nested)
        .map(|(path, _)| crate::source::split_path(path).0)
        .collect();
    folders.sort_unstable();
    folders.dedup();
    let mut out = Vec::new();
    for folder in folders {
        let (was, now) = (in_force(old_side, folder), in_force(new_side, folder));
        if was == now {
            continue;
        }
        let after = match now {
            Some((path, text)) => match super::side::nested_settings(path, text) {
                Some(settings) => settings,
                // Not valid as the built-in rules read it: either the lint of that folder
                // refuses it too (exit 2), or it names rules of policies it loads there, which
                // are not loaded here. Which cannot be told apart here, so it is said, as
                // silencing: a reviewer reads it.
                None => {
                    out.push(change_at(
                        ChangeKind::ConfigurationBelowRoot,
                        "configuration",
                        path,
                        At { line: 1, column: 1 },
                        SideName::New,
                        format!(
                            "a lint of `{folder}/` reads `{path}`, which the diff cannot apply on its own (it names rules it does not know: of policies a lint there loads, or none, and the lint refuses it): what it silences is not shown"
                        ),
                        was.map(|(p, _)| p.clone()),
                        Some(path.clone()),
                    ));
                    continue;
                }
            },
            None => new_side.settings.clone(),
        };
        let before = was
            .and_then(|(path, text)| super::side::nested_settings(path, text))
            .unwrap_or_else(|| old_side.settings.clone());
        let loosened = settings_silencing(&before, &after);
        if loosened.is_empty() {
            continue;
        }
        let named = |c: Option<&(String, String)>, settings: &Settings| {
            c.map(|(path, _)| path.clone())
                .or_else(|| settings.path.clone())
        };
        let (before_path, after_path) = (
            named(was, &old_side.settings),
            named(now, &new_side.settings),
        );
        let shown = |path: &Option<String>| {
            path.as_deref()
                .map_or_else(|| "no configuration".to_string(), |p| format!("`{p}`"))
        };
        let (path, side) = match (now, was) {
            (Some((path, _)), _) => (path.clone(), SideName::New),
            (None, Some((path, _))) => (path.clone(), SideName::Old),
            (None, None) => continue,
        };
        out.push(change_at(
            ChangeKind::ConfigurationBelowRoot,
            "configuration",
            &path,
            At { line: 1, column: 1 },
            side,
            format!(
                "a lint of `{folder}/` (`skilllint {folder}`, an Action whose `path` is in it, pre-commit on its files) read {} and now reads {}, which silences {} setting(s)",
                shown(&before_path),
                shown(&after_path),
                loosened.len()
            ),
            before_path,
            after_path,
        ));
        out.extend(loosened.into_iter().map(|mut c| {
            c.message = format!("for a lint of `{folder}/`: {}", c.message);
            c
        }));
    }
    out
}

/// The policy rules both sides run whose logic (`on`, `when`, `assert`, `at`) differs.
pub(super) fn rewritten_policies<'s>(old: &Settings, new: &'s Settings) -> HashSet<&'s str> {
    new.policy_logic
        .iter()
        .filter(|(code, logic)| old.policy_logic.get(*code).is_some_and(|was| was != *logic))
        .map(|(code, _)| code.as_str())
        .collect()
}

/// Where a configuration change points: the line of `needle` in the new side's configuration,
/// else (a configuration deleted) the old one's.
fn setting_place(old: &Settings, new: &Settings, needle: &str) -> (String, At, SideName) {
    match (&new.path, &old.path) {
        (Some(path), _) => (path.clone(), new.place(needle), SideName::New),
        (None, Some(path)) => (path.clone(), old.place(needle), SideName::Old),
        (None, None) => (
            "skilllint.toml".to_string(),
            At { line: 1, column: 1 },
            SideName::New,
        ),
    }
}

/// Up to ten items, `, `-joined, with how many more there are.
fn listed(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(10)
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > 10 {
        text.push_str(&format!(" and {} more", items.len() - 10));
    }
    text
}

/// How many configuration changes of one kind are listed one by one; the rest are counted in
/// one more change.
const MAX_EACH_SETTING: usize = 20;

/// The configuration changes of [`silencing`] that the settings alone show (not the inline
/// comments), unsorted: the rules that no longer run or say less, the files no longer linted,
/// the settings loosened, the policy rules gone or rewritten, the baseline grown, then how many
/// more of each kind there were than are listed.
fn settings_silencing(old: &Settings, new: &Settings) -> Vec<Change> {
    let mut placed = Placed {
        old,
        new,
        out: Vec::new(),
        shown: BTreeMap::new(),
        more: BTreeMap::new(),
    };
    rules_silenced(&mut placed);
    files_unlinted(&mut placed);
    settings_loosened(&mut placed);
    policies_gone(&mut placed);
    baseline_grown(&mut placed);
    placed.finish()
}

/// The changes of [`settings_silencing`], and how each kind is placed and counted.
struct Placed<'s> {
    old: &'s Settings,
    new: &'s Settings,
    out: Vec<Change>,
    /// How many changes of each kind are listed. Each is placed by a scan of the configuration
    /// text: past [`MAX_EACH_SETTING`] of one kind the rest are counted, so a configuration
    /// listing thousands of new globs costs no more than one scan per shown change.
    shown: BTreeMap<ChangeKind, usize>,
    /// How many more of each kind, and where the last one listed is: the count goes there, so
    /// that it follows them.
    more: BTreeMap<ChangeKind, (usize, String, At, SideName)>,
}

impl Placed<'_> {
    /// A change at the line of `needle` in the configuration, or counted past
    /// [`MAX_EACH_SETTING`] of its kind.
    fn push(
        &mut self,
        kind: ChangeKind,
        needle: &str,
        tool: &str,
        message: String,
        before: Option<String>,
        after: Option<String>,
    ) {
        let count = self.shown.entry(kind).or_default();
        if *count >= MAX_EACH_SETTING {
            if let Some(entry) = self.more.get_mut(&kind) {
                entry.0 += 1;
            }
            return;
        }
        *count += 1;
        let (path, at, side) = setting_place(self.old, self.new, needle);
        self.more.insert(kind, (0, path.clone(), at, side));
        self.out.push(change_at(
            kind, tool, &path, at, side, message, before, after,
        ));
    }

    /// The changes, then one more for each kind with changes past [`MAX_EACH_SETTING`].
    fn finish(self) -> Vec<Change> {
        let (mut out, more) = (self.out, self.more);
        for (kind, (count, path, at, side)) in more.into_iter().filter(|(_, m)| m.0 > 0) {
            out.push(change_at(
                kind,
                "configuration",
                &path,
                at,
                side,
                format!(
                    "and {count} more `{}` change(s) like the ones above",
                    kind.as_str()
                ),
                None,
                Some(count.to_string()),
            ));
        }
        out
    }
}

/// Rules the selection no longer runs, and rules whose severity is lowered.
fn rules_silenced(p: &mut Placed<'_>) {
    let (old, new) = (p.old, p.new);
    // A policy rule that is gone is `policy-removed`, not a rule the selection turned off.
    let disabled: Vec<String> = old
        .enabled
        .difference(&new.enabled)
        .filter(|code| new.severity.contains_key(*code))
        .cloned()
        .collect();
    if !disabled.is_empty() {
        let added: Vec<String> = new
            .ignore
            .iter()
            .filter(|s| !old.ignore.contains(s))
            .cloned()
            .collect();
        let (needle, how) = if added.is_empty() {
            ("select", "`select` narrowed".to_string())
        } else {
            ("ignore", format!("`ignore` adds {}", listed(&added)))
        };
        let all = new.enabled.is_empty();
        p.push(
            ChangeKind::RulesDisabled,
            needle,
            needle,
            format!(
                "{how}: {} rule(s) no longer run{}: {}",
                disabled.len(),
                if all { ", none at all does" } else { "" },
                listed(&disabled)
            ),
            Some(old.ignore.join(", ")),
            Some(new.ignore.join(", ")),
        );
    }
    let lowered: Vec<String> = new
        .severity
        .iter()
        .filter(|(code, _)| new.enabled.contains(*code) && old.enabled.contains(*code))
        .filter_map(|(code, after)| {
            let before = old.severity.get(code)?;
            (after < before).then(|| format!("{code} {} → {}", before.as_str(), after.as_str()))
        })
        .collect();
    if !lowered.is_empty() {
        let needle = lowered
            .first()
            .and_then(|l| l.split(' ').next())
            .unwrap_or("severity")
            .to_string();
        p.push(
            ChangeKind::SeverityLowered,
            &needle,
            "severity",
            format!(
                "severity lowered for {} rule(s): {}",
                lowered.len(),
                listed(&lowered)
            ),
            None,
            None,
        );
    }
}

/// Files no longer linted, or linted with rules silenced: new per-file ignores and exclusions.
fn files_unlinted(p: &mut Placed<'_>) {
    let (old, new) = (p.old, p.new);
    let before: HashSet<&(String, String)> = old.per_file_ignores.iter().collect();
    for pair in &new.per_file_ignores {
        if !before.contains(pair) {
            let (glob, selector) = pair;
            p.push(
                ChangeKind::PerFileIgnoreAdded,
                glob,
                "per-file-ignores",
                format!("`per-file-ignores` silences `{selector}` in `{glob}`"),
                None,
                Some(format!("{glob}: {selector}")),
            );
        }
    }
    for glob in missing(&new.exclude, &old.exclude) {
        p.push(
            ChangeKind::ExcludeAdded,
            glob,
            "exclude",
            format!("`exclude` adds `{glob}`: its files are no longer linted"),
            None,
            Some(glob.clone()),
        );
    }
}

/// Settings that make the lint say less or read less: `fail-on` raised, `extra-fields` added,
/// tool lists and requirement files no longer read, another Tool Use Rules heading, a higher
/// size cap.
fn settings_loosened(p: &mut Placed<'_>) {
    let (old, new) = (p.old, p.new);
    let fail_on = |s: &Settings| s.fail_on.unwrap_or(crate::diagnostic::Severity::Error);
    if fail_on(new) > fail_on(old) {
        p.push(
            ChangeKind::FailOnRaised,
            "fail-on",
            "fail-on",
            format!(
                "`fail-on` raised from {} to {}: findings below it no longer fail the run",
                fail_on(old).as_str(),
                fail_on(new).as_str()
            ),
            Some(fail_on(old).as_str().to_string()),
            Some(fail_on(new).as_str().to_string()),
        );
    }
    for field in missing(&new.extra_fields, &old.extra_fields) {
        p.push(
            ChangeKind::SettingLoosened,
            "extra-fields",
            "extra-fields",
            format!("`extra-fields` adds `{field}`: SKILL.md frontmatter may carry it unreported"),
            None,
            Some(field.clone()),
        );
    }
    for glob in missing(&old.tool_include, &new.tool_include) {
        p.push(
            ChangeKind::SettingLoosened,
            "include",
            "include",
            format!(
                "`[tools] include` drops `{glob}`: those files are no longer read as tool lists"
            ),
            Some(glob.clone()),
            None,
        );
    }
    if new.tool_use_rules_heading != old.tool_use_rules_heading {
        p.push(
            ChangeKind::SettingLoosened,
            "tool-use-rules-heading",
            "tool-use-rules-heading",
            format!(
                "`tool-use-rules-heading` changed from `{}` to `{}`: the TR rules read another section",
                old.tool_use_rules_heading, new.tool_use_rules_heading
            ),
            Some(old.tool_use_rules_heading.clone()),
            Some(new.tool_use_rules_heading.clone()),
        );
    }
    for name in missing(&old.requirement_files, &new.requirement_files) {
        p.push(
            ChangeKind::SettingLoosened,
            "requirement-files",
            "requirement-files",
            format!("`requirement-files` drops `{name}`: those files are no longer read"),
            Some(name.clone()),
            None,
        );
    }
    if new.max_file_size > old.max_file_size {
        p.push(
            ChangeKind::MaxFileSizeRaised,
            "max-file-size",
            "max-file-size",
            format!(
                "`max-file-size` raised from {} to {} bytes",
                old.max_file_size, new.max_file_size
            ),
            Some(old.max_file_size.to_string()),
            Some(new.max_file_size.to_string()),
        );
    }
}

/// Policy rules that no longer run, and those whose logic changed.
fn policies_gone(p: &mut Placed<'_>) {
    let (old, new) = (p.old, p.new);
    for (code, file) in &old.policy_rules {
        if !new.policy_rules.contains_key(code) {
            // Removed: the place is where the old configuration named its policies.
            let (path, at, side) = match &old.path {
                Some(path) => (path.clone(), old.place("policies"), SideName::Old),
                None => setting_place(old, new, "policies"),
            };
            p.out.push(change_at(
                ChangeKind::PolicyRemoved,
                code,
                &path,
                at,
                side,
                format!("policy rule `{code}` (from `{file}`) no longer runs"),
                Some(file.clone()),
                None,
            ));
        }
    }
    for code in rewritten_policies(old, new) {
        let file = new.policy_rules.get(code).cloned().unwrap_or_default();
        let (before, after) = (
            old.policy_logic.get(code).cloned(),
            new.policy_logic.get(code).cloned(),
        );
        p.out.push(change_at(
            ChangeKind::PolicyChanged,
            code,
            &file,
            At { line: 1, column: 1 },
            SideName::New,
            format!(
                "policy rule `{code}` (from `{file}`) decides differently: {}; what it no longer reports is listed as silenced, not fixed",
                cut(after.as_deref().unwrap_or(""), 200)
            ),
            before,
            after,
        ));
    }
}

/// Baseline entries added (counted: two same entries on one side and one on the other leave one).
fn baseline_grown(p: &mut Placed<'_>) {
    let (old, new) = (p.old, p.new);
    if let Some((path, entries)) = &new.baseline {
        let before = old.baseline.as_ref().map_or(&[][..], |(_, e)| e.as_slice());
        let mut counts: HashMap<&(String, String, String), usize> = HashMap::new();
        for e in before {
            *counts.entry(e).or_default() += 1;
        }
        let added: Vec<String> = entries
            .iter()
            .filter(|e| match counts.get_mut(e) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            })
            .map(|(rule, file, _)| format!("{rule} in {file}"))
            .collect();
        if !added.is_empty() {
            p.out.push(change_at(
                ChangeKind::BaselineEntriesAdded,
                "baseline",
                path,
                At { line: 1, column: 1 },
                SideName::New,
                format!(
                    "{} baseline entr{} added, hiding: {}",
                    added.len(),
                    if added.len() == 1 { "y" } else { "ies" },
                    listed(&added)
                ),
                None,
                Some(added.len().to_string()),
            ));
        }
    }
}

/// One change per file that gained inline suppression comments (matched by their text, so a
/// comment that only moved is not new), at the first new one.
fn new_comments(old: &[Comment], new: &[Comment]) -> Vec<Change> {
    let mut counts: HashMap<(&str, &str), usize> = HashMap::new();
    for c in old {
        *counts
            .entry((c.path.as_str(), c.text.as_str()))
            .or_default() += 1;
    }
    let mut by_file: BTreeMap<&str, Vec<&Comment>> = BTreeMap::new();
    for c in new {
        match counts.get_mut(&(c.path.as_str(), c.text.as_str())) {
            Some(n) if *n > 0 => *n -= 1,
            _ => by_file.entry(c.path.as_str()).or_default().push(c),
        }
    }
    by_file
        .into_iter()
        .filter_map(|(path, comments)| {
            let first = comments.first()?;
            Some(change_at(
                ChangeKind::InlineSuppressionAdded,
                "inline",
                path,
                first.at,
                SideName::New,
                format!(
                    "{} new inline suppression comment(s), the first: {}",
                    comments.len(),
                    cut(&first.text, 120)
                ),
                None,
                Some(comments.len().to_string()),
            ))
        })
        .collect()
}
