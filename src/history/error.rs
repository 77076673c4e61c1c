//! Why a revision could not be read (the command exits 2 with it), and the wording of the
//! messages the other parts give it.

use crate::escape::escape_text;
use crate::file_error::FileError;
use std::path::Path;

/// Why a revision could not be read; the command exits 2 with it.
#[derive(Debug)]
pub enum Error {
    /// No repository, or one that cannot be opened; a message for people.
    Open(String),
    /// A revision that names nothing this clone holds; a message for people.
    Revision(String),
    /// The configuration committed in a revision.
    Config(FileError),
    /// A policy file committed in a revision.
    Policy(FileError),
    /// The revision's objects: one missing (a partial clone), a tree over the limits.
    Read(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Open(m) | Error::Revision(m) | Error::Read(m) => f.write_str(m),
            Error::Config(e) | Error::Policy(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

pub(super) fn whole_file(path: &Path, message: &str) -> FileError {
    FileError::whole_file(path, message.to_string())
}

/// A read that failed on an object the clone does not hold (a partial clone) or cannot read.
pub(super) fn missing(error: impl std::fmt::Display) -> String {
    format!(
        "cannot read the revision's files: {} (a partial or shallow clone may not hold them all; \
         fetch the full history)",
        escape_text(&error.to_string())
    )
}
