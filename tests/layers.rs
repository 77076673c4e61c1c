//! The import layers of docs LAYOUT §5: which module may name which.
//!
//! Every `src/**/*.rs` is mapped to its module (`src/rules/tr.rs` and `src/rules/tr/mod.rs` are
//! `rules::tr`), and every crate-internal path outside `#[cfg(test)]` code is resolved to the
//! module it names: `use crate::…` trees, `crate::…`, `super::…` and `self::…` paths in code,
//! paths through a child module, and `skilllint::…` in the binary. Comments and string literals
//! are blanked first, so a path in a doc comment or a message is not a reference.
//!
//! Two checks run on that graph: the arrows of [`NEVER`], and no import cycle between modules
//! other than a module and its own descendants. Today's code breaks both, so the violations that
//! exist are listed in [`KNOWN`] and [`KNOWN_CYCLES`] as a ratchet: the test fails on a violation
//! not listed and on a listed one that is gone, so the lists only shrink.
//!
//! `LAYERS_PRINT=1 cargo test --test layers -- --nocapture` prints the current violations in the
//! lists' format, keeping the reasons of entries that still apply.
//!
//! The scanner lives in `tests/layers/scanner.rs`, this file keeps the rows and the tests. It is
//! hand-written rather than `syn`: `syn` would be the only dependency of this one test, would need
//! `full` and `visit` features, and would still not know which `mod` a file is or what `super` is.
//! What the scanner needs from Rust's grammar is small: comments, string and character literals,
//! attributes, braces, `use` trees and `::`-paths.

#[path = "layers/scanner.rs"]
mod scanner;

use scanner::{
    analyze, cycles, print_known, ratchet, read_sources, violations, Cycle, Graph, Site,
};
use std::collections::BTreeMap;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------

/// One row of LAYOUT §5: no module matched by `from` may name a module matched by `to`.
///
/// A pattern is `x::y` (that module alone), `x::y/**` (it and every module below it),
/// `rules/<family>/**` (a rule family: a child of `rules` other than `util` and `phrasing`, and what
/// is below it), `rules/<other family>/**` (a family other than the one `from` matched) or
/// `<library>` (any module of the library crate, as opposed to the binary's `main`, `cli`, …).
/// A pattern naming a module that does not exist yet matches nothing.
struct Never {
    from: &'static [&'static str],
    to: &'static [&'static str],
    why: &'static str,
}

