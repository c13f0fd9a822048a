//! The lock's text: YAML with a header saying what it is, sections and keys sorted, one
//! entry a line, so that two builds of one show write the same bytes and a change to
//! the show shows as a few lines in a version-control diff.

use std::fmt::Write as _;
use std::net::Ipv4Addr;

use super::AddressLock;

/// The format version `read` accepts.
pub(crate) const VERSION: i64 = 1;

const HEADER: &str = "\
# democ.lock: the addresses democ allocated from the show's pools, by what holds them.
# Written by `democ build` and read by every democ command on this spec, so that adding,
# removing or reordering hosts and links does not renumber what was already assigned.
# Commit it with the show. Do not edit it: change the spec (addresses written there
# always win); an entry for something gone, or that the spec now contradicts, is
# dropped with a note. `--no-lock` ignores it; `--locked` fails when it would change.
";

/// A key as a YAML double-quoted scalar (JSON's escapes are YAML's), so no name can
/// break the line structure.
fn quoted(key: &str) -> String {
    serde_json::to_string(key).unwrap_or_else(|_| format!("{key:?}"))
}

fn section<'a, V: 'a>(
    out: &mut String,
    name: &str,
    entries: impl ExactSizeIterator<Item = (&'a String, &'a V)>,
    value: impl Fn(&V) -> String,
) {
    if entries.len() == 0 {
        return;
    }
    let _ = writeln!(out, "{name}:");
    for (k, v) in entries {
        let _ = writeln!(out, "  {}: {}", quoted(k), value(v));
    }
}

pub(crate) fn render(lock: &AddressLock) -> String {
    let mut out = String::from(HEADER);
    let _ = writeln!(out, "version: {VERSION}");
    let one = |a: &Ipv4Addr| a.to_string();
    section(&mut out, "hosts", lock.hosts.iter(), |v| one(v));
    section(&mut out, "links", lock.links.iter(), |v| {
        format!("[{}, {}]", v.value[0], v.value[1])
    });
    section(&mut out, "switches", lock.switches.iter(), |v| one(v));
    section(&mut out, "lab", lock.lab.iter(), |v| one(v));
    out
}
