//! What a path's name makes a file (a skill, a tool list, a plugin manifest…), and why a file
//! whose name skilllint reads is still left out once its text is known.

use crate::model::tools::Telltale;
use crate::model::FileKind;

/// The tool-surface lock's file name (`skilllint lock` writes it at the lint root).
pub const LOCK_FILE_NAME: &str = "skilllint.lock";

/// Classifies a file by its `/`-separated path (relative to the lint root, or as given): the name
/// decides, and for agentproto files also the folder they sit in (`.tools/`, `.drivers/`, `.cli/`).
pub fn classify(path: &str, requirement_files: &[String]) -> Option<FileKind> {
    let (folder, file_name) = crate::source::split_path(path);
    let mut folders = folder.split('/');
    match file_name {
        "SKILL.md" => Some(FileKind::Skill { misnamed: false }),
        // Another case of the name (`skill.md`, `Skill.md`, `SKILL.MD`): what an agent on a
        // case-insensitive file system (macOS, Windows) reads as the skill file.
        _ if file_name.eq_ignore_ascii_case("SKILL.md") => Some(FileKind::Skill { misnamed: true }),
        "tools.json" => Some(FileKind::Tools { by_content: false }),
        // A DXT / MCP Bundle manifest; the name is also a browser extension's and a web app's.
        "manifest.json" | "manifest.template.json" => {
            Some(FileKind::ToolsByShape(Telltale::Bundle))
        }
        "SECRETS.md" => Some(FileKind::Secrets),
        "TOOL.md" if folders.any(|f| f == ".tools") => Some(FileKind::Contract),
        // A builtin driver sits beside its TOOL.md.
        "DRIVER.md" if folders.any(|f| f == ".drivers" || f == ".tools") => {
            Some(FileKind::Driver { cli: false })
        }
        "CLI.md" if folders.any(|f| f == ".cli") => Some(FileKind::Driver { cli: true }),
        "AGENTS.md" | "CLAUDE.md" => Some(FileKind::Instructions),
        LOCK_FILE_NAME => Some(FileKind::Lock),
        _ if file_name.ends_with(".tools.json") => Some(FileKind::Tools { by_content: false }),
        _ if is_tool_list_name(folder, file_name) => Some(FileKind::Tools { by_content: true }),
        _ if requirement_files.iter().any(|r| r == file_name) => Some(FileKind::Requirement),
        _ => classify_plugin_file(folder, file_name),
    }
}

