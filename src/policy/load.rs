//! Reading policy files: discovery, YAML with spans, validation of every key, compilation of the
//! expressions. The first problem stops the load with an error pointing at the key, or at the
//! character of an expression, in the file.

use super::expr::{self, Variable};
use super::{Kind, Piece, PolicyRule, PolicySet, TestCase, REPO_FIELDS, TOOL_USE_RULE_FIELDS};
use crate::catalog::{catalog, Category, FixAvailability, RuleMeta};
use crate::diagnostic::Severity;
use crate::file_error::FileError;
use crate::parse::node::{Member, Node};
use crate::parse::yaml::parse_yaml;
use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The folder of policy files beside the config file (or in the lint root).
pub const POLICY_DIR: &str = ".skilllint/policies";

/// A policy file larger than this is refused unread.
pub const MAX_POLICY_FILE: u64 = 1024 * 1024;

const KEYS: &[&str] = &[
    "code", "name", "severity", "category", "summary", "on", "when", "assert", "message", "at",
    "help", "docs", "tests",
];
const REQUIRED: &[&str] = &[
    "code", "name", "severity", "category", "summary", "on", "assert", "message",
];

/// The code families of the built-in rules: a policy code may not start with one, or
/// `--select SK` would pick it too.
fn builtin_families() -> Vec<String> {
    let mut families: Vec<String> = catalog().rules.iter().map(|m| m.family.clone()).collect();
    families.sort();
    families.dedup();
    families
}

/// Why the policies of a run could not be loaded.
#[derive(Debug)]
pub enum RunPoliciesError {
    /// The config file's `[policies]` table.
    Config(FileError),
    /// A policy file, or a path that names none.
    Policy(FileError),
}

/// Who chose a policy source, which decides what it may name and what its errors may show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The user: `--policies`, or a config file named with `--config`. It may point anywhere,
    /// and its errors quote the offending line.
    User,
    /// The repository being linted: a discovered config's `[policies] paths` and the
    /// `.skilllint/policies` folder. It must stay inside `root` (canonical), be made of regular
    /// files, and a file that is not policy YAML is never quoted.
    Repository { root: PathBuf },
}

/// One place policies are read from.
#[derive(Debug, Clone)]
pub struct Source {
    pub path: PathBuf,
    /// The default folder may be absent; a path someone named must exist.
    pub optional: bool,
    pub origin: Origin,
}

/// A policy file found in the sources: the path shown, the path read (the canonical target for
/// a repository file, so the file checked is the file opened), and who chose it.
#[derive(Debug, Clone)]
pub struct Found {
    pub path: PathBuf,
    read: PathBuf,
    quote: bool,
}

/// The policies a run from `start` loads, as the command line and the language server find them:
/// `.skilllint/policies/` beside the config file at `config_path` (in `start` without one) and the
/// config's `[policies] paths`, unless `isolated`, then `extra` (`--policies`). The config file
/// is read under `cap`, as a run reads it. A config found by discovery (`config_named` false) is
/// the repository's: what it and the default folder name must stay inside the folder the config
/// is in (`start` without one), which holds the lint root; a config named with `--config` is the
/// user's, as `--policies` is.
pub fn for_run(
    config_path: Option<&Path>,
    config_named: bool,
    start: &Path,
    isolated: bool,
    extra: &[PathBuf],
    cap: u64,
) -> Result<PolicySet, RunPoliciesError> {
    let mut sources = Vec::new();
    if !isolated {
        let base = config_path.map_or(start, crate::source::folder_of);
        let origin = if config_named {
            Origin::User
        } else {
            let root = base.canonicalize().map_err(|e| {
                RunPoliciesError::Policy(whole(base, format!("cannot read the folder: {e}")))
            })?;
            Origin::Repository { root }
        };
        sources.push(Source {
            path: base.join(POLICY_DIR),
            optional: true,
            origin: origin.clone(),
        });
        if let Some(path) = config_path {
            let paths =
                crate::config::policy_paths_of(path, cap).map_err(RunPoliciesError::Config)?;
            if let Origin::Repository { root } = &origin {
                // Refused before the file system is asked anything: whether a file exists out
                // there is not the repository's to learn either.
                for path in &paths {
                    let written = path.strip_prefix(base).unwrap_or(path);
                    if leaves(written) {
                        return Err(RunPoliciesError::Policy(outside(path, root)));
                    }
                }
            }
            sources.extend(paths.into_iter().map(|path| Source {
                path,
                optional: false,
                origin: origin.clone(),
            }));
        }
    }
    sources.extend(extra.iter().map(|path| Source {
        path: path.clone(),
        optional: false,
        origin: Origin::User,
    }));
    let files = discover_sources(&sources).map_err(RunPoliciesError::Policy)?;
    load_found(&files).map_err(RunPoliciesError::Policy)
}

