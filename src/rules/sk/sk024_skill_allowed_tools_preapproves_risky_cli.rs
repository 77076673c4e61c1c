//! SK024 `skill-allowed-tools-preapproves-risky-cli`: The skill pre-approves a CLI whose
//! documented commands refund, cancel, delete or send.

use super::skill_with_frontmatter;
use crate::check::{Sink, Unit};
use crate::semantic::permissions::grants;
use crate::source::{FileId, Span};

/// Verbs of a command that moves money, ends something or reaches other people: what a user
/// expects to be asked about before it runs.
const RISKY_VERBS: [&str; 14] = [
    "refund",
    "cancel",
    "delete",
    "remove",
    "destroy",
    "send",
    "transfer",
    "payout",
    "purge",
    "terminate",
    "revoke",
    "void",
    "wipe",
    "erase",
];

/// Verbs that only read: `paycli refunds list` lists refunds, it makes none.
const READ_VERBS: [&str; 12] = [
    "list", "get", "retrieve", "show", "view", "search", "describe", "status", "info", "read",
    "find", "inspect",
];

/// The risky verb a subcommand word is (`refunds`, `cancel`, `delete-customer`, `send_email`).
fn risky_verb(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    lower.split(['-', '_', ':', '.']).find_map(|part| {
        RISKY_VERBS.iter().copied().find(|verb| {
            part == *verb
                || part
                    .strip_prefix(verb)
                    .is_some_and(|rest| matches!(rest, "s" | "es" | "ed" | "d" | "ing" | "ion"))
        })
    })
}

/// The command words of a `Bash(…)` scope (`paycli:*` → `paycli`; `paycli refunds *` →
/// `paycli refunds`): what every pre-approved command starts with.
fn scope_words(scope: &str) -> Vec<&str> {
    let scope = scope.trim();
    let scope = scope.strip_suffix(":*").unwrap_or(scope);
    scope
        .split_whitespace()
        .take_while(|w| !w.contains('*'))
        .collect()
}

/// A documented command line the grant lets through, with a risky verb in it.
struct Documented {
    file: FileId,
    span: Span,
    command: String,
    verb: &'static str,
}

/// The first command in `text` that starts with `prefix` and has a risky subcommand word: the
/// words after the program up to the first option or argument that is no word.
fn risky_command(text: &str, prefix: &[&str]) -> Option<(usize, usize, String, &'static str)> {
    let program = prefix.first()?;
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|rest| rest.find(program)) {
        let start = from + at;
        from = start + program.len();
        let before = text.get(..start).and_then(|b| b.chars().next_back());
        if before.is_some_and(|c| !(c.is_whitespace() || matches!(c, '`' | '(' | '$' | '"' | '\'')))
        {
            continue;
        }
        let line_end = text
            .get(start..)
            .and_then(|r| r.find('\n'))
            .map_or(text.len(), |e| start + e);
        let line = text.get(start..line_end).unwrap_or_default();
        let words: Vec<&str> = line
            .split_whitespace()
            .map(|w| w.trim_end_matches(['`', '"', '\'', ')', ',', ';', '|']))
            .take(6)
            .take_while(|w| {
                !w.starts_with('-')
                    && w.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.')
                    })
            })
            .collect();
        if words.len() < 2
            || words.len() < prefix.len()
            || !words.iter().zip(prefix).all(|(w, p)| w == p)
        {
            continue;
        }
        if words
            .iter()
            .skip(1)
            .any(|w| READ_VERBS.contains(&w.to_ascii_lowercase().as_str()))
        {
            continue;
        }
        let Some(verb) = words.iter().skip(1).find_map(|w| risky_verb(w)) else {
            continue;
        };
        // The words are the line's first ones, each after the last: the command ends where the
        // last of them does.
        let mut end = 0;
        for word in &words {
            end += line.get(end..).and_then(|r| r.find(word)).unwrap_or(0) + word.len();
        }
        return Some((start, start + end, words.join(" "), verb));
    }
    None
}

/// The skill's Markdown files: `SKILL.md` first, then every other `.md` under its folder
/// (`references/`), in path order.
fn skill_documents(unit: &Unit<'_>, skill: FileId) -> Vec<FileId> {
    let dir = unit.dir();
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let files = &unit.repo.files;
    let first = files.partition_point(|f| f.rel_path.as_str() < prefix.as_str());
    let mut out = vec![skill];
    for (index, file) in files.iter().enumerate().skip(first) {
        if !file.rel_path.starts_with(&prefix) {
            break;
        }
        let id = FileId(index as u32);
        if id != skill && file.rel_path.to_ascii_lowercase().ends_with(".md") {
            out.push(id);
        }
    }
    out
}

