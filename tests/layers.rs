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
//! A hand-written scanner rather than `syn`: `syn` would be the only dependency of this one test,
//! would need `full` and `visit` features, and would still not know which `mod` a file is or what
//! `super` is. What the scanner needs from Rust's grammar is small: comments, string and character
//! literals, attributes, braces, `use` trees and `::`-paths.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------

/// One row of LAYOUT §5: no module matched by `from` may name a module matched by `to`.
///
/// A pattern is `x::y` (that module alone), `x::y/**` (it and every module below it),
/// `rules/<family>/**` (a rule family: a child of `rules` other than `util` and `report`, and what
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
        to: &["semantic/**", "check/**", "rules/**"],
        why: "the index knows files, models and settings, nothing derived",
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
        why: "cross-family wording lives in rules/report.rs or rules/util.rs",
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
        why: "only the engine, the language server and the command line load and run policies",
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
        to: &["diff/**"],
        why: "the inventory does not know the diff: `skilllint diff` compares two inventories",
    },
    Never {
        from: &["diff/**", "history/**"],
        to: &["server/**"],
        why: "the diff and the revisions it reads are products of the command line; the language server is another face above them",
    },
    Never {
        from: &["<library>"],
        to: &["main", "cli"],
        why: "the core knows no command line",
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

/// Every `.rs` file under `src/`, keyed by its path relative to the crate (`src/rules/tr.rs`).
fn read_sources(root: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut pending = vec![root.join("src")];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
                let rel = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                files.insert(rel, text);
            }
        }
    }
    files
}

// ---------------------------------------------------------------------------------------------
// Lexing: blank comments and literals, then split into tokens
// ---------------------------------------------------------------------------------------------

