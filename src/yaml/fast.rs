//! A fast path for the located tree: a reader for the plain subset of YAML that show
//! specs are written in — block mappings and sequences, one-line flow collections,
//! plain and simply quoted scalars, comments — building the tree straight from the text.
//! A general YAML parser spends most of a large show's time on machinery this subset
//! never needs.
//!
//! Anything outside the subset (anchors, aliases, tags, block and multi-line scalars,
//! escapes, multi-line flow collections, empty values, tabs, carriage returns, document
//! markers, duplicate keys, a scalar whose reading is not obvious, every error) returns
//! `None`, and the caller takes the serde-saphyr path, which reads all of YAML and
//! reports every error. Tests check that both paths build identical trees, spans
//! included: for every YAML file in the repository and for generated documents.

use super::node::{Key, Kind, Node};
use super::scalar::{plain, reading};
use super::text::Text;
use crate::fxhash::FxSet;
use crate::source::{FileId, Span};

/// Builds the tree, or None when the document needs the full path.
pub(crate) fn parse(text: &str, file: FileId, max_depth: usize, max_nodes: usize) -> Option<Node> {
    parse_or_limit(text, file, max_depth, max_nodes)
        .ok()
        .flatten()
        .map(|(tree, _)| tree)
}

/// As [`parse`], but Err(byte offset) when the document reached `max_nodes` values there:
/// it is then refused at once, not read a second time by the full path to find that out.
/// The fast path counts no more values than the full path does, so the full path would
/// have refused it too. With the tree, the values it holds ([`Node::count`], counted
/// while reading: walking the largest synth show's million values again took 10 ms).
pub(crate) fn parse_or_limit(
    text: &str,
    file: FileId,
    max_depth: usize,
    max_nodes: usize,
) -> Result<Option<(Node, usize)>, usize> {
    if !subset_bytes(text.as_bytes()) {
        return Ok(None);
    }
    // Every value takes a byte at least: only a text longer than the limit can reach it.
    // Such a text is first read without keeping anything, so that a hostile one is
    // refused without building millions of values (hundreds of megabytes) first. Its
    // scalars are only checked, not copied (nothing would keep the copies): allocating
    // and freeing them was about a twelfth of the reader's time on a large show.
    if text.len() > max_nodes && most_values(text.as_bytes()) > max_nodes {
        let mut dry = Reader::new(text, file, max_depth, max_nodes);
        dry.dry = true;
        dry.bare = true;
        dry.document();
        if let Some(at) = dry.breach {
            return Err(at);
        }
    }
    let mut r = Reader::new(text, file, max_depth, max_nodes);
    let tree = r.document();
    match r.breach {
        Some(at) => Err(at),
        None => Ok(tree.map(|t| (t, r.nodes))),
    }
}

/// At least as many values as the reader can count in `b` before it stops: a key is
/// counted with its `:`, a mapping's value after that `:`, a list's entry after its
/// `-`, `[` or `,`; the document's root is one more, and so is the one scalar read where
/// the reader gives up (a key without its `:`). A text within the values limit by this
/// count cannot reach it, so it is read once: the counting pass before the keeping one
/// was a third of reading the largest synth show, which has half the limit's values.
pub(super) fn most_values(b: &[u8]) -> usize {
    // Summed in chunks whose byte-wise sums cannot overflow a u32, which the compiler
    // turns into vector code.
    b.chunks(1 << 20)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&c| {
                    2 * u32::from(c == b':')
                        + u32::from(c == b'-')
                        + u32::from(c == b',')
                        + u32::from(c == b'[')
                })
                .sum::<u32>() as usize
        })
        .sum::<usize>()
        + 2
}