/// The paths [`classify`] reads, as regular expressions over a `/`-separated path, each matching
/// from the start of a path segment to the end of the path (`(^|/)(…)$` joins them): the
/// pre-commit hooks' `files` pattern is made of them (`settings::hook_files_pattern`). Kept in
/// step with [`classify`] by a test that matches a sample of every [`FileKind`]; written in the
/// syntax Python's `re` and Rust's `regex` share. `requirement_files` as for [`classify`].
pub fn name_patterns(requirement_files: &[String]) -> Vec<String> {
    use crate::model::plugin::Host;
    let mut patterns = vec![
        // `SKILL.md` in any case.
        r"[Ss][Kk][Ii][Ll][Ll]\.[Mm][Dd]".to_string(),
        r"([^/]*\.)?tools\.json".to_string(),
        r"SECRETS\.md".to_string(),
        r"\.tools/(.*/)?TOOL\.md".to_string(),
        r"\.(drivers|tools)/(.*/)?DRIVER\.md".to_string(),
        r"\.cli/(.*/)?CLI\.md".to_string(),
        format!(r"{TOOL_SNAPSHOT_DIR}/[^/]*\.(snap|json)"),
        regex_literal(LOCK_FILE_NAME),
    ];
    let names = TOOL_LIST_NAMES
        .iter()
        .copied()
        .chain(requirement_files.iter().map(String::as_str))
        .chain(["AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "hooks.json"]);
    patterns.extend(names.map(regex_literal));
    patterns.push(r"\.?mcp\.json".to_string());
    for host in Host::ALL {
        let folder = regex_literal(host.manifest_dir());
        patterns.push(format!(r"{folder}/plugin\.json"));
        if host != Host::Codex {
            patterns.push(format!(r"{folder}/marketplace\.json"));
        }
    }
    // Codex's marketplace is not in its manifest folder.
    patterns.push(r"\.agents/plugins/marketplace\.json".to_string());
    // Commands, agents and a skill's references: Markdown anywhere under those folders.
    patterns.push(r"(commands|agents|references)/(.*/)?[^/]*\.md".to_string());
    // Any other JSON file: a bundle manifest by its name, and an MCP tool list under any name,
    // which the walk reads by its shape.
    patterns.push(r"[^/]*\.json".to_string());
    // Source files, read for the tools they register.
    patterns.push(format!(
        r"[^/]*\.({})",
        crate::parse::code::EXTENSIONS.join("|")
    ));
    patterns
}

/// What a source file met by the walk is read as: the tools it registers, unless it is a test,
/// a fixture, a bundle or a vendored copy (test doubles register tools that are no product's,
/// and minified bundles repeat the source).
pub fn source_kind(rel_path: &str) -> Option<FileKind> {
    let (folder, file_name) = crate::source::split_path(rel_path);
    let skipped_folder = folder.split('/').any(|f| {
        matches!(
            f,
            "__tests__"
                | "__mocks__"
                | "__fixtures__"
                | "test"
                | "tests"
                | "testdata"
                | "fixtures"
                | "mocks"
                | "e2e"
                | ".storybook"
                | "dist"
                | "build"
                | "vendor"
                | "site-packages"
                | "__pycache__"
                | ".venv"
                | "venv"
                | "bower_components"
        )
    });
    // Storybook stories and fixture modules render a UI around sample tools.
    // Every marker is an inner extension: a name with one dot has none.
    let inner_extension = file_name.bytes().filter(|b| *b == b'.').count() > 1;
    let test_file = inner_extension
        && [
            ".test.",
            ".spec.",
            ".min.",
            ".bundle.",
            ".stories.",
            ".story.",
            ".fixture.",
            ".fixtures.",
            ".mock.",
            ".mocks.",
        ]
        .iter()
        .any(|m| file_name.contains(m))
        || (file_name.ends_with(".py")
            && (file_name.starts_with("test_") || file_name.ends_with("_test.py")))
        || file_name == "conftest.py";
    if skipped_folder || test_file {
        return None;
    }
    named_source_kind(rel_path)
}

/// What a source file named on the command line is read as, wherever it is.
pub(super) fn named_source_kind(rel_path: &str) -> Option<FileKind> {
    let (_, file_name) = crate::source::split_path(rel_path);
    crate::parse::code::Lang::of_file_name(file_name).map(FileKind::Source)
}

/// `text` matched as it is: every character a regular expression gives a meaning escaped.
pub fn regex_literal(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len() + 4);
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Names tool lists are committed under besides `tools.json`, read for their content: a file of
/// one of these names that holds no tools (a library's `functions.json`) is passed over in
/// silence.
pub const TOOL_LIST_NAMES: [&str; 11] = [
    "functions.json",
    "tools-list.json",
    "tools_list.json",
    "mcp-tools.json",
    "mcp_tools.json",
    "toolDefinitions.json",
    "tool-definitions.json",
    "tool_definitions.json",
    "anthropic_tools.json",
    "openai_tools.json",
    "openai_functions.json",
];

/// The folder MCP servers keep their tool-schema snapshot tests in: one tool as JSON per file.
pub const TOOL_SNAPSHOT_DIR: &str = "__toolsnaps__";

/// A file read for its content as a tool list: one of [`TOOL_LIST_NAMES`], or a `.snap` or
/// `.json` file directly under a `__toolsnaps__/` folder.
pub(super) fn is_tool_list_name(folder: &str, file_name: &str) -> bool {
    TOOL_LIST_NAMES.contains(&file_name)
        || (folder.rsplit('/').next() == Some(TOOL_SNAPSHOT_DIR)
            && (file_name.ends_with(".snap") || file_name.ends_with(".json")))
}

/// What a file no name rule claims is read as when `[tools] include` matches it or it is a JSON
/// file named on the command line: a tool list, if its content is one.
pub const BY_CONTENT: FileKind = FileKind::Tools { by_content: true };

/// What a JSON file no name rule or `[tools] include` claims is, when the walk or a listing meets
/// it as a regular file: a tool list if it holds MCP tools ([`Telltale::Mcp`]), else passed over.
pub(super) const ANY_JSON: FileKind = FileKind::ToolsByShape(Telltale::Mcp);

/// The plugin surface's files: manifests and marketplaces by the folder they sit in, hook and
/// MCP configurations by name, commands and agents as Markdown under `commands/` and `agents/`.
pub(super) fn classify_plugin_file(folder: &str, file_name: &str) -> Option<FileKind> {
    use crate::model::plugin::Host;
    let last = folder.rsplit('/').next().unwrap_or(folder);
    match file_name {
        "plugin.json" => Host::of_manifest_dir(last).map(|host| FileKind::PluginManifest { host }),
        "marketplace.json" => match Host::of_manifest_dir(last) {
            Some(Host::Codex) => None,
            Some(host) => Some(FileKind::Marketplace { host }),
            None if last == "plugins"
                && crate::source::parent_dir(folder).rsplit('/').next() == Some(".agents") =>
            {
                Some(FileKind::Marketplace { host: Host::Codex })
            }
            None => None,
        },
        "hooks.json" => Some(FileKind::Hooks),
        ".mcp.json" | "mcp.json" => Some(FileKind::McpConfig),
        _ if file_name.ends_with(".md") && is_instructions_file(file_name) => Some(FileKind::Prose),
        _ if file_name.ends_with(".md") && !is_project_doc(file_name) => {
            let mut kind = None;
            for segment in folder.split('/') {
                match segment {
                    "commands" => kind = Some(FileKind::Command),
                    "agents" => kind = Some(FileKind::Agent),
                    "references" if kind.is_none() => kind = Some(FileKind::Prose),
                    _ => {}
                }
            }
            kind
        }
        _ => None,
    }
}

/// The instruction files coding agents read at the start of a session in the folder they sit in.
pub(super) fn is_instructions_file(file_name: &str) -> bool {
    matches!(file_name, "AGENTS.md" | "CLAUDE.md" | "CLAUDE.local.md")
}

/// Markdown files of a folder that are about the folder, never a command or an agent.
pub(super) fn is_project_doc(file_name: &str) -> bool {
    let stem = &file_name[..file_name.len() - 3];
    [
        "README",
        "CHANGELOG",
        "LICENSE",
        "CONTRIBUTING",
        "AGENTS",
        "CLAUDE",
        "SKILL",
        "skill",
    ]
    .iter()
    .any(|d| stem.eq_ignore_ascii_case(d))
}
/// Why a file whose name skilllint reads is left out once its text is known, or `None` when it
/// is read. This completes [`classify`] for what discovery found:
/// - a SECRETS.md is an AIP-19 manifest only when it opens with YAML frontmatter: the name is
///   also common for a prose security checklist;
/// - a lowercase `skill.md` (or another case of `SKILL.md`, such as `Skill.md`) is a skill only
///   when its frontmatter has a top-level `name` or `description`: the name is also common for a
///   page about skills (a site's `docs/skill.md`), and a file without those keys is no skill to
///   any agent.
///   `SKILL.md` is always a skill, and an unclosed frontmatter block is read (SK002 says what is
///   wrong with it).
///
/// A file found by the walk is then left out silently, as any other file skilllint does not
/// read; one named on the command line gets the returned reason.
pub fn not_read_reason(kind: FileKind, text: &str) -> Option<&'static str> {
    use crate::parse::frontmatter::{opens, split, Split};
    match kind {
        FileKind::Secrets if !opens(text) => Some(PROSE_SECRETS_NOT_READ),
        // A Markdown file under `agents/` without frontmatter is a prompt or a note (a skill's
        // `agents/grader.md`), not a subagent, which always has frontmatter.
        FileKind::Agent if !opens(text) => Some(NOT_AN_AGENT),
        FileKind::Hooks if !crate::model::hooks::looks_like_hooks(text) => Some(NOT_HOOKS),
        FileKind::Source(lang) if !crate::parse::code::may_register_tools(lang, text) => {
            Some(NOT_SOURCE_TOOLS)
        }
        FileKind::McpConfig if !crate::model::mcp_config::looks_like_mcp_config(text) => {
            Some(NOT_AN_MCP_CONFIG)
        }
        FileKind::Tools { by_content: true } if !crate::model::tools::reads_as_tool_list(text) => {
            Some(NOT_A_TOOL_LIST)
        }
        FileKind::ToolsByShape(telltale)
            if !crate::model::tools::reads_as_shaped(telltale, text) =>
        {
            Some(match telltale {
                Telltale::Bundle => NOT_A_BUNDLE,
                Telltale::Mcp => NOT_A_TOOL_LIST,
            })
        }
        FileKind::Skill { misnamed: true } => match split(text) {
            Split::Missing => Some(NOT_A_LOWERCASE_SKILL),
            Split::Unterminated { .. } => None,
            Split::Found(frontmatter) => {
                let yaml = text.get(frontmatter.yaml.start..frontmatter.yaml.end)?;
                let names_a_skill = yaml.lines().any(|line| {
                    let key = line
                        .split_once(':')
                        .map(|(key, _)| key.trim_end().trim_matches(['"', '\'']));
                    // Top-level only: an indented `name:` belongs to a nested mapping.
                    !line.starts_with([' ', '\t']) && matches!(key, Some("name" | "description"))
                });
                (!names_a_skill).then_some(NOT_A_LOWERCASE_SKILL)
            }
        },
        _ => None,
    }
}

/// Why a file skilllint reads for its content, that holds what look like tools, is not read:
/// `None` when it is read, or when nothing in it looks like tools (it is passed over in silence,
/// as a file of no kind skilllint reads). What `skilllint tools` lists among the files it did not
/// read, so that tools are never dropped without a word.
pub fn unread_tools_note(kind: FileKind, text: &str) -> Option<&'static str> {
    let telltale = match kind {
        FileKind::Tools { by_content: true } => None,
        FileKind::ToolsByShape(telltale) => Some(telltale),
        _ => return None,
    };
    not_read_reason(kind, text)?;
    crate::model::tools::looks_like_tools(telltale, text).then_some(match telltale {
        None => UNREAD_TOOLS,
        Some(Telltale::Bundle) => UNREAD_BUNDLE_TOOLS,
        Some(Telltale::Mcp) => UNREAD_MCP_TOOLS,
    })
}

