//! The effect model: for every tool of every dialect, what calling it does (`read`, `write`,
//! `destructive`), what else it can do (`exec`, `financial`, `credential`, `sends`), whether a
//! confirmation gate stands in front of it, and the evidence for each.
//!
//! Declared evidence is what the contract says: the forge `type` and `requiresConfirmation`, MCP
//! annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`), scope lists
//! (`requiredScopes` with `:write`/`:admin`), and a linked TOOL.md's `mutates`, `risk_level` and
//! `approval`. Inferred evidence is read from the name's verb (split on `_`, `-`, `.` and case, so
//! `delete_x`, `deleteX`, `x.delete` and `delete-many` all say `delete`, and `undelete` or
//! `listDeleted` never do), the parameters (`command`, `sql`, `script`… on an exec-like tool; a
//! `force`/`drop_target` switch on a write) and the description's first verb.
//!
//! Declared beats inferred: the declaration bounds the effect, and strong inferred evidence that
//! breaks the bound is kept as a contradiction for the rules to report, never silently dropped.

use crate::index::UnitView;
use crate::model::tools::Tool;
use crate::parse::node::{Node, Value};
use crate::parse::words::name_words;
use crate::semantic::links::Link;
use crate::semantic::operations::{operation_findings, Finding, NameVerb};
use crate::source::{FileId, Span};
use std::collections::HashMap;

/// What calling a tool does to the world, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    Read,
    Write,
    Destructive,
}

impl Effect {
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Destructive => "destructive",
        }
    }
}

/// What else a tool can do, beyond its effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Capability {
    /// Runs commands, code or queries given as input.
    Exec,
    /// Moves money or credit.
    Financial,
    /// Creates, reveals or rotates keys and tokens.
    Credential,
    /// Changes the agent's own limits: allowed directories, blocked commands, permission
    /// settings, its tool server's configuration.
    Access,
    /// Sends messages or data to third parties.
    Sends,
}

impl Capability {
    pub fn as_str(self) -> &'static str {
        match self {
            Capability::Exec => "exec",
            Capability::Financial => "financial",
            Capability::Credential => "credential",
            Capability::Access => "access",
            Capability::Sends => "sends",
        }
    }
}

/// What one piece of evidence says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The tool has exactly this effect (`readOnlyHint: true` says `Read`).
    Effect(Effect),
    /// The tool's effect is at least this (`readOnlyHint: false` says at least `Write`).
    AtLeast(Effect),
    /// The tool's effect is at most this (`destructiveHint: false`).
    AtMost(Effect),
    Capability(Capability),
    /// A confirmation gate stands in front of calls (`requiresConfirmation: true`, a contract's
    /// approval, `destructiveHint: true`, a `user_confirmed`/`dry_run` parameter).
    Gate,
    /// MCP behaviour hints are declared, so a client can decide whether to confirm.
    Hinted,
}

impl Claim {
    /// `effect:read`, `at-least:write`, `at-most:write`, `capability:exec`, `gate`, `hinted`:
    /// how policies and `--format json` name a claim.
    pub fn key(self) -> String {
        match self {
            Claim::Effect(x) => format!("effect:{}", x.as_str()),
            Claim::AtLeast(x) => format!("at-least:{}", x.as_str()),
            Claim::AtMost(x) => format!("at-most:{}", x.as_str()),
            Claim::Capability(c) => format!("capability:{}", c.as_str()),
            Claim::Gate => "gate".to_string(),
            Claim::Hinted => "hinted".to_string(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    Declared,
    Inferred,
}

impl Basis {
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Declared => "declared",
            Basis::Inferred => "inferred",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub claim: Claim,
    pub basis: Basis,
    /// Where it was read: `annotations.readOnlyHint`, `name`, `parameter`, `operation` (a
    /// selector's `enum`), `request` (an HTTP method parameter), `description`, `type`,
    /// `requiresConfirmation`, `scopes`, `contract.mutates`, `contract.risk_level`,
    /// `contract.approval`, `handler` (a call in the handler of a tool registered in source).
    pub source: &'static str,
    /// What was read, for messages: "`delete`", "`readOnlyHint: true`".
    pub text: String,
    pub file: FileId,
    pub span: Span,
    /// Inferred evidence strong enough to contradict a declaration: a verb of the name, a
    /// drop/overwrite switch. The description's verb and default guesses are weak.
    pub strong: bool,
}

/// The effect fact of one tool.
#[derive(Debug)]
pub struct ToolEffect<'a> {
    pub file: FileId,
    pub tool: &'a Tool,
    pub effect: Effect,
    /// Sorted, without repeats.
    pub capabilities: Vec<Capability>,
    /// Declared first, then inferred, each in the order read.
    pub evidence: Vec<Evidence>,
}

impl ToolEffect<'_> {
    pub fn has(&self, capability: Capability) -> bool {
        self.capabilities.contains(&capability)
    }

    /// A capability that needs a gate of its own whatever the effect: exec, financial, credential.
    pub fn risky_capabilities(&self) -> impl Iterator<Item = Capability> + '_ {
        self.capabilities
            .iter()
            .copied()
            .filter(|c| *c != Capability::Sends)
    }

