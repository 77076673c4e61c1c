//! Text aimed at the model: the cues of tool poisoning and prompt injection in everything an agent
//! reads as instructions (SKILL.md, TOOL.md, commands, agents, `AGENTS.md`/`CLAUDE.md`, a skill's
//! reference files, and every description of every tool). Found once per unit; the PI rules
//! report them.
//!
//! Where a cue sits decides what it is:
//! - in plain prose (paragraphs, list items, headings, frontmatter) of agent-read Markdown, and
//!   in a tool's own description, it is an instruction;
//! - quoted in Markdown (a fenced code block, a blockquote, inline code, or words between
//!   quotation marks) it is a mention, an example of what to look for, and is not reported —
//!   except a download run by a shell, which is how commands are written, unless the document
//!   is about attacks (its prose names injections, attacks, payloads, exploits…); quoted in a
//!   description about attacks, likewise a mention;
//! - negated ("never ignore previous instructions", "do not upload .env without telling the
//!   user") it is a rule against the attack, not the attack;
//! - inside an HTML comment (invisible once rendered), a parameter description (read by the
//!   model, rarely shown to the user) or text spelled or split by invisible characters, it is
//!   the same cue on a hidden channel.
//!
//! Every check starts from a multi-pattern search for trigger words ([`anchors`]): most text has
//! none, and the rest is read only in the sentences around a trigger, so the work is linear in the
//! text.

use crate::index::UnitView;
use crate::model::tools::Tool;
use crate::parse::node::{Node, Value};
use crate::semantic::invisible::{hidden_name, hidden_runs, smuggled_text};
use crate::source::{FileId, Span};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::Regex;
use std::borrow::Cow;
use std::sync::{LazyLock, OnceLock};

/// What a piece of text tells the model to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cue {
    /// A pseudo-system or priority tag: `<IMPORTANT>`, `<system>`, `[INST]`.
    HiddenTag,
    /// Keep something from the user: "do not tell the user", "without letting the user know".
    Concealment,
    /// Drop the instructions the model already has: "ignore previous instructions".
    Override,
    /// Read something sensitive and send it somewhere: `~/.ssh/id_rsa` into a parameter.
    Exfiltration,
    /// A tool's description giving rules for another tool or for every tool.
    Shadowing,
    /// Coercive tool selection: all-caps MUST/ALWAYS/NEVER blocks, "use this tool instead of".
    Steering,
    /// A download run by a shell: `curl … | sh`, `iex (iwr …)`.
    RemoteCode,
}

impl Cue {
    /// What the cue is, for a message.
    pub fn what(self) -> &'static str {
        match self {
            Cue::HiddenTag => "a pseudo-system tag",
            Cue::Concealment => "an instruction to hide something from the user",
            Cue::Override => "an instruction to drop earlier instructions",
            Cue::Exfiltration => "an instruction to send sensitive data away",
            Cue::Shadowing => "rules for other tools",
            Cue::Steering => "coercive tool steering",
            Cue::RemoteCode => "a download run as code",
        }
    }
}

/// How the text reaches the model unseen by the user, if it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Channel {
    /// Plain text a reviewer reads as the model does.
    Visible,
    /// Inside `<!-- … -->`: gone once the Markdown is rendered.
    HtmlComment,
    /// A description below the tool's own (a parameter's, a nested schema's).
    ParameterDescription,
    /// Spelled by tag characters or variation selectors, or split by zero-width characters.
    InvisibleUnicode,
}

impl Channel {
    pub fn what(self) -> &'static str {
        match self {
            Channel::Visible => "in plain text",
            Channel::HtmlComment => "inside an HTML comment, invisible once rendered",
            Channel::ParameterDescription => "in a parameter description",
            Channel::InvisibleUnicode => "behind invisible Unicode characters",
        }
    }
}

/// One cue found in a unit.
#[derive(Debug, Clone)]
pub struct Payload<'a> {
    pub file: FileId,
    pub span: Span,
    pub cue: Cue,
    pub channel: Channel,
    /// The words that make it a cue, as the model reads them (decoded, whitespace collapsed).
    pub evidence: String,
    /// Where it is: the file's name, or "the description of tool `x`".
    pub place: String,
    /// The tool whose description holds it. What the tool can do (its effects) is not weighed
    /// here: a rule combining the two reads this.
    pub tool: Option<&'a Tool>,
}

/// Every cue of the unit's agent-read text, by file and position.
pub(crate) fn find_payloads<'a>(unit: &UnitView<'a>) -> Vec<Payload<'a>> {
    let mut out = Vec::new();
    let markdown = unit
        .files
        .skill
        .into_iter()
        .chain(unit.files.contract)
        .chain(unit.agent_docs().map(|(id, _)| id))
        .chain(unit.prose_files());
    for file in markdown {
        let text = unit.text(file);
        let place = unit.repo.file_name(file).to_string();
        scan_raw(text, 0, false, &Surface::Markdown, &mut |p| {
            out.push(Payload {
                file,
                span: p.span,
                cue: p.cue,
                channel: p.channel,
                evidence: p.evidence,
                place: place.clone(),
                tool: None,
            });
        });
    }
    for (file, doc) in unit.tools_docs() {
        let text = unit.text(file);
        let names: Vec<&str> = doc.tools.iter().filter_map(Tool::name).collect();
        for tool in &doc.tools {
            let own = tool.description().map(|n| n.span);
            let mut nodes = Vec::new();
            descriptions(&tool.entry, &mut nodes);
            for node in nodes {
                // The string's content, without its quotes.
                let inner = Span::new(
                    (node.span.start + 1).min(node.span.end),
                    node.span.end.saturating_sub(1).max(node.span.start),
                );
                let Some(raw) = text.get(inner.start..inner.end) else {
                    continue;
                };
                let is_own = Some(node.span) == own;
                let surface = Surface::Description {
                    own: is_own,
                    name: tool.name().unwrap_or(""),
                    siblings: &names,
                };
                let place = if is_own {
                    format!("the description of tool `{}`", tool.display_name())
                } else {
                    format!("a parameter description of tool `{}`", tool.display_name())
                };
                scan_raw(raw, inner.start, true, &surface, &mut |p| {
                    out.push(Payload {
                        file,
                        span: p.span,
                        cue: p.cue,
                        channel: p.channel,
                        evidence: p.evidence,
                        place: place.clone(),
                        tool: Some(tool),
                    });
                });
            }
        }
    }
    out.sort_by_key(|p| (p.file, p.span.start, p.span.end, p.cue));
    out.dedup_by(|a, b| a.file == b.file && a.span == b.span && a.cue == b.cue);
    out
}

/// Every string under a `description` key inside `node` (a tool's own and its parameters').
pub(crate) fn descriptions<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
    match &node.value {
        Value::Object(members) => {
            for member in members {
                if member.key == "description" && member.value.as_str().is_some() {
                    out.push(&member.value);
                } else {
                    descriptions(&member.value, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| descriptions(item, out)),
        _ => {}
    }
}

/// What kind of text is scanned.
pub(crate) enum Surface<'s> {
    /// A whole Markdown file: regions (code, quotes, comments) matter.
    Markdown,
    /// A description string of a tool (`own`: the tool's own, else a nested one).
    Description {
        own: bool,
        name: &'s str,
        siblings: &'s [&'s str],
    },
}

/// A cue found in one piece of text, in file coordinates.
pub(crate) struct Found {
    pub span: Span,
    pub cue: Cue,
    pub channel: Channel,
    pub evidence: String,
}

/// Text as the model reads it, with the file offset of each of its bytes when they differ from
/// `base + i` (JSON escapes decoded, invisible characters dropped).
struct Piece<'t> {
    text: Cow<'t, str>,
    /// File offset of each byte of `text`, and one past the end; `None`: `base + i`.
    map: Option<Vec<usize>>,
    base: usize,
}