const UNREAD_TOOLS: &str = "holds what look like tools, but most of its entries are not named tools of a dialect skilllint reads (see `skilllint rule TJ002`)";

const UNREAD_BUNDLE_TOOLS: &str = "holds what look like tools, but a `manifest.json` is read as a tool list only when it has a `dxt_version` or `manifest_version` beside its `tools` array";

const UNREAD_MCP_TOOLS: &str = "holds what look like tools, but a JSON file of another name is read as a tool list only when most of its entries are MCP tools with an `inputSchema` object; add it to `[tools] include` to read it for its content";

/// How every reason a file is not read starts: a path named on the command line that gets one is
/// reported as SL004 (no file kind skilllint reads), not as SL001 (could not be read).
pub const NOT_READ_PREFIX: &str = "skilllint does not read this file:";

pub(super) const NOT_A_TOOL_LIST: &str = "skilllint does not read this file: it is not a file kind skilllint reads (a JSON file is read as a tool list when it holds tools of a known dialect: MCP, OpenAI, Anthropic, forge, script, Docker's catalogue, a `schema` + `command` manifest, or a catalogue of names and descriptions; see `skilllint rule TJ002`)";

pub(super) const NOT_A_BUNDLE: &str = "skilllint does not read this file: a `manifest.json` is read as a tool list only when it is a DXT / MCP Bundle manifest (a `dxt_version` or `manifest_version` beside a `tools` array of named tools)";

