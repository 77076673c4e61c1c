//! The tool-surface lock: `skilllint lock` pins every tool the run reads (its file, name, effect,
//! capabilities, gates, and a SHA-256 fingerprint of its description and input schema) in
//! `skilllint.lock` at the lint root, and a lint that finds that file reports how the tools drifted
//! from it (the LK family, [`drift`]). The lock is repository data like the configuration: read
//! by the walk inside the root and under its size cap, and trusted for nothing but the LK
//! findings: it silences no other rule.
//!
//! A product above the engine: it drives the engine through the inventory's unit hook
//! ([`crate::inventory`]) and never the other way round.

pub mod drift;

pub use drift::lint;

use crate::inventory::{Inventory, Row};
use crate::source::Span;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

pub use crate::discover::LOCK_FILE_NAME;

/// The version this build writes and reads.
pub const LOCK_VERSION: i64 = 1;

/// One tool as the lock pins it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Locked {
    /// The tools file, relative to the lint root, `/`-separated.
    pub path: String,
    pub name: String,
    /// `read`, `write`, `delete`… (`Effect::as_str`).
    pub effect: String,
    pub capabilities: Vec<String>,
    /// The gates in front of it, one line each as `skilllint tools` prints them (confirmation,
    /// hints, gate parameters, a contract's approval, the grants that pre-approve it).
    pub gates: Vec<String>,
    /// `sha256:<hex>` of the description as written; absent when the tool has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `sha256:<hex>` of the input schema (keys sorted, no spaces); absent when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
}

impl Locked {
    pub fn of_row(row: &Row) -> Locked {
        Locked {
            path: row.path.clone(),
            name: row.name.clone(),
            effect: row.effect.as_str().to_string(),
            capabilities: row
                .capabilities
                .iter()
                .map(|c| c.as_str().to_string())
                .collect(),
            gates: row.gates.lines(),
            description: row.description.as_deref().map(fingerprint),
            // serde_json's maps are sorted by key (no `preserve_order` in this build), so the
            // text of a schema does not depend on the order its file wrote the keys in.
            schema: row.schema.as_ref().map(|s| fingerprint(&s.to_string())),
        }
    }

    fn key(&self) -> (&str, &str) {
        (&self.path, &self.name)
    }
}

/// `sha256:` and the hex digest of `text`.
pub fn fingerprint(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in digest {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// The lock of an inventory: its tools sorted by file and name, one entry per (file, name) (a
/// second tool of the same name in the same file is left to TJ004 and not pinned twice).
pub fn entries(inventory: &Inventory) -> Vec<Locked> {
    let mut by_key: BTreeMap<(String, String), Locked> = BTreeMap::new();
    for row in &inventory.rows {
        by_key
            .entry((row.path.clone(), row.name.clone()))
            .or_insert_with(|| Locked::of_row(row));
    }
    by_key.into_values().collect()
}

#[derive(Serialize)]
struct LockText<'a> {
    version: i64,
    tool: &'a [Locked],
}

/// The text of `skilllint.lock` for these entries: a header comment, then TOML, one `[[tool]]`
/// table per tool in the order given.
pub fn render(entries: &[Locked]) -> String {
    let header = "# skilllint.lock: the tool surface this repository ships, pinned by `skilllint lock`.\n\
                  # A lint reports a tool that differs from its entry (LK001), one not pinned here\n\
                  # (LK002) and an entry whose tool is gone (LK003). Review a change, then run\n\
                  # `skilllint lock` again and commit this file with it.\n\n";
    let body = toml::to_string(&LockText {
        version: LOCK_VERSION,
        tool: entries,
    })
    // Strings, string arrays and integers always serialize; keep the header alone otherwise.
    .unwrap_or_default();
    format!("{header}{body}")
}

/// One entry of a lock as read, with where its name is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadEntry {
    pub locked: Locked,
    /// The `name` value's span in the lock file.
    pub name_span: Span,
}

