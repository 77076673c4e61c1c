//! Escaping of repository text on its way out. Names, paths, messages and file contents come from
//! an untrusted repository: printed raw, an ESC or OSC sequence drives the terminal, a line feed
//! forges a GitHub workflow command in the CI log, and a bidi override shows reviewers text in
//! another order than the bytes (Trojan Source). Every human format writes such characters as
//! `\u{…}`; the JSON formats as `\uXXXX`. Text without them passes through unchanged (borrowed),
//! so ordinary output stays byte for byte what it was.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;

/// Whether a terminal, a CI log or a code viewer would act on `c` instead of showing it: the C0
/// controls (tab excepted: it only moves to the next column), DEL and the C1 controls, the bidi
/// controls (embeddings, overrides, isolates and marks) and the Unicode line and paragraph
/// separators, which some viewers break lines at.
pub fn is_unsafe_char(c: char) -> bool {
    match c {
        '\t' => false,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{061c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}' => true,
        '\u{2028}' | '\u{2029}' => true,
        _ => false,
    }
}

/// The bytes every unsafe character's UTF-8 form starts with: C0 (tab excepted) and DEL, 0xC2
/// (leads C1), 0xD8 (leads U+061C), 0xE2 (leads U+2000–U+2FFF). Line feed has its own entry, so a
/// scan that keeps line feeds passes over them at the cost of one lookup.
const LEADS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = LEAD;
        b += 1;
    }
    table[b'\t' as usize] = 0;
    table[b'\n' as usize] = LINE_FEED;
    table[0x7f] = LEAD;
    table[0xc2] = LEAD;
    table[0xd8] = LEAD;
    table[0xe2] = LEAD;
    table
};
const LEAD: u8 = 1;
const LINE_FEED: u8 = 2;

/// The first unsafe character of `text` at or after byte `from`, with its offset; line feeds
/// count unless `keep_line_feeds`. One table lookup a byte: only a lead byte decodes a character
/// (text without any passes after a single pass over its bytes).
fn next_unsafe(text: &str, from: usize, keep_line_feeds: bool) -> Option<(usize, char)> {
    let skip = if keep_line_feeds { LINE_FEED } else { 0 };
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(offset) = bytes
        .get(at..)?
        .iter()
        .position(|b| LEADS[usize::from(*b)] & !skip != 0)
    {
        at += offset;
        // A lead byte is ASCII or starts a character: `at` is a character boundary.
        let c = text.get(at..)?.chars().next()?;
        if is_unsafe_char(c) {
            return Some((at, c));
        }
        at += c.len_utf8();
    }
    None
}

/// Whether `text` holds an unsafe character.
fn holds_unsafe(text: &str) -> bool {
    next_unsafe(text, 0, false).is_some()
}

fn push_escaped(out: &mut String, c: char) {
    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
}

/// `text` with every unsafe character (line feeds included: one finding, one line) written as
/// `\u{1b}`; borrowed when there is none.
pub fn escape_text(text: &str) -> Cow<'_, str> {
    if !holds_unsafe(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe_char(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` inside markup (the HTML of a report's `<details>`, a JUnit report's XML): unsafe
/// characters escaped as in [`escape_text`] (XML 1.0 cannot hold most controls even as character
/// references), then `&`, `<`, `>` and quotes written as character references.
pub fn escape_markup(text: &str) -> String {
    let text = escape_text(text);
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Not characters XML allows, even as references.
            '\u{fffe}' | '\u{ffff}' => push_escaped(&mut out, c),
            _ => out.push(c),
        }
    }
    out
}

/// Multi-line `text` (a policy's `docs`, shown by `skilllint rule`) made safe to print: its line
/// feeds stay, every other unsafe character is escaped as in [`escape_text`], and a line that a
/// CI runner would read as a workflow command (`::error …`, `##[error]…`) has its first
/// character escaped, so it is shown and never obeyed.
pub fn escape_block(text: &str) -> Cow<'_, str> {
    let command = |line: &str| {
        let line = line.trim_start();
        line.starts_with("::") || line.starts_with("##[")
    };
    if !text
        .split('\n')
        .any(|line| holds_unsafe(line) || command(line))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let indent = line.len() - line.trim_start().len();
        for (at, c) in line.char_indices() {
            if is_unsafe_char(c) || (at == indent && command(line)) {
                push_escaped(&mut out, c);
            } else {
                out.push(c);
            }
        }
    }
    Cow::Owned(out)
}