/// `source` with every comment and string, byte-string, raw-string and character literal replaced
/// by spaces (line breaks kept, so line numbers stay right). Lifetimes are kept.
fn blank_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(source.len());
    let blank = |out: &mut String, from: usize, to: usize| {
        for &c in &chars[from..to.min(chars.len())] {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts_word = i == 0 || !is_ident(chars[i - 1]);
        if c == '/' && at(i + 1) == '/' {
            let end = (i..chars.len())
                .find(|&k| chars[k] == '\n')
                .unwrap_or(chars.len());
            blank(&mut out, i, end);
            i = end;
            continue;
        }
        if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            let mut k = i;
            while k < chars.len() {
                if chars[k] == '/' && at(k + 1) == '*' {
                    depth += 1;
                    k += 2;
                } else if chars[k] == '*' && at(k + 1) == '/' {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            blank(&mut out, i, k);
            i = k;
            continue;
        }
        // Raw strings: r"…", r#"…"#, br"…", cr#"…"# (and not the raw identifier r#type).
        if starts_word && (c == 'r' || ((c == 'b' || c == 'c') && at(i + 1) == 'r')) {
            let mut k = if c == 'r' { i + 1 } else { i + 2 };
            let mut hashes = 0;
            while at(k) == '#' {
                hashes += 1;
                k += 1;
            }
            if at(k) == '"' {
                k += 1;
                let end = loop {
                    if k >= chars.len() {
                        break chars.len();
                    }
                    if chars[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                        break k + 1 + hashes;
                    }
                    k += 1;
                };
                blank(&mut out, i, end);
                i = end;
                continue;
            }
        }
        // Strings, byte strings and C strings.
        let quote = if c == '"' {
            Some(i)
        } else if starts_word && (c == 'b' || c == 'c') && at(i + 1) == '"' {
            Some(i + 1)
        } else {
            None
        };
        if let Some(open) = quote {
            let mut k = open + 1;
            while k < chars.len() && chars[k] != '"' {
                k += if chars[k] == '\\' { 2 } else { 1 };
            }
            let end = (k + 1).min(chars.len());
            blank(&mut out, i, end);
            i = end;
            continue;
        }
        // A character literal ('x', '\n', '\'', '\u{7f}', '{'), or else a lifetime or label.
        if c == '\'' {
            let end = if at(i + 1) == '\\' {
                (i + 3..chars.len())
                    .find(|&k| chars[k] == '\'')
                    .map(|k| k + 1)
            } else if at(i + 2) == '\'' {
                Some(i + 3)
            } else {
                None
            };
            if let Some(end) = end {
                blank(&mut out, i, end);
                i = end;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

#[derive(Debug, Clone)]
struct Token {
    text: String,
    line: usize,
}

/// Identifiers (keywords included), `::`, and every other non-space character on its own.
fn tokens(blanked: &str) -> Vec<Token> {
    let chars: Vec<char> = blanked.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                text: chars[start..i].iter().collect(),
                line,
            });
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push(Token {
                text: "::".to_string(),
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                text: c.to_string(),
                line,
            });
            i += 1;
        }
    }
    out
}

fn is_identifier(text: &str) -> bool {
    text.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

// ---------------------------------------------------------------------------------------------
// Scanning one file
// ---------------------------------------------------------------------------------------------

/// A path as written, and where.
#[derive(Debug, Clone)]
struct RawPath {
    /// The inline module scope the path is written in, relative to the file's module.
    scope: Vec<String>,
    segments: Vec<String>,
    line: usize,
}

#[derive(Debug, Default)]
struct FileScan {
    paths: Vec<RawPath>,
    /// `mod x;` declarations, with whether they are `#[cfg(test)]`.
    declared: Vec<(String, bool)>,
    /// Inline `mod x { … }` modules (not test ones), as scopes relative to the file's module.
    inline: Vec<Vec<String>>,
    /// `#![cfg(test)]` at the top: the whole file is test code.
    test_only: bool,
}

/// Whether `#[cfg(test)]` (or `#![cfg(test)]` if `inner`) starts at `toks[i]`, and its length.
fn cfg_test_at(toks: &[Token], i: usize, inner: bool) -> Option<usize> {
    let expected: &[&str] = if inner {
        &["#", "!", "[", "cfg", "(", "test", ")", "]"]
    } else {
        &["#", "[", "cfg", "(", "test", ")", "]"]
    };
    let matches = expected
        .iter()
        .enumerate()
        .all(|(k, want)| toks.get(i + k).is_some_and(|t| t.text == *want));
    matches.then_some(expected.len())
}

/// The index just past the item that starts at `toks[i]`: its `{ … }` body, or its `;` for items
/// that end in one (`use`, `const`, `static`, `type`, `let`, `mod x;`, tuple structs). Brackets
/// and parentheses are skipped whole, so `[u8; 2]` does not end an item.
fn item_end(toks: &[Token], i: usize) -> usize {
    let ends_in_semicolon = {
        // Skip further attributes and the visibility to the item's keyword.
        let mut k = i;
        loop {
            match toks.get(k).map(|t| t.text.as_str()) {
                Some("#") => k = skip_group(toks, k + 1),
                Some("pub") => {
                    k += 1;
                    if toks.get(k).is_some_and(|t| t.text == "(") {
                        k = skip_group(toks, k);
                    }
                }
                _ => break,
            }
        }
        let keyword = toks.get(k).map(|t| t.text.as_str());
        let next = toks.get(k + 1).map(|t| t.text.as_str());
        matches!(keyword, Some("use" | "static" | "type" | "let"))
            || (keyword == Some("const") && !matches!(next, Some("fn" | "unsafe" | "async")))
    };
    let mut depth = 0usize;
    let mut k = i;
    while let Some(tok) = toks.get(k) {
        match tok.text.as_str() {
            "(" | "[" => depth += 1,
            ")" | "]" => depth = depth.saturating_sub(1),
            "{" if ends_in_semicolon => depth += 1,
            "}" if ends_in_semicolon => depth = depth.saturating_sub(1),
            "{" if depth == 0 => return skip_group(toks, k),
            ";" if depth == 0 => return k + 1,
            _ => {}
        }
        k += 1;
    }
    k
}

/// The index just past the bracketed group (`(…)`, `[…]` or `{…}`) that opens at `toks[i]`.
fn skip_group(toks: &[Token], i: usize) -> usize {
    let mut depth = 0usize;
    let mut k = i;
    while let Some(tok) = toks.get(k) {
        match tok.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
        k += 1;
    }
    k
}

/// Parses the use tree at `toks[k]` under `prefix`, pushing each imported path (a glob's is its
/// module, `a::{self}` is `a`); returns the index after the tree.
fn use_tree(toks: &[Token], mut k: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.to_vec();
    if toks.get(k).is_some_and(|t| t.text == "::") {
        // `use ::name::…` is always another crate.
        path.push("::".to_string());
        k += 1;
    }
    loop {
        let Some(tok) = toks.get(k) else { return k };
        match tok.text.as_str() {
            "{" => {
                k += 1;
                while let Some(tok) = toks.get(k) {
                    match tok.text.as_str() {
                        "}" => return k + 1,
                        "," => k += 1,
                        _ => {
                            let next = use_tree(toks, k, &path, out);
                            if next == k {
                                return skip_group(toks, k);
                            }
                            k = next;
                        }
                    }
                }
                return k;
            }
            "*" => {
                out.push(path);
                return k + 1;
            }
            text if is_identifier(text) => {
                if text != "self" || path.is_empty() {
                    path.push(text.to_string());
                }
                k += 1;
                if toks.get(k).is_some_and(|t| t.text == "::") {
                    k += 1;
                    continue;
                }
                if toks.get(k).is_some_and(|t| t.text == "as") {
                    k += 2;
                }
                out.push(path);
                return k;
            }
            _ => return k,
        }
    }
}

/// The paths, `mod` declarations and inline modules of one file, outside `#[cfg(test)]` code.
/// `is_child(scope, name)` says whether `name` is a child module (file or inline) of the inline
/// `scope` of this file, the only way a bare path (`sk::RULES` in `rules`) names a module here.
fn scan_file(source: &str, is_child: &dyn Fn(&[String], &str) -> bool) -> FileScan {
    let toks = tokens(&blank_comments_and_literals(source));
    let mut scan = FileScan::default();
    if (0..toks.len().min(64)).any(|i| cfg_test_at(&toks, i, true).is_some()) {
        scan.test_only = true;
        return scan;
    }
    // Inline modules open at some brace depth; `scope` holds (name, depth inside its braces).
    let mut scope: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let names = |scope: &[(String, usize)]| scope.iter().map(|(n, _)| n.clone()).collect();
    while i < toks.len() {
        if let Some(len) = cfg_test_at(&toks, i, false) {
            let start = i + len;
            let end = item_end(&toks, start);
            // `#[cfg(test)] mod tests;` makes the file tests.rs test code.
            let body: Vec<&str> = toks[start..end].iter().map(|t| t.text.as_str()).collect();
            if let Some(at) = body.iter().position(|t| *t == "mod") {
                if let (Some(name), Some(&";")) = (body.get(at + 1), body.get(at + 2)) {
                    if scope.is_empty() {
                        scan.declared.push((name.to_string(), true));
                    }
                }
            }
            i = end;
            continue;
        }
        let text = toks[i].text.as_str();
        let prev = i.checked_sub(1).map(|p| toks[p].text.as_str());
        match text {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                while scope.last().is_some_and(|(_, d)| *d > depth) {
                    scope.pop();
                }
            }
            "mod" => {
                let name = toks.get(i + 1).map(|t| t.text.clone());
                let after = toks.get(i + 2).map(|t| t.text.as_str());
                if let Some(name) = name.filter(|n| is_identifier(n)) {
                    if after == Some("{") {
                        depth += 1;
                        scope.push((name, depth));
                        scan.inline.push(names(&scope));
                        i += 3;
                        continue;
                    }
                    if after == Some(";") && scope.is_empty() {
                        scan.declared.push((name, false));
                    }
                }
            }
            "use" => {
                let mut found = Vec::new();
                let end = use_tree(&toks, i + 1, &[], &mut found);
                let line = toks[i].line;
                let scope_names: Vec<String> = names(&scope);
                for segments in found {
                    scan.paths.push(RawPath {
                        scope: scope_names.clone(),
                        segments,
                        line,
                    });
                }
                i = end.max(i + 1);
                continue;
            }
            _ => {
                let scope_names: Vec<String> = names(&scope);
                let starts_path = toks.get(i + 1).is_some_and(|t| t.text == "::")
                    && !matches!(prev, Some("::" | "." | "in"))
                    && match text {
                        "crate" | "super" | "self" | "skilllint" => true,
                        _ => is_identifier(text) && is_child(&scope_names, text),
                    };
                if starts_path {
                    let mut segments = vec![text.to_string()];
                    let mut k = i + 1;
                    while toks.get(k).is_some_and(|t| t.text == "::")
                        && toks.get(k + 1).is_some_and(|t| is_identifier(&t.text))
                    {
                        segments.push(toks[k + 1].text.clone());
                        k += 2;
                    }
                    scan.paths.push(RawPath {
                        scope: scope_names,
                        segments,
                        line: toks[i].line,
                    });
                    i = k;
                    continue;
                }
            }
        }
        i += 1;
    }
    scan
}

// ---------------------------------------------------------------------------------------------
// The module graph
// ---------------------------------------------------------------------------------------------

/// The library's root module, as it is printed.
const LIBRARY_ROOT: &str = "crate";
/// The binary's root module.
const BINARY_ROOT: &str = "main";

/// The module a file defines, as segments below its crate's root: `src/rules/tr.rs` and
/// `src/rules/tr/mod.rs` are `["rules", "tr"]`, `src/lib.rs` and `src/main.rs` are `[]`.
fn module_of(path: &str) -> Vec<String> {
    let rel = path.strip_prefix("src/").unwrap_or(path);
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut segments: Vec<String> = rel.split('/').map(str::to_string).collect();
    if segments.last().is_some_and(|s| s == "mod") || segments == ["lib"] || segments == ["main"] {
        segments.pop();
    }
    segments
}

fn display(binary: bool, segments: &[String]) -> String {
    if segments.is_empty() {
        if binary { BINARY_ROOT } else { LIBRARY_ROOT }.to_string()
    } else {
        segments.join("::")
    }
}

/// The first place a module names another.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Site {
    file: String,
    line: usize,
}