/// Whether every byte may appear in the subset: no tab, carriage return or other
/// control character, no C1 control (NEL is a YAML 1.1 line break), no LS or PS (the
/// same), no byte order mark or non-character.
pub(super) fn subset_bytes(b: &[u8]) -> bool {
    // Printable ASCII and line breaks (nearly all of a show spec) are taken 16 bytes at a
    // time, without branches the compiler cannot turn into vector code: byte by byte,
    // this check was a seventh of the fast path.
    let printable = |c: u8| (0x20..0x7f).contains(&c) || c == b'\n';
    let mut i = 0;
    while i < b.len() {
        if let Some(chunk) = b.get(i..i + 16) {
            if chunk.iter().fold(true, |ok, &c| ok & printable(c)) {
                i += 16;
                continue;
            }
        }
        let c = b[i];
        let next = |k: usize| b.get(i + k).copied().unwrap_or(0);
        let bad = match c {
            b'\n' => false,
            0..=0x1f | 0x7f => true,
            0xc2 => (0x80..=0x9f).contains(&next(1)),
            0xe2 => next(1) == 0x80 && matches!(next(2), 0xa8 | 0xa9),
            0xef => (next(1) == 0xbb && next(2) == 0xbf) || (next(1) == 0xbf && next(2) >= 0xbe),
            _ => false,
        };
        if bad {
            return false;
        }
        i += 1;
    }
    true
}

/// Where the reader stands after a line's content: on the first character of the next
/// line with content (at this indentation), or at the end of the text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Line {
    At(usize),
    End,
}

/// Block context (a value on its own line) or flow context (inside `[ ]` or `{ }`),
/// where `,[]{}` end a plain scalar.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Block,
    Flow,
}

pub(super) struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    pub(super) pos: usize,
    pub(super) line_start: usize,
    file: FileId,
    pub(super) nodes: usize,
    max_nodes: usize,
    max_depth: usize,
    /// Where the values limit was reached.
    pub(super) breach: Option<usize>,
    /// Counting only: collections keep no entries (so duplicate keys go unseen).
    dry: bool,
    /// Scalars and keys read as stand-ins: checked, counted and spanned like the real ones
    /// (so the reader stops where it would), but null, with no text, number spelling or
    /// key name copied. Only with `dry`, which keeps none of them; separate from it so
    /// that tests can hold the two against each other.
    bare: bool,
    /// Room reserved for a flow sequence's items and a flow mapping's entries: as many as
    /// the last one had (a show's flows are lines of the same shape), so that most take
    /// one allocation instead of growing through two or three.
    room: [usize; 2],
}

/// The most room reserved ahead for a flow collection.
const MAX_ROOM: usize = 16;

/// YAML's limit on the length of an implicit key.
const MAX_KEY_BYTES: usize = 1024;

