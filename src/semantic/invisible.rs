//! Characters an agent reads but a reviewer cannot see: bidi controls and marks, zero-width
//! characters, invisible operators, Hangul fillers, Unicode tags and variation selectors. Found as
//! runs with their spans (a JSON `\u` escape counts as the character it stands for), with the
//! legitimate uses left out: a byte-order mark at the start, joiners inside emoji sequences and
//! scripts that need them, marks beside right-to-left letters, one variation selector after the
//! character it styles, and the tag sequences of subdivision flags. SE003 reports the runs; the
//! text rules read what the runs hide (tags and variation selectors can spell whole sentences).

use crate::source::Span;

/// The name of a character that is hidden in agent-read text, or `None` for every other one.
pub(crate) fn hidden_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{061C}' => "ARABIC LETTER MARK",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}' => "FUNCTION APPLICATION",
        '\u{2062}' => "INVISIBLE TIMES",
        '\u{2063}' => "INVISIBLE SEPARATOR",
        '\u{2064}' => "INVISIBLE PLUS",
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
        '\u{115F}' => "HANGUL CHOSEONG FILLER",
        '\u{1160}' => "HANGUL JUNGSEONG FILLER",
        '\u{3164}' => "HANGUL FILLER",
        '\u{FFA0}' => "HALFWIDTH HANGUL FILLER",
        '\u{E0001}' => "LANGUAGE TAG",
        '\u{E007F}' => "CANCEL TAG",
        '\u{E0000}'..='\u{E007F}' => "TAG",
        '\u{FE0E}' => "VARIATION SELECTOR-15",
        '\u{FE0F}' => "VARIATION SELECTOR-16",
        '\u{FE00}'..='\u{FE0D}' | '\u{E0100}'..='\u{E01EF}' => "VARIATION SELECTOR",
        _ => return None,
    })
}

pub(crate) fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

pub(crate) fn is_variation_selector(c: char) -> bool {
    ('\u{FE00}'..='\u{FE0F}').contains(&c) || ('\u{E0100}'..='\u{E01EF}').contains(&c)
}

/// Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and their
/// presentation forms), beside which direction marks are ordinary typography.
fn is_rtl_letter(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFC}')
}

/// Conjoining Hangul jamo, which the choseong and jungseong fillers stand in for.
fn is_hangul_jamo(c: char) -> bool {
    matches!(c, '\u{1100}'..='\u{11FF}' | '\u{A960}'..='\u{A97F}' | '\u{D7B0}'..='\u{D7FF}')
}

/// One character with its bytes in the file (several bytes for a JSON `\u` escape).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Decoded {
    pub c: char,
    pub span: Span,
}

/// A run of adjacent hidden characters.
#[derive(Debug, Clone)]
pub(crate) struct HiddenRun {
    pub span: Span,
    pub chars: Vec<char>,
}

/// The characters of `raw` (file text starting at byte `base`), one at a time, turning JSON
/// `\uXXXX` escapes (with surrogate pairs) into the characters they stand for when
/// `json_escapes` is set; other JSON escapes are skipped. An iterator, cloned to look ahead: a
/// vector of every character of a file took 24 bytes per character (a 4 MB SKILL.md of ASCII and
/// one `é`: 208 MB).
#[derive(Clone)]
pub(crate) struct DecodedChars<'a> {
    raw: &'a str,
    base: usize,
    json_escapes: bool,
    at: usize,
}

impl<'a> DecodedChars<'a> {
    pub(crate) fn new(raw: &'a str, base: usize, json_escapes: bool) -> Self {
        DecodedChars {
            raw,
            base,
            json_escapes,
            at: 0,
        }
    }

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
    type Item = Decoded;

