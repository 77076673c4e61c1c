//! SE: secrets and hidden content, SPEC §3.6.
//!
//! SE001 and SE004 check AIP-19 SECRETS.md inventories (schema, unique slugs). SE002 looks for
//! secret values: value-carrying keys in an inventory, and literal credentials (well-known token
//! formats) in every linted file; it never prints what it found. SE003 looks for characters an
//! agent reads but a reviewer cannot see: bidi controls, zero-width characters and Unicode tags.
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::phrasing` and `rules::util`, and from this module, never from a
//! sibling rule or another family.

mod se001_secrets_schema_violation;
mod se002_secret_value_in_manifest;
mod se003_hidden_unicode;
mod se004_secret_slug_duplicate;
#[cfg(test)]
mod tests;

use crate::check::{code, Check, RuleImpl};
use se001_secrets_schema_violation::secrets_schema_violation;
use se002_secret_value_in_manifest::secret_value_in_manifest;
use se003_hidden_unicode::hidden_unicode;
use se004_secret_slug_duplicate::secret_slug_duplicate;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::SE001, check: Check::Unit(secrets_schema_violation) },
    RuleImpl { code: code::SE002, check: Check::Unit(secret_value_in_manifest) },
    RuleImpl { code: code::SE003, check: Check::Unit(hidden_unicode) },
    RuleImpl { code: code::SE004, check: Check::Repo(secret_slug_duplicate) },
];

/// Keys that would put a value (or what decrypts one) into a SECRETS.md entry (AIP-19).
const VALUE_KEYS: [&str; 7] = [
    "value",
    "plaintext",
    "ciphertext",
    "secret",
    "data",
    "key",
    "token",
];