impl Piece<'_> {
    fn offset(&self, i: usize) -> usize {
        match &self.map {
            Some(map) => map
                .get(i)
                .copied()
                .unwrap_or_else(|| map.last().copied().unwrap_or(self.base)),
            None => self.base + i,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        let first = self.offset(start);
        // The end of the last byte, not the start of the next (a dropped character between).
        let last = if end > start {
            self.offset(end - 1) + 1
        } else {
            first
        };
        Span::new(first, last.max(first))
    }
}

/// Decodes `raw` (JSON string content when `json`, quotes included) into the text the model reads:
/// escapes resolved, invisible characters dropped.
fn decode(raw: &str, base: usize, json: bool) -> Piece<'_> {
    let escapes = json && memchr::memchr(b'\\', raw.as_bytes()).is_some();
    let plain = !escapes && (raw.is_ascii() || raw.chars().all(|c| hidden_name(c).is_none()));
    if plain {
        return Piece {
            text: Cow::Borrowed(raw),
            map: None,
            base,
        };
    }
    let mut text = String::with_capacity(raw.len());
    let mut map = Vec::with_capacity(raw.len() + 1);
    let bytes = raw.as_bytes();
    let mut i = 0;
    let push = |text: &mut String, map: &mut Vec<usize>, c: char, at: usize| {
        if hidden_name(c).is_some() {
            return;
        }
        text.push(c);
        map.extend(std::iter::repeat_n(base + at, c.len_utf8()));
    };
    while i < raw.len() {
        if json && bytes[i] == b'\\' {
            let next = bytes.get(i + 1).copied();
            let simple = match next {
                Some(b'n' | b'r') => Some('\n'),
                Some(b't' | b'b' | b'f') => Some(' '),
                Some(b'"') => Some('"'),
                Some(b'\\') => Some('\\'),
                Some(b'/') => Some('/'),
                _ => None,
            };
            if let Some(c) = simple {
                push(&mut text, &mut map, c, i);
                i += 2;
                continue;
            }
            if next == Some(b'u') {
                let mut chars = crate::semantic::invisible::DecodedChars::new(&raw[i..], 0, true);
                if let Some(d) = chars.next() {
                    push(&mut text, &mut map, d.c, i);
                    i += d.span.end.max(1);
                    continue;
                }
            }
            i += 1;
            continue;
        }
        let Some(c) = raw.get(i..).and_then(|s| s.chars().next()) else {
            break;
        };
        push(&mut text, &mut map, c, i);
        i += c.len_utf8();
    }
    map.push(base + raw.len());
    Piece {
        text: Cow::Owned(text),
        map: Some(map),
        base,
    }
}

/// Scans `raw` (file text from `base`) and every text its invisible runs spell.
pub(crate) fn scan_raw(
    raw: &str,
    base: usize,
    json: bool,
    surface: &Surface<'_>,
    emit: &mut dyn FnMut(Found),
) {
    let runs = hidden_runs(raw, base, json);
    let piece = decode(raw, base, json);
    // Cues arrive in text order, as the runs are: one pointer walks both.
    let mut next_run = 0;
    scan_piece(&piece, surface, &mut |mut found| {
        while runs
            .get(next_run)
            .is_some_and(|r| r.span.end <= found.span.start)
        {
            next_run += 1;
        }
        // A cue split by a flagged invisible character reads whole to the model only.
        if runs
            .get(next_run)
            .is_some_and(|r| r.span.start < found.span.end)
        {
            found.channel = Channel::InvisibleUnicode;
        }
        emit(found);
    });
    for run in &runs {
        let Some(hidden) = smuggled_text(run) else {
            continue;
        };
        // Every byte of the smuggled text maps onto the run.
        let map = vec![run.span.start; hidden.len()]
            .into_iter()
            .chain(std::iter::once(run.span.end))
            .collect();
        let piece = Piece {
            text: Cow::Owned(hidden),
            map: Some(map),
            base: run.span.start,
        };
        scan_piece(&piece, surface, &mut |mut found| {
            found.span = run.span;
            found.channel = Channel::InvisibleUnicode;
            emit(found);
        });
    }
}

/// Where in a Markdown file a byte is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Region {
    Code,
    Blockquote,
    Comment,
    Inline,
    Quoted,
}

/// The regions of a Markdown text that are not plain prose, sorted by start. One pass over lines.
fn regions(text: &str) -> Vec<(usize, usize, Region)> {
    let mut out = Vec::new();
    let mut fence: Option<(u8, usize)> = None;
    let mut comment_from: Option<usize> = None;
    let mut at = 0;
    // YAML frontmatter is read as prose: its quotes delimit values, not quotations.
    let mut frontmatter = text.starts_with("---\n") || text.starts_with("---\r\n");
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let start = at;
        at += line.len();
        let end = at;
        if frontmatter {
            if index > 0 && line.trim_end() == "---" {
                frontmatter = false;
            }
            continue;
        }
        if let Some(from) = comment_from {
            if let Some(close) = memchr::memmem::find(line.as_bytes(), b"-->") {
                out.push((from, start + close + 3, Region::Comment));
                comment_from = None;
                inline_regions(text, start + close + 3, end, &mut out, &mut comment_from);
            }
            continue;
        }
        let trimmed = line.trim_start();
        let marker = trimmed.as_bytes().first().copied();
        if let Some((ch, len)) = fence {
            let run = trimmed.bytes().take_while(|b| *b == ch).count();
            if run >= len && trimmed[run..].trim().is_empty() {
                fence = None;
            }
            out.push((start, end, Region::Code));
            continue;
        }
        if matches!(marker, Some(b'`' | b'~')) {
            let ch = marker.unwrap_or(b'`');
            let run = trimmed.bytes().take_while(|b| *b == ch).count();
            if run >= 3 {
                fence = Some((ch, run));
                out.push((start, end, Region::Code));
                continue;
            }
        }
        if marker == Some(b'>') {
            out.push((start, end, Region::Blockquote));
            continue;
        }
        let from = start.max(out.last().map_or(0, |r| r.1));
        inline_regions(text, from.min(end), end, &mut out, &mut comment_from);
    }
    if let Some(from) = comment_from {
        out.push((from, text.len(), Region::Comment));
    }
    out
}

/// Inline code, quotations and comment openings in `text[start..end]` (one line).
fn inline_regions(
    text: &str,
    start: usize,
    end: usize,
    out: &mut Vec<(usize, usize, Region)>,
    comment_from: &mut Option<usize>,
) {
    let bytes = text.as_bytes();
    let mut i = start;
    // Backtick run lengths already known to have no closing run on this line: each length is
    // searched for once, so a line of unclosed runs stays linear.
    let mut unclosed = [false; 9];
    while i < end {
        match bytes[i] {
            b'<' if text.get(i..i + 4) == Some("<!--") => {
                match memchr::memmem::find(&bytes[i + 4..end], b"-->") {
                    Some(close) => {
                        out.push((i, i + 4 + close + 3, Region::Comment));
                        i += 4 + close + 3;
                    }
                    None => {
                        *comment_from = Some(i);
                        return;
                    }
                }
            }
            b'`' => {
                let run = bytes[i..end].iter().take_while(|b| **b == b'`').count();
                let mut j = i + run;
                let mut closed = None;
                let known = unclosed.get(run).copied().unwrap_or(true);
                while j < end && !known {
                    if bytes[j] == b'`' {
                        let other = bytes[j..end].iter().take_while(|b| **b == b'`').count();
                        if other == run {
                            closed = Some(j + other);
                            break;
                        }
                        j += other;
                    } else {
                        j += 1;
                    }
                }
                match closed {
                    Some(close) => {
                        out.push((i, close, Region::Inline));
                        i = close;
                    }
                    None => {
                        if let Some(slot) = unclosed.get_mut(run) {
                            *slot = true;
                        }
                        i += run;
                    }
                }
            }
            b'"' => match memchr::memchr(b'"', &bytes[i + 1..paragraph_end(bytes, i, 300)]) {
                Some(close) => {
                    out.push((i, i + 1 + close + 1, Region::Quoted));
                    i += close + 2;
                }
                None => i += 1,
            },
            b'\'' if i == start || !bytes[i - 1].is_ascii_alphanumeric() => {
                // An opening single quote; the closing one is not followed by a letter
                // (`don't` is no quotation).
                let mut j = i + 1;
                let mut closed = None;
                // A quotation in single quotes is short.
                while j < end.min(i + 200) {
                    if bytes[j] == b'\'' && !bytes.get(j + 1).is_some_and(u8::is_ascii_alphanumeric)
                    {
                        closed = Some(j + 1);
                        break;
                    }
                    j += 1;
                }
                match closed {
                    Some(close) if close > i + 2 => {
                        out.push((i, close, Region::Quoted));
                        i = close;
                    }
                    _ => i += 1,
                }
            }
            0xE2 if text.get(i..i + 3) == Some("\u{201C}") => {
                match memchr::memmem::find(
                    &bytes[i + 3..end.min(i + 300).max(i + 3)],
                    "\u{201D}".as_bytes(),
                ) {
                    Some(close) => {
                        out.push((i, i + 3 + close + 3, Region::Quoted));
                        i += 3 + close + 3;
                    }
                    None => i += 3,
                }
            }
            _ => i += 1,
        }
    }
}