const NEVER: &[Never] = &[
    Never {
        from: &["index/**"],
        to: &["semantic/**", "check/**", "rules/**", "triage/**"],
        why: "the index knows files, models, settings and the selection, nothing derived or triaged",
    },
    Never {
        from: &["check/**"],
        to: &["engine/**", "fix/**", "triage/**"],
        why: "the check stage says what a rule is given and runs it; the engine drives it, and triage and fixes come after",
    },
    Never {
        from: &["selection"],
        to: &[
            "index/**",
            "semantic/**",
            "check/**",
            "rules/**",
            "triage/**",
            "engine/**",
        ],
        why: "the selection is a reading of the catalog, below the index that holds it",
    },
    Never {
        from: &["config"],
        to: &["triage/**"],
        why: "config validates selectors through the selection; triage runs on a run's findings",
    },
    Never {
        from: &["semantic/**"],
        to: &[
            "check/**",
            "rules/**",
            "edit/**",
            "fix/**",
            "engine/**",
            "triage/**",
            "render/**",
        ],
        why: "facts are derived; they never report or edit",
    },
    Never {
        from: &["rules/**"],
        to: &[
            "engine/**",
            "fix/**",
            "triage/**",
            "config",
            "render/**",
            "catalog",
            "discover",
            "read",
        ],
        why: "a rule does no I/O and knows no config, suppression or output format; Sink carries its code",
    },
    Never {
        from: &["sink"],
        to: &[
            "check/**",
            "rules/**",
            "semantic/**",
            "engine/**",
            "fix/**",
            "triage/**",
            "render/**",
        ],
        why: "the sink collects what rules and triage report; it sits below both and knows neither",
    },
    Never {
        from: &["rules/<family>/**"],
        to: &["rules/<other family>/**"],
        why: "cross-family wording lives in rules/phrasing.rs or rules/util.rs",
    },
    Never {
        from: &["edit/**"],
        to: &["fix/**", "engine/**", "index/**", "check/**", "rules/**"],
        why: "edit builders are pure text functions",
    },
    Never {
        from: &["catalog"],
        to: &["rules/**", "check/**", "engine/**", "index/**"],
        why: "metadata is data; rule code can change without touching it",
    },
    Never {
        from: &["render/**"],
        to: &[
            "engine/**",
            "check/**",
            "rules/**",
            "index/**",
            "triage/**",
        ],
        why: "render reads Sources, Diagnostics, Suppressed and Catalog",
    },
    Never {
        from: &["triage/**", "config"],
        to: &["rules/**", "check/**", "engine/**"],
        why: "triage and config read the catalog, never checks",
    },
    Never {
        from: &["triage::baseline"],
        to: &[
            "index/**",
            "semantic/**",
            "render/**",
            "fix/**",
            "policy/**",
        ],
        why: "a baseline is a suppression kept in a file: it reads diagnostics, their sources and the catalog, never the index, the facts, an output format or the fix loop",
    },
    Never {
        from: &[
            "parse/**",
            "model/**",
            "index/**",
            "semantic/**",
            "check/**",
            "edit/**",
            "render/**",
        ],
        to: &["triage::baseline"],
        why: "nothing before triage knows about baselines, and render sees only what they hid",
    },
    Never {
        from: &["parse/**"],
        to: &["model/**"],
        why: "parsing does not judge",
    },
    Never {
        from: &["parse/**", "model/**"],
        to: &[
            "index/**",
            "semantic/**",
            "edit/**",
            "check/**",
            "rules/**",
            "catalog",
            "triage/**",
            "config",
            "engine/**",
            "fix/**",
            "render/**",
            "read",
            "discover",
        ],
        why: "parsing does not judge and models know no index: neither reaches a later stage",
    },
    Never {
        from: &["engine/**"],
        to: &["rules/<family>/**"],
        why: "the engine sees only rules::checks() through check::Registry",
    },
    Never {
        from: &[
            "parse::shell",
            "semantic::commands",
            "semantic::credentials",
            "semantic::permissions",
        ],
        to: &["model/**", "index/**", "check/**", "rules/**"],
        why: "command words, credentials and tool grants are read from text and spans alone, so hooks, MCP configs and frontmatter share them",
    },
    Never {
        from: &["model::plugin", "model::hooks", "model::mcp_config", "model::agent"],
        to: &["semantic/**", "policy/**", "server/**"],
        why: "the plugin-surface models look paths up but derive no facts and run nothing",
    },
    Never {
        from: &["policy/**"],
        to: &[
            "rules/**",
            "engine/**",
            "fix/**",
            "triage/**",
            "render/**",
        ],
        why: "policy rules read units as rules do, and report through a sink; the engine runs them",
    },
    Never {
        from: &[
            "parse/**",
            "model/**",
            "index/**",
            "semantic/**",
            "check/**",
            "rules/**",
            "catalog",
            "config",
            "triage/**",
            "render/**",
        ],
        to: &["policy/**"],
        why: "only the settings (which load them), the engine (which runs them), the language server and the command line know policies",
    },
    Never {
        from: &[
            "source",
            "diagnostic",
            "catalog",
            "discover",
            "read",
            "parse/**",
            "model/**",
            "index/**",
            "semantic/**",
            "edit/**",
            "check/**",
            "sink",
            "rules/**",
            "triage/**",
            "config",
            "engine/**",
            "fix/**",
            "policy/**",
            "render/**",
            "schema",
            "escape",
        ],
        to: &["server/**"],
        why: "the language server sits above the engine and the fix loop; the library does not know it is served",
    },
    Never {
        from: &["inventory/**"],
        to: &["diff/**", "lock/**"],
        why: "the inventory does not know the diff or the lock: each compares inventories (two revisions', or the run's and the pinned one)",
    },
    Never {
        from: &["diff/**", "history/**"],
        to: &["server/**"],
        why: "the diff and the revisions it reads are products of the command line; the language server is another face above them",
    },
    Never {
        from: &["triage/**"],
        to: &["config"],
        why: "a baseline's problems are FileErrors, as a configuration's are; triage reads no configuration",
    },
    Never {
        from: &["file_error"],
        to: &[
            "config",
            "catalog",
            "parse/**",
            "model/**",
            "index/**",
            "triage/**",
            "policy/**",
            "settings",
            "engine/**",
            "render/**",
        ],
        why: "the error of a user-supplied file is built by each reader and drawn by the terminal; it knows neither",
    },
    Never {
        from: &["<library>"],
        to: &["main", "cli/**"],
        why: "the core knows no command line: flags, the summary and the terminal are the binary's",
    },
    Never {
        from: &["engine/**"],
        to: &[
            "inventory/**",
            "diff/**",
            "history/**",
            "server/**",
            "fix/**",
            "lock/**",
        ],
        why: "products drive the engine through its unit hook; the engine names none of them",
    },
    Never {
        from: &["settings"],
        to: &[
            "engine/**",
            "check/**",
            "rules/**",
            "render/**",
            "inventory/**",
            "diff/**",
            "history/**",
            "server/**",
            "fix/**",
            "lock/**",
        ],
        why: "settings turn a configuration and a face's flags into options; they run nothing",
    },
    Never {
        from: &["english"],
        to: &["<library>"],
        why: "the wording of counts sits below everything that prints one, render and fix alike",
    },
    Never {
        from: &["output_file"],
        to: &["fix/**", "engine/**"],
        why: "writing the report or the baseline is not the fix loop; fix writes share its primitives, not the other way round",
    },
];

