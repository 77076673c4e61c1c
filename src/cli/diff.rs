//! `skilllint diff`: two sides (folders, revisions, or a revision and the work tree), each
//! linted and inventoried with its own configuration, compared.

use super::flags;
use super::output::emit;
use super::terminal::{self, report_config_error, report_setup_error};
use super::{EXIT_FINDINGS, EXIT_USAGE};
use crate::cli::flags::ColorChoice;
use skilllint::escape::{display_path, escape_text};
use skilllint::settings::SetupError;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A folder side of `skilllint diff` (`--dirs`, or the work tree): the folder linted and inventoried with its own
/// configuration (none when `isolated`). A bad configuration is reported here; the caller exits 2.
pub(crate) fn load_folder_side(
    dir: &Path,
    isolated: bool,
    threads: Option<usize>,
) -> Option<skilllint::diff::side::Side> {
    use skilllint::diff::side;
    let (options, config) =
        match skilllint::settings::for_paths(&[dir.to_path_buf()], None, isolated, threads) {
            Ok(loaded) => loaded,
            Err(error) => {
                report_setup_error(&error, ColorChoice::Auto);
                return None;
            }
        };
    let cap = skilllint::settings::DEFAULT_MAX_FILE_SIZE;
    let facts = match side::SideConfig::from_disk(&config, dir, options.catalog(), cap) {
        Ok(facts) => facts,
        Err(error) => {
            report_setup_error(&SetupError::Config(error), ColorChoice::Auto);
            return None;
        }
    };
    match side::folder(&options, facts) {
        Ok(side) => Some(side),
        Err(error) => {
            terminal::error(&escape_text(&error.to_string()));
            None
        }
    }
}

/// `skilllint diff --dirs OLD NEW`: each side's inventory with that side's own configuration,
/// compared. Exit 1 when a change widens what the agent can do (0 with `--exit-zero`), else 0;
/// 2 on a bad path or configuration.
pub(crate) fn run_diff(args: &flags::DiffArgs) -> ExitCode {
    let history;
    let (old, new) = if let Some(base) = &args.base {
        history = match skilllint::history::Repository::discover(
            args.repo.as_deref().unwrap_or(Path::new(".")),
            args.repo.is_some(),
        ) {
            Ok(history) => history,
            Err(error) => return history_error(&error),
        };
        if let Some(folder) = history.passed_over() {
            terminal::warning(&format!(
                "{} is laid out as a bare git repository inside a work tree; it is not read as \
                 the repository (the work tree's own .git is). Name it with --repo to read it",
                display_path(folder)
            ));
        }
        match revision_sides(&history, base, args.head.as_deref()) {
            Ok(sides) => sides,
            Err(error) => return history_error(&error),
        }
    } else {
        let [old, new] = args.dirs.as_slice() else {
            terminal::error("--dirs takes two folders: OLD NEW");
            return ExitCode::from(EXIT_USAGE);
        };
        for dir in [old, new] {
            if !dir.is_dir() {
                terminal::error(&format!("not a folder: {}", display_path(dir)));
                return ExitCode::from(EXIT_USAGE);
            }
        }
        (DiffSide::Folder(old.clone()), DiffSide::Folder(new.clone()))
    };
    // Two revisions that share their configuration: the second side is made from the first's
    // lint where only some files changed; whatever that cannot do is linted afresh below.
    let (old_built, new_built) = match (&old, &new) {
        (DiffSide::Revision(history, base), DiffSide::Revision(_, head)) => {
            history.sides(base, head, args.isolated, args.threads)
        }
        _ => (None, None),
    };
    let (Some(old_side), Some(new_side)) = (
        old_built.or_else(|| load_side(&old, args.isolated, args.threads)),
        new_built.or_else(|| load_side(&new, args.isolated, args.threads)),
    ) else {
        return ExitCode::from(EXIT_USAGE);
    };
    // The configurations below each side's root: a lint of their folder reads them (none are
    // read with --isolated, as no configuration is).
    let (mut old_side, mut new_side) = (old_side, new_side);
    if !args.isolated {
        for (side, built) in [(&old, &mut old_side), (&new, &mut new_side)] {
            built.nested = match side {
                DiffSide::Folder(dir) | DiffSide::WorkTree(dir) => {
                    skilllint::diff::side::nested_configs_on_disk(dir)
                }
                DiffSide::Revision(history, revision) => match history.nested_configs(revision) {
                    Ok(nested) => nested,
                    Err(error) => return history_error(&error),
                },
            };
        }
    }
    // The rules that read the disk do not run on a revision: their findings on the other side
    // would read as fixed or new.
    let (old_side, new_side) = if args.base.is_some() {
        let disk_only = skilllint::history::DISK_ONLY_RULES;
        (
            old_side.without_rules(disk_only),
            new_side.without_rules(disk_only),
        )
    } else {
        (old_side, new_side)
    };
    let mut diff = skilllint::diff::diff_sides(&old_side, &new_side);
    if args.base.is_some() {
        diff.revisions = Some(skilllint::diff::Revisions {
            base: old.revision_side(),
            head: new.revision_side(),
        });
    }
    let text = match args.format {
        flags::InventoryFormat::Full => skilllint::diff::render::diff_full(&diff),
        flags::InventoryFormat::Json => skilllint::diff::render::diff_json(&diff),
        flags::InventoryFormat::Markdown => skilllint::diff::render::diff_markdown(&diff),
    };
    let code = if diff.widens() && !args.exit_zero {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::SUCCESS
    };
    emit(args.output.as_deref(), &text, code)
}