/// A file's text made safe to show as a snippet, with the map from offsets in the file to
/// offsets in the shown text. Line feeds stay (they are the snippet's lines), and so does the CR
/// of a CRLF line end; everything else unsafe is escaped as in [`escape_text`].
pub struct Snippet<'a> {
    pub text: Cow<'a, str>,
    /// (offset in the file of an escaped character, bytes added by escaping it and every one
    /// before it), in file order.
    shifts: Vec<(usize, usize)>,
}

impl<'a> Snippet<'a> {
    pub fn new(text: &'a str) -> Self {
        let unsafe_at = |(i, c): &(usize, char)| {
            is_unsafe_char(*c)
                && *c != '\n'
                && !(*c == '\r' && text.as_bytes().get(i + 1) == Some(&b'\n'))
        };
        // The first character to escape: one that is unsafe, but no line feed and no CR ending
        // a line.
        let mut from = 0;
        let needs_escaping = loop {
            match next_unsafe(text, from, true) {
                Some((at, c)) if unsafe_at(&(at, c)) => break true,
                Some((at, c)) => from = at + c.len_utf8(),
                None => break false,
            }
        };
        if !needs_escaping {
            return Snippet {
                text: Cow::Borrowed(text),
                shifts: Vec::new(),
            };
        }
        let mut out = String::with_capacity(text.len() + 64);
        let mut shifts = Vec::new();
        let mut added = 0;
        for (i, c) in text.char_indices() {
            if unsafe_at(&(i, c)) {
                let before = out.len();
                push_escaped(&mut out, c);
                added += out.len() - before - c.len_utf8();
                shifts.push((i, added));
            } else {
                out.push(c);
            }
        }
        Snippet {
            text: Cow::Owned(out),
            shifts,
        }
    }

    /// Where the file's byte `offset` is in the shown text: an escaped character's offset maps
    /// to the start of its escape, the offset after it to the end.
    pub fn offset(&self, offset: usize) -> usize {
        let before = self.shifts.partition_point(|&(at, _)| at < offset);
        match before.checked_sub(1).and_then(|i| self.shifts.get(i)) {
            Some(&(_, added)) => offset + added,
            None => offset,
        }
    }
}

/// Whether a path's raw form could be read as an escaped one: it holds `\x`, `\u` or `\\`.
fn has_escape_sequence(text: &str) -> bool {
    text.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\\' && matches!(w[1], b'x' | b'u' | b'\\'))
}

/// The printable, lossless form of a file name or path given as bytes. A name that is UTF-8
/// without unsafe characters prints as itself. Any other is written with each byte that is not
/// UTF-8 as `\xff`, each unsafe character as `\u{1b}` and each backslash as `\\`. The raw form
/// never holds `\x`, `\u` or `\\` (a name holding one is written escaped), and the escaped form
/// always does: two different names never print the same, and [`path_bytes`] gives the bytes
/// back.
pub fn path_form(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        if !has_escape_sequence(text) && !holds_unsafe(text) {
            return Cow::Borrowed(text);
        }
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                out.push_str("\\\\");
            } else if is_unsafe_char(c) {
                push_escaped(&mut out, c);
            } else {
                out.push(c);
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    Cow::Owned(out)
}

/// [`path_form`] of a path as the operating system holds it.
pub fn display_path(path: &Path) -> Cow<'_, str> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        path_form(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        match path.to_string_lossy() {
            Cow::Borrowed(text) => path_form(text.as_bytes()),
            Cow::Owned(text) => Cow::Owned(path_form(text.as_bytes()).into_owned()),
        }
    }
}

/// The bytes a [`path_form`] stands for.
pub fn path_bytes(form: &str) -> Cow<'_, [u8]> {
    if !has_escape_sequence(form) {
        return Cow::Borrowed(form.as_bytes());
    }
    let mut out = Vec::with_capacity(form.len());
    let mut rest = form;
    while let Some(at) = rest.find('\\') {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let after = &rest[at + 1..];
        let (bytes, used) = decode_escape(after);
        out.extend_from_slice(&bytes);
        rest = &after[used..];
    }
    out.extend_from_slice(rest.as_bytes());
    Cow::Owned(out)
}

/// Decodes what follows a backslash: (the bytes meant, how much of `after` they took). A
/// backslash that starts no escape stands for itself.
fn decode_escape(after: &str) -> (Vec<u8>, usize) {
    if after.starts_with('\\') {
        return (vec![b'\\'], 1);
    }
    if let Some(hex) = after.strip_prefix('x').and_then(|r| r.get(..2)) {
        if let Ok(byte) = u8::from_str_radix(hex, 16) {
            return (vec![byte], 3);
        }
    }
    if let Some(body) = after.strip_prefix("u{") {
        if let Some(close) = body.find('}') {
            let decoded = u32::from_str_radix(&body[..close], 16)
                .ok()
                .and_then(char::from_u32);
            if let Some(c) = decoded {
                return (c.to_string().into_bytes(), close + 3);
            }
        }
    }
    (vec![b'\\'], 0)
}

