//! The baseline: a file of findings a team has accepted for now, so that skilllint can gate CI
//! on an existing repository from the first day and report only what is new. It is a
//! suppression kept in a file instead of in a comment: it runs after the rules and the inline
//! suppressions, and no rule knows about it.
//!
//! An entry names a rule, a file (relative to the baseline file's folder, so the same file
//! serves every working folder) and the finding's content: a fingerprint of the flagged text
//! (whitespace folded) and the message. Line numbers are left out on purpose, so that an entry
//! survives lines added above its finding and edits elsewhere in the file. An entry may carry a
//! `reason`, an `owner` and an `expires` date; after that date it hides nothing and is itself
//! reported (SL020), and an entry that matches no finding of a rule that ran is reported as stale
//! (SL021). `--write-baseline` rewrites the file from the run's findings, keeping the notes of the
//! entries that still match and dropping the stale ones. The format is described by
//! `docs/baseline.schema.json`.

use crate::catalog::Catalog;
use crate::diagnostic::{
    flagged_text, stable_hash, Diagnostic, LeftOut, Severity, Suppressed, SuppressedBy,
};
use crate::file_error::FileError;
use crate::parse::json::parse_json_document;
use crate::parse::node::{Node, Value};
use crate::sink::Sink;
use crate::source::{absolute_in, FileId, SourceFile, Sources, Span};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};

/// The `$schema` a written baseline names, so editors check it as it is edited.
pub const SCHEMA_URL: &str =
    "https://raw.githubusercontent.com/skilllint/skilllint/main/docs/baseline.schema.json";

/// The version of the file format this build reads and writes.
pub const FORMAT_VERSION: u64 = 1;

/// Codes a baseline never records: its own findings, and internal errors (a crashing rule is a
/// bug to report, not debt to accept).
const NEVER_RECORDED: &[&str] = &["SL020", "SL021", "SL900"];

/// A calendar date (UTC), as `expires` holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

impl Date {
    /// `YYYY-MM-DD`, a real date; nothing else.
    pub fn parse(text: &str) -> Option<Date> {
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let number = |range: std::ops::Range<usize>| -> Option<u32> {
            let part = text.get(range)?;
            if part.bytes().all(|b| b.is_ascii_digit()) {
                part.parse().ok()
            } else {
                None
            }
        };
        let date = Date {
            year: i32::try_from(number(0..4)?).ok()?,
            month: number(5..7)?,
            day: number(8..10)?,
        };
        let valid = (1..=12).contains(&date.month)
            && date.day >= 1
            && date.day <= days_in_month(date.year, date.month);
        valid.then_some(date)
    }

    /// Today in UTC, from the system clock.
    pub fn today() -> Date {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Date::from_days_since_epoch((seconds / 86_400) as i64)
    }

    /// The civil date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    pub fn from_days_since_epoch(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z.rem_euclid(146_097);
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let mp = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (year_of_era + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// One accepted finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// A rule code (a name in the file is read as its code).
    pub rule: String,
    /// The file, relative to the baseline file's folder, `/`-separated.
    pub path: String,
    pub fingerprint: Option<String>,
    pub message: Option<String>,
    pub reason: Option<String>,
    pub owner: Option<String>,
    pub expires: Option<Date>,
    /// The entry's object in the baseline file.
    pub span: Span,
    /// Its `rule` value, where SL021 points.
    pub rule_span: Span,
    /// Its `expires` value, where SL020 points.
    pub expires_span: Option<Span>,
}

/// A baseline file, read and checked.
#[derive(Debug, Clone)]
pub struct Baseline {
    /// The file as it was named (`--baseline FILE`, or the config's value joined to its folder).
    pub path: PathBuf,
    /// The absolute folder entry paths are relative to.
    pub folder: PathBuf,
    pub text: String,
    pub entries: Vec<Entry>,
    /// The day expiry dates are compared with (today, unless a test says otherwise).
    pub today: Date,
}

/// What a baseline did to a run.
#[derive(Debug, Clone)]
pub struct BaselineRun {
    /// The baseline file, as the run's last source (its id is the repository's file count).
    pub file: SourceFile,
    /// Findings it hid.
    pub hidden: usize,
    /// Entries past their date (each an SL020 finding, and its finding shown again).
    pub expired: usize,
    /// Entries that matched nothing (each an SL021 finding).
    pub stale: usize,
}

impl Baseline {
    /// An empty baseline at `path` (for `--write-baseline` when the file does not exist yet).
    pub fn empty(path: &Path, cwd: &Path) -> Baseline {
        Baseline {
            path: path.to_path_buf(),
            folder: absolute_in(cwd, crate::source::folder_of(path)),
            text: String::new(),
            entries: Vec::new(),
            today: Date::today(),
        }
    }

