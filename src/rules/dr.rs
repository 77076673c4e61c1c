//! DR: AIP-30 `DRIVER.md` and `CLI.md`, SPEC §3.5.
//!
//! DR001–DR002 check a driver file on its own (frontmatter, the universal driver schema), DR010
//! checks builtin drivers, DR012 the kind's subtype schema (pedantic). DR003–DR009 follow each
//! `implements[]` entry to the TOOL.md it names and check the binding against the contract: a driver
//! may narrow a tool, never widen it or drop what the tool requires. DR011 follows `auth.ref` to a
//! SECRETS.md. Every cross-file finding carries a secondary label on the other file.

use super::report::{report_frontmatter_problem, report_schema_errors, GENERIC_MISSING_HELP};
use super::util::nearest;
use crate::check::Unit;
use crate::check::{Check, RuleImpl, Sink};
use crate::diagnostic::Severity;
use crate::index::{Parsed, Repo};
use crate::model::skill::MarkdownDoc;
use crate::parse::node::{Member, Node};
use crate::schema;
use crate::semantic::bindings::{
    contract_candidates, drivers, folder_of, parse_range, range_admits, Contract,
};
use crate::source::{join_path, normalize_path};
use crate::source::{FileId, Span};
use std::collections::{HashMap, HashSet};

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: "DR001", check: Check::Unit(frontmatter_invalid) },
    RuleImpl { code: "DR002", check: Check::Unit(schema_violation) },
    RuleImpl { code: "DR003", check: Check::Unit(tool_unresolved) },
    RuleImpl { code: "DR004", check: Check::Unit(version_range_mismatch) },
    RuleImpl { code: "DR005", check: Check::Unit(kind_forbidden) },
    RuleImpl { code: "DR006", check: Check::Unit(drops_required_input) },
    RuleImpl { code: "DR007", check: Check::Unit(drops_idempotency_key) },
    RuleImpl { code: "DR008", check: Check::Unit(widens_timeout) },
    RuleImpl { code: "DR009", check: Check::Unit(mapping_unknown_input) },
    RuleImpl { code: "DR010", check: Check::Unit(builtin_has_io) },
    RuleImpl { code: "DR011", check: Check::Unit(secret_unresolved) },
    RuleImpl { code: "DR012", check: Check::Unit(subtype_schema_violation) },
];

/// The contract ceiling when a TOOL.md sets no `timeout_ms` (AIP-14).
const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;
const IDEMPOTENCY_FIELD: &str = "idempotency_key";

// The contract's inputs by name, for DR006 and DR009 (the contract is found in
// `semantic::bindings`).
impl<'a> Contract<'a> {
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

/// A TOOL.md's `driver_constraints.<key>` list, as (kind, span) pairs.
fn constraint_list<'a>(contract: &Contract<'a>, key: &str) -> Option<(&'a Member, Vec<&'a Node>)> {
    let member = contract.get("driver_constraints")?.member(key)?;
    let items = member.value.as_array()?.iter().collect();
    Some((member, items))
}

// ---------------------------------------------------------------------------------------------
// DR001 driver-frontmatter-invalid
// ---------------------------------------------------------------------------------------------

