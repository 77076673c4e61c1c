//! DR: AIP-30 `DRIVER.md` and `CLI.md`, SPEC §3.5.
//!
//! DR001–DR002 check a driver file on its own (frontmatter, the universal driver schema), DR010
//! checks builtin drivers, DR012 the kind's subtype schema (pedantic). DR003–DR009 follow each
//! `implements[]` entry to the TOOL.md it names and check the binding against the contract: a driver
//! may narrow a tool, never widen it or drop what the tool requires. DR011 follows `auth.ref` to a
//! SECRETS.md. Every cross-file finding carries a secondary label on the other file.
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::phrasing` and `rules::util`, and from this module, never from a
//! sibling rule or another family.

mod dr001_driver_frontmatter_invalid;
mod dr002_driver_schema_violation;
mod dr003_driver_tool_unresolved;
mod dr004_driver_version_range_mismatch;
mod dr005_driver_kind_forbidden;
mod dr006_driver_drops_required_input;
mod dr007_driver_drops_idempotency_key;
mod dr008_driver_widens_timeout;
mod dr009_driver_mapping_unknown_input;
mod dr010_builtin_driver_has_io;
mod dr011_driver_secret_unresolved;
mod dr012_driver_subtype_schema_violation;
#[cfg(test)]
mod tests;

use crate::check::{code, Check, RuleImpl};
use crate::model::contract::Contract;
use crate::parse::node::Node;
use crate::source::{FileId, Span};
use dr001_driver_frontmatter_invalid::driver_frontmatter_invalid;
use dr002_driver_schema_violation::driver_schema_violation;
use dr003_driver_tool_unresolved::driver_tool_unresolved;
use dr004_driver_version_range_mismatch::driver_version_range_mismatch;
use dr005_driver_kind_forbidden::driver_kind_forbidden;
use dr006_driver_drops_required_input::driver_drops_required_input;
use dr007_driver_drops_idempotency_key::driver_drops_idempotency_key;
use dr008_driver_widens_timeout::driver_widens_timeout;
use dr009_driver_mapping_unknown_input::driver_mapping_unknown_input;
use dr010_builtin_driver_has_io::builtin_driver_has_io;
use dr011_driver_secret_unresolved::driver_secret_unresolved;
use dr012_driver_subtype_schema_violation::driver_subtype_schema_violation;
use std::collections::{HashMap, HashSet};

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::DR001, check: Check::Unit(driver_frontmatter_invalid) },
    RuleImpl { code: code::DR002, check: Check::Unit(driver_schema_violation) },
    RuleImpl { code: code::DR003, check: Check::Unit(driver_tool_unresolved) },
    RuleImpl { code: code::DR004, check: Check::Unit(driver_version_range_mismatch) },
    RuleImpl { code: code::DR005, check: Check::Unit(driver_kind_forbidden) },
    RuleImpl { code: code::DR006, check: Check::Unit(driver_drops_required_input) },
    RuleImpl { code: code::DR007, check: Check::Unit(driver_drops_idempotency_key) },
    RuleImpl { code: code::DR008, check: Check::Unit(driver_widens_timeout) },
    RuleImpl { code: code::DR009, check: Check::Unit(driver_mapping_unknown_input) },
    RuleImpl { code: code::DR010, check: Check::Unit(builtin_driver_has_io) },
    RuleImpl { code: code::DR011, check: Check::Unit(driver_secret_unresolved) },
    RuleImpl { code: code::DR012, check: Check::Unit(driver_subtype_schema_violation) },
];

const IDEMPOTENCY_FIELD: &str = "idempotency_key";

// How the DR rules name a contract and read its inputs by name (the view is
// `model::contract`, the contract a binding resolves to is found in `semantic::bindings`).
impl<'a> Contract<'a> {
    /// How messages name the tool: its id, else the reference the driver used.
    fn name(&self, reference: &str) -> String {
        self.id().unwrap_or(reference).to_string()
    }

    /// The contract's inputs gathered for lookups by name (DR006, DR009).
    fn input_lookup(&self) -> InputLookup<'a> {
        let properties = self
            .input_properties()
            .map(|members| members.iter().map(|m| m.key.as_str()).collect());
        let mut required = HashMap::new();
        let items = self
            .get("inputs")
            .and_then(|inputs| inputs.get("required"))
            .and_then(Node::as_array)
            .unwrap_or_default();
        for item in items {
            if let Some(name) = item.as_str() {
                required.entry(name).or_insert(item);
            }
        }
        InputLookup {
            properties,
            required,
        }
    }
}

/// A contract's input names, for lookups: many `implements` entries may bind to one TOOL.md and
/// each may drop or map many inputs, so scanning the contract's lists for each was quadratic.
struct InputLookup<'a> {
    /// The `inputs.properties` names, when `inputs` declares `properties`.
    properties: Option<HashSet<&'a str>>,
    /// The first `inputs.required` item of each name.
    required: HashMap<&'a str, &'a Node>,
}

/// The input lookup of each contract file, built on first use.
#[derive(Default)]
struct InputLookups<'a>(HashMap<FileId, InputLookup<'a>>);

impl<'a> InputLookups<'a> {
    fn of(&mut self, contract: &Contract<'a>) -> &InputLookup<'a> {
        self.0
            .entry(contract.file)
            .or_insert_with(|| contract.input_lookup())
    }
}

/// The string items of an entry's `schema_narrowing.drop_inputs`.
fn dropped_inputs(entry: &Node) -> Vec<(&str, Span)> {
    entry
        .get("schema_narrowing")
        .and_then(|n| n.get("drop_inputs"))
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.as_str().map(|s| (s, n.span)))
        .collect()
}
