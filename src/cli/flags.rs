//! Command-line interface definitions.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// What `--help` says after the options: the rule categories, the files read, the exit codes.
const AFTER_HELP: &str = "\
Rule categories: correctness, safety and style run by default; pedantic runs when selected
(`--select pedantic` or `--select ALL`). `skilllint rules` lists every rule.

Files read: SKILL.md (and a skill.md with `name` or `description`); tools.json and *.tools.json;
requirement.yaml and requirement.yml; TOOL.md under .tools/; DRIVER.md under .drivers/ or beside a
TOOL.md; CLI.md under .cli/; SECRETS.md that starts with frontmatter. Configuration: skilllint.toml or .skilllint.toml.

Exit codes: 0 no finding at or above --fail-on (default: error); 1 some; 2 usage, configuration or
internal error (bad flag, unreadable config, no such path).";

#[derive(Debug, Parser)]
#[command(
    name = "skilllint",
    version,
    about = "Lint AI-agent skills and the tool contracts behind them",
    long_about = "Lint AI-agent skills (SKILL.md) and the tool contracts behind them (tools.json, \
requirement.yaml). Paths default to the current folder; `skilllint rule CODE|NAME` explains a rule.",
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub lint: LintArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint files and folders: the same as `skilllint [PATH]...`, with the same options (ruff's
    /// `check`).
    #[command(after_help = AFTER_HELP)]
    Check(LintArgs),
    /// List every rule (with the policy rules found as a lint run finds them).
    Rules {
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
        #[command(flatten)]
        policies: PolicyArgs,
    },
    /// Explain one rule, named by code or by name: what it checks, why, an example, and the fix.
    Rule {
        /// A rule code (TJ003) or name (write-tool-without-confirmation), in any case.
        #[arg(value_name = "CODE|NAME")]
        code: String,
        #[command(flatten)]
        policies: PolicyArgs,
    },
    /// Organisation policies (rules written in YAML; see docs/policies.md).
    Policy {
        #[command(subcommand)]
        command: PolicyCommand,
    },
    /// Print a completion script for SHELL on standard output, e.g.
    /// `skilllint generate-shell-completion bash > ~/.local/share/bash-completion/completions/skilllint`.
    GenerateShellCompletion {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// The repository's capability inventory: every tool with its effect (read, write,
    /// destructive), capabilities (exec, financial, credential, access, sends), the evidence for them,
    /// and the gates in front of it. Lints nothing; exits 0 (2 on a bad path or configuration).
    Tools(ToolsArgs),
    /// Pin the tool surface: write `skilllint.lock` at the folder's root with every tool read
    /// (its file, name, effect, capabilities, gates, and SHA-256 fingerprints of its description
    /// and input schema). A lint there then reports each tool that drifted from it (LK001-LK003).
    Lock(LockArgs),
    /// What a change does to the agent's capabilities: two git revisions (or a revision and the
    /// work tree, or two folders) linted and their inventories compared (configuration that
    /// silences the linter; tools added, removed, renamed; widened effects, new capabilities,
    /// dropped gates, widened schemas, new pre-approvals, changed descriptions; new and fixed
    /// findings). Exit 1 when a change widens, else 0.
    #[command(after_long_help = DIFF_HELP)]
    Diff(DiffArgs),
    /// Run the language server over standard input and output (for editors).
    Server {
        /// Accepted and ignored: standard input and output is the only transport. Some clients
        /// add the flag to every server they start.
        #[arg(long, hide = true)]
        stdio: bool,
    },
}

#[derive(Debug, clap::Args)]
pub struct ToolsArgs {
    /// Files or folders to read [default: the current folder].
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = InventoryFormat::Full)]
    pub format: InventoryFormat,

    /// Write the inventory to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub read: ReadArgs,
}

#[derive(Debug, clap::Args)]
pub struct LockArgs {
    /// The folder whose tools to pin [default: the current folder].
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: PathBuf,

    #[command(flatten)]
    pub read: ReadArgs,
}

/// How `tools` and `lock` find what a lint there would read: the configuration and the threads.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    /// Use this configuration file instead of searching for skilllint.toml / .skilllint.toml.
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,

    /// Ignore every configuration file.
    #[arg(long)]
    pub isolated: bool,

    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

