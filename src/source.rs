//! Source files, byte spans and the byte-offset → line/column mapping used at output time.

use std::path::PathBuf;

/// A half-open byte range `[start, end)` into a file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub const fn empty(at: usize) -> Self {
        Span { start: at, end: at }
    }

    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// Moves a span that was computed relative to a slice into the coordinates of the whole file.
    pub const fn shifted(self, base: usize) -> Self {
        Span {
            start: self.start + base,
            end: self.end + base,
        }
    }

    pub fn contains(&self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }
}

/// Identifies a file in the lint run. File ids follow the sorted order of relative paths, so sorting
/// diagnostics by id sorts them by path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// A file taking part in the run, with its text when it could be read as UTF-8.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the lint root, with `/` separators (what every output format prints).
    pub rel_path: String,
    pub abs_path: PathBuf,
    /// The file's text; empty when the file could not be read (an SL001 diagnostic says why).
    pub text: String,
}

/// The run's files by [`FileId`]: what renderers read (paths and texts), without the index.
///
/// Besides the repository's files it may hold the baseline file a run read (its findings, stale
/// and expired entries, point into it), numbered after them, and the path each file is shown
/// under: the command line shows paths relative to the current folder, while `rel_path` stays
/// relative to the lint root for everything below the render edge.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    files: &'a [SourceFile],
    baseline: Option<&'a SourceFile>,
    shown: Option<&'a [String]>,
}

impl<'a> Sources<'a> {
    /// `files[i]` is the file of `FileId(i)`.
    pub fn new(files: &'a [SourceFile]) -> Self {
        Sources {
            files,
            baseline: None,
            shown: None,
        }
    }

    /// These sources with the run's baseline file, as `FileId(files.len())`.
    pub fn with_baseline(self, baseline: Option<&'a SourceFile>) -> Self {
        Sources { baseline, ..self }
    }

    /// These sources showing file `i` as `shown[i]` (see [`Sources::path`]).
    pub fn with_shown(self, shown: &'a [String]) -> Self {
        Sources {
            shown: Some(shown),
            ..self
        }
    }

    pub fn file(&self, id: FileId) -> &'a SourceFile {
        let index = id.0 as usize;
        match (self.files.get(index), self.baseline) {
            (Some(file), _) => file,
            (None, Some(baseline)) if index == self.files.len() => baseline,
            _ => &self.files[index],
        }
    }

    pub fn text(&self, id: FileId) -> &'a str {
        &self.file(id).text
    }

    /// The path a report shows for a file: the one given by [`Sources::with_shown`], else its
    /// `rel_path`.
    pub fn path(&self, id: FileId) -> &'a str {
        match self.shown.and_then(|shown| shown.get(id.0 as usize)) {
            Some(path) => path,
            None => &self.file(id).rel_path,
        }
    }

    /// The repository's files, in `FileId` order (the baseline file is not among them).
    pub fn all(&self) -> &'a [SourceFile] {
        self.files
    }

    /// The baseline file of the run, if one was read (its id is `all().len()`).
    pub fn baseline(&self) -> Option<&'a SourceFile> {
        self.baseline
    }

    /// Every file with its id: the repository's, then the baseline file.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &'a SourceFile)> + 'a {
        self.files
            .iter()
            .chain(self.baseline)
            .enumerate()
            .map(|(index, file)| (FileId(index as u32), file))
    }
}

/// A `/`-separated path cut at its last `/`: (folder, file name), the folder `""` when there is
/// none. A byte scan: rules ask this of short paths thousands of times, and `rsplit`/`rfind`
/// set up a searcher on every call.
pub fn split_path(path: &str) -> (&str, &str) {
    match path.bytes().rposition(|b| b == b'/') {
        // `/` is ASCII, so both cuts fall on char boundaries.
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("", path),
    }
}

/// Collapses `.` and `..` segments of a `/`-separated path. The shown path of a file named on
/// the command line outside the lint root keeps what places it: the leading `/` of an absolute
/// path, the leading `..` of one above the lint root (`../other/.tools/x`). `None` when an
/// absolute path climbs above `/`.
pub fn normalize_path(path: &str) -> Option<String> {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&"..") | None if !absolute => parts.push(".."),
                _ => {
                    parts.pop()?;
                }
            },
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    Some(if absolute {
        format!("/{joined}")
    } else {
        joined
    })
}

/// Whether the `/`-separated `path` is inside `folder` (both relative to the same root).
pub fn is_below(path: &str, folder: &str) -> bool {
    path.len() > folder.len() && path.starts_with(folder) && path.as_bytes()[folder.len()] == b'/'
}

/// Sorts `(folder, value)` pairs deepest folder first (then by name), as [`nearest`] reads them.
pub fn deepest_first<T>(scoped: &mut [(String, T)]) {
    scoped.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
}

/// The value of the nearest folder of `scoped` (sorted by [`deepest_first`]) that holds the
/// file at `path`: what a configuration file in a folder decides for the files below it.
pub fn nearest<'a, T>(scoped: &'a [(String, T)], path: &str) -> Option<&'a T> {
    scoped
        .iter()
        .find(|(folder, _)| is_below(path, folder))
        .map(|(_, value)| value)
}

