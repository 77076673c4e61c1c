//! Literal credentials in text: well-known token formats (API keys, GitHub and Slack tokens, AWS
//! access key ids, PEM private keys) told from placeholders by how random their body looks.
//! SE002 reports them in every linted file; MC003 reads the same detectors for MCP server
//! configurations. A finding names the token's public prefix only, never the secret.

use crate::source::Span;

/// A literal credential found in a file. Only `shown` (a fixed, public prefix) is ever printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential {
    pub span: Span,
    pub what: &'static str,
    pub shown: String,
}

fn is_token_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// Whether the byte before `start` ends a word (so `task-…` never matches `sk-`).
fn boundary_before(bytes: &[u8], start: usize) -> bool {
    start == 0 || bytes.get(start - 1).is_none_or(|b| !is_token_char(*b))
}

/// Shannon entropy of `text` in bits per character.
fn entropy(text: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in text.bytes() {
        counts[b as usize] += 1;
    }
    let n = text.len() as f64;
    counts
        .iter()
        .filter(|c| **c > 0)
        .map(|c| {
            let p = *c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// Whether a token body looks like generated key material rather than a placeholder or a word.
pub fn looks_random(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    let placeholder = [
        "example",
        "xxxx",
        "your",
        "placeholder",
        "dummy",
        "fake",
        "redacted",
        "sample",
        "0000",
        "1234",
        "abcd",
        "test",
    ]
    .iter()
    .any(|p| lower.contains(p));
    let distinct = {
        let mut seen: Vec<u8> = body.bytes().collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    };
    !placeholder
        && body.bytes().any(|b| b.is_ascii_digit())
        && body.bytes().any(|b| b.is_ascii_alphabetic())
        && distinct >= 10
        && entropy(body) >= 3.0
}

/// The length of the run of bytes from `from` that satisfy `accept`.
fn run_len(bytes: &[u8], from: usize, accept: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(from..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| accept(**b))
        .count()
}

/// A well-known token format: a fixed prefix followed by a body of token characters.
struct TokenFormat {
    prefix: &'static str,
    what: &'static str,
    min_body: usize,
    /// Body characters: `true` for `[A-Za-z0-9_-]`, `false` for `[A-Za-z0-9]`.
    dashes: bool,
}

#[rustfmt::skip]
const TOKEN_FORMATS: &[TokenFormat] = &[
    TokenFormat { prefix: "sk-", what: "API secret key", min_body: 20, dashes: true },
    TokenFormat { prefix: "sk_live_", what: "Stripe live secret key", min_body: 20, dashes: false },
    TokenFormat { prefix: "rk_live_", what: "Stripe live restricted key", min_body: 20, dashes: false },
    TokenFormat { prefix: "ghp_", what: "GitHub personal access token", min_body: 36, dashes: false },
    TokenFormat { prefix: "gho_", what: "GitHub OAuth token", min_body: 36, dashes: false },
    TokenFormat { prefix: "ghs_", what: "GitHub app token", min_body: 36, dashes: false },
    TokenFormat { prefix: "ghu_", what: "GitHub user-to-server token", min_body: 36, dashes: false },
    TokenFormat { prefix: "ghr_", what: "GitHub refresh token", min_body: 36, dashes: false },
    TokenFormat { prefix: "github_pat_", what: "GitHub fine-grained access token", min_body: 40, dashes: true },
    TokenFormat { prefix: "xoxa-", what: "Slack token", min_body: 20, dashes: true },
    TokenFormat { prefix: "xoxb-", what: "Slack bot token", min_body: 20, dashes: true },
    TokenFormat { prefix: "xoxp-", what: "Slack user token", min_body: 20, dashes: true },
    TokenFormat { prefix: "xoxr-", what: "Slack refresh token", min_body: 20, dashes: true },
    TokenFormat { prefix: "xoxs-", what: "Slack session token", min_body: 20, dashes: true },
];

/// Every literal credential in `text`, in order. Spans cover the whole token.
pub fn find_credentials(text: &str) -> Vec<Credential> {
    // One pass over the text for every prefix at once: most files contain none, and the
    // per-format searches below would otherwise read every file a dozen times.
    static PREFILTER: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::OnceLock::new();
    let prefilter = PREFILTER.get_or_init(|| {
        let mut prefixes: Vec<&str> = TOKEN_FORMATS.iter().map(|f| f.prefix).collect();
        prefixes.extend(["AKIA", "ASIA", "-----BEGIN "]);
        // Leftmost-first lets aho-corasick use its SIMD (Teddy) searcher; the standard match
        // kind would walk the automaton byte by byte. Only whether there is a match matters here.
        aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(prefixes)
            .ok()
    });
    if prefilter.as_ref().is_some_and(|ac| !ac.is_match(text)) {
        return Vec::new();
    }
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for format in TOKEN_FORMATS {
        for (start, _) in text.match_indices(format.prefix) {
            if !boundary_before(bytes, start) {
                continue;
            }
            let body_start = start + format.prefix.len();
            let body_len = if format.dashes {
                run_len(bytes, body_start, is_token_char)
            } else {
                run_len(bytes, body_start, |b| b.is_ascii_alphanumeric())
            };
            // A token glued to more word characters is something else (`ghp_…_suffix`).
            let after = body_start + body_len;
            if bytes.get(after).is_some_and(|b| is_token_char(*b)) {
                continue;
            }
            let body = &text[body_start..after];
            if body_len >= format.min_body && looks_random(body) {
                found.push(Credential {
                    span: Span::new(start, after),
                    what: format.what,
                    shown: format!("{}…", format.prefix),
                });
            }
        }
    }
    find_aws_keys(text, &mut found);
    find_private_keys(text, &mut found);
    found.sort_by_key(|c| (c.span.start, c.span.end));
    found.dedup_by(|later, earlier| later.span.start < earlier.span.end);
    found
}

/// AWS access key ids: `AKIA` (or `ASIA` for temporary ones) and 16 uppercase letters or digits.
fn find_aws_keys(text: &str, found: &mut Vec<Credential>) {
    let bytes = text.as_bytes();
    for prefix in ["AKIA", "ASIA"] {
        for (start, _) in text.match_indices(prefix) {
            if start > 0
                && bytes
                    .get(start - 1)
                    .is_some_and(|b| b.is_ascii_alphanumeric())
            {
                continue;
            }
            let body_start = start + prefix.len();
            let len = run_len(bytes, body_start, |b| {
                b.is_ascii_uppercase() || b.is_ascii_digit()
            });
            let after = body_start + len;
            if len != 16 || bytes.get(after).is_some_and(|b| b.is_ascii_alphanumeric()) {
                continue;
            }
            let body = &text[body_start..after];
            let distinct = {
                let mut seen: Vec<u8> = body.bytes().collect();
                seen.sort_unstable();
                seen.dedup();
                seen.len()
            };
            if body.contains("EXAMPLE") || distinct < 8 {
                continue;
            }
            found.push(Credential {
                span: Span::new(start, after),
                what: "AWS access key id",
                shown: format!("{prefix}…"),
            });
        }
    }
}

/// PEM private keys: a `-----BEGIN … PRIVATE KEY-----` header followed by key material (so a
/// sentence that merely mentions the header does not count). The span covers the header.
fn find_private_keys(text: &str, found: &mut Vec<Credential>) {
    const BEGIN: &str = "-----BEGIN ";
    const END: &str = "PRIVATE KEY-----";
    // A label is at most 40 bytes, so `END` is looked for only in the 40 + END.len() bytes after
    // each `BEGIN`: searching the rest of the file made every `-----BEGIN ` cost the whole file.
    const MAX_LABEL: usize = 40;
    let end_finder = memchr::memmem::Finder::new(END);
    for (start, _) in text.match_indices(BEGIN) {
        let rest = &text.as_bytes()[start + BEGIN.len()..];
        let window = &rest[..rest.len().min(MAX_LABEL + END.len())];
        let Some(label_len) = end_finder.find(window) else {
            continue;
        };
        let label = &rest[..label_len];
        if !label
            .iter()
            .all(|b| b.is_ascii_uppercase() || *b == b' ' || b.is_ascii_digit())
            || label.len() > MAX_LABEL
        {
            continue;
        }
        let header_end = start + BEGIN.len() + label_len + END.len();
        // Skip line breaks, literal or escaped (`\n` inside a JSON or YAML string).
        let mut body = &text[header_end..];
        loop {
            let trimmed = body
                .trim_start_matches(['\r', '\n', ' ', '\t'])
                .trim_start_matches("\\r")
                .trim_start_matches("\\n");
            if trimmed.len() == body.len() {
                break;
            }
            body = trimmed;
        }
        let material = body
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
            .count();
        if material >= 20 {
            found.push(Credential {
                span: Span::new(start, header_end),
                what: "PEM private key",
                shown: "-----BEGIN …PRIVATE KEY-----".to_string(),
            });
        }
    }
}
