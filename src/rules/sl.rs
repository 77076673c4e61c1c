//! SL: the linter's own diagnostics, emitted by the engine while reading files (SL001, and SL004
//! for a named path of no kind it reads), applying
//! inline suppressions (SL002, SL003) and running rules (SL900), and by the policy rules (SL010 an expression
//! that failed on an entity, SL011 one stopped by the cost limit), and by the baseline (SL020 an
//! expired entry, SL021 a stale one); they have no check of their own.

use crate::check::{code, Check, RuleImpl};

pub const RULES: &[RuleImpl] = &[
    RuleImpl {
        code: code::SL001,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::SL002,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::SL003,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::SL004,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::SL010,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::SL011,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::SL020,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::SL021,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::SL900,
        check: Check::Engine,
    },
];