/// The folder part of a `/`-separated path (`""` for a bare file name).
pub fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// `reference` read from folder `base`: an absolute reference (leading `/`) is relative to the
/// lint root, and so is any reference from an empty base; normalise the result with
/// [`normalize_path`].
pub fn join_path(base: &str, reference: &str) -> String {
    if reference.starts_with('/') {
        reference.trim_start_matches('/').to_string()
    } else if base.is_empty() {
        reference.to_string()
    } else {
        format!("{base}/{reference}")
    }
}

/// The folder holding `path`: its parent, or `.` for a bare file name (whose parent is empty).
pub fn folder_of(path: &std::path::Path) -> &std::path::Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => std::path::Path::new("."),
    }
}

/// `path` made absolute against `cwd`, with `.` and `..` resolved lexically (as a shell does,
/// without reading links): where a path the user typed leads, for comparing it with others.
/// `path` without its `.` components (`./a/b` is `a/b`): how the walk's paths (`./a/b` under
/// the folder `.`) and the ones typed (`a/b`) are compared.
pub fn without_cur_dir(path: &std::path::Path) -> std::path::PathBuf {
    path.components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect()
}

pub fn absolute_in(cwd: &std::path::Path, path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for component in cwd.join(path).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                // Above the root stays at the root, as the operating system resolves it.
                if !matches!(
                    out.components().next_back(),
                    None | Some(Component::RootDir | Component::Prefix(_))
                ) {
                    out.pop();
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// 1-based line and column; the column counts Unicode scalar values, as SARIF and editors expect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// Maps byte offsets to lines and columns. Built only for files that have diagnostics.
///
/// Both lookups cost O(log lines + CHAR_BLOCK), whatever the length of the line: a column is a
/// difference of two prefix counts of chars, each read from a checkpoint table and finished by
/// counting at most one block. Counting from the line start instead made a file with many
/// findings on one long line quadratic.
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    /// `chars_before[k]`: chars starting before byte `k * CHAR_BLOCK`. Empty for an ASCII text,
    /// where a char count is a byte count.
    chars_before: Vec<usize>,
}

/// Bytes between two char-count checkpoints of a [`LineIndex`].
const CHAR_BLOCK: usize = 256;

/// Whether `b` starts a char (is not a UTF-8 continuation byte).
const fn starts_char(b: u8) -> bool {
    (b as i8) >= -0x40
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(memchr_newlines(text));
        let chars_before = if text.is_ascii() {
            Vec::new()
        } else {
            let mut counted = 0;
            let mut table = Vec::with_capacity(text.len() / CHAR_BLOCK + 1);
            for block in text.as_bytes().chunks(CHAR_BLOCK) {
                table.push(counted);
                counted += block.iter().filter(|b| starts_char(**b)).count();
            }
            table.push(counted);
            table
        };
        LineIndex {
            text,
            line_starts,
            chars_before,
        }
    }

    /// The number of chars that start before `offset`.
    fn chars_up_to(&self, offset: usize) -> usize {
        if self.chars_before.is_empty() {
            return offset;
        }
        let block = offset / CHAR_BLOCK;
        let base = self.chars_before.get(block).copied().unwrap_or(0);
        let from = block * CHAR_BLOCK;
        let tail = self.text.as_bytes().get(from..offset).unwrap_or_default();
        base + tail.iter().filter(|b| starts_char(**b)).count()
    }

    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = clamp_to_char_boundary(self.text, offset);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let line_start = self.line_starts[line];
        let column = self.chars_up_to(offset) - self.chars_up_to(line_start) + 1
            - leading_bom(self.text, line_start, offset);
        LineCol {
            line: line + 1,
            column,
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

/// Line and column of offsets in one text, each counted on from the one before: for a file with
/// a few positions to place in increasing order (a concise report places one per diagnostic,
/// sorted), cheaper than a [`LineIndex`] of every line. Same answers as [`LineIndex::line_col`].
pub struct LineCursor<'a> {
    text: &'a str,
    /// The offset counted up to, the 0-based line it is on and the 0-based column of `offset` on
    /// it: each call counts only the bytes since the last, so many positions on one long line
    /// cost the line once, not once per position.
    offset: usize,
    line: usize,
    column: usize,
}

impl<'a> LineCursor<'a> {
    pub fn new(text: &'a str) -> Self {
        LineCursor {
            text,
            offset: 0,
            line: 0,
            column: 0,
        }
    }

    pub fn line_col(&mut self, offset: usize) -> LineCol {
        let offset = clamp_to_char_boundary(self.text, offset);
        if offset < self.offset {
            *self = LineCursor::new(self.text);
        }
        let skipped = &self.text.as_bytes()[self.offset..offset];
        // memchr counts with vector instructions; then one search back for the line start.
        self.line += memchr::memchr_iter(b'\n', skipped).count();
        let counted_from = match memchr::memrchr(b'\n', skipped) {
            Some(last) => {
                self.column = 0;
                self.offset + last + 1
            }
            None => self.offset,
        };
        self.column += self.text[counted_from..offset].chars().count();
        self.offset = offset;
        LineCol {
            line: self.line + 1,
            // Only the first line starts at offset 0, where a byte order mark can be.
            column: self.column + 1
                - usize::from(self.line == 0 && offset >= BOM.len() && self.text.starts_with(BOM)),
        }
    }
}

/// 1 when the span from `line_start` to `offset` begins with the file's byte order mark, which
/// editors do not show and do not count as a column; else 0.
fn leading_bom(text: &str, line_start: usize, offset: usize) -> usize {
    usize::from(line_start == 0 && offset >= BOM.len() && text.starts_with(BOM))
}

const BOM: &str = "\u{feff}";

fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1)
}