pub(super) fn skill_allowed_tools_preapproves_risky_cli(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, _, fm)) = skill_with_frontmatter(unit) else {
        return;
    };
    let Some(allowed) = fm.root.get("allowed-tools") else {
        return;
    };
    let scoped: Vec<_> = grants(allowed, unit.text(file))
        .into_iter()
        .filter(|g| g.tool == "Bash")
        .filter_map(|g| {
            let words: Vec<String> = scope_words(g.scope.as_deref()?)
                .into_iter()
                .map(str::to_string)
                .collect();
            (!words.is_empty()).then_some((g, words))
        })
        .collect();
    if scoped.is_empty() {
        return;
    }
    let documents = skill_documents(unit, file);
    for (grant, words) in scoped {
        let prefix: Vec<&str> = words.iter().map(String::as_str).collect();
        let found = documents.iter().find_map(|doc| {
            let text = unit.text(*doc);
            // In SKILL.md, the frontmatter holds the grant itself: read the body only.
            let skip = if *doc == file { fm_end(text) } else { 0 };
            let (start, end, command, verb) = risky_command(text.get(skip..)?, &prefix)?;
            Some(Documented {
                file: *doc,
                span: Span::new(skip + start, skip + end),
                command,
                verb,
            })
        });
        let Some(documented) = found.or_else(|| generated_tool(unit, &prefix)) else {
            continue;
        };
        let program = prefix.join(" ");
        sink.report(
            file,
            grant.span,
            format!(
                "`allowed-tools` pre-approves `{program}`, whose documented commands include `{}` ({})",
                documented.command, documented.verb
            ),
        )
        .label(format!("every `{program}` command runs without asking"))
        .secondary(
            documented.file,
            documented.span,
            format!("`{}` runs without the user's confirmation", documented.command),
        )
        .help(format!(
            "scope the grant to the read commands the skill needs (`Bash({program} list:*)`) and let `{}` ask the user first",
            documented.command
        ));
    }
}

/// A tool of the skill's own tool lists generated from the granted CLI, whose command is risky:
/// named after its command (`paycli_refunds_create` for `paycli refunds create`), or describing
/// it ("Runs `paycli refunds create`"). The first in file order.
fn generated_tool(unit: &Unit<'_>, prefix: &[&str]) -> Option<Documented> {
    let stem = prefix.join("_").to_ascii_lowercase();
    unit.tools().find_map(|(file, tool)| {
        let name = tool.name()?.to_ascii_lowercase();
        let rest = name
            .strip_prefix(&stem)
            .filter(|rest| rest.starts_with(['_', '-', '.']));
        if let Some(rest) = rest {
            let words: Vec<&str> = rest
                .split(['_', '-', '.'])
                .filter(|w| !w.is_empty())
                .collect();
            if words.iter().any(|w| READ_VERBS.contains(w)) {
                return None;
            }
            let verb = words.iter().find_map(|w| risky_verb(w))?;
            let command = prefix.iter().copied().chain(words).collect::<Vec<_>>();
            let span = tool.name_node().map_or(tool.entry.span, |n| n.span);
            return Some(Documented {
                file,
                span,
                command: command.join(" "),
                verb,
            });
        }
        let description = tool.description()?;
        let (_, _, command, verb) = risky_command(description.as_str()?, prefix)?;
        Some(Documented {
            file,
            span: description.span,
            command,
            verb,
        })
    })
}

/// Where the frontmatter of a Markdown text ends (0 when it has none).
fn fm_end(text: &str) -> usize {
    if !text.starts_with("---") {
        return 0;
    }
    text.get(3..)
        .and_then(|rest| rest.find("\n---"))
        .map_or(0, |i| 3 + i + 4)
}

#[cfg(test)]
mod tests {
    use super::{risky_command, risky_verb, scope_words};

    #[test]
    fn risky_subcommands_are_found_after_the_granted_prefix() {
        assert_eq!(scope_words("paycli:*"), ["paycli"]);
        assert_eq!(scope_words("paycli refunds *"), ["paycli", "refunds"]);
        assert_eq!(risky_verb("refunds"), Some("refund"));
        assert_eq!(risky_verb("delete-customer"), Some("delete"));
        assert_eq!(risky_verb("sender"), None);
        assert_eq!(risky_verb("list"), None);
        let doc =
            "Run `paycli charges list` first.\n\n```\npaycli refunds create --charge ch_1\n```\n";
        let (start, end, command, verb) = risky_command(doc, &["paycli"]).expect("found");
        assert_eq!(&doc[start..end], "paycli refunds create");
        assert_eq!(
            (command.as_str(), verb),
            ("paycli refunds create", "refund")
        );
        assert!(risky_command(doc, &["paycli", "charges"]).is_none());
        assert!(risky_command("`paycli refunds list`", &["paycli"]).is_none());
        assert!(risky_command("mypaycli refunds", &["paycli"]).is_none());
    }
}