fn whole(path: &Path, message: String) -> FileError {
    FileError {
        path: path.to_path_buf(),
        span: None,
        quote: None,
        message,
    }
}

/// The policy files in `sources`, in order: a folder gives its `*.yaml` and `*.yml` files sorted
/// by name (not its subfolders). `optional` sources (the default folder) may be absent; a source
/// named by the user must exist. Every source is the user's (see [`for_run`] for the
/// repository's).
pub fn discover(sources: &[(PathBuf, bool)]) -> Result<Vec<PathBuf>, FileError> {
    let sources: Vec<Source> = sources
        .iter()
        .map(|(path, optional)| Source {
            path: path.clone(),
            optional: *optional,
            origin: Origin::User,
        })
        .collect();
    Ok(discover_sources(&sources)?
        .into_iter()
        .map(|found| found.path)
        .collect())
}

/// Whether a path written in a repository's config leaves the folder it is relative to: it is
/// absolute, or a `..` climbs above its start.
pub(crate) fn leaves(written: &Path) -> bool {
    use std::path::Component;
    let mut depth = 0usize;
    for component in written.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => return true,
            Component::CurDir => {}
            Component::ParentDir => match depth.checked_sub(1) {
                Some(up) => depth = up,
                None => return true,
            },
            Component::Normal(_) => depth += 1,
        }
    }
    false
}

fn outside(path: &Path, root: &Path) -> FileError {
    whole(
        path,
        format!(
            "the policy path leads outside the repository ({}); it was not read (a \
             repository's policies must be inside it; name a file with --policies to use it)",
            crate::escape::display_path(root)
        ),
    )
}

/// Where `path` (a repository source) really is: its canonical path, which must be inside
/// `root`; `None` when it does not exist and that is allowed.
fn inside_root(path: &Path, root: &Path, optional: bool) -> Result<Option<PathBuf>, FileError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && optional => return Ok(None),
        Err(e) => return Err(whole(path, format!("cannot read the policies: {e}"))),
        Ok(_) => {}
    }
    let refuse = || outside(path, root);
    match path.canonicalize() {
        Ok(target) if target.starts_with(root) => Ok(Some(target)),
        Ok(_) => Err(refuse()),
        // A link that resolves to nothing: where it points is not the repository's to say.
        Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            Err(whole(
                path,
                "the policy path is a symbolic link that does not resolve; it was not read"
                    .to_string(),
            ))
        }
        Err(e) => Err(whole(path, format!("cannot read the policies: {e}"))),
    }
}

