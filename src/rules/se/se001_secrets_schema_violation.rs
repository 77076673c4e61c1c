//! SE001 `secrets-schema-violation`: A SECRETS.md frontmatter does not match the AIP-19
//! inventory schema.

use super::VALUE_KEYS;
use crate::check::{code, Sink, Unit};
use crate::rules::phrasing::{
    display_path, report_frontmatter_problem, report_schema_errors, GENERIC_MISSING_HELP,
};
use crate::schema;

/// What a schema error says about a value-carrying key: the schema both lists the keys under
/// `not` (an error on the entry) and leaves them out of its properties (an unknown key).
#[derive(PartialEq, Eq)]
enum ValueKeyError {
    /// The entry's `not`: the unknown-key error says the same, at the key.
    OnEntry,
    /// "unknown key `value`", at the key: SE002's finding, when SE002 reports.
    UnknownKey,
}

fn value_key_error(error: &schema::SchemaError) -> Option<ValueKeyError> {
    let segments: Vec<&str> = error.pointer.split('/').collect();
    let in_entry = |len: usize| {
        segments.len() == len
            && segments.get(1) == Some(&"secrets")
            && segments
                .get(2)
                .is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
    };
    match error.keyword.as_str() {
        "not" if in_entry(3) => Some(ValueKeyError::OnEntry),
        "additionalProperties"
            if in_entry(4) && segments.get(3).is_some_and(|k| VALUE_KEYS.contains(k)) =>
        {
            Some(ValueKeyError::UnknownKey)
        }
        _ => None,
    }
}

/// Whether `pointer` is an access grant: `/secrets/N/access/<operation>/M`.
fn is_grant(pointer: &str) -> bool {
    let segments: Vec<&str> = pointer.split('/').collect();
    segments.len() == 6
        && segments.get(1) == Some(&"secrets")
        && segments.get(3) == Some(&"access")
        && segments
            .get(5)
            .is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
}

/// How many inventory entries are validated at once.
const ENTRIES_PER_CHECK: usize = 512;

/// Validates an inventory like [`schema::validate_at_keys`], a slice of its `secrets` list at a
/// time: the validator holds every error of one call at once, at kilobytes each, and a hostile
/// inventory of 40,000 entries with a few errors each took 370 MB. The schema's only constraint
/// on the list as a whole is `minItems: 1`, which every non-empty slice meets as the whole list
/// does; errors outside the list come back from every slice and are kept once.
fn validate_inventory(
    validator: &jsonschema::Validator,
    mut instance: serde_json::Value,
) -> Vec<schema::SchemaError> {
    let entries = match instance
        .get_mut("secrets")
        .and_then(serde_json::Value::as_array_mut)
    {
        Some(list) if list.len() > ENTRIES_PER_CHECK => std::mem::take(list),
        _ => return schema::validate_at_keys(validator, &instance),
    };
    let mut out = Vec::new();
    for (index, slice) in entries.chunks(ENTRIES_PER_CHECK).enumerate() {
        instance["secrets"] = serde_json::Value::Array(slice.to_vec());
        let first = index * ENTRIES_PER_CHECK;
        for mut error in schema::validate_at_keys(validator, &instance) {
            error.pointer = shift_entry(&error.pointer, first);
            out.push(error);
        }
    }
    out.sort_by(|a, b| {
        (&a.pointer, &a.keyword, &a.message).cmp(&(&b.pointer, &b.keyword, &b.message))
    });
    out.dedup();
    out
}

/// `/secrets/N/rest` with `first` added to N; any other pointer as it is.
fn shift_entry(pointer: &str, first: usize) -> String {
    let Some(rest) = pointer.strip_prefix("/secrets/") else {
        return pointer.to_string();
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest[..digits].parse::<usize>() {
        Ok(index) => format!("/secrets/{}{}", index + first, &rest[digits..]),
        Err(_) => pointer.to_string(),
    }
}

pub(super) fn secrets_schema_violation(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, doc)) = unit.secrets() else {
        return;
    };
    let Some(fm) = doc.frontmatter() else {
        report_frontmatter_problem(unit.repo, file, doc, sink, GENERIC_MISSING_HELP);
        return;
    };
    let Some(validator) = schema::embedded("secrets") else {
        return;
    };
    // A value-carrying key is SE002's finding when SE002 reports in this file, else an unknown
    // key reported here; never twice.
    let leave_values = unit.reports(code::SE002, file);
    let errors: Vec<schema::SchemaError> = validate_inventory(validator, fm.root.to_json())
        .into_iter()
        .filter(|e| match value_key_error(e) {
            Some(ValueKeyError::OnEntry) => false,
            Some(ValueKeyError::UnknownKey) => !leave_values,
            None => true,
        })
        .collect();
    // A grant names exactly one principal; the schema says so with a key count.
    let (grants, errors): (Vec<_>, Vec<_>) = errors.into_iter().partition(|e| {
        matches!(e.keyword.as_str(), "minProperties" | "maxProperties") && is_grant(&e.pointer)
    });
    for error in grants {
        let Some(grant) = fm.root.pointer(&error.pointer) else {
            continue;
        };
        let members = grant.as_object().unwrap_or_default();
        let span = members.get(1).map_or(grant.span, |m| m.key_span);
        let label = if members.len() > 1 {
            "a second principal in one grant"
        } else {
            "names no principal"
        };
        sink.report(
            file,
            span,
            format!(
                "`{}` must name exactly one of {}",
                display_path(&error.pointer),
                "`role`, `userId`, `cap`, `tool` or `workflow`"
            ),
        )
        .label(label)
        .help("write one grant per principal, each its own `- ` item in the list");
    }
    report_schema_errors(
        file,
        fm,
        &errors,
        "SECRETS.md frontmatter",
        "see `skilllint rule SE001` for the AIP-19 inventory fields",
        sink,
    );
}