#[derive(Debug, Default)]
struct Graph {
    /// Every module, printed (`crate`, `main`, `rules::tr`).
    modules: BTreeSet<String>,
    /// The modules of the binary (`main` and what it declares with `mod`).
    binary: BTreeSet<String>,
    /// from → to, with the first place `from` names `to`.
    edges: BTreeMap<(String, String), Site>,
}

/// The crate-internal references of `files` (path → text), resolved to modules.
fn analyze(files: &BTreeMap<String, String>) -> Graph {
    // The binary is src/main.rs and the files it declares with `mod`; the rest is the library.
    let mut scans: BTreeMap<&str, FileScan> = BTreeMap::new();
    let mut file_modules: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for path in files.keys() {
        file_modules.insert(path.as_str(), module_of(path));
    }
    // Inline modules are needed to know what a bare `child::…` path starts with, so scan twice:
    // first for the module tree, then for the paths.
    let mut known: BTreeSet<Vec<String>> = file_modules.values().cloned().collect();
    for (path, text) in files {
        let scan = scan_file(text, &|_, _| false);
        let module = &file_modules[path.as_str()];
        for inline in &scan.inline {
            let mut full = module.clone();
            full.extend(inline.iter().cloned());
            known.insert(full);
        }
    }
    let binary_children: BTreeSet<String> = files
        .get("src/main.rs")
        .map(|text| scan_file(text, &|_, _| false).declared)
        .unwrap_or_default()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let is_binary = |path: &str| {
        path == "src/main.rs"
            || file_modules[path]
                .first()
                .is_some_and(|first| binary_children.contains(first))
    };
    for (path, text) in files {
        let module = file_modules[path.as_str()].clone();
        let is_child = |scope: &[String], name: &str| {
            let mut child = module.clone();
            child.extend(scope.iter().cloned());
            child.push(name.to_string());
            known.contains(&child)
        };
        scans.insert(path.as_str(), scan_file(text, &is_child));
    }
    // `#[cfg(test)] mod x;` makes x and everything below it test code.
    let mut test_modules: BTreeSet<(bool, Vec<String>)> = BTreeSet::new();
    for (path, scan) in &scans {
        for (name, is_test) in &scan.declared {
            if *is_test {
                let mut child = file_modules[path].clone();
                child.push(name.clone());
                test_modules.insert((is_binary(path), child));
            }
        }
    }
    let is_test_module = |binary: bool, module: &[String]| {
        test_modules
            .iter()
            .any(|(b, t)| *b == binary && module.starts_with(t))
    };

    let mut graph = Graph::default();
    let crate_files = |binary: bool| -> BTreeSet<Vec<String>> {
        file_modules
            .iter()
            .filter(|(path, module)| is_binary(path) == binary && !is_test_module(binary, module))
            .map(|(_, module)| module.clone())
            .collect()
    };
    let library = crate_files(false);
    let binary_modules = crate_files(true);
    for (path, scan) in &scans {
        let binary = is_binary(path);
        let module = &file_modules[path];
        if scan.test_only || is_test_module(binary, module) {
            continue;
        }
        let from = display(binary, module);
        graph.modules.insert(from.clone());
        for raw in &scan.paths {
            let Some((target_binary, absolute)) = resolve(binary, module, raw, &known) else {
                continue;
            };
            let modules = if target_binary {
                &binary_modules
            } else {
                &library
            };
            let target = (0..=absolute.len())
                .rev()
                .map(|n| &absolute[..n])
                .find(|prefix| modules.contains(*prefix))
                .unwrap_or(&[]);
            let to = display(target_binary, target);
            if to == from {
                continue;
            }
            let site = Site {
                file: path.to_string(),
                line: raw.line,
            };
            graph
                .edges
                .entry((from.clone(), to))
                .and_modify(|first| *first = first.clone().min(site.clone()))
                .or_insert(site);
        }
    }
    // Modules that name nothing and are named by nothing are still modules.
    for module in library.iter() {
        graph.modules.insert(display(false, module));
    }
    for module in binary_modules.iter() {
        graph.modules.insert(display(true, module));
        graph.binary.insert(display(true, module));
    }
    graph
}

