//! The embedded catalog read lazily: each entry's name and key span are read up front
//! (suggestions list names, diagnostics point at keys), its value is decoded from the
//! tree build.rs packed only when a lookup first asks for it. A show names a handful
//! of models; decoding all of them was a ninth of `democ check` on sc16.

use std::sync::OnceLock;

use crate::diag::Diags;
use crate::source::FileId;
use crate::yaml::decode::{Cx, Decode};
use crate::yaml::packed;

/// One entry's value, decoded on first use.
#[derive(Debug)]
pub(crate) struct Lazy<T> {
    bytes: &'static [u8],
    file: FileId,
    value: OnceLock<Option<T>>,
}

impl<T: Decode> Lazy<T> {
    pub(crate) fn new(bytes: &'static [u8], file: FileId) -> Lazy<T> {
        Lazy {
            bytes,
            file,
            value: OnceLock::new(),
        }
    }

    /// None only if the embedded data does not decode, which a test rules out
    /// (`embedded_catalog_decodes_lazily_as_in_full`).
    pub(crate) fn get(&self) -> Option<&T> {
        self.value
            .get_or_init(|| decode(self.bytes, self.file))
            .as_ref()
    }
}

/// The packed node `bytes` as a `T`; the embedded data is clean, so the diagnostics a
/// decode could add are none (and a full decode would drop them too).
pub(crate) fn decode<T: Decode>(bytes: &[u8], file: FileId) -> Option<T> {
    let node = packed::decode(bytes, file)?;
    T::decode(
        &node,
        &mut Cx {
            diags: &mut Diags::default(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::{Db, Table, decode_embedded};
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
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{what} {n}");
        }
    }

    /// Every embedded entry decoded on demand is the one a full decode of the files
    /// reads, its key span included, and the singletons too.
    #[test]
    fn embedded_catalog_decodes_lazily_as_in_full() {
        let lazy = Db::embedded_lazy().expect("every file packed, every section known");
        let mut full = Db::default();
        for c in decode_embedded().expect("the embedded catalog parses clean") {
            full.absorb(c);
        }
        same("switches", &lazy.switches, &full.switches);
        same("nics", &lazy.nics, &full.nics);
        same("cpus", &lazy.cpus, &full.cpus);
        same("chassis", &lazy.chassis, &full.chassis);
        same("drives", &lazy.drives, &full.drives);
        same("optics", &lazy.optics, &full.optics);
        same("cables", &lazy.cables, &full.cables);
        same("pcie", &lazy.pcie, &full.pcie);
        same("pcie_switches", &lazy.pcie_switches, &full.pcie_switches);
        same("otn", &lazy.otn, &full.otn);
        assert!(lazy.physics.is_some() && lazy.pcie_dma.is_some());
        assert_eq!(format!("{:?}", lazy.physics), format!("{:?}", full.physics));
        assert_eq!(
            format!("{:?}", lazy.pcie_dma),
            format!("{:?}", full.pcie_dma)
        );
    }
}