fn discover_sources(sources: &[Source]) -> Result<Vec<Found>, FileError> {
    let mut files: Vec<Found> = Vec::new();
    let push = |files: &mut Vec<Found>, found: Found| {
        if !files.iter().any(|f| f.path == found.path) {
            files.push(found);
        }
    };
    for source in sources {
        let (real, quote) = match &source.origin {
            Origin::User => (source.path.clone(), true),
            Origin::Repository { root } => {
                match inside_root(&source.path, root, source.optional)? {
                    Some(real) => (real, false),
                    None => continue,
                }
            }
        };
        let metadata = match std::fs::metadata(&real) {
            Ok(metadata) => metadata,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && source.optional => continue,
            Err(e) => {
                return Err(whole(
                    &source.path,
                    format!("cannot read the policies: {e}"),
                ))
            }
        };
        if !metadata.is_dir() {
            push(
                &mut files,
                Found {
                    path: source.path.clone(),
                    read: real,
                    quote,
                },
            );
            continue;
        }
        let entries = std::fs::read_dir(&real)
            .map_err(|e| whole(&source.path, format!("cannot read the policy folder: {e}")))?;
        let mut found: Vec<std::ffi::OsString> = entries
            .flatten()
            .map(|e| e.file_name())
            .filter(|name| {
                Path::new(name)
                    .extension()
                    .is_some_and(|x| x == "yaml" || x == "yml")
            })
            .collect();
        found.sort();
        let folder = real.canonicalize().ok();
        for name in found {
            let path = source.path.join(&name);
            let mut read = real.join(&name);
            // A policy folder inside the repository is repository data: a link in it is not
            // followed out of it.
            if std::fs::symlink_metadata(&read).is_ok_and(|m| m.file_type().is_symlink()) {
                let target = read.canonicalize().ok();
                let inside = match (&target, &folder) {
                    (Some(target), Some(folder)) => target.starts_with(folder),
                    _ => false,
                };
                let Some(target) = target.filter(|_| inside) else {
                    return Err(whole(
                        &path,
                        "the policy file is a symbolic link out of its folder; it was not read"
                            .to_string(),
                    ));
                };
                if !quote {
                    read = target;
                }
            }
            push(&mut files, Found { path, read, quote });
        }
    }
    Ok(files)
}

/// Loads the policies of `base` (its `.skilllint/policies/`, if any) and of `extra` (files or
/// folders that must exist).
pub fn load(base: &Path, extra: &[PathBuf]) -> Result<PolicySet, FileError> {
    // Without a config file there is no `[policies]` table to read (nor a size cap for one to
    // apply): every error is a policy's.
    for_run(None, false, base, false, extra, u64::MAX).map_err(|error| match error {
        RunPoliciesError::Config(error) | RunPoliciesError::Policy(error) => error,
    })
}

/// Loads the given policy files, in order (the user's: see [`for_run`]).
pub fn load_paths(files: &[PathBuf]) -> Result<PolicySet, FileError> {
    let found: Vec<Found> = files
        .iter()
        .map(|path| Found {
            path: path.clone(),
            read: path.clone(),
            quote: true,
        })
        .collect();
    load_found(&found)
}

fn load_found(files: &[Found]) -> Result<PolicySet, FileError> {
    let mut loader = Loader {
        families: builtin_families(),
        rules: Vec::new(),
        metas: Vec::new(),
        seen: Vec::new(),
    };
    for found in files {
        let text = read(&found.path, &found.read)?;
        loader.file(&found.path, &text, found.quote)?;
    }
    Ok(PolicySet::new(loader.rules, loader.metas))
}

/// Loads the policy files of a repository read from somewhere other than disk (a git
/// revision), in order: `(path shown, text)`. As for any repository source, a file that is not
/// policy YAML is never quoted.
pub fn load_repository_texts(files: &[(PathBuf, String)]) -> Result<PolicySet, FileError> {
    let mut loader = Loader {
        families: builtin_families(),
        rules: Vec::new(),
        metas: Vec::new(),
        seen: Vec::new(),
    };
    for (path, text) in files {
        loader.file(path, text, false)?;
    }
    Ok(PolicySet::new(loader.rules, loader.metas))
}

