//! Where the command line's output goes: a report to `-o FILE` (never over a file the run read)
//! or standard output, a baseline the repository names only inside it, and a closed pipe taken
//! as the reader's choice, not a failure.

use super::terminal;
use super::EXIT_USAGE;
use skilllint::escape::display_path;
use skilllint::{output_file, render};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Why `-o FILE` (or standard output) could not take the report.
pub(crate) struct WriteError {
    /// The `-o` file; `None` for standard output.
    pub(crate) path: Option<std::path::PathBuf>,
    pub(crate) error: std::io::Error,
}

impl WriteError {
    /// `cannot write the report to out/x.sarif: No such file or directory (os error 2)`.
    pub(crate) fn describe(&self, what: &str) -> String {
        match &self.path {
            Some(path) => format!(
                "cannot write {what} to {}: {}",
                display_path(path),
                self.error
            ),
            None => format!("cannot write {what}: {}", self.error),
        }
    }
}

/// Writes `report` to `output` (standard output for `None`), never over one of `inputs`, the
/// files the run read.
pub(crate) fn write_report(
    output: Option<&std::path::Path>,
    report: &str,
    inputs: &[skilllint::source::SourceFile],
) -> Result<(), WriteError> {
    write_report_with(output, inputs, |emit| emit(report))
}

/// Opens `output` (standard output for `None`; never one of `inputs`, the files the run read),
/// then lets `draw` hand it the report piece by piece, each written as soon as it is drawn.
pub(crate) fn write_report_with(
    output: Option<&std::path::Path>,
    inputs: &[skilllint::source::SourceFile],
    draw: impl FnOnce(&mut render::Emit<'_>) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    match output {
        Some(path) if output_file::is_lint_input(path, inputs) => Err(WriteError {
            path: Some(path.to_path_buf()),
            error: std::io::Error::other(
                "it is a file this run linted, and the report would replace it; nothing was written",
            ),
        }),
        Some(path) => {
            let failed = |error: std::io::Error| WriteError {
                path: Some(path.to_path_buf()),
                error,
            };
            let mut file = output_file::ReportFile::create(path).map_err(failed)?;
            draw(&mut |piece: &str| file.write(piece.as_bytes())).map_err(failed)?;
            file.finish().map_err(failed)
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            draw(&mut |piece: &str| stdout.write_all(piece.as_bytes()))
                .and_then(|()| stdout.flush())
                .map_err(|error| WriteError { path: None, error })
        }
    }
}

/// Writes `text` to `path`, a file the repository named (its configuration's baseline), only
/// inside `root` and never over one of `inputs`: checked again right before the write, and
/// written to a temporary file renamed over the real target ([`output_file::ReportFile::create_confined`]).
pub(crate) fn write_confined(
    path: &Path,
    root: &Path,
    text: &str,
    inputs: &[skilllint::source::SourceFile],
) -> Result<(), WriteError> {
    let failed = |error: std::io::Error| WriteError {
        path: Some(path.to_path_buf()),
        error,
    };
    if output_file::is_lint_input(path, inputs) {
        return Err(failed(std::io::Error::other(
            "it is a file this run linted, and the baseline would replace it; nothing was written",
        )));
    }
    let mut file = output_file::ReportFile::create_confined(path, root).map_err(failed)?;
    file.write(text.as_bytes()).map_err(failed)?;
    file.finish().map_err(failed)
}

/// Prints `text` on standard output. A reader that stops early (`skilllint rules | head`) is not
/// a failure; `print!` would panic on the closed pipe.
pub(crate) fn print_to_stdout(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            terminal::error(&format!("cannot write to standard output: {error}"));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Writes a report to `output`, else to standard output; exit `code`, or 2 when it cannot be
/// written.
pub(crate) fn emit(output: Option<&Path>, text: &str, code: ExitCode) -> ExitCode {
    let Some(output) = output else {
        return match print_to_stdout(text) {
            ExitCode::SUCCESS => code,
            failed => failed,
        };
    };
    // `tools` and `diff` keep no file texts; the report writer still refuses `..` escapes.
    match write_report(Some(output), text, &[]) {
        Ok(()) => code,
        Err(error) => {
            terminal::error(&error.describe("the report"));
            ExitCode::from(EXIT_USAGE)
        }
    }
}