    /// The evidence that decided the effect: the declaration when there is one, else the
    /// inferred evidence for it.
    pub fn effect_evidence(&self) -> Option<&Evidence> {
        let says = |e: &&Evidence| match e.claim {
            Claim::Effect(x) | Claim::AtLeast(x) | Claim::AtMost(x) => x == self.effect,
            _ => false,
        };
        self.evidence
            .iter()
            .filter(|e| e.basis == Basis::Declared)
            .find(says)
            .or_else(|| self.evidence.iter().find(says))
    }

    /// The evidence for a capability.
    pub fn capability_evidence(&self, capability: Capability) -> Option<&Evidence> {
        self.evidence
            .iter()
            .find(|e| e.claim == Claim::Capability(capability))
    }

    /// The first gate evidence.
    pub fn gate(&self) -> Option<&Evidence> {
        self.evidence.iter().find(|e| e.claim == Claim::Gate)
    }

    /// Whether MCP behaviour hints are declared.
    pub fn hinted(&self) -> bool {
        self.evidence.iter().any(|e| e.claim == Claim::Hinted)
    }

    /// Declared evidence that the tool is risky: a declared write or destructive effect, or a
    /// contract risk level of 2 or more.
    pub fn declared_risky(&self) -> Option<&Evidence> {
        self.evidence.iter().find(|e| {
            e.basis == Basis::Declared
                && matches!(
                    e.claim,
                    Claim::Effect(Effect::Write | Effect::Destructive)
                        | Claim::AtLeast(Effect::Write | Effect::Destructive)
                        | Claim::Capability(_)
                )
        })
    }

