//! The hardware catalog: embedded data files, plus the spec's `catalog:` sections and
//! `--catalog DIR`. Later entries override earlier ones by name.

pub(crate) mod editor;
pub(crate) mod entry;
pub(crate) mod error;
mod lazy;
pub(crate) mod lookup;

use std::path::Path;

use crate::spec::catalog_file::*;
use error::CatalogError;

use crate::diag::Diags;
use crate::fxhash::FxMap;
use crate::source::{FileId, Sources, Span};
use crate::spec::Spec;
use crate::spec::load::{Limits, Loader};
use crate::yaml::decode::{Decode, Named};
use crate::yaml::embedded::{CATALOG, Entry, Section};
use lazy::Lazy;

/// The catalog files compiled into the binary, by display name: every catalog/*.yaml,
/// sorted (build.rs lists them, so a new file needs no code).
pub(crate) const EMBEDDED: &[(&str, &str)] =
    &include!(concat!(env!("OUT_DIR"), "/embedded_catalog.rs"));

/// Models by name, each with the span of its name (for "defined here" labels).
// Fx-hashed, and the name moved in as the key rather than cloned beside its `Located`
// (only the span was ever read back): the checks look models up by name hundreds of times.
// Iteration order is never relied on (`sorted` sorts; suggestions sort their own).
#[derive(Debug)]
pub struct Table<T> {
    by_name: FxMap<String, (Span, Slot<T>)>,
}

/// An entry's value: decoded (the spec's and `--catalog` files), or the embedded
/// catalog's, decoded when first looked up.
#[derive(Debug)]
enum Slot<T> {
    Ready(T),
    Lazy(Lazy<T>),
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            by_name: FxMap::default(),
        }
    }
}

impl<T> Table<T> {
    fn absorb(&mut self, named: Option<Named<T>>) {
        let entries = named.map(|n| n.entries).unwrap_or_default();
        self.by_name.reserve(entries.len());
        for (k, v) in entries {
            self.by_name.insert(k.value, (k.span, Slot::Ready(v)));
        }
    }

    /// Where the entry's name is written.
    pub(crate) fn key(&self, name: &str) -> Option<Span> {
        self.by_name.get(name).map(|(k, _)| *k)
    }

    #[cfg(test)]
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> + Clone {
        self.by_name.keys().map(String::as_str)
    }
}