/// The crate (binary or not) and the absolute segments a path names, or None for another crate.
fn resolve(
    binary: bool,
    module: &[String],
    raw: &RawPath,
    known: &BTreeSet<Vec<String>>,
) -> Option<(bool, Vec<String>)> {
    let mut here: Vec<String> = module.to_vec();
    here.extend(raw.scope.iter().cloned());
    let mut segments = raw.segments.iter().peekable();
    let first = segments.next()?;
    let (target_binary, mut absolute) = match first.as_str() {
        "crate" => (binary, Vec::new()),
        "skilllint" if binary => (false, Vec::new()),
        "self" => (binary, here.clone()),
        "super" => {
            let mut up = here.clone();
            up.pop();
            while segments.next_if(|s| *s == "super").is_some() {
                up.pop();
            }
            (binary, up)
        }
        "::" => return None,
        // A bare path names a module here only through a child module (`use sk::RULES` in
        // `rules`); otherwise it starts with another crate (`std`, `serde`) or a local item.
        name => {
            let mut child = here.clone();
            child.push(name.to_string());
            if !known.contains(&child) {
                return None;
            }
            (binary, child)
        }
    };
    absolute.extend(segments.cloned());
    Some((target_binary, absolute))
}

// ---------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------

fn segments_of(module: &str) -> Vec<&str> {
    if module == LIBRARY_ROOT || module == BINARY_ROOT {
        Vec::new()
    } else {
        module.split("::").collect()
    }
}