/// Where a quotation opened at `at` may close: the end of its paragraph, at most `limit` bytes on.
fn paragraph_end(bytes: &[u8], at: usize, limit: usize) -> usize {
    let ceiling = (at + limit).min(bytes.len());
    memchr::memmem::find(&bytes[at..ceiling], b"\n\n").map_or(ceiling, |i| at + i)
}

/// The region holding byte `at`, if any.
fn region_at(regions: &[(usize, usize, Region)], at: usize) -> Option<Region> {
    let index = regions.partition_point(|(start, _, _)| *start <= at);
    // Inline regions sit inside a line; a comment may hold several: look back a little.
    regions[..index]
        .iter()
        .rev()
        .take(8)
        .find(|(start, end, _)| *start <= at && at < *end)
        .map(|(_, _, r)| *r)
}

/// Which checks a trigger word calls for.
const TAG: u8 = 1;
const CONCEAL: u8 = 2;
const OVERRIDE: u8 = 4;
const EXFIL: u8 = 8;
const TOOLS: u8 = 16;
const REMOTE: u8 = 32;

/// Trigger words, each with the checks it calls for: every cue contains one (ASCII
/// case-insensitive, at the start of a word).
const ANCHORS: &[(&str, u8)] = &[
    ("<important", TAG),
    ("</important", TAG),
    ("<system", TAG),
    ("</system", TAG),
    ("[inst]", TAG),
    ("[/inst]", TAG),
    ("<<sys>>", TAG),
    ("<|im_start|>", TAG),
    ("<|system|>", TAG),
    ("<instructions", TAG),
    ("tell", CONCEAL),
    ("mention", CONCEAL),
    ("inform", CONCEAL),
    ("notify", CONCEAL),
    ("reveal", CONCEAL),
    ("disclose", CONCEAL),
    ("without", CONCEAL),
    ("hide", CONCEAL),
    ("conceal", CONCEAL),
    ("from the user", CONCEAL),
    ("let the user", CONCEAL),
    ("let your user", CONCEAL),
    ("from your user", CONCEAL),
    ("silently", CONCEAL),
    ("secretly", CONCEAL),
    ("covertly", CONCEAL),
    ("user must", CONCEAL),
    ("user should", CONCEAL),
    ("ignore", OVERRIDE),
    ("disregard", OVERRIDE),
    ("forget", OVERRIDE),
    ("override", OVERRIDE),
    ("you are now", OVERRIDE),
    ("from now on", OVERRIDE),
    (".ssh", EXFIL),
    ("id_rsa", EXFIL),
    ("id_ed25519", EXFIL),
    ("id_ecdsa", EXFIL),
    (".env", EXFIL),
    ("mcp.json", EXFIL),
    ("claude_desktop_config", EXFIL),
    ("credentials", EXFIL),
    (".npmrc", EXFIL),
    (".netrc", EXFIL),
    (".pypirc", EXFIL),
    ("/etc/passwd", EXFIL),
    ("/etc/shadow", EXFIL),
    (".kube/config", EXFIL),
    (".docker/config", EXFIL),
    (".gnupg", EXFIL),
    ("keychain", EXFIL),
    ("wallet.dat", EXFIL),
    ("login data", EXFIL),
    ("cookies", EXFIL),
    ("environment variables", EXFIL),
    ("api key", EXFIL),
    ("system prompt", EXFIL),
    ("conversation", EXFIL),
    ("chat history", EXFIL),
    ("this tool is", TOOLS),
    ("tool must", TOOLS),
    ("tool should", TOOLS),
    ("tool has to", TOOLS),
    ("tool needs to", TOOLS),
    ("tool shall", TOOLS),
    ("other tool", TOOLS),
    ("other function", TOOLS),
    ("when using", TOOLS),
    ("when calling", TOOLS),
    ("when invoking", TOOLS),
    ("when you use", TOOLS),
    ("when you call", TOOLS),
    ("when sending", TOOLS),
    ("all tools", TOOLS),
    ("any tool", TOOLS),
    ("every tool", TOOLS),
    ("each tool", TOOLS),
    ("instead of", TOOLS),
    ("rather than", TOOLS),
    ("this tool", TOOLS),
    ("curl", REMOTE),
    ("wget", REMOTE),
    ("iwr", REMOTE),
    ("irm", REMOTE),
    ("invoke-webrequest", REMOTE),
    ("invoke-restmethod", REMOTE),
    ("base64", REMOTE),
];

/// The automata are built from constants; `None` (never seen) would find nothing.
fn anchors() -> Option<&'static AhoCorasick> {
    static ANCHORS_AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    ANCHORS_AC
        .get_or_init(|| {
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostFirst)
                .build(ANCHORS.iter().map(|(word, _)| word))
                .ok()
        })
        .as_ref()
}

/// The all-caps words of coercive steering (case-sensitive).
fn caps_anchors() -> Option<&'static AhoCorasick> {
    static CAPS: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    CAPS.get_or_init(|| {
        AhoCorasick::new([
            "MUST",
            "ALWAYS",
            "NEVER",
            "MANDATORY",
            "STRONGLY",
            "REQUIRED",
        ])
        .ok()
    })
    .as_ref()
}

/// A compiled pattern. Patterns are constants of this file, never input; the tests compile every
/// one, so the panic can only be a defect of this file.
fn compile(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("a text-cue pattern does not compile: {e}"))
}

/// The verbs of sending, moving or running something, shared by the patterns of concealment.
const VERBS_SEND: &str = r"send|upload|forward|copy|transmit|post|email|bcc|cc|attach|share|exfiltrate|leak|redirect|install|download|execute|include|append";

/// A cue pattern, compiled the first time a text needs it.
macro_rules! pattern {
    ($pattern:expr $(,)?) => {
        LazyLock::new(|| compile($pattern))
    };
}

/// The cue patterns, each compiled the first time a text needs it: most texts need a few, and
/// two threads that need different ones compile them at once instead of one waiting for all.
struct Patterns {
    tag: LazyLock<Regex>,
    tag_description: LazyLock<Regex>,
    conceal_tell: LazyLock<Regex>,
    conceal_without: LazyLock<Regex>,
    conceal_hide: LazyLock<Regex>,
    conceal_let: LazyLock<Regex>,
    conceal_user: LazyLock<Regex>,
    conceal_silent: LazyLock<Regex>,
    override_ignore: LazyLock<Regex>,
    override_system: LazyLock<Regex>,
    override_yours: LazyLock<Regex>,
    override_now_strong: LazyLock<Regex>,
    override_now: LazyLock<Regex>,
    sensitive: LazyLock<Regex>,
    sensitive_weak: LazyLock<Regex>,
    transfer: LazyLock<Regex>,
    sink: LazyLock<Regex>,
    read: LazyLock<Regex>,
    network_command: LazyLock<Regex>,
    shadow_available: LazyLock<Regex>,
    shadow_all: LazyLock<Regex>,
    shadow_named: LazyLock<Regex>,
    shadow_tool_must: LazyLock<Regex>,
    directive: LazyLock<Regex>,
    steer_instead: LazyLock<Regex>,
    steer_phrase: LazyLock<Regex>,
    topic: LazyLock<Regex>,
    negation: LazyLock<Regex>,
}

