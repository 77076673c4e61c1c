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
//!
//! The room, by what each part does: [`lexicon`] holds the trigger words and the cue patterns as
//! data, [`automaton`] finds the trigger words, [`regions`] tells prose from quotation in
//! Markdown, [`structure`] reads sentences, lines and quotation around a match, [`clauses`] weighs
//! the words of a clause (negated, an order, a thing or a person), [`remote`] reads command lines
//! for downloads run as code, and [`scan`] puts them together for one piece of text.

mod automaton;
mod clauses;
mod lexicon;
mod regions;
mod remote;
mod scan;
mod structure;

use crate::index::UnitView;
use crate::model::tools::Tool;
use crate::parse::node::{Node, Value};
use crate::semantic::invisible::{hidden_name, hidden_runs, smuggled_text};
use crate::source::{FileId, Span};
use scan::scan_piece;
use std::borrow::Cow;

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
        scan_raw(text, 0, false, &Surface::Markdown, &mut |p| {
            out.push(Payload {
                file,
                span: p.span,
                cue: p.cue,
                channel: p.channel,
                evidence: p.evidence,
                place: unit.repo.file_name(file).to_string(),
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
                // Written only for a cue: most descriptions hold none.
                let place = || {
                    if is_own {
                        format!("the description of tool `{}`", tool.display_name())
                    } else {
                        format!("a parameter description of tool `{}`", tool.display_name())
                    }
                };
                scan_raw(raw, inner.start, true, &surface, &mut |p| {
                    out.push(Payload {
                        file,
                        span: p.span,
                        cue: p.cue,
                        channel: p.channel,
                        evidence: p.evidence,
                        place: place(),
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

#[cfg(test)]
mod tests;
