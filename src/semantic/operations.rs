//! What a tool's operations add to the effect model beyond its name's verb and parameter names
//! (`effect`): an operation selector whose `enum` offers a delete (`method: ["get", "delete"]`), a
//! raw API request (an HTTP `method` that can be `POST` or `DELETE`, or any method beside a path),
//! a description that starts a terminal process or sends input to a running one, and a tool that
//! changes the agent's own limits (allowed directories, blocked commands, permission settings).
//!
//! Kept apart from `effect` so each reading is one function with its own vocabulary; `effect`
//! turns what these find into evidence before deciding. This module never imports `effect`.

use crate::model::tools::Tool;
use crate::parse::node::{Node, Value};
use crate::parse::words::name_words;
use crate::source::Span;

/// What a reading found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finding {
    /// An operation the tool offers deletes: at least destructive.
    Deletes,
    /// A raw request that can change anything the API can: at least a write.
    Writes,
    /// The tool runs what it is given.
    Exec,
    /// The tool changes the agent's own limits.
    Access,
}

/// One thing found, with where and what was read (`source` as `effect::Evidence` names it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub what: Finding,
    pub source: &'static str,
    pub text: String,
    pub span: Span,
}

/// What the tool's name (or, without a verb there, its description) says it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameVerb {
    None,
    Reads,
    Changes,
}

/// Words that make a parameter an operation selector: its whole name (`action`, `method`), its
/// last word (`sub_action`, `fileOperation`), or its first word before a qualifier (`action_type`,
/// `op_name`). `type`, `kind` and `name` alone are not selectors: they usually name a kind of thing
/// (`type: ["blocked_by", "blocking"]`), and an enum of them is rarely a list of operations.
const SELECTOR_WORDS: [&str; 8] = [
    "action",
    "operation",
    "op",
    "mode",
    "command",
    "cmd",
    "method",
    "verb",
];

/// The words that may follow a selector word in a two-word selector name (`action_type`).
const SELECTOR_QUALIFIERS: [&str; 3] = ["type", "name", "kind"];

/// HTTP methods as a request tool spells them, in upper case.
const HTTP_METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
];

/// HTTP methods that only read.
const READING_HTTP_METHODS: [&str; 3] = ["get", "head", "options"];

/// Operation values that delete: the first word of an enum value (`delete`, `remove_item`).
#[rustfmt::skip]
const DELETING_OPERATIONS: &[&str] = &[
    "delete", "del", "remove", "rm", "drop", "purge", "destroy", "erase", "wipe", "truncate",
    "uninstall", "prune",
];

/// Parameters that name where a raw request goes.
const REQUEST_TARGETS: &[&str] = &["path", "url", "uri", "endpoint", "route"];

/// Verbs that start or drive what a description's object names (`Start a new terminal process`).
const EXEC_DESCRIPTION_VERBS: &[&str] = &[
    "start", "starts", "run", "runs", "execute", "executes", "spawn", "spawns", "launch",
    "launches", "open", "opens",
];

/// What such a verb must start for the tool to run what it is given.
#[rustfmt::skip]
const EXEC_DESCRIPTION_OBJECTS: &[&str] = &[
    "terminal", "shell", "command", "commands", "repl", "script", "scripts", "subprocess",
];

/// How many words after an exec verb its object may come (`Start a new terminal process`).
const EXEC_OBJECT_REACH: usize = 4;

/// Things a tool can send input to that then runs it (`Send input to a running process`).
const INPUT_RECEIVERS: &[&str] = &["process", "repl", "terminal", "shell", "session"];

/// Name words of the agent's own limits, and the words that may stand beside them in a name that
/// changes them (`set_config_value`, `update_permissions`, `add_allowed_directory`).
#[rustfmt::skip]
const LIMIT_NOUNS: &[&str] = &[
    "config", "configuration", "permission", "permissions", "allowlist", "whitelist",
    "blocklist", "blacklist", "denylist", "sandbox",
];

/// Limit nouns that name any configuration too (a data platform's component configuration): they
/// count only when the description says the configuration guards the agent or its server.
const CONFIG_NOUNS: &[&str] = &["config", "configuration"];

