//! A large document read by the fast reader on two threads. Its bulk is nearly always
//! one list that is a top-level key's value (a show's `flows:`: 100,000 lines of the
//! largest synth show's 115,000), so the text is cut between two entries of that list
//! near the middle of the text: one thread reads the document up to the cut (to that
//! reader the text ends there), the other reads the list's entries from the cut on, and
//! the top-level keys after the list, if any, are read once both are done. The pieces
//! join into the tree that one reading of the whole text builds, spans and values
//! counted included. Whenever that is not certain (the middle is not in such a list, a
//! piece is outside the fast subset, the values limit is near) the whole text is read on
//! one thread, as before, which decides.
//!
//! Not in yaml::fast itself: build.rs compiles that file alone, without crate::par.

use super::fast::{self, Line, Reader, has_duplicates};
use super::node::{Kind, Node};
use crate::source::FileId;

/// Below this size a second thread costs more than it saves (the largest synth show is
/// 8.5 MB, the 100-switch one 0.8 MB, sc16 a few kilobytes).
const MIN_BYTES: usize = 256 * 1024;

/// [`fast::parse_or_limit`], on two threads when the text is large and can be cut.
pub(crate) fn parse_or_limit(
    text: &str,
    file: FileId,
    max_depth: usize,
    max_nodes: usize,
) -> Result<Option<(Node, usize)>, usize> {
    let threads = if text.len() < MIN_BYTES { 1 } else { 2 };
    match read(text, file, max_depth, max_nodes, threads) {
        Some(read) => Ok(Some(read)),
        None => fast::parse_or_limit(text, file, max_depth, max_nodes),
    }
}

/// Where the text is cut: between two entries of one block list, each on one line.
struct Cut {
    /// The start of the line before the cut (an entry).
    prev: usize,
    /// The start of the line after the cut (the next entry).
    at: usize,
    /// The entries' indentation.
    col: usize,
}

/// The indentation of a block list's entry line that has content after its `- `.
fn entry_col(line: &[u8]) -> Option<usize> {
    let col = line.iter().take_while(|&&c| c == b' ').count();
    match line.get(col..col + 3)? {
        [b'-', b' ', c] if !matches!(c, b' ' | b'#' | b'\n') => Some(col),
        _ => None,
    }
}

/// The first pair of consecutive entry lines at one indentation after the middle of the
/// text, looked for over a few lines only: a middle outside a list of one-line entries
/// is not cut.
fn cut(b: &[u8]) -> Option<Cut> {
    let next = |i: usize| {
        b.get(i..)?
            .iter()
            .position(|&c| c == b'\n')
            .map(|k| i + k + 1)
    };
    let mut prev = next(b.len() / 2)?;
    for _ in 0..64 {
        let at = next(prev)?;
        match (entry_col(&b[prev..]), entry_col(&b[at..])) {
            (Some(p), Some(c)) if p == c => return Some(Cut { prev, at, col: c }),
            _ => prev = at,
        }
    }
    None
}

/// What one thread read: its tree or list and the line after it, the values it counted,
/// whether it reached the limit, and where it stopped.
struct Part {
    read: Option<(Node, Line)>,
    nodes: usize,
    breach: bool,
    pos: usize,
    line_start: usize,
}

impl Part {
    fn of(read: Option<(Node, Line)>, r: &Reader) -> Part {
        Part {
            read,
            nodes: r.nodes,
            breach: r.breach.is_some(),
            pos: r.pos,
            line_start: r.line_start,
        }
    }
}

/// The tree and its values, read on `threads` threads when the text can be cut; None
/// when it was not read so (the caller then reads it on one).
fn read(
    text: &str,
    file: FileId,
    max_depth: usize,
    max_nodes: usize,
    threads: usize,
) -> Option<(Node, usize)> {
    let b = text.as_bytes();
    if threads < 2 || !fast::subset_bytes(b) {
        return None;
    }
    // A text that may exceed the values limit is first counted without keeping anything
    // (fast::parse_or_limit): left to that path.
    if b.len() > max_nodes && fast::most_values(b) > max_nodes {
        return None;
    }
    let cut = cut(b)?;
    // The indentation of the document's top-level keys: a list at the same indentation
    // as its key is indentless.
    let Line::At(root) = Reader::new(text, file, max_depth, max_nodes).next_line()? else {
        return None;
    };
    let head_text = text.get(..cut.at)?;
    let tail = || {
        let mut r = Reader::new(text, file, max_depth, max_nodes);
        r.pos = cut.at;
        let read = match r.next_line() {
            // The depth a top-level key's value is read at.
            Some(Line::At(c)) if c == cut.col => r.seq(c, 1, c == root),
            _ => None,
        };
        Part::of(read, &r)
    };
    let head = || {
        let mut r = Reader::new(head_text, file, max_depth, max_nodes);
        let read = r.document().map(|n| (n, Line::End));
        Part::of(read, &r)
    };
    // One after the other: this file goes with the fast reader.
    let (tail, head) = (tail(), head());
    if head.breach || tail.breach {
        return None;
    }
    let (mut tree, _) = head.read?;
    let (list, after) = tail.read?;
    // The tail's reader counted its list a second time.
    let mut nodes = head.nodes + tail.nodes - 1;
    let Kind::Map(entries) = &mut tree.kind else {
        return None;
    };
    // The head's last value must be the list the tail read on: its last entry is the one
    // on the line before the cut, right after that line's `- ` (so the list is the one
    // whose dashes stand at the cut's indentation).
    let Kind::Seq(items) = &mut entries.last_mut()?.1.kind else {
        return None;
    };
    if items.last()?.span.range().start != cut.prev + cut.col + 2 {
        return None;
    }
    let Kind::Seq(rest) = list.kind else {
        return None;
    };
    items.extend(rest);
    match after {
        Line::End => {}
        // More top-level keys after the list: read here, as the one reading reads them
        // (its reader's root mapping, at the same depth).
        Line::At(m) if m == root => {
            let mut r = Reader::new(text, file, max_depth, max_nodes);
            r.pos = tail.pos;
            r.line_start = tail.line_start;
            let (more, line) = r.map(root, 0)?;
            let Kind::Map(more) = more.kind else {
                return None;
            };
            if line != Line::End || r.breach.is_some() {
                return None;
            }
            // The mapping this reader opened is not one more value.
            nodes += r.nodes - 1;
            entries.extend(more);
            if has_duplicates(entries) {
                return None;
            }
        }
        Line::At(_) => return None,
    }
    (nodes <= max_nodes).then_some((tree, nodes))
}

#[cfg(test)]
#[path = "halves_tests.rs"]
mod tests;
