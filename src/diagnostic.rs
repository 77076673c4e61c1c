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

    pub fn severity(&mut self, severity: Severity) -> &mut Self {
        self.severity = severity;
        self
    }
}

/// A finding silenced by an inline comment, kept for SARIF (which reports it with the
/// comment's reason as its justification).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub justification: Option<String>,
}
