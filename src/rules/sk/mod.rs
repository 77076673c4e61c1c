//! SK: `SKILL.md` against the Agent Skills specification.
//!
//! One file per rule, `<code>_<rule name>.rs`, holding the check named after the rule and its
//! private helpers; what several rules of the family share stays here. A rule file imports from
//! below `rules`, from `rules::phrasing` and `rules::util`, and from this module, never from a
//! sibling rule or another family.

mod sk001_skill_frontmatter_missing;
mod sk002_skill_frontmatter_invalid;
mod sk003_skill_name_missing;
mod sk004_skill_name_invalid;
mod sk005_skill_name_folder_mismatch;
mod sk006_skill_description_missing;
mod sk007_skill_description_too_long;
mod sk008_skill_unknown_field;
mod sk009_skill_compatibility_invalid;
mod sk010_skill_metadata_invalid;
mod sk011_skill_broken_reference;
mod sk012_skill_file_lowercase;
mod sk013_skill_body_too_long;
mod sk014_skill_name_duplicate;
mod sk015_skill_yaml_not_portable;
mod sk016_skill_allowed_tools_invalid;
mod sk017_skill_reference_outside_skill;
mod sk020_skill_description_xml_tag;
mod sk021_skill_allowed_tools_unrestricted;
mod sk022_skill_opaque_file_unreferenced;
mod sk023_skill_linked_file_broken_reference;
mod sk024_skill_allowed_tools_preapproves_risky_cli;
#[cfg(test)]
mod tests;

use crate::check::Unit;
use crate::check::{code, Check, RuleImpl};
use crate::model::document::Frontmatter;
use crate::model::skill::SkillDoc;
use crate::parse::{Node, Value};
use crate::source::FileId;
use sk001_skill_frontmatter_missing::skill_frontmatter_missing;
use sk002_skill_frontmatter_invalid::skill_frontmatter_invalid;
use sk003_skill_name_missing::skill_name_missing;
use sk004_skill_name_invalid::skill_name_invalid;
use sk005_skill_name_folder_mismatch::skill_name_folder_mismatch;
use sk006_skill_description_missing::skill_description_missing;
use sk007_skill_description_too_long::skill_description_too_long;
use sk008_skill_unknown_field::skill_unknown_field;
use sk009_skill_compatibility_invalid::skill_compatibility_invalid;
use sk010_skill_metadata_invalid::skill_metadata_invalid;
use sk011_skill_broken_reference::skill_broken_reference;
use sk012_skill_file_lowercase::skill_file_lowercase;
use sk013_skill_body_too_long::skill_body_too_long;
use sk014_skill_name_duplicate::skill_name_duplicate;
use sk015_skill_yaml_not_portable::skill_yaml_not_portable;
use sk016_skill_allowed_tools_invalid::skill_allowed_tools_invalid;
use sk017_skill_reference_outside_skill::skill_reference_outside_skill;
use sk020_skill_description_xml_tag::skill_description_xml_tag;
use sk021_skill_allowed_tools_unrestricted::skill_allowed_tools_unrestricted;
use sk022_skill_opaque_file_unreferenced::skill_opaque_file_unreferenced;
use sk023_skill_linked_file_broken_reference::skill_linked_file_broken_reference;
use sk024_skill_allowed_tools_preapproves_risky_cli::skill_allowed_tools_preapproves_risky_cli;
use unicode_normalization::UnicodeNormalization;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::SK001, check: Check::Unit(skill_frontmatter_missing) },
    RuleImpl { code: code::SK002, check: Check::Unit(skill_frontmatter_invalid) },
    RuleImpl { code: code::SK003, check: Check::Unit(skill_name_missing) },
    RuleImpl { code: code::SK004, check: Check::Unit(skill_name_invalid) },
    RuleImpl { code: code::SK005, check: Check::Unit(skill_name_folder_mismatch) },
    RuleImpl { code: code::SK006, check: Check::Unit(skill_description_missing) },
    RuleImpl { code: code::SK007, check: Check::Unit(skill_description_too_long) },
    RuleImpl { code: code::SK008, check: Check::Unit(skill_unknown_field) },
    RuleImpl { code: code::SK009, check: Check::Unit(skill_compatibility_invalid) },
    RuleImpl { code: code::SK010, check: Check::Unit(skill_metadata_invalid) },
    RuleImpl { code: code::SK011, check: Check::Unit(skill_broken_reference) },
    RuleImpl { code: code::SK012, check: Check::Unit(skill_file_lowercase) },
    RuleImpl { code: code::SK013, check: Check::Unit(skill_body_too_long) },
    RuleImpl { code: code::SK014, check: Check::Repo(skill_name_duplicate) },
    RuleImpl { code: code::SK015, check: Check::Unit(skill_yaml_not_portable) },
    RuleImpl { code: code::SK016, check: Check::Unit(skill_allowed_tools_invalid) },
    RuleImpl { code: code::SK017, check: Check::Unit(skill_reference_outside_skill) },
    RuleImpl { code: code::SK020, check: Check::Unit(skill_description_xml_tag) },
    RuleImpl { code: code::SK021, check: Check::Unit(skill_allowed_tools_unrestricted) },
    RuleImpl { code: code::SK022, check: Check::Unit(skill_opaque_file_unreferenced) },
    RuleImpl { code: code::SK023, check: Check::Unit(skill_linked_file_broken_reference) },
    RuleImpl { code: code::SK024, check: Check::Unit(skill_allowed_tools_preapproves_risky_cli) },
];