impl<'a> Reader<'a> {
    pub(super) fn new(
        text: &'a str,
        file: FileId,
        max_depth: usize,
        max_nodes: usize,
    ) -> Reader<'a> {
        Reader {
            text,
            b: text.as_bytes(),
            pos: 0,
            line_start: 0,
            file,
            nodes: 0,
            max_nodes,
            max_depth,
            breach: None,
            dry: false,
            bare: false,
            room: [0; 2],
        }
    }

    /// The whole document.
    pub(super) fn document(&mut self) -> Option<Node> {
        match self.next_line()? {
            // An empty document: where its null sits is the full path's to say.
            Line::End => None,
            Line::At(col) => {
                let (node, line) = match self.peek() {
                    Some(b'[' | b'{') => {
                        let n = self.inline(Ctx::Flow, 0)?;
                        (n, self.end_line()?)
                    }
                    _ => self.block(col, 0)?,
                };
                (line == Line::End).then_some(node)
            }
        }
    }

    /// Keeps a collection's entry, unless only counting.
    fn keep<T>(&self, items: &mut Vec<T>, item: T) {
        if !self.dry {
            items.push(item);
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    /// The cursor moved back to `pos` (to read spaces again).
    fn back(&mut self, pos: usize) -> &mut Self {
        self.pos = pos;
        self
    }

    fn skip_spaces(&mut self) -> bool {
        let start = self.pos;
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
        self.pos > start
    }

    /// Index just past the line break at or after `i` (or the end of the text).
    fn past_line(&self, i: usize) -> usize {
        self.b[i..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(self.b.len(), |k| i + k + 1)
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    /// A scalar read bare: where it was, nothing of what it says.
    fn stand_in(&self, start: usize, end: usize) -> Node {
        Node {
            kind: Kind::Null,
            span: self.span(start, end),
            lexeme: None,
        }
    }

    /// One more node, within the limit (where it was reached is remembered).
    fn count(&mut self) -> Option<()> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.breach.get_or_insert(self.pos);
            return None;
        }
        Some(())
    }

    /// One level deeper, within the limit.
    fn enter(&mut self, depth: usize) -> Option<usize> {
        self.count()?;
        (depth < self.max_depth).then_some(depth + 1)
    }

    /// From the start of a line, past blank and comment-only lines to the next content.
    pub(super) fn next_line(&mut self) -> Option<Line> {
        loop {
            self.line_start = self.pos;
            while self.peek() == Some(b' ') {
                self.pos += 1;
            }
            match self.peek() {
                None => return Some(Line::End),
                Some(b'\n') => self.pos += 1,
                Some(b'#') => self.pos = self.past_line(self.pos),
                Some(_) => {
                    let indent = self.pos - self.line_start;
                    let rest = &self.b[self.pos..];
                    let marker = rest.starts_with(b"---") || rest.starts_with(b"...");
                    return (indent > 0 || !marker).then_some(Line::At(indent));
                }
            }
        }
    }

    /// After a value: spaces, an optional comment, the line break; then the next line.
    fn end_line(&mut self) -> Option<Line> {
        let spaced = self.skip_spaces();
        match self.peek() {
            None => {}
            Some(b'\n') => self.pos += 1,
            Some(b'#') if spaced => self.pos = self.past_line(self.pos),
            Some(_) => return None,
        }
        self.next_line()
    }

    /// A `-` that opens a sequence entry.
    fn dash(&self) -> bool {
        self.peek() == Some(b'-') && matches!(self.at(self.pos + 1), None | Some(b' ' | b'\n'))
    }

    /// A block collection whose first line is at indentation `col`.
    fn block(&mut self, col: usize, depth: usize) -> Option<(Node, Line)> {
        if self.dash() {
            self.seq(col, depth, false)
        } else {
            self.map(col, depth)
        }
    }

    pub(super) fn map(&mut self, col: usize, depth: usize) -> Option<(Node, Line)> {
        let depth = self.enter(depth)?;
        let span = self.span(self.pos, self.pos);
        let mut entries: Vec<(Key, Node)> = Vec::new();
        loop {
            let key = self.key(Ctx::Block)?;
            let (value, line) = self.value(col, depth)?;
            self.keep(&mut entries, (key, value));
            match line {
                Line::At(m) if m == col => {}
                Line::At(m) if m > col => return None,
                line => {
                    if has_duplicates(&entries) {
                        return None;
                    }
                    let kind = Kind::Map(entries);
                    return Some((
                        Node {
                            kind,
                            span,
                            lexeme: None,
                        },
                        line,
                    ));
                }
            }
        }
    }

    /// A block mapping's value, the cursor just past the key's `:`.
    fn value(&mut self, col: usize, depth: usize) -> Option<(Node, Line)> {
        let colon = self.pos;
        self.skip_spaces();
        match self.peek() {
            None | Some(b'\n' | b'#') => match self.back(colon).end_line()? {
                Line::At(m) if m > col => self.block(m, depth),
                // A sequence at the key's own indentation.
                Line::At(m) if m == col && self.dash() => self.seq(col, depth, true),
                // An empty value (null): the full path decides.
                _ => None,
            },
            Some(b'>' | b'|') => self.block_scalar(col),
            Some(_) => {
                let v = self.inline(Ctx::Block, depth)?;
                Some((v, self.end_line()?))
            }
        }
    }

    /// A block scalar (`>`, `>-`, `|`, `|-`) as a mapping value whose key sits at
    /// indentation `col`: the catalog's `source: >-` paragraphs. Only the plain case:
    /// every content line at one indentation, no blank line before the first, no
    /// indentation or chomping digit, no `+`; anything else goes to the full path.
    fn block_scalar(&mut self, col: usize) -> Option<(Node, Line)> {
        let folded = self.peek()? == b'>';
        self.pos += 1;
        let strip = self.peek() == Some(b'-');
        if strip {
            self.pos += 1;
        }
        // Only spaces, a comment after a space, then the line break.
        let spaced = self.skip_spaces();
        match self.peek()? {
            b'\n' => {}
            b'#' if spaced => {}
            _ => return None,
        }
        let mut line = self.past_line(self.pos);
        let indent = |i: usize| self.b[i..].iter().take_while(|&&c| c == b' ').count();
        let n = indent(line);
        if n <= col || matches!(self.at(line + n), None | Some(b'\n')) {
            return None;
        }
        // Where YAML parsers place a block scalar: its first content character, to where
        // the scanner stopped (the next line's content, past trailing blank lines).
        let first = line + n;
        let mut stop = self.b.len();
        let mut value = String::new();
        // Blank lines seen since the last content line (kept or chomped at the end).
        let mut blanks = 0usize;
        let mut end_of_content = line;
        while line < self.b.len() {
            let k = indent(line);
            let eol = self.past_line(line);
            let content = self.at(line + k).is_some_and(|c| c != b'\n');
            if !content {
                // A blank line with more spaces than the indentation carries text.
                if k > n {
                    return None;
                }
                blanks += 1;
                line = eol;
                continue;
            }
            if k < n {
                stop = line + k;
                break;
            }
            if k > n || self.at(line + k) == Some(b'\t') {
                return None;
            }
            let text = self.text.get(line + n..eol)?.trim_end_matches('\n');
            if !value.is_empty() {
                if blanks > 0 {
                    let breaks = if folded { blanks } else { blanks + 1 };
                    value.extend(std::iter::repeat_n('\n', breaks));
                } else {
                    value.push(if folded { ' ' } else { '\n' });
                }
            } else if blanks > 0 {
                return None;
            }
            value.push_str(text);
            blanks = 0;
            end_of_content = eol;
            line = eol;
        }
        if !strip {
            // Clipped: the last line's break is kept. A text that ends without one is
            // left to the full path (parsers differ on it; the fuzz target found it).
            if self.at(end_of_content.wrapping_sub(1)) != Some(b'\n') {
                return None;
            }
            value.push('\n');
        }
        self.count()?;
        let node = Node {
            kind: Kind::Str(value.into()),
            span: self.span(first, stop),
            lexeme: None,
        };
        self.pos = line;
        Some((node, self.next_line()?))
    }

    /// A block sequence at indentation `col`, the cursor on its first `-`. An indentless
    /// one (at its key's indentation) ends at the first line there without a `-`.
    pub(super) fn seq(
        &mut self,
        col: usize,
        depth: usize,
        indentless: bool,
    ) -> Option<(Node, Line)> {
        let depth = self.enter(depth)?;
        // Where YAML parsers place an indentless sequence: its first entry's content.
        let mut span = self.span(self.pos, self.pos);
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let dash = self.pos + 1;
            self.pos = dash;
            self.skip_spaces();
            let (item, line) = match self.peek() {
                None | Some(b'\n' | b'#') => {
                    if indentless && first {
                        return None;
                    }
                    match self.back(dash).end_line()? {
                        Line::At(m) if m > col => self.block(m, depth)?,
                        _ => return None,
                    }
                }
                Some(_) if self.dash() => return None,
                Some(_) => {
                    if indentless && first {
                        span = self.span(self.pos, self.pos);
                    }
                    if self.key_ahead() {
                        let c = self.pos - self.line_start;
                        self.map(c, depth)?
                    } else {
                        let v = self.inline(Ctx::Block, depth)?;
                        (v, self.end_line()?)
                    }
                }
            };
            self.keep(&mut items, item);
            first = false;
            match line {
                Line::At(m) if m == col && self.dash() => {}
                Line::At(m) if m == col && indentless => return Some((seq(items, span), line)),
                Line::At(m) if m >= col => return None,
                line => return Some((seq(items, span), line)),
            }
        }
    }

    /// Whether the line from the cursor starts with a mapping key (a compact mapping in
    /// a sequence entry).
    fn key_ahead(&self) -> bool {
        let mut i = self.pos;
        if let Some(b'[' | b'{') = self.peek() {
            return false;
        }
        if let Some(q @ (b'"' | b'\'')) = self.peek() {
            let Some(k) = self.b[i + 1..].iter().position(|&c| c == q || c == b'\n') else {
                return false;
            };
            i += k + 2;
            return self.at(i) == Some(b':') && matches!(self.at(i + 1), None | Some(b' ' | b'\n'));
        }
        while let Some(c) = self.at(i) {
            match c {
                b'\n' => return false,
                b'#' if self.at(i.wrapping_sub(1)) == Some(b' ') => return false,
                b':' if matches!(self.at(i + 1), None | Some(b' ' | b'\n')) => return true,
                _ => i += 1,
            }
        }
        false
    }

    /// A mapping key and its `:` (followed by a space or the line's end).
    fn key(&mut self, ctx: Ctx) -> Option<Key> {
        let node = match self.peek()? {
            b'"' | b'\'' => self.quoted()?,
            _ => self.plain(ctx)?,
        };
        let colon =
            self.peek() == Some(b':') && matches!(self.at(self.pos + 1), None | Some(b' ' | b'\n'));
        if !colon || node.span.range().len() > MAX_KEY_BYTES {
            return None;
        }
        self.pos += 1;
        if self.bare {
            // A stand-in has no text: the merge key is looked for in the key as written.
            // (Every scalar read is a text, number or boolean, so no other key is refused.)
            let written = self.b.get(node.span.range())?;
            if matches!(written, b"<<" | b"\"<<\"" | b"'<<'") {
                return None;
            }
            return Some(Key {
                name: Text::default(),
                span: node.span,
            });
        }
        let name = match node.kind {
            // `<<` merges another mapping in (YAML 1.1 merge keys, which serde-saphyr reads).
            Kind::Str(s) if s == "<<" => return None,
            Kind::Str(s) => s,
            Kind::Int(_) | Kind::Float(_) => node.lexeme.as_deref()?.into(),
            Kind::Bool(b) => b.to_string().into(),
            _ => return None,
        };
        Some(Key {
            name,
            span: node.span,
        })
    }

    /// A value on the current line: a flow collection or a scalar.
    fn inline(&mut self, ctx: Ctx, depth: usize) -> Option<Node> {
        match self.peek()? {
            b'[' => self.flow_seq(depth),
            b'{' => self.flow_map(depth),
            b'"' | b'\'' => self.quoted(),
            _ => self.plain(ctx),
        }
    }

    /// A quoted scalar on one line, without escapes (`\` in double quotes, `''` in single).
    fn quoted(&mut self) -> Option<Node> {
        let start = self.pos;
        let q = self.peek()?;
        // A backslash escapes in double quotes only; single quotes take it as text.
        let len = self.b[start + 1..]
            .iter()
            .position(|&c| c == q || c == b'\n' || (c == b'\\' && q == b'"'))?;
        let close = start + 1 + len;
        if self.at(close) != Some(q) || self.at(close + 1) == Some(q) {
            return None;
        }
        self.pos = close + 1;
        self.count()?;
        let text = self.text.get(start + 1..close)?;
        if self.bare {
            return Some(self.stand_in(start, self.pos));
        }
        Some(Node {
            kind: Kind::Str(text.into()),
            span: self.span(start, self.pos),
            lexeme: None,
        })
    }

    /// A plain scalar on one line whose reading is obvious.
    fn plain(&mut self, ctx: Ctx) -> Option<Node> {
        let start = self.pos;
        let flow_end = |c: u8| ctx == Ctx::Flow && matches!(c, b',' | b'[' | b']' | b'{' | b'}');
        let first = self.peek()?;
        let opens = match first {
            // `-` starts a scalar (`-2`, `-x`) when something other than a space follows.
            b'-' => {
                !matches!(self.at(start + 1), None | Some(b' ' | b'\n'))
                    && !flow_end(self.at(start + 1)?)
            }
            b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|'
            | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' | b' ' | b'\n' => false,
            _ => true,
        };
        if !opens {
            return None;
        }
        let b = self.b;
        let mut i = start;
        let mut end = start;
        while let Some(&c) = b.get(i) {
            // Most bytes of a scalar end nothing: one table look-up each.
            if !STOPS[usize::from(c)] {
                i += 1;
                end = i;
                continue;
            }
            match c {
                b'\n' => break,
                b' ' => {
                    if b.get(i + 1) == Some(&b'#') {
                        break;
                    }
                }
                // A `#` inside a word is text to YAML; leave such spellings to the full path.
                b'#' => return None,
                b':' => {
                    let next = b.get(i + 1).copied();
                    if matches!(next, None | Some(b' ' | b'\n')) || next.is_some_and(flow_end) {
                        break;
                    }
                    end = i + 1;
                }
                c if flow_end(c) => break,
                _ => end = i + 1,
            }
            i += 1;
        }
        self.pos = end;
        let value = self.text.get(start..end)?;
        if self.bare {
            reading(value)?;
            self.count()?;
            return Some(self.stand_in(start, end));
        }
        let kind = plain(value)?;
        self.count()?;
        let lexeme =
            matches!(kind, Kind::Int(_) | Kind::Float(_) | Kind::Bool(_)).then(|| value.into());
        Some(Node {
            kind,
            span: self.span(start, end),
            lexeme,
        })
    }

    /// `[a, b]` on one line.
    fn flow_seq(&mut self, depth: usize) -> Option<Node> {
        let depth = self.enter(depth)?;
        let span = self.span(self.pos, self.pos + 1);
        self.pos += 1;
        self.skip_spaces();
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Some(seq(items, span));
        }
        items.reserve_exact(self.room[0]);
        loop {
            let item = self.inline(Ctx::Flow, depth)?;
            self.keep(&mut items, item);
            self.skip_spaces();
            if self.flow_next(b']')? {
                self.room[0] = items.len().min(MAX_ROOM);
                return Some(seq(items, span));
            }
        }
    }

    /// `{k: v, l: w}` on one line.
    fn flow_map(&mut self, depth: usize) -> Option<Node> {
        let depth = self.enter(depth)?;
        let span = self.span(self.pos, self.pos + 1);
        self.pos += 1;
        self.skip_spaces();
        let mut entries = Vec::new();
        if self.peek() != Some(b'}') {
            entries.reserve_exact(self.room[1]);
            loop {
                let key = self.key(Ctx::Flow)?;
                if !self.skip_spaces() {
                    return None;
                }
                let value = self.inline(Ctx::Flow, depth)?;
                self.keep(&mut entries, (key, value));
                self.skip_spaces();
                if self.flow_next(b'}')? {
                    break;
                }
            }
        } else {
            self.pos += 1;
        }
        if has_duplicates(&entries) {
            return None;
        }
        self.room[1] = entries.len().min(MAX_ROOM);
        Some(Node {
            kind: Kind::Map(entries),
            span,
            lexeme: None,
        })
    }

    /// After a flow entry: `,` and another entry (false), or the closing bracket (true).
    /// A trailing comma is left to the full path.
    fn flow_next(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            c if c == close => {
                self.pos += 1;
                Some(true)
            }
            b',' => {
                self.pos += 1;
                self.skip_spaces();
                (self.peek()? != close).then_some(false)
            }
            _ => None,
        }
    }
}

