//! A located tree in bytes: build.rs reads democ's own YAML data (catalog/, the vendor
//! files, host tuning, lab node kinds) with the fast reader at compile time and embeds
//! each tree in this form, so a run rebuilds the tree without reading YAML at all (the
//! planner's loop spent a third of `democ check` on sc16 reading these files). The text
//! stays embedded beside it: spans point into it, and `democ catalog NAME` prints it.
//!
//! Layout, little-endian: a node is a tag byte, its span (start, end: u32), its
//! lexeme (0, or 1 then a string), then its value; a string is a u32 length and UTF-8
//! bytes; a list is a u32 count, the u32 byte length of its nodes, then its nodes; a
//! mapping a u32 count, the u32 byte length of its entries, then per entry the key
//! (string, span) and the value. The lengths let a reader step over a value unread
//! ([`entries`]: the catalog decodes only the entries a show looks up). Only std:
//! build.rs compiles this file too.

use super::node::{Key, Kind, Node};
use crate::source::{FileId, Span};

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const INT: u8 = 3;
const FLOAT: u8 = 4;
const STR: u8 = 5;
const SEQ: u8 = 6;
const MAP: u8 = 7;

/// The tree's bytes (build.rs; a run only decodes).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn encode(node: &Node) -> Vec<u8> {
    let mut out = Vec::new();
    put_node(&mut out, node);
    out
}

#[cfg_attr(not(test), allow(dead_code))]
fn put_u32(out: &mut Vec<u8>, v: usize) {
    let v = u32::try_from(v).expect("embedded data under 4 GiB");
    out.extend_from_slice(&v.to_le_bytes());
}

#[cfg_attr(not(test), allow(dead_code))]
fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

#[cfg_attr(not(test), allow(dead_code))]
fn put_span(out: &mut Vec<u8>, s: Span) {
    put_u32(out, s.start as usize);
    put_u32(out, s.end as usize);
}

#[cfg_attr(not(test), allow(dead_code))]
fn put_node(out: &mut Vec<u8>, n: &Node) {
    let tag = match &n.kind {
        Kind::Null => NULL,
        Kind::Bool(false) => FALSE,
        Kind::Bool(true) => TRUE,
        Kind::Int(_) => INT,
        Kind::Float(_) => FLOAT,
        Kind::Str(_) => STR,
        Kind::Seq(_) => SEQ,
        Kind::Map(_) => MAP,
    };
    out.push(tag);
    put_span(out, n.span);
    match &n.lexeme {
        None => out.push(0),
        Some(l) => {
            out.push(1);
            put_str(out, l);
        }
    }
    match &n.kind {
        Kind::Null | Kind::Bool(_) => {}
        Kind::Int(i) => out.extend_from_slice(&i.to_le_bytes()),
        Kind::Float(f) => out.extend_from_slice(&f.to_bits().to_le_bytes()),
        Kind::Str(s) => put_str(out, s),
        Kind::Seq(items) => {
            put_u32(out, items.len());
            let body = open_body(out);
            for i in items {
                put_node(out, i);
            }
            close_body(out, body);
        }
        Kind::Map(entries) => {
            put_u32(out, entries.len());
            let body = open_body(out);
            for (k, v) in entries {
                put_str(out, &k.name);
                put_span(out, k.span);
                put_node(out, v);
            }
            close_body(out, body);
        }
    }
}

/// A placeholder for a body's byte length; returns where the body starts.
#[cfg_attr(not(test), allow(dead_code))]
fn open_body(out: &mut Vec<u8>) -> usize {
    out.extend_from_slice(&[0; 4]);
    out.len()
}

#[cfg_attr(not(test), allow(dead_code))]
fn close_body(out: &mut [u8], start: usize) {
    let len = u32::try_from(out.len() - start).expect("embedded data under 4 GiB");
    out[start - 4..start].copy_from_slice(&len.to_le_bytes());
}

/// The tree `encode` wrote, its spans in `file`; None if the bytes are not such a tree.
pub(crate) fn decode(bytes: &[u8], file: FileId) -> Option<Node> {
    let mut r = Cursor { bytes, at: 0, file };
    let n = r.node(0)?;
    (r.at == bytes.len()).then_some(n)
}

/// One mapping entry read without its value: the key, its span and the value's bytes.
pub(crate) struct Entry<'a> {
    pub(crate) name: &'a str,
    pub(crate) span: Span,
    /// The value node, for [`decode`] (with the same file).
    pub(crate) value: &'a [u8],
}

/// The entries of the mapping `bytes` holds (an [`encode`]d node), their values
/// stepped over unread; None if `bytes` is no such mapping.
pub(crate) fn entries(bytes: &[u8], file: FileId) -> Option<Vec<Entry<'_>>> {
    let mut r = Cursor { bytes, at: 0, file };
    let (MAP, count) = (r.head()?, r.u32()?) else {
        return None;
    };
    let end = r.body_end()?;
    let mut out = Vec::with_capacity(count.min(bytes.len() / 22));
    for _ in 0..count {
        let name = r.str()?;
        let span = r.span()?;
        let start = r.at;
        r.skip()?;
        out.push(Entry {
            name,
            span,
            value: &bytes[start..r.at],
        });
    }
    (r.at == end && end == bytes.len()).then_some(out)
}

/// Deeper than any of democ's data files; bounds the recursion on corrupt bytes.
const MAX_DEPTH: usize = 64;

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    file: FileId,
}