/// Words of a description that make a configuration the agent's own limits.
const GUARD_WORDS: &[&str] = &[
    "security",
    "server",
    "agent",
    "allowed",
    "blocked",
    "permission",
    "permissions",
];
#[rustfmt::skip]
const LIMIT_COMPANIONS: &[&str] = &[
    "value", "values", "key", "setting", "settings", "option", "options", "server", "tool",
    "tools", "agent", "allowed", "blocked", "directory", "directories", "command", "commands",
    "mode", "rule", "rules",
];

/// Phrases of a description that name the agent's own limits.
const LIMIT_PHRASES: &[&str] = &[
    "allowed director",
    "blocked command",
    "allowed command",
    "permission mode",
    "permission setting",
];

/// How much of a description is read for cues: the first sentence, cut at this many bytes.
const DESCRIPTION_READ: usize = 400;

fn is_in(list: &[&str], word: &str) -> bool {
    list.contains(&word)
}

/// Whether a parameter name says that its value selects an operation.
pub fn is_selector_parameter(name: &str) -> bool {
    let words = name_words(name);
    let selector = |word: &String| SELECTOR_WORDS.contains(&word.as_str());
    match words.as_slice() {
        [.., last] if selector(last) => true,
        [first, qualifier] => selector(first) && SELECTOR_QUALIFIERS.contains(&qualifier.as_str()),
        _ => false,
    }
}

/// Whether every value of an `enum` is an HTTP method written the HTTP way (upper case).
pub fn is_http_method_enum(values: &Node) -> bool {
    values.as_array().is_some_and(|items| {
        !items.is_empty()
            && items
                .iter()
                .all(|v| v.as_str().is_some_and(|m| HTTP_METHODS.contains(&m)))
    })
}

fn found(what: Finding, source: &'static str, text: String, span: Span) -> Found {
    Found {
        what,
        source,
        text,
        span,
    }
}

/// An operation selector whose `enum` offers a delete: the tool deletes whatever else it does.
fn deleting_operation(params: &[(&str, Span, &Node)]) -> Option<Found> {
    params.iter().find_map(|(pname, _, schema)| {
        if !is_selector_parameter(pname) {
            return None;
        }
        let values = schema.get("enum")?;
        if is_http_method_enum(values) {
            return None;
        }
        let value = values.as_array()?.iter().find(|v| {
            v.as_str()
                .and_then(|t| name_words(t).into_iter().next())
                .is_some_and(|w| is_in(DELETING_OPERATIONS, &w))
        })?;
        Some(found(
            Finding::Deletes,
            "operation",
            format!(
                "the operation `{}` of `{pname}`",
                value.as_str().unwrap_or_default()
            ),
            value.span,
        ))
    })
}

/// The string values of an `enum`.
fn enum_strings(schema: &Node) -> Vec<&str> {
    schema
        .get("enum")
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .filter_map(Node::as_str)
        .collect()
}

fn is_string_schema(schema: &Node) -> bool {
    match schema.get("type").map(|t| &t.value) {
        None => true,
        Some(Value::String(s)) => s == "string",
        Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some("string")),
        Some(_) => false,
    }
}

/// A raw API request: an HTTP method parameter that can write (`POST`, `DELETE`…, or any method
/// when it has no `enum` and the tool takes a path or URL). The request may change anything the
/// API can, so the tool is at least a write.
fn raw_request(params: &[(&str, Span, &Node)]) -> Option<Found> {
    let targeted = params.iter().any(|(pname, _, _)| {
        name_words(pname)
            .last()
            .is_some_and(|w| is_in(REQUEST_TARGETS, w))
    });
    params.iter().find_map(|(pname, span, schema)| {
        let words = name_words(pname);
        let method = matches!(words.as_slice(), [.., last] if last == "method")
            && words
                .iter()
                .all(|w| w == "method" || w == "http" || w == "request");
        if !method || !is_string_schema(schema) {
            return None;
        }
        let values = enum_strings(schema);
        let http: Vec<String> = values.iter().map(|v| v.to_ascii_lowercase()).collect();
        let all_http = !http.is_empty()
            && http
                .iter()
                .all(|v| HTTP_METHODS.iter().any(|m| m.eq_ignore_ascii_case(v)));
        let writing = http.iter().find(|v| !is_in(&READING_HTTP_METHODS, v));
        let text = match (all_http, writing) {
            (true, Some(_)) => {
                let shown: Vec<&str> = values
                    .iter()
                    .copied()
                    .filter(|v| !is_in(&READING_HTTP_METHODS, &v.to_ascii_lowercase()))
                    .collect();
                format!(
                    "the request method `{pname}` takes `{}`",
                    shown.join("`, `")
                )
            }
            (false, _) if values.is_empty() && targeted => {
                format!("the request method `{pname}` takes any HTTP method")
            }
            _ => return None,
        };
        Some(found(Finding::Writes, "request", text, *span))
    })
}

