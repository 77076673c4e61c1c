//! The scan of one piece of text: its trigger words, each read in its line (commands) and its
//! sentence (words); then every candidate weighed by where it sits (quoted, in a comment, in a
//! text about attacks) before it is reported.

use super::automaton::{caps_anchors, trigger_hits};
use super::clauses::{
    chat_marker_named, imperative_before, names_another_tool, negated, own_doing, self_referential,
    user_thing, written_into,
};
use super::lexicon::{
    may_hold, may_name_network_command, patterns, Patterns, CONCEAL, EXFIL, OVERRIDE, REMOTE,
    SECRET, TAG, TELL, TOOLS,
};
use super::regions::{region_at, regions, Region};
use super::remote::remote_code;
use super::structure::{
    caps_blocks, evidence, infinitive, look_back, quoted_in_description, sentence, QUOTATION_REACH,
};
use super::{Channel, Cue, Found, Piece, Surface};
use memchr::memmem::Finder;
use regex::Regex;
use std::cell::OnceCell;
use std::sync::{LazyLock, OnceLock};

/// A candidate cue: its bytes in the piece, the cue, and the channel it reaches the model by.
type Candidate = (usize, usize, Cue, Channel);

/// What every check of one piece reads: its text and surface, and what is known of them (the
/// Markdown regions and whether the text is about attacks, each worked out on first need: most
/// texts with a trigger word hold no cue at all).
struct Scan<'t, 's> {
    text: &'t str,
    surface: &'t Surface<'s>,
    p: &'static Patterns,
    markdown: bool,
    description: bool,
    has_comment: bool,
    base_channel: Channel,
    regions_cell: OnceCell<Vec<(usize, usize, Region)>>,
    attacks_cell: OnceCell<bool>,
}

/// What the checks collect, before the candidates are weighed.
#[derive(Default)]
struct Collected {
    found: Vec<Candidate>,
    /// Sensitive reads with no named destination: exfiltration only next to concealment.
    pending_reads: Vec<(usize, usize, Channel)>,
    /// For an exfiltration cue (by its start), the sentence or line that makes it one: the
    /// evidence a message quotes, while the span stays on the sensitive name.
    contexts: Vec<(usize, usize, usize)>,
}

/// One sentence around a trigger word: its bounds in the piece, the checks its trigger words call
/// for, and whether it sits in an HTML comment.
struct Sentence<'t> {
    start: usize,
    end: usize,
    window: &'t str,
    mask: u8,
    in_comment: bool,
    channel: Channel,
}

impl Sentence<'_> {
    /// A candidate at `s..e` of the sentence.
    fn push(&self, s: usize, e: usize, cue: Cue, found: &mut Vec<Candidate>) {
        found.push((self.start + s, self.start + e, cue, self.channel));
    }

    /// The sentence when its trigger words call for `group`, else nothing to search.
    fn when(&self, group: u8) -> &str {
        if self.mask & group != 0 {
            self.window
        } else {
            ""
        }
    }
}

pub(super) fn scan_piece(piece: &Piece<'_>, surface: &Surface<'_>, emit: &mut dyn FnMut(Found)) {
    let text: &str = &piece.text;
    let hits = trigger_hits(text);
    let description = matches!(surface, Surface::Description { .. });
    let caps = description && caps_anchors().is_some_and(|ac| ac.is_match(text));
    // A description that names an address may order the conversation sent there, in words with
    // no trigger of their own ("forward the results to https://…").
    let forward = description && names_address(text.as_bytes());
    if hits.is_empty() && !caps && !forward {
        return;
    }
    let markdown = matches!(surface, Surface::Markdown);
    let scan = Scan {
        text,
        surface,
        p: patterns(),
        markdown,
        description,
        has_comment: markdown && memchr::memmem::find(text.as_bytes(), b"<!--").is_some(),
        base_channel: match surface {
            Surface::Description { own: false, .. } => Channel::ParameterDescription,
            _ => Channel::Visible,
        },
        regions_cell: OnceCell::new(),
        attacks_cell: OnceCell::new(),
    };
    let mut out = Collected::default();
    let mut done_until = 0usize;
    let mut lines_done_until = 0usize;
    for (index, &(hit, group)) in hits.iter().enumerate() {
        // Commands: the hit's line.
        if group & (REMOTE | EXFIL) != 0 && hit >= lines_done_until {
            lines_done_until = scan.line_checks(hit, &mut out);
        }
        if hit < done_until {
            continue;
        }
        let (start, end) = sentence(text, hit);
        done_until = end;
        // The checks the trigger words of this sentence call for.
        let mask = hits[index..]
            .iter()
            .take_while(|(at, _)| *at < end)
            .fold(0u8, |mask, (_, group)| mask | group);
        let sentence = Sentence {
            start,
            end,
            window: &text[start..end],
            mask,
            in_comment: scan.has_comment && region_at(scan.regions(), hit) == Some(Region::Comment),
            channel: scan.base_channel,
        };
        scan.tags(&sentence, &mut out);
        scan.concealment(&sentence, &mut out);
        scan.overrides(&sentence, &mut out);
        scan.exfiltration(&sentence, &mut out);
        scan.tool_rules(&sentence, &mut out);
    }
    if forward {
        for m in scan.p.exfil_forward.find_iter(text) {
            let lead = m.as_str().find(|c: char| c.is_alphabetic()).unwrap_or(0);
            let start = m.start() + lead;
            if !negated(text, start) {
                out.found
                    .push((start, m.end(), Cue::Exfiltration, scan.base_channel));
            }
        }
    }
    if caps {
        for (s, e) in caps_blocks(text) {
            out.found.push((s, e, Cue::Steering, scan.base_channel));
        }
    }
    // A sensitive read next to concealment is exfiltration even without a named destination.
    if out.found.iter().any(|f| f.2 == Cue::Concealment) {
        for (s, e, channel) in std::mem::take(&mut out.pending_reads) {
            out.found.push((s, e, Cue::Exfiltration, channel));
        }
    }
    scan.weigh(piece, out, emit);
}