/// JSON text (as serde_json writes it) with DEL, the C1 controls, the bidi controls and the line
/// separators written as `\uXXXX`, which serde_json leaves raw. JSON structure is ASCII, so these
/// can only sit inside strings, where the escape means the same character.
pub fn escape_json_text(json: String) -> String {
    if next_unsafe(&json, 0, true).is_none() {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe_char(c) && c != '\n' {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_block_keeps_its_lines_and_disarms_workflow_commands() {
        assert_eq!(super::escape_block("# T\n\nplain"), "# T\n\nplain");
        assert_eq!(
            super::escape_block("a\u{1b}]0;t\u{7}\n::error file=x::forged\n  ##[error]y\n## ok"),
            "a\\u{1b}]0;t\\u{7}\n\\u{3a}:error file=x::forged\n  \\u{23}#[error]y\n## ok"
        );
    }

    use super::*;

    #[test]
    fn the_byte_scan_finds_what_the_character_test_finds() {
        let samples = [
            "plain",
            "tab\there",
            "line\nfeed",
            "crlf\r\nline",
            "é ç ü ß €",
            "\u{85} next line",
            "\u{9f}",
            "\u{a0} no-break space",
            "\u{61b}\u{61c}\u{61d}",
            "\u{200d}\u{200e}\u{200f}\u{2010}",
            "\u{2027}\u{2028}\u{2029}\u{202a}\u{202e}\u{202f}",
            "\u{2065}\u{2066}\u{2069}\u{206a}",
            "\u{2192} arrow \u{2713} check",
            "\u{1b}[31m",
            "\u{7f}",
            "\u{1f600} emoji",
        ];
        for sample in samples {
            let by_char = sample.char_indices().find(|(_, c)| is_unsafe_char(*c));
            assert_eq!(next_unsafe(sample, 0, false), by_char, "{sample:?}");
            let no_feed = sample
                .char_indices()
                .find(|(_, c)| is_unsafe_char(*c) && *c != '\n');
            assert_eq!(next_unsafe(sample, 0, true), no_feed, "{sample:?}");
        }
    }

    #[test]
    fn text_without_controls_is_borrowed() {
        assert!(matches!(escape_text("plain `ç` \t text"), Cow::Borrowed(_)));
        assert!(matches!(
            path_form("a\\b/ç.md".as_bytes()),
            Cow::Borrowed(_)
        ));
        assert!(matches!(Snippet::new("a\r\nb\tc\n").text, Cow::Borrowed(_)));
    }

    #[test]
    fn controls_and_bidi_are_spelled_out() {
        assert_eq!(
            escape_text("a\nb\x1b[2J\u{9b}\u{202e}\u{7f}\r"),
            "a\\u{a}b\\u{1b}[2J\\u{9b}\\u{202e}\\u{7f}\\u{d}"
        );
    }

    #[test]
    fn snippet_offsets_follow_the_escapes() {
        let snippet = Snippet::new("a\x1bb\r\nc\u{202e}d");
        assert_eq!(snippet.text, "a\\u{1b}b\r\nc\\u{202e}d");
        assert_eq!(snippet.offset(0), 0);
        assert_eq!(snippet.offset(1), 1);
        assert_eq!(snippet.offset(2), 7);
        assert_eq!(snippet.offset(5), 10);
        assert_eq!(snippet.offset(6), 11);
        assert_eq!(snippet.offset(9), 19);
    }

    #[test]
    fn path_forms_are_lossless_and_distinct() {
        let names: [&[u8]; 6] = [
            b"b\xffd",
            b"b\xfed",
            br"b\xffd",
            br"a\b",
            b"e\x1b",
            br"e\u{1b}",
        ];
        let forms: Vec<String> = names.iter().map(|n| path_form(n).into_owned()).collect();
        assert_eq!(
            forms,
            [
                r"b\xffd",
                r"b\xfed",
                r"b\\xffd",
                r"a\b",
                r"e\u{1b}",
                r"e\\u{1b}"
            ]
        );
        for (name, form) in names.iter().zip(&forms) {
            assert_eq!(&*path_bytes(form), *name, "{form}");
        }
    }

    #[test]
    fn json_escapes_what_serde_json_leaves_raw() {
        assert_eq!(
            escape_json_text("[\"a\u{202e}\u{9b}\u{7f}\"]\n".to_string()),
            "[\"a\\u202e\\u009b\\u007f\"]\n"
        );
    }
}
