//! How the inventory drives the engine: each unit's rows are made through the engine's unit
//! hook, over the parse and facts the unit's rules used (no second parse), either with no rule
//! running (`skilllint tools`) or beside a lint (each side of `skilllint diff`).

use super::{unit_inventory, Inventory, Row, Unread};
use crate::engine::{Files, LintError, LintOutcome, Session};
use crate::settings::LintOptions;

/// One unit's part of the capability inventory: its tools' rows, and its tools files that did
/// not parse.
pub(crate) type UnitRows = (Vec<Row>, Vec<Unread>);

/// A lint kept for edits with each unit's inventory rows beside its findings.
pub(crate) type InventorySession = Session<UnitRows>;

/// The repository's capability inventory (`skilllint tools`): discovery, reading and the index
/// as a lint has them, then every unit's tools with their effect, capabilities and gates. No
/// rule runs.
pub fn inventory(options: &LintOptions) -> Result<Inventory, LintError> {
    let indexed = crate::engine::index_each_unit(options, unit_inventory)?;
    let mut inventory = Inventory::new(
        &indexed.repo,
        indexed.per_unit,
        &indexed.read_problems,
        indexed.root,
    );
    inventory
        .unread
        .extend(indexed.unread_tools.into_iter().map(|(path, note)| Unread {
            path,
            message: note.to_string(),
            digest: None,
        }));
    inventory.unread.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(inventory)
}

/// A lint and the capability inventory of the same files (`skilllint diff`, which needs both
/// of each side): the files are read, indexed and parsed once, each unit's rows made right after
/// its rules ran, over the same parse and facts. The baseline of the options is applied as
/// [`crate::lint`] applies it.
pub(crate) fn lint_with_inventory(
    options: &LintOptions,
    files: Files<'_>,
) -> Result<(LintOutcome, Inventory), LintError> {
    let run = crate::engine::lint_each_unit(options, files, unit_inventory)?;
    let inventory = Inventory::new(
        &run.outcome.repo,
        run.per_unit,
        &run.read_problems,
        run.outcome.root.clone(),
    );
    Ok((run.outcome, inventory))
}

/// Lints and inventories as [`lint_with_inventory`] does (its baseline applied), keeping what
/// later edits need, each unit's rows included: a diff builds its second side from its first
/// this way when only some texts differ.
pub(crate) fn session(
    options: &LintOptions,
    files: Files<'_>,
) -> Result<InventorySession, LintError> {
    Session::with_hook(options, files, unit_inventory)
}

/// The capability inventory of the session's files as they stand.
pub(crate) fn of_session(session: &InventorySession) -> Option<Inventory> {
    let rows = session.per_unit()?.to_vec();
    Some(inventory_of(session, rows))
}

/// [`of_session`] for the last time: the kept rows move into it (no copy of them at the peak),
/// and the session keeps no inventory after.
pub(crate) fn take_from_session(session: &mut InventorySession) -> Option<Inventory> {
    let rows = session.take_per_unit()?;
    Some(inventory_of(session, rows))
}

fn inventory_of(session: &InventorySession, rows: Vec<UnitRows>) -> Inventory {
    let outcome = session.outcome();
    Inventory::new(
        &outcome.repo,
        rows,
        session.read_problems(),
        outcome.root.clone(),
    )
}
