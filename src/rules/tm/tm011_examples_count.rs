//! TM011 `examples-count`: The tool contract has fewer than 2 or more than 5 examples.

use super::contract_with_frontmatter;
use crate::check::{Sink, Unit};

const EXAMPLES_MIN: usize = 2;

const EXAMPLES_MAX: usize = 5;

pub(super) fn examples_count(unit: &Unit<'_>, sink: &mut Sink) {
    let Some((file, fm)) = contract_with_frontmatter(unit) else {
        return;
    };
    let help = "author 2-5 input/output pairs that every driver must satisfy";
    match fm.root.member("examples") {
        None => {
            sink.report(file, fm.opening, "tool contract has no `examples`")
                .label("frontmatter without `examples`")
                .help(help);
        }
        Some(member) => {
            let Some(items) = member.value.as_array() else {
                return;
            };
            let count = items.len();
            if count < EXAMPLES_MIN {
                let noun = if count == 1 { "example" } else { "examples" };
                sink.report(
                    file,
                    member.key_span,
                    format!("tool contract has {count} {noun}; author at least {EXAMPLES_MIN}"),
                )
                .label("too few examples")
                .help(help);
            } else if count > EXAMPLES_MAX {
                sink.report(
                    file,
                    member.key_span,
                    format!("tool contract has {count} examples; keep at most {EXAMPLES_MAX}"),
                )
                .label("too many examples")
                .help(
                    "keep the 2-5 most telling pairs; move edge cases to the drivers' own examples",
                );
            }
        }
    }
}
