//! Keeping the address lock's assignments. After the spec's own addresses are claimed
//! and before any pool hands out a new one, everything the lock names gets its locked
//! address back, so that new hosts and links take free space instead of shifting the
//! others. An entry the spec now contradicts (outside its pool, taken by an address the
//! spec declares, not an aligned /31) or whose holder is gone is dropped with a note,
//! and the holder, if any, is allocated afresh.

use std::collections::{HashMap, HashSet};
use std::net::Ipv4Addr;

use super::addressing::{Pool, Wants};
use crate::diag::{Diagnostic, Diags, codes};
use crate::lock::{AddressLock, link_key, port_key};
use crate::resolve::model::{End, Model};
use crate::source::Span;
use crate::spec::addr::Prefix;
use crate::yaml::decode::Located;

/// What the lock gave back: host ports, links and switches by index.
#[derive(Default)]
pub(crate) struct Kept {
    pub(crate) hosts: HashSet<(usize, usize)>,
    pub(crate) links: HashSet<usize>,
    pub(crate) switches: HashSet<usize>,
}

struct Claims<'a> {
    used: &'a mut crate::fxhash::FxMap<Ipv4Addr, Span>,
    diags: &'a mut Diags,
}

impl Claims<'_> {
    fn dropped(&mut self, entry: Span, message: String, help: &str) -> Diagnostic {
        Diagnostic::new(codes::LOCK_ENTRY_DROPPED, entry, message)
            .label("dropped from the lock")
            .help(help.to_owned())
    }

    /// Notes why `addrs` cannot be kept in `pool`; false when they can.
    fn conflict(
        &mut self,
        key: &str,
        entry: Span,
        addrs: &[Ipv4Addr],
        pool: &Located<Prefix>,
        what: &str,
    ) -> bool {
        const HELP: &str = "nothing to do: it gets a new address from its pool, and `democ build` records it in the lock";
        let outside = addrs.iter().find(|a| !Pool::new(pool.value).holds(**a));
        let taken = addrs
            .iter()
            .find_map(|a| self.used.get(a).map(|s| (*a, *s)));
        let d = if let Some(a) = outside {
            self.dropped(
                entry,
                format!(
                    "the lock gives `{key}` {a}, outside the {what} pool {} now",
                    pool.value
                ),
                HELP,
            )
            .also(pool.span, "the pool")
        } else if let Some((a, at)) = taken {
            self.dropped(
                entry,
                format!("the lock gives `{key}` {a}, which is taken now"),
                HELP,
            )
            .also(at, "taken here")
        } else {
            return false;
        };
        self.diags.push(d);
        true
    }

    fn take(&mut self, addrs: &[Ipv4Addr], entry: Span) {
        for a in addrs {
            self.used.insert(*a, entry);
        }
    }
}

/// The lock's key of each end of a link and whether the spec's `a:` is the key's second.
fn key_of_link(m: &Model, l: usize) -> (String, bool) {
    let link = &m.links[l];
    link_key(&m.end_name(link.a), &m.end_name(link.b))
}

/// Gives back every lock entry that still fits; notes the rest.
pub(crate) fn keep(
    m: &mut Model,
    wants: &Wants,
    lock: &AddressLock,
    used: &mut crate::fxhash::FxMap<Ipv4Addr, Span>,
    diags: &mut Diags,
) -> Kept {
    let mut kx = Claims { used, diags };
    let mut kept = Kept::default();
    let hosts: HashMap<String, usize> = wants
        .hosts
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let h = &m.hosts[w.host];
            (port_key(&h.name.value, &h.ports[w.port].name), i)
        })
        .collect();
    for (key, entry) in &lock.hosts {
        let Some(w) = hosts.get(key).map(|&i| &wants.hosts[i]) else {
            kx.diags.push(gone_host(m, key, entry.span));
            continue;
        };
        if kx.conflict(key, entry.span, &[entry.value], &w.pool, w.what) {
            continue;
        }
        kx.take(&[entry.value], entry.span);
        m.hosts[w.host].ports[w.port].address = Some(Prefix {
            addr: entry.value,
            len: w.pool.len,
        });
        kept.hosts.insert((w.host, w.port));
    }
    let links: HashMap<String, usize> = wants
        .links
        .iter()
        .map(|&l| (key_of_link(m, l).0, l))
        .collect();
    for (key, entry) in &lock.links {
        let (Some(&l), Some(pool)) = (links.get(key), wants.p2p.as_ref()) else {
            kx.diags.push(gone_link(m, key, entry.span));
            continue;
        };
        let [x, y] = entry.value;
        let (lo, hi) = (
            u32::from(x).min(u32::from(y)),
            u32::from(x).max(u32::from(y)),
        );
        if lo % 2 != 0 || hi != lo + 1 {
            let d = kx.dropped(
                entry.span,
                format!("the lock gives link `{key}` {x} and {y}, which are not one aligned /31"),
                "nothing to do: the link gets a new pair from the p2p pool, and `democ build` records it in the lock",
            );
            kx.diags.push(d);
            continue;
        }
        if kx.conflict(key, entry.span, &entry.value, pool, "p2p") {
            continue;
        }
        kx.take(&entry.value, entry.span);
        let (a, b) = (m.links[l].a, m.links[l].b);
        let swapped = key_of_link(m, l).1;
        let (for_a, for_b) = if swapped { (y, x) } else { (x, y) };
        set(m, a, for_a);
        set(m, b, for_b);
        kept.links.insert(l);
    }
    let switches: HashMap<&str, usize> = wants
        .switches
        .iter()
        .map(|&s| (m.switches[s].name.value.as_str(), s))
        .collect();
    let mut given = Vec::new();
    for (key, entry) in &lock.switches {
        let net = switches
            .get(key.as_str())
            .map(|&s| (s, m.mgmt_net(m.switches[s].site)));
        let Some((s, pool, what)) =
            net.and_then(|(s, n)| n.subnet.map(|p| (s, p.clone(), n.what())))
        else {
            kx.diags.push(gone_switch(m, key, entry.span));
            continue;
        };
        if kx.conflict(key, entry.span, &[entry.value], &pool, what) {
            continue;
        }
        kx.take(&[entry.value], entry.span);
        given.push((s, Located::new(entry.value, pool.span)));
    }
    for (s, a) in given {
        m.switches[s].mgmt = Some(a);
        kept.switches.insert(s);
    }
    kept
}