const DIFF_HELP: &str = "\
Examples:
  skilllint diff main                  the work tree against the branch `main`
  skilllint diff origin/main HEAD      the last commit against the remote branch
  skilllint diff v1.2.0 v1.3.0 -C ../server --format markdown
  skilllint diff --dirs old/ new/      two folders

Each side is linted with its own configuration: a revision with the skilllint.toml, excludes and
.skilllint/policies/ committed in it, the work tree with the files on disk. Revisions are read
from the repository's objects without running git: no hook, filter, textconv, fsmonitor or pager
the repository configures runs, nothing is checked out and nothing under .git is written. In a
shallow clone (actions/checkout fetches one commit by default) the base may be missing: fetch it
(`git fetch --deepen=100`, or `fetch-depth: 0` in the checkout step).";

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The revision before the change: a branch, tag or commit, or any revision git reads
    /// (`main`, `HEAD~1`, `origin/main`, a SHA).
    #[arg(
        value_name = "BASE",
        required_unless_present = "dirs",
        conflicts_with = "dirs"
    )]
    pub base: Option<String>,

    /// The revision after the change [default: the work tree, the files on disk as a lint reads
    /// them].
    #[arg(value_name = "HEAD")]
    pub head: Option<String>,

    /// The git repository to read: the one holding PATH, found upwards as git finds it (a bare
    /// repository's folder too) [default: the current folder]. Both sides cover the whole
    /// repository.
    #[arg(
        short = 'C',
        long = "repo",
        value_name = "PATH",
        conflicts_with = "dirs"
    )]
    pub repo: Option<PathBuf>,

    /// Compare two folders instead of revisions: the folder before the change and the folder
    /// after it, each read with its own configuration.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"])]
    pub dirs: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = InventoryFormat::Full)]
    pub format: InventoryFormat,

    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Exit 0 even when a change widens what the agent can do (usage errors still exit 2).
    #[arg(long)]
    pub exit_zero: bool,

    /// Ignore every configuration file on both sides.
    #[arg(long)]
    pub isolated: bool,

    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InventoryFormat {
    /// A table with each tool's gates and evidence below it.
    Full,
    /// A versioned JSON document (tools-v1, docs/tools-v1.schema.json).
    Json,
    /// A markdown table, for a pull request comment or a job summary.
    Markdown,
}

#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Run every policy rule's inline tests: one PASS or FAIL line per case; exit 1 on a failure.
    Test {
        /// Policy files or folders to test [default: the policies a lint run here would load].
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        policies: PolicyArgs,
    },
}

/// Where policies are found besides `.skilllint/policies/` and the config's `[policies] paths`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PolicyArgs {
    /// A policy file or folder of policy files to load as well (repeatable).
    #[arg(long = "policies", value_name = "PATH")]
    pub policies: Vec<PathBuf>,

    /// Use this configuration file instead of searching for skilllint.toml / .skilllint.toml.
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,

    /// Ignore every configuration file and `.skilllint/policies/` (`--policies` still counts).
    #[arg(long)]
    pub isolated: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Table,
    Json,
    /// The full reference, as published in docs/rules.md.
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Source snippets with labels and help (default).
    Full,
    /// One line per finding: path:line:col: severity CODE [name] message.
    Concise,
    /// A versioned JSON array of findings (json-v1).
    #[value(alias = "json-v1")]
    Json,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// SARIF 2.1.0 for GitHub code scanning.
    Sarif,
    /// A GitLab Code Quality report (JSON) for merge requests.
    Gitlab,
    /// JUnit XML, which CI systems show as test results.
    Junit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Debug, clap::Args)]
