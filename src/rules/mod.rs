//! Rule code only: one folder per family, one file per rule. A family's `mod.rs` holds its `RULES`
//! table binding its codes to their checks and the helpers several of its rules share; each rule
//! is `<family>/<code>_<rule name>.rs` (tests/rule_files.rs keeps the names in step with
//! `rules/*.md`). [`checks`] chains the tables; `check::Registry` joins them with the catalog of
//! `rules/*.md`. Rules import what they are given from `check` and text edits from `edit`, never
//! `engine`, `fix`, `catalog`, `config`, `render` or the triage modules.

pub mod ag;
pub mod dr;
pub mod hk;
pub mod lk;
pub mod mc;
pub mod phrasing;
pub mod pi;
pub mod pl;
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

/// Every family's checks, family by family; the registry takes them in catalog order, by code.
pub fn checks() -> impl Iterator<Item = &'static RuleImpl> + Clone {
    [
        sk::RULES,
        tj::RULES,
        tr::RULES,
        tm::RULES,
        dr::RULES,
        se::RULES,
        sc::RULES,
        xc::RULES,
        pl::RULES,
        hk::RULES,
        mc::RULES,
        ag::RULES,
        pi::RULES,
        sl::RULES,
        lk::RULES,
    ]
    .into_iter()
    .flatten()
}
