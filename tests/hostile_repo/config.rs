//! Attacks of this class: see the module list in main.rs.

#[allow(unused_imports)]
use super::common;