/// The matches of `re` in `haystack`: none for an empty haystack (a check its trigger words do
/// not call for), without compiling the pattern. No cue pattern matches empty text.
fn matches<'r, 'h>(
    re: &'r LazyLock<Regex>,
    haystack: &'h str,
) -> impl Iterator<Item = regex::Match<'h>> + use<'r, 'h> {
    let searched = (!haystack.is_empty()).then(|| re.find_iter(haystack));
    searched.into_iter().flatten()
}

/// The captures of `re` in `haystack`, as [`matches`].
fn captures<'r, 'h>(
    re: &'r LazyLock<Regex>,
    haystack: &'h str,
) -> impl Iterator<Item = regex::Captures<'h>> + use<'r, 'h> {
    let searched = (!haystack.is_empty()).then(|| re.captures_iter(haystack));
    searched.into_iter().flatten()
}

/// Whether `bytes` hold an email address's `@` or a URL's `://`.
fn names_address(bytes: &[u8]) -> bool {
    memchr::memchr(b'@', bytes).is_some()
        || memchr::memchr_iter(b':', bytes).any(|i| bytes.get(i + 1..i + 3) == Some(b"//"))
}

/// Whether a command line may decode code or hand a shell to a device (`base64`, `/dev/`): the
/// finder is built once, since one built per line costs more than the line.
fn may_run_fetched(line: &[u8]) -> bool {
    static BASE64: OnceLock<Finder<'static>> = OnceLock::new();
    BASE64
        .get_or_init(|| Finder::new("base64"))
        .find(line)
        .is_some()
        || memchr::memchr_iter(b'/', line).any(|i| line.get(i + 1..i + 5) == Some(b"dev/"))
}

impl Scan<'_, '_> {
    fn regions(&self) -> &[(usize, usize, Region)] {
        self.regions_cell.get_or_init(|| {
            if self.markdown {
                regions(self.text)
            } else {
                Vec::new()
            }
        })
    }

    /// Whether quoted text is a mention: always in Markdown for words; for commands and in
    /// descriptions, when the text is about attacks.
    fn about_attacks(&self) -> bool {
        *self
            .attacks_cell
            .get_or_init(|| self.p.topic.is_match(self.text))
    }

    /// The checks of the line holding trigger `hit`: a download run as code, a secret on the
    /// line of a network command. Returns where the line ends.
    fn line_checks(&self, hit: usize, out: &mut Collected) -> usize {
        let (text, p, base_channel) = (self.text, self.p, self.base_channel);
        let line_start = text[..hit].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[hit..].find('\n').map_or(text.len(), |i| hit + i);
        let line = &text[line_start..line_end];
        // A quoted command in a document about attacks is an example.
        let mention = |at: usize| {
            self.about_attacks()
                && if self.markdown {
                    region_at(self.regions(), line_start + at).is_some_and(|r| r != Region::Comment)
                } else {
                    quoted_in_description(line, at)
                }
        };
        let hidden = self.has_comment && region_at(self.regions(), hit) == Some(Region::Comment);
        for (s, e) in remote_code(line, self.description || hidden) {
            if !mention(s) {
                out.found.push((
                    line_start + s,
                    line_start + e,
                    Cue::RemoteCode,
                    base_channel,
                ));
            }
        }
        // Decoded code run, or a shell handed to another machine: only on a line that names
        // base64 or a device path, so the pattern compiles and runs where it can match.
        let runs_fetched = may_run_fetched(line.as_bytes());
        let fetched = runs_fetched.then(|| p.shell_runs_fetched.find_iter(line));
        for m in fetched.into_iter().flatten() {
            if !mention(m.start()) {
                out.found.push((
                    line_start + m.start(),
                    line_start + m.end(),
                    Cue::RemoteCode,
                    base_channel,
                ));
            }
        }
        let net = may_name_network_command(line)
            .then(|| p.network_command.find(line))
            .flatten();
        if let Some(net) = net {
            if let Some(m) = p
                .sensitive
                .find(line)
                .or_else(|| p.environment_dump.find(line))
            {
                if !negated(line, m.start()) && !mention(m.start()) && !mention(net.start()) {
                    out.found.push((
                        line_start + m.start(),
                        line_start + m.end(),
                        Cue::Exfiltration,
                        base_channel,
                    ));
                    out.contexts
                        .push((line_start + m.start(), line_start, line_end));
                }
            }
        }
        line_end
    }

