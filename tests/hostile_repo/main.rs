//! A repository written by an attacker: each attack is built in a temporary folder and the
//! outcome asserted (nothing written or read outside the root, no forged output lines, linear
//! time, nothing skipped silently). One module per class of attack.

mod baseline;
mod capability_diff;
mod common;
mod config;
mod docs;
mod fix;
mod git_history;
#[path = "../support/git.rs"]
mod git_support;
mod ignore_files;
mod input;
mod language_server;
mod output;
mod policies;
mod scale;
mod text_scans;
mod yaml_aliases;