pub struct LintArgs {
    /// Files or folders to lint.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(
        long,
        visible_alias = "output-format",
        env = "SKILLLINT_FORMAT",
        value_enum,
        default_value_t = OutputFormat::Full
    )]
    pub format: OutputFormat,

    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE", env = "SKILLLINT_OUTPUT")]
    pub output: Option<PathBuf>,

    /// Rules to run: codes, code prefixes, names, categories or ALL (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Vec<String>,

    /// Rules to skip (same forms as --select); wins over --select.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,

    /// Files to skip (globs relative to the current folder); adds to the config's `exclude`.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// Lowest severity that makes the exit code 1 [default: error, or the config's `fail-on`].
    #[arg(long, value_enum, env = "SKILLLINT_FAIL_ON")]
    pub fail_on: Option<FailOn>,

    /// A configuration file to use instead of searching for skilllint.toml / .skilllint.toml,
    /// or a `KEY=VALUE` TOML setting that overrides the file's (`--config 'lint.select=["TJ"]'`;
    /// repeatable).
    #[arg(long, value_name = "FILE|KEY=VALUE", env = "SKILLLINT_CONFIG")]
    pub config: Vec<String>,

    /// Ignore every configuration file and `.skilllint/policies/` (`--policies` still counts).
    #[arg(long)]
    pub isolated: bool,

    /// A policy file or folder of policy files to load as well (repeatable).
    #[arg(long = "policies", value_name = "PATH")]
    pub policies: Vec<PathBuf>,

    /// Apply safe fixes, then report what remains.
    #[arg(long)]
    pub fix: bool,

    /// Also apply unsafe fixes (with --fix or --diff).
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print the fixes as a unified diff and write nothing (exit 1 when there is a diff, unless
    /// --exit-zero).
    #[arg(long, conflicts_with = "fix")]
    pub diff: bool,

    /// Disregard inline suppression comments (`skilllint-disable…`, `# skilllint: ignore[…]`).
    #[arg(long)]
    pub no_inline_ignores: bool,

    /// Exit 0 even when there are findings (usage errors still exit 2).
    #[arg(long)]
    pub exit_zero: bool,

    /// When to use colour in the full report.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Files larger than SIZE are reported (SL001), not read: bytes, or with a unit (512KiB,
    /// 8MiB, 4MB) [default: 4MiB, or the config's `max-file-size`].
    #[arg(long, value_name = "SIZE", value_parser = parse_max_file_size)]
    pub max_file_size: Option<u64>,

    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", env = "SKILLLINT_THREADS")]
    pub threads: Option<usize>,

    /// Print the findings and nothing else: no summary, warning or note on standard error
    /// (errors still are).
    #[arg(short, long)]
    pub quiet: bool,

    /// Print nothing at all, the exit code says the outcome (errors are still said on standard
    /// error); a report still goes to `-o FILE`.
    #[arg(
        short,
        long,
        conflicts_with_all = ["quiet", "show_settings", "show_files", "show_fixes"]
    )]
    pub silent: bool,

    /// Rules to run besides the selection (the config's, or the default); same forms as
    /// --select.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub extend_select: Vec<String>,

    /// Hide the findings recorded in this baseline file [default: the config's `baseline`].
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,

    /// Record every current finding in FILE (keeping the notes of entries that still match,
    /// dropping stale ones), then exit 0.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fix", "diff", "add_noqa"])]
    pub write_baseline: Option<PathBuf>,

    /// Add an inline suppression comment for every current finding (findings in JSON files go
    /// to the baseline, which cannot be commented), then exit 0.
    #[arg(long, conflicts_with_all = ["fix", "diff"])]
    pub add_noqa: bool,

    /// Print the number of findings of each rule instead of the findings.
    #[arg(long)]
    pub statistics: bool,

    /// Print the settings the run would use (configuration file, rules, globs), then exit.
    #[arg(long)]
    pub show_settings: bool,

    /// Print the files the run reads, one a line, then exit.
    #[arg(long)]
    pub show_files: bool,

    /// List the fixes applied (with --fix) or available, by file and rule.
    #[arg(long)]
    pub show_fixes: bool,

    /// With --fix, exit 1 when a fix was applied, even if nothing is left to report.
    #[arg(long)]
    pub exit_non_zero_on_fix: bool,

    /// The path standard input stands for when `-` is given as PATH: it is linted (and
    /// reported) under that name, with its folder's other files read from disk.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,

    /// Apply `exclude` (config and --exclude) to the paths named on the command line too, as
    /// pre-commit and editors need; without it a named path is linted even when excluded.
    #[arg(long)]
    pub force_exclude: bool,
}

impl LintArgs {
    /// Whether the run says more than its findings (the summary, warnings and notes on standard
    /// error): not under `--quiet` or `--silent`.
    pub fn says_more(&self) -> bool {
        !self.quiet && !self.silent
    }

    /// Whether the report (or the diff, or the statistics) is written: always to `-o FILE`, to
    /// standard output unless `--silent`.
    pub fn writes_report(&self) -> bool {
        self.output.is_some() || !self.silent
    }
}

fn parse_max_file_size(text: &str) -> Result<u64, String> {
    skilllint::config::parse_size(text)
}
