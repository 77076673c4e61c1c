//! What a project's source files tell the reader of each one: the tool wrappers they declare
//! ([`crate::parse::code::Wrapper`]), found before the source files that name no SDK are passed
//! over, so that the files calling a wrapper are read.

use crate::model::FileKind;
use crate::parse::code::{Context, GoPackage, Lang, WrapperCalls};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A folder's Go files are kept for the files of it that register tools only up to these
/// bounds (a generated package of thousands of files is not read twice); beyond them, a
/// handler in another file of the package is not followed.
const PACKAGE_FILES: usize = 400;
const PACKAGE_BYTES: usize = 16 * 1024 * 1024;

/// At most this many wrappers are looked for (sorted, so the same ones every run).
const MAX_WRAPPERS: usize = 1024;

/// What the project's source files (relative path, kind, text) tell the reader of each: the
/// tool wrappers they declare ([`crate::parse::code::Wrapper`]), from the files that may
/// register tools (a wrapper builds one), read in parallel and sorted; and the Go packages of
/// the folders whose files register tools or call a wrapper.
pub(super) fn code_context<'a>(
    files: impl Iterator<Item = (&'a str, FileKind, &'a str)>,
) -> Context {
    // Each source file with whether it may register tools, decided once.
    let sources: Vec<Source<'a>> = files
        .filter_map(|(rel_path, kind, text)| match kind {
            FileKind::Source(lang) => Some(Source {
                rel_path,
                lang,
                text,
                registers: crate::parse::code::may_register_tools(lang, text),
            }),
            _ => None,
        })
        .collect();
    let mut wrappers: Vec<crate::parse::code::Wrapper> = sources
        .par_iter()
        .filter(|source| source.registers)
        .flat_map_iter(|source| crate::parse::code::wrappers_of(source.lang, source.text))
        .collect();
    wrappers.sort();
    wrappers.dedup();
    // A project declares a handful; a file declaring thousands is not a wrapper library.
    wrappers.truncate(MAX_WRAPPERS);
    let mut context = Context {
        mcp_go: BTreeMap::new(),
        wrappers,
        packages: Default::default(),
        modules: imported_modules(&sources),
    };
    let calls = context.wrapper_calls();
    let mut folders: BTreeMap<&str, Vec<&Source<'_>>> = BTreeMap::new();
    for source in sources.iter().filter(|s| s.lang == Lang::Go) {
        let folder = source
            .rel_path
            .rsplit_once('/')
            .map_or("", |(folder, _)| folder);
        folders.entry(folder).or_default().push(source);
    }
    for (folder, files) in folders {
        let registers = files
            .iter()
            .any(|source| source.registers || calls.in_text(Lang::Go, source.text));
        let bytes: usize = files.iter().map(|source| source.text.len()).sum();
        if !registers || files.len() < 2 || files.len() > PACKAGE_FILES || bytes > PACKAGE_BYTES {
            continue;
        }
        let files = files
            .into_iter()
            .map(|source| {
                let name = source
                    .rel_path
                    .rsplit('/')
                    .next()
                    .unwrap_or(source.rel_path);
                (name.to_string(), Arc::from(source.text))
            })
            .collect();
        context
            .packages
            .insert(folder.to_string(), Arc::new(GoPackage::new(files)));
    }
    context
}

/// A source file of the project, as [`code_context`] reads it.
struct Source<'a> {
    rel_path: &'a str,
    lang: Lang,
    text: &'a str,
    /// [`crate::parse::code::may_register_tools`].
    registers: bool,
}

/// [`code_context`] of the files the walk found (those it could read), with the mcp-go versions
/// of the Go modules around them when the walk was of a folder on disk (`root`).
pub(super) fn of_found(
    found: &[(
        crate::discover::Discovered,
        Result<String, crate::read::ReadProblem>,
    )],
    root: Option<&std::path::Path>,
) -> Context {
    let mut context = code_context(found.iter().filter_map(|(file, read)| {
        Some((
            file.rel_path.as_str(),
            file.kind,
            read.as_ref().ok()?.as_str(),
        ))
    }));
    if let Some(root) = root {
        let go_files = found
            .iter()
            .filter(|(file, _)| file.kind == FileKind::Source(Lang::Go))
            .map(|(file, _)| file.rel_path.as_str());
        context.mcp_go = go_modules(root, go_files);
    }
    context
}

