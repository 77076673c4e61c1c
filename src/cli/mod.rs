//! The binary's own modules: the command line's flags ([`flags`]), one module per command
//! ([`lint`] with [`baseline`], [`tools`], [`lock`], [`diff`], [`rules`]), where their output goes
//! ([`output`]), what the lint says on standard error ([`summary`]), the terminal's colours and
//! messages ([`terminal`]) and the allocator. The library never imports them; `main.rs` only
//! dispatches to them.

mod allocator;
pub mod baseline;
pub mod diff;
pub mod flags;
pub mod lint;
pub mod lock;
pub mod output;
pub mod rules;
pub mod summary;
pub mod terminal;
pub mod tools;

/// Exit code: findings at or above `--fail-on` (or a fix made with `--exit-non-zero-on-fix`).
pub const EXIT_FINDINGS: u8 = 1;
/// Exit code: a usage, configuration or I/O error.
pub const EXIT_USAGE: u8 = 2;
