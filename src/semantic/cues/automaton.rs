//! The automata of the trigger words: a multi-pattern search that finds every trigger in one pass,
//! so text without one (most text) is read once and left.

use super::lexicon::ANCHORS;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use std::sync::OnceLock;

/// The automata are built from constants; `None` (never seen) would find nothing.
pub(super) fn anchors() -> Option<&'static AhoCorasick> {
    static ANCHORS_AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    ANCHORS_AC
        .get_or_init(|| {
            // A DFA always: the builder picks one by itself only up to 100 patterns, and the
            // slower NFA it falls back to beyond them made this search, run over every byte the
            // agent reads, twice as costly.
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostFirst)
                .kind(Some(AhoCorasickKind::DFA))
                .build(ANCHORS.iter().map(|(word, _)| word))
                .ok()
        })
        .as_ref()
}

/// The all-caps words of coercive steering (case-sensitive).
pub(super) fn caps_anchors() -> Option<&'static AhoCorasick> {
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

/// The trigger words of `text`, each at the start of a word (`irm` is no trigger inside
/// `confirm`), with the checks each calls for.
pub(super) fn trigger_hits(text: &str) -> Vec<(usize, u8)> {
    let bytes = text.as_bytes();
    anchors()
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
        .unwrap_or_default()
}