/// The rule family a module belongs to (`rules::tr` and below are family `tr`).
fn family_of(module: &str) -> Option<&str> {
    match segments_of(module).as_slice() {
        ["rules", family, ..] if !matches!(*family, "util" | "report") => Some(family),
        _ => None,
    }
}

/// Whether `module` matches `pattern`; `from` is the module the arrow starts at, for
/// `<other family>`.
fn matches_pattern(pattern: &str, module: &str, from: &str, graph: &Graph) -> bool {
    match pattern {
        "<library>" => !graph.binary.contains(module),
        "rules/<family>/**" => family_of(module).is_some(),
        "rules/<other family>/**" => {
            family_of(module).is_some() && family_of(module) != family_of(from)
        }
        _ => {
            let (base, subtree) = match pattern.strip_suffix("/**") {
                Some(base) => (base, true),
                None => (pattern, false),
            };
            let base = base.replace('/', "::");
            module == base || (subtree && module.starts_with(&format!("{base}::")))
        }
    }
}

/// A forbidden arrow that exists: where it is first written and which rows forbid it.
#[derive(Debug)]
struct Violation {
    site: Site,
    why: Vec<&'static str>,
}

/// `"from → to"` → the violation, for every edge some row of `rules` forbids.
fn violations(graph: &Graph, rules: &[Never]) -> BTreeMap<String, Violation> {
    let mut out = BTreeMap::new();
    for ((from, to), site) in &graph.edges {
        let why: Vec<&'static str> = rules
            .iter()
            .filter(|rule| {
                rule.from
                    .iter()
                    .any(|p| matches_pattern(p, from, from, graph))
                    && rule.to.iter().any(|p| matches_pattern(p, to, from, graph))
            })
            .map(|rule| rule.why)
            .collect();
        if !why.is_empty() {
            out.insert(
                format!("{from} → {to}"),
                Violation {
                    site: site.clone(),
                    why,
                },
            );
        }
    }
    out
}