/// The TypeScript and JavaScript modules the files that may register tools import by relative
/// path, and those these import in turn (a module that re-exports another), by relative path.
fn imported_modules(sources: &[Source<'_>]) -> BTreeMap<String, Arc<str>> {
    use crate::parse::code::modules::{relative_specifiers, resolve_specifier};
    let scripts: BTreeMap<&str, &Source<'_>> = sources
        .iter()
        .filter(|source| !matches!(source.lang, Lang::Python | Lang::Go))
        .map(|source| (source.rel_path, source))
        .collect();
    let exists = |path: &str| scripts.contains_key(path);
    let imports_of = |rel_path: &str, text: &str| -> Vec<String> {
        relative_specifiers(text)
            .into_iter()
            .filter_map(|specifier| resolve_specifier(rel_path, specifier, exists))
            .collect()
    };
    let first: Vec<String> = scripts
        .values()
        .filter(|source| source.registers)
        .flat_map(|source| imports_of(source.rel_path, source.text))
        .collect();
    let mut all = first.clone();
    for path in &first {
        if let Some(source) = scripts.get(path.as_str()) {
            all.extend(imports_of(path, source.text));
        }
    }
    all.into_iter()
        .filter_map(|path| {
            let text = Arc::from(scripts.get(path.as_str())?.text);
            Some((path, text))
        })
        .collect()
}

/// Why a file of a kind skilllint reads is not read as one once its text is known
/// ([`crate::discover::not_read_reason`]); a source file that calls one of the project's tool
/// wrappers is read, whatever SDK it names.
pub(super) fn read_as_its_kind(
    kind: FileKind,
    text: &str,
    calls: &WrapperCalls,
) -> Option<&'static str> {
    let reason = crate::discover::not_read_reason(kind, text)?;
    match kind {
        FileKind::Source(lang) if calls.in_text(lang, text) => None,
        _ => Some(reason),
    }
}

/// Whether giving the source file at `rel_path` the text `new` (it had `old`) can change what
/// the project tells other files ([`code_context`]): a module that files import, a file of a Go
/// package kept for its siblings, a file that declares (or declared) a wrapper, or a file whose
/// relative imports changed. A session lints afresh then, instead of the file alone.
pub(super) fn changes_context(
    context: &Context,
    rel_path: &str,
    kind: FileKind,
    old: &str,
    new: &str,
) -> bool {
    let FileKind::Source(lang) = kind else {
        return false;
    };
    let declares = |text: &str| {
        crate::parse::code::may_register_tools(lang, text)
            && !crate::parse::code::wrappers_of(lang, text).is_empty()
    };
    if declares(old) || declares(new) {
        return true;
    }
    match lang {
        Lang::Go => {
            let folder = rel_path.rsplit_once('/').map_or("", |(folder, _)| folder);
            context.packages.contains_key(folder)
        }
        Lang::Python => false,
        _ => {
            context.modules.contains_key(rel_path)
                || crate::parse::code::modules::relative_specifiers(old)
                    != crate::parse::code::modules::relative_specifiers(new)
        }
    }
}

/// A `go.mod` larger than this is no hand-written module file: not read.
const GO_MOD_BYTES: u64 = 1024 * 1024;

/// The mcp-go hints of the Go modules around the Go source files the walk found under `root`
/// ([`crate::parse::code::NewToolHints`]): each folder of a Go file and the folders above it, up
/// to the root, looked at once for a `go.mod` that is a regular file (a link is not followed).
pub(super) fn go_modules<'a>(
    root: &std::path::Path,
    go_files: impl Iterator<Item = &'a str>,
) -> BTreeMap<String, crate::parse::code::NewToolHints> {
    let mut looked = std::collections::BTreeSet::new();
    let mut found = BTreeMap::new();
    for rel_path in go_files {
        let mut folder = rel_path.rsplit_once('/').map_or("", |(folder, _)| folder);
        loop {
            if !looked.insert(folder.to_string()) {
                break;
            }
            let path = root.join(folder).join("go.mod");
            let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
            let text = regular
                .then(|| crate::read::read_regular_bounded(&path, GO_MOD_BYTES).ok())
                .flatten()
                .and_then(|bytes| String::from_utf8(bytes).ok());
            if let Some(hints) = text
                .as_deref()
                .and_then(crate::parse::code::NewToolHints::of_go_mod)
            {
                found.insert(folder.to_string(), hints);
            }
            if folder.is_empty() {
                break;
            }
            folder = folder.rsplit_once('/').map_or("", |(parent, _)| parent);
        }
    }
    found
}
