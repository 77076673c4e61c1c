//! TM rules.

use super::RuleImpl;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[];
