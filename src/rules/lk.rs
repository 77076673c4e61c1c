//! LK: drift of the tools from the committed tool-surface lock (`skilllint.lock`), reported by
//! the lock (`crate::lock::drift`) once a run's tools are known: LK001 a pinned tool that
//! changed, LK002 a tool the lock does not pin, LK003 a pinned tool that is gone, LK004 a lock
//! that cannot be read. They have no check of their own: the lock compares the whole run's tools,
//! which no one unit's rules see.

use crate::check::{code, Check, RuleImpl};

pub const RULES: &[RuleImpl] = &[
    RuleImpl {
        code: code::LK001,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::LK002,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::LK003,
        check: Check::Engine,
    },
    RuleImpl {
        code: code::LK004,
        check: Check::Engine,
    },
];
