//! The capability diff (`skilllint diff`) reviews a pull request the attacker wrote: it must see
//! whatever the new side's lint applied (inline suppressions in any spacing the grammar accepts,
//! a policy rule rewritten to pass, a configuration below the root that a lint of that folder
//! reads), count a file the new side cannot read as widening, and show the repository's names
//! and messages in its Markdown report as text, never as links, images or markup.

use super::common::{self, skilllint, stdout, write};
use serde_json::Value;
use std::path::Path;

/// Two sides of a change, `old/` and `new/`, each a repository root (discovery stops there).
struct Sides {
    dir: tempfile::TempDir,
}

impl Sides {
    fn new() -> Sides {
        let dir = tempfile::tempdir().expect("temp dir");
        for side in ["old", "new"] {
            std::fs::create_dir_all(dir.path().join(side).join(".git")).expect("git dir");
        }
        Sides { dir }
    }

    fn path(&self, rel: &str) -> std::path::PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes `content` at `rel` on both sides.
    fn both(&self, rel: &str, content: &[u8]) {
        write(&self.path("old"), rel, content);
        write(&self.path("new"), rel, content);
    }

    fn old(&self, rel: &str, content: &[u8]) {
        write(&self.path("old"), rel, content);
    }

    fn new_side(&self, rel: &str, content: &[u8]) {
        write(&self.path("new"), rel, content);
    }

    /// `skilllint diff --dirs old new` in `format`: exit code and output.
    fn diff(&self, format: &str) -> (Option<i32>, String) {
        let out = skilllint(
            &["diff", "--dirs", "old", "new", "--format", format],
            self.dir.path(),
        );
        (out.status.code(), stdout(&out))
    }

    fn json(&self) -> (Option<i32>, Value) {
        let (code, text) = self.diff("json");
        let report = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (code, report)
    }
}

/// The (kind, path) of every change of a list of the report.
fn kinds<'a>(report: &'a Value, list: &str) -> Vec<(&'a str, &'a str)> {
    report[list]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["kind"].as_str().unwrap_or(""),
                c["path"].as_str().unwrap_or(""),
            )
        })
        .collect()
}

/// The codes of a findings list of the report (`new`, `fixed`, `silenced`, `suppressed`).
fn codes<'a>(report: &'a Value, list: &str) -> Vec<&'a str> {
    report["findings"][list]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["code"].as_str())
        .collect()
}

/// A skill whose frontmatter holds an unknown field (SK008) on line 3, with `comment` after it.
fn skill_with_owner(comment: &str) -> Vec<u8> {
    format!(
        "---\nname: demo\nowner: ops{comment}\ndescription: Deploys the demo service. Use when asked to deploy.\n---\n\n# Demo\n\nRun the deploy.\n"
    )
    .into_bytes()
}

/// A git repository in a temporary folder, with a home of its own for git's configuration.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("home")).expect("home");
        std::fs::create_dir_all(dir.path().join("repo")).expect("repo");
        let scratch = Scratch { dir };
        scratch.git(&["init", "-q", "."]);
        scratch
    }

    fn repo(&self) -> std::path::PathBuf {
        self.dir.path().join("repo")
    }

    fn git(&self, args: &[&str]) {
        common::git(&self.repo(), &self.dir.path().join("home"), args, b"");
    }
}

#[test]
fn a_yaml_suppression_in_any_spacing_the_lint_accepts_is_seen_as_silencing() {
    for comment in [
        " # skilllint:  ignore[SK008]",
        " # skilllint:\tignore[SK008]",
        " # skilllint:\u{a0}ignore[SK008] a no-break space",
    ] {
        let sides = Sides::new();
        sides.old("demo/SKILL.md", &skill_with_owner(""));
        sides.new_side("demo/SKILL.md", &skill_with_owner(comment));
        // The lint itself honours the comment.
        let lint = skilllint(&["--format", "concise", "demo"], &sides.path("new"));
        assert!(!stdout(&lint).contains("SK008"), "{comment}: {lint:?}");
        let (code, report) = sides.json();
        assert_eq!(code, Some(1), "{comment}: {report:#}");
        assert_eq!(report["widens"], true, "{comment}: {report:#}");
        assert_eq!(
            kinds(&report, "silencing"),
            [("inline-suppression-added", "demo/SKILL.md")],
            "{comment}: {report:#}"
        );
        assert_eq!(codes(&report, "silenced"), ["SK008"], "{comment}");
        assert!(codes(&report, "fixed").is_empty(), "{comment}");
    }
}

