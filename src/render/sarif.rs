//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning. Own serde structs (as ruff, zizmor and
//! oxc do): the subset we emit is small and the field order stays under our control.

use super::{Fingerprint, Fingerprints, Positions};
use crate::catalog::{Catalog, Category, RuleMeta};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::diagnostic::{Suppressed, SuppressedBy};
use crate::source::FileId;
use crate::source::Sources;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = "https://github.com/skilllint/skilllint";
const RULES_DOC: &str = "https://github.com/skilllint/skilllint/blob/main/docs/rules.md";
const SRCROOT: &str = "%SRCROOT%";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool<'a>,
    invocations: Vec<Invocation>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    original_uri_base_ids: BTreeMap<&'static str, ArtifactLocation>,
    results: Vec<SarifResult>,
    column_kind: &'static str,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<Rule<'a>>,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
struct MultiformatMessage<'a> {
    text: &'a str,
    markdown: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule<'a> {
    id: &'static str,
    name: &'a str,
    short_description: Message,
    full_description: Message,
    help: MultiformatMessage<'a>,
    /// Only built-in rules have a page in docs/rules.md; a policy rule's help is its `docs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    help_uri: Option<String>,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
    precision: &'static str,
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    security_severity: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    /// The folder skilllint ran in, so a viewer can tell what relative paths on the command
    /// line meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    working_directory: Option<ArtifactLocation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_configuration_notifications: Vec<Notification>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Notification {
    level: &'static str,
    message: Message,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Option::is_none")]
    descriptor: Option<DescriptorReference>,
}

#[derive(Serialize)]
struct DescriptorReference {
    id: &'static str,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Message>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<SarifSuppression>,
    /// With a baseline, on every result: `unchanged` for what it hides, `new` for the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_state: Option<&'static str>,
}

#[derive(Serialize)]
struct SarifSuppression {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    justification: Option<String>,
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// GitHub ranks security alerts by this score (0–10); only safety rules carry one.
fn security_severity(meta: &RuleMeta) -> Option<&'static str> {
    (meta.category == Category::Safety).then_some(match meta.severity {
        Severity::Error => "8.0",
        Severity::Warning => "5.0",
        Severity::Info => "2.0",
    })
}

/// The rule's section in the published rule reference (`docs/rules.md`).
pub fn help_uri(meta: &RuleMeta) -> String {
    format!(
        "{RULES_DOC}#{}-{}",
        meta.code.to_ascii_lowercase(),
        meta.name
    )
}

fn rule(meta: &RuleMeta) -> Rule<'_> {
    let mut tags = vec![meta.category.as_str()];
    if meta.category == Category::Safety {
        tags.push("security");
    }
    if meta.policy_file.is_some() {
        tags.push("policy");
    }
    Rule {
        id: meta.code,
        name: &meta.name,
        short_description: Message {
            text: meta.summary.clone(),
        },
        full_description: Message {
            text: meta.full_description(),
        },
        help: MultiformatMessage {
            text: &meta.explanation,
            markdown: &meta.explanation,
        },
        help_uri: meta.policy_file.is_none().then(|| help_uri(meta)),
        default_configuration: Configuration {
            level: level(meta.severity),
        },
        properties: RuleProperties {
            tags,
            precision: match meta.category {
                Category::Correctness | Category::Safety => "high",
                Category::Style | Category::Pedantic => "medium",
            },
            security_severity: security_severity(meta),
        },
    }
}

fn driver(catalog: &Catalog) -> Driver<'_> {
    Driver {
        name: "skilllint",
        version: env!("CARGO_PKG_VERSION"),
        semantic_version: env!("CARGO_PKG_VERSION"),
        information_uri: INFORMATION_URI,
        rules: catalog.rules.iter().map(rule).collect(),
    }
}

/// The folder `%SRCROOT%` stands for: the git work tree the lint root is in, so that code
/// scanning (which reads relative URIs against the repository root) finds the files whatever
/// folder was linted; outside a work tree, the current folder.
fn source_root(lint_root: &Path, cwd: Option<&Path>) -> Option<PathBuf> {
    let absolute = lint_root.canonicalize().ok()?;
    match absolute.ancestors().find(|dir| dir.join(".git").exists()) {
        Some(repository) => Some(repository.to_path_buf()),
        None => cwd.and_then(|cwd| cwd.canonicalize().ok()),
    }
}

