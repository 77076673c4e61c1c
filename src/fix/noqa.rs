//! `--add-noqa`: an inline suppression comment for every current finding, in its file's comment
//! form (`# skilllint: ignore[…]` in YAML, `<!-- skilllint-disable-next-line … -->` in a
//! Markdown body). Nothing is trusted to work: the commented texts are linted again, and a file
//! where a comment does not silence its finding (a line inside a YAML block scalar, a Markdown
//! code fence) or changes any other finding is left as it was. What no comment can hold (JSON
//! files, findings above a frontmatter, the files left as they were) is returned for the
//! baseline.

use super::FixRun;
use crate::diagnostic::{Diagnostic, Edit, SuppressedBy};
use crate::edit::apply_edits;
use crate::engine::{lint, LintError, LintOutcome};
use crate::index::parse_pending;
use crate::settings::LintOptions;
use crate::source::FileId;
use crate::triage::suppress::{comment_edit, comment_place, CommentPlace};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

/// Findings no comment is written for: the linter's own about the baseline, and internal errors.
const NOT_COMMENTED: &[&str] = &["SL020", "SL021", "SL900"];

/// Findings about a Markdown body as a whole, reported at the line where it goes wrong (SK013 at
/// the first line past the limit): a comment on the line above would itself move that line, so
/// they get `<!-- skilllint-disable-file CODE -->` at the top of the body, as the README shows.
const WHOLE_BODY: &[&str] = &["SK013"];

/// What `--add-noqa` did (nothing is written by [`add_noqa`] itself: `changed` goes through the
/// `--fix` writer).
#[derive(Debug, Default)]
pub struct NoqaRun {
    /// The commented files, as a fix run holds them (`fixed_by_file` counts comments).
    pub files: FixRun,
    /// Comments written.
    pub comments: usize,
    /// Findings they silence.
    pub silenced: usize,
    /// Files left as they were because a comment would not have worked there.
    pub left_as_they_were: Vec<String>,
}