pub(super) const NOT_AN_AGENT: &str = "skilllint does not read this file: a Markdown file under `agents/` is read as a subagent only when it starts with YAML frontmatter (`---` on the first line)";

pub(super) const NOT_SOURCE_TOOLS: &str = "skilllint does not read this file: a source file is read for the tools it registers only when it imports an MCP SDK and calls a registration (`registerTool`, `server.tool`, `@mcp.tool`, `Tool(…)`)";

pub(super) const NOT_HOOKS: &str = "skilllint does not read this file: a `hooks.json` is read as a hook configuration only when it has a `hooks` key";

pub(super) const NOT_AN_MCP_CONFIG: &str = "skilllint does not read this file: an `mcp.json` is read as an MCP configuration only when it has an `mcpServers` or `servers` key";

pub const PROSE_SECRETS_NOT_READ: &str = "skilllint does not read this file: a SECRETS.md is read as an AIP-19 manifest only when it starts with YAML frontmatter (`---` on the first line)";

pub(super) const NOT_A_LOWERCASE_SKILL: &str = "skilllint does not read this file: a `skill.md` (or another case of `SKILL.md`) is read as a skill only when its frontmatter has a `name` or `description` (a `SKILL.md` always is)";

/// Why a file named on the command line is not read.
pub(super) const NOT_READ_WHEN_NAMED: &str = "skilllint does not read this file: it is not a file kind skilllint reads (SKILL.md, tool lists: tools.json, *.tools.json, functions.json, mcp-tools.json, __toolsnaps__/*.snap and any JSON file that holds tools, requirement.yaml, TOOL.md, DRIVER.md, CLI.md, SECRETS.md, plugin manifests and marketplaces, hooks.json, .mcp.json/mcp.json, commands/*.md and agents/*.md, AGENTS.md/CLAUDE.md, and Markdown under references/)";
