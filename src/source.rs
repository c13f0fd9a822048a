//! Source files and byte spans: every diagnostic points into one of these.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

/// Index of a file in a [`Sources`] set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub(crate) u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub(crate) file: FileId,
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Span {
    pub(crate) fn new(file: FileId, start: usize, end: usize) -> Span {
        let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Span {
            file,
            start: clamp(start),
            end: clamp(end.max(start)),
        }
    }

    pub(crate) fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Bytes per block of the character index: a column costs at most two blocks of counting.
const BLOCK: usize = 4096;

/// One loaded file: its display name (as the user gave it, never made absolute) and text.
#[derive(Debug)]
pub struct SourceFile {
    pub(crate) name: String,
    /// democ's embedded files (the catalog) are borrowed, not copied: every run loads them.
    pub(crate) text: Cow<'static, str>,
    /// Made on the first location asked for: most files (the embedded catalog's, every
    /// file of a clean spec) are never asked, so none is indexed before it is.
    index: OnceLock<Index>,
}

#[derive(Debug)]
struct Index {
    line_starts: Vec<usize>,
    /// Characters before each `BLOCK`-byte boundary; empty for ASCII text (where a byte
    /// is a character). Columns are then found without counting from the line start,
    /// which made thousands of diagnostics on one long line quadratic.
    chars_before_block: Vec<usize>,
}

/// UTF-8 bytes that start a character (every byte but continuation bytes).
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

impl Index {
    fn new(text: &str) -> Index {
        let line_starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
            .collect();
        let chars_before_block = if text.is_ascii() {
            Vec::new()
        } else {
            let mut total = 0;
            std::iter::once(0)
                .chain(text.as_bytes().chunks(BLOCK).map(|b| {
                    total += char_starts(b);
                    total
                }))
                .collect()
        };
        Index {
            line_starts,
            chars_before_block,
        }
    }
}

impl SourceFile {
    fn new(name: String, text: Cow<'static, str>) -> SourceFile {
        SourceFile {
            name,
            text,
            index: OnceLock::new(),
        }
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| Index::new(&self.text))
    }

    /// Characters before a byte offset (on a character boundary), in O(BLOCK).
    fn chars_before(&self, offset: usize) -> usize {
        let blocks = &self.index().chars_before_block;
        if blocks.is_empty() {
            return offset;
        }
        let block = offset / BLOCK;
        let base = blocks.get(block).copied().unwrap_or(0);
        base + char_starts(&self.text.as_bytes()[block * BLOCK..offset])
    }

    /// 1-based line and column (in characters) of a byte offset, in O(log lines).
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let starts = &self.index().line_starts;
        let line = starts.partition_point(|&s| s <= offset) - 1;
        let start = starts[line];
        let col = self.chars_before(offset) - self.chars_before(start);
        (line + 1, col + 1)
    }

    /// 0-based index of the line holding a byte offset, in O(log lines).
    pub(crate) fn line_index(&self, offset: usize) -> usize {
        self.index()
            .line_starts
            .partition_point(|&s| s <= offset.min(self.text.len()))
            - 1
    }

    /// Byte range of a 0-based line, its line break included (None past the last line).
    pub(crate) fn line_range(&self, index: usize) -> Option<Range<usize>> {
        let starts = &self.index().line_starts;
        let start = *starts.get(index)?;
        let end = starts.get(index + 1).copied().unwrap_or(self.text.len());
        Some(start..end)
    }

    /// Byte offset of a 1-based line and a 1-based character column.
    pub(crate) fn offset_of(&self, line: usize, col: usize) -> usize {
        let Some(&start) = self.index().line_starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let rest = &self.text[start..];
        rest.char_indices()
            .nth(col.saturating_sub(1))
            .map_or(self.text.len(), |(i, _)| start + i)
    }
}

/// Every file read during one compilation.
#[derive(Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    pub(crate) fn add(
        &mut self,
        name: impl Into<String>,
        text: impl Into<Cow<'static, str>>,
    ) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).unwrap_or(u32::MAX));
        self.files.push(SourceFile::new(name.into(), text.into()));
        id
    }

    pub(crate) fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub(crate) fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    pub(crate) fn len(&self) -> usize {
        self.files.len()
    }
}