/// Loads policies from text (for tests and `lint_in_memory` callers).
pub fn load_text(path: &Path, text: &str) -> Result<PolicySet, FileError> {
    let mut loader = Loader {
        families: builtin_families(),
        rules: Vec::new(),
        metas: Vec::new(),
        seen: Vec::new(),
    };
    loader.file(path, text, true)?;
    Ok(PolicySet::new(loader.rules, loader.metas))
}

/// The text of the policy file shown as `path`, read at `real`.
fn read(path: &Path, real: &Path) -> Result<String, FileError> {
    use crate::read::{read_regular_bounded, Refused};
    let fail = |message: String| FileError {
        path: path.to_path_buf(),
        span: None,
        quote: None,
        message,
    };
    let bytes = read_regular_bounded(real, MAX_POLICY_FILE).map_err(|refused| {
        fail(match refused {
            Refused::Io(e) => format!("cannot read the policy file: {e}"),
            Refused::NotRegular => {
                "the policy file is not a regular file; it was not read".to_string()
            }
            Refused::TooLarge(_) => format!(
                "the policy file is over the {MAX_POLICY_FILE} byte size limit; it was not read"
            ),
        })
    })?;
    String::from_utf8(bytes).map_err(|_| fail("the policy file is not valid UTF-8".to_string()))
}

/// Whether `text` has the line a policy file starts its list with (`rules:` alone, perhaps with
/// a comment, or opening a flow list): a file that does not parse is quoted only then.
fn has_rules_line(text: &str) -> bool {
    text.lines().any(|line| {
        line.strip_prefix("rules:").is_some_and(|rest| {
            let rest = rest.trim();
            rest.is_empty() || rest.starts_with('#') || rest.starts_with('[')
        })
    })
}

/// Where a code or name was first defined, for "already defined" errors.
struct Seen {
    code: String,
    name: String,
    file: String,
    line: usize,
}

struct Loader {
    families: Vec<String>,
    rules: Vec<PolicyRule>,
    metas: Vec<RuleMeta>,
    seen: Vec<Seen>,
}

struct File<'a> {
    path: &'a Path,
    text: &'a str,
}

impl File<'_> {
    fn error(&self, span: Range<usize>, message: impl Into<String>) -> FileError {
        super::error_at(self.path, self.text, span, message.into())
    }

    fn at_key(&self, member: &Member, message: impl Into<String>) -> FileError {
        self.error(member.key_span.start..member.key_span.end, message)
    }

    fn at_value(&self, node: &Node, message: impl Into<String>) -> FileError {
        self.error(node.span.start..node.span.end, message)
    }

    fn line_of(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }
}

fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// `ORG001`: two to five uppercase letters and three digits; returns the letters.
fn code_letters(code: &str) -> Option<&str> {
    let letters = code.len().checked_sub(3)?;
    let (head, digits) = code.split_at(letters);
    let ok = (2..=5).contains(&head.len())
        && head.bytes().all(|b| b.is_ascii_uppercase())
        && digits.bytes().all(|b| b.is_ascii_digit());
    ok.then_some(head)
}