/// Whether one of the two modules is the other's ancestor (the crate roots are everyone's).
fn related(a: &str, b: &str) -> bool {
    let (a, b) = (segments_of(a), segments_of(b));
    a.starts_with(&b) || b.starts_with(&a)
}

/// An import cycle: a strongly connected component of two or more modules, once the arrows
/// between a module and its own ancestors are left out, with one closed path through it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Cycle {
    members: Vec<String>,
    path: Vec<String>,
}

fn cycles(graph: &Graph) -> Vec<Cycle> {
    let names: Vec<&String> = graph.modules.iter().collect();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
    for (from, to) in graph.edges.keys() {
        if related(from, to) {
            continue;
        }
        if let (Some(&f), Some(&t)) = (index.get(from.as_str()), index.get(to.as_str())) {
            successors[f].push(t);
        }
    }
    let components = strongly_connected(&successors);
    let mut out: Vec<Cycle> = components
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|component| {
            let members: BTreeSet<usize> = component.iter().copied().collect();
            let start = *members.iter().next().unwrap_or(&0);
            let path = shortest_cycle(&successors, &members, start)
                .into_iter()
                .map(|i| names[i].clone())
                .collect();
            Cycle {
                members: members.iter().map(|&i| names[i].clone()).collect(),
                path,
            }
        })
        .collect();
    out.sort_by(|a, b| a.members.cmp(&b.members));
    out
}