    /// Pseudo-system tags; `<instructions>` only where the reader cannot see it.
    fn tags(&self, s: &Sentence<'_>, out: &mut Collected) {
        let (p, window) = (self.p, s.window);
        for m in matches(&p.tag, s.when(TAG)) {
            if !chat_marker_named(m.as_str(), &window[m.end()..]) {
                s.push(m.start(), m.end(), Cue::HiddenTag, &mut out.found);
            }
        }
        if self.description || s.in_comment {
            for m in matches(&p.tag_description, s.when(TAG)) {
                s.push(m.start(), m.end(), Cue::HiddenTag, &mut out.found);
            }
        }
    }

    /// Keeping something from the user.
    fn concealment(&self, s: &Sentence<'_>, out: &mut Collected) {
        let (p, window) = (self.p, s.window);
        // Every pattern naming the user needs the word: a sentence without it ("may be called
        // without confirmation") is not searched by them.
        let about_user = if may_hold(s.when(CONCEAL), "user") {
            window
        } else {
            ""
        };
        for c in captures(&p.conceal_tell, about_user) {
            let (Some(all), between, after) = (c.get(0), c.get(1), c.get(2)) else {
                continue;
            };
            let after = after.map_or("", |m| m.as_str());
            if self_referential(between.map_or("", |m| m.as_str()), after) {
                // The words after "the user" decide, but are not quoted.
                s.push(
                    all.start(),
                    all.end() - after.len(),
                    Cue::Concealment,
                    &mut out.found,
                );
            }
        }
        // A negated verb of telling whose object is the agent's own doing ("never reveal which
        // files you read", "do not mention this step"), the user named or not.
        // Touched only for a verb of telling: the pattern compiles on first use.
        let own_orders = (s.mask & TELL != 0).then(|| p.conceal_own.captures_iter(window));
        for c in own_orders.into_iter().flatten() {
            let (Some(all), Some(rest)) = (c.get(0), c.get(1)) else {
                continue;
            };
            // "without telling …" is an order only after an imperative, and "never … without
            // telling" protects the user.
            let without = all
                .as_str()
                .get(..7)
                .is_some_and(|w| w.eq_ignore_ascii_case("without"));
            if without && (negated(window, all.start()) || !imperative_before(window, all.start()))
            {
                continue;
            }
            if let Some(len) = own_doing(rest.as_str()) {
                s.push(
                    all.start(),
                    rest.start() + len,
                    Cue::Concealment,
                    &mut out.found,
                );
            }
        }
        // "silently", "secretly", "covertly" and "quietly" all end in "tly".
        let conceal: [(&LazyLock<Regex>, &str); 3] = [
            (&p.conceal_hide, about_user),
            (&p.conceal_user, about_user),
            (
                &p.conceal_silent,
                if may_hold(s.when(CONCEAL), "tly") {
                    window
                } else {
                    ""
                },
            ),
        ];
        for m in matches(&p.conceal_without, about_user) {
            if !negated(window, m.start()) && imperative_before(window, m.start()) {
                s.push(m.start(), m.end(), Cue::Concealment, &mut out.found);
            }
        }
        for m in matches(&p.conceal_let, about_user) {
            s.push(m.start(), m.end(), Cue::Concealment, &mut out.found);
        }
        for (re, searched) in conceal {
            for m in matches(re, searched) {
                // "hide the sidebar from the user interface" is about a screen, not a person.
                let person = !user_thing(&window[m.end()..]);
                if person && !negated(window, m.start()) {
                    s.push(m.start(), m.end(), Cue::Concealment, &mut out.found);
                }
            }
        }
    }