#[test]
fn a_comment_that_only_quotes_the_syntax_is_no_suppression() {
    let sides = Sides::new();
    let skill = skill_with_owner("");
    sides.both("demo/SKILL.md", &skill);
    let mut quoting = skill.clone();
    quoting
        .extend_from_slice(b"\n```\n# skilllint: ignore[SK008] is how YAML silences a rule\n```\n");
    sides.new_side("demo/SKILL.md", &quoting);
    let (code, report) = sides.json();
    assert_eq!(code, Some(0), "{report:#}");
    assert!(kinds(&report, "silencing").is_empty(), "{report:#}");
}

#[test]
fn a_new_finding_suppressed_from_the_start_is_listed_as_such() {
    let sides = Sides::new();
    sides.both(
        "notes/SKILL.md",
        b"---\nname: notes\ndescription: Keeps notes. Use when asked to remember something.\n---\n\n# Notes\n\nBody.\n",
    );
    sides.new_side(
        "demo/SKILL.md",
        &skill_with_owner(" # skilllint: ignore[SK008] owners are tracked elsewhere"),
    );
    let (code, report) = sides.json();
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(codes(&report, "suppressed"), ["SK008"], "{report:#}");
    assert!(!codes(&report, "new").contains(&"SK008"), "{report:#}");
    let (_, full) = sides.diff("full");
    assert!(
        full.contains("New and silenced from the start by the new side (1):"),
        "{full}"
    );
    assert!(full.contains("1 new and silenced"), "{full}");
    let (_, markdown) = sides.diff("markdown");
    assert!(
        markdown.contains("1 new finding(s) silenced from the start by the new side"),
        "{markdown}"
    );
}

const POLICY: &str = "rules:
  - code: HOUSE001
    name: skills-name-an-owner-team
    severity: warning
    category: style
    summary: Every skill says which team owns it
    on: skill
    assert: 'has(skill.metadata) && has(skill.metadata.team)'
    message: 'skill `{{skill.name}}` names no owning team'
    at: skill.name
";

#[test]
fn a_policy_rewritten_to_always_pass_silences_rather_than_fixes() {
    let sides = Sides::new();
    sides.both(
        "skilllint.toml",
        b"[policies]\npaths = [\"policies/house.yaml\"]\n",
    );
    sides.both(
        "notes/SKILL.md",
        b"---\nname: notes\ndescription: Keeps notes. Use when asked to remember something.\n---\n\n# Notes\n\nBody.\n",
    );
    sides.old("policies/house.yaml", POLICY.as_bytes());
    sides.new_side(
        "policies/house.yaml",
        POLICY
            .replace(
                "'has(skill.metadata) && has(skill.metadata.team)'",
                "'true || has(skill.metadata)'",
            )
            .as_bytes(),
    );
    let (code, report) = sides.json();
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(
        kinds(&report, "silencing"),
        [("policy-changed", "policies/house.yaml")],
        "{report:#}"
    );
    assert_eq!(codes(&report, "silenced"), ["HOUSE001"], "{report:#}");
    assert!(codes(&report, "fixed").is_empty(), "{report:#}");
    // The message of a policy is no part of what it decides: rewording it silences nothing.
    let reworded = POLICY.replace("names no owning team", "has no owner");
    sides.new_side("policies/house.yaml", reworded.as_bytes());
    let (_, report) = sides.json();
    assert!(kinds(&report, "silencing").is_empty(), "{report:#}");
}

const LISTED: &str = r#"{"tools": [{"name": "list_items", "description": "List the items.", "inputSchema": {"type": "object", "properties": {}}}]}"#;

