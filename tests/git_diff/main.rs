//! `skilllint diff BASE [HEAD]` over git revisions, run as a user runs it, on repositories built
//! here with the `git` binary (the tests may run git; skilllint never does): each kind of change
//! reported once with its place on the HEAD side, the work tree as the default HEAD, each side
//! read with its own committed configuration, a hostile repository that configures programs to
//! run, a shallow clone, a bare repository.
//!
//! One module per topic; `common` holds the scratch repositories and the report readers.

mod changes;
mod common;
mod config;
#[path = "../support/git.rs"]
mod git_support;
mod links;
mod repositories;
mod sides;
mod surface;