fn set(m: &mut Model, e: End, a: Ipv4Addr) {
    m.port_mut(e).address = Some(Prefix { addr: a, len: 31 });
}

const STALE_HELP: &str = "nothing to do: `democ build` writes the lock without it";

/// N0131 for an entry whose holder is gone or no longer takes a pool address.
pub(crate) fn stale(span: Span, message: String) -> Diagnostic {
    Diagnostic::new(codes::LOCK_ENTRY_DROPPED, span, message)
        .label("dropped from the lock")
        .help(STALE_HELP)
}

fn gone_host(m: &Model, key: &str, span: Span) -> Diagnostic {
    let (host, port) = key.split_once(':').unwrap_or((key, ""));
    let found = m.hosts.iter().find(|h| h.name.value == host).and_then(|h| {
        let p = *h.port_index.get(port)?;
        Some((h, p))
    });
    let why = match found {
        None => format!("the lock names host port `{key}`, which the spec no longer has"),
        Some((h, p)) => match h.addresses.get(&p) {
            Some(a) => format!(
                "the spec gives `{key}` its address ({}) now: addresses in the spec win over the lock",
                a.value
            ),
            None => format!("`{key}` no longer takes an address from a pool"),
        },
    };
    stale(span, why)
}

fn gone_link(m: &Model, key: &str, span: Span) -> Diagnostic {
    let found = (0..m.links.len()).find(|&l| key_of_link(m, l).0 == key);
    let why = match found.map(|l| &m.links[l]) {
        None => format!("the lock names link `{key}`, which the spec no longer has"),
        Some(l) => match &l.subnet {
            Some(s) => format!(
                "the spec gives link `{key}` its subnet ({}) now: addresses in the spec win over the lock",
                s.value
            ),
            None => format!("link `{key}` no longer takes addresses from the p2p pool"),
        },
    };
    stale(span, why)
}

fn gone_switch(m: &Model, key: &str, span: Span) -> Diagnostic {
    let found = m.switches.iter().find(|s| s.name.value == key);
    let why = match found {
        None => format!("the lock names switch `{key}`, which the spec no longer has"),
        Some(s) => match &s.mgmt {
            Some(a) => format!(
                "the spec gives switch `{key}` its management address ({}) now: addresses in the spec win over the lock",
                a.value
            ),
            None => format!("switch `{key}` no longer takes an address from the mgmt pool"),
        },
    };
    stale(span, why)
}

/// The lock this model's allocation implies: every address a pool handed out (kept or
/// new), keyed by stable names. New entries point at their holder in the spec, so that
/// `--locked` can say where an addition comes from.
pub(crate) fn next(m: &Model, wants: &Wants) -> AddressLock {
    let mut lock = AddressLock::default();
    for w in &wants.hosts {
        let h = &m.hosts[w.host];
        if let Some(a) = h.ports[w.port].address {
            let key = port_key(&h.name.value, &h.ports[w.port].name);
            lock.hosts.insert(key, Located::new(a.addr, h.name.span));
        }
    }
    for &l in &wants.links {
        let link = &m.links[l];
        let (Some(a), Some(b)) = (m.port(link.a).address, m.port(link.b).address) else {
            continue;
        };
        let (key, swapped) = key_of_link(m, l);
        let pair = if swapped {
            [b.addr, a.addr]
        } else {
            [a.addr, b.addr]
        };
        lock.links.insert(key, Located::new(pair, link.span));
    }
    for &s in &wants.switches {
        let sw = &m.switches[s];
        if let Some(a) = &sw.mgmt {
            lock.switches
                .insert(sw.name.value.clone(), Located::new(a.value, sw.name.span));
        }
    }
    lock
}