/// The old tools file and a new exec tool beside its tool.
const WITH_EXEC: &str = r#"{"tools": [{"name": "list_items", "description": "List the items.", "inputSchema": {"type": "object", "properties": {}}}, {"name": "run_shell", "description": "Run a shell command.", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}}]}"#;

#[test]
fn a_tools_file_the_new_side_cannot_read_widens() {
    let padded = {
        let mut text = WITH_EXEC.as_bytes().to_vec();
        text.resize(5 * 1024 * 1024, b' ');
        text
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "a comment",
            format!("// reviewed\n{WITH_EXEC}\n").into_bytes(),
        ),
        ("padding past the size cap", padded),
        (
            "invalid UTF-8",
            [WITH_EXEC.as_bytes(), b"\xff\xfe"].concat(),
        ),
        ("a NUL byte", [WITH_EXEC.as_bytes(), b"\0"].concat()),
        ("not a tool list", br#"{"tool": []}"#.to_vec()),
    ];
    for (what, text) in cases {
        let sides = Sides::new();
        sides.old("srv/tools.json", LISTED.as_bytes());
        sides.new_side("srv/tools.json", &text);
        let (code, report) = sides.json();
        assert_eq!(code, Some(1), "{what}: {report:#}");
        assert_eq!(report["widens"], true, "{what}");
        assert!(
            kinds(&report, "changes").contains(&("not-read", "srv/tools.json")),
            "{what}: {report:#}"
        );
        // A new file that cannot be read widens as well.
        let sides = Sides::new();
        sides.both("srv/tools.json", LISTED.as_bytes());
        sides.new_side("other/tools.json", &text);
        let (code, report) = sides.json();
        assert_eq!(code, Some(1), "{what}, new file: {report:#}");
        assert!(
            kinds(&report, "changes").contains(&("not-read", "other/tools.json")),
            "{what}, new file: {report:#}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_tools_file_linked_out_of_the_new_side_or_nowhere_widens() {
    for target in ["../../outside.json", "../missing.json"] {
        let sides = Sides::new();
        write(sides.dir.path(), "outside.json", WITH_EXEC.as_bytes());
        sides.old("srv/tools.json", LISTED.as_bytes());
        std::fs::create_dir_all(sides.path("new/srv")).expect("folder");
        std::os::unix::fs::symlink(target, sides.path("new/srv/tools.json")).expect("link");
        let (code, report) = sides.json();
        assert_eq!(code, Some(1), "{target}: {report:#}");
        assert!(
            kinds(&report, "changes").contains(&("not-read", "srv/tools.json")),
            "{target}: {report:#}"
        );
    }
}

#[test]
fn a_file_unreadable_on_both_sides_widens_only_when_its_text_changed() {
    let sides = Sides::new();
    let broken = format!("// reviewed\n{LISTED}\n");
    sides.both("srv/tools.json", broken.as_bytes());
    let (code, report) = sides.json();
    assert_eq!(code, Some(0), "{report:#}");
    sides.new_side(
        "srv/tools.json",
        format!("// reviewed\n{WITH_EXEC}\n").as_bytes(),
    );
    let (code, report) = sides.json();
    assert_eq!(code, Some(1), "{report:#}");
    assert!(
        kinds(&report, "changes").contains(&("not-read", "srv/tools.json")),
        "{report:#}"
    );
}

/// Names and text that Markdown or HTML would act on.
const HOSTILE: [&str; 7] = [
    "![pixel](https://evil.example/p.png)",
    "[click me](https://evil.example/login)",
    "<img src=x onerror=alert(1)>",
    "https://evil.example/bare",
    "www.evil.example",
    "ping @octocat and _emphasis_ ~~gone~~ $x$",
    "&lt;b&gt;entity&lt;/b&gt;",
];

fn hostile_tools() -> String {
    let tools: Vec<String> = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, text)| {
            serde_json::json!({
                "name": text,
                "description": format!("Delete record {i}. {text}"),
                "inputSchema": {"type": "object", "properties": {"command": {"type": "string", "description": text}}},
            })
            .to_string()
        })
        .collect();
    format!("{{\"tools\": [{}]}}\n", tools.join(", "))
}

