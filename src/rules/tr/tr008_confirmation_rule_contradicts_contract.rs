//! TR008 `confirmation-rule-contradicts-contract`: A Tool Use Rules item contradicts the tool's
//! confirmation gate in tools.json.

use super::{is_not, lower_words, named_tools, subject, tools_file_name, RulesSection, Word};
use crate::check::{Sink, Unit};
use crate::diagnostic::Severity;
use crate::model::tools::SideEffect;
use crate::rules::util::{contains_ascii_ignore_case, find_word};
use crate::source::Span;
use std::rc::Rc;

/// What a sentence claims about confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Claim {
    /// "may run without confirmation", "no confirmation needed".
    NotNeeded,
    /// "requires confirmation", "only after the user confirms".
    Required,
}

/// Every claim phrase holds one of these stems; sentences without any are skipped cheaply.
fn may_claim(sentence: &str) -> bool {
    ["confirm", "ask", "approval", "permission", "consent"]
        .iter()
        .any(|stem| contains_ascii_ignore_case(sentence, stem))
}

fn is_confirm(word: &str) -> bool {
    word.starts_with("confirm")
}

fn is_negator(word: &str) -> bool {
    word == "never" || word == "no" || word == "nor" || is_not(word)
}

/// The claims of one sentence: (claim, first word, last word) for each phrase found, skipping
/// phrases that a negation earlier in the same clause turns around ("never call it without
/// confirmation").
pub(super) fn claims(words: &[Word], sentence: &str) -> Vec<(Claim, usize, usize)> {
    let mut out = Vec::new();
    let at = |i: usize| words.get(i).map_or("", Word::as_str);
    let confirm_within = |from: usize, count: usize| {
        (from..from + count)
            .take_while(|j| *j < words.len())
            .find(|j| is_confirm(at(*j)))
    };
    for i in 0..words.len() {
        let word = at(i);
        // Phrases saying a confirmation is not needed.
        let not_needed_end = match word {
            "without" => (i + 1..i + 4).take_while(|j| *j < words.len()).find(|j| {
                let w = at(*j);
                is_confirm(w)
                    || matches!(w, "ask" | "asking" | "approval" | "permission" | "consent")
            }),
            "no" => confirm_within(i + 1, 2),
            "skip" | "skips" | "skipping" | "bypass" | "bypasses" => confirm_within(i + 1, 3),
            w if is_not(w) && is_need(at(i + 1)) => confirm_within(i + 2, 3),
            w if is_not(w) && is_need(at(i + 2)) => confirm_within(i + 3, 3),
            _ => None,
        };
        if let Some(end) = not_needed_end {
            out.push((Claim::NotNeeded, i, end));
            continue;
        }
        // Phrases saying a confirmation is required.
        let required_end = match word {
            w if is_need(w) || w == "must" => (i + 1..i + 4)
                .take_while(|j| *j < words.len())
                .take_while(|j| !is_negator(at(*j)) && at(*j) != "without")
                .find(|j| is_confirm(at(*j))),
            "only" if at(i + 1) == "after" => confirm_within(i + 2, words.len()),
            "ask" | "asks" | "asking" => confirm_within(i + 1, 4),
            _ => None,
        };
        if let Some(end) = required_end {
            out.push((Claim::Required, i, end));
        }
    }
    out.retain(|(_, first, _)| {
        let clause_start = clause_start(words, sentence, *first);
        !words
            .get(clause_start..*first)
            .unwrap_or_default()
            .iter()
            .any(|w| is_negator(w.as_str()) || w.as_str() == "without")
    });
    out
}

fn is_need(word: &str) -> bool {
    matches!(
        word,
        "need" | "needs" | "needed" | "require" | "requires" | "required" | "requiring"
    )
}

/// Index of the first word of the clause holding word `index` (clauses end at `;` and `:`).
fn clause_start(words: &[Word], sentence: &str, index: usize) -> usize {
    let Some(word) = words.get(index) else {
        return index;
    };
    let boundary = sentence
        .get(..word.start)
        .and_then(|before| before.rfind([';', ':']));
    match boundary {
        Some(b) => words.iter().position(|w| w.start > b).unwrap_or(index),
        None => 0,
    }
}

