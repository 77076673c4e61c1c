//! What a project's source files tell the reader of each one: the tool wrappers they declare
//! ([`crate::parse::code::Wrapper`]), found before the source files that name no SDK are passed
//! over, so that the files calling a wrapper are read.

use crate::model::FileKind;
use crate::parse::code::Context;
use rayon::prelude::*;

/// The tool wrappers the project's source files declare ([`crate::parse::code::Wrapper`]),
/// from the files that may register tools (a wrapper builds one), read in parallel; sorted.
pub(super) fn code_context<'a>(files: impl Iterator<Item = (FileKind, &'a str)>) -> Context {
    let candidates: Vec<(crate::parse::code::Lang, &str)> = files
        .filter_map(|(kind, text)| match kind {
            FileKind::Source(lang) if crate::parse::code::may_register_tools(lang, text) => {
                Some((lang, text))
            }
            _ => None,
        })
        .collect();
    let mut wrappers: Vec<crate::parse::code::Wrapper> = candidates
        .into_par_iter()
        .flat_map_iter(|(lang, text)| crate::parse::code::wrappers_of(lang, text))
        .collect();
    wrappers.sort();
    wrappers.dedup();
    Context { wrappers }
}

/// Why a file of a kind skilllint reads is not read as one once its text is known
/// ([`crate::discover::not_read_reason`]); a source file that calls one of the project's tool
/// wrappers is read, whatever SDK it names.
pub(super) fn read_as_its_kind(kind: FileKind, text: &str, code: &Context) -> Option<&'static str> {
    let reason = crate::discover::not_read_reason(kind, text)?;
    match kind {
        FileKind::Source(lang) if code.may_call_wrapper(lang, text) => None,
        _ => Some(reason),
    }
}
