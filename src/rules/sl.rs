//! SL: the linter's own diagnostics. SL001 and SL900 are emitted by the engine while reading files
//! and running rules; they have no check of their own.

use super::{Check, RuleImpl};

pub const RULES: &[RuleImpl] = &[
    RuleImpl {
        code: "SL001",
        check: Check::Engine,
    },
    RuleImpl {
        code: "SL900",
        check: Check::Engine,
    },
];
