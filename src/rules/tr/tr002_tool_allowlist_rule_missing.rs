//! TR002 `tool-allowlist-rule-missing`: The Tool Use Rules section does not restrict the agent
//! to the listed tools.

use super::{
    no_section_label, start_of_file, unreported_missing_section, RulesSection, Slot, ALLOWLIST_ITEM,
};
use crate::check::{Sink, Unit};
use crate::diagnostic::Fix;
use crate::rules::util::{contains_ascii_ignore_case, find_substring};

/// The allowlist sentences of TR002 (lowercase, single spaces).
const ALLOWLIST_PHRASES: &[&str] = &[
    "only the tools listed below may be used",
    "never invent or call other tools",
];

/// Words that name tools in an allowlist sentence.
const TOOL_NOUNS: &[&str] = &["tool", "tools", "function", "functions"];
/// Verbs of using a tool.
const USE_VERBS: &[&str] = &[
    "use", "used", "using", "call", "called", "calling", "invoke", "invoked", "invoking", "run",
];
/// Words that point at the skill's own list ("the tools listed", "defined for this skill", "in
/// tools.json").
const SCOPE_WORDS: &[&str] = &[
    "listed",
    "list",
    "following",
    "below",
    "above",
    "defined",
    "declared",
    "documented",
    "described",
    "named",
    "provided",
    "registered",
    "these",
    "here",
    "allowlist",
    "allowlisted",
    "whitelisted",
];
/// Negations that open a prohibition ("never call …", "do not use …").
const NEGATIONS: &[&str] = &[
    "never",
    "not",
    "don't",
    "dont",
    "cannot",
    "can't",
    "mustn't",
    "shouldn't",
    "no",
];
/// Words for tools beyond the list ("other tools", "unlisted tools", "tools beyond those
/// listed", "a tool missing from this list").
const OUTSIDE_WORDS: &[&str] = &[
    "other",
    "others",
    "else",
    "unlisted",
    "undeclared",
    "undocumented",
    "outside",
    "additional",
    "beyond",
    "besides",
    "except",
    "missing",
];
/// Words that limit the agent to something ("only", "limit yourself to", "stick to"); negated
/// ("not limited to"), they let other tools in.
const LIMIT_WORDS: &[&str] = &[
    "only",
    "exclusively",
    "solely",
    "limit",
    "limited",
    "restrict",
    "restricted",
    "confine",
    "confined",
    "stick",
    "hesitate",
];
/// More words of using or being let use something, for a negated clause ("no other tools are
/// permitted", "do not reach for tools outside this list").
const REACHING: &[&str] = &[
    "allowed",
    "permitted",
    "reach",
    "touch",
    "rely",
    "employ",
    "utilize",
    "utilise",
    "access",
];
/// Words that forbid what the clause names ("any tool not listed here is off-limits").
const FORBIDDING: &[&str] = &[
    "off-limits",
    "forbidden",
    "prohibited",
    "disallowed",
    "banned",
];
/// Words that grant a permission ("you may also use other tools").
const PERMISSIONS: &[&str] = &[
    "may", "can", "allowed", "free", "welcome", "fine", "ok", "okay",
];

/// What one sentence of the section says about tools beyond the listed ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Says {
    /// Restricts the agent to the listed tools.
    Restricts,
    /// Lets it use others ("you may also use other tools", "not limited to these tools").
    AllowsOthers,
}

