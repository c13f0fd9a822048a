//! The embedded catalog read lazily: each entry's name and key span are known up front
//! (suggestions list names, diagnostics point at keys), its value is decoded from the
//! JSON build.rs wrote only when a lookup first asks for it. A show names a handful of
//! models; decoding all of them was a ninth of `democ check` on sc16.

use std::sync::OnceLock;

use crate::diag::Diags;
use crate::source::{FileId, Span};
use crate::yaml::decode::{Decode, DecodeContext};
use crate::yaml::embedded::Entry;
use crate::yaml::node::{Key, Kind, Node};
use crate::yaml::tree::from_json;

/// One entry's value, decoded on first use.
#[derive(Debug)]
pub(crate) struct Lazy<T> {
    json: &'static str,
    span: Span,
    value: OnceLock<Option<T>>,
}

impl<T: Decode> Lazy<T> {
    pub(crate) fn new(json: &'static str, span: Span) -> Lazy<T> {
        Lazy {
            json,
            span,
            value: OnceLock::new(),
        }
    }

    /// None only if the embedded data does not decode, which a test rules out
    /// (`embedded_catalog_decodes_lazily_as_in_full`).
    pub(crate) fn get(&self) -> Option<&T> {
        self.value
            .get_or_init(|| decode(from_json(self.json, self.span).ok()?))
            .as_ref()
    }
}

/// The span of `entry`'s name in catalog file `file`; every value inside the entry
/// points there too (the JSON has no positions of its own).
pub(crate) fn key_span(entry: &Entry, file: FileId) -> Span {
    Span::new(file, entry.start as usize, entry.end as usize)
}

/// A singleton section (`physics:`) as a `T`, from its fields.
pub(crate) fn decode_fields<T: Decode>(entries: &[Entry], file: FileId) -> Option<T> {
    let mut fields = Vec::with_capacity(entries.len());
    for e in entries {
        let span = key_span(e, file);
        let name = e.name.into();
        fields.push((Key { name, span }, from_json(e.json, span).ok()?));
    }
    let span = match (entries.first(), entries.last()) {
        (Some(a), Some(b)) => Span::new(file, a.start as usize, b.end as usize),
        _ => Span::new(file, 0, 0),
    };
    decode(Node {
        kind: Kind::Map(fields),
        span,
        lexeme: None,
    })
}

/// `node` as a `T`; the embedded data is clean, so the diagnostics a decode could add
/// are none (and a full decode would drop them too).
fn decode<T: Decode>(node: Node) -> Option<T> {
    T::decode(
        &node,
        &mut DecodeContext {
            diags: &mut Diags::default(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::{Catalog, Table, decode_embedded};
    use crate::yaml::decode::Decode;

    fn same<T: Decode + std::fmt::Debug>(what: &str, lazy: &Table<T>, full: &Table<T>) {
        let mut names: Vec<&str> = full.names().collect();
        names.sort_unstable();
        let mut lazy_names: Vec<&str> = lazy.names().collect();
        lazy_names.sort_unstable();
        assert_eq!(names, lazy_names, "{what}");
        for n in names {
            assert_eq!(lazy.key(n), full.key(n), "{what} {n}");
            let (a, b) = (lazy.get(n), full.get(n));
            assert!(a.is_some(), "{what} {n} decodes");
            let (a, b) = (
                without_spans(&format!("{a:?}")),
                without_spans(&format!("{b:?}")),
            );
            assert_eq!(a, b, "{what} {n}");
        }
    }

    /// `debug` without its spans: the JSON has none inside an entry (every value points
    /// at the entry's name), the full decode has each value's.
    fn without_spans(debug: &str) -> String {
        let mut out = String::new();
        let mut rest = debug;
        while let Some(i) = rest.find("span: Span {") {
            out.push_str(&rest[..i]);
            rest = &rest[i..];
            rest = rest.find('}').map_or("", |j| &rest[j + 1..]);
        }
        out + rest
    }

    /// Every embedded entry decoded on demand is the one a full decode of the files
    /// reads, its key span included, and the singletons too.
    #[test]
    fn embedded_catalog_decodes_lazily_as_in_full() {
        let lazy = Catalog::embedded_lazy().expect("every section known");
        let mut full = Catalog::default();
        for c in decode_embedded().expect("the embedded catalog parses clean") {
            full.absorb(c);
        }
        same("switches", &lazy.switches, &full.switches);
        same("nics", &lazy.nics, &full.nics);
        same("cpus", &lazy.cpus, &full.cpus);
        same("chassis", &lazy.chassis, &full.chassis);
        same("drives", &lazy.drives, &full.drives);
        same("disks", &lazy.disks, &full.disks);
        same(
            "raid_controllers",
            &lazy.raid_controllers,
            &full.raid_controllers,
        );
        same("optics", &lazy.optics, &full.optics);
        same("cables", &lazy.cables, &full.cables);
        same("pcie", &lazy.pcie, &full.pcie);
        same("pcie_switches", &lazy.pcie_switches, &full.pcie_switches);
        same("otn", &lazy.otn, &full.otn);
        assert!(lazy.physics.is_some() && lazy.pcie_dma.is_some());
        let shown = |x: &dyn std::fmt::Debug| without_spans(&format!("{x:?}"));
        assert_eq!(shown(&lazy.physics), shown(&full.physics));
        assert_eq!(shown(&lazy.pcie_dma), shown(&full.pcie_dma));
    }
}