/// Rounds an offset down to a char boundary inside `text`, so slicing never panics even when a span
/// was computed from untrusted positions.
pub fn clamp_to_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The text covered by `span`, or an empty string when the span does not fit the text.
pub fn slice(text: &str, span: Span) -> &str {
    let start = clamp_to_char_boundary(text, span.start);
    let end = clamp_to_char_boundary(text, span.end.max(start));
    &text[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalized_paths_keep_what_places_them() {
        assert_eq!(normalize_path("a/./b/../c").as_deref(), Some("a/c"));
        assert_eq!(
            normalize_path("/tmp/x/.drivers/d/../../.tools/t").as_deref(),
            Some("/tmp/x/.tools/t")
        );
        assert_eq!(
            normalize_path("../x/.drivers/d/../../.tools/t").as_deref(),
            Some("../x/.tools/t")
        );
        assert_eq!(normalize_path("/a/../.."), None);
        // A reference written from the root is relative to the lint root, whatever the base.
        assert_eq!(join_path("/tmp/x/.drivers/d", "/.tools/t"), ".tools/t");
        assert_eq!(join_path("", "t"), "t");
        assert_eq!(join_path("a", "t"), "a/t");
    }

    #[test]
    fn line_col_counts_unicode_scalars() {
        let text = "ab\nçé x\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(index.line_col(3), LineCol { line: 2, column: 1 });
        // "çé " is 5 bytes, 3 chars: the `x` is at column 4.
        assert_eq!(index.line_col(8), LineCol { line: 2, column: 4 });
        assert_eq!(index.line_col(text.len()), LineCol { line: 3, column: 1 });
    }

    #[test]
    fn a_byte_order_mark_is_not_a_column() {
        let text = "\u{feff}ab\ncd";
        let index = LineIndex::new(text);
        let mut cursor = LineCursor::new(text);
        // (offset, column): the BOM itself, the `a` after it, the `b`, and line 2 untouched.
        for (offset, line, column) in [(0, 1, 1), (3, 1, 1), (4, 1, 2), (7, 2, 2)] {
            let expected = LineCol { line, column };
            assert_eq!(index.line_col(offset), expected, "offset {offset}");
            assert_eq!(cursor.line_col(offset), expected, "offset {offset}");
        }
    }

    #[test]
    fn line_cursor_agrees_with_the_line_index() {
        let text = "ab\nc\u{e9}d\n\n\u{1f600}x\ny\n";
        let index = LineIndex::new(text);
        let mut cursor = LineCursor::new(text);
        let mut offsets: Vec<usize> = (0..=text.len() + 2).collect();
        // Increasing, then from the start again, then repeated and backwards.
        offsets.extend([3, 3, 0, 9, 4, text.len() + 5, 1]);
        for offset in offsets {
            assert_eq!(
                cursor.line_col(offset),
                index.line_col(offset),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn columns_on_long_lines_match_a_count_from_the_line_start() {
        // Lines longer than a checkpoint block, with chars of every UTF-8 width straddling the
        // block edges.
        let line: String = (0..700)
            .map(|i| ['a', '\u{e9}', '\u{20ac}', '\u{1f600}'][i % 4])
            .collect();
        let text = format!("{line}\n{line}x\n\n{line}");
        let index = LineIndex::new(&text);
        let mut cursor = LineCursor::new(&text);
        for offset in (0..=text.len() + 1).filter(|o| text.is_char_boundary((*o).min(text.len()))) {
            let clamped = offset.min(text.len());
            let line_start = text[..clamped].rfind('\n').map_or(0, |i| i + 1);
            let expected = LineCol {
                line: text[..clamped].matches('\n').count() + 1,
                column: text[line_start..clamped].chars().count() + 1,
            };
            assert_eq!(index.line_col(offset), expected, "offset {offset}");
            assert_eq!(cursor.line_col(offset), expected, "offset {offset}");
        }
    }

    #[test]
    fn offsets_inside_a_char_are_clamped() {
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(1), LineCol { line: 1, column: 1 });
        assert_eq!(slice(text, Span::new(1, 1)), "");
        assert_eq!(slice(text, Span::new(5, 9)), "");
    }
}
