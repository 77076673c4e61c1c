//! `skilllint.toml` / `.skilllint.toml`: discovery, parsing with spans, and validation. Every
//! problem is a [`FileError`] pointing at the offending key or value; the CLI renders it with the
//! TOML snippet and exits 2.

use crate::catalog::Catalog;
use crate::diagnostic::Severity;
use crate::file_error::{escape_controls, FileError};
use crate::selection::validate_selector;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// File names looked for in each folder, in this order.
pub const CONFIG_NAMES: [&str; 2] = ["skilllint.toml", ".skilllint.toml"];

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    lint: LintSection,
    #[serde(default)]
    skills: SkillsSection,
    #[serde(default)]
    forge: ForgeSection,
    #[serde(default)]
    contracts: ContractsSection,
    #[serde(default)]
    policies: PoliciesSection,
    #[serde(default)]
    tools: ToolsSection,
    #[serde(default)]
    source: SourceSection,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceSection {
    /// Whether source files are read for the MCP tools they register (default true).
    enabled: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsSection {
    /// Globs (relative to the config file) of more files to read as tool lists, by content.
    include: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PoliciesSection {
    /// Policy files or folders, relative to the config file.
    paths: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct LintSection {
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    exclude: Option<Vec<Spanned<String>>>,
    fail_on: Option<Spanned<String>>,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    per_file_ignores: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    max_file_size: Option<Spanned<toml::Value>>,
    baseline: Option<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct SkillsSection {
    dialect: Option<Spanned<String>>,
    extra_fields: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ForgeSection {
    requirement_files: Option<Vec<Spanned<String>>>,
    tool_use_rules_heading: Option<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContractsSection {
    #[serde(default)]
    map: BTreeMap<String, String>,
}

/// The configuration after validation: everything the engine and the CLI need.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// The file it came from (`None`: no file, defaults).
    pub path: Option<PathBuf>,
    /// Folder that `exclude` and `per-file-ignores` globs are relative to.
    pub base: PathBuf,
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
    pub exclude: Vec<String>,
    pub fail_on: Option<Severity>,
    /// Rule code → severity.
    pub severity: BTreeMap<&'static str, Severity>,
    /// Glob → rule selectors.
    pub per_file_ignores: Vec<(String, Vec<String>)>,
    pub extra_fields: Vec<String>,
    pub requirement_files: Option<Vec<String>>,
    pub tool_use_rules_heading: Option<String>,
    pub contract_map: BTreeMap<String, String>,
    /// `[lint] max-file-size`: files larger than this many bytes are SL001, not read.
    pub max_file_size: Option<u64>,
    /// `[policies] paths`, relative to the config file's folder, joined to it.
    pub policy_paths: Vec<PathBuf>,
    /// `[lint] baseline`: the baseline file, joined to the config file's folder.
    pub baseline: Option<PathBuf>,
    /// `exclude` globs set by `--config lint.exclude=…`, relative to the current folder (as
    /// `--exclude` is); they replace the file's `exclude`.
    pub exclude_from_cwd: Vec<String>,
    /// `[tools] include`: globs (relative to the config file) of files read as tool lists when
    /// their content is one, whatever their name.
    pub tool_include: Vec<String>,
    /// `include` globs set by `--config tools.include=…`, relative to the current folder; they
    /// replace the file's.
    pub tool_include_from_cwd: Vec<String>,
    /// `[source] enabled`: whether source files are read for the tools they register (`None`:
    /// not set, they are).
    pub source: Option<bool>,
}

/// Looks for a config file from `start` upwards, stopping at the repository root (the first
/// folder holding `.git`) or the file system root.
///
/// What it finds is repository data. A config that is a symbolic link must resolve to a file
/// inside the folder the link is in (that folder is inside the walked range, so at or above the
/// lint root): a link leaving it, or one that does not resolve, is an error naming the link, and
/// the target is never read. Anything that is not a regular file (a FIFO, a device, a socket) is
/// an error too, never opened; a folder with a config's name is passed over.
pub fn discover(start: &Path) -> Result<Option<PathBuf>, FileError> {
    let Ok(start) = start.canonicalize() else {
        return Ok(None);
    };
    let start = if start.is_file() {
        match start.parent() {
            Some(parent) => parent.to_path_buf(),
            None => return Ok(None),
        }
    } else {
        start
    };
    for dir in start.ancestors() {
        for name in CONFIG_NAMES {
            let candidate = dir.join(name);
            if check_candidate(dir, &candidate)? {
                return Ok(Some(candidate));
            }
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    Ok(None)
}

/// A config link that leads nowhere, and one out of its folder (on disk or in a git revision).
pub(crate) const LINK_NOWHERE: &str =
    "the configuration is a symbolic link that does not resolve; it was not read";
pub(crate) const LINK_OUT: &str = "the configuration is a symbolic link to a file outside the folder it is in; it was not read (name the file with --config to use it)";

/// Whether `candidate` (in the canonical folder `dir`) is a config file to read; an error for
/// one that must not be read.
pub(crate) fn check_candidate(dir: &Path, candidate: &Path) -> Result<bool, FileError> {
    let refuse = |why: &str| Err(FileError::whole_file(candidate, why.to_string()));
    let metadata = match std::fs::symlink_metadata(candidate) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => {
            return Err(FileError::whole_file(
                candidate,
                format!("cannot read the configuration: {e}"),
            ))
        }
    };
    let file_type = if metadata.file_type().is_symlink() {
        let Ok(target) = candidate.canonicalize() else {
            return refuse(LINK_NOWHERE);
        };
        if !target.starts_with(dir) {
            return refuse(LINK_OUT);
        }
        match std::fs::metadata(&target) {
            Ok(metadata) => metadata.file_type(),
            Err(e) => {
                return Err(FileError::whole_file(
                    candidate,
                    format!("cannot read the configuration: {e}"),
                ))
            }
        }
    } else {
        metadata.file_type()
    };
    if file_type.is_dir() {
        return Ok(false);
    }
    if !file_type.is_file() {
        return refuse(
            "the configuration is not a regular file (a FIFO, socket or device); it was not opened",
        );
    }
    Ok(true)
}

/// Reads and validates a config file. It is read only if it is a regular file of at most
/// `max_size` bytes, and must be UTF-8 text.
pub fn load(path: &Path, catalog: &Catalog, max_size: u64) -> Result<Config, FileError> {
    let text = read_config_text(path, max_size)?;
    let base = crate::source::folder_of(path).to_path_buf();
    parse(&text, path, base, catalog)
}

/// The text of a config file, bounded by `max_size` and read like a lint file (a regular file
/// only, never blocking). Nothing of the content goes into an error.
fn read_config_text(path: &Path, max_size: u64) -> Result<String, FileError> {
    use crate::read::{read_regular_bounded, Refused};
    let fail = |message: String| FileError::whole_file(path, message);
    let bytes = read_regular_bounded(path, max_size).map_err(|refused| {
        fail(match refused {
            Refused::Io(e) => format!("cannot read the configuration: {e}"),
            Refused::NotRegular => "the configuration is not a regular file (a FIFO, socket or device); it was not read".to_string(),
            Refused::TooLarge(size) => format!(
                "the configuration is {}, over the {max_size} byte size limit; it was not read (--max-file-size sets the limit)",
                size.map_or_else(|| "larger than that".to_string(), |size| format!("{size} bytes"))
            ),
        })
    })?;
    config_text(path, bytes)
}

/// The text of a config file's bytes, wherever they were read from (`path` is only for
/// messages): TOML text, so UTF-8 without NUL bytes. Nothing of the content goes into an error.
pub fn config_text(path: &Path, bytes: Vec<u8>) -> Result<String, FileError> {
    let fail = |message: String| FileError::whole_file(path, message);
    if let Some(nul) = memchr::memchr(0, &bytes) {
        return Err(fail(format!(
            "the configuration is binary (a NUL byte at offset {nul}), not TOML text"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "the configuration is not valid UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The largest size cap accepted: the largest file offset every platform can represent.
const MAX_SIZE_LIMIT: u64 = i64::MAX as u64;

/// A size: a byte count, optionally followed by a unit: `B`, `KB`/`MB`/`GB` (powers of 1000) or
/// `KiB`/`MiB`/`GiB` (powers of 1024), case-insensitive, with or without a space: `4194304`,
/// `"512KiB"`, `"8 MiB"`, `"4MB"`. Zero, negatives, fractions and other units are refused.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits_end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(digits_end);
    let expected = "expected a byte count such as 4194304, \"512KiB\", \"8MiB\" or \"4MB\"";
    if digits.is_empty() {
        return Err(format!(
            "invalid size `{}`: {expected}",
            escape_controls(text)
        ));
    }
    let multiplier: u64 = match unit.trim_start().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kb" => 1000,
        "mb" => 1000 * 1000,
        "gb" => 1000 * 1000 * 1000,
        "kib" => 1024,
        "mib" => 1024 * 1024,
        "gib" => 1024 * 1024 * 1024,
        _ => {
            return Err(format!(
                "invalid size `{}`: {expected}",
                escape_controls(text)
            ))
        }
    };
    let size = digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(multiplier))
        .filter(|n| *n <= MAX_SIZE_LIMIT)
        .ok_or_else(|| format!("size `{}` is too large", escape_controls(text)))?;
    if size == 0 {
        return Err("the size limit must be at least 1 byte".to_string());
    }
    Ok(size)
}

/// `max-file-size` from TOML: an integer byte count or a string [`parse_size`] accepts.
fn size_value(value: &toml::Value) -> Result<u64, String> {
    let size = match value {
        toml::Value::Integer(n) if *n > 0 => Ok(*n as u64),
        toml::Value::Integer(_) => Err("the size limit must be at least 1 byte".to_string()),
        toml::Value::String(text) => parse_size(text),
        other => Err(format!(
            "expected a byte count (an integer) or a string such as \"8MiB\", found {}",
            other.type_str()
        )),
    };
    size.map_err(|m| format!("invalid `max-file-size`: {m}"))
}

/// Parses config text (the path is only for messages).
pub fn parse(
    text: &str,
    path: &Path,
    base: PathBuf,
    catalog: &Catalog,
) -> Result<Config, FileError> {
    let error = |span, message| FileError::at(path, text, span, message);
    let file: ConfigFile =
        toml::from_str(text).map_err(|e| error(e.span(), e.message().trim().to_string()))?;
    validate(&file, text, path, base, catalog)
}

/// The checks and conversions of [`parse`], for a file already deserialised from `text`.
fn validate(
    file: &ConfigFile,
    text: &str,
    path: &Path,
    base: PathBuf,
    catalog: &Catalog,
) -> Result<Config, FileError> {
    let error = |span, message| FileError::at(path, text, span, message);
    let selectors = |list: &[Spanned<String>]| -> Result<Vec<String>, FileError> {
        list.iter()
            .map(|s| {
                validate_selector(catalog, s.get_ref())
                    .map(str::to_string)
                    .map_err(|m| error(Some(s.span()), m))
            })
            .collect()
    };
    let severity_of = |s: &Spanned<String>| {
        Severity::parse(s.get_ref()).ok_or_else(|| {
            error(
                Some(s.span()),
                format!(
                    "unknown severity `{}` (expected \"error\", \"warning\" or \"info\")",
                    s.get_ref()
                ),
            )
        })
    };
    let mut config = Config {
        path: Some(path.to_path_buf()),
        base,
        ..Config::default()
    };
    let lint = &file.lint;
    if let Some(select) = &lint.select {
        config.select = Some(selectors(select)?);
    }
    if let Some(ignore) = &lint.ignore {
        config.ignore = selectors(ignore)?;
    }
    if let Some(exclude) = &lint.exclude {
        for glob in exclude {
            check_glob(glob).map_err(|m| error(Some(glob.span()), m))?;
        }
        config.exclude = exclude.iter().map(|g| g.get_ref().clone()).collect();
    }
    config.source = file.source.enabled;
    if let Some(include) = &file.tools.include {
        for glob in include {
            check_glob(glob).map_err(|m| error(Some(glob.span()), m))?;
        }
        config.tool_include = include.iter().map(|g| g.get_ref().clone()).collect();
    }
    if let Some(size) = &lint.max_file_size {
        config.max_file_size =
            Some(size_value(size.get_ref()).map_err(|m| error(Some(size.span()), m))?);
    }
    if let Some(fail_on) = &lint.fail_on {
        config.fail_on = Some(severity_of(fail_on)?);
    }
    if let Some(baseline) = &lint.baseline {
        if baseline.get_ref().trim().is_empty() {
            return Err(error(
                Some(baseline.span()),
                "`baseline` names a file, relative to this configuration".to_string(),
            ));
        }
        // The configuration is the repository's: its baseline is a file of the repository, named
        // below the configuration's folder. `--add-noqa` creates and rewrites it, so a path that
        // climbs out or starts at the root would let a pull request choose a file to write
        // anywhere. (`--baseline FILE` on the command line names any file.)
        let named = Path::new(baseline.get_ref());
        let below = named.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
        if !below {
            return Err(error(
                Some(baseline.span()),
                "an absolute path or one with `..` leads outside the configuration's folder: `baseline` names a file below it (name any other file with --baseline FILE)".to_string(),
            ));
        }
        config.baseline = Some(config.base.join(named));
    }
    for (rule, level) in &lint.severity {
        let Some(found) = catalog.find(rule.get_ref()) else {
            return Err(error(
                Some(rule.span()),
                format!("unknown rule `{}` in [lint.severity]", rule.get_ref()),
            ));
        };
        config.severity.insert(found.code, severity_of(level)?);
    }
    for (glob, rules) in &lint.per_file_ignores {
        check_glob(glob).map_err(|m| error(Some(glob.span()), m))?;
        config
            .per_file_ignores
            .push((glob.get_ref().clone(), selectors(rules)?));
    }
    config.extra_fields = file.skills.extra_fields.clone().unwrap_or_default();
    if let Some(dialect) = &file.skills.dialect {
        match dialect.get_ref().as_str() {
            "agentskills" => {}
            "claude-code" => config
                .extra_fields
                .extend(crate::model::skill::CLAUDE_CODE_FIELDS.iter().map(|s| s.to_string())),
            other => {
                return Err(error(
                    Some(dialect.span()),
                    format!(
                        "unknown skills dialect `{other}` (expected \"agentskills\" or \"claude-code\")"
                    ),
                ))
            }
        }
    }
    if let Some(files) = &file.forge.requirement_files {
        for name in files {
            if name.get_ref().is_empty() || name.get_ref().contains('/') {
                return Err(error(
                    Some(name.span()),
                    "requirement files are file names, without folders".to_string(),
                ));
            }
        }
        config.requirement_files = Some(files.iter().map(|f| f.get_ref().clone()).collect());
    }
    if let Some(heading) = &file.forge.tool_use_rules_heading {
        if heading.get_ref().trim().is_empty() {
            return Err(error(
                Some(heading.span()),
                "the Tool Use Rules heading cannot be empty".to_string(),
            ));
        }
        config.tool_use_rules_heading = Some(heading.get_ref().trim().to_string());
    }
    config.policy_paths = policy_paths(file, &config.base);
    config.contract_map = file.contracts.map.clone();
    Ok(config)
}

/// Applies `--config KEY=VALUE` settings over `config`, in order: each is a line of TOML
/// (`lint.select = ["TJ"]`), checked as a configuration file of its own would be, and replaces
/// what it names (a table such as `[lint.severity]` gains its keys). Paths in them are relative
/// to `cwd`. `[policies]` cannot be set this way: policies are loaded before the configuration
/// (use `--policies PATH`).
pub fn apply_overrides(
    mut config: Config,
    overrides: &[String],
    cwd: &Path,
    catalog: &Catalog,
) -> Result<Config, FileError> {
    for text in overrides {
        let path = Path::new("--config");
        let error = |span, message| FileError::at(path, text, span, message);
        let file: ConfigFile = toml::from_str(text).map_err(|e| {
            let message = e.message().trim().to_string();
            error(
                e.span(),
                format!("{message} (expected KEY=VALUE in TOML, e.g. lint.select = [\"TJ\"])"),
            )
        })?;
        if file.policies.paths.is_some() {
            return Err(error(
                Some(0..text.len()),
                "`policies` cannot be set with --config KEY=VALUE; name policy files with --policies PATH".to_string(),
            ));
        }
        let set = validate(&file, text, path, cwd.to_path_buf(), catalog)?;
        let (lint, skills, forge) = (&file.lint, &file.skills, &file.forge);
        if lint.select.is_some() {
            config.select = set.select;
        }
        if lint.ignore.is_some() {
            config.ignore = set.ignore;
        }
        if lint.exclude.is_some() {
            // Relative to where the override was typed, as `--exclude` is; the file's other
            // globs (`per-file-ignores`) stay relative to the file.
            config.exclude = Vec::new();
            config.exclude_from_cwd = set.exclude;
        }
        if file.tools.include.is_some() {
            config.tool_include = Vec::new();
            config.tool_include_from_cwd = set.tool_include;
        }
        if file.source.enabled.is_some() {
            config.source = set.source;
        }
        if lint.fail_on.is_some() {
            config.fail_on = set.fail_on;
        }
        config.severity.extend(set.severity);
        for (glob, rules) in set.per_file_ignores {
            config.per_file_ignores.retain(|(g, _)| *g != glob);
            config.per_file_ignores.push((glob, rules));
        }
        if lint.max_file_size.is_some() {
            config.max_file_size = set.max_file_size;
        }
        if lint.baseline.is_some() {
            config.baseline = set.baseline;
        }
        if skills.dialect.is_some() || skills.extra_fields.is_some() {
            config.extra_fields = set.extra_fields;
        }
        if forge.requirement_files.is_some() {
            config.requirement_files = set.requirement_files;
        }
        if forge.tool_use_rules_heading.is_some() {
            config.tool_use_rules_heading = set.tool_use_rules_heading;
        }
        config.contract_map.extend(set.contract_map);
    }
    Ok(config)
}

fn policy_paths(file: &ConfigFile, base: &Path) -> Vec<PathBuf> {
    file.policies
        .paths
        .iter()
        .flatten()
        .map(|p| base.join(p.get_ref()))
        .collect()
}

/// The `[policies] paths` of a config file, joined to its folder, read before the rest is
/// validated: the policies' rules are part of the catalog the rest is validated against.
pub fn policy_paths_of(path: &Path, max_size: u64) -> Result<Vec<PathBuf>, FileError> {
    let text = read_config_text(path, max_size)?;
    let base = crate::source::folder_of(path).to_path_buf();
    policy_paths_in(&text, path, &base)
}

/// [`policy_paths_of`] for config text already read (from a git revision; `path` is only for
/// messages), joined to `base`.
pub fn policy_paths_in(text: &str, path: &Path, base: &Path) -> Result<Vec<PathBuf>, FileError> {
    let file: ConfigFile = toml::from_str(text).map_err(|e| {
        FileError::located(
            path,
            text,
            e.span().unwrap_or(0..0),
            e.message().trim().to_string(),
        )
    })?;
    Ok(policy_paths(&file, base))
}

/// Globs are relative to the config file; a bare file name would only ever match a file next to
/// it, which is never what `SKILL.md` or `tools.json` means, so those are refused.
fn check_glob(glob: &Spanned<String>) -> Result<(), String> {
    let text = glob.get_ref();
    globset::GlobBuilder::new(text)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("invalid glob `{text}`: {}", e.kind()))?;
    if !text.contains('/') && !text.contains("**") {
        return Err(format!(
            "`{text}` would match only a file next to the config; write a path relative to it, e.g. `skills/**/{text}`"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::file_error::QUOTE_MAX;

    fn parse_text(text: &str) -> Result<Config, FileError> {
        parse(
            text,
            Path::new("skilllint.toml"),
            PathBuf::from("."),
            catalog(),
        )
    }

    fn error_at(text: &str) -> (String, String) {
        let error = parse_text(text).expect_err("config must be rejected");
        let span = error.span.clone().expect("error has a span");
        (text[span].to_string(), error.message)
    }

    #[test]
    fn every_key_parses() {
        let config = parse_text(
            r#"
[lint]
select = ["correctness", "safety", "style"]
ignore = ["SK013"]
exclude = ["vendor/**"]
fail-on = "warning"
[lint.severity]
TR006 = "error"
skill-unknown-field = "info"
[lint.per-file-ignores]
"skills/legacy/**" = ["SK008", "TJ"]
[skills]
dialect = "claude-code"
extra-fields = ["owner"]
[forge]
requirement-files = ["requirement.yaml", "contract.yml"]
tool-use-rules-heading = "Tools"
[contracts.map]
create_event = "calendar.event.create"
"#,
        )
        .expect("valid config");
        assert_eq!(config.select.as_deref().map(<[String]>::len), Some(3));
        assert_eq!(config.ignore, ["SK013"]);
        assert_eq!(config.fail_on, Some(Severity::Warning));
        assert_eq!(config.severity.get("TR006"), Some(&Severity::Error));
        assert_eq!(config.severity.get("SK008"), Some(&Severity::Info));
        assert_eq!(config.per_file_ignores.len(), 1);
        assert!(config.extra_fields.contains(&"owner".to_string()));
        assert!(config.extra_fields.contains(&"model".to_string()));
        assert_eq!(config.tool_use_rules_heading.as_deref(), Some("Tools"));
        assert_eq!(config.contract_map.len(), 1);
    }

    #[test]
    fn errors_point_at_the_offending_key_or_value() {
        let (text, message) = error_at("[lint]\nselekt = [\"TJ\"]\n");
        assert_eq!(text, "selekt");
        assert!(message.contains("unknown field"), "{message}");
        assert_eq!(
            error_at("[lint]\nselect = [\"TJ\", \"XX9\"]\n").0,
            "\"XX9\""
        );
        assert_eq!(error_at("[lint]\nfail-on = \"fatal\"\n").0, "\"fatal\"");
        assert_eq!(error_at("[lint.severity]\nNOPE1 = \"error\"\n").0, "NOPE1");
        assert_eq!(
            error_at("[lint.severity]\nTJ003 = \"loud\"\n").0,
            "\"loud\""
        );
        assert_eq!(
            error_at("[lint.per-file-ignores]\n\"SKILL.md\" = [\"SK008\"]\n").0,
            "\"SKILL.md\""
        );
        assert_eq!(error_at("[lint]\nexclude = [\"a/[\"]\n").0, "\"a/[\"");
        assert_eq!(error_at("[skills]\ndialect = \"cursor\"\n").0, "\"cursor\"");
        assert_eq!(
            error_at("[forge]\nrequirement-files = [\"a/b.yaml\"]\n").0,
            "\"a/b.yaml\""
        );
        assert_eq!(error_at("[unknown]\n").0, "unknown");
        let (_, message) = error_at("[lint\n");
        assert!(!message.is_empty());
    }

    #[test]
    fn sizes_are_byte_counts_with_optional_units() {
        for (text, bytes) in [
            ("4194304", 4_194_304),
            ("1", 1),
            ("512KiB", 512 * 1024),
            ("8 MiB", 8 * 1024 * 1024),
            ("4MB", 4_000_000),
            ("2gib", 2 * 1024 * 1024 * 1024),
            ("100b", 100),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
        for text in [
            "",
            "0",
            "0KiB",
            "-1",
            "1.5MiB",
            "MiB",
            "12 parsecs",
            "99999999999GiB",
        ] {
            assert!(parse_size(text).is_err(), "{text} accepted");
        }
        let config = parse_text("[lint]\nmax-file-size = \"8MiB\"\n").expect("valid");
        assert_eq!(config.max_file_size, Some(8 * 1024 * 1024));
        let config = parse_text("[lint]\nmax-file-size = 1000\n").expect("valid");
        assert_eq!(config.max_file_size, Some(1000));
        assert_eq!(error_at("[lint]\nmax-file-size = 0\n").0, "0");
        assert_eq!(error_at("[lint]\nmax-file-size = [1]\n").0, "[1]");
    }

    #[test]
    fn an_error_quotes_only_its_line_with_controls_replaced() {
        // TOML refuses the raw ESC: the error is at it, and the quote must not carry it.
        let text = "[lint]\n# secret above\nselect = \"\u{1b}[31m\"\n# secret below\n";
        let error = parse_text(text).expect_err("control character");
        let quote = error.quote.expect("quoted");
        assert_eq!(quote.line, 3);
        assert_eq!(quote.text, "select = \"?[31m\"");
        assert_eq!(quote.text.len(), text.lines().nth(2).map_or(0, str::len));
        assert_eq!(&text[quote.span.clone()], "\u{1b}");
        // A long line is cut around the span; offsets stay the file's.
        let long = format!("[lint]\nselect = [{}\"XX9\"]\n", "\"SK\", ".repeat(500));
        let error = parse_text(&long).expect_err("unknown selector");
        let quote = error.quote.expect("quoted");
        assert!(quote.text.len() <= QUOTE_MAX);
        assert_eq!(&long[quote.span.clone()], "\"XX9\"");
        assert_eq!(
            &quote.text[quote.span.start - quote.offset..quote.span.end - quote.offset],
            "\"XX9\""
        );
        assert_eq!(escape_controls("a\u{7}b\u{202e}"), "a\\u{7}b\\u{202e}");
    }

    #[test]
    fn discovery_walks_up_to_the_repository_root() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("repo/.git")).expect("git dir");
        std::fs::create_dir_all(root.join("repo/skills/a")).expect("skill dir");
        // Above the repository: never used.
        std::fs::write(root.join("skilllint.toml"), "").expect("outer config");
        assert_eq!(discover(&root.join("repo/skills/a")), Ok(None));
        std::fs::write(root.join("repo/.skilllint.toml"), "").expect("repo config");
        let found = discover(&root.join("repo/skills/a"))
            .expect("no error")
            .expect("found");
        assert!(found.ends_with("repo/.skilllint.toml"));
        std::fs::write(root.join("repo/skills/skilllint.toml"), "").expect("nested config");
        let nearest = discover(&root.join("repo/skills/a"))
            .expect("no error")
            .expect("found");
        assert!(nearest.ends_with("repo/skills/skilllint.toml"));
    }
}

#[cfg(test)]
mod schema_sync {
    //! docs/skilllint.schema.json (for editor completion) must describe exactly what `parse`
    //! accepts: every key in the schema parses, and the parser accepts no key the schema lacks.
    use super::*;
    use crate::catalog::catalog;
    use serde_json::Value;

    fn schema() -> Value {
        let text = include_str!("../docs/skilllint.schema.json");
        serde_json::from_str(text).expect("the config schema is JSON")
    }

    /// A valid TOML value for a property schema.
    fn sample(property: &Value) -> String {
        if let Some(values) = property.get("enum").and_then(Value::as_array) {
            return format!("\"{}\"", values[0].as_str().unwrap_or_default());
        }
        if property.get("$ref").and_then(Value::as_str) == Some("#/definitions/severity") {
            return "\"error\"".to_string();
        }
        // A size (`max-file-size`) is an integer or a string with a unit.
        let types = match property.get("type") {
            Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).collect(),
            Some(Value::String(one)) => vec![one.as_str()],
            _ => Vec::new(),
        };
        if types.contains(&"integer") {
            return "4194304".to_string();
        }
        match property.get("type").and_then(Value::as_str) {
            Some("array") => {
                let items = &property["items"];
                match items.get("$ref").and_then(Value::as_str) {
                    Some("#/definitions/selector") => "[\"TJ003\"]".to_string(),
                    Some("#/definitions/glob") => "[\"vendor/**\"]".to_string(),
                    _ => "[\"requirement.yaml\"]".to_string(),
                }
            }
            Some("object") => "{}".to_string(),
            Some("boolean") => "false".to_string(),
            _ => "\"Tool Use Rules\"".to_string(),
        }
    }

    /// Wired for editors: taplo's `#:schema` directive in this checkout's own configuration names
    /// the schema, which validates the configurations of this repository, and its `$id` and
    /// catalogue entry are in the form SchemaStore lists (draft-07, as SchemaStore recommends).
    #[test]
    fn the_schema_is_ready_for_editors_and_schemastore() {
        let schema = schema();
        assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
        assert_eq!(schema["$id"], "https://www.schemastore.org/skilllint.json");
        let entry: Value =
            serde_json::from_str(include_str!("../docs/schemastore-catalog.json")).expect("JSON");
        assert_eq!(entry["url"], schema["$id"]);
        assert_eq!(entry["fileMatch"], serde_json::json!(CONFIG_NAMES));
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft7)
            .build(&schema)
            .expect("the schema compiles");
        let own = include_str!("../skilllint.toml");
        let directive = own.lines().next().unwrap_or_default();
        let url = directive
            .strip_prefix("#:schema ")
            .expect("a #:schema first line");
        assert!(url.ends_with("/main/docs/skilllint.schema.json"), "{url}");
        for text in [
            own,
            include_str!("../tests/fixtures/skilllint.toml"),
            "#:schema x\n[lint]\nselect = [\"ALL\"]\nbaseline = \"b.json\"\nmax-file-size = \"8MiB\"\n[lint.severity]\nTR006 = \"error\"\n[lint.per-file-ignores]\n\"a/**\" = [\"SK008\"]\n[tools]\ninclude = [\"servers/*/catalog.json\"]\n",
        ] {
            assert!(parse(text, Path::new("t.toml"), PathBuf::from("."), catalog()).is_ok());
            let value: toml::Value = toml::from_str(text).expect("TOML");
            let instance = serde_json::to_value(value).expect("as JSON");
            let errors: Vec<String> = validator.iter_errors(&instance).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{errors:?}: {text}");
        }
        let wrong: toml::Value = toml::from_str("[lint]\nfail-on = \"fatal\"\n").expect("TOML");
        assert!(!validator.is_valid(&serde_json::to_value(wrong).expect("JSON")));
    }

    #[test]
    fn every_schema_key_is_accepted_and_no_other() {
        let schema = schema();
        let tables = schema["properties"].as_object().expect("tables");
        let mut checked = 0;
        for (table, table_schema) in tables {
            let keys = table_schema["properties"].as_object().expect("keys");
            for (key, property) in keys {
                let text = format!("[{table}]\n{key} = {}\n", sample(property));
                let parsed = parse(&text, Path::new("t.toml"), PathBuf::from("."), catalog());
                assert!(
                    parsed.is_ok(),
                    "schema key {table}.{key} is refused: {parsed:?}"
                );
                checked += 1;
            }
            let unknown = format!("[{table}]\nnot-a-key = 1\n");
            assert!(
                parse(&unknown, Path::new("t.toml"), PathBuf::from("."), catalog()).is_err(),
                "[{table}] accepts keys the schema does not list"
            );
        }
        assert!(checked >= 11, "only {checked} keys checked");
        // A table the schema does not describe is refused too.
        assert!(parse(
            "[other]\n",
            Path::new("t.toml"),
            PathBuf::from("."),
            catalog()
        )
        .is_err());
        assert_eq!(tables.len(), 7);
    }

    #[test]
    fn tools_include_globs_are_checked_and_kept() {
        let parse_text =
            |text: &str| parse(text, Path::new("t.toml"), PathBuf::from("."), catalog());
        let config = parse_text("[tools]\ninclude = [\"servers/*/catalog.json\"]\n")
            .expect("a glob with a folder");
        assert_eq!(config.tool_include, ["servers/*/catalog.json"]);
        // A bare name would match only the file beside the config, as in `exclude`.
        assert!(parse_text("[tools]\ninclude = [\"catalog.json\"]\n").is_err());
        assert!(parse_text("[tools]\ninclude = [\"a/[\"]\n").is_err());
    }
}