    /// Reads the baseline file at `path` (at most `max_size` bytes, a regular file).
    pub fn load(
        path: &Path,
        cwd: &Path,
        max_size: u64,
        catalog: &Catalog,
    ) -> Result<Baseline, FileError> {
        use crate::read::{read_regular_bounded, Refused};
        let fail = |message: String| FileError {
            path: path.to_path_buf(),
            span: None,
            quote: None,
            message,
        };
        let bytes = read_regular_bounded(path, max_size).map_err(|refused| {
            fail(match refused {
                Refused::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    "the baseline file does not exist; create it with `skilllint --write-baseline FILE`".to_string()
                }
                Refused::Io(e) => format!("cannot read the baseline: {e}"),
                Refused::NotRegular => "the baseline is not a regular file (a FIFO, socket or device); it was not read".to_string(),
                Refused::TooLarge(_) => format!(
                    "the baseline is over the {max_size} byte size limit; it was not read (--max-file-size sets the limit)"
                ),
            })
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            fail(format!(
                "the baseline is not valid UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        Baseline::from_text(path, cwd, text, catalog)
    }

    /// The baseline whose file at `path` holds `text` (nothing is read from disk).
    pub fn from_text(
        path: &Path,
        cwd: &Path,
        text: String,
        catalog: &Catalog,
    ) -> Result<Baseline, FileError> {
        let entries = parse_entries(&text, path, catalog)?;
        Ok(Baseline {
            path: path.to_path_buf(),
            folder: absolute_in(cwd, crate::source::folder_of(path)),
            text,
            entries,
            today: Date::today(),
        })
    }

    /// The path of a run's file as an entry names it: relative to the baseline's folder.
    fn entry_path(&self, cwd: &Path, file: &SourceFile) -> String {
        relative_between(&self.folder, &absolute_in(cwd, &file.abs_path))
    }
}

/// `to` (absolute) relative to the folder `from` (absolute), with `..` where it is not below it;
/// names in the escaped form reports use.
fn relative_between(from: &Path, to: &Path) -> String {
    let from: Vec<Component<'_>> = from.components().collect();
    let to_parts: Vec<Component<'_>> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    // Nothing in common (another drive on Windows): the absolute path.
    if common == 0 {
        return crate::escape::display_path(to).into_owned();
    }
    let mut rel = PathBuf::new();
    for _ in common..from.len() {
        rel.push("..");
    }
    for part in &to_parts[common..] {
        rel.push(part.as_os_str());
    }
    crate::discover::relative_path(Path::new(""), &rel)
}

/// The fingerprint of a finding: its rule and the text it flags, whitespace folded. Not its
/// line, nor its file (an entry names the file beside it).
pub fn fingerprint(code: &str, text: &str, span: Span) -> String {
    format!("{:016x}", stable_hash(&[code, &flagged_text(text, span)]))
}

/// Reads the entries of a baseline's text: an array of entries, or an object with `entries`
/// (and optionally `$schema` and `version`).
pub(crate) fn parse_entries(
    text: &str,
    path: &Path,
    catalog: &Catalog,
) -> Result<Vec<Entry>, FileError> {
    let error =
        |span: Span, message: String| FileError::located(path, text, span.start..span.end, message);
    let document = parse_json_document(text).map_err(|e| {
        error(
            e.span,
            format!("the baseline is not valid JSON: {}", e.message),
        )
    })?;
    if let Some(duplicate) = document.duplicate_keys.first() {
        return Err(error(
            duplicate.duplicate,
            format!("duplicate key `{}`", duplicate.key),
        ));
    }
    let root = &document.root;
    let list = match &root.value {
        Value::Array(items) => items.as_slice(),
        Value::Object(members) => {
            let mut entries = None;
            for member in members {
                match member.key.as_str() {
                    "$schema" if member.value.as_str().is_some() => {}
                    "$schema" => return Err(error(member.value.span, "`$schema` must be a string".to_string())),
                    "version" => {
                        let is_one = matches!(&member.value.value, Value::Number(n) if n.integer && n.value == FORMAT_VERSION as f64);
                        if !is_one {
                            return Err(error(
                                member.value.span,
                                format!("this skilllint reads baseline version {FORMAT_VERSION}"),
                            ));
                        }
                    }
                    "entries" => match member.value.as_array() {
                        Some(items) => entries = Some(items),
                        None => return Err(error(member.value.span, "`entries` must be an array of entries".to_string())),
                    },
                    other => {
                        return Err(error(
                            member.key_span,
                            format!("unknown key `{other}` (a baseline holds `$schema`, `version` and `entries`)"),
                        ))
                    }
                }
            }
            entries.ok_or_else(|| {
                error(
                    root.span,
                    "the baseline object has no `entries` array".to_string(),
                )
            })?
        }
        _ => {
            return Err(error(
                root.span,
                "a baseline is an array of entries, or an object with an `entries` array"
                    .to_string(),
            ))
        }
    };
    list.iter()
        .map(|node| parse_entry(node, catalog, &error))
        .collect()
}

fn parse_entry(
    node: &Node,
    catalog: &Catalog,
    error: &dyn Fn(Span, String) -> FileError,
) -> Result<Entry, FileError> {
    let Some(members) = node.as_object() else {
        return Err(error(
            node.span,
            "an entry is an object with `rule`, `path` and `fingerprint`".to_string(),
        ));
    };
    let mut entry = Entry {
        rule: String::new(),
        path: String::new(),
        fingerprint: None,
        message: None,
        reason: None,
        owner: None,
        expires: None,
        span: node.span,
        rule_span: node.span,
        expires_span: None,
    };
    let (mut rule, mut path) = (None, None);
    for member in members {
        let string = || {
            member.value.as_str().map(str::to_string).ok_or_else(|| {
                error(
                    member.value.span,
                    format!("`{}` must be a string", member.key),
                )
            })
        };
        match member.key.as_str() {
            "rule" => {
                rule = Some(string()?);
                entry.rule_span = member.value.span;
            }
            "path" => path = Some(string()?),
            "fingerprint" => entry.fingerprint = Some(string()?),
            "message" => entry.message = Some(string()?),
            "reason" => entry.reason = Some(string()?),
            "owner" => entry.owner = Some(string()?),
            "expires" => {
                let text = string()?;
                entry.expires = Some(Date::parse(&text).ok_or_else(|| {
                    error(member.value.span, "`expires` must be a date written YYYY-MM-DD".to_string())
                })?);
                entry.expires_span = Some(member.value.span);
            }
            other => {
                return Err(error(
                    member.key_span,
                    format!("unknown key `{other}` in a baseline entry (expected rule, path, fingerprint, message, reason, owner, expires)"),
                ))
            }
        }
    }
    let (Some(rule), Some(path)) = (rule, path) else {
        return Err(error(
            node.span,
            "an entry needs `rule` and `path`".to_string(),
        ));
    };
    if entry.fingerprint.is_none() && entry.message.is_none() {
        return Err(error(
            node.span,
            "an entry needs a `fingerprint` or a `message` to match its finding by".to_string(),
        ));
    }
    // A rule a later release removed stays as written: it matches nothing and is reported stale.
    entry.rule = catalog
        .find(&rule)
        .map_or(rule, |meta| meta.code.to_string());
    entry.path = path;
    Ok(entry)
}

/// What identifies a finding to the baseline.
struct Key<'a> {
    rule: &'a str,
    path: String,
    fingerprint: String,
    message: &'a str,
    /// A count of findings left out past the per-file cap: its fingerprint stands for those
    /// findings ([`left_out_fingerprint`]), and it matches an entry by that alone, never by its
    /// message (which says only how many).
    counts_left_out: bool,
}

fn key<'a>(
    d: &'a Diagnostic,
    sources: Sources<'a>,
    baseline: &Baseline,
    cwd: &Path,
    paths: &mut HashMap<FileId, String>,
) -> Key<'a> {
    let path = paths
        .entry(d.primary.file)
        .or_insert_with(|| baseline.entry_path(cwd, sources.file(d.primary.file)))
        .clone();
    let text = sources.text(d.primary.file);
    let fingerprint = match &d.left_out {
        Some(left_out) => left_out_fingerprint(d.code, text, left_out),
        None => fingerprint(d.code, text, d.primary.span),
    };
    Key {
        rule: d.code,
        path,
        fingerprint,
        message: &d.message,
        counts_left_out: d.left_out.is_some(),
    }
}

/// How much of each left-out finding's flagged text [`left_out_fingerprint`] reads: a hostile
/// rule run can leave out hundreds of thousands of findings whose spans overlap, and reading
/// each whole would cost their lengths' sum.
const LEFT_OUT_TEXT_BYTES: usize = 256;

/// The fingerprint of a count of left-out findings: a hash of the findings it stands for, each
/// by its flagged text (whitespace folded, at most [`LEFT_OUT_TEXT_BYTES`] of it) and message,
/// taken as a set (in no order, so lines added above move nothing). One finding more, fewer or
/// different past the cap makes another fingerprint: an entry for the count hides exactly the
/// findings that were there when it was written.
fn left_out_fingerprint(code: &str, text: &str, left_out: &LeftOut) -> String {
    // FNV-1a as `stable_hash` computes it, fed piece by piece: a count can stand for hundreds of
    // thousands of findings, and a string built for each would cost more than the lint.
    fn feed(hash: u64, bytes: &[u8]) -> u64 {
        bytes.iter().fold(hash, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }
    const START: u64 = 0xcbf2_9ce4_8422_2325;
    let mut each: Vec<u64> = left_out
        .findings
        .iter()
        .map(|(span, message)| {
            let end = span.end.min(span.start.saturating_add(LEFT_OUT_TEXT_BYTES));
            let flagged = crate::source::slice(text, Span::new(span.start, end.max(span.start)));
            let mut hash = START;
            // The flagged text with its whitespace folded, as `flagged_text` folds it.
            for (index, word) in flagged.split_whitespace().enumerate() {
                if index > 0 {
                    hash = feed(hash, b" ");
                }
                hash = feed(hash, word.as_bytes());
            }
            feed(feed(hash, &[0]), &message.to_le_bytes())
        })
        .collect();
    each.sort_unstable();
    let mut hash = feed(feed(START, code.as_bytes()), b"\0left out\0");
    for one in each {
        hash = feed(hash, &one.to_le_bytes());
    }
    format!("{hash:016x}")
}

/// `text` with each run of digits written as `#`.
fn without_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            out.push(c);
            in_number = false;
        }
    }
    out
}