// ---------------------------------------------------------------------------------------------
// The ratchet: what today's code still does wrong, and which stage of LAYOUT §6 removes it
// ---------------------------------------------------------------------------------------------

/// Forbidden arrows that exist today, as `"from → to"`, with the reason they are still there.
const KNOWN: &[(&str, &str)] = &[];

const KNOWN_CYCLES: &[(&[&str], &str)] = &[];

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

#[test]
fn imports_follow_the_layers() {
    let started = std::time::Instant::now();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = read_sources(root);
    let graph = analyze(&files);
    let violations = violations(&graph, NEVER);
    let cycles = cycles(&graph);
    if std::env::var_os("LAYERS_PRINT").is_some() {
        println!("{}", print_known(&violations, &cycles, KNOWN, KNOWN_CYCLES));
    }
    let problems = ratchet(&violations, &cycles, KNOWN, KNOWN_CYCLES);
    assert!(
        problems.is_empty(),
        "{}\n\n(`LAYERS_PRINT=1 cargo test --test layers -- --nocapture` prints the lists as they \
         should read now)",
        problems.join("\n")
    );
    // The graph is small; a slow run means the scanner went quadratic somewhere.
    let elapsed = started.elapsed();
    assert!(
        elapsed.as_secs() < 5,
        "the layer check took {elapsed:?} for {} files",
        files.len()
    );
}

// ---------------------------------------------------------------------------------------------
// Tests of the checker itself, on made-up trees
// ---------------------------------------------------------------------------------------------

fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect()
}

fn arrows(graph: &Graph) -> Vec<String> {
    graph
        .edges
        .keys()
        .map(|(from, to)| format!("{from} → {to}"))
        .collect()
}

#[test]
fn checker_finds_a_forbidden_arrow() {
    let files = tree(&[
        ("src/lib.rs", "pub mod index;\npub mod rules;\n"),
        ("src/index.rs", "use crate::rules::sk::skill_name;\n"),
        ("src/rules/mod.rs", "pub mod sk;\n"),
        ("src/rules/sk.rs", "pub fn skill_name() {}\n"),
    ]);
    let graph = analyze(&files);
    let found = violations(&graph, NEVER);
    assert_eq!(found.keys().collect::<Vec<_>>(), ["index → rules::sk"]);
    assert_eq!(
        found["index → rules::sk"].site,
        Site {
            file: "src/index.rs".to_string(),
            line: 1
        }
    );
}

#[test]
fn checker_ignores_tests_comments_and_literals() {
    let index = r####"
//! Not `crate::rules` here, nor in [`crate::engine::lint`].
/* a block comment naming crate::rules::sk /* nested crate::fix */ still crate::render */
const MESSAGE: &str = "crate::rules::sk::x { and a brace";
const RAW: &str = r#"crate::engine "quoted" { // not a comment"#;
const BYTES: &[u8] = br##"crate::fix"#"##;
const OPEN: char = '{';
const QUOTE: char = '"';
fn lifetime<'a>(text: &'a str) -> &'a str { text }

#[cfg(test)]
fn helper() -> Vec<[u8; 2]> { crate::rules::sk::skill_name(); vec![] }

#[cfg(test)]
mod tests {
    use crate::rules::sk;
    #[test]
    fn t() { let _ = "}"; crate::engine::lint(); }
}

pub fn real() { crate::model::parse(); }
"####;
    let files = tree(&[
        (
            "src/lib.rs",
            "pub mod index;\npub mod rules;\npub mod engine;\npub mod model;\npub mod fix;\n",
        ),
        ("src/index.rs", index),
        (
            "src/rules/mod.rs",
            "pub mod sk;\n#[cfg(test)]\nmod tests;\n",
        ),
        ("src/rules/tests.rs", "use crate::engine::lint;\n"),
        ("src/rules/sk.rs", ""),
        ("src/engine.rs", ""),
        ("src/model.rs", ""),
        ("src/fix.rs", ""),
    ]);
    let graph = analyze(&files);
    assert_eq!(arrows(&graph), ["index → model"]);
    assert_eq!(graph.edges.values().next().map(|s| s.line), Some(21));
}

