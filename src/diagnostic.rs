//! The diagnostic model shared by every rule and every output format.

use crate::source::{FileId, Span};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A location in a file with an optional label text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub file: FileId,
    pub span: Span,
    pub message: Option<String>,
}

/// Whether a fix may be applied by `--fix` alone or needs `--unsafe-fixes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    Safe,
    Unsafe,
}

/// Replace the bytes of `span` in `file` with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub file: FileId,
    pub span: Span,
    pub replacement: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    pub description: String,
    pub edits: Vec<Edit>,
    /// Rename the primary file to this name, in the same folder (SK012).
    pub rename_to: Option<String>,
}

impl Fix {
    pub fn safe(description: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            applicability: Applicability::Safe,
            description: description.into(),
            edits,
            rename_to: None,
        }
    }

    pub fn unsafe_(description: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            applicability: Applicability::Unsafe,
            description: description.into(),
            edits,
            rename_to: None,
        }
    }
}

impl Edit {
    pub fn replace(file: FileId, span: Span, replacement: impl Into<String>) -> Self {
        Edit {
            file,
            span,
            replacement: replacement.into(),
        }
    }

    pub fn insert(file: FileId, at: usize, text: impl Into<String>) -> Self {
        Edit {
            file,
            span: Span::empty(at),
            replacement: text.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
    /// For a finding about a tool, what the effect model knows of it (`--format json` lists it).
    pub tool: Option<Box<ToolFacts>>,
    /// For the finding that counts what a rule left out of a file past the per-file cap, the
    /// findings it stands for: what a baseline entry for it must agree with.
    pub left_out: Option<Box<LeftOut>>,
}

/// The findings one count finding stands for ("N more findings of this rule in this file not
/// reported"): each one's span and a [`stable_hash`] of its message. Kept so that a baseline
/// entry for the count is tied to the findings it accepted, not to their number: a new finding
/// that falls past the cap changes them, and the count is reported again (a baseline entry never
/// hides a finding that was not there when it was written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub findings: Vec<(Span, u64)>,
}

/// A tool's effect, capabilities and evidence, as a finding about the tool carries them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolFacts {
    pub name: String,
    /// `read`, `write` or `destructive`.
    pub effect: &'static str,
    /// `exec`, `financial`, `credential`, `access`, `sends`, sorted.
    pub capabilities: Vec<&'static str>,
    pub evidence: Vec<EvidenceFacts>,
}

/// One piece of evidence of a [`ToolFacts`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceFacts {
    /// What it says: `effect:read`, `at-least:write`, `at-most:write`, `capability:exec`,
    /// `gate`, `hinted`.
    pub claim: String,
    /// `declared` or `inferred`.
    pub basis: &'static str,
    /// Where it was read (`annotations.readOnlyHint`, `name`, `parameter`, …).
    pub source: &'static str,
    /// What was read.
    pub text: String,
}

impl Diagnostic {
    pub fn new(
        code: &'static str,
        severity: Severity,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            primary: Label {
                file,
                span,
                message: None,
            },
            secondary: Vec::new(),
            help: None,
            fix: None,
            tool: None,
            left_out: None,
        }
    }

    pub fn with_label(mut self, text: impl Into<String>) -> Self {
        self.primary.message = Some(text.into());
        self
    }

    pub fn with_secondary(mut self, file: FileId, span: Span, text: impl Into<String>) -> Self {
        self.secondary.push(Label {
            file,
            span,
            message: Some(text.into()),
        });
        self
    }

    pub fn with_help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// The order every output format uses: path, offset, code, then the rest for full determinism.
    pub fn sort_key(&self) -> (FileId, usize, &'static str, usize, &str) {
        (
            self.primary.file,
            self.primary.span.start,
            self.code,
            self.primary.span.end,
            self.message.as_str(),
        )
    }
}

/// Builder-style edits on a diagnostic that a rule already emitted into its sink.
impl Diagnostic {
    pub fn label(&mut self, text: impl Into<String>) -> &mut Self {
        self.primary.message = Some(text.into());
        self
    }

    pub fn secondary(&mut self, file: FileId, span: Span, text: impl Into<String>) -> &mut Self {
        self.secondary.push(Label {
            file,
            span,
            message: Some(text.into()),
        });
        self
    }

    pub fn help(&mut self, text: impl Into<String>) -> &mut Self {
        self.help = Some(text.into());
        self
    }

    pub fn fix(&mut self, fix: Fix) -> &mut Self {
        self.fix = Some(fix);
        self
    }

    /// Attaches what the effect model knows of the tool the finding is about.
    pub fn tool_facts(&mut self, facts: ToolFacts) -> &mut Self {
        self.tool = Some(Box::new(facts));
        self
    }

    pub fn severity(&mut self, severity: Severity) -> &mut Self {
        self.severity = severity;
        self
    }
}

/// A finding silenced by an inline comment or hidden by the baseline, kept for SARIF (which
/// reports it with the comment's or the entry's reason as its justification).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub justification: Option<String>,
    pub by: SuppressedBy,
}

/// What silenced a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SuppressedBy {
    /// A `skilllint-disable…` or `# skilllint: ignore[…]` comment in the file.
    #[default]
    Comment,
    /// An entry of the baseline file (`--baseline`, `[lint] baseline`).
    Baseline,
}

/// 64-bit FNV-1a: a stable hash that does not change between Rust releases or platforms (SARIF
/// fingerprints and baseline entries are made of it, and outlive any one build).
pub fn stable_hash(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain(std::iter::once(0)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// The text a finding flags with its whitespace folded to single spaces: what identifies the
/// finding across edits that only move it (lines added above, indentation changed).
pub fn flagged_text(text: &str, span: Span) -> String {
    let flagged: Vec<&str> = crate::source::slice(text, span)
        .split_whitespace()
        .collect();
    flagged.join(" ")
}
