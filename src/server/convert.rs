//! Between skilllint's byte offsets and file paths and the protocol's positions (line and UTF-16
//! code unit, the encoding every client supports) and `file:` URIs.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where every line of a text starts and ends, to turn byte offsets into positions and back. A
/// line ends at `\n`, `\r\n` or a lone `\r`, as the protocol counts lines.
pub(crate) struct Lines<'a> {
    text: &'a str,
    /// The start of each line and the end of its text (before the line break).
    lines: Vec<(usize, usize)>,
    /// `units_before[k]`: UTF-16 code units of the text before byte `k * UNIT_BLOCK`. Empty for
    /// an ASCII text, where units are bytes. A column is then a difference of two prefix counts,
    /// each finished by counting at most one block: counting from the line start made a file
    /// with many findings on one long line (a minified tools.json) quadratic, as
    /// [`crate::source::LineIndex`] found for columns in code points.
    units_before: Vec<usize>,
}

/// Bytes between two UTF-16 checkpoints of a [`Lines`].
const UNIT_BLOCK: usize = 256;

/// The UTF-16 code units a byte accounts for, summed over a char's bytes: one for the first
/// byte of a char, two for the first byte of a four-byte char (a surrogate pair), none for a
/// continuation byte. So any run of bytes can be counted without finding char boundaries.
fn utf16_units_of(byte: u8) -> usize {
    match byte {
        0x80..=0xBF => 0,
        0xF0..=0xFF => 2,
        _ => 1,
    }
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut lines = Vec::new();
        let mut start = 0;
        for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if at < start {
                // The `\n` of a `\r\n` already taken.
                continue;
            }
            let crlf = bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n');
            lines.push((start, at));
            start = at + if crlf { 2 } else { 1 };
        }
        lines.push((start, text.len()));
        let units_before = if text.is_ascii() {
            Vec::new()
        } else {
            let mut counted = 0;
            let mut table = Vec::with_capacity(bytes.len() / UNIT_BLOCK + 2);
            for block in bytes.chunks(UNIT_BLOCK) {
                table.push(counted);
                counted += block.iter().map(|b| utf16_units_of(*b)).sum::<usize>();
            }
            table.push(counted);
            table
        };
        Lines {
            text,
            lines,
            units_before,
        }
    }

    /// The UTF-16 code units before byte `offset` (a char boundary).
    fn units_up_to(&self, offset: usize) -> usize {
        if self.units_before.is_empty() {
            return offset;
        }
        let block = offset / UNIT_BLOCK;
        let base = self.units_before.get(block).copied().unwrap_or(0);
        let tail = self
            .text
            .as_bytes()
            .get(block * UNIT_BLOCK..offset)
            .unwrap_or_default();
        base + tail.iter().map(|b| utf16_units_of(*b)).sum::<usize>()
    }

    /// The line holding byte `offset` (a line break belongs to the line it ends).
    fn line_of(&self, offset: usize) -> usize {
        self.lines
            .partition_point(|(start, _)| *start <= offset)
            .saturating_sub(1)
    }

    /// The position of byte `offset` (clamped to the text and to a character boundary; an
    /// offset inside a line break is the end of its line).
    pub(crate) fn position(&self, offset: usize) -> Position {
        let offset = crate::source::clamp_to_char_boundary(self.text, offset.min(self.text.len()));
        let line = self.line_of(offset);
        let (start, end) = self.lines[line];
        let character = self
            .units_up_to(offset.min(end))
            .saturating_sub(self.units_up_to(start));
        Position::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(character).unwrap_or(u32::MAX),
        )
    }

    pub(crate) fn range(&self, span: crate::source::Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a position; a line past the end is the end of the text, a character
    /// past the end of its line is the line's end (as the protocol asks).
    pub(crate) fn offset(&self, position: Position) -> usize {
        let Some((start, end)) = self.lines.get(position.line as usize).copied() else {
            return self.text.len();
        };
        let mut units = 0usize;
        for (index, c) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + index;
            }
            units += c.len_utf16();
        }
        end
    }
}

/// Applies a `didChange` content change to `text`: a range edit, or the whole text.
pub(crate) fn apply_change(text: &mut String, range: Option<Range>, new_text: &str) {
    match range {
        None => {
            text.clear();
            text.push_str(new_text);
        }
        Some(range) => {
            let lines = Lines::new(text);
            let start = lines.offset(range.start);
            let end = lines.offset(range.end).max(start);
            text.replace_range(start..end, new_text);
        }
    }
}