/// Tarjan's algorithm, iterative.
fn strongly_connected(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = successors.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut components = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, how many of its successors are done)
        let mut work = vec![(root, 0usize)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut done)) = work.last_mut() {
            if let Some(&next) = successors[node].get(*done) {
                *done += 1;
                if index[next] == usize::MAX {
                    index[next] = next_index;
                    low[next] = next_index;
                    next_index += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    work.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}

/// The shortest closed path from `start` back to itself inside `members` (breadth-first, so the
/// same graph always gives the same path).
fn shortest_cycle(
    successors: &[Vec<usize>],
    members: &BTreeSet<usize>,
    start: usize,
) -> Vec<usize> {
    let mut came_from: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        let mut next: Vec<usize> = successors[node]
            .iter()
            .copied()
            .filter(|s| members.contains(s))
            .collect();
        next.sort_unstable();
        for s in next {
            if s == start {
                let mut path = vec![node];
                let mut at = node;
                while at != start {
                    at = came_from[&at];
                    path.push(at);
                }
                path.reverse();
                path.push(start);
                return path;
            }
            if let std::collections::btree_map::Entry::Vacant(entry) = came_from.entry(s) {
                entry.insert(node);
                queue.push_back(s);
            }
        }
    }
    vec![start]
}

/// What is wrong against the allowlists: new violations and cycles, and entries that no longer
/// apply.
fn ratchet(
    violations: &BTreeMap<String, Violation>,
    cycles: &[Cycle],
    known: &[(&str, &str)],
    known_cycles: &[(&[&str], &str)],
) -> Vec<String> {
    let mut problems = Vec::new();
    let known_arrows: BTreeSet<&str> = known.iter().map(|(arrow, _)| *arrow).collect();
    for (arrow, violation) in violations {
        if !known_arrows.contains(arrow.as_str()) {
            problems.push(format!(
                "forbidden import {arrow} ({}:{}): {}",
                violation.site.file,
                violation.site.line,
                violation.why.join("; ")
            ));
        }
    }
    for (arrow, _) in known {
        if !violations.contains_key(*arrow) {
            problems.push(format!(
                "{arrow} no longer exists: remove it from KNOWN in tests/layers.rs"
            ));
        }
    }
    let known_sets: Vec<BTreeSet<&str>> = known_cycles
        .iter()
        .map(|(members, _)| members.iter().copied().collect())
        .collect();
    let mut matched = vec![false; known_cycles.len()];
    for cycle in cycles {
        let members: BTreeSet<&str> = cycle.members.iter().map(String::as_str).collect();
        if let Some(at) = known_sets.iter().position(|k| *k == members) {
            matched[at] = true;
            continue;
        }
        let path = cycle.path.join(" → ");
        if let Some(at) = known_sets.iter().position(|k| members.is_subset(k)) {
            matched[at] = true;
            problems.push(format!(
                "a known import cycle shrank to {:?} (one path: {path}): replace its entry in \
                 KNOWN_CYCLES",
                cycle.members
            ));
        } else {
            problems.push(format!(
                "import cycle between {:?} (one path: {path})",
                cycle.members
            ));
        }
    }
    for (at, (members, _)) in known_cycles.iter().enumerate() {
        if !matched[at] {
            problems.push(format!(
                "the import cycle {members:?} no longer exists: remove it from KNOWN_CYCLES"
            ));
        }
    }
    problems
}

/// The two lists as they should read now, keeping the reasons of entries that still apply.
fn print_known(
    violations: &BTreeMap<String, Violation>,
    cycles: &[Cycle],
    known: &[(&str, &str)],
    known_cycles: &[(&[&str], &str)],
) -> String {
    const TODO: &str = "TODO: why it is still here and which stage removes it";
    let reasons: BTreeMap<&str, &str> = known.iter().copied().collect();
    let mut out = String::from("const KNOWN: &[(&str, &str)] = &[\n");
    for (arrow, violation) in violations {
        let reason = reasons.get(arrow.as_str()).copied().unwrap_or(TODO);
        out.push_str(&format!(
            "    // {}:{}: {}\n    ({arrow:?}, {reason:?}),\n",
            violation.site.file,
            violation.site.line,
            violation.why.join("; ")
        ));
    }
    out.push_str("];\n\nconst KNOWN_CYCLES: &[(&[&str], &str)] = &[\n");
    for cycle in cycles {
        let members: BTreeSet<&str> = cycle.members.iter().map(String::as_str).collect();
        let reason = known_cycles
            .iter()
            .find(|(k, _)| members.is_subset(&k.iter().copied().collect()))
            .map_or(TODO, |(_, reason)| *reason);
        out.push_str(&format!(
            "    // {} modules; one path: {}\n    (\n        &[\n",
            cycle.members.len(),
            cycle.path.join(" → ")
        ));
        for member in &cycle.members {
            out.push_str(&format!("            {member:?},\n"));
        }
        out.push_str(&format!("        ],\n        {reason:?},\n    ),\n"));
    }
    out.push_str("];\n");
    out
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