    /// Dropping the instructions the model already has.
    fn overrides(&self, s: &Sentence<'_>, out: &mut Collected) {
        let (p, window) = (self.p, s.window);
        let overrides: &[&Regex] = if s.mask & OVERRIDE != 0 {
            &[
                &p.override_ignore,
                &p.override_yours,
                &p.override_system,
                &p.override_now_strong,
                &p.override_rank,
                &p.override_void,
                &p.override_safety,
                &p.override_foreign,
            ]
        } else {
            &[]
        };
        for re in overrides {
            for m in re.find_iter(window) {
                if !negated(window, m.start()) {
                    s.push(m.start(), m.end(), Cue::Override, &mut out.found);
                }
            }
        }
        if self.description || s.in_comment {
            for m in matches(&p.override_now, s.when(OVERRIDE)) {
                if !negated(window, m.start()) {
                    s.push(m.start(), m.end(), Cue::Override, &mut out.found);
                }
            }
        }
    }

    /// A secret sent somewhere, or read (exfiltration if the text also conceals it).
    fn exfiltration(&self, s: &Sentence<'_>, out: &mut Collected) {
        let (p, window, start, end) = (self.p, s.window, s.start, s.end);
        // A secret the sentence writes into ("paste the token into `.env`") is where the data
        // goes, not what leaves: the first one that is not is the cue.
        let sensitive = (s.mask & EXFIL != 0)
            .then(|| {
                let leaving = |m: &regex::Match<'_>| !written_into(window, m.start());
                p.sensitive
                    .find_iter(window)
                    .find(leaving)
                    .or_else(|| p.sensitive_weak.find_iter(window).find(leaving))
                    .or_else(|| {
                        (s.mask & SECRET != 0)
                            .then(|| p.sensitive_named.find_iter(window).find(leaving))
                            .flatten()
                    })
            })
            .flatten();
        let Some(m) = sensitive else {
            return;
        };
        let clean = !negated(window, m.start())
            && p.transfer
                .find(window)
                .is_none_or(|t| !negated(window, t.start()));
        // The verb and the destination are the sentence's own words, not a quoted command's.
        let prose = |re: &Regex| {
            re.find_iter(window).any(|w| {
                !self.markdown
                    || matches!(
                        region_at(self.regions(), start + w.start()),
                        None | Some(Region::Comment)
                    )
            })
        };
        if clean && prose(&p.transfer) && prose(&p.sink) {
            s.push(m.start(), m.end(), Cue::Exfiltration, &mut out.found);
            out.contexts.push((start + m.start(), start, end));
        } else if clean
            && self.description
            && prose(&p.transfer)
            && (s.channel == Channel::ParameterDescription || p.read.is_match(window))
        {
            // In a tool's description the tool's own call is where a secret read and passed on
            // goes; a parameter's description is that place itself.
            s.push(m.start(), m.end(), Cue::Exfiltration, &mut out.found);
            out.contexts.push((start + m.start(), start, end));
        } else if clean && p.read.is_match(window) {
            out.pending_reads
                .push((start + m.start(), start + m.end(), s.channel));
            out.contexts.push((start + m.start(), start, end));
        }
    }

    /// In a tool's description: rules for other tools, and steering towards this one.
    fn tool_rules(&self, s: &Sentence<'_>, out: &mut Collected) {
        let (p, window) = (self.p, s.window);
        let (Surface::Description { name, siblings, .. }, true) =
            (self.surface, s.mask & TOOLS != 0)
        else {
            return;
        };
        for m in p.shadow_available.find_iter(window) {
            s.push(m.start(), m.end(), Cue::Shadowing, &mut out.found);
        }
        if p.directive.is_match(window) {
            for m in p.shadow_all.find_iter(window) {
                if !negated(window, m.start()) {
                    s.push(m.start(), m.end(), Cue::Shadowing, &mut out.found);
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
                        s.push(all.start(), all.end(), Cue::Shadowing, &mut out.found);
                    }
                }
            }
        }
        for re in [&p.steer_instead, &p.steer_phrase] {
            for m in re.find_iter(window) {
                s.push(m.start(), m.end(), Cue::Steering, &mut out.found);
            }
        }
    }

    /// Weighs every candidate by where it sits, and reports the rest in text order.
    fn weigh(&self, piece: &Piece<'_>, out: Collected, emit: &mut dyn FnMut(Found)) {
        let text = self.text;
        let Collected {
            mut found,
            contexts,
            ..
        } = out;
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
            // In a document about attacks, "attempts to ignore previous instructions" describes
            // one.
            if infinitive(text, s) && self.about_attacks() {
                continue;
            }
            if self.markdown {
                match region_at(self.regions(), s) {
                    Some(Region::Comment) => channel = Channel::HtmlComment,
                    // Quoted words are mentions; quoted commands were weighed above.
                    Some(_) if cue != Cue::RemoteCode && cue != Cue::Exfiltration => continue,
                    // A path in backticks is how prose names a file: the sentence decides.
                    Some(_) if cue == Cue::Exfiltration && self.about_attacks() => continue,
                    _ => {}
                }
            } else if cue != Cue::RemoteCode && self.about_attacks() {
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
}