static PATTERNS: Patterns = Patterns {
    tag: pattern!(
        r"(?i)</?(?:important|system|system[_-]prompt)>|\[/?inst\]|<<sys>>|<\|(?:im_start|system)\|>",
    ),
    tag_description: pattern!(r"(?i)</?instructions>"),
    conceal_tell: pattern!(
        r"(?i)\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t)\s+(?:ever\s+)?(?:tell|mention|inform|notify|alert|reveal|disclose|show|say|explain|report|admit|acknowledge)\b([^.;!?\n]{0,40}?)\b(?:to\s+)?(?:the|your)\s+users?\b([^.;!?\n]{0,30})",
    ),
    conceal_without: pattern!(
        r"(?i)\bwithout\s+(?:(?:telling|informing|notifying|alerting|showing)\s+(?:the\s+|your\s+)?users?|letting\s+(?:the\s+|your\s+)?users?\s+(?:know|see|notice)|(?:the\s+|your\s+)?users?(?:'s)?\s+(?:knowing|knowledge|noticing|seeing|being\s+aware))\b",
    ),
    conceal_hide: pattern!(
        r"(?i)\b(?:hide|conceal|withhold|keep)\s+(?:this|that|it|these|them|everything|the\s+\w+(?:\s+\w+)?)\s+(?:hidden\s+|secret\s+)?from\s+(?:the\s+|your\s+)?users?\b",
    ),
    conceal_let: pattern!(
        r"(?i)\b(?:do\s+not|don'?t|never|must\s+not)\s+let\s+(?:the\s+|your\s+)?users?\s+(?:know|see|notice|find\s+out|learn)\b",
    ),
    conceal_user: pattern!(
        r"(?i)\b(?:the\s+|your\s+)?users?\s+(?:must|should|may)\s+(?:not|never)\s+(?:know|notice|find\s+out|learn|be\s+(?:told|informed|notified|made\s+aware))\b",
    ),
    conceal_silent: pattern!(&format!(
        r"(?i)\b(?:silently|secretly|covertly|quietly)\s+(?:{VERBS_SEND})\b|\b(?:do\s+(?:this|it|so)|proceed|act)\s+(?:silently|secretly|covertly)\b"
    )),
    override_ignore: pattern!(
        r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:(?:previous|prior|preceding|earlier|above|former|original|initial|pretrained|pre-trained)\b(?:\s+[\w-]+){0,2}?\s+(?:instructions?|prompts?|directions|directives|guidelines|rules|training|data|knowledge|context|messages|constraints)\b|(?:previous|prior|preceding|earlier|above)\s*(?:[.,;:!]|$|and\b))|\b(?:ignore|disregard)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:instructions|guidelines|rules)\s*(?:[.,;:!]|$|and\s+(?:instead|now|from|follow|do|output|print|reveal|tell|say|respond|answer)\b)",
    ),
    override_yours: pattern!(
        r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+)?(?:of\s+)?your\s+(?:own\s+)?(?:instructions|system\s+prompt|training|guidelines|programming|guardrails|rules|safety\s+(?:rules|guidelines|instructions))\b",
    ),
    override_system: pattern!(
        r"(?i)\b(?:disregard|ignore|override|bypass|forget)\s+(?:the\s+|your\s+|any\s+|all\s+)*(?:system\s+prompt|system\s+instructions|safety\s+(?:guidelines|rules|instructions|policies)|content\s+polic(?:y|ies))\b",
    ),
    override_now_strong: pattern!(
        r"(?i)\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|dan\b|developer\s+mode|god\s+mode|free\s+(?:from|of)|no\s+longer\s+(?:bound|restricted|an?\s+(?:ai|assistant)))",
    ),
    override_now: pattern!(
        r"(?i)\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you\s+(?:are|will|must))\b"
    ),
    sensitive: pattern!(
        r"(?i)~/\.ssh\b(?:/[\w.-]+)?|(?:^|[^\w])\.ssh/(?:id_[\w]+|authorized_keys)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?:^|[\s`'(/~])\.env(?:\.(?:local|production|prod|development|dev|staging|test))?(?:$|[^\w.-])|\bmcp\.json\b|\bclaude_desktop_config\.json\b|\.aws/credentials\b|(?:^|[\s`'(/~])\.(?:npmrc|netrc|pypirc|git-credentials)\b|/etc/(?:passwd|shadow)\b|\.kube/config\b|\.docker/config\.json\b|\.gnupg\b|\bkeychain\b|\bwallet\.dat\b|\blogin\s+data\b|\b(?:chrome|firefox|browser|brave|edge|safari)(?:'s)?\s+(?:profiles?|cookies|saved\s+passwords|password\s+store)\b",
    ),
    sensitive_weak: pattern!(
        r"(?i)\b(?:all|every|each)\s+(?:of\s+)?(?:the\s+|your\s+|the\s+user'?s\s+)?(?:environment\s+variables?|api\s+keys?|secrets?|credentials?|tokens?|passwords?|private\s+keys?|ssh\s+keys?|cookies)\b|\b(?:your|the)\s+system\s+prompt\b|\b(?:entire|full|whole|complete)\s+(?:conversation|chat)(?:\s+history)?\b|\bchat\s+history\b",
    ),
    transfer: pattern!(
        r"(?i)\b(?:pass|send|include|put|paste|append|embed|add|upload|post|forward|attach|copy|insert|encode|provide|supply|submit|transmit|share|leak|exfiltrate|bcc|cc)\b",
    ),
    sink: pattern!(
        r"(?i)\b(?:parameter|param|argument|arg|field|sidenote|side_note|notes?|url|query(?:\s+string)?|webhook|endpoint|message|e-?mail|comment|gist|pastebin|request\s+body)s?\b|https?://",
    ),
    read: pattern!(r"(?i)\b(?:read|open|cat|load|access|collect|grab|extract|list|copy|dump)\b"),
    network_command: pattern!(
        r"(?i)\b(?:curl|wget|nc|ncat|netcat|scp|invoke-webrequest|iwr|invoke-restmethod|irm)\b",
    ),
    shadow_available: pattern!(
        r"(?i)\bwhen\s+this\s+tool\s+is\s+(?:available|present|installed|loaded|enabled|connected)\b",
    ),
    shadow_all: pattern!(
        r"(?i)\b(?:all|any|every|each)\s+other\s+(?:tools?|functions?|mcp\s+servers?|servers?)\b|\b(?:for|with|before|when\s+(?:using|calling|invoking))\s+(?:all|any|every|each)\s+(?:tools?|functions?|tool\s+calls?)\b",
    ),
    shadow_named: pattern!(
        r"(?i)\bwhen\s+(?:using|calling|invoking|you\s+(?:use|call|invoke))\s+(?:the\s+)?`?([A-Za-z][\w.:-]*)`?(\s+tool)?",
    ),
    shadow_tool_must: pattern!(
        r"(?i)\bthe\s+`?([A-Za-z][\w.:-]*)`?\s+tool\s+(?:must|should|has\s+to|needs\s+to|shall)\b",
    ),
    directive: pattern!(
        r"(?i)\b(?:always|never|must|should|make\s+sure|be\s+sure|ensure|instead|bcc|cc|add|include|change|replace|set|send)\b",
    ),
    steer_instead: pattern!(
        r"(?i)\b(?:use|call|prefer|choose|pick|select)\s+this\s+(?:tool|function)\s+(?:first\s+)?(?:(?:instead\s+of|rather\s+than|over|in\s+place\s+of)\s+(?:any\s+|all\s+|the\s+)?(?:other|built-?in|native|default|existing)\b|before\s+(?:any|all|every)\b|for\s+(?:all|any|every)\s+(?:tasks?|requests?|questions?|queries)\b)|\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:any|all|the)?\s*(?:other|built-?in|native|default)\s+(?:tools?|functions?)\b",
    ),
    steer_phrase: pattern!(
        r"(?i)\bdo\s+not\s+use\s+(?:any\s+)?(?:other|another|built-?in|the\s+built-?in)\s+(?:tools?|functions?)\b|\bstrongly\s+consider\s+using\s+this\s+tool\b|\bthis\s+is\s+the\s+only\s+tool\s+(?:you\s+)?(?:should|may|can)\b",
    ),
    topic: pattern!(
        r"(?i)inject|jailbreak|\battack|malicious|poison|exfiltrat|adversar|red[- ]team|\bthreat|vulnerab|payload|exploit|phishing|malware|backdoor|pentest|penetration\s+test|smuggl",
    ),
    negation: pattern!(
        r"(?i)\b(?:never|not|no|don'?t|doesn'?t|shouldn'?t|mustn'?t|cannot|can'?t|avoid|refuse|prevent|nor)\b",
    ),
};

