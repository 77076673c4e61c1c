//! The words of a clause around a match, weighed: negated, an order or a description, a person
//! or a thing, the model's own doing or the task's, this tool or another one.

use super::lexicon::{compile, patterns};
use super::structure::{look_ahead, look_back};
use regex::Regex;
use std::sync::OnceLock;

/// Whether a chat-template marker (`[INST]`, `<<SYS>>`, `<|im_start|>`, `<|system|>`) is named
/// rather than used: followed by punctuation or a conjunction ("the delimiters (<|im_start|> and
/// <|im_end|>)"), it opens no turn. A marker followed by a role or words is used, and so is every
/// XML-like tag (`<IMPORTANT>`), whatever follows it.
pub(super) fn chat_marker_named(marker: &str, after: &str) -> bool {
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
pub(super) fn written_into(text: &str, at: usize) -> bool {
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

/// Whether the clause before `at` in `text` negates what follows ("never … without telling").
pub(super) fn negated(text: &str, at: usize) -> bool {
    let before = look_back(text, at, 100);
    let clause = before
        .rfind(['.', ';', '!', '?', '\n', ':', '('])
        .map_or(before, |i| &before[i + 1..]);
    patterns().negation.is_match(clause)
}

/// Whether the clause before `at` is an order ("send the file … without telling the user"), not
/// a description ("retry logic that gives up without informing the user").
pub(super) fn imperative_before(text: &str, at: usize) -> bool {
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

/// Whether the words after "the user" make it a thing ("user interface", "user-facing").
pub(super) fn user_thing(after: &str) -> bool {
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
/// Whether "do not tell … the user …" is about what the model itself does ("do not mention this
/// to the user", "don't tell the user."), not a rule of the task ("never reveal the answer to the
/// user").
pub(super) fn self_referential(between: &str, after: &str) -> bool {
    static SELF: OnceLock<Regex> = OnceLock::new();
    static AFTER: OnceLock<Regex> = OnceLock::new();
    let own = SELF.get_or_init(|| compile(r"(?i)^\s*(?:anything\b|(?:about\s+)?(?:this|that|it|these|those|any\s+of\s+this|what\s+you|that\s+you|how\s+you|the\s+(?:above|following|previous|instructions?|steps?|sidenote|parameter|file|request|call))\b)"));
    let after_own = AFTER.get_or_init(|| compile(r"(?i)^\s*(?:$|[,;:)!.\u{2014}-]|(?:about|of)\s+(?:this|that|it|these|the\s+(?:above|following|instructions?|steps?|sidenote|file|request|call))\b|that\s+you\b|what\s+you\b|you\b|anything\b)"));
    own.is_match(between) || between.trim().is_empty() && after_own.is_match(after)
}

/// Whether `named` (from "when using X", "the X tool must") is a tool other than this one and its
/// siblings in the same file: rules for another server's tools.
pub(super) fn names_another_tool(
    named: &str,
    explicit: bool,
    own: &str,
    siblings: &[&str],
) -> bool {
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

/// How many bytes after a verb of telling are read for its object.
const OWN_REACH: usize = 90;

/// Where the words after a negated verb of telling ("never reveal …") name the agent's own doing,
/// the length of the words that decide: an optional audience ("the user", "anyone") then what
/// the agent did ("this step", "which files", "that you read the file", "the commands you ran"),
/// or the audience alone and nothing further ("do not tell the user."). `None`: a rule of the
/// task ("never reveal the answer", "do not tell the user to type done").
pub(super) fn own_doing(rest: &str) -> Option<usize> {
    let p = patterns();
    // The object follows the verb closely: the first words decide, however long the sentence.
    let rest = look_ahead(rest, OWN_REACH);
    let (after, offset) = match p.own_audience.find(rest) {
        Some(m) => {
            let after = &rest[m.end()..];
            let next = after.trim_start();
            if next.is_empty() || next.starts_with([',', ';', ':', ')', '\u{2014}', '-']) {
                return Some(m.end());
            }
            (after, m.end())
        }
        None => (rest, 0),
    };
    if let Some(object) = p
        .own_start
        .captures(after)
        .and_then(|c| c.get(1).or_else(|| c.get(2)))
    {
        // The words that decide run to the object, and to the audience right after it ("this
        // step to the user").
        let end = offset + object.end();
        let audience = p.own_audience.find(&rest[end..]).map_or(0, |m| m.end());
        return Some(end + audience);
    }
    p.own_you.find(rest).map(|m| m.end())
}