/// The bytes that may end a plain scalar or need a closer look there (in block context the
/// flow brackets and commas are text, which the slow branch decides).
const STOPS: [bool; 256] = {
    let mut t = [false; 256];
    let stops = b"\n #:,[]{}";
    let mut k = 0;
    while k < stops.len() {
        t[stops[k] as usize] = true;
        k += 1;
    }
    t
};

fn seq(items: Vec<Node>, span: Span) -> Node {
    Node {
        kind: Kind::Seq(items),
        span,
        lexeme: None,
    }
}

/// Whether two keys may be one to YAML: the same text, or the same number however
/// written (`0` and `-0`, `1` and `1.0`). Erring towards "the same" only sends a
/// document to the full path, which decides.
pub(super) fn has_duplicates(entries: &[(Key, Node)]) -> bool {
    let number = |k: &Key| {
        // Only a name starting (after a sign) with a digit, `.`, `i` (inf) or `n` (nan)
        // can parse as a number: the others skip the parser, which was most of this check.
        let b = k.name.as_bytes();
        let body = match b.first() {
            Some(b'+' | b'-') => &b[1..],
            _ => b,
        };
        let numeric = body
            .first()
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'.' | b'i' | b'I' | b'n' | b'N'));
        if !numeric {
            return None;
        }
        k.name
            .parse::<f64>()
            .ok()
            .map(|f| if f == 0.0 { 0 } else { f.to_bits() })
    };
    if entries.len() < 16 {
        return entries.iter().enumerate().any(|(i, (k, _))| {
            let n = number(k);
            entries[..i]
                .iter()
                .any(|(j, _)| j.name == k.name || (n.is_some() && number(j) == n))
        });
    }
    let mut names: FxSet<&str> = FxSet::default();
    let mut numbers: FxSet<u64> = FxSet::default();
    entries.iter().any(|(k, _)| {
        !names.insert(k.name.as_str()) || number(k).is_some_and(|n| !numbers.insert(n))
    })
}

#[cfg(test)]
#[path = "fast_tests.rs"]
pub(crate) mod tests;
