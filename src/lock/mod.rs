//! The address lock (`democ.lock` beside the main spec): every address democ allocated
//! from a pool, keyed by the stable name of what holds it (never an index), so that
//! adding, removing or reordering hosts and links does not renumber what was already
//! assigned. `democ build` writes it; `check`, `plan`, `ir` and `report` read it and
//! never write it (see docs/addresses.md).

pub(crate) mod format;
pub(crate) mod outdated;
#[cfg(test)]
mod props;
pub(crate) mod read;

use std::collections::BTreeMap;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

use crate::source::FileId;
use crate::yaml::decode::Located;

/// Allocated addresses by key. Entries read from a lock file keep the span of their text
/// there (notes about them point at it); entries made by a build have the default span.
#[derive(Debug, Default, Clone)]
pub(crate) struct AddressLock {
    /// `host:port` -> the DTN interface's address (from the DTN pool or its gateway's
    /// subnet).
    pub(crate) hosts: BTreeMap<String, Located<Ipv4Addr>>,
    /// `a:port -- b:port` (the two ends sorted) -> the ends' addresses in that order
    /// (an aligned pair from the p2p pool).
    pub(crate) links: BTreeMap<String, Located<[Ipv4Addr; 2]>>,
    /// Switch name -> its management address (from the mgmt pool).
    pub(crate) switches: BTreeMap<String, Located<Ipv4Addr>>,
    /// Host name -> its containerlab management address (from the top of the mgmt pool).
    pub(crate) lab: BTreeMap<String, Located<Ipv4Addr>>,
}

impl AddressLock {
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.hosts.len() + self.links.len() + self.switches.len() + self.lab.len()
    }
}

/// `host:port`. Names cannot hold `:` (E0010), so the first `:` separates them.
pub(crate) fn port_key(node: &str, port: &str) -> String {
    format!("{node}:{port}")
}

/// A link's key from its two ends' `node:port`, sorted so that swapping `a:` and `b:` in
/// the spec keeps the key; `true` when the spec's `a:` end is the key's second.
pub(crate) fn link_key(a: &str, b: &str) -> (String, bool) {
    if a <= b {
        (format!("{a} -- {b}"), false)
    } else {
        (format!("{b} -- {a}"), true)
    }
}

/// The lock of a main spec: `democ.lock` beside a `show.yaml` (the name democ looks for),
/// `NAME.democ.lock` beside any other `NAME.yaml`, so that several shows in one folder
/// (examples/calibration, test fixtures) each keep their own.
pub(crate) fn path_for(spec: &Path) -> PathBuf {
    let name = spec.file_name().map(|n| n.to_string_lossy());
    let file = match name.as_deref() {
        None | Some("show.yaml") => "democ.lock".to_owned(),
        Some(n) => {
            let stem = n
                .strip_suffix(".yaml")
                .or_else(|| n.strip_suffix(".yml"))
                .unwrap_or(n);
            format!("{stem}.democ.lock")
        }
    };
    spec.with_file_name(file)
}

/// A lock's path as messages and diagnostics name it (`/`-separated, no leading `./`).
pub(crate) fn display(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}

/// The lock around one compilation: where it lives, what it held, what it holds now.
#[derive(Debug)]
pub(crate) struct Locking {
    pub(crate) path: PathBuf,
    /// The file as read (None: there was none), and its source id.
    pub(crate) old: Option<(AddressLock, FileId)>,
    pub(crate) old_text: Option<String>,
    /// Every address allocated from a pool by this compilation.
    pub(crate) next: AddressLock,
}

impl Locking {
    /// The text to write, when the file should change: never for an unchanged lock, and
    /// no file is created for a show that allocates nothing.
    pub(crate) fn to_write(&self) -> Option<String> {
        if self.old_text.is_none() && self.next.is_empty() {
            return None;
        }
        let text = format::render(&self.next);
        (self.old_text.as_deref() != Some(text.as_str())).then_some(text)
    }
}
