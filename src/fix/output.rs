//! What `--diff` prints: the unified diffs and git rename headers of a fix run, and the line on
//! stderr that sums it up. Text only; nothing here reads or writes a file.

use super::FixRun;
use crate::english::plural;
use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

/// What `--diff` prints for a run: a unified diff per changed file, sorted by relative path,
/// then each rename (SK012) in git's rename form, with the file's edits if it has any, so that
/// `git apply` takes the whole patch.
pub fn diff(run: &FixRun) -> String {
    let rel = |path: &std::path::Path| {
        run.rel_paths
            .get(path)
            .cloned()
            .unwrap_or_else(|| path.display().to_string())
    };
    let renamed: HashSet<&PathBuf> = run.renames.iter().map(|(from, _)| from).collect();
    let mut changes: Vec<(String, &(String, String))> = run
        .changed
        .iter()
        .filter(|(p, _)| !renamed.contains(p))
        .map(|(p, c)| (rel(p), c))
        .collect();
    changes.sort_by(|a, b| a.0.cmp(&b.0));
    let mut diff = String::new();
    for (path, (original, fixed)) in changes {
        diff.push_str(&unified_diff(&path, original, fixed));
    }
    for (from, to) in &run.renames {
        let from_rel = rel(from);
        let to_name = to
            .file_name()
            .map(|n| crate::escape::display_path(std::path::Path::new(n)).into_owned())
            .unwrap_or_default();
        let to_rel = match from_rel.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/{to_name}"),
            None => to_name,
        };
        diff.push_str(&rename_diff(&from_rel, &to_rel, run.changed.get(from)));
    }
    diff
}

/// The stderr line after `--diff`, e.g. `2 findings would be fixed (edits in 1 file).`, and
/// when `unsafe_not_shown` findings have an unsafe fix the diff leaves out (no
/// `--unsafe-fixes`), how many: `… (edits in 1 file); 1 more with an unsafe fix not shown
/// (`--diff --unsafe-fixes` shows it).`
pub fn diff_summary(run: &FixRun, unsafe_not_shown: usize) -> String {
    let shown = format!(
        "{} would be fixed ({} in {})",
        plural(run.fixed, "finding"),
        if run.renames.is_empty() {
            "edits"
        } else {
            "edits and renames"
        },
        plural(touched_files(run), "file")
    );
    match unsafe_not_shown {
        0 => format!("{shown}."),
        1 => format!(
            "{shown}; 1 more with an unsafe fix not shown (`--diff --unsafe-fixes` shows it)."
        ),
        n => format!(
            "{shown}; {n} more with an unsafe fix not shown (`--diff --unsafe-fixes` shows them)."
        ),
    }
}

/// Files the fix run edits or renames.
fn touched_files(run: &FixRun) -> usize {
    run.changed
        .keys()
        .chain(run.renames.iter().map(|(from, _)| from))
        .collect::<BTreeSet<_>>()
        .len()
}

/// A unified diff of one file's change, with paths relative to the lint root.
pub fn unified_diff(rel_path: &str, original: &str, fixed: &str) -> String {
    similar::TextDiff::from_lines(original, fixed)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{rel_path}"), &format!("b/{rel_path}"))
        .to_string()
}

/// One rename in git's extended header form (`diff --git`, `similarity index`, `rename from`,
/// `rename to`), followed by the hunks when the renamed file's text changes too.
fn rename_diff(from: &str, to: &str, change: Option<&(String, String)>) -> String {
    let mut out = format!(
        "diff --git {} {}\n",
        git_path("a/", from),
        git_path("b/", to)
    );
    let lines = change.map(|(original, fixed)| similar::TextDiff::from_lines(original, fixed));
    // git's index is the share of the file kept: a whole percent, 100 only when nothing changes.
    let similarity = lines.as_ref().map_or(100, |d| {
        ((f64::from(d.ratio()) * 100.0).floor() as u32).min(99)
    });
    out.push_str(&format!(
        "similarity index {similarity}%\nrename from {}\nrename to {}\n",
        git_path("", from),
        git_path("", to)
    ));
    if let Some(lines) = &lines {
        out.push_str(
            &lines
                .unified_diff()
                .context_radius(3)
                .header(&git_path("a/", from), &git_path("b/", to))
                .to_string(),
        );
    }
    out
}

/// A path as git writes it in a patch: `prefix` and the real bytes of the shown path `rel`,
/// C-quoted (`"a/tab\011here"`) when a byte could not stand raw: a quote, a backslash, a
/// control or bidi character, or a byte that is not UTF-8.
fn git_path(prefix: &str, rel: &str) -> String {
    let bytes = crate::escape::path_bytes(rel);
    let mut quoted = String::with_capacity(prefix.len() + bytes.len() + 2);
    let mut needs_quotes = false;
    let octal = |out: &mut String, raw: &[u8]| {
        for byte in raw {
            out.push_str(&format!("\\{byte:03o}"));
        }
    };
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' | '\\' => {
                    needs_quotes = true;
                    quoted.push('\\');
                    quoted.push(c);
                }
                _ if crate::escape::is_unsafe_char(c) || c == '\t' => {
                    needs_quotes = true;
                    octal(&mut quoted, c.to_string().as_bytes());
                }
                _ => quoted.push(c),
            }
        }
        if !chunk.invalid().is_empty() {
            needs_quotes = true;
            octal(&mut quoted, chunk.invalid());
        }
    }
    if needs_quotes {
        format!("\"{prefix}{quoted}\"")
    } else {
        format!("{prefix}{quoted}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_paths_are_quoted_as_git_quotes_them() {
        assert_eq!(git_path("a/", "forms/skill.md"), "a/forms/skill.md");
        assert_eq!(
            git_path("b/", "réservations/SKILL.md"),
            "b/réservations/SKILL.md"
        );
        // The shown form's escapes stand for real bytes; git writes those in octal.
        assert_eq!(
            git_path("a/", r"x\u{1b}\xff/skill.md"),
            r#""a/x\033\377/skill.md""#
        );
        assert_eq!(git_path("", r#"q"u\\o/skill.md"#), r#""q\"u\\o/skill.md""#);
    }
}
