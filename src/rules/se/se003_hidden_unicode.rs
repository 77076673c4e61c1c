//! SE003 `hidden-unicode`: Invisible Unicode characters hide text from reviewers in
//! agent-facing content.

use crate::check::{Sink, Unit};
use crate::parse::node::{Node, Value};
use crate::source::{FileId, Span};

/// The name of a character SE003 looks for, or `None` for every other character.
fn hidden_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{2060}' => "WORD JOINER",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE",
        '\u{202A}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202B}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202C}' => "POP DIRECTIONAL FORMATTING",
        '\u{202D}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202E}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{E0001}' => "LANGUAGE TAG",
        '\u{E007F}' => "CANCEL TAG",
        '\u{E0000}'..='\u{E007F}' => "TAG",
        _ => return None,
    })
}

fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// One hidden character with its bytes in the file (several bytes for a JSON `\u` escape).
#[derive(Debug, Clone, Copy)]
struct Hidden {
    c: char,
    span: Span,
}

/// A run of adjacent hidden characters.
#[derive(Debug, Clone)]
pub(crate) struct HiddenRun {
    pub span: Span,
    pub chars: Vec<char>,
}

/// The characters of `raw` (file text starting at byte `base`), one at a time, turning JSON
/// `\uXXXX` escapes (with surrogate pairs) into the characters they stand for when
/// `json_escapes` is set. An iterator, cloned to look ahead: a vector of every character of a
/// file took 24 bytes per character (a 4 MB SKILL.md of ASCII and one `é`: 208 MB).
#[derive(Clone)]
struct DecodedChars<'a> {
    raw: &'a str,
    base: usize,
    json_escapes: bool,
    at: usize,
}

impl DecodedChars<'_> {
    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.raw.get(at..at + 4)?;
        if digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            u32::from_str_radix(digits, 16).ok()
        } else {
            None
        }
    }
}

impl Iterator for DecodedChars<'_> {
    type Item = Hidden;

    fn next(&mut self) -> Option<Hidden> {
        let (raw, bytes, base) = (self.raw, self.raw.as_bytes(), self.base);
        while self.at < raw.len() {
            let i = self.at;
            if self.json_escapes && bytes.get(i) == Some(&b'\\') {
                if bytes.get(i + 1) == Some(&b'u') {
                    if let Some(unit) = self.hex4(i + 2) {
                        let (code, len) = if (0xD800..0xDC00).contains(&unit)
                            && raw.get(i + 6..i + 8) == Some("\\u")
                        {
                            match self.hex4(i + 8) {
                                Some(low) if (0xDC00..0xE000).contains(&low) => {
                                    (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12)
                                }
                                _ => (unit, 6),
                            }
                        } else {
                            (unit, 6)
                        };
                        self.at += len;
                        if let Some(c) = char::from_u32(code) {
                            return Some(Hidden {
                                c,
                                span: Span::new(base + i, base + i + len),
                            });
                        }
                        continue;
                    }
                }
                // Any other escape: skip the backslash and the escaped character.
                let escaped = raw
                    .get(i + 1..)
                    .and_then(|rest| rest.chars().next())
                    .map_or(0, char::len_utf8);
                self.at += 1 + escaped;
                continue;
            }
            let c = raw.get(i..).and_then(|s| s.chars().next())?;
            self.at += c.len_utf8();
            return Some(Hidden {
                c,
                span: Span::new(base + i, base + i + c.len_utf8()),
            });
        }
        None
    }
}

/// Whether a joiner sits inside text that needs it: between two non-ASCII, visible characters
/// (emoji sequences such as 👩‍💻, Persian and Indic scripts).
fn legitimate_joiner(previous: Option<char>, next: Option<char>) -> bool {
    let visible_non_ascii =
        |c: char| !c.is_ascii() && !c.is_whitespace() && hidden_name(c).is_none();
    previous.is_some_and(visible_non_ascii) && next.is_some_and(visible_non_ascii)
}

/// Whether the tag character `first` and the characters `after` it, which follow a 🏴, form an
/// emoji subdivision flag (🏴 + lowercase tag letters + CANCEL TAG, e.g. the flag of Scotland).
/// Returns the number of tag characters, `first` included.
fn flag_tag_sequence(first: char, mut after: DecodedChars<'_>) -> Option<usize> {
    let mut n = 0;
    let mut c = first;
    loop {
        match c {
            '\u{E007F}' => return (n > 0).then_some(n + 1),
            '\u{E0061}'..='\u{E007A}' | '\u{E0030}'..='\u{E0039}' => n += 1,
            _ => return None,
        }
        c = after.next()?.c;
    }
}

