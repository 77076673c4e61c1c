//! `path:line:col: severity CODE [name] message`, one line per diagnostic.

use super::Positions;
use crate::diagnostic::Diagnostic;
use crate::index::Repo;
use crate::rules::registry;
use std::fmt::Write as _;

pub fn render(repo: &Repo, diagnostics: &[Diagnostic]) -> String {
    let positions = Positions::new(repo, diagnostics);
    let registry = registry();
    let mut out = String::new();
    for d in diagnostics {
        let start = positions.start(d.primary.file, d.primary.span);
        let name = registry.meta(d.code).map_or("", |m| m.name.as_str());
        let _ = writeln!(
            out,
            "{}:{}:{}: {} {} [{}] {}",
            repo.file(d.primary.file).rel_path,
            start.line,
            start.column,
            d.severity,
            d.code,
            name,
            d.message
        );
    }
    out
}