/// Why a lock file cannot be compared with: the message and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockError {
    pub message: String,
    pub span: Span,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LockIn {
    version: toml::Spanned<i64>,
    #[serde(default)]
    tool: Vec<LockedIn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LockedIn {
    path: String,
    name: toml::Spanned<String>,
    effect: String,
    #[serde(default)]
    capabilities: Vec<String>,
    #[serde(default)]
    gates: Vec<String>,
    description: Option<String>,
    schema: Option<String>,
}

/// Reads a lock's text. Entries pinning the same (file, name) twice keep the first.
pub fn read(text: &str) -> Result<Vec<ReadEntry>, LockError> {
    let lock: LockIn = toml::from_str(text).map_err(|error| LockError {
        message: format!("not a valid lock: {}", first_line(error.message())),
        span: error
            .span()
            .map_or(Span::empty(0), |r| Span::new(r.start, r.end)),
    })?;
    if *lock.version.get_ref() != LOCK_VERSION {
        let r = lock.version.span();
        return Err(LockError {
            message: format!(
                "lock version {} is not one this skilllint reads (it reads version {LOCK_VERSION})",
                lock.version.get_ref()
            ),
            span: Span::new(r.start, r.end),
        });
    }
    let mut seen = std::collections::HashSet::new();
    let mut entries = Vec::with_capacity(lock.tool.len());
    for entry in lock.tool {
        let r = entry.name.span();
        let locked = Locked {
            path: entry.path,
            name: entry.name.into_inner(),
            effect: entry.effect,
            capabilities: entry.capabilities,
            gates: entry.gates,
            description: entry.description,
            schema: entry.schema,
        };
        if seen.insert((locked.path.clone(), locked.name.clone())) {
            entries.push(ReadEntry {
                locked,
                name_span: Span::new(r.start, r.end),
            });
        }
    }
    Ok(entries)
}

fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or(message).trim()
}

#[cfg(test)]
mod tests;

/// What `skilllint lock` wrote.
#[derive(Debug)]
pub struct Written {
    /// The lock's path as the run names it (the lint root joined with the file name).
    pub path: std::path::PathBuf,
    pub tools: usize,
    pub files: usize,
}

/// Why `skilllint lock` wrote nothing.
#[derive(Debug)]
pub enum WriteError {
    Lint(crate::engine::LintError),
    /// The lock could not be written there (a link out of the root, a folder that cannot be
    /// resolved, an I/O error).
    Io(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Lint(error) => error.fmt(f),
            WriteError::Io(message) => f.write_str(message),
        }
    }
}

/// `skilllint lock`: the inventory of `options.paths` pinned in `skilllint.lock` at the root
/// the run reads ([`crate::settings::LintOptions::root`]: the repository's, for a folder inside
/// one, since that is the lock every lint of the repository checks). The file is written as the configuration's baseline is: confined to the root (a link at
/// its name must resolve inside it), through a new temporary file renamed over the name.
pub fn write(options: &crate::settings::LintOptions) -> Result<Written, WriteError> {
    let inventory = crate::inventory::inventory(options).map_err(WriteError::Lint)?;
    let locked = entries(&inventory);
    let text = render(&locked);
    let root = options.root();
    let path = root.join(LOCK_FILE_NAME);
    let io =
        |error: std::io::Error| WriteError::Io(format!("cannot write {}: {error}", path.display()));
    // A lock is a regular file of the root: a link at its name is refused outright, wherever
    // it leads (the confined write below also refuses one leading out of the root).
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(WriteError::Io(format!(
            "cannot write {}: it is a link, and the lock is written only as a regular file of the lint root; remove the link, then run `skilllint lock` again",
            path.display()
        )));
    }
    let real_root = root.canonicalize().map_err(io)?;
    let mut file =
        crate::output_file::ReportFile::create_confined(&path, &real_root).map_err(io)?;
    file.write(text.as_bytes()).map_err(io)?;
    file.finish().map_err(io)?;
    let files: std::collections::BTreeSet<&str> = locked.iter().map(|l| l.path.as_str()).collect();
    Ok(Written {
        tools: locked.len(),
        files: files.len(),
        path,
    })
}
