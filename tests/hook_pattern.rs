//! The pre-commit hooks run when a commit touches a file skilllint reads: the `files` pattern of
//! `.pre-commit-hooks.yaml` is the one `settings::hook_files_pattern` makes from the walk's names,
//! and it matches a path of every file kind `classify` gives (and nothing unrelated).

use skilllint::discover::classify;
use skilllint::model::plugin::Host;
use skilllint::model::tools::Telltale;
use skilllint::model::FileKind;
use std::path::Path;

/// The `files:` value of every hook in `.pre-commit-hooks.yaml`.
fn hook_patterns() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("files:"))
        .map(|value| value.trim().to_string())
        .collect()
}

/// Paths of `kind`, relative to a repository's root. A match without a wildcard arm: a new kind
/// does not compile until it has samples here.
fn samples(kind: FileKind) -> &'static [&'static str] {
    match kind {
        FileKind::Skill { misnamed: false } => &["SKILL.md", ".claude/skills/pdf/SKILL.md"],
        FileKind::Skill { misnamed: true } => &["skills/notes/skill.md", "x/Skill.MD"],
        FileKind::Tools { by_content: false } => &["tools.json", "server/github.tools.json"],
        FileKind::Tools { by_content: true } => &[
            "functions.json",
            "api/openai_tools.json",
            "pkg/__toolsnaps__/get_issue.snap",
            "__toolsnaps__/list.json",
        ],
        FileKind::Requirement => &["skills/pdf/requirement.yaml", "requirement.yml"],
        FileKind::Contract => &[".tools/fetch/TOOL.md", "repo/.tools/TOOL.md"],
        FileKind::Driver { cli: false } => &[".drivers/http/DRIVER.md", ".tools/fetch/DRIVER.md"],
        FileKind::Driver { cli: true } => &[".cli/gh/CLI.md"],
        FileKind::Secrets => &["SECRETS.md", "skills/pay/SECRETS.md"],
        FileKind::PluginManifest {
            host: Host::ClaudeCode,
        } => &[".claude-plugin/plugin.json"],
        FileKind::PluginManifest { host: Host::Codex } => &["plugins/x/.codex-plugin/plugin.json"],
        FileKind::PluginManifest { host: Host::Cursor } => &[".cursor-plugin/plugin.json"],
        FileKind::Marketplace {
            host: Host::ClaudeCode,
        } => &[".claude-plugin/marketplace.json"],
        FileKind::Marketplace { host: Host::Codex } => &[".agents/plugins/marketplace.json"],
        FileKind::Marketplace { host: Host::Cursor } => &[".cursor-plugin/marketplace.json"],
        FileKind::Hooks => &["hooks/hooks.json", "plugins/x/hooks.json"],
        FileKind::McpConfig => &[".mcp.json", "plugins/x/mcp.json"],
        FileKind::Command => &["commands/deploy.md", ".claude/commands/git/commit.md"],
        FileKind::Agent => &["agents/reviewer.md", "plugins/x/agents/sub/planner.md"],
        FileKind::Instructions => &["AGENTS.md", "pkg/CLAUDE.md"],
        FileKind::Prose => &["skills/pdf/references/forms.md", "CLAUDE.local.md"],
        FileKind::Lock => &["skilllint.lock", "servers/skilllint.lock"],
        FileKind::ToolsByShape(Telltale::Bundle) => {
            &["manifest.json", "mcpb/manifest.template.json"]
        }
        // Never a kind a name gives: what the walk makes of any other JSON file (read when it
        // holds MCP tools) and of a source file (read when it registers tools), and a path the
        // walker could not follow.
        FileKind::ToolsByShape(Telltale::Mcp) | FileKind::Source(_) | FileKind::Unfollowed => &[],
    }
}