/// The first sentence of a description, lower case, in words.
fn first_sentence_words(description: &str) -> Vec<String> {
    let end = description
        .char_indices()
        .take_while(|(i, _)| *i < DESCRIPTION_READ)
        .find(|(i, c)| {
            matches!(c, '!' | '?' | '\n')
                || (*c == '.'
                    && description[i + 1..]
                        .chars()
                        .next()
                        .is_none_or(char::is_whitespace))
        })
        .map_or_else(
            || {
                description
                    .char_indices()
                    .map(|(i, _)| i)
                    .find(|i| *i >= DESCRIPTION_READ)
                    .unwrap_or(description.len())
            },
            |(i, _)| i,
        );
    description[..end]
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// A description that starts a terminal process or a shell (`Start a new terminal process`,
/// `Runs a shell command`), or sends input to a running one (`Send input to a running process`).
fn exec_description(words: &[String]) -> Option<String> {
    let first = words.first()?.as_str();
    if is_in(EXEC_DESCRIPTION_VERBS, first) {
        let object = words
            .iter()
            .skip(1)
            .take(EXEC_OBJECT_REACH)
            .find(|w| is_in(EXEC_DESCRIPTION_OBJECTS, w))?;
        return Some(format!("the description's `{first} … {object}`"));
    }
    let sends_input = matches!(
        first,
        "send" | "sends" | "write" | "writes" | "type" | "types"
    ) && words
        .get(1)
        .is_some_and(|w| w == "input" || w == "keystrokes");
    if sends_input {
        let receiver = words
            .iter()
            .skip(2)
            .take(EXEC_OBJECT_REACH)
            .find(|w| is_in(INPUT_RECEIVERS, w))?;
        return Some(format!("the description's `{first} input … {receiver}`"));
    }
    None
}

/// A tool that changes the agent's own limits: a changing verb with nothing but a limit noun and
/// its companions in the name (`set_config_value`, `update_permissions`), or a description that
/// names allowed directories, blocked commands or permission settings.
fn changes_limits(words: &[String], description: &str) -> Option<String> {
    let lower = description
        .get(..description.len().min(DESCRIPTION_READ * 4))
        .unwrap_or(description)
        .to_ascii_lowercase();
    let rest = words.get(1..).unwrap_or_default();
    let noun = rest.iter().find(|w| is_in(LIMIT_NOUNS, w));
    if let Some(noun) = noun {
        let guarded = !is_in(CONFIG_NOUNS, noun)
            || lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| is_in(GUARD_WORDS, w));
        if guarded
            && rest
                .iter()
                .all(|w| is_in(LIMIT_NOUNS, w) || is_in(LIMIT_COMPANIONS, w))
        {
            return Some(format!("the name's `{noun}`"));
        }
    }
    LIMIT_PHRASES
        .iter()
        .find(|p| lower.contains(*p))
        .map(|p| format!("the description's `{p}…`"))
}