impl<'a> Cursor<'a> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let b = self.bytes.get(self.at..self.at + N)?;
        self.at += N;
        b.try_into().ok()
    }

    fn u32(&mut self) -> Option<usize> {
        self.take::<4>().map(|b| u32::from_le_bytes(b) as usize)
    }

    fn str(&mut self) -> Option<&'a str> {
        let len = self.u32()?;
        let b = self.bytes.get(self.at..self.at + len)?;
        self.at += len;
        std::str::from_utf8(b).ok()
    }

    fn span(&mut self) -> Option<Span> {
        let start = self.u32()?;
        let end = self.u32()?;
        Some(Span::new(self.file, start, end))
    }

    /// Where the body that starts here ends (its length read), within the bytes.
    fn body_end(&mut self) -> Option<usize> {
        let len = self.u32()?;
        let end = self.at.checked_add(len)?;
        (end <= self.bytes.len()).then_some(end)
    }

    /// A node's tag, span and lexeme read, the tag returned: what [`Cursor::skip`]
    /// steps over before the value.
    fn head(&mut self) -> Option<u8> {
        let [tag] = self.take::<1>()?;
        self.span()?;
        match self.take::<1>()? {
            [0] => {}
            [1] => {
                self.str()?;
            }
            _ => return None,
        }
        Some(tag)
    }

    /// Steps over one node without building it.
    fn skip(&mut self) -> Option<()> {
        match self.head()? {
            NULL | FALSE | TRUE => {}
            INT | FLOAT => {
                self.take::<8>()?;
            }
            STR => {
                self.str()?;
            }
            SEQ | MAP => {
                self.u32()?;
                self.at = self.body_end()?;
            }
            _ => return None,
        }
        Some(())
    }

    fn node(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let [tag] = self.take::<1>()?;
        let span = self.span()?;
        let lexeme = match self.take::<1>()? {
            [0] => None,
            [1] => Some(self.str()?.into()),
            _ => return None,
        };
        let kind = match tag {
            NULL => Kind::Null,
            FALSE => Kind::Bool(false),
            TRUE => Kind::Bool(true),
            INT => Kind::Int(i64::from_le_bytes(self.take::<8>()?)),
            FLOAT => Kind::Float(f64::from_bits(u64::from_le_bytes(self.take::<8>()?))),
            STR => Kind::Str(self.str()?.into()),
            SEQ => {
                let count = self.u32()?;
                let end = self.body_end()?;
                // Each node takes 10 bytes at least: a corrupt count cannot reserve much.
                let mut items = Vec::with_capacity(count.min(self.bytes.len() / 10));
                for _ in 0..count {
                    items.push(self.node(depth + 1)?);
                }
                (self.at == end).then_some(Kind::Seq(items))?
            }
            MAP => {
                let count = self.u32()?;
                let end = self.body_end()?;
                let mut entries = Vec::with_capacity(count.min(self.bytes.len() / 22));
                for _ in 0..count {
                    let name = self.str()?.into();
                    let span = self.span()?;
                    entries.push((Key { name, span }, self.node(depth + 1)?));
                }
                (self.at == end).then_some(Kind::Map(entries))?
            }
            _ => return None,
        };
        Some(Node { kind, span, lexeme })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every YAML file democ embeds comes back from its bytes as the fast reader read it,
    /// spans and lexemes included.
    #[test]
    fn round_trips_the_embedded_data() {
        for f in crate::yaml::embedded::FILES {
            let Some(bytes) = f.packed else { continue };
            let read = crate::yaml::fast::parse(f.text, FileId(3), 64, usize::MAX).expect("fast");
            let back = decode(bytes, FileId(3)).expect("decodes");
            assert_eq!(format!("{read:?}"), format!("{back:?}"), "{}", f.path);
            assert_eq!(encode(&back), bytes, "{}", f.path);
        }
    }

    /// Cut or corrupt bytes decode to None, never a panic.
    #[test]
    fn refuses_damaged_bytes() {
        let f = crate::yaml::embedded::FILES
            .iter()
            .find_map(|f| f.packed)
            .expect("some packed file");
        for cut in [0, 1, 9, f.len() / 2, f.len() - 1] {
            assert!(decode(&f[..cut], FileId(0)).is_none(), "cut at {cut}");
        }
        let mut bad = f.to_vec();
        bad[0] = 99;
        assert!(decode(&bad, FileId(0)).is_none());
        let mut deep = Vec::new();
        for _ in 0..100 {
            deep.extend_from_slice(&[SEQ, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        }
        assert!(decode(&deep, FileId(0)).is_none());
    }

    /// A mapping's entries stepped over come back as the nodes a full decode reads.
    #[test]
    fn entries_are_the_mappings_values() {
        for f in crate::yaml::embedded::FILES {
            let Some(bytes) = f.packed else { continue };
            let whole = decode(bytes, FileId(2)).expect("decodes");
            let crate::yaml::node::Kind::Map(want) = &whole.kind else {
                continue;
            };
            let got = entries(bytes, FileId(2)).expect("a mapping");
            assert_eq!(got.len(), want.len(), "{}", f.path);
            for (e, (k, v)) in got.iter().zip(want) {
                assert_eq!((e.name, e.span), (k.name.as_str(), k.span), "{}", f.path);
                let back = decode(e.value, FileId(2)).expect("value decodes");
                assert_eq!(format!("{back:?}"), format!("{v:?}"), "{}", f.path);
            }
        }
    }
}
