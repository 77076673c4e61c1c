//! XC: a skill's tools against their AIP-14 `TOOL.md` contracts, SPEC §3.8.
//!
//! A `tools.json` tool is *linked* to a TOOL.md when `[contracts.map]` maps its name to the
//! contract's `id`, or when the two are equal once `.` and `-` become `_` (`create_event` ↔
//! `create-event`). The TOOL.md may live anywhere in the repository. A linked tool may add
//! obligations to its contract but never drop them. Diagnostics point at the tools.json side (the
//! flag, or the tool's name) with a secondary label on the TOOL.md key they contradict.
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::phrasing` and `rules::util`, and from this module, never from a
//! sibling rule or another family.

#[cfg(test)]
mod tests;
mod xc001_tool_type_contradicts_contract;
mod xc002_confirmation_weaker_than_contract;
mod xc003_idempotency_contradicts_contract;
mod xc004_contract_input_missing;

use crate::check::{code, Check, RuleImpl};
use xc001_tool_type_contradicts_contract::tool_type_contradicts_contract;
use xc002_confirmation_weaker_than_contract::confirmation_weaker_than_contract;
use xc003_idempotency_contradicts_contract::idempotency_contradicts_contract;
use xc004_contract_input_missing::contract_input_missing;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::XC001, check: Check::Unit(tool_type_contradicts_contract) },
    RuleImpl { code: code::XC002, check: Check::Unit(confirmation_weaker_than_contract) },
    RuleImpl { code: code::XC003, check: Check::Unit(idempotency_contradicts_contract) },
    RuleImpl { code: code::XC004, check: Check::Unit(contract_input_missing) },
];
