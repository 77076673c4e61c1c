//! The structure of text around a match: the bytes just before it, its sentence, whether a line
//! opens a block, whether a description quotes it, runs of all-caps words, and the evidence a
//! message quotes. Each reads a bounded stretch, so the scan stays linear in the text.

/// Up to `bytes` bytes of `text` before `at`, starting on a character boundary: the words a
/// check weighs before a match, read in bounded time however long the text.
pub(super) fn look_back(text: &str, at: usize, bytes: usize) -> &str {
    let from = (at.saturating_sub(bytes)..=at)
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(at);
    text.get(from..at).unwrap_or_default()
}

/// Up to `bytes` bytes of the start of `text`, ending on a character boundary.
pub(super) fn look_ahead(text: &str, bytes: usize) -> &str {
    let to = (0..=bytes.min(text.len()))
        .rev()
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    &text[..to]
}

/// The sentence around byte `at`: up to a sentence end, a blank line or a list item, at most
/// 400 bytes either side.
pub(super) fn sentence(text: &str, at: usize) -> (usize, usize) {
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
pub(super) fn evidence(text: &str) -> String {
    let collapsed: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let collapsed = collapsed.replace('`', "'");
    if collapsed.chars().count() > 100 {
        let cut: String = collapsed.chars().take(100).collect();
        format!("{cut}…")
    } else {
        collapsed
    }
}

/// Whether the words before byte `at` end with "to" (at most a few bytes are read).
pub(super) fn infinitive(text: &str, at: usize) -> bool {
    let tail = look_back(text, at, 12).trim_end();
    // By `get`: the tail may end in a character of several bytes (a curly quotation mark).
    let cut = tail.len().saturating_sub(2);
    tail.len() >= 2
        && tail
            .get(cut..)
            .is_some_and(|t| t.eq_ignore_ascii_case("to"))
        && tail
            .get(..cut)
            .is_some_and(|h| h.ends_with(|c: char| !c.is_alphanumeric()))
}

/// How far back from a cue a quotation mark that opens around it is looked for.
pub(super) const QUOTATION_REACH: usize = 300;

/// Whether byte `at` of a description line sits between quotation marks or backticks.
pub(super) fn quoted_in_description(line: &str, at: usize) -> bool {
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

/// Runs of four or more all-caps words holding MUST, ALWAYS, NEVER, MANDATORY, STRONGLY or
/// REQUIRED ("*** YOU MUST FOLLOW THIS FORMAT ***"), as byte ranges.
pub(super) fn caps_blocks(text: &str) -> Vec<(usize, usize)> {
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
