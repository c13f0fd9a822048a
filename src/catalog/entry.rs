//! One catalog entry in full, as its file writes it: every figure, its source and the
//! comments beside it, so `democ catalog NAME` answers "where does this number come
//! from" without opening the repository.

use super::Catalog;
use crate::source::{Sources, Span};

/// Every table that holds `name`, with what a planner calls such an entry and where
/// its key is written.
pub(crate) fn find(db: &Catalog, name: &str) -> Vec<(&'static str, Span)> {
    let found = [
        ("switch model", db.switches.key(name)),
        ("NIC", db.nics.key(name)),
        ("CPU", db.cpus.key(name)),
        ("chassis", db.chassis.key(name)),
        ("drive", db.drives.key(name)),
        ("optic", db.optics.key(name)),
        ("cable", db.cables.key(name)),
        ("PCIe generation", db.pcie.key(name)),
        ("PCIe switch chip", db.pcie_switches.key(name)),
        ("OTN signal", db.otn.key(name)),
    ];
    found
        .into_iter()
        .filter_map(|(what, key)| key.map(|k| (what, k)))
        .collect()
}

/// The entry's lines: its key line and every deeper line after it (comments and blank
/// lines inside it too), up to the next line as shallow as the key.
pub(crate) fn text(sources: &Sources, what: &str, key: Span) -> String {
    let f = sources.get(key.file);
    let indent = |l: &str| l.len() - l.trim_start().len();
    let first = f.line_index(key.start as usize);
    let Some(head) = f.line_range(first).map(|r| &f.text[r]) else {
        return String::new();
    };
    let (line, _) = f.line_col(key.start as usize);
    let mut out = format!("{what} ({}:{line})\n{head}", f.name);
    let base = indent(head);
    let mut held = String::new();
    let mut i = first + 1;
    while let Some(r) = f.line_range(i) {
        let l = &f.text[r];
        let t = l.trim();
        if t.is_empty() || (t.starts_with('#') && indent(l) > base) {
            held.push_str(l);
        } else if indent(l) <= base {
            break;
        } else {
            out.push_str(&held);
            held.clear();
            out.push_str(l);
        }
        i += 1;
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