/// Reads one clause (lowercase, single spaces; sentences are cut at their punctuation and at
/// commas): whether it restricts the agent to the listed tools or allows others, in any of the
/// usual wordings. A clause that is about tools but neither restricts nor allows (a tool's own
/// rule) says nothing.
fn says(sentence: &str) -> Option<Says> {
    if ALLOWLIST_PHRASES
        .iter()
        .any(|p| find_substring(sentence, p).is_some())
    {
        return Some(Says::Restricts);
    }
    let words: Vec<&str> = sentence
        // `tools/agents` names tools too.
        .split([' ', '/'])
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let has = |set: &[&str]| words.iter().any(|w| set.contains(w));
    if !has(TOOL_NOUNS) {
        return None;
    }
    let pairs = |a: &str, b: &str| words.windows(2).any(|w| w[0] == a && w[1] == b);
    // A limit that is negated lets other tools in: "not limited to", "not only", "do not
    // restrict yourself to", "don't hesitate to use other tools".
    let negated_limit = words.iter().enumerate().any(|(i, w)| {
        LIMIT_WORDS.contains(w)
            && words[i.saturating_sub(2)..i]
                .iter()
                .any(|n| NEGATIONS.contains(n))
    });
    if negated_limit {
        return Some(Says::AllowsOthers);
    }
    let scoped = has(SCOPE_WORDS) || words.iter().any(|w| w.ends_with(".json"));
    let used = has(USE_VERBS) || has(&["invent", "invents"]);
    if has(&["only"]) && used && scoped {
        return Some(Says::Restricts);
    }
    // A limit to the list, in any wording: "stick to the tools listed below", "limit yourself
    // to these tools", "only these tools are allowed", "use nothing but the tools in
    // tools.json", "any tool not listed here is off-limits".
    let limited =
        has(LIMIT_WORDS) || has(FORBIDDING) || pairs("nothing", "but") || pairs("anything", "but");
    if limited && scoped {
        return Some(Says::Restricts);
    }
    // A prohibition: a negation governing a use verb ("never call", "do not use", "must not
    // invent"), then tools beyond the list ("other tools", "a tool that is not in this list").
    let is_use = |w: &&str| USE_VERBS.contains(w) || *w == "invent";
    let prohibition = words.iter().enumerate().find_map(|(i, w)| {
        (NEGATIONS.contains(w) && words.iter().skip(i + 1).take(3).any(is_use)).then_some(i)
    });
    // Tools beyond the list, however said: "other", "outside", "beyond", "missing from", or
    // a negated pointer at the list ("not in this list", "not listed").
    let beyond = |from: usize| {
        let rest = &words[from..];
        rest.iter().any(|w| OUTSIDE_WORDS.contains(w))
            || rest.windows(2).any(|pair| {
                NEGATIONS.contains(&pair[0])
                    && (SCOPE_WORDS.contains(&pair[1])
                        || pair[1].ends_with(".json")
                        || matches!(pair[1], "in" | "on" | "among" | "part"))
            })
    };
    if let Some(first) = prohibition {
        if beyond(first + 1) {
            return Some(Says::Restricts);
        }
    }
    if has(NEGATIONS) {
        // "No other tools are permitted", "call no tool other than those listed below", "tools
        // not in this list must never be called", "do not reach for tools outside this list":
        // about using or being allowed to (not "not supported by tools other than uv").
        let about_use = has(USE_VERBS) || has(REACHING);
        return (about_use && beyond(0)).then_some(Says::Restricts);
    }
    // A permission for tools beyond the list: "other tools" with "may", "can", a use verb;
    // "use any tool", "call whatever tools".
    let other_tools = words
        .windows(2)
        .any(|w| OUTSIDE_WORDS.contains(&w[0]) && TOOL_NOUNS.contains(&w[1]));
    let any_tool = words.windows(3).any(|w| {
        USE_VERBS.contains(&w[0])
            && matches!(w[1], "any" | "whatever" | "whichever")
            && TOOL_NOUNS.contains(&w[2])
    });
    let permitted = other_tools && (has(PERMISSIONS) || has(USE_VERBS));
    ((permitted || any_tool) && !has(&["only"])).then_some(Says::AllowsOthers)
}

/// The sentences of an item's text: cut after `.`, `;`, `!` or `?` at the end or before a space,
/// so `tools.json` stays one word.
fn sentences(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b';' | b'!' | b'?') && bytes.get(i + 1).is_none_or(|n| *n == b' ') {
            out.push(&text[start..=i]);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

pub(super) fn tool_allowlist_rule_missing(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(rules) = RulesSection::of(unit) else {
        if let Some(skill) = unreported_missing_section(unit) {
            let heading = &unit.settings().tool_use_rules_heading;
            sink.report(
                skill,
                start_of_file(unit.text(skill)),
                format!(
                    "nothing restricts the agent to the listed tools: `{}` has no \"{heading}\" \
                     section",
                    unit.repo.file_name(skill)
                ),
            )
            .label(no_section_label(unit))
            .help(format!(
                "add a \"{heading}\" section that opens with the item \"{ALLOWLIST_ITEM}\""
            ));
        }
        return;
    };
    let mut restricts = false;
    let mut allows_others = None;
    for item in rules.items {
        // Every wording names tools or functions ("tool", "function"), and lowercasing turns no
        // other letters into ASCII ones they use: an item without them says nothing here (most
        // items), so skip normalising those.
        if !contains_ascii_ignore_case(&item.text, "tool")
            && !contains_ascii_ignore_case(&item.text, "function")
        {
            continue;
        }
        let normalised = normalise(&item.text);
        let clauses = sentences(&normalised)
            .into_iter()
            .flat_map(|sentence| sentence.split(", "));
        for clause in clauses {
            match says(clause) {
                Some(Says::Restricts) => restricts = true,
                Some(Says::AllowsOthers) => allows_others = allows_others.or(Some(item.span)),
                None => {}
            }
        }
    }
    if let Some(span) = allows_others {
        // The section says other tools may be used: an allowlist beside it would contradict it,
        // so which one holds is the author's call (no fix).
        sink.report(
            rules.file,
            rules.heading_span(),
            format!(
                "the \"{}\" section lets the agent use tools beyond the listed ones",
                rules.heading_text()
            ),
        )
        .label("not restricted to the listed tools")
        .secondary(rules.file, span, "allows other tools")
        .help(
            "replace this item with \"Only the tools listed below may be used. Never invent or \
             call other tools.\"",
        );
        return;
    }
    if restricts {
        return;
    }
    let diagnostic = sink
        .report(
            rules.file,
            rules.heading_span(),
            format!(
                "the \"{}\" section does not restrict the agent to the listed tools",
                rules.heading_text()
            ),
        )
        .label("no allowlist rule in this section")
        .help(
            "open the section with the item \"Only the tools listed below may be used. Never \
             invent or call other tools.\"",
        );
    if let Some(edit) = rules.insert_items(&[ALLOWLIST_ITEM.to_string()], Slot::First) {
        diagnostic.fix(Fix::safe(
            "insert the allowlist rule as the first item of the section",
            vec![edit],
        ));
    }
}

/// Lowercase with every run of whitespace collapsed to one space.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.is_ascii() {
        out.make_ascii_lowercase();
        out
    } else {
        out.to_lowercase()
    }
}