/// One comment to write: the offset of its first finding, the codes it names, the findings it
/// silences.
type Planned = (usize, Vec<&'static str>, usize);

/// A comment form as a sortable key (its findings are grouped by file, line and form).
fn place_key(place: CommentPlace) -> u8 {
    match place {
        CommentPlace::Yaml => 0,
        CommentPlace::Markdown => 1,
        CommentPlace::MarkdownFile => 2,
    }
}

/// One comment to write and what it is for.
struct Comment {
    edit: Edit,
    /// The findings it silences.
    findings: usize,
    place: CommentPlace,
}

/// The comments for one lint's findings: file → the edits, and how many findings they cover.
fn plan(outcome: &LintOutcome) -> BTreeMap<FileId, Vec<Comment>> {
    let repo = &outcome.repo;
    let baseline_file = repo.files.len();
    // (file, line start, place) → the codes to name there, in order.
    let mut at: BTreeMap<(FileId, usize, u8), Planned> = BTreeMap::new();
    let mut parses = HashMap::new();
    for d in &outcome.diagnostics {
        let file = d.primary.file;
        if NOT_COMMENTED.contains(&d.code) || file.0 as usize >= baseline_file {
            continue;
        }
        let parsed = parses
            .entry(file)
            .or_insert_with(|| parse_pending(repo, file));
        let parsed = parsed.as_ref().unwrap_or_else(|| repo.parsed(file));
        let place = match comment_place(parsed, d.primary.span.start) {
            Some(CommentPlace::Markdown) if WHOLE_BODY.contains(&d.code) => {
                CommentPlace::MarkdownFile
            }
            Some(place) => place,
            None => continue,
        };
        let text = repo.text(file);
        // Every file-wide comment of a file is one, at the top of its body.
        let line_start = match place {
            CommentPlace::MarkdownFile => 0,
            _ => text[..d.primary.span.start.min(text.len())]
                .rfind('\n')
                .map_or(0, |i| i + 1),
        };
        let slot = at.entry((file, line_start, place_key(place))).or_insert((
            d.primary.span.start,
            Vec::new(),
            0,
        ));
        if !slot.1.contains(&d.code) {
            slot.1.push(d.code);
        }
        slot.2 += 1;
    }
    let mut edits: BTreeMap<FileId, Vec<Comment>> = BTreeMap::new();
    for ((file, _, place), (offset, codes, findings)) in at {
        let place = match place {
            0 => CommentPlace::Yaml,
            1 => CommentPlace::Markdown,
            _ => CommentPlace::MarkdownFile,
        };
        let (span, replacement) = comment_edit(place, outcome.repo.text(file), offset, &codes);
        edits.entry(file).or_default().push(Comment {
            edit: Edit {
                file,
                span,
                replacement,
            },
            findings,
            place,
        });
    }
    edits
}

/// Each finding of a file as (code, message), counted: what must not change but for the ones
/// a comment silences.
fn findings_of(
    outcome: &LintOutcome,
    path: &std::path::Path,
) -> BTreeMap<(&'static str, String), usize> {
    let mut found = BTreeMap::new();
    let Some(id) = outcome
        .repo
        .files
        .iter()
        .position(|f| f.abs_path == path)
        .map(|i| FileId(i as u32))
    else {
        return found;
    };
    for d in outcome.diagnostics.iter().filter(|d| d.primary.file == id) {
        *found.entry((d.code, d.message.clone())).or_insert(0) += 1;
    }
    found
}

/// What the YAML of a file means (its frontmatter, or a whole requirement.yaml), comments
/// aside: what a comment must leave as it is.
fn yaml_value(kind: crate::model::FileKind, text: &str) -> Option<Option<serde_json::Value>> {
    use crate::model::FileKind;
    match kind {
        FileKind::Requirement => crate::parse::yaml::parse_yaml(text, 0)
            .ok()
            .map(|document| document.root.map(|root| root.to_json())),
        _ => Some(
            crate::model::document::parse_markdown_doc(text)
                .frontmatter()
                .map(|frontmatter| frontmatter.root.to_json()),
        ),
    }
}

/// The files whose comments worked: the commented text of each, with the comments and the
/// findings they silence.
type Kept = BTreeMap<FileId, (String, usize, usize)>;

/// Writes (in memory) the comments `keep` accepts of each file of `planned`, lints the
/// commented texts over `before`'s options, and keeps a file's comments only when they silence
/// every finding they were written for and leave its other findings and its YAML as they were.
/// Returns the files kept and the files that failed.
fn attempt(
    options: &LintOptions,
    before: &LintOutcome,
    planned: &BTreeMap<FileId, Vec<Comment>>,
    keep: &dyn Fn(CommentPlace) -> bool,
) -> Result<(Kept, BTreeSet<FileId>), LintError> {
    let mut overlay: HashMap<PathBuf, String> = options.overlay.as_ref().clone();
    let mut tried: Kept = BTreeMap::new();
    let mut failed = BTreeSet::new();
    for (file, comments) in planned {
        let chosen: Vec<&Comment> = comments.iter().filter(|c| keep(c.place)).collect();
        if chosen.is_empty() {
            continue;
        }
        let source = before.repo.file(*file);
        let refs: Vec<&Edit> = chosen.iter().map(|c| &c.edit).collect();
        let (text, _) = apply_edits(&source.text, &refs);
        // A `#` in a YAML block scalar is text: the comment would change what the agent reads.
        let kind = before.repo.parsed(*file).kind();
        if yaml_value(kind, &source.text) != yaml_value(kind, &text) {
            failed.insert(*file);
            continue;
        }
        let findings = chosen.iter().map(|c| c.findings).sum();
        overlay.insert(source.abs_path.clone(), text.clone());
        tried.insert(*file, (text, chosen.len(), findings));
    }
    if tried.is_empty() {
        return Ok((tried, failed));
    }
    let mut pass = options.clone();
    pass.overlay = Arc::new(overlay);
    let after = lint(&pass)?;
    // The findings left in the file must be those of before that were not meant to be
    // silenced: none new, none changed, no unused or malformed comment.
    tried.retain(|file, (_, _, findings)| {
        let path = &before.repo.file(*file).abs_path;
        let old = findings_of(before, path);
        let new = findings_of(&after, path);
        let silenced = old
            .values()
            .sum::<usize>()
            .saturating_sub(new.values().sum());
        let subset = new
            .iter()
            .all(|(key, count)| old.get(key).is_some_and(|was| count <= was));
        let worked = subset && silenced == *findings;
        if !worked {
            failed.insert(*file);
        }
        worked
    });
    Ok((tried, failed))
}

/// Lints, writes (in memory) a comment for each finding that can carry one, checks them by
/// linting again ([`attempt`]), and tries the files where that failed once more with their YAML
/// and whole-file comments alone (a comment line inside a Markdown table or list can break it).
/// Returns the last lint (what is left: findings for the baseline) and the commented files.
pub fn add_noqa(options: &LintOptions) -> Result<(LintOutcome, NoqaRun), LintError> {
    let before = lint(options)?;
    let planned = plan(&before);
    let mut run = NoqaRun::default();
    if planned.is_empty() {
        return Ok((before, run));
    }
    let (mut kept, failed) = attempt(options, &before, &planned, &|_| true)?;
    if !failed.is_empty() {
        let retry: BTreeMap<FileId, Vec<Comment>> = planned
            .into_iter()
            .filter(|(file, _)| failed.contains(file))
            .collect();
        let (second, _) = attempt(options, &before, &retry, &|place| {
            place != CommentPlace::Markdown
        })?;
        for file in &failed {
            if !second.contains_key(file) {
                run.left_as_they_were
                    .push(before.repo.file(*file).rel_path.clone());
            }
        }
        kept.extend(second);
    }
    let mut overlay: HashMap<PathBuf, String> = options.overlay.as_ref().clone();
    for (file, (text, comments, findings)) in kept {
        let source = before.repo.file(file);
        let path = source.abs_path.clone();
        overlay.insert(path.clone(), text.clone());
        run.comments += comments;
        run.silenced += findings;
        run.files
            .changed
            .insert(path.clone(), (source.text.clone(), text));
        run.files
            .rel_paths
            .insert(path.clone(), source.rel_path.clone());
        run.files.fixed_by_file.insert(path, findings);
        run.files.fixed += findings;
    }
    let mut last = options.clone();
    last.overlay = Arc::new(overlay);
    Ok((lint(&last)?, run))
}

/// The findings of a run that a baseline records after `--add-noqa`: those no comment holds, and
/// those the baseline already hid.
pub fn for_the_baseline(outcome: &LintOutcome) -> Vec<&Diagnostic> {
    let mut left: Vec<&Diagnostic> = outcome
        .diagnostics
        .iter()
        .chain(
            outcome
                .suppressed
                .iter()
                .filter(|s| s.by == SuppressedBy::Baseline)
                .map(|s| &s.diagnostic),
        )
        .collect();
    left.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    left
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(dir: &std::path::Path) -> LintOptions {
        LintOptions {
            paths: vec![dir.to_path_buf()],
            select: vec!["ALL".to_string()],
            threads: Some(2),
            ..LintOptions::default()
        }
    }

    #[test]
    fn each_kind_gets_its_comment_and_json_is_left_for_the_baseline() {
        let dir = tempfile::tempdir().expect("temp dir");
        let skill = dir.path().join("notes");
        std::fs::create_dir_all(&skill).expect("folder");
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: notes\ndescription: Keeps notes. Use when asked to write something down.\nowner: docs\n---\n\n# Notes\n\nSee [the guide](missing.md).\n",
        )
        .expect("skill");
        std::fs::write(
            skill.join("tools.json"),
            r#"[{"name": "save_note", "description": "Save a note.", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]"#,
        )
        .expect("tools");
        let (after, run) = add_noqa(&options(dir.path())).expect("lints");
        let path = skill.join("SKILL.md");
        let (_, text) = run.files.changed.get(&path).expect("SKILL.md is commented");
        assert!(
            text.contains("owner: docs # skilllint: ignore[SK008]"),
            "{text}"
        );
        assert!(
            text.contains("<!-- skilllint-disable-next-line SK011 -->\nSee [the guide]"),
            "{text}"
        );
        // TR001 is about the file: reported at its start, silenced for the file.
        assert!(
            text.contains("---\n<!-- skilllint-disable-file TR001 -->\n\n# Notes"),
            "{text}"
        );
        assert!(!run.files.changed.contains_key(&skill.join("tools.json")));
        // What is left is in tools.json alone.
        let left = for_the_baseline(&after);
        assert!(!left.is_empty());
        assert!(left
            .iter()
            .all(|d| after.repo.file(d.primary.file).rel_path == "notes/tools.json"));
    }

    #[test]
    fn a_comment_that_would_not_work_leaves_the_file_as_it_was() {
        let dir = tempfile::tempdir().expect("temp dir");
        let skill = dir.path().join("notes");
        std::fs::create_dir_all(&skill).expect("folder");
        // The finding's line is inside a block scalar: a `#` there is text, not a comment.
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: notes\ndescription: |\n  Keeps notes\u{200b}. Use when asked.\n---\n\n# Notes\n",
        )
        .expect("skill");
        let (after, run) = add_noqa(&options(dir.path())).expect("lints");
        assert!(run.files.changed.is_empty(), "{:?}", run.files.changed);
        assert_eq!(run.left_as_they_were, ["notes/SKILL.md"]);
        assert!(after.diagnostics.iter().any(|d| d.code == "SE003"));
    }

    #[test]
    fn a_body_too_long_is_silenced_for_the_file_as_the_readme_shows() {
        let dir = tempfile::tempdir().expect("temp dir");
        let skill = dir.path().join("big");
        std::fs::create_dir_all(&skill).expect("folder");
        let body: String = (1..=600)
            .map(|i| format!("Line {i} of the body.\n"))
            .collect();
        std::fs::write(
            skill.join("SKILL.md"),
            format!("---\nname: big\ndescription: Writes pages. Use when asked.\n---\n\n# Big\n\n{body}"),
        )
        .expect("skill");
        let mut options = options(dir.path());
        options.select = vec!["SK013".to_string()];
        let (after, run) = add_noqa(&options).expect("lints");
        let (_, text) = run
            .files
            .changed
            .get(&skill.join("SKILL.md"))
            .expect("SKILL.md is commented");
        assert!(
            text.contains("---\n<!-- skilllint-disable-file SK013 -->\n\n# Big"),
            "{}",
            &text[..200]
        );
        assert!(run.left_as_they_were.is_empty());
        assert_eq!((run.comments, run.silenced), (1, 1));
        assert!(after.diagnostics.is_empty(), "{:?}", after.diagnostics);
    }

    #[test]
    fn nothing_to_comment_changes_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (_, run) = add_noqa(&options(dir.path())).expect("lints");
        assert_eq!(run.comments, 0);
    }
}