/// What a Markdown reader makes of `markdown`: every link, image and piece of HTML that is not
/// the report's own (`<details>`, `<summary>`, `<br>`), and the text it shows.
fn rendered(markdown: &str) -> (Vec<String>, String) {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    options.insert(Options::ENABLE_MATH);
    let own = ["<details>", "<summary>", "</summary>", "</details>", "<br>"];
    let mut markup = Vec::new();
    let mut text = String::new();
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => markup.push(format!("link {dest_url}")),
            Event::Start(Tag::Image { dest_url, .. }) => markup.push(format!("image {dest_url}")),
            Event::Start(Tag::Emphasis) | Event::Start(Tag::Strong) => {
                markup.push("emphasis".to_string())
            }
            Event::Start(Tag::Strikethrough) => markup.push("strikethrough".to_string()),
            Event::InlineMath(m) | Event::DisplayMath(m) => markup.push(format!("math {m}")),
            Event::Html(html) | Event::InlineHtml(html) => {
                let mut rest = html.trim().to_string();
                for tag in own {
                    rest = rest.replace(tag, "");
                }
                // Our `<summary>` holds text: what is left must not be a tag.
                if rest.contains('<') {
                    markup.push(format!("html {html}"));
                }
                text.push_str(&html);
            }
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            _ => {}
        }
    }
    (markup, text)
}

#[test]
fn markdown_reports_show_repository_text_never_links_images_or_markup() {
    let sides = Sides::new();
    sides.old(
        "srv/tools.json",
        br#"{"tools": [{"name": "noop", "description": "Does nothing.", "inputSchema": {"type": "object"}}]}"#,
    );
    sides.new_side("srv/tools.json", hostile_tools().as_bytes());
    let (code, markdown) = sides.diff("markdown");
    assert_eq!(code, Some(1), "{markdown}");
    let tools = stdout(&skilllint(
        &["tools", "--format", "markdown"],
        &sides.path("new"),
    ));
    for (what, report) in [("diff", &markdown), ("tools", &tools)] {
        let (markup, text) = rendered(report);
        assert!(markup.is_empty(), "{what}: {markup:?}\n{report}");
        // Every name is shown, as the text it is.
        for name in HOSTILE {
            assert!(text.contains(name), "{what}: {name} not shown in {text}");
        }
        // GitHub makes a bare URL, address or mention live on its own: none reaches it whole.
        for live in ["https://", "www.evil", " @octocat"] {
            assert!(!report.contains(live), "{what}: {live} in {report}");
        }
    }
}

/// A skill with an exec tool and no Tool Use Rules (TR001, SC016…) under `agents/`.
fn agents(root: &Path) {
    write(
        root,
        "agents/deploy/SKILL.md",
        b"---\nname: deploy\ndescription: Deploys the service. Use when asked to deploy.\n---\n\n# Deploy\n\nRun the deploy.\n",
    );
    write(root, "agents/deploy/tools.json", WITH_EXEC.as_bytes());
}