#[test]
fn checker_resolves_super_and_nested_use_trees() {
    let files = tree(&[
        ("src/lib.rs", "pub mod a;\npub mod d;\npub mod rules;\n"),
        ("src/a/mod.rs", "pub mod b;\npub mod c;\n"),
        (
            "src/a/b.rs",
            "use super::c::Thing;\nfn f() { super::super::d::go(); }\n",
        ),
        ("src/a/c.rs", ""),
        (
            "src/d.rs",
            "pub(crate) use crate::{a::{b, c::{self as cee, *}}, rules};\n",
        ),
        (
            "src/rules/mod.rs",
            "pub mod tr;\npub mod sk;\nfn f() { sk::go(); }\n",
        ),
        (
            "src/rules/tr.rs",
            "mod inner {\n    use super::super::sk;\n}\nuse std::fmt;\n",
        ),
        ("src/rules/sk.rs", ""),
    ]);
    let graph = analyze(&files);
    assert_eq!(
        arrows(&graph),
        [
            "a::b → a::c",
            "a::b → d",
            "d → a::b",
            "d → a::c",
            "d → rules",
            "rules → rules::sk",
            "rules::tr → rules::sk",
        ]
    );
    let found = violations(&graph, NEVER);
    assert_eq!(found.keys().collect::<Vec<_>>(), ["rules::tr → rules::sk"]);
}

#[test]
fn checker_finds_a_cycle_but_not_a_parent_and_child() {
    let files = tree(&[
        (
            "src/lib.rs",
            "pub mod a;\npub mod b;\npub mod c;\npub mod p;\n",
        ),
        ("src/a.rs", "use crate::b::X;\n"),
        ("src/b.rs", "use crate::c::X;\n"),
        ("src/c.rs", "use crate::a::X;\nuse crate::X;\n"),
        ("src/p/mod.rs", "pub mod q;\nuse q::X;\n"),
        ("src/p/q.rs", "use super::X;\nuse crate::p::Y;\n"),
    ]);
    let graph = analyze(&files);
    let found = cycles(&graph);
    assert_eq!(
        found,
        [Cycle {
            members: vec!["a".to_string(), "b".to_string(), "c".to_string()],
            path: ["a", "b", "c", "a"].map(String::from).to_vec(),
        }]
    );
}

#[test]
fn ratchet_fails_on_new_and_stale_entries() {
    let files = tree(&[
        (
            "src/lib.rs",
            "pub mod index;\npub mod rules;\npub mod a;\npub mod b;\n",
        ),
        ("src/index.rs", "use crate::rules::sk;\n"),
        ("src/rules/mod.rs", "pub mod sk;\n"),
        ("src/rules/sk.rs", ""),
        ("src/a.rs", "use crate::b::X;\n"),
        ("src/b.rs", "use crate::a::X;\n"),
    ]);
    let graph = analyze(&files);
    let found = violations(&graph, NEVER);
    let loops = cycles(&graph);
    let exact: &[(&[&str], &str)] = &[(&["a", "b"], "stage 9")];
    assert!(ratchet(&found, &loops, &[("index → rules::sk", "stage 1")], exact).is_empty());
    // Not listed: the arrow and the cycle are reported.
    let problems = ratchet(&found, &loops, &[], &[]);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("forbidden import index → rules::sk (src/index.rs:1)"));
    assert!(problems[1].starts_with("import cycle between [\"a\", \"b\"]"));
    // Listed but gone: the stale entries are reported.
    let stale: &[(&[&str], &str)] = &[(&["a", "b"], "stage 9"), (&["x", "y"], "gone")];
    let problems = ratchet(
        &found,
        &loops,
        &[
            ("index → rules::sk", "stage 1"),
            ("engine → rules::tr", "gone"),
        ],
        stale,
    );
    assert_eq!(
        problems,
        [
            "engine → rules::tr no longer exists: remove it from KNOWN in tests/layers.rs",
            "the import cycle [\"x\", \"y\"] no longer exists: remove it from KNOWN_CYCLES",
        ]
    );
    // A cycle that lost a member must be re-listed smaller.
    let bigger: &[(&[&str], &str)] = &[(&["a", "b", "c"], "stage 9")];
    let problems = ratchet(&found, &loops, &[("index → rules::sk", "stage 1")], bigger);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("a known import cycle shrank to [\"a\", \"b\"]"));
}