impl<T: Decode> Table<T> {
    /// A section of an embedded catalog file, its values left undecoded.
    fn absorb_embedded(&mut self, entries: &'static [Entry], file: FileId) {
        self.by_name.reserve(entries.len());
        for e in entries {
            let span = lazy::key_span(e, file);
            let lazy = Slot::Lazy(Lazy::new(e.json, span));
            self.by_name.insert(e.name.to_owned(), (span, lazy));
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<&T> {
        self.by_name.get(name).and_then(|(_, v)| v.get())
    }

    /// Entries sorted by name, for deterministic listings.
    pub(crate) fn sorted(&self) -> Vec<(&str, &T)> {
        let mut v: Vec<(&str, &T)> = self
            .by_name
            .iter()
            .filter_map(|(k, (_, t))| Some((k.as_str(), t.get()?)))
            .collect();
        v.sort_by(|a, b| a.0.cmp(b.0));
        v
    }
}

impl<T: Decode> Slot<T> {
    fn get(&self) -> Option<&T> {
        match self {
            Slot::Ready(t) => Some(t),
            Slot::Lazy(l) => l.get(),
        }
    }
}

/// Every model democ knows about for one compilation.
#[derive(Debug, Default)]
pub struct Catalog {
    pub(crate) switches: Table<SwitchModel>,
    pub(crate) nics: Table<NicModel>,
    pub(crate) cpus: Table<CpuModel>,
    pub(crate) chassis: Table<ChassisModel>,
    pub(crate) drives: Table<DriveModel>,
    pub(crate) disks: Table<DiskModel>,
    pub(crate) raid_controllers: Table<RaidControllerModel>,
    pub(crate) optics: Table<OpticModel>,
    pub(crate) cables: Table<CableModel>,
    pub(crate) pcie: Table<PcieGen>,
    pub(crate) pcie_switches: Table<PcieSwitchChip>,
    pub(crate) otn: Table<OtnSignal>,
    pub(crate) physics: Option<Physics>,
    pub(crate) pcie_dma: Option<PcieDma>,
}

impl Catalog {
    pub(crate) fn absorb(&mut self, c: CatalogFile) {
        self.switches.absorb(c.switches);
        self.nics.absorb(c.nics);
        self.cpus.absorb(c.cpus);
        self.chassis.absorb(c.chassis);
        self.drives.absorb(c.drives);
        self.disks.absorb(c.disks);
        self.raid_controllers.absorb(c.raid_controllers);
        self.optics.absorb(c.optics);
        self.cables.absorb(c.cables);
        self.pcie.absorb(c.pcie);
        self.pcie_switches.absorb(c.pcie_switches);
        self.otn.absorb(c.otn);
        if c.physics.is_some() {
            self.physics = c.physics;
        }
        if c.pcie_dma.is_some() {
            self.pcie_dma = c.pcie_dma;
        }
    }

    /// The embedded catalog with its entries left undecoded (file `i` of [`EMBEDDED`] as
    /// `FileId(i)`, as [`register_embedded`] numbers them); None when a section is one
    /// this reader does not know (then the files are read in full, which reports what is
    /// wrong).
    fn embedded_lazy() -> Option<Catalog> {
        let mut db = Catalog::default();
        for section in CATALOG {
            if !db.absorb_section(section) {
                return None;
            }
        }
        Some(db)
    }

    /// False when the section is unknown or a singleton does not decode.
    fn absorb_section(&mut self, section: &'static Section) -> bool {
        let (v, file) = (section.entries, FileId(section.file));
        match section.name {
            "switches" => self.switches.absorb_embedded(v, file),
            "nics" => self.nics.absorb_embedded(v, file),
            "cpus" => self.cpus.absorb_embedded(v, file),
            "chassis" => self.chassis.absorb_embedded(v, file),
            "drives" => self.drives.absorb_embedded(v, file),
            "disks" => self.disks.absorb_embedded(v, file),
            "raid_controllers" => self.raid_controllers.absorb_embedded(v, file),
            "optics" => self.optics.absorb_embedded(v, file),
            "cables" => self.cables.absorb_embedded(v, file),
            "pcie" => self.pcie.absorb_embedded(v, file),
            "pcie_switches" => self.pcie_switches.absorb_embedded(v, file),
            "otn" => self.otn.absorb_embedded(v, file),
            // Every check reads these two: decoded now.
            "physics" => {
                self.physics = lazy::decode_fields(v, file);
                return self.physics.is_some();
            }
            "pcie_dma" => {
                self.pcie_dma = lazy::decode_fields(v, file);
                return self.pcie_dma.is_some();
            }
            _ => return false,
        }
        true
    }
}

/// Loads the embedded catalog, then `extra_dir/*.yaml` (sorted), into a [`Catalog`] that
/// the spec's own `catalog:` sections are absorbed into next (and therefore win).
/// `early`: [`register_embedded`] gave the embedded files their ids already, and this
/// is [`owned`]'s catalog (None: it has errors).
pub(crate) fn load(
    sources: &mut Sources,
    diags: &mut Diags,
    extra_dir: Option<&Path>,
    early: Option<Option<Catalog>>,
) -> Result<Catalog, CatalogError> {
    let mut base = Spec::default();
    let registered = early.is_some();
    let decoded = match early {
        Some(db) => db,
        None if sources.len() == 0 => owned(),
        None => None,
    };
    let mut db = match decoded {
        // The embedded files parse clean (a test says so): they are decoded from the
        // JSON build.rs wrote, and each session gives them the same file ids, so spans
        // stay valid.
        Some(db) => {
            if !registered {
                register_embedded(sources);
            }
            db
        }
        None => {
            let mut loader = Loader::new(sources, diags, Limits::default());
            for (name, text) in EMBEDDED {
                loader.load_catalog(name, text.as_bytes(), &mut base);
            }
            Catalog::default()
        }
    };
    let mut loader = Loader::new(sources, diags, Limits::default());
    if let Some(dir) = extra_dir {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(|error| CatalogError::Folder {
                dir: dir.to_owned(),
                error,
            })?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        files.sort();
        for f in files {
            // Bounded, regular files only: a FIFO or a symlink to /dev/zero here must
            // neither hang democ nor fill its memory.
            crate::read::confined(&f, dir).map_err(|error| CatalogError::Confined {
                file: f.clone(),
                error,
            })?;
            let bytes =
                crate::read::bounded(&f, loader.limits.max_file_bytes).map_err(|error| {
                    CatalogError::Unreadable {
                        file: f.clone(),
                        error,
                    }
                })?;
            loader.load_catalog(&f.to_string_lossy(), &bytes, &mut base);
        }
    }
    for c in base.catalogs {
        db.absorb(c);
    }
    Ok(db)
}

/// Gives the embedded catalog's files a fresh session's first ids (0..N, which the
/// spans of [`embedded`] point at) without reading them, so that the spec can be parsed
/// while another thread decodes the catalog. False when the session has files already.
pub(crate) fn register_embedded(sources: &mut Sources) -> bool {
    if sources.len() != 0 {
        return false;
    }
    for (name, text) in EMBEDDED {
        sources.add(*name, *text);
    }
    true
}

/// The embedded catalog for one session to own (None if it has errors): its entries
/// stay undecoded until looked up, so a session decodes only the models its show names.
pub(crate) fn owned() -> Option<Catalog> {
    Catalog::embedded_lazy().or_else(|| {
        let mut db = Catalog::default();
        for c in decode_embedded()? {
            db.absorb(c);
        }
        Some(db)
    })
}

fn decode_embedded() -> Option<Vec<CatalogFile>> {
    let (mut sources, mut diags, mut base) =
        (Sources::default(), Diags::default(), Spec::default());
    let mut loader = Loader::new(&mut sources, &mut diags, Limits::default());
    for (name, text) in EMBEDDED {
        loader.load_catalog(name, text.as_bytes(), &mut base);
    }
    (!diags.has_errors()).then_some(base.catalogs)
}

/// The embedded catalog alone (the editor schema's completions); empty if it has errors.
pub(crate) fn embedded_db() -> Catalog {
    owned().unwrap_or_default()
}

/// Each model's name and title, sorted by name.
pub(crate) fn titles<T: Decode>(
    table: &Table<T>,
    title: impl Fn(&T) -> &str,
) -> Vec<(String, String)> {
    table
        .sorted()
        .into_iter()
        .map(|(k, v)| (k.to_owned(), title(v).to_owned()))
        .collect()
}

/// A plain-text listing of the catalog, one model per line.
pub(crate) fn listing(db: &Catalog) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut section = |title: &str, rows: Vec<(String, String)>| {
        let _ = writeln!(out, "{title} ({}):", rows.len());
        for (k, v) in rows {
            let _ = writeln!(out, "  {k:<28} {v}");
        }
    };
    section("switches", titles(&db.switches, |m| &m.title));
    section("nics", titles(&db.nics, |m| &m.title));
    section("cpus", titles(&db.cpus, |m| &m.title));
    section("chassis", titles(&db.chassis, |m| &m.title));
    section("drives", titles(&db.drives, |m| &m.title));
    section("disks", titles(&db.disks, |m| &m.title));
    section(
        "raid_controllers",
        titles(&db.raid_controllers, |m| &m.title),
    );
    section("optics", titles(&db.optics, |m| &m.title));
    section("cables", titles(&db.cables, |m| &m.title));
    out
}