    /// Declared evidence that strong inferred evidence contradicts: (declaration, inference).
    /// `readOnlyHint: true` or `type: read` on a tool whose name deletes or writes;
    /// `destructiveHint: false` on one whose name deletes or that has a drop/overwrite switch.
    pub fn contradictions(&self) -> Vec<(&Evidence, &Evidence)> {
        let mut out = Vec::new();
        for declared in self.evidence.iter().filter(|e| e.basis == Basis::Declared) {
            let ceiling = match declared.claim {
                Claim::Effect(Effect::Read) => Effect::Read,
                Claim::AtMost(e) => e,
                _ => continue,
            };
            let breaking = self.evidence.iter().find(|e| {
                e.basis == Basis::Inferred
                    && e.strong
                    && matches!(e.claim, Claim::Effect(x) | Claim::AtLeast(x) if x > ceiling)
            });
            if let Some(inferred) = breaking {
                out.push((declared, inferred));
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

/// Verbs that delete or overwrite beyond undo.
#[rustfmt::skip]
const DESTRUCTIVE_VERBS: &[&str] = &[
    "delete", "del", "remove", "rm", "drop", "purge", "destroy", "erase", "wipe", "truncate",
    "terminate", "kill", "uninstall", "overwrite", "prune", "nuke", "obliterate", "shred",
];

/// Verbs that change state.
#[rustfmt::skip]
const WRITE_VERBS: &[&str] = &[
    "create", "add", "insert", "update", "upsert", "set", "put", "patch", "edit", "modify",
    "write", "save", "store", "upload", "import", "move", "rename", "merge", "push", "publish",
    "deploy", "send", "reply", "submit", "approve", "reject", "assign", "unassign", "close",
    "reopen", "archive", "unarchive", "restore", "enable", "disable", "start", "stop", "restart",
    "pause", "resume", "cancel", "trigger", "dispatch", "apply", "install", "register",
    "unregister", "subscribe", "unsubscribe", "follow", "unfollow", "fork", "invite", "pay",
    "refund", "charge", "purchase", "buy", "sell", "place", "grant", "revoke", "rotate", "scale",
    "rollback", "revert", "migrate", "replace", "append", "mute", "unmute", "block", "unblock",
    "react", "vote", "accept", "decline", "dismiss", "provision", "allocate", "fund", "topup",
    "transfer", "withdraw", "deposit", "swap", "mint", "burn", "bridge", "stake", "unstake",
    "configure", "reset", "clear", "mark", "unmark", "upgrade", "downgrade", "attach", "detach",
    "share", "unshare", "notify", "email", "tweet", "retweet", "broadcast", "enqueue", "resolve",
    "forward",
    "execute", "exec", "run", "eval", "invoke", "fill", "click", "type", "press", "drag", "hover",
    "navigate", "select", "check", "uncheck", "lock", "unlock", "tag", "untag", "star",
    "unstar", "pin", "unpin", "comment", "post", "commit", "release", "schedule", "book", "link",
    "unlink", "label", "copy", "duplicate", "clone", "sync", "init", "initialize", "generate",
    "activate", "deactivate", "toggle", "change", "finalize", "vacuum", "switch", "void",
    "capture", "suspend", "unsuspend", "ban", "unban", "kick",
];

/// Write verbs that are also common nouns (`comment`, `post`, `release`, `tag`…) or whose effect
/// depends on what they run (`run`, `execute`): they decide the effect only as the first word,
/// and never contradict a declaration.
#[rustfmt::skip]
const WEAK_WRITE_VERBS: &[&str] = &[
    "comment", "post", "commit", "release", "schedule", "book", "link", "unlink", "label", "tag",
    "untag", "star", "unstar", "pin", "unpin", "lock", "unlock", "copy", "duplicate", "clone",
    "sync", "init", "initialize", "generate", "execute", "exec", "run", "eval", "invoke", "fill",
    "click", "type", "press", "drag", "hover", "navigate", "select", "check", "uncheck", "mark",
    "unmark", "resolve", "clear", "reset", "configure", "apply", "trigger", "start", "stop",
    "place", "set", "store", "fund", "block", "close", "switch", "change", "capture", "void",
];

/// Verbs that only read.
#[rustfmt::skip]
const READ_VERBS: &[&str] = &[
    "get", "list", "search", "find", "fetch", "read", "describe", "show", "view", "lookup",
    "look", "count", "browse", "inspect", "explain", "analyze", "analyse", "summarize",
    "summarise", "validate", "verify", "preview", "diff", "compare", "retrieve", "scan",
    "estimate", "calculate", "query", "download", "export", "watch", "monitor", "aggregate",
    "test", "ping", "lint", "audit", "review", "check", "is", "has", "can", "whoami", "load",
    "translate", "parse", "render", "format", "convert", "resolve", "select",
];

/// Name words that make a tool exec-like: with an exec parameter it runs what it is given.
#[rustfmt::skip]
const EXEC_NAME_WORDS: &[&str] = &[
    "exec", "execute", "run", "eval", "evaluate", "shell", "bash", "sh", "zsh", "terminal", "cmd",
    "command", "commands", "script", "sql", "kubectl", "powershell", "repl", "python",
    "javascript", "cypher", "gremlin", "sparql",
];

/// Parameters that carry what an exec-like tool runs.
#[rustfmt::skip]
const EXEC_PARAMETERS: &[&str] = &[
    "command", "cmd", "commands", "script", "sql", "query", "code", "expression", "statement",
    "shell", "program", "source", "js", "javascript", "python",
];

/// Parameters so specific that they make a tool exec-like whatever its name.
const STRONG_EXEC_PARAMETERS: &[&str] = &["command", "cmd", "sql", "script", "shell_command"];

/// Name words of moving money.
#[rustfmt::skip]
const MONEY_WORDS: &[&str] = &[
    "pay", "payment", "payments", "payout", "payouts", "refund", "refunds", "topup", "fund",
    "funds", "purchase", "buy", "sell", "checkout", "trade", "withdraw", "withdrawal", "deposit",
    "money", "invoice", "charge", "order", "orders", "swap", "stake", "unstake", "bridge", "tip",
    "donate", "donation", "credit", "credits", "bet", "wager", "remittance", "wire",
    "subscription", "subscriptions",
];

/// Name words of credentials.
#[rustfmt::skip]
const CREDENTIAL_WORDS: &[&str] = &[
    "secret", "secrets", "password", "passwords", "credential", "credentials", "apikey",
    "apikeys", "passphrase", "mnemonic", "totp",
];

/// Words that qualify `key` or `token` as a credential (`api_key`, `access_token`).
#[rustfmt::skip]
const CREDENTIAL_QUALIFIERS: &[&str] = &[
    "api", "access", "auth", "personal", "refresh", "bearer", "session", "oauth", "jwt", "ssh",
    "signing", "private", "deploy", "gpg", "encryption", "service", "bot", "provisioning",
];

/// Words after which a credential noun names something else (`secret_scanning_alert`).
#[rustfmt::skip]
const CREDENTIAL_EXCLUSIONS: &[&str] = &[
    "scanning", "scan", "alert", "alerts", "balance", "price", "prices", "holders", "supply",
    "metadata", "policy", "policies", "count",
];

/// Verbs that create, reveal or rotate a credential.
#[rustfmt::skip]
const CREDENTIAL_VERBS: &[&str] = &[
    "create", "generate", "rotate", "regenerate", "reveal", "get", "read", "show", "reset",
    "issue", "new", "add", "mint", "export", "fetch", "retrieve", "decrypt", "set", "update",
    "revoke", "delete",
];

/// Verbs of sending to a third party: the name's verb must be one (`send_test_email`, not
/// `create_email_template`).
#[rustfmt::skip]
const SEND_VERBS: &[&str] = &[
    "send", "email", "mail", "sms", "notify", "tweet", "retweet", "publish", "broadcast", "reply",
    "invite", "share", "post", "message", "dm", "forward",
];

/// Parameter name words that gate a call: a confirmation flag or a preview switch (`dry_run`
/// is matched as two words).
const GATE_PARAMETER_WORDS: &[&str] =
    &["confirm", "confirmed", "confirmation", "preview", "dryrun"];

/// Switches that make a write drop or overwrite what is there.
const DROP_SWITCHES: &[&str] = &["force", "overwrite", "drop", "truncate", "purge"];

/// Keys that hold scope lists.
#[rustfmt::skip]
const SCOPE_KEYS: &[&str] = &[
    "requiredScopes", "required_scopes", "scopes", "oauthScopes", "oauth_scopes", "permissions",
];

/// How many words of a name are read.
const MAX_NAME_WORDS: usize = 32;

fn is_in(list: &[&str], word: &str) -> bool {
    list.contains(&word)
}

// ---------------------------------------------------------------------------------------------
// Reading the evidence
// ---------------------------------------------------------------------------------------------

struct Reader<'t> {
    file: FileId,
    tool: &'t Tool,
    evidence: Vec<Evidence>,
}

impl Reader<'_> {
    fn push(
        &mut self,
        claim: Claim,
        basis: Basis,
        source: &'static str,
        text: String,
        span: Span,
        strong: bool,
    ) {
        self.push_in(self.file, claim, basis, source, text, span, strong);
    }

    #[allow(clippy::too_many_arguments)]
    fn push_in(
        &mut self,
        file: FileId,
        claim: Claim,
        basis: Basis,
        source: &'static str,
        text: String,
        span: Span,
        strong: bool,
    ) {
        self.evidence.push(Evidence {
            claim,
            basis,
            source,
            text,
            file,
            span,
            strong,
        });
    }
}

fn hint(tool: &Tool, key: &str) -> Option<(bool, Span)> {
    let node = tool.annotations()?.get(key)?;
    node.as_bool().map(|b| (b, node.span))
}

fn declared_by_tool(r: &mut Reader<'_>) {
    let tool = r.tool;
    // The forge contract.
    if let Some(node) = tool
        .entry
        .get("type")
        .filter(|_| tool.side_effect_span.is_some())
    {
        match node.as_str() {
            Some("read") => r.push(
                Claim::Effect(Effect::Read),
                Basis::Declared,
                "type",
                "`type: read`".into(),
                node.span,
                false,
            ),
            Some("write") => r.push(
                Claim::AtLeast(Effect::Write),
                Basis::Declared,
                "type",
                "`type: write`".into(),
                node.span,
                false,
            ),
            _ => {}
        }
    }
    if let Some((true, span)) = tool.confirmation {
        r.push(
            Claim::Gate,
            Basis::Declared,
            "requiresConfirmation",
            "`requiresConfirmation: true`".into(),
            span,
            false,
        );
    }
    // OpenAI Agents' `needsApproval` (read from source: true, or a function deciding per call).
    if let Some(node) = tool
        .entry
        .get("needsApproval")
        .filter(|n| n.as_bool() == Some(true))
    {
        r.push(
            Claim::Gate,
            Basis::Declared,
            "needsApproval",
            "`needsApproval`".into(),
            node.span,
            false,
        );
    }
    // MCP annotations.
    let read_only = hint(tool, "readOnlyHint");
    let destructive = hint(tool, "destructiveHint");
    let idempotent = hint(tool, "idempotentHint");
    if read_only.is_some() || destructive.is_some() || idempotent.is_some() {
        let span = read_only
            .or(destructive)
            .or(idempotent)
            .map_or(tool.span(), |(_, s)| s);
        r.push(
            Claim::Hinted,
            Basis::Declared,
            "annotations",
            "behaviour hints".into(),
            span,
            false,
        );
    }
    if let Some((flag, span)) = read_only {
        let claim = if flag {
            Claim::Effect(Effect::Read)
        } else {
            Claim::AtLeast(Effect::Write)
        };
        r.push(
            claim,
            Basis::Declared,
            "annotations.readOnlyHint",
            format!("`readOnlyHint: {flag}`"),
            span,
            false,
        );
    }
    if let Some((flag, span)) = destructive {
        if read_only.is_some_and(|(ro, _)| ro) {
            // Ignored by clients next to `readOnlyHint: true` (SC009 reports the pair).
        } else if flag {
            r.push(
                Claim::Effect(Effect::Destructive),
                Basis::Declared,
                "annotations.destructiveHint",
                "`destructiveHint: true`".into(),
                span,
                false,
            );
            r.push(
                Claim::Gate,
                Basis::Declared,
                "annotations.destructiveHint",
                "`destructiveHint: true`".into(),
                span,
                false,
            );
        } else {
            r.push(
                Claim::AtMost(Effect::Write),
                Basis::Declared,
                "annotations.destructiveHint",
                "`destructiveHint: false`".into(),
                span,
                false,
            );
        }
    }
    // Scope lists, wherever the entry keeps them (top level, `annotations`, `_meta`).
    let definition = tool.definition();
    let places = [
        Some(definition),
        tool.annotations(),
        definition.get("_meta"),
    ];
    for place in places.into_iter().flatten() {
        for key in SCOPE_KEYS {
            let Some(list) = place.get(key).and_then(Node::as_array) else {
                continue;
            };
            for scope in list {
                let Some(text) = scope.as_str() else {
                    continue;
                };
                if let Some(effect) = scope_effect(text) {
                    r.push(
                        Claim::AtLeast(effect),
                        Basis::Declared,
                        "scopes",
                        format!("scope `{text}`"),
                        scope.span,
                        false,
                    );
                    break;
                }
            }
        }
    }
}

/// What a scope grants: `repo:write`, `write:org`, `admin:org`, `files.delete`.
fn scope_effect(scope: &str) -> Option<Effect> {
    let words = name_words(scope);
    if words.iter().any(|w| is_in(&["delete", "admin"], w)) {
        Some(Effect::Destructive)
    } else if words
        .iter()
        .any(|w| is_in(&["write", "manage", "modify"], w))
    {
        Some(Effect::Write)
    } else {
        None
    }
}

fn declared_by_contract(r: &mut Reader<'_>, link: &Link<'_>) {
    let contract = &link.contract;
    let file = contract.file;
    if let Some(mutates) = contract.get("mutates") {
        if let Some(list) = mutates.as_array() {
            let (claim, text) = if list.is_empty() {
                (Claim::Effect(Effect::Read), "`mutates: []`".to_string())
            } else {
                (
                    Claim::AtLeast(Effect::Write),
                    format!("`mutates` lists {}", list.len()),
                )
            };
            r.push_in(
                file,
                claim,
                Basis::Declared,
                "contract.mutates",
                text,
                mutates.span,
                false,
            );
        }
    }
    if let Some(risk) = contract.get("risk_level") {
        if risk.as_f64() == Some(3.0) {
            r.push_in(
                file,
                Claim::AtLeast(Effect::Destructive),
                Basis::Declared,
                "contract.risk_level",
                "`risk_level: 3`".into(),
                risk.span,
                false,
            );
        }
    }
    if let Some(approval) = contract.get("approval") {
        let gating = match approval.as_str() {
            Some("always") => true,
            Some("on-mutate") => contract
                .get("mutates")
                .and_then(Node::as_array)
                .is_some_and(|m| !m.is_empty()),
            Some(p) => p.starts_with("policy:"),
            None => false,
        };
        if gating {
            r.push_in(
                file,
                Claim::Gate,
                Basis::Declared,
                "contract.approval",
                format!("`approval: {}`", approval.as_str().unwrap_or_default()),
                approval.span,
                false,
            );
        }
    }
}

/// What a restore replaces wholesale: restoring a database, a backup or a snapshot overwrites the
/// current contents with older ones (restoring one archived item does not).
const RESTORED_WHOLESALE: &[&str] = &["database", "db", "backup", "snapshot", "dump"];

/// The words of a name and the first verb among them: an unambiguous verb anywhere (the first
/// one), else an ambiguous one as the first word.
fn name_verb(words: &[String]) -> Option<(&str, Effect, bool)> {
    let overwrites = words.iter().any(|w| is_in(RESTORED_WHOLESALE, w));
    let classify = |w: &str| -> Option<Effect> {
        if is_in(DESTRUCTIVE_VERBS, w) || (w == "restore" && overwrites) {
            Some(Effect::Destructive)
        } else if is_in(READ_VERBS, w) && !is_in(WEAK_WRITE_VERBS, w) {
            Some(Effect::Read)
        } else if is_in(WRITE_VERBS, w) && !is_in(WEAK_WRITE_VERBS, w) {
            Some(Effect::Write)
        } else {
            None
        }
    };
    if let Some((w, effect)) = words
        .iter()
        .find_map(|w| classify(w).map(|e| (w.as_str(), e)))
    {
        return Some((w, effect, true));
    }
    let first = words.first()?.as_str();
    if is_in(WEAK_WRITE_VERBS, first) {
        if is_in(READ_VERBS, first) {
            return Some((first, Effect::Read, false));
        }
        return Some((first, Effect::Write, false));
    }
    None
}

/// `Deletes the…` → `delete`: the description's first word, its third-person `s` dropped.
fn description_verb(text: &str) -> Option<String> {
    let first = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .find(|w| !w.is_empty())?
        .to_ascii_lowercase();
    let stems = [
        first.clone(),
        first.strip_suffix("es").unwrap_or_default().to_string(),
        first.strip_suffix('s').unwrap_or_default().to_string(),
    ];
    stems.into_iter().find(|candidate| {
        !candidate.is_empty()
            && (is_in(DESTRUCTIVE_VERBS, candidate)
                || is_in(WRITE_VERBS, candidate)
                || is_in(READ_VERBS, candidate))
    })
}

/// The top-level parameters: name, key span, schema.
fn parameters(tool: &Tool) -> Vec<(&str, Span, &Node)> {
    tool.schema()
        .and_then(|s| s.get("properties"))
        .and_then(Node::as_object)
        .unwrap_or_default()
        .iter()
        .map(|m| (m.key.as_str(), m.key_span, &m.value))
        .collect()
}

fn is_string_like(schema: &Node) -> bool {
    match schema.get("type").map(|t| &t.value) {
        None => true,
        Some(Value::String(s)) => s == "string" || s == "array",
        Some(Value::Array(types)) => types
            .iter()
            .any(|t| matches!(t.as_str(), Some("string" | "array"))),
        Some(_) => false,
    }
}

fn inferred(r: &mut Reader<'_>) {
    let tool = r.tool;
    let name_span = tool.span();
    // A real name has a handful of words; a hostile one is cut, so the vocabulary lookups stay
    // linear in the file whatever the name.
    let mut words = tool.name().map(name_words).unwrap_or_default();
    words.truncate(MAX_NAME_WORDS);
    let verb = name_verb(&words);
    if let Some((w, effect, strong)) = verb {
        r.push(
            Claim::Effect(effect),
            Basis::Inferred,
            "name",
            format!("the name's verb `{w}`"),
            name_span,
            strong && effect != Effect::Read,
        );
    } else if let Some(description) = tool.description() {
        if let Some(v) = description.as_str().and_then(description_verb) {
            let effect = name_verb(std::slice::from_ref(&v)).map_or(Effect::Read, |(_, e, _)| e);
            r.push(
                Claim::Effect(effect),
                Basis::Inferred,
                "description",
                format!("the description's verb `{v}`"),
                description.span,
                false,
            );
        }
    }
    let params = parameters(tool);
    let has = |list: &[&str]| words.iter().find(|w| is_in(list, w)).cloned();
    let read_verb = matches!(verb, Some((_, Effect::Read, _)));

    // Exec: an exec-like name with a parameter carrying what to run, or an unmistakable one.
    // `query` in the name counts only on a tool that does not read (`write_query`, not
    // `read_query`); a reading tool is exec only with a `command`, `sql` or `script`.
    let exec_name = has(EXEC_NAME_WORDS).or_else(|| {
        (!read_verb && words.iter().any(|w| w == "query")).then(|| "query".to_string())
    });
    let exec_param = params.iter().find(|(name, _, schema)| {
        let lower = name.to_ascii_lowercase();
        let strong = is_in(STRONG_EXEC_PARAMETERS, &lower);
        is_string_like(schema)
            && ((exec_name.is_some() && is_in(EXEC_PARAMETERS, &lower) && (!read_verb || strong))
                || (!read_verb && strong))
    });
    if let Some((pname, span, _)) = exec_param {
        let text = match &exec_name {
            Some(w) => format!("the name's `{w}` and the parameter `{pname}`"),
            None => format!("the parameter `{pname}`"),
        };
        r.push(
            Claim::Capability(Capability::Exec),
            Basis::Inferred,
            "parameter",
            text,
            *span,
            true,
        );
    }

    // A drop or overwrite switch on a writing tool.
    if !read_verb && verb.is_some() {
        for (pname, span, schema) in &params {
            let pwords = name_words(pname);
            let boolean = schema.get("type").and_then(Node::as_str) == Some("boolean");
            if boolean && pwords.iter().any(|w| is_in(DROP_SWITCHES, w)) {
                r.push(
                    Claim::AtLeast(Effect::Destructive),
                    Basis::Inferred,
                    "parameter",
                    format!("the switch `{pname}`"),
                    *span,
                    true,
                );
                break;
            }
        }
    }

    let amount = params
        .iter()
        .find(|(n, _, _)| matches!(n.to_ascii_lowercase().as_str(), "amount" | "price"));
    let writes = verb.is_some_and(|(_, e, _)| e != Effect::Read);
    // Financial: a writing tool named after moving money (`top_up` read as one word), or a
    // transfer with an amount.
    let joined: Vec<String> = words
        .windows(2)
        .filter(|p| p[0] == "top" && p[1] == "up")
        .map(|_| "topup".to_string())
        .collect();
    let money = words
        .iter()
        .chain(joined.iter())
        .find(|w| is_in(MONEY_WORDS, w))
        .cloned()
        .or_else(|| {
            (words.iter().any(|w| w == "transfer" || w == "send") && amount.is_some())
                .then(|| "transfer".to_string())
        });
    if let Some(w) = money.filter(|_| writes || joined.len() == 1) {
        r.push(
            Claim::Capability(Capability::Financial),
            Basis::Inferred,
            "name",
            format!("the name's `{w}`"),
            name_span,
            true,
        );
    }

    // Credential: a verb that creates, reveals or rotates, and a credential noun.
    let cred_verb = words
        .first()
        .filter(|w| is_in(CREDENTIAL_VERBS, w))
        .or_else(|| verb.and_then(|(v, _, _)| words.iter().find(|w| w.as_str() == v)))
        .filter(|w| is_in(CREDENTIAL_VERBS, w));
    let excluded = words.iter().any(|w| is_in(CREDENTIAL_EXCLUSIONS, w));
    let noun = words.iter().enumerate().find_map(|(i, w)| {
        if is_in(CREDENTIAL_WORDS, w) {
            return Some(w.clone());
        }
        let qualified = i > 0 && is_in(CREDENTIAL_QUALIFIERS, &words[i - 1]);
        (matches!(w.as_str(), "key" | "keys" | "token" | "tokens") && qualified)
            .then(|| format!("{}_{w}", words[i - 1]))
    });
    if let (Some(v), Some(n), false) = (cred_verb, noun, excluded) {
        if !read_verb || !matches!(v.as_str(), "list" | "search" | "find") {
            r.push(
                Claim::Capability(Capability::Credential),
                Basis::Inferred,
                "name",
                format!("`{v}` with `{n}`"),
                name_span,
                true,
            );
        }
    }

    // Sends: the name's verb sends (`send_test_email`, `sendMessage`, `post_message`).
    let send_verb = verb
        .map(|(v, _, _)| v.to_string())
        .filter(|v| is_in(SEND_VERBS, v))
        .or_else(|| words.first().filter(|w| is_in(SEND_VERBS, w)).cloned());
    if let Some(w) = send_verb.filter(|_| writes || verb.is_none()) {
        r.push(
            Claim::Capability(Capability::Sends),
            Basis::Inferred,
            "name",
            format!("the name's verb `{w}`"),
            name_span,
            false,
        );
    }

    // A confirmation or preview parameter.
    for (pname, span, _) in &params {
        let pwords = name_words(pname);
        let dry_run = pwords.windows(2).any(|p| p[0] == "dry" && p[1] == "run");
        if dry_run || pwords.iter().any(|w| is_in(GATE_PARAMETER_WORDS, w)) {
            r.push(
                Claim::Gate,
                Basis::Declared,
                "parameter",
                format!("the parameter `{pname}`"),
                *span,
                false,
            );
            break;
        }
    }
}

/// What the tool's operations add (`semantic::operations`): a selector offering a delete, a raw
/// API request, a description that starts a terminal process, a tool that changes the agent's
/// limits. Read after the name and description, whose verb it is given.
fn by_operations(r: &mut Reader<'_>) {
    let verb = r.evidence.iter().find_map(|e| match (e.basis, e.claim) {
        (Basis::Inferred, Claim::Effect(x)) if matches!(e.source, "name" | "description") => {
            Some(x)
        }
        _ => None,
    });
    let verb = match verb {
        None => NameVerb::None,
        Some(Effect::Read) => NameVerb::Reads,
        Some(_) => NameVerb::Changes,
    };
    let mut words = r.tool.name().map(name_words).unwrap_or_default();
    words.truncate(MAX_NAME_WORDS);
    let params = parameters(r.tool);
    for found in operation_findings(r.tool, &params, &words, verb) {
        let (claim, strong) = match found.what {
            Finding::Deletes => (Claim::AtLeast(Effect::Destructive), true),
            Finding::Writes => (Claim::AtLeast(Effect::Write), false),
            Finding::Exec => (Claim::Capability(Capability::Exec), true),
            Finding::Access => (Claim::Capability(Capability::Access), true),
        };
        r.push(
            claim,
            Basis::Inferred,
            found.source,
            found.text,
            found.span,
            strong,
        );
    }
}

/// The effect the evidence supports: inferred evidence, bounded by the declarations.
fn decide(evidence: &[Evidence]) -> (Effect, Vec<Capability>) {
    let mut floor = Effect::Read;
    let mut ceiling = Effect::Destructive;
    let mut exact: Option<Effect> = None;
    let mut guess = Effect::Read;
    let mut capabilities = Vec::new();
    for e in evidence {
        match (e.basis, e.claim) {
            (Basis::Declared, Claim::Effect(x)) => {
                exact = Some(exact.map_or(x, |y| y.max(x)));
            }
            (Basis::Declared, Claim::AtLeast(x)) => floor = floor.max(x),
            (Basis::Declared, Claim::AtMost(x)) => ceiling = ceiling.min(x),
            (Basis::Inferred, Claim::Effect(x) | Claim::AtLeast(x)) => guess = guess.max(x),
            (_, Claim::Capability(c)) => capabilities.push(c),
            _ => {}
        }
    }
    capabilities.sort_unstable();
    capabilities.dedup();
    // A tool that runs what it is given, or moves money, writes unless declared otherwise.
    if capabilities
        .iter()
        .any(|c| matches!(c, Capability::Exec | Capability::Financial))
    {
        guess = guess.max(Effect::Write);
    }
    let effect = match exact {
        Some(Effect::Read) if floor == Effect::Read => Effect::Read,
        Some(x) => x.max(floor),
        None => guess.max(floor).min(ceiling.max(floor)),
    };
    (effect, capabilities)
}

/// The effect fact of one tool.
pub(crate) fn tool_effect<'a>(
    file: FileId,
    tool: &'a Tool,
    link: Option<&Link<'_>>,
) -> ToolEffect<'a> {
    let mut r = Reader {
        file,
        tool,
        evidence: Vec::new(),
    };
    declared_by_tool(&mut r);
    if let Some(link) = link {
        declared_by_contract(&mut r, link);
    }
    inferred(&mut r);
    by_operations(&mut r);
    // A tool registered in source code: what its handler calls.
    for e in crate::semantic::handler::handler_evidence(tool) {
        r.push(
            e.claim,
            Basis::Inferred,
            "handler",
            e.text,
            e.span,
            e.strong,
        );
    }
    let (effect, capabilities) = decide(&r.evidence);
    ToolEffect {
        file,
        tool,
        effect,
        capabilities,
        evidence: r.evidence,
    }
}

