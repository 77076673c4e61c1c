//! SK rules.

use super::RuleImpl;

pub const RULES: &[RuleImpl] = &[];