/// The entry each finding matches, each entry used at most once. Within one rule and file, a
/// finding takes an entry with its fingerprint and message, then one with its fingerprint (the
/// message was reworded), then one with its message (the flagged text was edited), then one with
/// its message but for the numbers in it (a count that moved): moved lines change none of these
/// for a finding about a line, and a new finding differs in both its text and its message. A
/// count of left-out findings matches by its fingerprint alone.
fn match_entries(keys: &[Key<'_>], entries: &[Entry]) -> Vec<Option<usize>> {
    match_entries_counting(keys, entries, &mut 0)
}

/// [`match_entries`], adding to `steps` the entries it looks at. Each pass files the entries by
/// what that pass compares (an entry in one list per pass), and a finding takes the first unused
/// entry of its list: the same entry a search of the rule and file's entries in order would
/// find, in time linear in the entries and findings (a search per finding was their product: a
/// 4 MB baseline against a file of a thousand findings ran for minutes).
fn match_entries_counting(
    keys: &[Key<'_>],
    entries: &[Entry],
    steps: &mut usize,
) -> Vec<Option<usize>> {
    let mut used = vec![false; entries.len()];
    let mut matched = vec![None; keys.len()];
    // Pass 1: fingerprint and message.
    take_pass(
        keys,
        entries,
        (&mut used, &mut matched, steps),
        |e| Some((e.fingerprint.as_deref()?, e.message.as_deref()?)),
        |k| Some((k.fingerprint.as_str(), k.message)),
    );
    // Pass 2: fingerprint (the message was reworded).
    take_pass(
        keys,
        entries,
        (&mut used, &mut matched, steps),
        |e| e.fingerprint.as_deref(),
        |k| Some(k.fingerprint.as_str()),
    );
    // Pass 3: message (the flagged text was edited).
    take_pass(
        keys,
        entries,
        (&mut used, &mut matched, steps),
        |e| e.message.as_deref(),
        |k| (!k.counts_left_out).then_some(k.message),
    );
    // Pass 4: a measure of the file (`skill body is 679 lines`) changes with every line added:
    // the same message but for its numbers is the same finding.
    take_pass(
        keys,
        entries,
        (&mut used, &mut matched, steps),
        |e| e.message.as_deref().map(without_numbers),
        |k| (!k.counts_left_out).then(|| without_numbers(k.message)),
    );
    matched
}

/// One pass of [`match_entries_counting`]: each finding not yet matched takes the first unused
/// entry of its rule and file whose `entry_key` is its `finding_key` (`None`: the pass does not
/// apply). `state` is the entries used, the findings matched and the steps counted.
fn take_pass<'a, K: std::hash::Hash + Eq>(
    keys: &'a [Key<'a>],
    entries: &'a [Entry],
    state: (&mut [bool], &mut [Option<usize>], &mut usize),
    entry_key: impl Fn(&'a Entry) -> Option<K>,
    finding_key: impl Fn(&'a Key<'a>) -> Option<K>,
) {
    let (used, matched, steps) = state;
    if matched.iter().all(Option::is_some) {
        return;
    }
    // Each list in entry order, with how far its used entries at the front reach.
    let mut lists: HashMap<(&str, &str, K), (usize, Vec<usize>)> = HashMap::new();
    for (index, entry) in entries.iter().enumerate() {
        if used[index] {
            continue;
        }
        *steps += 1;
        if let Some(compared) = entry_key(entry) {
            lists
                .entry((entry.rule.as_str(), entry.path.as_str(), compared))
                .or_default()
                .1
                .push(index);
        }
    }
    for (finding, key) in keys.iter().enumerate() {
        if matched[finding].is_some() {
            continue;
        }
        let Some(compared) = finding_key(key) else {
            continue;
        };
        let Some((next, list)) = lists.get_mut(&(key.rule, key.path.as_str(), compared)) else {
            continue;
        };
        if let Some(&index) = list.get(*next) {
            *steps += 1;
            *next += 1;
            used[index] = true;
            matched[finding] = Some(index);
        }
    }
}

/// What the run knows that decides whether an unmatched entry is stale.
pub struct Scope<'a> {
    /// Whether the rule ran and reports in the file (`None`: the file is not in the run).
    pub reports: &'a dyn Fn(&str, Option<FileId>) -> bool,
    pub catalog: &'a Catalog,
    pub severity: &'a BTreeMap<&'static str, Severity>,
}