/// Every tool of the unit with its effect, in file and entry order, and an index by tool.
#[derive(Debug, Default)]
pub struct ToolEffects<'a> {
    pub list: Vec<ToolEffect<'a>>,
    by_tool: HashMap<*const Tool, usize>,
}

impl<'a> ToolEffects<'a> {
    /// The effect of `tool`, a tool of the unit.
    pub fn of(&self, tool: &Tool) -> Option<&ToolEffect<'a>> {
        let i = *self.by_tool.get(&std::ptr::from_ref(tool))?;
        self.list.get(i)
    }
}

/// Every tool of the unit with its effect, in file and entry order.
pub(crate) fn find_effects<'a>(unit: &UnitView<'a>, links: &[Link<'a>]) -> ToolEffects<'a> {
    let mut links_by_tool: HashMap<*const Tool, &Link<'a>> = HashMap::new();
    for link in links {
        links_by_tool.insert(std::ptr::from_ref(link.tool), link);
    }
    let list: Vec<ToolEffect<'a>> = unit
        .tools()
        .map(|(file, tool)| {
            let link = links_by_tool.get(&std::ptr::from_ref(tool)).copied();
            tool_effect(file, tool, link)
        })
        .collect();
    let by_tool = list
        .iter()
        .enumerate()
        .map(|(i, e)| (std::ptr::from_ref(e.tool), i))
        .collect();
    ToolEffects { list, by_tool }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tools::parse_tools;

    /// The effect and capabilities of each tool of an MCP list built from `(name, parameters)`.
    fn effects(tools: &[(&str, &str)]) -> Vec<(String, &'static str, Vec<&'static str>)> {
        let entries: Vec<String> = tools
            .iter()
            .map(|(name, props)| {
                format!(
                    r#"{{"name": "{name}", "description": "x", "inputSchema": {{"type": "object", "properties": {{{props}}}}}}}"#
                )
            })
            .collect();
        let doc = parse_tools(&format!("[{}]", entries.join(",")));
        doc.tools
            .iter()
            .map(|tool| {
                let e = tool_effect(FileId(0), tool, None);
                (
                    tool.display_name(),
                    e.effect.as_str(),
                    e.capabilities.iter().map(|c| c.as_str()).collect(),
                )
            })
            .collect()
    }

    fn effect_of(name: &str) -> &'static str {
        effects(&[(name, "")])[0].1
    }

    #[test]
    fn the_name_verb_decides_in_every_case_style() {
        for name in [
            "delete_x",
            "deleteX",
            "x.delete",
            "delete-many",
            "zpa_delete_rule",
            "DropIndex",
        ] {
            assert_eq!(effect_of(name), "destructive", "{name}");
        }
        for name in [
            "update-many",
            "createIssue",
            "repo.push",
            "add_user_to_group",
            "issue_write",
        ] {
            assert_eq!(effect_of(name), "write", "{name}");
        }
        for name in [
            "undelete_x",
            "listDeleted",
            "list_deleted_items",
            "get_delete_status",
            "find",
            "search_code",
            "collection-schema",
            "describe_table",
            "pull_request_read",
            "weather",
        ] {
            assert_ne!(effect_of(name), "destructive", "{name}");
        }
        for name in [
            "list_x",
            "get_x",
            "find_x",
            "search_x",
            "collection-schema",
            "describe_x",
            "weather",
        ] {
            assert_eq!(effect_of(name), "read", "{name}");
        }
        // Restoring a database or snapshot overwrites what is there; restoring an item does not.
        assert_eq!(effect_of("restore_database"), "destructive");
        assert_eq!(effect_of("restoreSnapshot"), "destructive");
        assert_eq!(effect_of("restore_item"), "write");
        // A noun that is also a verb decides only as the first word.
        assert_eq!(effect_of("post_message"), "write");
        assert_eq!(effect_of("get_post"), "read");
        assert_eq!(effect_of("release_notes_get"), "read");
    }

    #[test]
    fn capabilities_need_their_evidence() {
        let found = effects(&[
            ("run_shell", r#""command": {"type": "string"}"#),
            ("read_query", r#""query": {"type": "string"}"#),
            ("write_query", r#""query": {"type": "string"}"#),
            ("search_code", r#""query": {"type": "string"}"#),
            ("top_up_wallet", r#""amount": {"type": "number"}"#),
            ("transfer_repository", r#""owner": {"type": "string"}"#),
            ("get_token_balance", ""),
            ("get_secret_scanning_alert", ""),
            ("rotate_access_token", ""),
            ("send_test_email", ""),
            ("create_email_template", ""),
        ]);
        let caps: Vec<(&str, Vec<&str>)> = found
            .iter()
            .map(|(n, _, c)| (n.as_str(), c.clone()))
            .collect();
        assert_eq!(
            caps,
            [
                ("run_shell", vec!["exec"]),
                ("read_query", vec![]),
                ("write_query", vec!["exec"]),
                ("search_code", vec![]),
                ("top_up_wallet", vec!["financial"]),
                ("transfer_repository", vec![]),
                ("get_token_balance", vec![]),
                ("get_secret_scanning_alert", vec![]),
                ("rotate_access_token", vec!["credential"]),
                ("send_test_email", vec!["sends"]),
                ("create_email_template", vec![]),
            ]
        );
    }

    #[test]
    fn declarations_bound_the_effect_and_contradictions_are_kept() {
        let doc = parse_tools(
            r#"[
  {"name": "delete-many", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": false}},
  {"name": "list_things", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false}},
  {"name": "create_note", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
  {"name": "post_summary", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}
]"#,
        );
        let got: Vec<(&str, usize)> = doc
            .tools
            .iter()
            .map(|t| {
                let e = tool_effect(FileId(0), t, None);
                (e.effect.as_str(), e.contradictions().len())
            })
            .collect();
        // Declared beats inferred; strong inference against it is a contradiction, a noun-verb
        // (`post`) is not strong.
        assert_eq!(got, [("write", 1), ("write", 0), ("read", 1), ("read", 0)]);
    }
}