impl Loader {
    /// Loads one file. `quote`: its errors may quote it (the user chose it); otherwise a file
    /// that is not policy YAML (a credentials file a repository's config names, say) is refused
    /// without a word of its content.
    fn file(&mut self, path: &Path, text: &str, quote: bool) -> Result<(), FileError> {
        let file = File { path, text };
        let not_policy = || {
            whole(
                path,
                "not a policy file (a YAML mapping with a `rules:` list); it was not loaded, \
                 and its content is not shown"
                    .to_string(),
            )
        };
        let document = parse_yaml(text, 0).map_err(|e| {
            if !quote && !has_rules_line(text) {
                return not_policy();
            }
            file.error(
                e.span.start..e.span.end,
                format!("the policy file is not valid YAML: {}", e.message),
            )
        })?;
        let Some(root) = document.root else {
            return Err(file.error(0..0, "the policy file is empty: it needs a `rules:` list"));
        };
        if !quote
            && root
                .get("rules")
                .is_none_or(|rules| rules.as_array().is_none())
        {
            return Err(not_policy());
        }
        let Some(members) = root.as_object() else {
            return Err(file.at_value(&root, "a policy file is a mapping with a `rules:` list"));
        };
        for member in members {
            if member.key != "rules" {
                return Err(file.at_key(
                    member,
                    format!(
                        "unknown key `{}` (a policy file has only `rules`)",
                        member.key
                    ),
                ));
            }
        }
        let Some(rules) = root.get("rules") else {
            return Err(file.at_value(&root, "the policy file has no `rules:` list"));
        };
        let Some(items) = rules.as_array() else {
            return Err(file.at_value(rules, "`rules` must be a list of rules"));
        };
        for item in items {
            self.rule(&file, item)?;
        }
        Ok(())
    }

    fn rule(&mut self, file: &File<'_>, item: &Node) -> Result<(), FileError> {
        let item = RuleItem::new(file, item)?;
        let (code, code_node, letters) = self.rule_code(&item)?;
        let (name, name_node) = rule_name(&item)?;
        self.not_seen(file, (code, code_node), (name, name_node))?;
        let (severity, severity_node) = item.required("severity")?;
        let Some(severity) = Severity::parse(severity) else {
            return Err(file.at_value(
                severity_node,
                format!("unknown severity `{severity}` (expected error, warning or info)"),
            ));
        };
        let (category, category_node) = item.required("category")?;
        let Some(category) = Category::parse(category) else {
            return Err(file.at_value(
                category_node,
                format!("unknown category `{category}` (expected correctness, safety, style or pedantic)"),
            ));
        };
        let (summary, _) = item.required("summary")?;
        let (on, on_node) = item.required("on")?;
        let Some(kind) = Kind::parse(on) else {
            return Err(file.at_value(
                on_node,
                format!(
                    "unknown entity kind `{on}` (expected {})",
                    Kind::ALL.map(Kind::as_str).join(", ")
                ),
            ));
        };
        let variables = variables_for(kind);
        let when = item.compile("when", &variables)?;
        let assert = item
            .compile("assert", &variables)?
            .ok_or_else(|| file.error(item.start.clone(), "this rule has no `assert`"))?;
        let (message, message_node) = item.required("message")?;
        let message = parse_template(message, &variables).map_err(|(range, why)| {
            file.error(
                locate_in_scalar(file.text, message_node, message, range),
                format!("`message`: {why}"),
            )
        })?;
        let (at_root, at) = item.at(kind)?;
        let help = item.string("help")?.map(|(h, _)| h.to_string());
        let docs = item.string("docs")?.map(|(d, _)| d.to_string());
        let tests = match item.item.get("tests") {
            None => Vec::new(),
            Some(node) => tests(file, node, kind)?,
        };

        // Diagnostics carry their rule's code as `&'static str` everywhere (sink, triage,
        // severity overrides, every renderer). A run loads its policies once, so leaking each
        // code (a few bytes per rule, once per process) is far smaller a change than making
        // every one of those own or share its code.
        let code: &'static str = Box::leak(code.to_string().into_boxed_str());
        let display = crate::escape::display_path(file.path).to_string();
        self.seen.push(Seen {
            code: code.to_string(),
            name: name.to_string(),
            file: display.clone(),
            line: file.line_of(code_node.span.start),
        });
        let explanation = match &docs {
            Some(docs) => format!("## What it checks\n{}\n", docs.trim_end()),
            None => format!("## What it checks\n{summary}.\n"),
        };
        self.metas.push(RuleMeta {
            code,
            name: name.to_string(),
            family: letters.to_string(),
            category,
            severity,
            fix: FixAvailability::None,
            summary: summary.trim_end_matches('.').to_string(),
            explanation: Cow::Owned(format!(
                "{explanation}\nDefined in the policy file `{display}` (`on: {}`).\n",
                kind.as_str()
            )),
            policy_file: Some(display.clone()),
        });
        self.rules.push(PolicyRule {
            code,
            name: name.to_string(),
            on: kind,
            when,
            assert,
            message,
            at,
            at_root,
            help,
            tests,
            file: display,
        });
        Ok(())
    }