/// A name or path as the operating system holds it, as bytes.
fn os_bytes(path: &Path) -> Vec<u8> {
    crate::escape::path_bytes(&crate::escape::display_path(path)).into_owned()
}

/// The lint root's path below `%SRCROOT%`, percent-encoded and `/`-terminated (empty when they
/// are the same folder); `None` when the lint root is not below it (every file then gets its
/// absolute URI).
fn root_prefix(lint_root: &Path, source_root: &Path) -> Option<String> {
    let absolute = lint_root.canonicalize().ok()?;
    let rel = absolute.strip_prefix(source_root).ok()?;
    let mut prefix = String::new();
    for component in rel.components() {
        prefix.push_str(&encode_path(&os_bytes(Path::new(component.as_os_str()))));
        prefix.push('/');
    }
    Some(prefix)
}

fn push_percent_encoded(out: &mut String, bytes: &[u8]) {
    for byte in bytes {
        let _ = write!(out, "%{byte:02X}");
    }
}

/// A file URI for `%SRCROOT%`, so viewers can resolve the relative URIs.
fn root_uri(absolute: &Path) -> String {
    let mut uri = file_uri(absolute);
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// The `file://` URI of an absolute path. Its real bytes are encoded: what a URI may not hold
/// raw (spaces, delimiters, controls, bidi controls and bytes that are not UTF-8) as `%XX`;
/// other non-ASCII letters stay as they are.
fn file_uri(absolute: &Path) -> String {
    let bytes = os_bytes(absolute);
    // Windows separators are backslashes; elsewhere a backslash is part of a name.
    #[cfg(windows)]
    let bytes: Vec<u8> = bytes
        .iter()
        .map(|&b| if b == b'\\' { b'/' } else { b })
        .collect();
    let mut encoded = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let reserved = matches!(
                c,
                ' ' | '%'
                    | '#'
                    | '?'
                    | '"'
                    | '<'
                    | '>'
                    | '\\'
                    | '^'
                    | '`'
                    | '{'
                    | '|'
                    | '}'
                    | '['
                    | ']'
            );
            if reserved || c == '\t' || crate::escape::is_unsafe_char(c) {
                push_percent_encoded(&mut encoded, c.to_string().as_bytes());
            } else {
                encoded.push(c);
            }
        }
        push_percent_encoded(&mut encoded, chunk.invalid());
    }
    if encoded.starts_with('/') {
        format!("file://{encoded}")
    } else {
        format!("file:///{encoded}")
    }
}

/// Percent-encodes what may not appear raw in a relative URI reference: every byte but the
/// unreserved ASCII characters and `/`, so the URI names the file's real bytes.
fn encode_path(path: &[u8]) -> String {
    let mut out = String::with_capacity(path.len());
    for &byte in path {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(byte))
            }
            other => push_percent_encoded(&mut out, &[other]),
        }
    }
    out
}

/// Whether a shown path is below the lint root: plain names only, no leading `/` nor `..`.
fn is_below_root(rel_path: &str) -> bool {
    Path::new(rel_path)
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
}

/// Where a file named outside the lint root (`/tmp/x/SKILL.md`, `../x/SKILL.md`) is: relative to
/// `%SRCROOT%` when it is inside it (code scanning then finds it), else its absolute `file://`
/// URI. Its folder's links and `..` are resolved, as `%SRCROOT%`'s are; the file name is kept.
fn outside_location(path: &Path, srcroot: Option<&Path>) -> ArtifactLocation {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let resolved = crate::source::folder_of(&absolute)
        .canonicalize()
        .ok()
        .zip(absolute.file_name())
        .map_or_else(|| absolute.clone(), |(folder, name)| folder.join(name));
    if let Some(rel) = srcroot.and_then(|root| resolved.strip_prefix(root).ok()) {
        let names: Vec<String> = rel
            .components()
            .map(|c| encode_path(&os_bytes(Path::new(c.as_os_str()))))
            .collect();
        if !names.is_empty() {
            return ArtifactLocation {
                uri: names.join("/"),
                uri_base_id: Some(SRCROOT),
            };
        }
    }
    ArtifactLocation {
        uri: file_uri(&resolved),
        uri_base_id: None,
    }
}