/// Hides the findings the baseline accepts. Returns the findings kept (with SL020 and SL021
/// appended, in the baseline file `FileId(files.len())`), the hidden ones, and the counts.
pub fn apply(
    diagnostics: Vec<Diagnostic>,
    files: &[SourceFile],
    baseline: &Baseline,
    cwd: &Path,
    scope: &Scope<'_>,
) -> (Vec<Diagnostic>, Vec<Suppressed>, BaselineRun) {
    let sources = Sources::new(files);
    let mut paths = HashMap::new();
    let keys: Vec<Key<'_>> = diagnostics
        .iter()
        .map(|d| key(d, sources, baseline, cwd, &mut paths))
        .collect();
    let matched = match_entries(&keys, &baseline.entries);
    let baseline_id = FileId(files.len() as u32);
    let mut used = vec![false; baseline.entries.len()];
    let mut expired_sink = scope.catalog.get("SL020").map(Sink::new);
    let mut stale_sink = scope.catalog.get("SL021").map(Sink::new);
    let mut hidden = Vec::new();
    let mut kept = Vec::with_capacity(diagnostics.len());
    let mut expired = 0;
    for (d, entry) in diagnostics.into_iter().zip(matched) {
        let Some(index) = entry else {
            kept.push(d);
            continue;
        };
        used[index] = true;
        let entry = &baseline.entries[index];
        match entry.expires {
            Some(date) if date < baseline.today => {
                expired += 1;
                if let Some(sink) = expired_sink
                    .as_mut()
                    .filter(|_| (scope.reports)("SL020", None))
                {
                    let owner = entry
                        .owner
                        .as_deref()
                        .map(|o| format!(" (owner: {o})"))
                        .unwrap_or_default();
                    sink.report(
                        baseline_id,
                        entry.expires_span.unwrap_or(entry.span),
                        format!(
                            "baseline entry for {} in {} expired on {date}{owner}",
                            entry.rule, entry.path
                        ),
                    )
                    .label("expired")
                    .secondary(
                        d.primary.file,
                        d.primary.span,
                        "the finding it hid, reported again",
                    )
                    .help("fix the finding, or move `expires` to a later date");
                }
                kept.push(d);
            }
            _ => hidden.push(Suppressed {
                justification: entry.reason.clone(),
                diagnostic: d,
                by: SuppressedBy::Baseline,
            }),
        }
    }
    // Files of the run by the path entries name them with.
    let in_run: HashMap<String, FileId> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (baseline.entry_path(cwd, f), FileId(i as u32)))
        .collect();
    let mut stale = 0;
    for (entry, was_used) in baseline.entries.iter().zip(used) {
        if was_used {
            continue;
        }
        let file = in_run.get(entry.path.as_str()).copied();
        // Only a rule that ran over the file can prove an entry useless; a file that is gone
        // proves it without running anything.
        let gone = file.is_none() && !entry_file_exists(&baseline.folder, &entry.path);
        if !(gone || file.is_some() && (scope.reports)(&entry.rule, file)) {
            continue;
        }
        if !(scope.reports)("SL021", None) {
            continue;
        }
        stale += 1;
        if let Some(sink) = stale_sink.as_mut() {
            let why = if gone { " (the file is gone)" } else { "" };
            sink.report(
                baseline_id,
                entry.rule_span,
                format!(
                    "baseline entry for {} in {} matches no finding{why}",
                    entry.rule, entry.path
                ),
            )
            .label("nothing to hide")
            .help("remove the entry, or rewrite the file with `skilllint --write-baseline FILE`, which drops stale entries");
        }
    }
    let mut found: Vec<Diagnostic> = [expired_sink, stale_sink]
        .into_iter()
        .flatten()
        .flat_map(Sink::finish)
        .collect();
    for d in &mut found {
        if let Some(severity) = scope.severity.get(d.code) {
            d.severity = *severity;
        }
    }
    // In the baseline file, the last of the run's files: after every other finding.
    found.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    kept.extend(found);
    let run = BaselineRun {
        file: SourceFile {
            rel_path: String::new(),
            abs_path: baseline.path.clone(),
            text: baseline.text.clone(),
        },
        hidden: hidden.len(),
        expired,
        stale,
    };
    (kept, hidden, run)
}

