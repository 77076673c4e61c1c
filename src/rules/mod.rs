//! Rule code only: one module per family, each with a `RULES` table binding its codes to their
//! checks. [`checks`] chains the tables; `check::Registry` joins them with the catalog of
//! `rules/*.md`. Rules import what they are given from `check` and text edits from `edit`, never
//! `engine`, `fix`, `catalog`, `config`, `render` or the triage modules.

pub mod dr;
pub mod sc;
pub mod se;
pub mod sk;
pub mod sl;
pub mod tj;
pub mod tm;
pub mod tr;
pub mod util;
pub mod xc;

use crate::check::RuleImpl;

/// Kept so callers that still name `rules::registry` (tests/rule_fixtures.rs) build; new code
/// uses `check::registry` or, for metadata only, `catalog::catalog`.
#[doc(hidden)]
pub use crate::check::registry;

/// Every family's checks, family by family; the registry takes them in catalog order, by code.
pub fn checks() -> impl Iterator<Item = &'static RuleImpl> {
    [
        sk::RULES,
        tj::RULES,
        tr::RULES,
        tm::RULES,
        dr::RULES,
        se::RULES,
        sc::RULES,
        xc::RULES,
        sl::RULES,
    ]
    .into_iter()
    .flatten()
}