    /// The rule's `code`, with its letters: a code's form, and not a built-in family's prefix.
    fn rule_code<'n>(
        &self,
        item: &RuleItem<'_, 'n>,
    ) -> Result<(&'n str, &'n Node, &'n str), FileError> {
        let file = item.file;
        let (code, code_node) = item.required("code")?;
        let Some(letters) = code_letters(code) else {
            return Err(file.at_value(
                code_node,
                format!("`{code}` is not a rule code: two to five uppercase letters and three digits, such as ORG001"),
            ));
        };
        if let Some(family) = self
            .families
            .iter()
            .find(|f| letters.starts_with(f.as_str()))
        {
            return Err(file.at_value(
                code_node,
                format!("`{code}` starts with `{family}`, the prefix of skilllint's built-in rules; choose another prefix, such as ORG"),
            ));
        }
        Ok((code, code_node, letters))
    }

    /// Neither the code nor the name of a rule loaded before.
    fn not_seen(
        &self,
        file: &File<'_>,
        (code, code_node): (&str, &Node),
        (name, name_node): (&str, &Node),
    ) -> Result<(), FileError> {
        for seen in &self.seen {
            let duplicate = if seen.code == code {
                Some(("code", code, code_node))
            } else if seen.name == name {
                Some(("name", name, name_node))
            } else {
                None
            };
            if let Some((what, value, node)) = duplicate {
                return Err(file.at_value(
                    node,
                    format!(
                        "duplicate {what} `{value}`: already defined at {}:{}",
                        seen.file, seen.line
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The rule's `name`: kebab-case, and not a built-in rule's.
fn rule_name<'n>(item: &RuleItem<'_, 'n>) -> Result<(&'n str, &'n Node), FileError> {
    let file = item.file;
    let (name, name_node) = item.required("name")?;
    if !is_kebab(name) {
        return Err(file.at_value(
            name_node,
            format!("`{name}` is not a kebab-case name such as database-writes-need-approval"),
        ));
    }
    if catalog().rules.iter().any(|m| m.name == name) {
        return Err(file.at_value(
            name_node,
            format!("`{name}` is the name of a built-in rule"),
        ));
    }
    Ok((name, name_node))
}

/// One item of `rules:`, a mapping whose keys are known and whose required keys are there, read
/// key by key.
struct RuleItem<'f, 'n> {
    file: &'f File<'f>,
    item: &'n Node,
    /// The item's first byte: where an error about a missing key points.
    start: Range<usize>,
}

impl<'f, 'n> RuleItem<'f, 'n> {
    fn new(file: &'f File<'f>, item: &'n Node) -> Result<Self, FileError> {
        let Some(members) = item.as_object() else {
            return Err(file.at_value(item, "each rule must be a mapping of keys"));
        };
        for member in members {
            if !KEYS.contains(&member.key.as_str()) {
                return Err(file.at_key(
                    member,
                    format!(
                        "unknown key `{}` in a policy rule (expected one of {})",
                        member.key,
                        KEYS.join(", ")
                    ),
                ));
            }
        }
        let start = item.span.start..item.span.start + 1;
        for key in REQUIRED {
            if item.get(key).is_none() {
                return Err(file.error(
                    start.clone(),
                    format!(
                        "this rule has no `{key}` (required: {})",
                        REQUIRED.join(", ")
                    ),
                ));
            }
        }
        Ok(RuleItem { file, item, start })
    }

    /// The string at `key`, if the key is there.
    fn string(&self, key: &str) -> Result<Option<(&'n str, &'n Node)>, FileError> {
        match self.item.get(key) {
            None => Ok(None),
            Some(node) => match node.as_str() {
                Some(text) => Ok(Some((text, node))),
                None => Err(self
                    .file
                    .at_value(node, format!("`{key}` must be a string"))),
            },
        }
    }

    /// The string at `key`, which must be there.
    fn required(&self, key: &str) -> Result<(&'n str, &'n Node), FileError> {
        self.string(key)?.ok_or_else(|| {
            self.file
                .error(self.start.clone(), format!("this rule has no `{key}`"))
        })
    }

    /// The expression at `key` (`when`, `assert`) compiled over `variables`, if the key is there.
    fn compile(
        &self,
        key: &str,
        variables: &[Variable],
    ) -> Result<Option<expr::Compiled>, FileError> {
        let Some((source, node)) = self.string(key)? else {
            return Ok(None);
        };
        expr::compile(source, variables).map(Some).map_err(|e| {
            let span = locate_in_scalar(self.file.text, node, source, e.range.clone());
            self.file.error(span, format!("`{key}`: {}", e.message))
        })
    }

    /// Where a finding points (`at`): its root variable and the path below it; by default the
    /// entity the rule is about.
    fn at(&self, kind: Kind) -> Result<(String, Vec<String>), FileError> {
        let file = self.file;
        Ok(match self.string("at")? {
            None => (kind.variable().to_string(), Vec::new()),
            Some((text, node)) => {
                let path = parse_path(text).ok_or_else(|| {
                    file.at_value(
                        node,
                        format!(
                            "`at` must be a dotted path such as {}.name",
                            kind.variable()
                        ),
                    )
                })?;
                let root = path[0].clone();
                if root != kind.variable() && !(root == "skill" && kind != Kind::Skill) {
                    return Err(file.at_value(
                        node,
                        format!(
                            "`at` must start with `{}` (or `skill`), the entity this rule is about",
                            kind.variable()
                        ),
                    ));
                }
                (root, path[1..].to_vec())
            }
        })
    }
}

/// The variables a rule over `kind` may read.
pub(crate) fn variables_for(kind: Kind) -> Vec<Variable> {
    let mut variables = vec![Variable {
        name: kind.variable(),
        closed_fields: (kind == Kind::ToolUseRule).then_some(TOOL_USE_RULE_FIELDS),
    }];
    if kind != Kind::Skill {
        variables.push(Variable {
            name: "skill",
            closed_fields: None,
        });
    }
    variables.push(Variable {
        name: "repo",
        closed_fields: Some(REPO_FIELDS),
    });
    variables
}

/// `a.b.c` as segments, each an identifier (or a list index).
fn parse_path(text: &str) -> Option<Vec<String>> {
    let segments: Vec<String> = text.trim().split('.').map(str::to_string).collect();
    let identifier = |s: &str| {
        !s.is_empty()
            && (s.bytes().all(|b| b.is_ascii_digit())
                || (s
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                    && !s.as_bytes()[0].is_ascii_digit()))
    };
    segments.iter().all(|s| identifier(s)).then_some(segments)
}

/// Parses a `message` template; errors carry the byte range in the template.
pub(crate) fn parse_template(
    text: &str,
    variables: &[Variable],
) -> Result<Vec<Piece>, (Range<usize>, String)> {
    let mut pieces = Vec::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find("{{").map(|i| rest + i) {
        if open > rest {
            pieces.push(Piece::Text(text[rest..open].to_string()));
        }
        let Some(close) = text[open + 2..].find("}}").map(|i| open + 2 + i) else {
            return Err((
                open..open + 2,
                "`{{` opens a placeholder that no `}}` closes".to_string(),
            ));
        };
        let inner = &text[open + 2..close];
        let Some(path) = parse_path(inner) else {
            return Err((
                open..close + 2,
                format!("`{{{{{inner}}}}}` is not a dotted path such as {{{{tool.name}}}}"),
            ));
        };
        if !variables.iter().any(|v| v.name == path[0]) {
            let known: Vec<String> = variables.iter().map(|v| format!("`{}`", v.name)).collect();
            return Err((
                open..close + 2,
                format!(
                    "unknown variable `{}` in a placeholder (this rule can read {})",
                    path[0],
                    known.join(", ")
                ),
            ));
        }
        pieces.push(Piece::Path(path));
        rest = close + 2;
    }
    if rest < text.len() {
        pieces.push(Piece::Text(text[rest..].to_string()));
    }
    Ok(pieces)
}

/// The span in the file of `range` (bytes of `value`, the scalar's parsed text) when the scalar
/// is written at `node`: each character of the value is found in order in the source, so quotes,
/// escapes and a block scalar's indentation are stepped over.
fn locate_in_scalar(text: &str, node: &Node, value: &str, range: Range<usize>) -> Range<usize> {
    let raw = text.get(node.span.start..node.span.end).unwrap_or("");
    let mut map = Vec::with_capacity(value.len() + 1);
    let mut raw_chars = raw.char_indices();
    for (index, c) in value.char_indices() {
        let mut found = None;
        for (at, r) in raw_chars.by_ref() {
            if r == c {
                found = Some(at);
                break;
            }
        }
        let Some(at) = found else {
            // Not written verbatim (folded lines): the whole value.
            return node.span.start..node.span.end;
        };
        map.resize(index + c.len_utf8(), node.span.start + at);
    }
    let start = map
        .get(range.start)
        .copied()
        .unwrap_or(node.span.end.saturating_sub(1));
    // The expression parser's ranges are bytes and may end inside a character: its last
    // character is the one that holds the range's last byte.
    let mut last = range
        .end
        .saturating_sub(1)
        .max(range.start)
        .min(value.len());
    while !value.is_char_boundary(last) {
        last -= 1;
    }
    let end = map.get(last).map_or(start + 1, |at| {
        let width = value[last..].chars().next().map_or(1, char::len_utf8);
        at + width
    });
    start..end.max(start + 1).min(text.len().max(start + 1))
}

fn tests(file: &File<'_>, node: &Node, kind: Kind) -> Result<Vec<TestCase>, FileError> {
    let Some(items) = node.as_array() else {
        return Err(file.at_value(
            node,
            "`tests` must be a list of `fires:` and `clean:` cases",
        ));
    };
    let variables = variables_for(kind);
    let mut cases = Vec::new();
    for item in items {
        let members = item.as_object().unwrap_or_default();
        let [member] = members else {
            return Err(file.at_value(
                item,
                "each test is one `fires:` or `clean:` key with the variables it binds",
            ));
        };
        let fires = match member.key.as_str() {
            "fires" => true,
            "clean" => false,
            other => {
                return Err(file.at_key(
                    member,
                    format!("unknown test kind `{other}` (expected fires or clean)"),
                ))
            }
        };
        let Some(bound) = member.value.as_object() else {
            return Err(file.at_value(
                &member.value,
                format!(
                    "a test binds variables: a mapping such as {{{}: {{...}}}}",
                    kind.variable()
                ),
            ));
        };
        let mut case = TestCase {
            fires,
            variables: Vec::new(),
            largest: 0,
            longest: 0,
        };
        for variable in bound {
            if !variables.iter().any(|v| v.name == variable.key) {
                return Err(file.at_key(
                    variable,
                    format!("unknown variable `{}` in a test", variable.key),
                ));
            }
            let (value, largest) = super::entity::value_of(&variable.value);
            case.largest = case.largest.max(largest);
            case.longest = case.longest.max(super::entity::value_longest(&value));
            case.variables.push((variable.key.clone(), value));
        }
        cases.push(case);
    }
    Ok(cases)
}