/// The local path a `file:` URI names; `None` for other schemes and for URIs naming a host.
pub(crate) fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let path = match rest.strip_prefix("localhost") {
        Some(path) => path,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let bytes = percent_decode(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        String::from_utf8(bytes).ok().map(PathBuf::from)
    }
}

fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The `file:` URI of an absolute path, every byte outside the unreserved set and `/`
/// percent-encoded.
pub(crate) fn path_to_uri(path: &Path) -> Option<Uri> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.to_str()?.replace('\\', "/").into_bytes();
    let mut uri = String::from("file://");
    if bytes.first() != Some(&b'/') {
        uri.push('/');
    }
    for byte in bytes {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    Uri::from_str(&uri).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    #[test]
    fn positions_count_utf16_code_units_and_round_trip() {
        // `é` is two bytes and one UTF-16 unit, `𝄞` four bytes and two units.
        let text = "ab\né𝄞x\n\nlast";
        let lines = Lines::new(text);
        let x = text.find('x').expect("x is in the text");
        assert_eq!(lines.position(x), Position::new(1, 3));
        assert_eq!(lines.offset(Position::new(1, 3)), x);
        assert_eq!(lines.position(text.len()), Position::new(3, 4));
        assert_eq!(
            lines.range(Span::new(0, 2)),
            Range::new(Position::new(0, 0), Position::new(0, 2))
        );
        // Past the end of a line: the line's end; past the last line: the text's end.
        assert_eq!(lines.offset(Position::new(0, 99)), 2);
        assert_eq!(lines.offset(Position::new(9, 0)), text.len());
    }

    #[test]
    fn columns_from_the_checkpoints_equal_counting_the_line() {
        // Lines longer than a checkpoint block, with one-, two-, three- and four-byte chars
        // straddling the block boundaries, and a line break of every kind.
        let line: String = "a é ✓ 𝄞 ".repeat(90);
        let text = format!("{line}\n{line}\r\n{line}\rtail 𝄞");
        let lines = Lines::new(&text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let line = lines.line_of(offset);
            let (start, end) = lines.lines[line];
            let counted: usize = text[start..offset.min(end)]
                .chars()
                .map(char::len_utf16)
                .sum();
            assert_eq!(
                lines.position(offset),
                Position::new(line as u32, counted as u32),
                "at byte {offset}"
            );
        }
    }

    #[test]
    fn crlf_and_a_lone_cr_end_lines_as_the_protocol_counts_them() {
        let text = "a\r\nbc\rd\n\re";
        let lines = Lines::new(text);
        let e = text.len() - 1;
        assert_eq!(lines.position(e), Position::new(4, 0));
        assert_eq!(
            lines.position(text.find('d').expect("d")),
            Position::new(2, 0)
        );
        // Inside `\r\n`: the end of the line it ends.
        assert_eq!(lines.position(2), Position::new(0, 1));
        assert_eq!(lines.offset(Position::new(1, 9)), 5);
        assert_eq!(lines.offset(Position::new(3, 0)), text.len() - 2);
    }

    #[test]
    fn incremental_changes_replace_the_range_they_name() {
        let mut text = String::from("one\ntwo é three\n");
        // `é` counts one unit: character 6 of the second line is the `t` of `three`.
        let at = Position::new(1, 6);
        apply_change(&mut text, Some(Range::new(at, at)), "and ");
        assert_eq!(text, "one\ntwo é and three\n");
        let across = Range::new(Position::new(0, 1), Position::new(1, 1));
        apply_change(&mut text, Some(across), "");
        assert_eq!(text, "owo é and three\n");
        apply_change(&mut text, None, "new");
        assert_eq!(text, "new");
    }

    #[test]
    fn file_uris_round_trip_with_percent_encoding() {
        let path = Path::new("/tmp/a b/ünï/tools.json");
        let uri = path_to_uri(path).expect("an absolute path has a URI");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BCn%C3%AF/tools.json");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        let other = Uri::from_str("untitled:Untitled-1").expect("a URI");
        assert_eq!(uri_to_path(&other), None);
    }
}