#[test]
fn a_configuration_below_the_root_is_what_a_lint_of_its_folder_applies() {
    let sides = Sides::new();
    agents(&sides.path("old"));
    agents(&sides.path("new"));
    sides.both("skilllint.toml", b"[lint]\nfail-on = \"warning\"\n");
    // Both spellings, in a folder and deeper: the first name is the one a lint reads.
    sides.new_side(
        "agents/skilllint.toml",
        b"[lint]\nignore = [\"TR\", \"SC\"]\n",
    );
    sides.new_side(
        "agents/.skilllint.toml",
        b"# not read: skilllint.toml comes first\n",
    );
    let (code, report) = sides.json();
    assert_eq!(code, Some(1), "{report:#}");
    let silencing = kinds(&report, "silencing");
    assert!(
        silencing.contains(&("configuration-below-root", "agents/skilllint.toml")),
        "{report:#}"
    );
    assert!(
        silencing.contains(&("rules-disabled", "agents/skilllint.toml")),
        "{report:#}"
    );
    assert!(
        silencing.contains(&("fail-on-raised", "agents/skilllint.toml")),
        "{report:#}"
    );
    // The same configuration on both sides is no change; one that loosens nothing is none.
    sides.old(
        "agents/skilllint.toml",
        b"[lint]\nignore = [\"TR\", \"SC\"]\n",
    );
    let (code, report) = sides.json();
    assert_eq!(code, Some(0), "{report:#}");
    sides.new_side("agents/skilllint.toml", b"[lint]\nfail-on = \"warning\"\n");
    let (code, report) = sides.json();
    assert_eq!(code, Some(0), "stricter than before: {report:#}");
    // Removing a strict configuration below the root loosens what a lint there applies.
    std::fs::remove_file(sides.path("new/agents/skilllint.toml")).expect("remove");
    std::fs::remove_file(sides.path("new/agents/.skilllint.toml")).expect("remove");
    sides.old("agents/skilllint.toml", b"[lint]\nfail-on = \"info\"\n");
    let (code, report) = sides.json();
    assert_eq!(code, Some(1), "{report:#}");
    assert!(
        kinds(&report, "silencing")
            .contains(&("configuration-below-root", "agents/skilllint.toml")),
        "{report:#}"
    );
}

#[test]
fn a_configuration_below_the_root_of_a_revision_is_seen_in_its_tree() {
    let scratch = Scratch::new();
    let repo = scratch.repo();
    let git = |args: &[&str]| scratch.git(args);
    agents(&repo);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "base"]);
    write(
        &repo,
        "agents/deploy/skilllint.toml",
        b"[lint]\nignore = [\"ALL\"]\n",
    );
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "quiet"]);
    for args in [
        ["diff", "HEAD~1", "HEAD"].as_slice(),
        ["diff", "HEAD~1"].as_slice(),
    ] {
        let args = [args, &["--format", "json"]].concat();
        let out = skilllint(&args, &repo);
        let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {report:#}");
        assert!(
            kinds(&report, "silencing")
                .contains(&("configuration-below-root", "agents/deploy/skilllint.toml")),
            "{args:?}: {report:#}"
        );
    }
    // --isolated reads no configuration on either side, so none silences.
    let out = skilllint(&["diff", "HEAD~1", "HEAD", "--isolated"], &repo);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn a_new_tools_file_an_existing_exclude_hides_widens() {
    let sides = Sides::new();
    sides.both("skilllint.toml", b"[lint]\nexclude = [\"vendor/**\"]\n");
    sides.both("srv/tools.json", LISTED.as_bytes());
    sides.new_side("vendor/shell/tools.json", WITH_EXEC.as_bytes());
    let (code, report) = sides.json();
    assert_eq!(code, Some(1), "{report:#}");
    assert!(
        kinds(&report, "changes").contains(&("not-read", "vendor/shell/tools.json")),
        "{report:#}"
    );
    // Excluded on both sides: the review of the exclusion stands.
    sides.old("vendor/shell/tools.json", WITH_EXEC.as_bytes());
    let (code, report) = sides.json();
    assert_eq!(code, Some(0), "{report:#}");
}

#[test]
fn a_new_tools_file_an_existing_exclude_hides_in_a_revision_widens() {
    let scratch = Scratch::new();
    let repo = scratch.repo();
    let git = |args: &[&str]| scratch.git(args);
    write(
        &repo,
        "skilllint.toml",
        b"[lint]\nexclude = [\"vendor/**\"]\n",
    );
    write(&repo, "srv/tools.json", LISTED.as_bytes());
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "base"]);
    write(&repo, "vendor/shell/tools.json", WITH_EXEC.as_bytes());
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "vendor"]);
    // Two revisions (the second side made from the first's lint) and the work tree.
    for args in [
        ["diff", "HEAD~1", "HEAD"].as_slice(),
        ["diff", "HEAD~1"].as_slice(),
    ] {
        let args = [args, &["--format", "json"]].concat();
        let out = skilllint(&args, &repo);
        let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {report:#}");
        assert!(
            kinds(&report, "changes").contains(&("not-read", "vendor/shell/tools.json")),
            "{args:?}: {report:#}"
        );
    }
    let out = skilllint(&["diff", "HEAD", "--format", "json"], &repo);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[cfg(unix)]
#[test]
fn a_configuration_below_the_root_that_is_a_link_is_read_as_a_lint_reads_it() {
    let scratch = Scratch::new();
    let repo = scratch.repo();
    let git = |args: &[&str]| scratch.git(args);
    agents(&repo);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "base"]);
    // A link in the folder to a file beside it: a lint of `agents/` reads it.
    write(&repo, "agents/quiet.toml", b"[lint]\nignore = [\"ALL\"]\n");
    std::os::unix::fs::symlink("quiet.toml", repo.join("agents/skilllint.toml")).expect("link");
    let lint = skilllint(&["--format", "concise", "agents"], &repo);
    assert!(
        stdout(&lint).is_empty(),
        "the lint reads the link: {lint:?}"
    );
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "quiet"]);
    for args in [
        ["diff", "HEAD~1", "HEAD"].as_slice(),
        ["diff", "HEAD~1"].as_slice(),
    ] {
        let args = [args, &["--format", "json"]].concat();
        let out = skilllint(&args, &repo);
        let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {report:#}");
        assert!(
            kinds(&report, "silencing")
                .contains(&("configuration-below-root", "agents/skilllint.toml")),
            "{args:?}: {report:#}"
        );
    }
}