/// Whether an entry's file is on disk. An entry from the repository may name anything: only a
/// plain relative path below the baseline's folder is looked at, never opened.
fn entry_file_exists(folder: &Path, path: &str) -> bool {
    let plain = Path::new(path)
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::ParentDir));
    plain && std::fs::symlink_metadata(folder.join(os_path(path))).is_ok()
}

/// The real path of a `/`-separated path in the escaped form reports show.
fn os_path(form: &str) -> PathBuf {
    let bytes = crate::escape::path_bytes(form);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(&bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// One entry as written.
#[derive(Serialize)]
struct WrittenEntry<'a> {
    rule: &'a str,
    path: &'a str,
    fingerprint: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expires: Option<String>,
}

#[derive(Serialize)]
struct WrittenFile<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: u64,
    entries: Vec<WrittenEntry<'a>>,
}

/// What `--write-baseline` wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Written {
    pub entries: usize,
    /// Entries for findings the old file did not hold.
    pub added: usize,
    /// Entries of the old file that still match, notes kept.
    pub kept: usize,
    /// Entries of the old file that match nothing any more, dropped.
    pub pruned: usize,
}

/// The text of a baseline holding `findings` (every finding of a run, those the old baseline hid
/// included), sorted by path, rule, fingerprint and message so that a rewrite changes only the
/// lines of findings that came or went. Entries of `old` that still match keep their `reason`,
/// `owner` and `expires` (an expired one stays expired: rewriting does not renew it).
pub fn write(
    findings: &[&Diagnostic],
    sources: Sources<'_>,
    old: &Baseline,
    cwd: &Path,
) -> (String, Written) {
    let findings: Vec<&Diagnostic> = findings
        .iter()
        .copied()
        .filter(|d| !NEVER_RECORDED.contains(&d.code))
        .collect();
    let mut paths = HashMap::new();
    let keys: Vec<Key<'_>> = findings
        .iter()
        .map(|d| key(d, sources, old, cwd, &mut paths))
        .collect();
    let matched = match_entries(&keys, &old.entries);
    let mut written = Written::default();
    let mut entries: Vec<WrittenEntry<'_>> = keys
        .iter()
        .zip(&matched)
        .map(|(key, entry)| {
            let entry = entry.map(|index| &old.entries[index]);
            if entry.is_some() {
                written.kept += 1;
            } else {
                written.added += 1;
            }
            WrittenEntry {
                rule: key.rule,
                path: &key.path,
                fingerprint: &key.fingerprint,
                message: key.message,
                reason: entry.and_then(|e| e.reason.as_deref()),
                owner: entry.and_then(|e| e.owner.as_deref()),
                expires: entry.and_then(|e| e.expires).map(|d| d.to_string()),
            }
        })
        .collect();
    entries.sort_by(|a, b| {
        (a.path, a.rule, a.fingerprint, a.message).cmp(&(b.path, b.rule, b.fingerprint, b.message))
    });
    written.entries = entries.len();
    written.pruned = old.entries.len() - written.kept;
    let file = WrittenFile {
        schema: SCHEMA_URL,
        version: FORMAT_VERSION,
        entries,
    };
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_else(|_| "[]".to_string());
    text.push('\n');
    (crate::escape::escape_json_text(text), written)
}

#[cfg(test)]
mod tests;