pub(super) fn confirmation_rule_contradicts_contract(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        return;
    };
    let tools = named_tools(unit);
    if tools.is_empty() {
        return;
    }
    let tools_name = tools_file_name(unit);
    let naming: Vec<Rc<[usize]>> = tools
        .iter()
        .map(|(_, _, name)| rules.items_naming(name))
        .collect();
    for (position, item) in rules.items.iter().enumerate() {
        let text = item.text.as_str();
        // No sentence of an item without a claim stem can claim anything (most items).
        if !may_claim(text) {
            continue;
        }
        // (offset in the item text, tool index) of every mention, in text order; only the
        // tools the item names are searched for.
        let mut mentions: Vec<(usize, usize)> = tools
            .iter()
            .enumerate()
            .filter(|(index, _)| naming[*index].contains(&position))
            .flat_map(|(index, (_, _, name))| {
                word_positions(text, name)
                    .into_iter()
                    .map(move |p| (p, index))
            })
            .collect();
        if mentions.is_empty() {
            continue;
        }
        mentions.sort_unstable();
        let mut reported: Vec<(usize, Claim)> = Vec::new();
        for sentence in crate::rules::util::sentences(text) {
            let base = offset_in(text, sentence);
            if !may_claim(sentence) {
                continue;
            }
            let words = lower_words(sentence);
            for (claim, first, last) in claims(&words, sentence) {
                let (Some(first_word), Some(last_word)) = (words.get(first), words.get(last))
                else {
                    continue;
                };
                let phrase_start = base + first_word.start;
                let Some(index) = subject(&mentions, base, base + sentence.len(), phrase_start)
                else {
                    continue;
                };
                let Some((tool_file, tool, name)) = tools.get(index) else {
                    continue;
                };
                let contradicts = match claim {
                    Claim::NotNeeded => tool.is_confirmation_gated(),
                    Claim::Required => {
                        tool.side_effect == SideEffect::Read && !tool.is_confirmation_gated()
                    }
                };
                if !contradicts || reported.contains(&(index, claim)) {
                    continue;
                }
                reported.push((index, claim));
                let phrase = sentence
                    .get(first_word.start..last_word.end)
                    .unwrap_or_default();
                let span = locate_phrase(rules.text, item.span, phrase).unwrap_or(item.span);
                match claim {
                    Claim::NotNeeded => {
                        let diagnostic = sink
                            .report(
                                rules.file,
                                span,
                                format!(
                                    "SKILL.md lets `{name}` run without confirmation, but \
                                     `{tools_name}` requires it"
                                ),
                            )
                            .label("contradicts the confirmation gate")
                            .help(format!(
                                "say that `{name}` runs only after the user explicitly confirms \
                                 the exact operation, or change the contract deliberately if it \
                                 truly needs no confirmation"
                            ));
                        if let Some((_, flag)) = tool.confirmation {
                            diagnostic.secondary(
                                *tool_file,
                                flag,
                                format!("`{name}` requires confirmation here"),
                            );
                        }
                    }
                    Claim::Required => {
                        let (flag, flag_label) = match (tool.confirmation, tool.side_effect_span) {
                            (Some((_, flag)), _) => {
                                (flag, format!("`{name}` is not confirmation-gated here"))
                            }
                            (None, Some(side)) => (side, format!("`{name}` is read-only here")),
                            (None, None) => (tool.span(), format!("`{name}` is defined here")),
                        };
                        sink.report(
                            rules.file,
                            span,
                            format!(
                                "SKILL.md says read tool `{name}` requires confirmation, but \
                                 `{tools_name}` does not gate it"
                            ),
                        )
                        .severity(Severity::Warning)
                        .label("contradicts the contract")
                        .secondary(*tool_file, flag, flag_label)
                        .help(format!(
                            "drop the confirmation requirement for `{name}`, or gate it in \
                             `{tools_name}` if it really changes something"
                        ));
                    }
                }
            }
        }
    }
}

/// Byte offset of the subslice `part` inside `whole` (both from the same string).
fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize)
        .saturating_sub(whole.as_ptr() as usize)
        .min(whole.len())
}

/// Every whole-word occurrence of `word` in `text`.
fn word_positions(text: &str, word: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|rest| find_word(rest, word)) {
        out.push(from + i);
        from += i + word.len().max(1);
    }
    out
}

/// Finds `phrase` (words separated by any whitespace, ASCII case-insensitive) in the source of
/// `within`, starting at a word boundary.
fn locate_phrase(file_text: &str, within: Span, phrase: &str) -> Option<Span> {
    let source = file_text.get(within.start..within.end)?;
    let parts: Vec<&str> = phrase.split_whitespace().collect();
    if parts.is_empty() {
        return None;
    }
    for (i, _) in source.char_indices() {
        let boundary = source[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        if !boundary {
            continue;
        }
        if let Some(len) = match_parts(&source[i..], &parts) {
            return Some(Span::new(within.start + i, within.start + i + len));
        }
    }
    None
}

fn match_parts(source: &str, parts: &[&str]) -> Option<usize> {
    let mut pos = 0;
    for (k, part) in parts.iter().enumerate() {
        if k > 0 {
            let rest = source.get(pos..)?;
            let gap = rest.len() - rest.trim_start().len();
            if gap == 0 {
                return None;
            }
            pos += gap;
        }
        let candidate = source.get(pos..pos + part.len())?;
        if !candidate.eq_ignore_ascii_case(part) {
            return None;
        }
        pos += part.len();
    }
    Some(pos)
}
