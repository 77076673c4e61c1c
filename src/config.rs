//! `skilllint.toml` / `.skilllint.toml`: discovery, parsing with spans, and validation. Every
//! problem is a [`ConfigError`] pointing at the offending key or value; the CLI renders it with the
//! TOML snippet and exits 2.

use crate::diagnostic::Severity;
use crate::rules::Registry;
use crate::selection::validate_selector;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// File names looked for in each folder, in this order.
pub const CONFIG_NAMES: [&str; 2] = ["skilllint.toml", ".skilllint.toml"];

/// Frontmatter keys Claude Code reads in SKILL.md beyond the Agent Skills six.
pub const CLAUDE_CODE_FIELDS: [&str; 9] = [
    "model",
    "version",
    "disable-model-invocation",
    "user-invocable",
    "argument-hint",
    "when_to_use",
    "context",
    "agent",
    "hooks",
];

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

/// A configuration problem, located in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    pub text: String,
    pub span: Option<Range<usize>>,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for ConfigError {}

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
}

/// Looks for a config file from `start` upwards, stopping at the repository root (the first
/// folder holding `.git`) or the file system root.
pub fn discover(start: &Path) -> Option<PathBuf> {
    let start = start.canonicalize().ok()?;
    let start = if start.is_file() {
        start.parent()?.to_path_buf()
    } else {
        start
    };
    for dir in start.ancestors() {
        for name in CONFIG_NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    None
}

/// Reads and validates a config file.
pub fn load(path: &Path, registry: &Registry) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
        path: path.to_path_buf(),
        text: String::new(),
        span: None,
        message: format!("cannot read the configuration: {e}"),
    })?;
    let base = path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let base = if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base
    };
    parse(&text, path, base, registry)
}

/// Parses config text (the path is only for messages).
pub fn parse(
    text: &str,
    path: &Path,
    base: PathBuf,
    registry: &Registry,
) -> Result<Config, ConfigError> {
    let error = |span: Option<Range<usize>>, message: String| ConfigError {
        path: path.to_path_buf(),
        text: text.to_string(),
        span,
        message,
    };
    let file: ConfigFile =
        toml::from_str(text).map_err(|e| error(e.span(), e.message().trim().to_string()))?;
    let selectors = |list: &[Spanned<String>]| -> Result<Vec<String>, ConfigError> {
        list.iter()
            .map(|s| {
                validate_selector(registry, s.get_ref())
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
    if let Some(fail_on) = &lint.fail_on {
        config.fail_on = Some(severity_of(fail_on)?);
    }
    for (rule, level) in &lint.severity {
        let Some(found) = registry.find(rule.get_ref()) else {
            return Err(error(
                Some(rule.span()),
                format!("unknown rule `{}` in [lint.severity]", rule.get_ref()),
            ));
        };
        config.severity.insert(found.meta.code, severity_of(level)?);
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
                .extend(CLAUDE_CODE_FIELDS.iter().map(|s| s.to_string())),
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
    config.contract_map = file.contracts.map;
    Ok(config)
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
    use crate::rules::registry;

    fn parse_text(text: &str) -> Result<Config, ConfigError> {
        parse(
            text,
            Path::new("skilllint.toml"),
            PathBuf::from("."),
            registry(),
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
    fn discovery_walks_up_to_the_repository_root() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("repo/.git")).expect("git dir");
        std::fs::create_dir_all(root.join("repo/skills/a")).expect("skill dir");
        // Above the repository: never used.
        std::fs::write(root.join("skilllint.toml"), "").expect("outer config");
        assert_eq!(discover(&root.join("repo/skills/a")), None);
        std::fs::write(root.join("repo/.skilllint.toml"), "").expect("repo config");
        let found = discover(&root.join("repo/skills/a")).expect("found");
        assert!(found.ends_with("repo/.skilllint.toml"));
        std::fs::write(root.join("repo/skills/skilllint.toml"), "").expect("nested config");
        let nearest = discover(&root.join("repo/skills/a")).expect("found");
        assert!(nearest.ends_with("repo/skills/skilllint.toml"));
    }
}

#[cfg(test)]
mod schema_sync {
    //! docs/skilllint.schema.json (for editor completion) must describe exactly what `parse`
    //! accepts: every key in the schema parses, and the parser accepts no key the schema lacks.
    use super::*;
    use crate::rules::registry;
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
        if property.get("$ref").and_then(Value::as_str) == Some("#/$defs/severity") {
            return "\"error\"".to_string();
        }
        match property.get("type").and_then(Value::as_str) {
            Some("array") => {
                let items = &property["items"];
                match items.get("$ref").and_then(Value::as_str) {
                    Some("#/$defs/selector") => "[\"TJ003\"]".to_string(),
                    Some("#/$defs/glob") => "[\"vendor/**\"]".to_string(),
                    _ => "[\"requirement.yaml\"]".to_string(),
                }
            }
            Some("object") => "{}".to_string(),
            _ => "\"Tool Use Rules\"".to_string(),
        }
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
                let parsed = parse(&text, Path::new("t.toml"), PathBuf::from("."), registry());
                assert!(
                    parsed.is_ok(),
                    "schema key {table}.{key} is refused: {parsed:?}"
                );
                checked += 1;
            }
            let unknown = format!("[{table}]\nnot-a-key = 1\n");
            assert!(
                parse(
                    &unknown,
                    Path::new("t.toml"),
                    PathBuf::from("."),
                    registry()
                )
                .is_err(),
                "[{table}] accepts keys the schema does not list"
            );
        }
        assert!(checked >= 11, "only {checked} keys checked");
        // A table the schema does not describe is refused too.
        assert!(parse(
            "[other]\n",
            Path::new("t.toml"),
            PathBuf::from("."),
            registry()
        )
        .is_err());
        assert_eq!(tables.len(), 4);
    }
}