#[test]
fn no_line_of_a_diff_or_inventory_report_is_a_ci_command() {
    let sides = Sides::new();
    sides.old(
        "srv/tools.json",
        br#"{"tools": [{"name": "noop", "description": "::warning::old text", "inputSchema": {"type": "object"}}]}"#,
    );
    sides.new_side(
        "srv/tools.json",
        br###"{"tools": [{"name": "noop", "description": "::warning::new text", "inputSchema": {"type": "object"}}, {"name": "  ::error file=x::forged", "description": "Delete it.", "inputSchema": {"type": "object"}}, {"name": "##[error]forged", "description": "Read it.", "inputSchema": {"type": "object"}}]}"###,
    );
    let tools = |format: &str| {
        stdout(&skilllint(
            &["tools", "--format", format],
            &sides.path("new"),
        ))
    };
    for (what, report) in [
        ("diff full", sides.diff("full").1),
        ("diff markdown", sides.diff("markdown").1),
        ("tools full", tools("full")),
        ("tools markdown", tools("markdown")),
    ] {
        assert!(report.contains("forged"), "{what}: {report}");
        for line in report.lines() {
            let line = line.trim_start();
            assert!(
                !line.starts_with("::") && !line.starts_with("##["),
                "{what}: a CI runner obeys {line:?} in\n{report}"
            );
        }
    }
}

#[test]
fn a_configuration_below_the_root_with_policies_of_its_own_is_not_passed_over() {
    let sides = Sides::new();
    agents(&sides.path("old"));
    agents(&sides.path("new"));
    // Its own policy makes `HOUSE002` a rule a lint of `agents/` knows, and the configuration
    // valid there; the diff does not load it, and must not take the configuration as refused.
    sides.new_side(
        "agents/skilllint.toml",
        b"[lint]\nignore = [\"HOUSE002\", \"TR\", \"SC\"]\n\n[policies]\npaths = [\"house.yaml\"]\n",
    );
    sides.new_side(
        "agents/house.yaml",
        POLICY.replace("HOUSE001", "HOUSE002").as_bytes(),
    );
    let lint = skilllint(&["--format", "concise", "agents"], &sides.path("new"));
    assert_eq!(
        lint.status.code(),
        Some(0),
        "the lint there accepts it: {lint:?}"
    );
    let (code, report) = sides.json();
    assert_eq!(code, Some(1), "{report:#}");
    assert!(
        kinds(&report, "silencing")
            .contains(&("configuration-below-root", "agents/skilllint.toml")),
        "{report:#}"
    );
}