/// The runs of hidden characters in `raw` (file text starting at byte `base`).
pub(crate) fn hidden_runs(raw: &str, base: usize, json_escapes: bool) -> Vec<HiddenRun> {
    // Every hidden character is outside ASCII (or, in JSON, written as a `\u` escape).
    if raw.is_ascii() && !(json_escapes && raw.contains("\\u")) {
        return Vec::new();
    }
    let mut chars = DecodedChars {
        raw,
        base,
        json_escapes,
        at: 0,
    };
    let mut runs: Vec<HiddenRun> = Vec::new();
    let mut previous: Option<char> = None;
    while let Some(h) = chars.next() {
        if is_tag(h.c) && previous == Some('\u{1F3F4}') {
            if let Some(n) = flag_tag_sequence(h.c, chars.clone()) {
                // The flag's tag characters are skipped; the last of them is CANCEL TAG.
                let mut last = h.c;
                for _ in 1..n {
                    if let Some(tag) = chars.next() {
                        last = tag.c;
                    }
                }
                previous = Some(last);
                continue;
            }
        }
        let flagged = match h.c {
            '\u{FEFF}' => h.span.start != 0,
            '\u{200C}' | '\u{200D}' => {
                let next = chars.clone().next().map(|x| x.c);
                !legitimate_joiner(previous, next)
            }
            c => hidden_name(c).is_some(),
        };
        if flagged {
            match runs.last_mut() {
                Some(run) if run.span.end == h.span.start => {
                    run.span.end = h.span.end;
                    run.chars.push(h.c);
                }
                _ => runs.push(HiddenRun {
                    span: h.span,
                    chars: vec![h.c],
                }),
            }
        }
        previous = Some(h.c);
    }
    runs
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE`, or `U+E0041 TAG` for a tag character.
fn describe_char(c: char) -> String {
    format!(
        "`U+{:04X} {}`",
        c as u32,
        hidden_name(c).unwrap_or("CHARACTER")
    )
}

/// What a run is, for the message: its distinct characters, or a count of tag characters.
pub(super) fn describe_run(run: &HiddenRun) -> String {
    let tags = run.chars.iter().filter(|c| is_tag(**c)).count();
    let mut distinct: Vec<char> = Vec::new();
    for c in run.chars.iter().filter(|c| !is_tag(**c)) {
        if !distinct.contains(c) {
            distinct.push(*c);
        }
    }
    let mut parts: Vec<String> = distinct.iter().map(|c| describe_char(*c)).collect();
    if tags > 0 {
        parts.push(if tags == 1 {
            run.chars
                .iter()
                .find(|c| is_tag(**c))
                .map_or_else(String::new, |c| describe_char(*c))
        } else {
            format!("{tags} Unicode tag characters (U+E0000–U+E007F)")
        });
    }
    let total = run.chars.len();
    if total > 1 && tags < total && !(tags == 0 && distinct.len() == total) {
        format!("{total} characters: {}", parts.join(", "))
    } else {
        parts.join(", ")
    }
}

/// The ASCII text a run of tag characters spells (tags mirror ASCII at U+E0020–U+E007E).
pub(super) fn tag_text(run: &HiddenRun) -> Option<String> {
    let text: String = run
        .chars
        .iter()
        .filter_map(|c| {
            let code = *c as u32;
            (0xE0020..=0xE007E)
                .contains(&code)
                .then(|| char::from_u32(code - 0xE0000))
                .flatten()
        })
        .collect();
    if text.trim().is_empty() {
        return None;
    }
    let shown: String = text.chars().take(60).collect();
    Some(if text.chars().count() > 60 {
        format!("{shown}…")
    } else {
        shown
    })
}

fn report_hidden(sink: &mut Sink, file: FileId, run: &HiddenRun, place: &str) {
    let diagnostic = sink.report(
        file,
        run.span,
        format!("hidden Unicode in {place}: {}", describe_run(run)),
    );
    match tag_text(run) {
        Some(text) => diagnostic.label(format!("invisible text: `{}`", text.replace('`', "'"))),
        None => diagnostic.label("invisible to a reviewer, read by the agent"),
    };
    diagnostic.help("delete these characters; text that needs right-to-left or joining marks should be written so a reviewer can see what the agent reads");
}

/// Every string under a `description` key inside `node`, with its node.
fn descriptions<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
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

pub(super) fn hidden_unicode(unit: &Unit<'_>, sink: &mut Sink) {
    // Commands and agents are prompts: their whole text is read by the model, as a skill's is.
    let agent_docs = unit.agent_docs().map(|(id, _)| id);
    let whole_files = unit
        .files
        .skill
        .into_iter()
        .chain(unit.files.contract)
        .chain(agent_docs);
    for file in whole_files {
        let text = unit.text(file);
        let name = unit.repo.file_name(file);
        for run in hidden_runs(text, 0, false) {
            report_hidden(sink, file, &run, name);
        }
    }
    // Whether each tools file can hold a hidden character, decided once per file: asked per
    // tool, the whole-file scan made a file of many tools quadratic.
    let mut may_hide: Vec<(FileId, bool)> = Vec::new();
    for (file, tool) in unit.tools() {
        let text = unit.text(file);
        let known = may_hide.iter().find(|(f, _)| *f == file).map(|(_, m)| *m);
        let may = known.unwrap_or_else(|| {
            // A description is a piece of its file: a file of plain ASCII without `\u` escapes
            // (nearly every tools file) has no hidden character in any description.
            let may =
                !(text.is_ascii() && crate::rules::util::find_substring(text, "\\u").is_none());
            may_hide.push((file, may));
            may
        });
        if !may {
            continue;
        }
        let mut nodes = Vec::new();
        descriptions(&tool.entry, &mut nodes);
        let own = tool.description().map(|n| n.span);
        for node in nodes {
            let Some(raw) = text.get(node.span.start..node.span.end) else {
                continue;
            };
            let runs = hidden_runs(raw, node.span.start, true);
            if runs.is_empty() {
                continue;
            }
            let place = if Some(node.span) == own {
                format!("the description of tool `{}`", tool.display_name())
            } else {
                format!("a description inside tool `{}`", tool.display_name())
            };
            for run in runs {
                report_hidden(sink, file, &run, &place);
            }
        }
    }
}
