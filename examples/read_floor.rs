//! The parallel read floor: walks a folder with the same walker settings as skilllint and reads
//! every file, doing nothing else. `cargo run --release --example read_floor -- DIR [THREADS]`
//! prints the bytes read and the time taken; skilllint cannot be faster than this on DIR.

use ignore::{WalkBuilder, WalkState};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(root) = args.next() else {
        eprintln!("usage: read_floor DIR [THREADS]");
        return ExitCode::from(2);
    };
    let threads = match args.next().map(|t| t.parse::<usize>()) {
        None => 2,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("THREADS must be a positive number");
            return ExitCode::from(2);
        }
    };
    let total = AtomicU64::new(0);
    let started = std::time::Instant::now();
    WalkBuilder::new(&root)
        .hidden(false)
        .follow_links(true)
        .require_git(false)
        .threads(threads)
        .build_parallel()
        .run(|| {
            let total = &total;
            Box::new(move |entry| {
                if let Ok(entry) = entry {
                    if entry.file_type().is_some_and(|t| t.is_file()) {
                        let read = std::fs::read(entry.path()).map_or(0, |bytes| bytes.len());
                        total.fetch_add(read as u64, Ordering::Relaxed);
                    }
                }
                WalkState::Continue
            })
        });
    println!(
        "{} bytes read in {:.3} s with {threads} threads",
        total.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