struct Builder<'a> {
    sources: Sources<'a>,
    positions: Positions<'a>,
    /// The lint root below `%SRCROOT%`.
    prefix: String,
    /// The locations of the files named outside the lint root.
    outside: HashMap<FileId, ArtifactLocation>,
}

impl Builder<'_> {
    fn artifact(&self, file: FileId) -> ArtifactLocation {
        if let Some(location) = self.outside.get(&file) {
            return location.clone();
        }
        // The shown path is the lossless escaped form: decoded to the real bytes, so that the
        // URI names the real file (`%FF`, not the escape's `%5Cxff`).
        let rel = crate::escape::path_bytes(&self.sources.file(file).rel_path);
        ArtifactLocation {
            uri: format!("{}{}", self.prefix, encode_path(&rel)),
            uri_base_id: Some(SRCROOT),
        }
    }

    fn location(&self, label: &Label, id: Option<usize>) -> Location {
        let start = self.positions.start(label.file, label.span);
        let end = self.positions.end(label.file, label.span);
        Location {
            id,
            physical_location: PhysicalLocation {
                artifact_location: self.artifact(label.file),
                region: Region {
                    start_line: start.line,
                    start_column: start.column,
                    end_line: end.line,
                    end_column: end.column,
                },
            },
            message: label
                .message
                .as_ref()
                .and_then(|m| id.map(|_| Message { text: m.clone() })),
        }
    }
}

pub fn render(
    sources: Sources<'_>,
    diagnostics: &[Diagnostic],
    catalog: &Catalog,
    suppressed: &[Suppressed],
    root: &Path,
) -> String {
    super::collect_text(|emit| render_into(sources, diagnostics, catalog, suppressed, root, emit))
}

/// Results serialized at once, in parallel: a piece of the log.
const RESULTS_PER_PIECE: usize = 512;

/// The indentation of a result in the pretty-printed log (log → runs → run → results → result),
/// and the line the results array stands on when it is empty.
const RESULT_INDENT: &str = "        ";
const EMPTY_RESULTS: &str = "\n      \"results\": []";