const NAME_MAX: usize = 64;

fn skill_with_frontmatter<'a>(unit: &Unit<'a>) -> Option<(FileId, &'a SkillDoc, &'a Frontmatter)> {
    let (file, skill) = unit.skill()?;
    let frontmatter = skill.doc.frontmatter()?;
    Some((file, skill, frontmatter))
}

/// The extra frontmatter keys the hosts that read this unit's skill define: Claude Code's for a
/// skill that ships in a Claude Code plugin (a folder with `.claude-plugin/`, or one a Claude
/// Code marketplace names) or sits under `.claude/`; Cursor's for one in a Cursor plugin or
/// under `.cursor/`.
fn host_fields(unit: &Unit<'_>) -> Vec<&'static str> {
    use crate::model::plugin::Host;
    let dir = unit.dir();
    let hosts = unit.repo.contracts.plugins.plugin_of(dir).map(|(_, h)| h);
    let in_folder = |name: &str| dir.split('/').any(|segment| segment == name);
    let mut fields = Vec::new();
    if read_by_claude_code(unit) {
        fields.extend(crate::model::skill::CLAUDE_CODE_FIELDS);
    }
    if in_folder(".cursor") || hosts.is_some_and(|h| h.contains(Host::Cursor)) {
        fields.extend(crate::model::skill::CURSOR_FIELDS);
    }
    fields
}

/// Whether Claude Code reads the skill: it ships in a Claude Code plugin or sits under `.claude/`.
fn read_by_claude_code(unit: &Unit<'_>) -> bool {
    use crate::model::plugin::Host;
    let dir = unit.dir();
    dir.split('/').any(|segment| segment == ".claude")
        || unit
            .repo
            .contracts
            .plugins
            .plugin_of(dir)
            .is_some_and(|(_, hosts)| hosts.contains(Host::ClaudeCode))
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

fn is_blank(node: &Node) -> bool {
    match &node.value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// NFKC normalisation; ASCII text is already normalised and is copied as it is.
fn nfkc(text: &str) -> String {
    if text.is_ascii() {
        text.to_string()
    } else {
        text.nfkc().collect()
    }
}

/// Why a skill name breaks the naming rules, if it does.
fn name_problem(name: &str) -> Option<String> {
    let normalized = nfkc(name);
    let length = chars(&normalized);
    if length > NAME_MAX {
        return Some(format!(
            "is {length} characters long; the limit is {NAME_MAX}"
        ));
    }
    if let Some(c) = normalized
        .chars()
        .find(|c| !(c.is_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Some(if c.is_uppercase() {
            format!("contains the uppercase letter `{c}`; names are lowercase")
        } else {
            format!("contains `{c}`; only lowercase letters, digits and `-` are allowed")
        });
    }
    if normalized.starts_with('-') || normalized.ends_with('-') {
        return Some("starts or ends with `-`".to_string());
    }
    if normalized.contains("--") {
        return Some("contains a doubled `--`".to_string());
    }
    None
}
