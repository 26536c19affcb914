//! Byte offsets in a scenario file turned into the 1-based line and column
//! (in characters) that error messages name. Every value of a scenario is
//! located this way, so a lookup must not rescan the file from its start:
//! that made loading 10,000 cases take seconds and 100,000 take minutes.

use crate::options::Pos;

/// Continuation bytes are counted in blocks of this many bytes, so a column
/// costs at most one block's scan however long its line is.
const BLOCK: usize = 4096;

/// Where each line starts, and how many UTF-8 continuation bytes precede
/// each block boundary (a column counts characters, not bytes).
pub struct LineIndex<'t> {
    text: &'t str,
    line_starts: Vec<usize>,
    continuation_before_block: Vec<usize>,
}

fn is_continuation(byte: u8) -> bool {
    byte & 0b1100_0000 == 0b1000_0000
}

impl<'t> LineIndex<'t> {
    /// Indexes `text` in one pass.
    pub fn new(text: &'t str) -> LineIndex<'t> {
        let bytes = text.as_bytes();
        let line_starts = std::iter::once(0)
            .chain(
                bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, &b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        let mut continuation_before_block = vec![0];
        let mut count = 0;
        for block in bytes.chunks(BLOCK) {
            count += block.iter().filter(|&&b| is_continuation(b)).count();
            continuation_before_block.push(count);
        }
        LineIndex {
            text,
            line_starts,
            continuation_before_block,
        }
    }

    /// Continuation bytes before `offset`.
    fn continuation_before(&self, offset: usize) -> usize {
        let block = offset / BLOCK;
        let scanned = &self.text.as_bytes()[block * BLOCK..offset];
        self.continuation_before_block[block]
            + scanned.iter().filter(|&&b| is_continuation(b)).count()
    }

    /// The line and column of a byte offset (clamped to the text).
    pub fn position(&self, offset: usize) -> Pos {
        let offset = self.text.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let start = self.line_starts[line - 1];
        let chars =
            (offset - start) - (self.continuation_before(offset) - self.continuation_before(start));
        Pos {
            line,
            col: chars + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition the index must agree with: count from the start.
    fn rescanned(text: &str, offset: usize) -> Pos {
        let before = &text[..offset];
        Pos {
            line: before.matches('\n').count() + 1,
            col: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
        }
    }

    #[test]
    fn agrees_with_a_rescan_on_multibyte_text_across_blocks() {
        let line = "ключ = \"значение\" # ü→€\n";
        let text = line.repeat(2 * BLOCK / line.len() + 3);
        let index = LineIndex::new(&text);
        for (offset, _) in text.char_indices() {
            assert_eq!(index.position(offset), rescanned(&text, offset), "{offset}");
        }
        assert_eq!(index.position(text.len()), rescanned(&text, text.len()));
    }
}
