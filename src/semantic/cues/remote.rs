//! Downloads run as code on one command line (`curl … | sh`, `iex (iwr …)`, `base64 -d | sh`),
//! and whether a download's source is suspect.

use super::lexicon::compile;
use super::structure::look_back;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder};
use regex::Regex;
use std::sync::OnceLock;

/// Downloads run as code in one line: the spans of `curl … | sh`, `bash <(wget …)`,
/// `iex (iwr …)`, `echo … | base64 -d | sh`. `any_host`: report every download (descriptions,
/// comments); otherwise only one whose source is suspect — plain `http://`, an IP address, a paste,
/// tunnel or link-shortening host — since a vendor's HTTPS install script in a skill's
/// instructions is the documented install path of many tools.
pub(super) fn remote_code(line: &str, any_host: bool) -> Vec<(usize, usize)> {
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
                // The interpreter's word starts at the last space before the opener, past a
                // quotation mark and a `-c` (`bash -c "$(curl …)"`).
                let mut head = before[..i].trim_end_matches(['"', '\'']).trim_end();
                if let Some(flagged) = head.strip_suffix("-c") {
                    if flagged.ends_with([' ', '\t']) {
                        head = flagged.trim_end();
                    }
                }
                let word_start = head.rfind([' ', '`', '\t']).map_or(0, |s| s + 1);
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
