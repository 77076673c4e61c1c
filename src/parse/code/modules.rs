//! Modules a TypeScript or JavaScript file imports by relative path (`./tools/index.js`), read
//! with it: a tool object, a description or a schema the file takes from a sibling module is
//! read there, one import deep (and one more through a module that re-exports it).
//!
//! The imported modules' text is appended to the file's, after a separator, and the whole is
//! parsed as one: their top-level constants join the file's, without ever hiding one of the
//! file's own (a name the file declares is the file's; a name two modules declare is read in
//! neither). Only the file's own registrations count, and what is read from a module points at
//! the registration that uses it.

use super::{CodeDoc, Context};
use crate::source::Span;

/// At most this much imported text is read with one file.
const MAX_IMPORTED: usize = 2 * 1024 * 1024;

/// The relative module specifiers a file names (`from "./x.js"`, `require("../y")`,
/// `import("./z")`), by a byte search.
pub fn relative_specifiers(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for opener in ["from ", "require(", "import("] {
        for at in memchr::memmem::find_iter(text.as_bytes(), opener.as_bytes()) {
            let rest = text.get(at + opener.len()..).unwrap_or("");
            let rest = rest.trim_start_matches(' ');
            let Some(quote) = rest.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
                continue;
            };
            let inner = &rest[1..];
            let Some(end) = inner.find(quote) else {
                continue;
            };
            let specifier = &inner[..end];
            if (specifier.starts_with("./") || specifier.starts_with("../"))
                && !specifier.contains('\n')
            {
                out.push(specifier);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The file a relative specifier of the file at `rel_path` names, among `exists`: the path as
/// written, with a TypeScript extension for a `.js` one (`./x.js` is `./x.ts` before it is
/// compiled), with an extension added, or the folder's `index`.
pub fn resolve_specifier(
    rel_path: &str,
    specifier: &str,
    exists: impl Fn(&str) -> bool,
) -> Option<String> {
    let folder = rel_path.rsplit_once('/').map_or("", |(folder, _)| folder);
    let mut parts: Vec<&str> = folder.split('/').filter(|p| !p.is_empty()).collect();
    for part in specifier.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    let stem = ["js", "mjs", "cjs", "jsx"]
        .iter()
        .find_map(|ext| joined.strip_suffix(&format!(".{ext}")))
        .unwrap_or(&joined);
    const EXTENSIONS: [&str; 8] = ["ts", "tsx", "mts", "cts", "js", "mjs", "cjs", "jsx"];
    let mut tries = vec![joined.clone()];
    tries.extend(EXTENSIONS.iter().map(|ext| format!("{stem}.{ext}")));
    tries.extend(EXTENSIONS.iter().map(|ext| format!("{joined}/index.{ext}")));
    tries
        .into_iter()
        .find(|path| path != rel_path && exists(path))
}

/// The texts of the modules the file at `rel_path` imports, one import deep and one more, as
/// `context` holds them; in a stable order, bounded.
pub(super) fn imported<'c>(text: &str, rel_path: &str, context: &'c Context) -> Vec<&'c str> {
    if context.modules.is_empty() || rel_path.is_empty() {
        return Vec::new();
    }
    let exists = |path: &str| context.modules.contains_key(path);
    let mut paths: Vec<String> = Vec::new();
    for specifier in relative_specifiers(text) {
        if let Some(path) = resolve_specifier(rel_path, specifier, exists) {
            paths.push(path);
        }
    }
    let first: Vec<String> = paths.clone();
    for path in &first {
        let Some(module) = context.modules.get(path) else {
            continue;
        };
        for specifier in relative_specifiers(module) {
            if let Some(next) = resolve_specifier(path, specifier, exists) {
                paths.push(next);
            }
        }
    }
    paths.sort();
    paths.dedup();
    paths.retain(|p| p != rel_path);
    let mut total = 0;
    let mut out = Vec::new();
    for path in paths {
        let Some(module) = context.modules.get(&path) else {
            continue;
        };
        total += module.len();
        if total > MAX_IMPORTED {
            break;
        }
        out.push(&**module);
    }
    out
}

/// The file's text followed by its modules', and where the file's own text ends.
pub(super) fn joined(text: &str, modules: &[&str]) -> String {
    let mut out =
        String::with_capacity(text.len() + modules.iter().map(|m| m.len() + 2).sum::<usize>());
    out.push_str(text);
    for module in modules {
        out.push_str("\n;\n");
        out.push_str(module);
    }
    out
}

/// Keeps what the file itself registers (the part of `doc` before `own_end`), every span read
/// in a module pointing at the registration instead.
pub(super) fn own_part(mut doc: CodeDoc, own_end: usize) -> CodeDoc {
    doc.registrations.retain(|r| r.entry.span.start < own_end);
    doc.unresolved.retain(|u| u.span.start < own_end);
    for registration in &mut doc.registrations {
        let at = registration.entry.span;
        super::relocate(&mut registration.entry, &|s: Span| s.end > own_end, at);
        for call in &mut registration.handler {
            if call.span.end > own_end {
                call.span = at;
            }
        }
        if registration.handler_span.is_some_and(|s| s.end > own_end) {
            registration.handler_span = Some(at);
        }
        for unresolved in &mut registration.unresolved {
            if unresolved.span.end > own_end {
                unresolved.span = at;
            }
        }
    }
    doc
}