/// Every kind `classify` can give.
fn every_kind() -> Vec<FileKind> {
    let mut kinds = vec![
        FileKind::Skill { misnamed: false },
        FileKind::Skill { misnamed: true },
        FileKind::Tools { by_content: false },
        FileKind::Tools { by_content: true },
        FileKind::ToolsByShape(Telltale::Bundle),
        FileKind::Requirement,
        FileKind::Contract,
        FileKind::Driver { cli: false },
        FileKind::Driver { cli: true },
        FileKind::Secrets,
        FileKind::Hooks,
        FileKind::McpConfig,
        FileKind::Command,
        FileKind::Agent,
        FileKind::Instructions,
        FileKind::Prose,
        FileKind::Lock,
    ];
    for host in Host::ALL {
        kinds.push(FileKind::PluginManifest { host });
        kinds.push(FileKind::Marketplace { host });
    }
    kinds
}

/// Each hook's pattern as the file has it, and the one the names make.
fn compiled() -> Vec<regex::Regex> {
    let mut patterns = hook_patterns();
    patterns.push(skilllint::settings::hook_files_pattern());
    patterns
        .iter()
        .map(|pattern| match regex::Regex::new(pattern) {
            Ok(regex) => regex,
            Err(error) => panic!("the hooks' pattern does not compile: {error}"),
        })
        .collect()
}

#[test]
fn every_hook_has_the_pattern_made_from_the_walks_names() {
    let made = skilllint::settings::hook_files_pattern();
    let patterns = hook_patterns();
    assert_eq!(patterns.len(), 2, "two hooks: {patterns:?}");
    for pattern in patterns {
        assert_eq!(
            pattern, made,
            "a hook's `files:` is not the pattern the walk's names make; write this in .pre-commit-hooks.yaml:\n  files: {made}"
        );
    }
}

#[test]
fn the_pattern_matches_a_path_of_every_file_kind_and_nothing_unrelated() {
    let patterns = compiled();
    assert_eq!(patterns.len(), 3, "two hooks and the pattern made");
    for pattern in &patterns {
        matches_every_kind_and_nothing_unrelated(pattern);
    }
}

fn matches_every_kind_and_nothing_unrelated(pattern: &regex::Regex) {
    let requirement_files = skilllint::LintOptions::default().requirement_files;
    for kind in every_kind() {
        let paths = samples(kind);
        assert!(!paths.is_empty(), "no sample of {kind:?}");
        for path in paths {
            assert_eq!(
                classify(path, &requirement_files),
                Some(kind),
                "{path} is no sample of {kind:?}"
            );
            assert!(pattern.is_match(path), "{kind:?}: {path} is not matched");
            let nested = format!("repo/{path}");
            assert!(
                pattern.is_match(&nested),
                "{kind:?}: {nested} is not matched"
            );
        }
    }
    // Any JSON file the walk meets may be an MCP tool list, read by its shape whatever its name.
    for path in [
        "testdata/toolsets-core-tools.json",
        "package.json",
        "plugin.json",
    ] {
        assert!(pattern.is_match(path), "{path} is not matched");
        assert_eq!(classify(path, &requirement_files), None, "{path}");
    }
    // Any source file the walk meets may register MCP tools, read when it names an SDK.
    for path in [
        "src/index.ts",
        "server.mjs",
        "app/page.tsx",
        "skills/pdf/scripts/fill.py",
        "lib/tools.cjs",
    ] {
        assert!(pattern.is_match(path), "{path} is not matched");
        assert_eq!(classify(path, &requirement_files), None, "{path}");
    }
    // The configuration and the policies decide what a run reports too.
    for path in [
        "skilllint.toml",
        "sub/.skilllint.toml",
        ".skilllint/policies/org.yaml",
        ".skilllint/policies/org.yml",
    ] {
        assert!(pattern.is_match(path), "{path} is not matched");
    }
    for path in [
        "src/x.rs",
        "README.md",
        "docs/guide.md",
        "Cargo.toml",
        "tools.json.bak",
        "skills/pdf/notes.md",
        "skills/pdf/scripts/fill.sh",
        ".github/workflows/ci.yml",
        "plugin.yaml",
        "xskilllint.toml",
        "mytools.jsonx",
    ] {
        assert!(!pattern.is_match(path), "{path} is matched");
        assert_eq!(classify(path, &requirement_files), None, "{path}");
    }
}