/// [`render`]'s text handed to `emit` in pieces as each is drawn: the log up to its results
/// array, the results a batch at a time (serialized in parallel, each indented as serde_json's
/// pretty form of the whole log would indent it), and the rest of the log; so the log is never
/// held whole.
pub fn render_into(
    sources: Sources<'_>,
    diagnostics: &[Diagnostic],
    catalog: &Catalog,
    suppressed: &[Suppressed],
    root: &Path,
    emit: &mut super::Emit<'_>,
) -> std::io::Result<()> {
    let cwd = std::env::current_dir().ok();
    let srcroot = source_root(root, cwd.as_deref());
    let prefix = srcroot.as_deref().and_then(|s| root_prefix(root, s));
    // Findings silenced in source stay in the log, marked as suppressed, so code scanning shows
    // them as dismissed instead of losing them.
    let mut all: Vec<(&Diagnostic, Option<&Suppressed>)> = diagnostics
        .iter()
        .map(|d| (d, None))
        .chain(suppressed.iter().map(|s| (&s.diagnostic, Some(s))))
        .collect();
    all.sort_by(|a, b| a.0.sort_key().cmp(&b.0.sort_key()));
    let outside = sources
        .iter()
        .filter(|(_, file)| prefix.is_none() || !is_below_root(&file.rel_path))
        .map(|(id, file)| (id, outside_location(&file.abs_path, srcroot.as_deref())))
        .collect();
    let builder = Builder {
        sources,
        positions: Positions::of(sources, all.iter().map(|(d, _)| *d)),
        prefix: prefix.unwrap_or_default(),
        outside,
    };
    // Fingerprints in log order: identical findings (same rule, file and text) are told apart
    // by their order.
    let mut seen = Fingerprints::default();
    let mut fingerprints = Vec::with_capacity(all.len());
    let mut notifications = Vec::new();
    for (d, _) in &all {
        fingerprints.push(seen.next(sources, d));
        if matches!(d.code, "SL001" | "SL900") {
            let path = sources.file(d.primary.file).rel_path.as_str();
            notifications.push(Notification {
                level: "error",
                message: Message {
                    text: format!("{path}: {}", d.message),
                },
                locations: vec![builder.location(&d.primary, None)],
                descriptor: Some(DescriptorReference { id: d.code }),
            });
        }
    }
    let result = |(d, silenced): &(&Diagnostic, Option<&Suppressed>), fingerprint: &Fingerprint| {
        let rule_index = catalog
            .rules
            .binary_search_by(|m| m.code.cmp(d.code))
            .unwrap_or(0);
        SarifResult {
            rule_id: d.code,
            rule_index,
            level: level(d.severity),
            message: Message {
                text: d.message.clone(),
            },
            locations: vec![builder.location(&d.primary, None)],
            related_locations: d
                .secondary
                .iter()
                .enumerate()
                .map(|(i, label)| builder.location(label, Some(i + 1)))
                .collect(),
            partial_fingerprints: BTreeMap::from([("skilllint/v1", fingerprint.sarif())]),
            suppressions: silenced
                .map(|s| SarifSuppression {
                    kind: match s.by {
                        SuppressedBy::Comment => "inSource",
                        SuppressedBy::Baseline => "external",
                    },
                    justification: s.justification.clone(),
                })
                .into_iter()
                .collect(),
            baseline_state: sources.baseline().map(|_| match silenced.map(|s| s.by) {
                Some(SuppressedBy::Baseline) => "unchanged",
                _ => "new",
            }),
        }
    };
    let mut original_uri_base_ids = BTreeMap::new();
    if let Some(uri) = srcroot.as_deref().map(root_uri) {
        original_uri_base_ids.insert(
            SRCROOT,
            ArtifactLocation {
                uri,
                uri_base_id: None,
            },
        );
    }
    let invocation = Invocation {
        execution_successful: true,
        working_directory: cwd.as_deref().map(|cwd| ArtifactLocation {
            uri: root_uri(cwd),
            uri_base_id: None,
        }),
        tool_execution_notifications: notifications,
        tool_configuration_notifications: Vec::new(),
    };
    let log = log(catalog, invocation, original_uri_base_ids, Vec::new());
    let batches = all
        .chunks(RESULTS_PER_PIECE)
        .zip(fingerprints.chunks(RESULTS_PER_PIECE))
        .map(|(batch, prints)| {
            batch
                .par_iter()
                .zip(prints)
                .map(|(entry, fingerprint)| {
                    serde_json::to_string_pretty(&result(entry, fingerprint))
                        .unwrap_or_else(|_| "{}".to_string())
                })
                .collect()
        });
    spliced_into(to_text(&log), batches, emit)
}

/// The pieces of a log whose results array is empty in `text`, with the results (serialized
/// pretty, a batch at a time) put in it, indented as in the pretty form of the whole log; `text`
/// alone when there are none.
#[cfg(test)]
fn spliced(text: String, batches: impl Iterator<Item = Vec<String>>) -> Vec<String> {
    super::collect_pieces(|emit| spliced_into(text, batches, emit))
}

/// [`spliced`]'s pieces handed to `emit` in turn, each batch drawn only once the one before it
/// was emitted.
fn spliced_into(
    text: String,
    batches: impl Iterator<Item = Vec<String>>,
    emit: &mut super::Emit<'_>,
) -> std::io::Result<()> {
    let Some(split) = text
        .find(EMPTY_RESULTS)
        .map(|at| at + EMPTY_RESULTS.len() - 1)
    else {
        return emit(&text);
    };
    // `[` of the empty array ends the head; `]` begins the tail. The head is emitted with the
    // first batch: without results the log is `text` as it stands.
    let (head, tail) = text.split_at(split);
    let mut head = Some(format!("{head}\n"));
    for batch in batches.filter(|batch| !batch.is_empty()) {
        let lead = if head.is_some() { "" } else { ",\n" };
        let piece = super::json_elements(lead, &batch, RESULT_INDENT);
        if let Some(head) = head.take() {
            emit(&head)?;
        }
        // serde_json leaves C1 controls and bidi overrides raw; a SARIF viewer showing a message
        // with a right-to-left override would reorder it for the reader (Trojan Source).
        emit(&crate::escape::escape_json_text(piece))?;
    }
    if head.is_some() {
        return emit(&text);
    }
    emit(&format!("\n{}{tail}", &RESULT_INDENT[2..]))
}