fn patterns() -> &'static Patterns {
    &PATTERNS
}

/// Whether a chat-template marker (`[INST]`, `<<SYS>>`, `<|im_start|>`, `<|system|>`) is named
/// rather than used: followed by punctuation or a conjunction ("the delimiters (<|im_start|> and
/// <|im_end|>)"), it opens no turn. A marker followed by a role or words is used, and so is every
/// XML-like tag (`<IMPORTANT>`), whatever follows it.
fn chat_marker_named(marker: &str, after: &str) -> bool {
    let chat = marker.starts_with('[') || marker.starts_with("<<") || marker.starts_with("<|");
    if !chat {
        return false;
    }
    let next = after.trim_start_matches([' ', '\t']);
    if next.starts_with([',', ')', '.', ';', '/']) {
        return true;
    }
    let word = next
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or_default();
    ["and", "or"].iter().any(|w| word.eq_ignore_ascii_case(w))
}

/// Whether the secret at `at` is where the sentence writes something, not what it sends: the
/// words before it, past articles, possessives and quoting, end in "to", "into", "onto" or
/// "belong(s)" ("paste the key into your `.env`", "writes them where they belong (`.env`)").
/// "in" is left out: "the key in ~/.ssh/id_rsa" names what is read.
fn written_into(text: &str, at: usize) -> bool {
    let mut before = look_back(text, at, 60);
    loop {
        before = before.trim_end_matches([' ', '\t', '`', '\'', '"', '(', '~', '/']);
        let start = before
            .char_indices()
            .rev()
            .find(|(_, c)| !c.is_ascii_alphanumeric() && *c != '\'')
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = &before[start..];
        let is = |words: &[&str]| words.iter().any(|w| word.eq_ignore_ascii_case(w));
        if is(&["to", "into", "onto", "belong", "belongs"]) {
            return true;
        }
        if !is(&[
            "the",
            "a",
            "your",
            "their",
            "its",
            "our",
            "my",
            "local",
            "project's",
            "repository's",
            "repo's",
            "user's",
        ]) {
            return false;
        }
        before = &before[..start];
    }
}

/// Up to `bytes` bytes of `text` before `at`, starting on a character boundary: the words a
/// check weighs before a match, read in bounded time however long the text.
fn look_back(text: &str, at: usize, bytes: usize) -> &str {
    let from = (at.saturating_sub(bytes)..=at)
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(at);
    text.get(from..at).unwrap_or_default()
}

/// Whether the clause before `at` in `text` negates what follows ("never … without telling").
fn negated(text: &str, at: usize) -> bool {
    let before = look_back(text, at, 100);
    let clause = before
        .rfind(['.', ';', '!', '?', '\n', ':', '('])
        .map_or(before, |i| &before[i + 1..]);
    patterns().negation.is_match(clause)
}

/// Whether the clause before `at` is an order ("send the file … without telling the user"), not
/// a description ("retry logic that gives up without informing the user").
fn imperative_before(text: &str, at: usize) -> bool {
    const LEAD: &[&str] = &[
        "then",
        "and",
        "please",
        "also",
        "just",
        "now",
        "first",
        "always",
        "silently",
        "quietly",
        "automatically",
        "simply",
        "next",
        "finally",
        "you",
        "should",
        "must",
    ];
    const VERBS: &[&str] = &[
        "send", "upload", "forward", "copy", "read", "include", "pass", "post", "share", "add",
        "append", "run", "execute", "install", "delete", "remove", "modify", "change", "write",
        "call", "use", "invoke", "proceed", "do", "continue", "perform", "complete", "collect",
        "attach", "email", "make", "create", "update", "transmit", "fetch", "download", "open",
        "access", "save", "store", "log", "record", "act", "submit", "put", "paste", "embed",
        "insert", "bcc", "cc", "move", "push", "commit", "transfer", "export", "sync",
    ];
    let before = look_back(text, at, 160);
    let clause = before
        .rfind(['.', ';', '!', '?', '\n', ':', '(', ','])
        .map_or(before, |i| &before[i + 1..]);
    let first = clause
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .find(|w| !LEAD.contains(&w.as_str()) && !w.bytes().all(|b| b.is_ascii_digit()));
    first.is_some_and(|w| VERBS.contains(&w.as_str()))
}

/// The sentence around byte `at`: up to a sentence end, a blank line or a list item, at most
/// 400 bytes either side.
fn sentence(text: &str, at: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let floor = at.saturating_sub(400);
    let mut start = at;
    while start > floor {
        let b = bytes[start - 1];
        let ends = matches!(b, b'.' | b'!' | b'?')
            && bytes.get(start).is_some_and(|n| n.is_ascii_whitespace())
            || b == b'\n'
                && (bytes.get(start) == Some(&b'\n') || start >= 2 && bytes[start - 2] == b'\n')
            || b == b'\n' && line_opens_block(&bytes[start..]);
        if ends {
            break;
        }
        start -= 1;
    }
    let ceiling = (at + 400).min(text.len());
    let mut end = at;
    while end < ceiling {
        let b = bytes[end];
        if matches!(b, b'.' | b'!' | b'?')
            && bytes.get(end + 1).is_none_or(|n| n.is_ascii_whitespace())
        {
            end += 1;
            break;
        }
        if b == b'\n'
            && (end + 1 >= bytes.len()
                || bytes[end + 1] == b'\n'
                || line_opens_block(&bytes[end + 1..]))
        {
            break;
        }
        end += 1;
    }
    while !text.is_char_boundary(start) {
        start += 1;
    }
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (start, end.max(start))
}

/// Whether a line (its bytes from the start) opens a new block: a list item, heading, quote,
/// table row, fence or blank line, after any indentation.
fn line_opens_block(line: &[u8]) -> bool {
    let rest = match line.iter().position(|b| *b != b' ' && *b != b'\t') {
        Some(i) => &line[i..],
        None => return true,
    };
    match rest.first() {
        Some(b'-' | b'*' | b'+') => rest.get(1).is_none_or(|b| *b == b' '),
        Some(b'#' | b'>' | b'|' | b'`' | b'~' | b'\n' | b'\r') => true,
        Some(b) if b.is_ascii_digit() => {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            matches!(rest.get(digits), Some(b'.' | b')'))
        }
        _ => false,
    }
}

/// The words of a match, for a message: whitespace collapsed, at most 100 characters.
fn evidence(text: &str) -> String {
    let collapsed: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let collapsed = collapsed.replace('`', "'");
    if collapsed.chars().count() > 100 {
        let cut: String = collapsed.chars().take(100).collect();
        format!("{cut}…")
    } else {
        collapsed
    }
}