/// One side of a diff: a folder read as a lint reads it, or a git revision read from the
/// repository's objects.
pub(crate) enum DiffSide<'a> {
    Folder(PathBuf),
    /// The work tree of a repository: its folder, read as a lint reads it.
    WorkTree(PathBuf),
    Revision(
        &'a skilllint::history::Repository,
        skilllint::history::Revision,
    ),
}

impl DiffSide<'_> {
    fn revision_side(&self) -> skilllint::diff::RevisionSide {
        match self {
            DiffSide::Folder(_) | DiffSide::WorkTree(_) => skilllint::diff::RevisionSide {
                name: None,
                commit: None,
            },
            DiffSide::Revision(_, revision) => skilllint::diff::RevisionSide {
                name: Some(revision.name.clone()),
                commit: revision.commit.clone(),
            },
        }
    }
}

/// BASE, and HEAD or else the work tree (a bare repository has none: HEAD must be named).
pub(crate) fn revision_sides<'a>(
    history: &'a skilllint::history::Repository,
    base: &str,
    head: Option<&str>,
) -> Result<(DiffSide<'a>, DiffSide<'a>), skilllint::history::Error> {
    let base = DiffSide::Revision(history, history.revision(base)?);
    let head = match head {
        Some(head) => DiffSide::Revision(history, history.revision(head)?),
        None => match history.work_tree() {
            Some(dir) => DiffSide::WorkTree(dir.to_path_buf()),
            None => {
                return Err(skilllint::history::Error::Open(
                    "the repository is bare: it has no work tree to compare with; name the \
                     revision after the change too (skilllint diff BASE HEAD)"
                        .to_string(),
                ))
            }
        },
    };
    Ok((base, head))
}

/// One side of a diff, linted and inventoried with that side's own configuration (none when
/// `isolated`). A bad configuration or an unreadable revision is reported here; the caller
/// exits 2.
pub(crate) fn load_side(
    side: &DiffSide<'_>,
    isolated: bool,
    threads: Option<usize>,
) -> Option<skilllint::diff::side::Side> {
    match side {
        DiffSide::Folder(dir) | DiffSide::WorkTree(dir) => load_folder_side(dir, isolated, threads),
        DiffSide::Revision(history, revision) => match history.side(revision, isolated, threads) {
            Ok(side) => Some(side),
            Err(error) => {
                history_error(&error);
                None
            }
        },
    }
}

/// Reports why a revision could not be read; exit 2.
pub(crate) fn history_error(error: &skilllint::history::Error) -> ExitCode {
    use skilllint::history::Error;
    match error {
        Error::Config(error) => report_config_error(error, ColorChoice::Auto),
        Error::Policy(error) => {
            report_setup_error(&SetupError::Policy(error.clone()), ColorChoice::Auto)
        }
        Error::Open(message) | Error::Revision(message) | Error::Read(message) => {
            terminal::error(message);
        }
    }
    ExitCode::from(EXIT_USAGE)
}
