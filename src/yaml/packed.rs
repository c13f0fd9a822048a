//! A located tree in bytes: build.rs reads democ's own YAML data (catalog/, the vendor
//! files, host tuning, lab node kinds) with the fast reader at compile time and embeds
//! each tree in this form, so a run rebuilds the tree without reading YAML at all (the
//! planner's loop spent a third of `democ check` on sc16 reading these files). The text
//! stays embedded beside it: spans point into it, and `democ catalog NAME` prints it.
//!
//! Layout, little-endian: a node is a tag byte, its span (start, end: u32), its
//! lexeme (0, or 1 then a string), then its value; a string is a u32 length and UTF-8
//! bytes; a list is a u32 count and its nodes; a mapping a u32 count, then per entry the
//! key (string, span) and the value. Only std: build.rs compiles this file too.

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
            for i in items {
                put_node(out, i);
            }
        }
        Kind::Map(entries) => {
            put_u32(out, entries.len());
            for (k, v) in entries {
                put_str(out, &k.name);
                put_span(out, k.span);
                put_node(out, v);
            }
        }
    }
}

/// The tree `encode` wrote, its spans in `file`; None if the bytes are not such a tree.
pub(crate) fn decode(bytes: &[u8], file: FileId) -> Option<Node> {
    let mut r = Cursor { bytes, at: 0, file };
    let n = r.node(0)?;
    (r.at == bytes.len()).then_some(n)
}

/// Deeper than any of democ's data files; bounds the recursion on corrupt bytes.
const MAX_DEPTH: usize = 64;

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    file: FileId,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let b = self.bytes.get(self.at..self.at + N)?;
        self.at += N;
        b.try_into().ok()
    }

    fn u32(&mut self) -> Option<usize> {
        self.take::<4>().map(|b| u32::from_le_bytes(b) as usize)
    }

    fn str(&mut self) -> Option<&str> {
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
            STR => Kind::Str(self.str()?.to_owned()),
            SEQ => {
                let count = self.u32()?;
                // Each node takes 10 bytes at least: a corrupt count cannot reserve much.
                let mut items = Vec::with_capacity(count.min(self.bytes.len() / 10));
                for _ in 0..count {
                    items.push(self.node(depth + 1)?);
                }
                Kind::Seq(items)
            }
            MAP => {
                let count = self.u32()?;
                let mut entries = Vec::with_capacity(count.min(self.bytes.len() / 22));
                for _ in 0..count {
                    let name = self.str()?.to_owned();
                    let span = self.span()?;
                    entries.push((Key { name, span }, self.node(depth + 1)?));
                }
                Kind::Map(entries)
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
            deep.extend_from_slice(&[SEQ, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
        }
        assert!(decode(&deep, FileId(0)).is_none());
    }
}