fn scan_piece(piece: &Piece<'_>, surface: &Surface<'_>, emit: &mut dyn FnMut(Found)) {
    let text: &str = &piece.text;
    // Trigger words at the start of a word (`irm` is no trigger inside `confirm`), with the
    // checks each calls for.
    let bytes = text.as_bytes();
    let hits: Vec<(usize, u8)> = anchors()
        .map(|ac| {
            ac.find_iter(text)
                .filter(|m| {
                    let first = bytes[m.start()];
                    !first.is_ascii_alphanumeric()
                        || m.start() == 0
                        || !bytes[m.start() - 1].is_ascii_alphanumeric()
                })
                .map(|m| {
                    (
                        m.start(),
                        ANCHORS.get(m.pattern().as_usize()).map_or(0, |a| a.1),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let description = matches!(surface, Surface::Description { .. });
    let caps = description && caps_anchors().is_some_and(|ac| ac.is_match(text));
    if hits.is_empty() && !caps {
        return;
    }
    let p = patterns();
    let markdown = matches!(surface, Surface::Markdown);
    // Built on first need: most texts with a trigger word hold no cue at all.
    let regions_cell: std::cell::OnceCell<Vec<(usize, usize, Region)>> = std::cell::OnceCell::new();
    let regions = || -> &[(usize, usize, Region)] {
        regions_cell.get_or_init(|| if markdown { regions(text) } else { Vec::new() })
    };
    let has_comment = markdown && memchr::memmem::find(text.as_bytes(), b"<!--").is_some();
    // Whether quoted text is a mention: always in Markdown for words; for commands and in
    // descriptions, when the text is about attacks.
    let attacks_cell: std::cell::OnceCell<bool> = std::cell::OnceCell::new();
    let about_attacks = || *attacks_cell.get_or_init(|| p.topic.is_match(text));
    let base_channel = match surface {
        Surface::Description { own: false, .. } => Channel::ParameterDescription,
        _ => Channel::Visible,
    };
    let mut found: Vec<(usize, usize, Cue, Channel)> = Vec::new();
    let mut pending_reads: Vec<(usize, usize, Channel)> = Vec::new();
    // For an exfiltration cue (by its start), the sentence or line that makes it one: the
    // evidence a message quotes, while the span stays on the sensitive name.
    let mut contexts: Vec<(usize, usize, usize)> = Vec::new();
    let mut done_until = 0usize;
    let mut lines_done_until = 0usize;
    for (index, &(hit, group)) in hits.iter().enumerate() {
        // Commands: the hit's line.
        if group & (REMOTE | EXFIL) != 0 && hit >= lines_done_until {
            let line_start = text[..hit].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[hit..].find('\n').map_or(text.len(), |i| hit + i);
            lines_done_until = line_end;
            let line = &text[line_start..line_end];
            // A quoted command in a document about attacks is an example.
            let mention = |at: usize| {
                about_attacks()
                    && if markdown {
                        region_at(regions(), line_start + at).is_some_and(|r| r != Region::Comment)
                    } else {
                        quoted_in_description(line, at)
                    }
            };
            let hidden = has_comment && region_at(regions(), hit) == Some(Region::Comment);
            for (s, e) in remote_code(line, description || hidden) {
                if !mention(s) {
                    found.push((
                        line_start + s,
                        line_start + e,
                        Cue::RemoteCode,
                        base_channel,
                    ));
                }
            }
            if let Some(net) = p.network_command.find(line) {
                if let Some(m) = p.sensitive.find(line) {
                    if !negated(line, m.start()) && !mention(m.start()) && !mention(net.start()) {
                        found.push((
                            line_start + m.start(),
                            line_start + m.end(),
                            Cue::Exfiltration,
                            base_channel,
                        ));
                        contexts.push((line_start + m.start(), line_start, line_end));
                    }
                }
            }
        }
        if hit < done_until {
            continue;
        }
        let (start, end) = sentence(text, hit);
        done_until = end;
        let window = &text[start..end];
        // The checks the trigger words of this sentence call for.
        let mask = hits[index..]
            .iter()
            .take_while(|(at, _)| *at < end)
            .fold(0u8, |mask, (_, group)| mask | group);
        let push = |s: usize, e: usize, cue: Cue, found: &mut Vec<(usize, usize, Cue, Channel)>| {
            found.push((start + s, start + e, cue, base_channel));
        };
        for m in p.tag.find_iter(if mask & TAG != 0 { window } else { "" }) {
            if !chat_marker_named(m.as_str(), &window[m.end()..]) {
                push(m.start(), m.end(), Cue::HiddenTag, &mut found);
            }
        }
        let in_comment = has_comment && region_at(regions(), hit) == Some(Region::Comment);
        if description || in_comment {
            for m in p
                .tag_description
                .find_iter(if mask & TAG != 0 { window } else { "" })
            {
                push(m.start(), m.end(), Cue::HiddenTag, &mut found);
            }
        }
        for c in p
            .conceal_tell
            .captures_iter(if mask & CONCEAL != 0 { window } else { "" })
        {
            let (Some(all), between, after) = (c.get(0), c.get(1), c.get(2)) else {
                continue;
            };
            let after = after.map_or("", |m| m.as_str());
            if self_referential(between.map_or("", |m| m.as_str()), after) {
                // The words after "the user" decide, but are not quoted.
                push(
                    all.start(),
                    all.end() - after.len(),
                    Cue::Concealment,
                    &mut found,
                );
            }
        }
        let conceal: &[&Regex] = if mask & CONCEAL != 0 {
            &[&p.conceal_hide, &p.conceal_user, &p.conceal_silent]
        } else {
            &[]
        };
        for m in p
            .conceal_without
            .find_iter(if mask & CONCEAL != 0 { window } else { "" })
        {
            if !negated(window, m.start()) && imperative_before(window, m.start()) {
                push(m.start(), m.end(), Cue::Concealment, &mut found);
            }
        }
        for m in p
            .conceal_let
            .find_iter(if mask & CONCEAL != 0 { window } else { "" })
        {
            push(m.start(), m.end(), Cue::Concealment, &mut found);
        }
        for re in conceal {
            for m in re.find_iter(window) {
                // "hide the sidebar from the user interface" is about a screen, not a person.
                let person = !user_thing(&window[m.end()..]);
                if person && !negated(window, m.start()) {
                    push(m.start(), m.end(), Cue::Concealment, &mut found);
                }
            }
        }
        let overrides: &[&Regex] = if mask & OVERRIDE != 0 {
            &[
                &p.override_ignore,
                &p.override_yours,
                &p.override_system,
                &p.override_now_strong,
            ]
        } else {
            &[]
        };
        for re in overrides {
            for m in re.find_iter(window) {
                if !negated(window, m.start()) {
                    push(m.start(), m.end(), Cue::Override, &mut found);
                }
            }
        }
        if description || in_comment {
            for m in p
                .override_now
                .find_iter(if mask & OVERRIDE != 0 { window } else { "" })
            {
                if !negated(window, m.start()) {
                    push(m.start(), m.end(), Cue::Override, &mut found);
                }
            }
        }
        // A secret the sentence writes into ("paste the token into `.env`") is where the data
        // goes, not what leaves: the first one that is not is the cue.
        let sensitive = (mask & EXFIL != 0)
            .then(|| {
                let leaving = |m: &regex::Match<'_>| !written_into(window, m.start());
                p.sensitive
                    .find_iter(window)
                    .find(leaving)
                    .or_else(|| p.sensitive_weak.find_iter(window).find(leaving))
            })
            .flatten();
        if let Some(m) = sensitive {
            let clean = !negated(window, m.start())
                && p.transfer
                    .find(window)
                    .is_none_or(|t| !negated(window, t.start()));
            // The verb and the destination are the sentence's own words, not a quoted command's.
            let prose = |re: &Regex| {
                re.find_iter(window).any(|w| {
                    !markdown
                        || matches!(
                            region_at(regions(), start + w.start()),
                            None | Some(Region::Comment)
                        )
                })
            };
            if clean && prose(&p.transfer) && prose(&p.sink) {
                push(m.start(), m.end(), Cue::Exfiltration, &mut found);
                contexts.push((start + m.start(), start, end));
            } else if clean && p.read.is_match(window) {
                pending_reads.push((start + m.start(), start + m.end(), base_channel));
                contexts.push((start + m.start(), start, end));
            }
        }
        if let (Surface::Description { name, siblings, .. }, true) = (surface, mask & TOOLS != 0) {
            for m in p.shadow_available.find_iter(window) {
                push(m.start(), m.end(), Cue::Shadowing, &mut found);
            }
            if p.directive.is_match(window) {
                for m in p.shadow_all.find_iter(window) {
                    if !negated(window, m.start()) {
                        push(m.start(), m.end(), Cue::Shadowing, &mut found);
                    }
                }
                for re in [&p.shadow_named, &p.shadow_tool_must] {
                    for c in re.captures_iter(window) {
                        let (Some(all), Some(named)) = (c.get(0), c.get(1)) else {
                            continue;
                        };
                        if names_another_tool(
                            named.as_str(),
                            c.get(2).is_some()
                                || all.as_str().contains('`')
                                || re.as_str() == p.shadow_tool_must.as_str(),
                            name,
                            siblings,
                        ) {
                            push(all.start(), all.end(), Cue::Shadowing, &mut found);
                        }
                    }
                }
            }
            for re in [&p.steer_instead, &p.steer_phrase] {
                for m in re.find_iter(window) {
                    push(m.start(), m.end(), Cue::Steering, &mut found);
                }
            }
        }
    }
    if caps {
        for (s, e) in caps_blocks(text) {
            found.push((s, e, Cue::Steering, base_channel));
        }
    }
    // A sensitive read next to concealment is exfiltration even without a named destination.
    if found.iter().any(|f| f.2 == Cue::Concealment) {
        for (s, e, channel) in pending_reads {
            found.push((s, e, Cue::Exfiltration, channel));
        }
    }
    // The first context recorded for each start, looked up once per cue: a search of the list
    // per cue was quadratic in the cues of a file.
    let mut context_of: std::collections::HashMap<usize, (usize, usize)> =
        std::collections::HashMap::with_capacity(contexts.len());
    for (at, from, to) in contexts {
        context_of.entry(at).or_insert((from, to));
    }
    found.sort_by_key(|f| (f.0, f.1, f.2));
    found.dedup_by(|a, b| a.2 == b.2 && a.0 < b.1 && b.0 < a.1);
    for (s, e, cue, mut channel) in found {
        // In a document about attacks, "attempts to ignore previous instructions" describes one.
        if infinitive(text, s) && about_attacks() {
            continue;
        }
        if markdown {
            match region_at(regions(), s) {
                Some(Region::Comment) => channel = Channel::HtmlComment,
                // Quoted words are mentions; quoted commands were weighed above.
                Some(_) if cue != Cue::RemoteCode && cue != Cue::Exfiltration => continue,
                // A path in backticks is how prose names a file: the sentence decides.
                Some(_) if cue == Cue::Exfiltration && about_attacks() => continue,
                _ => {}
            }
        } else if cue != Cue::RemoteCode && about_attacks() {
            // Only the line's last bytes before the cue are weighed: the line is read that far
            // back, not to its start, so many cues on one long line stay linear.
            let near = look_back(text, s, QUOTATION_REACH);
            let line_start = near
                .rfind('\n')
                .map_or(s - near.len(), |i| s - near.len() + i + 1);
            if quoted_in_description(&text[line_start..s], s - line_start) {
                continue;
            }
        }
        let quoted = match cue {
            Cue::Exfiltration => context_of.get(&s).map_or((s, e), |&(from, to)| (from, to)),
            _ => (s, e),
        };
        emit(Found {
            span: piece.span(s, e),
            cue,
            channel,
            evidence: evidence(&text[quoted.0..quoted.1]),
        });
    }
}

/// Whether the words after "the user" make it a thing ("user interface", "user-facing").
fn user_thing(after: &str) -> bool {
    let next = after.trim_start_matches([' ', '-', '\'']);
    let word: String = next
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        word.as_str(),
        "interface"
            | "interfaces"
            | "facing"
            | "experience"
            | "agent"
            | "space"
            | "land"
            | "mode"
            | "settings"
            | "profile"
            | "story"
            | "stories"
            | "guide"
            | "manual"
            | "input"
            | "name"
            | "id"
            | "table"
    )
}

/// Whether the words before byte `at` end with "to" (at most a few bytes are read).
fn infinitive(text: &str, at: usize) -> bool {
    let tail = look_back(text, at, 12).trim_end();
    tail.len() >= 2
        && tail[tail.len() - 2..].eq_ignore_ascii_case("to")
        && tail[..tail.len() - 2].ends_with(|c: char| !c.is_alphanumeric())
}

/// How far back from a cue a quotation mark that opens around it is looked for.
const QUOTATION_REACH: usize = 300;

/// Whether byte `at` of a description line sits between quotation marks or backticks.
fn quoted_in_description(line: &str, at: usize) -> bool {
    // A quotation is short: this many bytes back are enough, and keep many cues on one line
    // linear.
    let at = at.min(line.len());
    let before = look_back(line, at, QUOTATION_REACH);
    let odd = |c: char| before.matches(c).count() % 2 == 1;
    odd('"')
        || odd('`')
        || before.matches('\u{201C}').count() > before.matches('\u{201D}').count()
        || {
            // 'quoted': an opening single quote after a space.
            let opens = before
                .match_indices('\'')
                .filter(|(i, _)| *i == 0 || !before.as_bytes()[i - 1].is_ascii_alphanumeric())
                .count();
            let closes = before
                .match_indices('\'')
                .filter(|(i, _)| *i > 0 && before.as_bytes()[i - 1].is_ascii_alphanumeric())
                .count();
            opens > closes
        }
}

/// Whether "do not tell … the user …" is about what the model itself does ("do not mention this
/// to the user", "don't tell the user."), not a rule of the task ("never reveal the answer to the
/// user").
fn self_referential(between: &str, after: &str) -> bool {
    static SELF: OnceLock<Regex> = OnceLock::new();
    static AFTER: OnceLock<Regex> = OnceLock::new();
    let own = SELF.get_or_init(|| compile(r"(?i)^\s*(?:anything\b|(?:about\s+)?(?:this|that|it|these|those|any\s+of\s+this|what\s+you|that\s+you|how\s+you|the\s+(?:above|following|previous|instructions?|steps?|sidenote|parameter|file|request|call))\b)"));
    let after_own = AFTER.get_or_init(|| compile(r"(?i)^\s*(?:$|[,;:)!.\u{2014}-]|(?:about|of)\s+(?:this|that|it|these|the\s+(?:above|following|instructions?|steps?|sidenote|file|request|call))\b|that\s+you\b|what\s+you\b|you\b|anything\b)"));
    own.is_match(between) || between.trim().is_empty() && after_own.is_match(after)
}

/// Whether `named` (from "when using X", "the X tool must") is a tool other than this one and its
/// siblings in the same file: rules for another server's tools.
fn names_another_tool(named: &str, explicit: bool, own: &str, siblings: &[&str]) -> bool {
    let named = named.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
    if named.is_empty()
        || named.eq_ignore_ascii_case(own)
        || siblings.iter().any(|s| s.eq_ignore_ascii_case(named))
    {
        return false;
    }
    let lower = named.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "this"
            | "that"
            | "it"
            | "the"
            | "a"
            | "an"
            | "any"
            | "other"
            | "these"
            | "those"
            | "our"
            | "your"
            | "same"
    ) {
        return false;
    }
    // An identifier-like name (`send_email`, `github.create_issue`) or one written as a tool.
    explicit || named.contains(['_', '.', ':']) || named.contains('-') && !named.ends_with('-')
}

/// Runs of four or more all-caps words holding MUST, ALWAYS, NEVER, MANDATORY, STRONGLY or
/// REQUIRED ("*** YOU MUST FOLLOW THIS FORMAT ***"), as byte ranges.
fn caps_blocks(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut run: Option<(usize, usize, usize, bool)> = None; // start, end, words, strong
    let flush = |run: &mut Option<(usize, usize, usize, bool)>, out: &mut Vec<(usize, usize)>| {
        if let Some((s, e, words, strong)) = run.take() {
            if words >= 4 && strong {
                out.push((s, e));
            }
        }
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'\'') {
                i += 1;
            }
            let word = &text[start..i];
            let letters = word.bytes().filter(u8::is_ascii_alphabetic).count();
            let upper = word.bytes().all(|b| !b.is_ascii_lowercase());
            if upper && letters >= 1 {
                let strong = matches!(
                    word,
                    "MUST" | "ALWAYS" | "NEVER" | "MANDATORY" | "STRONGLY" | "REQUIRED"
                );
                let counts = usize::from(letters >= 2);
                run = Some(match run {
                    Some((s, _, n, st)) => (s, i, n + counts, st || strong),
                    None => (start, i, counts, strong),
                });
            } else {
                flush(&mut run, &mut out);
            }
            continue;
        }
        // Sentence ends and lines break a run; spaces and other punctuation do not.
        if matches!(bytes[i], b'.' | b'\n' | b'!' | b'?') {
            flush(&mut run, &mut out);
        }
        i += 1;
    }
    flush(&mut run, &mut out);
    out
}

/// Downloads run as code in one line: the spans of `curl … | sh`, `bash <(wget …)`,
/// `iex (iwr …)`, `echo … | base64 -d | sh`. `any_host`: report every download (descriptions,
/// comments); otherwise only one whose source is suspect — plain `http://`, an IP address, a paste,
/// tunnel or link-shortening host — since a vendor's HTTPS install script in a skill's
/// instructions is the documented install path of many tools.
fn remote_code(line: &str, any_host: bool) -> Vec<(usize, usize)> {
    static RUNNERS: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    let runners = RUNNERS.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .build([
                "curl",
                "wget",
                "iwr",
                "irm",
                "invoke-webrequest",
                "invoke-restmethod",
                "aria2c",
                "base64",
            ])
            .ok()
    });
    let mut out = Vec::new();
    let Some(runners) = runners else {
        return out;
    };
    // At most four starting points a line: a line of nothing but `curl` stays linear.
    for m in runners.find_iter(line).take(4) {
        let at = m.start();
        if at > 0 && line.as_bytes()[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        // Start at the command the word begins, or at an interpreter just before it
        // (`bash <(curl …)`, `iex (iwr …)`).
        let from = command_start(line, at);
        let segment = &line[from..];
        if line
            .get(at..at + "base64".len())
            .is_some_and(|word| word.eq_ignore_ascii_case("base64"))
        {
            if let Some(span) = base64_to_shell(segment) {
                out.push((from + span.0, from + span.1));
            }
            continue;
        }
        // Built on the first run that needs it: the addresses of the segment, found once
        // however many runs it holds.
        let mut sources: Option<Sources> = None;
        for run in crate::semantic::commands::downloads_run_in(segment) {
            // The source is the first address after the command starts (`bash <(curl URL)`
            // ends its span before it).
            if any_host
                || sources
                    .get_or_insert_with(|| Sources::new(segment))
                    .suspect_after(run.span.start)
            {
                out.push((from + run.span.start, from + run.span.end));
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    out
}

/// Where the command holding byte `at` starts: after a prompt, a backtick or the start of the
/// line, or at an interpreter that reads what follows.
fn command_start(line: &str, at: usize) -> usize {
    let before = &line[..at];
    // An opener counts only when it ends at most 8 bytes before the word: only the last few
    // bytes are read (lower-cased), so a long line costs no more per word than a short one.
    let window = look_back(line, at, "invoke-expression (".len() + 8);
    let window_start = at - window.len();
    let lower = window.to_ascii_lowercase();
    for opener in ["<(", "$(", "iex (", "iex(", "invoke-expression ("] {
        if let Some(i) = lower.rfind(opener).map(|i| window_start + i) {
            if i + opener.len() + 8 >= at {
                // The interpreter's word starts at the last space before the opener.
                let word_start = before[..i]
                    .trim_end()
                    .rfind([' ', '`', '\t'])
                    .map_or(0, |s| s + 1);
                return if opener.starts_with('i') {
                    i
                } else {
                    word_start
                };
            }
        }
    }
    at
}

/// `echo … | base64 -d | sh`: decoded text run as code; the span from `base64` to the shell.
fn base64_to_shell(segment: &str) -> Option<(usize, usize)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| compile(r"(?i)^base64\s+(?:-d|--decode|-D)\b[^|\n]{0,40}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|^base64\s+(?:-d|--decode|-D)\b[^|\n]{0,40}\|\s*(?:sudo\s+)?(?:python3?|perl|node)\b"));
    re.find(segment).map(|m| (m.start(), m.end()))
}

/// The addresses of a command line (`http://`, `https://`, any case), found in one pass so that
/// each download run asks for its source in time bounded by that source, not by the rest of the
/// line: a line of a thousand `curl x|sh` read the line a thousand times.
struct Sources {
    lower: String,
    /// Where each `http://` starts, ascending.
    plain: Vec<usize>,
    /// Where each `https://` starts, ascending.
    secure: Vec<usize>,
    /// The verdict of each address already judged, by its start.
    judged: std::collections::HashMap<usize, bool>,
}

impl Sources {
    fn new(segment: &str) -> Self {
        let lower = segment.to_ascii_lowercase();
        let starts = |needle: &str| memchr::memmem::find_iter(lower.as_bytes(), needle).collect();
        Sources {
            plain: starts("http://"),
            secure: starts("https://"),
            lower,
            judged: std::collections::HashMap::new(),
        }
    }

    /// Whether the source of a download starting at `at` is suspect: plain HTTP to another
    /// machine, an IP address, or a paste, tunnel, file-drop or link-shortening host. Its source
    /// is the first `http://` address from `at` on, else the first `https://` one.
    fn suspect_after(&mut self, at: usize) -> bool {
        let next = |starts: &[usize]| starts.get(starts.partition_point(|s| *s < at)).copied();
        let Some(url_at) = next(&self.plain).or_else(|| next(&self.secure)) else {
            return false;
        };
        let lower = &self.lower;
        *self
            .judged
            .entry(url_at)
            .or_insert_with(|| suspect_url(&lower[url_at..]))
    }
}

/// Whether a lower-case address (from its scheme on) is a suspect source for a download. Reads
/// the address's scheme and host only.
fn suspect_url(url: &str) -> bool {
    const HOSTS: &[&str] = &[
        "pastebin.com",
        "paste.ee",
        "hastebin.com",
        "ghostbin.com",
        "glot.io",
        "rentry.co",
        "rentry.org",
        "termbin.com",
        "transfer.sh",
        "file.io",
        "0x0.st",
        "ngrok.io",
        "ngrok.app",
        "ngrok-free.app",
        "trycloudflare.com",
        "loca.lt",
        "serveo.net",
        "bit.ly",
        "tinyurl.com",
        "is.gd",
        "t.co",
        "gist.githubusercontent.com",
        "webhook.site",
        "pipedream.net",
        "requestbin.com",
        "cdn.discordapp.com",
        "ipfs.io",
        "dweb.link",
    ];
    let rest = url.split_once("://").map_or("", |(_, r)| r);
    let host = rest
        .split(['/', ' ', ':', '"', '\'', '|', ')'])
        .next()
        .unwrap_or("");
    let local = matches!(host, "localhost" | "127.0.0.1" | "[::1]");
    if url.starts_with("http://") && !local {
        return true;
    }
    let ip = !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && host.contains('.');
    let listed = HOSTS
        .iter()
        .any(|h| host == *h || host.strip_suffix(h).is_some_and(|sub| sub.ends_with('.')));
    ip && !local || listed
}

#[cfg(test)]
mod tests;