/// What the tool's operations add to its evidence, its parameters being `params`.
pub(crate) fn operation_findings(
    tool: &Tool,
    params: &[(&str, Span, &Node)],
    name_words: &[String],
    verb: NameVerb,
) -> Vec<Found> {
    let mut out = Vec::new();
    out.extend(deleting_operation(params));
    out.extend(raw_request(params));
    if verb == NameVerb::Reads {
        return out;
    }
    let description = tool.description();
    let text = description.and_then(Node::as_str).unwrap_or_default();
    let span = description.map_or(tool.span(), |d| d.span);
    if let Some(why) = exec_description(&first_sentence_words(text)) {
        out.push(found(Finding::Exec, "description", why, span));
    }
    // A name without a verb counts only when the description names the limits.
    let limits = changes_limits(name_words, text)
        .filter(|why| verb == NameVerb::Changes || why.starts_with("the description"));
    if let Some(why) = limits {
        let (source, span) = if why.starts_with("the name") {
            ("name", tool.span())
        } else {
            ("description", span)
        };
        out.push(found(Finding::Access, source, why, span));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::model::tools::parse_tools;
    use crate::semantic::effect::tool_effect;
    use crate::source::FileId;

    /// `name: effect [capabilities]` for each tool of an MCP list of `(name, description,
    /// properties)`.
    fn effects(tools: &[(&str, &str, &str)]) -> Vec<String> {
        let entries: Vec<String> = tools
            .iter()
            .map(|(name, description, properties)| {
                format!(
                    r#"{{"name": "{name}", "description": "{description}", "inputSchema": {{"type": "object", "properties": {{{properties}}}}}}}"#
                )
            })
            .collect();
        let doc = parse_tools(&format!("[{}]", entries.join(",")));
        doc.tools
            .iter()
            .map(|tool| {
                let e = tool_effect(FileId(0), tool, None);
                let caps: Vec<&str> = e.capabilities.iter().map(|c| c.as_str()).collect();
                format!("{}: {} {caps:?}", tool.display_name(), e.effect.as_str())
            })
            .collect()
    }

    #[test]
    fn an_operation_that_deletes_makes_the_tool_destructive() {
        let list = [
            (
                "webhooks",
                "Webhooks.",
                r#""action": {"type": "string", "enum": ["list", "delete"]}"#,
            ),
            (
                "labels",
                "Labels.",
                r#""method": {"type": "string", "enum": ["get", "remove_label"]}"#,
            ),
            (
                "reads",
                "Reads.",
                r#""method": {"type": "string", "enum": ["list", "get"]}"#,
            ),
            // An HTTP method enum is a request, not an operation selector; a `type` is no selector.
            (
                "http",
                "Calls the API.",
                r#""method": {"type": "string", "enum": ["GET", "DELETE"]}"#,
            ),
            (
                "links",
                "Relationships between issues.",
                r#""type": {"type": "string", "enum": ["blocked_by", "delete"]}"#,
            ),
        ];
        assert_eq!(
            effects(&list),
            [
                "webhooks: destructive []",
                "labels: destructive []",
                "reads: read []",
                "http: write []",
                "links: read []",
            ]
        );
    }

    #[test]
    fn a_raw_request_is_at_least_a_write() {
        let list = [
            (
                "api_request",
                "Calls the API.",
                r#""method": {"type": "string"}, "path": {"type": "string"}"#,
            ),
            (
                "http_get",
                "Fetches a page.",
                r#""method": {"type": "string", "enum": ["GET", "HEAD"]}, "url": {"type": "string"}"#,
            ),
            // A free `method` without a path or URL is not a request.
            ("solve", "Solves it.", r#""method": {"type": "string"}"#),
        ];
        assert_eq!(
            effects(&list),
            [
                "api_request: write []",
                "http_get: read []",
                "solve: read []"
            ]
        );
    }

    #[test]
    fn descriptions_that_start_or_drive_a_process_are_exec() {
        let list = [
            (
                "start_process",
                "Start a new terminal process with state detection.",
                "",
            ),
            (
                "interact_with_process",
                "Send input to a running process and receive the response.",
                "",
            ),
            (
                "read_process_output",
                "Read output from a running process, with REPL prompt recognition.",
                "",
            ),
            (
                "start_search",
                "Start a streaming search for files by name.",
                "",
            ),
            (
                "pods_run",
                "Run a Kubernetes Pod with the provided container image.",
                "",
            ),
        ];
        assert_eq!(
            effects(&list),
            [
                "start_process: write [\"exec\"]",
                "interact_with_process: write [\"exec\"]",
                "read_process_output: read []",
                "start_search: read []",
                "pods_run: write []",
            ]
        );
    }

    #[test]
    fn changing_the_agents_limits_is_access() {
        let list = [
            ("set_config_value", "Set a configuration value by key. Use apart from file operations to prevent security issues.", ""),
            ("update_config", "Updates a root component configuration by component ID.", ""),
            ("get_config", "Get the configuration, with blocked commands and allowed directories.", ""),
            ("update_permissions", "Update the permissions.", ""),
            ("pages_update_page_settings", "Update page settings.", ""),
            ("add_directory", "Add a directory to the allowed directories.", ""),
        ];
        assert_eq!(
            effects(&list),
            [
                "set_config_value: write [\"access\"]",
                "update_config: write []",
                "get_config: read []",
                "update_permissions: write [\"access\"]",
                "pages_update_page_settings: write []",
                "add_directory: write [\"access\"]",
            ]
        );
    }
}