/// A SARIF log for a run that could not start (bad configuration, no such path): no results, the
/// reason as a configuration notification, `executionSuccessful: false`.
pub fn render_failure(catalog: &Catalog, message: &str) -> String {
    let invocation = Invocation {
        execution_successful: false,
        working_directory: None,
        tool_execution_notifications: Vec::new(),
        tool_configuration_notifications: vec![Notification {
            level: "error",
            message: Message {
                text: message.to_string(),
            },
            locations: Vec::new(),
            descriptor: None,
        }],
    };
    to_text(&log(catalog, invocation, BTreeMap::new(), Vec::new()))
}

/// The log of one run of skilllint: its rules, its invocation, its results.
fn log<'a>(
    catalog: &'a Catalog,
    invocation: Invocation,
    original_uri_base_ids: BTreeMap<&'static str, ArtifactLocation>,
    results: Vec<SarifResult>,
) -> Log<'a> {
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: driver(catalog),
            },
            invocations: vec![invocation],
            original_uri_base_ids,
            results,
            column_kind: "unicodeCodePoints",
        }],
    }
}

fn to_text(log: &Log<'_>) -> String {
    let mut text = serde_json::to_string_pretty(log).unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    // serde_json leaves C1 controls and bidi overrides raw; a SARIF viewer showing a message
    // with a right-to-left override would reorder it for the reader (Trojan Source).
    crate::escape::escape_json_text(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::stable_hash as fnv1a;

    #[test]
    fn fingerprint_hash_is_stable() {
        // Pinned: a change here changes every fingerprint users have in code scanning.
        assert_eq!(
            fnv1a(&["TJ003", "a/tools.json", "false"]),
            fnv1a(&["TJ003", "a/tools.json", "false"])
        );
        assert_eq!(format!("{:016x}", fnv1a(&[""])), "af63bd4c8601b7df");
        assert_ne!(fnv1a(&["ab", "c"]), fnv1a(&["a", "bc"]));
    }

    /// A log of `results` for the splicing test, with an invocation as a real run has one.
    fn log_of(catalog: &Catalog, results: Vec<SarifResult>) -> Log<'_> {
        let invocation = Invocation {
            execution_successful: true,
            working_directory: None,
            tool_execution_notifications: Vec::new(),
            tool_configuration_notifications: Vec::new(),
        };
        log(catalog, invocation, BTreeMap::new(), results)
    }

    fn result_of(i: usize) -> SarifResult {
        SarifResult {
            rule_id: "SK001",
            rule_index: i % 3,
            level: "error",
            message: Message {
                text: format!("finding {i}: \"quoted\"\nnext \u{202e} line"),
            },
            locations: Vec::new(),
            related_locations: Vec::new(),
            partial_fingerprints: BTreeMap::from([("skilllint/v1", format!("{i:016x}:1"))]),
            suppressions: Vec::new(),
            baseline_state: (i % 2 == 0).then_some("new"),
        }
    }

    #[test]
    fn spliced_results_read_as_the_pretty_form_of_the_whole_log() {
        let catalog = crate::catalog::catalog();
        let count = 7;
        let expected = to_text(&log_of(catalog, (0..count).map(result_of).collect()));
        let items: Vec<String> = (0..count)
            .map(|i| serde_json::to_string_pretty(&result_of(i)).unwrap_or_default())
            .collect();
        // In batches of three, with an empty batch among them.
        let mut batches: Vec<Vec<String>> = items.chunks(3).map(<[String]>::to_vec).collect();
        batches.insert(1, Vec::new());
        let pieces = spliced(to_text(&log_of(catalog, Vec::new())), batches.into_iter());
        assert_eq!(pieces.len(), 5);
        assert_eq!(pieces.concat(), expected);
        // No results: the log as it is.
        let empty = to_text(&log_of(catalog, Vec::new()));
        assert_eq!(spliced(empty.clone(), std::iter::empty()), vec![empty]);
    }

    #[test]
    fn paths_are_percent_encoded() {
        assert_eq!(encode_path("a b/ç.md".as_bytes()), "a%20b/%C3%A7.md");
        assert_eq!(encode_path(b"b\xffd\\"), "b%FFd%5C");
    }
}