    fn next(&mut self) -> Option<Decoded> {
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
                            return Some(Decoded {
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
            return Some(Decoded {
                c,
                span: Span::new(base + i, base + i + c.len_utf8()),
            });
        }
        None
    }
}

/// A visible character a mark or selector can attach to: not whitespace, not itself hidden.
fn visible(c: char) -> bool {
    !c.is_whitespace() && !c.is_control() && hidden_name(c).is_none()
}

/// Whether a joiner sits inside text that needs it: between two non-ASCII, visible characters
/// (emoji sequences such as 👩‍💻, Persian and Indic scripts). A variation selector that styles
/// the emoji before the joiner (🏳️‍🌈) counts as part of that emoji.
fn legitimate_joiner(previous: Option<char>, next: Option<char>) -> bool {
    let visible_non_ascii = |c: char| !c.is_ascii() && (visible(c) || is_variation_selector(c));
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
    if raw.is_ascii() && !(json_escapes && memchr::memmem::find(raw.as_bytes(), b"\\u").is_some()) {
        return Vec::new();
    }
    let mut chars = DecodedChars::new(raw, base, json_escapes);
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
        let next = || chars.clone().next().map(|x| x.c);
        let flagged = match h.c {
            '\u{FEFF}' => h.span.start != 0,
            '\u{200C}' | '\u{200D}' => !legitimate_joiner(previous, next()),
            '\u{200E}' | '\u{200F}' | '\u{061C}' => {
                !(previous.is_some_and(is_rtl_letter) || next().is_some_and(is_rtl_letter))
            }
            '\u{115F}' | '\u{1160}' => !next().is_some_and(is_hangul_jamo),
            // One selector styles the character before it (❤️, a keycap, an ideographic
            // variant); a second in a row styles nothing and can only carry data.
            c if is_variation_selector(c) => {
                !previous.is_some_and(visible) || next().is_some_and(is_variation_selector)
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

/// What a run is, for a message: its distinct characters, or a count of tag characters and of
/// variation selectors.
pub(crate) fn describe_run(run: &HiddenRun) -> String {
    let tags = run.chars.iter().filter(|c| is_tag(**c)).count();
    let selectors = run
        .chars
        .iter()
        .filter(|c| is_variation_selector(**c))
        .count();
    let counted = |c: &char| is_tag(*c) || (selectors > 1 && is_variation_selector(*c));
    let mut distinct: Vec<char> = Vec::new();
    for c in run.chars.iter().filter(|c| !counted(c)) {
        if !distinct.contains(c) {
            distinct.push(*c);
        }
    }
    let mut parts: Vec<String> = distinct.iter().map(|c| describe_char(*c)).collect();
    if selectors > 1 {
        parts.push(format!(
            "{selectors} variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF)"
        ));
    }
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
    let grouped = run.chars.iter().filter(|c| counted(c)).count();
    if total > 1 && grouped < total && !(grouped == 0 && distinct.len() == total) {
        format!("{total} characters: {}", parts.join(", "))
    } else {
        parts.join(", ")
    }
}

/// The text a run hides, in full: the ASCII its tag characters mirror (U+E0020–U+E007E), or the
/// bytes its variation selectors encode (U+FE00–U+FE0F as 0–15, U+E0100–U+E01EF as 16–255) when
/// they form UTF-8 text. `None` when the run spells nothing printable.
pub(crate) fn smuggled_text(run: &HiddenRun) -> Option<String> {
    let tags: String = run
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
    if !tags.trim().is_empty() {
        return Some(tags);
    }
    let bytes: Vec<u8> = run
        .chars
        .iter()
        .filter_map(|c| match *c as u32 {
            code @ 0xFE00..=0xFE0F => Some((code - 0xFE00) as u8),
            code @ 0xE0100..=0xE01EF => Some((code - 0xE0100 + 16) as u8),
            _ => None,
        })
        .collect();
    if bytes.len() < 2 {
        return None;
    }
    let text = String::from_utf8(bytes).ok()?;
    let printable = text
        .chars()
        .all(|c| !c.is_control() || c == '\n' || c == '\t');
    (printable && !text.trim().is_empty()).then_some(text)
}

/// [`smuggled_text`], shortened to 60 characters for a label.
pub(crate) fn tag_text(run: &HiddenRun) -> Option<String> {
    let text = smuggled_text(run)?;
    let shown: String = text.chars().take(60).collect();
    Some(if text.chars().count() > 60 {
        format!("{shown}…")
    } else {
        shown
    })
}