fn frontmatter_invalid(unit: &Unit<'_>, sink: &mut Sink) {
    for id in &unit.files.drivers {
        if let Parsed::Driver { doc, .. } = unit.parsed(*id) {
            report_frontmatter_problem(unit.repo, *id, doc, sink, GENERIC_MISSING_HELP);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR002 driver-schema-violation
// ---------------------------------------------------------------------------------------------

fn schema_violation(unit: &Unit<'_>, sink: &mut Sink) {
    let Some(validator) = schema::embedded("driver") else {
        return;
    };
    for driver in drivers(unit) {
        let errors = schema::validate_at_keys(validator, &driver.json());
        report_schema_errors(
            driver.file,
            driver.fm,
            &errors,
            "driver frontmatter",
            "see `skilllint rule DR002` for the AIP-30 driver fields",
            sink,
        );
        if driver.cli {
            if let Some(kind) = driver.fm.root.get("kind").and_then(Node::as_str) {
                if kind != "cli" {
                    sink.report(
                        driver.file,
                        driver.kind_span(),
                        format!("a CLI.md is a `kind: cli` driver, found `kind: {kind}`"),
                    )
                    .label("not `cli`")
                    .help("write `kind: cli`, or move the driver to `.drivers/<id>/DRIVER.md`");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR003 driver-tool-unresolved
// ---------------------------------------------------------------------------------------------

fn tool_unresolved(unit: &Unit<'_>, sink: &mut Sink) {
    let repo = unit.repo;
    for driver in drivers(unit) {
        for entry in driver.implements() {
            let Some(tool) = entry.get("tool") else {
                continue;
            };
            let Some(reference) = tool.as_str() else {
                continue;
            };
            if !contract_candidates(repo, driver.file, reference).is_empty() {
                continue;
            }
            let diagnostic = sink
                .report(
                    driver.file,
                    tool.span,
                    format!("`{reference}` resolves to no TOOL.md"),
                )
                .label("no TOOL.md at this path or with this id");
            // Suggest a contract whose id or folder is close to the last segment of the reference.
            let wanted = reference
                .trim_end_matches('/')
                .trim_end_matches("TOOL.md")
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or(reference);
            let ids = repo.contracts.tools_by_id.keys().map(String::as_str);
            let suggestion = nearest(wanted, ids).and_then(|id| {
                let file = *repo.contracts.tools_by_id.get(id)?.first()?;
                Some((id, file))
            });
            match suggestion {
                Some((id, file)) => {
                    let contract = Contract {
                        file,
                        fm: repo.contract(file).and_then(MarkdownDoc::frontmatter),
                    };
                    diagnostic
                        .secondary(file, contract.anchor(), format!("did you mean `{id}`?"))
                        .help(format!(
                            "use the tool id `{id}`, or the path of its TOOL.md (`{}`)",
                            repo.file(file).rel_path
                        ));
                }
                None if repo.contracts.tools_by_id.is_empty() => {
                    diagnostic.help("the linted tree has no TOOL.md; add the contract under `.tools/<id>/TOOL.md`, or lint the repository root");
                }
                None => {
                    diagnostic.help("name a tool `id`, or the path of a TOOL.md (or its folder) relative to the repository root");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR004 driver-version-range-mismatch
// ---------------------------------------------------------------------------------------------

fn version_range_mismatch(unit: &Unit<'_>, sink: &mut Sink) {
    for (driver, bindings) in unit.driver_bindings() {
        for binding in bindings {
            let Some(range_node) = binding.entry.get("version") else {
                continue;
            };
            let Some(range_text) = range_node.as_str() else {
                continue;
            };
            let name = binding.contract.name(binding.reference);
            let Some(range) = parse_range(range_text) else {
                sink.report(
                    driver.file,
                    range_node.span,
                    format!(
                        "`{range_text}` is not a semver range, so it admits no version of `{name}`"
                    ),
                )
                .label("not a semver range")
                .secondary(
                    binding.contract.file,
                    binding.contract.anchor(),
                    "the contract it binds to",
                )
                .help("write a range such as `^1.0.0`, `~1.2`, `>=1.2 <2` or `1.x`");
                continue;
            };
            let Some(version) = binding.contract.version() else {
                continue;
            };
            if range_admits(&range, &version) {
                continue;
            }
            let version_span = binding
                .contract
                .get("version")
                .map_or(binding.contract.anchor(), |n| n.span);
            sink.report(
                driver.file,
                range_node.span,
                format!("`{range_text}` does not admit version {version} of `{name}`"),
            )
            .label(format!("excludes {version}"))
            .secondary(
                binding.contract.file,
                version_span,
                format!("the contract is at {version}"),
            )
            .help(format!(
                "review the driver against version {version} of the contract, then widen the range to admit it (e.g. `^{}.{}.0`)",
                version.major, version.minor
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR005 driver-kind-forbidden
// ---------------------------------------------------------------------------------------------

fn kind_forbidden(unit: &Unit<'_>, sink: &mut Sink) {
    for (driver, bindings) in unit.driver_bindings() {
        let Some(kind) = driver.kind() else {
            continue;
        };
        for binding in bindings {
            let name = binding.contract.name(binding.reference);
            if let Some((_, forbid)) = constraint_list(&binding.contract, "forbid") {
                if let Some(item) = forbid.iter().find(|n| n.as_str() == Some(kind)) {
                    sink.report(
                        driver.file,
                        driver.kind_span(),
                        format!("`{name}` forbids `{kind}` drivers"),
                    )
                    .label(format!("kind `{kind}`"))
                    .secondary(
                        binding.contract.file,
                        item.span,
                        format!("the contract refuses `{kind}`"),
                    )
                    .help("implement the tool with a kind the contract allows, or drop this `implements` entry");
                    continue;
                }
            }
            if let Some((member, allowed)) = constraint_list(&binding.contract, "require_kind") {
                let kinds: Vec<&str> = allowed.iter().filter_map(|n| n.as_str()).collect();
                if !kinds.is_empty() && !kinds.contains(&kind) {
                    let list = kinds
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    sink.report(
                        driver.file,
                        driver.kind_span(),
                        format!("`{name}` only accepts {list} drivers, not `{kind}`"),
                    )
                    .label(format!("kind `{kind}`"))
                    .secondary(
                        binding.contract.file,
                        member.key_span,
                        format!("the contract requires {list}"),
                    )
                    .help("implement the tool with one of the required kinds, or drop this `implements` entry");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR006 driver-drops-required-input, DR007 driver-drops-idempotency-key
// ---------------------------------------------------------------------------------------------

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

fn drops_required_input(unit: &Unit<'_>, sink: &mut Sink) {
    let mut lookups = InputLookups::default();
    for (driver, bindings) in unit.driver_bindings() {
        for binding in bindings {
            let contract = &binding.contract;
            let name = contract.name(binding.reference);
            let dropped = dropped_inputs(binding.entry);
            if dropped.is_empty() {
                continue;
            }
            let lookup = lookups.of(contract);
            for (input, span) in dropped {
                // DR007 reports the idempotency key of an idempotent tool, when it reports in
                // this driver; else the key is judged here like any other input.
                if input == IDEMPOTENCY_FIELD
                    && contract.idempotent().is_some()
                    && unit.reports("DR007", driver.file)
                {
                    continue;
                }
                if let Some(required) = lookup.required.get(input) {
                    sink.report(
                        driver.file,
                        span,
                        format!("drops `{input}`, which `{name}` requires"),
                    )
                    .label("a required input")
                    .secondary(contract.file, required.span, "required by the contract")
                    .help("a driver may drop only optional inputs; support this input, or implement a different tool");
                    continue;
                }
                let (Some(properties), Some(names)) =
                    (contract.input_properties(), &lookup.properties)
                else {
                    continue;
                };
                if !names.contains(input) {
                    let diagnostic = sink
                        .report(
                            driver.file,
                            span,
                            format!("drops `{input}`, which `{name}` does not define"),
                        )
                        .severity(Severity::Warning)
                        .label("not an input of the tool")
                        .secondary(
                            contract.file,
                            contract.inputs_span(),
                            "the contract's inputs",
                        );
                    match nearest(input, properties.iter().map(|m| m.key.as_str())) {
                        Some(near) => diagnostic.help(format!("did you mean `{near}`?")),
                        None => diagnostic
                            .help("remove it: narrowing can only drop inputs the contract defines"),
                    };
                }
            }
        }
    }
}

fn drops_idempotency_key(unit: &Unit<'_>, sink: &mut Sink) {
    for (driver, bindings) in unit.driver_bindings() {
        for binding in bindings {
            let contract = &binding.contract;
            let Some(idempotent) = contract.idempotent() else {
                continue;
            };
            let name = contract.name(binding.reference);
            for (input, span) in dropped_inputs(binding.entry) {
                if input != IDEMPOTENCY_FIELD {
                    continue;
                }
                sink.report(
                    driver.file,
                    span,
                    format!("drops `{IDEMPOTENCY_FIELD}` of idempotent tool `{name}`"),
                )
                .label("retries through this driver are no longer deduplicated")
                .secondary(contract.file, idempotent.span, "the contract is idempotent")
                .help("pass the key through (e.g. as an `Idempotency-Key` header); a retried write without it can run twice");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR008 driver-widens-timeout
// ---------------------------------------------------------------------------------------------

fn widens_timeout(unit: &Unit<'_>, sink: &mut Sink) {
    for (driver, bindings) in unit.driver_bindings() {
        let driver_level = driver.fm.root.get("timeout_override_ms");
        for binding in bindings {
            let contract = &binding.contract;
            if contract.fm.is_none() {
                continue;
            }
            let override_node = binding.entry.get("timeout_override_ms").or(driver_level);
            let Some(node) = override_node else {
                continue;
            };
            let Some(value) = node.as_f64() else {
                continue;
            };
            let ceiling_node = contract.get("timeout_ms");
            let ceiling = ceiling_node
                .and_then(Node::as_f64)
                .unwrap_or(DEFAULT_TIMEOUT_MS);
            if value <= ceiling {
                continue;
            }
            let name = contract.name(binding.reference);
            let (secondary_span, secondary_label) = match ceiling_node {
                Some(n) => (n.span, format!("the contract's ceiling is {ceiling} ms")),
                None => (
                    contract.anchor(),
                    format!("no `timeout_ms`: the ceiling is the default {ceiling} ms"),
                ),
            };
            sink.report(
                driver.file,
                node.span,
                format!("timeout {value} ms widens the {ceiling} ms ceiling of `{name}`"),
            )
            .label("above the contract's ceiling")
            .secondary(contract.file, secondary_span, secondary_label)
            .help(format!(
                "a driver may narrow the timeout, never widen it: use at most {ceiling} ms, or raise `timeout_ms` in the contract"
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR009 driver-mapping-unknown-input
// ---------------------------------------------------------------------------------------------

fn mapping_unknown_input(unit: &Unit<'_>, sink: &mut Sink) {
    let mut lookups = InputLookups::default();
    for (driver, bindings) in unit.driver_bindings() {
        for binding in bindings {
            let contract = &binding.contract;
            let Some(properties) = contract.input_properties() else {
                continue;
            };
            let Some(mapping) = binding.entry.get("mapping").and_then(Node::as_object) else {
                continue;
            };
            let Some(names) = &lookups.of(contract).properties else {
                continue;
            };
            let name = contract.name(binding.reference);
            for member in mapping {
                // `key: provider_name` renames the tool input `key`; `key: {from: input}` builds
                // the provider's `key` from the tool input `from`.
                let (input, span) = match member.value.get("from") {
                    Some(from) => match from.as_str() {
                        Some(text) => (text, from.span),
                        None => continue,
                    },
                    None => (member.key.as_str(), member.key_span),
                };
                if names.contains(input) {
                    continue;
                }
                let diagnostic = sink
                    .report(
                        driver.file,
                        span,
                        format!("mapping names `{input}`, which is not an input of `{name}`"),
                    )
                    .label("not an input of the tool")
                    .secondary(
                        contract.file,
                        contract.inputs_span(),
                        "the contract's inputs",
                    );
                match nearest(input, properties.iter().map(|m| m.key.as_str())) {
                    Some(near) => diagnostic.help(format!("did you mean `{near}`?")),
                    None => diagnostic.help("map only inputs the contract defines; extra knobs belong in `metadata.<kind>`"),
                };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR010 builtin-driver-has-io
// ---------------------------------------------------------------------------------------------

fn builtin_has_io(unit: &Unit<'_>, sink: &mut Sink) {
    for driver in drivers(unit) {
        if driver.kind() != Some("builtin") {
            continue;
        }
        let root = &driver.fm.root;
        let non_empty = |node: &Node| node.as_array().is_none_or(|items| !items.is_empty());
        let mut found: Vec<(Span, &str, &str)> = Vec::new();
        if let Some(member) = root.member("install").filter(|m| non_empty(&m.value)) {
            found.push((
                member.key_span,
                "install",
                "a builtin is part of the host; nothing is installed",
            ));
        }
        if let Some(member) = root.member("auth") {
            found.push((
                member.key_span,
                "auth",
                "a builtin runs with the host's own identity",
            ));
        }
        if let Some(member) = root
            .get("network")
            .and_then(|n| n.member("egress"))
            .filter(|m| non_empty(&m.value))
        {
            found.push((
                member.key_span,
                "network.egress",
                "a builtin makes no outbound connections",
            ));
        }
        for (span, key, why) in found {
            sink.report(
                driver.file,
                span,
                format!("builtin driver declares `{key}`"),
            )
            .label(why)
            .help(format!(
                "remove `{key}`, or declare the driver with the kind that matches how it really runs (`cli`, `http`, `mcp`, `sdk`)"
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR011 driver-secret-unresolved
// ---------------------------------------------------------------------------------------------

/// Whether `reference` is the path of a SECRETS.md in the run (relative to the lint root or to the
/// driver's folder; a folder stands for the SECRETS.md inside it).
fn secrets_file(repo: &Repo, driver_file: FileId, reference: &str) -> bool {
    let bases = ["", folder_of(repo, driver_file)];
    bases.iter().any(|base| {
        let Some(path) = normalize_path(&join_path(base, reference)) else {
            return false;
        };
        let file = if path == "SECRETS.md" || path.ends_with("/SECRETS.md") {
            path
        } else if path.is_empty() {
            "SECRETS.md".to_string()
        } else {
            format!("{path}/SECRETS.md")
        };
        repo.file_by_path(&file)
            .is_some_and(|id| matches!(repo.parsed(id), Parsed::Secrets(_)))
    })
}

fn secret_unresolved(unit: &Unit<'_>, sink: &mut Sink) {
    let repo = unit.repo;
    for driver in drivers(unit) {
        let Some(reference_node) = driver.fm.root.get("auth").and_then(|a| a.get("ref")) else {
            continue;
        };
        let Some(reference) = reference_node.as_str() else {
            continue;
        };
        let slugs = &repo.contracts.secret_slugs;
        if slugs.contains_key(reference.trim()) || secrets_file(repo, driver.file, reference) {
            continue;
        }
        let looks_like_path = reference.contains('/') || reference.ends_with(".md");
        let message = if looks_like_path {
            format!("`auth.ref` points at `{reference}`, where there is no SECRETS.md")
        } else {
            format!("`auth.ref` names `{reference}`, which no SECRETS.md declares")
        };
        let diagnostic = sink
            .report(driver.file, reference_node.span, message)
            .label("unresolved secret reference");
        match nearest(reference, slugs.keys().map(String::as_str)) {
            Some(near) => {
                if let Some((file, span)) = slugs.get(near).and_then(|d| d.first()) {
                    diagnostic.secondary(*file, *span, format!("did you mean `{near}`?"));
                }
                diagnostic.help(format!("use the declared slug `{near}`"));
            }
            None if slugs.is_empty() => {
                diagnostic.help("declare the driver's credentials in a SECRETS.md (AIP-19) and point `auth.ref` at it or at one of its slugs");
            }
            None => {
                diagnostic.help("point `auth.ref` at a SECRETS.md (a path relative to the repository root or to this driver) or at one of its slugs");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DR012 driver-subtype-schema-violation
// ---------------------------------------------------------------------------------------------

fn subtype_schema_violation(unit: &Unit<'_>, sink: &mut Sink) {
    for driver in drivers(unit) {
        let (schema_name, aip) = match driver.kind() {
            Some("http") => ("driver-http", "AIP-31"),
            Some("mcp") => ("driver-mcp", "AIP-32"),
            Some("sdk") => ("driver-sdk", "AIP-33"),
            _ => continue,
        };
        let Some(validator) = schema::embedded(schema_name) else {
            continue;
        };
        let errors = schema::validate_at_keys(validator, &driver.json());
        let kind = driver.kind().unwrap_or_default();
        report_schema_errors(
            driver.file,
            driver.fm,
            &errors,
            &format!("`kind: {kind}` driver ({aip})"),
            &format!("see `skilllint rule DR012` for the {aip} fields of a `kind: {kind}` driver"),
            sink,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::report::display_path;
    use crate::semantic::bindings::candidate_paths;

    /// Lints `files` with only `code` selected; (message, primary text, severity) per finding.
    fn run(code: &str, files: &[(&str, &str)]) -> Vec<(String, String, Severity)> {
        crate::check::testing::findings(code, files)
            .into_iter()
            .map(|(d, text)| (d.message, text, d.severity))
            .collect()
    }

    const TOOL: &str = "---
name: Create image
id: image-create
description: Generates an image.
version: 1.4.0
idempotent: true
timeout_ms: 60000
driver_constraints:
  forbid: [cli]
inputs:
  type: object
  required: [prompt, idempotency_key]
  properties:
    prompt: {type: string}
    seed: {type: integer}
    idempotency_key: {type: string}
outputs: {type: object}
mutates: []
---
";

    fn driver(extra: &str) -> String {
        format!(
            "---
name: Images
id: images-http
description: Images over HTTP.
version: 1.0.0
kind: http
{extra}---
"
        )
    }

    #[test]
    fn paths_resolve_from_root_and_driver_folder() {
        let bases = ["", ".drivers/x"];
        assert_eq!(
            candidate_paths(&bases, "./.tools/a/TOOL.md"),
            vec![".tools/a/TOOL.md", ".drivers/x/.tools/a/TOOL.md"]
        );
        // From the root it names a file above the lint root, which is in the run only when the
        // user named it so (`skilllint ../../.tools/a/TOOL.md .`).
        assert_eq!(
            candidate_paths(&bases, "../../.tools/a"),
            vec!["../../.tools/a/TOOL.md", ".tools/a/TOOL.md"]
        );
        assert!(candidate_paths(&bases, "https://example.com/TOOL.md").is_empty());
        assert_eq!(
            display_path("/implements/0/schema_narrowing"),
            "implements[0].schema_narrowing"
        );
    }

    #[test]
    fn tool_resolves_by_id_path_or_folder() {
        for reference in [
            "image-create",
            ".tools/image-create/TOOL.md",
            "./.tools/image-create",
            "../../.tools/image-create/",
        ] {
            let entry = format!("implements:\n  - tool: {reference}\n    version: \"^1.0.0\"\n");
            let found = run(
                "DR003",
                &[
                    (".tools/image-create/TOOL.md", TOOL),
                    (".drivers/images-http/DRIVER.md", &driver(&entry)),
                ],
            );
            assert!(found.is_empty(), "{reference}: {found:?}");
        }
        let entry = "implements:\n  - tool: image-creat\n    version: \"^1.0.0\"\n";
        let found = run(
            "DR003",
            &[
                (".tools/image-create/TOOL.md", TOOL),
                (".drivers/images-http/DRIVER.md", &driver(entry)),
            ],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "image-creat");
    }

    #[test]
    fn contract_checks_follow_the_binding() {
        let entry = "timeout_override_ms: 90000
implements:
  - tool: image-create
    version: \"^1.0.0\"
    schema_narrowing:
      drop_inputs: [prompt, idempotency_key, sede, seed]
    mapping:
      prompt: text
      size: {from: aspect_ratio}
      seed: seed
";
        let files = [
            (".tools/image-create/TOOL.md", TOOL),
            (".drivers/images-http/DRIVER.md", &driver(entry) as &str),
        ];
        // The idempotency key of the idempotent tool is DR007's, while DR007 runs.
        let dr006: Vec<(String, Severity)> =
            crate::check::testing::findings_among(&["DR006", "DR007"], "DR006", &files)
                .into_iter()
                .map(|(d, text)| (text, d.severity))
                .collect();
        assert_eq!(
            dr006,
            [
                ("prompt".to_string(), Severity::Error),
                ("sede".to_string(), Severity::Warning)
            ]
        );
        // Alone, DR006 reports it as the required input it is.
        let alone: Vec<String> = run("DR006", &files).into_iter().map(|f| f.1).collect();
        assert_eq!(alone, ["prompt", "idempotency_key", "sede"]);
        let dr007 = run("DR007", &files);
        assert_eq!(dr007.len(), 1);
        assert_eq!(dr007[0].1, "idempotency_key");
        let dr008 = run("DR008", &files);
        assert_eq!(dr008.len(), 1);
        assert_eq!(dr008[0].1, "90000");
        let dr009 = run("DR009", &files);
        assert_eq!(dr009.len(), 1, "{dr009:?}");
        assert_eq!(dr009[0].1, "aspect_ratio");
        assert!(run("DR005", &files).is_empty());
    }

    #[test]
    fn kind_constraints_and_version_ranges() {
        let cli = "---
name: Images CLI
id: images-cli
description: Images from a CLI.
version: 1.0.0
implements:
  - tool: image-create
    version: \"^2.0.0\"
---
";
        let files = [
            (".tools/image-create/TOOL.md", TOOL),
            (".cli/images/CLI.md", cli),
        ];
        let dr005 = run("DR005", &files);
        assert_eq!(dr005.len(), 1, "{dr005:?}");
        assert!(dr005[0].0.contains("forbids `cli`"));
        let dr004 = run("DR004", &files);
        assert_eq!(dr004.len(), 1);
        assert_eq!(dr004[0].1, "\"^2.0.0\"");
        // A CLI.md without `kind` is `kind: cli`, so the driver schema accepts it.
        assert!(run("DR002", &files).is_empty());
    }

    #[test]
    fn schema_errors_land_on_their_keys() {
        let text = "---
name: Images
id: Images_HTTP
version: 1.0.0
kind: rest
implements:
  - tool: image-create
    timeout_ms: 5
---
";
        let found = run("DR002", &[(".drivers/images/DRIVER.md", text)]);
        let spans: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
        assert_eq!(
            spans,
            vec!["---", "id", "kind", "tool", "timeout_ms"],
            "{found:?}"
        );
        assert!(found[0].0.contains("lacks required `description`"));
        assert!(found[3]
            .0
            .contains("`implements[0]` lacks required `version`"));
        assert!(found[4]
            .0
            .contains("unknown key `timeout_ms` in `implements[0]`"));
    }

    #[test]
    fn builtin_and_secrets() {
        let builtin = "---
name: Host images
id: host-images
description: Native.
version: 1.0.0
kind: builtin
install: []
network: {egress: [api.example.com]}
auth: {ref: openai-key}
implements:
  - tool: image-create
    version: \"^1\"
---
";
        let secrets = "---
secrets:
  - slug: openai-api-key
    name: OpenAI
    description: Key.
---
";
        let files = [
            (".tools/image-create/DRIVER.md", builtin),
            (".tools/image-create/TOOL.md", TOOL),
            ("SECRETS.md", secrets),
        ];
        let dr010 = run("DR010", &files);
        let spans: Vec<&str> = dr010.iter().map(|f| f.1.as_str()).collect();
        assert_eq!(spans, vec!["egress", "auth"]);
        let dr011 = run("DR011", &files);
        assert_eq!(dr011.len(), 1);
        assert_eq!(dr011[0].1, "openai-key");
        for ok in ["openai-api-key", "../../SECRETS.md", "SECRETS.md", "./"] {
            let text = builtin.replace("openai-key", ok);
            let files = [
                (".tools/image-create/DRIVER.md", text.as_str()),
                ("SECRETS.md", secrets),
            ];
            assert!(run("DR011", &files).is_empty(), "{ok}");
        }
    }
}
