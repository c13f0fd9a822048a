//! Pairs pinned to LAG members by democ's OpenFlow rules (`lag: { placement: openflow }`).
//! Such a LAG is no port-channel: each member is an OpenFlow port of its own at both
//! ends, so the rules, not a hash, choose the member, and the prediction treats the
//! member as the pair's link (no hashing loss; the member shared by the pairs on it).
//!
//! The unit placed is a host address pair, both directions together: the rules match the
//! two addresses only (not the L4 ports), so every stream of a pair takes one member
//! whatever democ chose, and a pair's streams are never split over members, which could
//! reorder a TCP connection's segments. Both directions ride one member so that the
//! rules of two flows between the same hosts (one's data, the other's replies) agree.
//!
//! Placement is greedy and deterministic: address pairs by demand, largest first (ties in
//! LAG and address order), each onto the member whose busier direction stays lowest
//! after it (ties: the lower total, then the first member). Linear in hops, then
//! pairs x members per LAG.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use super::paths::{PairRoute, Routes, Via};
use crate::fxhash::FxMap;
use crate::resolve::model::{HostId, LagId, LinkId, Model};

/// The member each pinned address pair rides, per LAG.
#[derive(Debug, Default)]
pub(crate) struct Pins {
    by_pair: FxMap<(LagId, Ipv4Addr, Ipv4Addr), LinkId>,
}

impl Pins {
    /// The member of LAG `g` the pair of addresses `a` and `b` rides (either order).
    pub(crate) fn member(&self, g: LagId, a: Ipv4Addr, b: Ipv4Addr) -> Option<LinkId> {
        self.by_pair.get(&(g, a.min(b), a.max(b))).copied()
    }

    /// The member of LAG `g` a routed pair rides, when democ's rules pin it.
    pub(crate) fn of_pair(&self, m: &Model, g: LagId, pr: &PairRoute) -> Option<LinkId> {
        let ((_, a), (_, b)) = ends(m, pr)?;
        self.member(g, a, b)
    }
}

/// The hosts and addresses a pair's data leaves and enters by (what its rules match).
pub(crate) fn ends(m: &Model, pr: &PairRoute) -> Option<((HostId, Ipv4Addr), (HostId, Ipv4Addr))> {
    let addr = |first| {
        let (h, p) = crate::derive::paths::host_ports(m, pr, first).next()?;
        m.hosts[h].ports[p].address.map(|a| (h, a.addr))
    };
    Some((addr(true)?, addr(false)?))
}

/// Places every routed pair that crosses a pinned LAG on one of its members.
pub(crate) fn derive(m: &Model, routes: &Routes) -> Pins {
    if !(0..m.lags.len()).any(|g| m.pinned(g)) {
        return Pins::default();
    }
    // (LAG, low address, high address) -> demand (a->b, b->a), bits/s.
    let mut units: BTreeMap<(LagId, Ipv4Addr, Ipv4Addr), (f64, f64)> = BTreeMap::new();
    for (f, fr) in m.flows.iter().zip(&routes.flows) {
        let rate = f.pair_rate().bps();
        for pr in &fr.pairs {
            let mut key = None;
            for h in &pr.hops {
                let Via::Lag(g) = h.via else { continue };
                if !m.pinned(g) {
                    continue;
                }
                let Some(((_, a), (_, b))) = *key.get_or_insert_with(|| ends(m, pr)) else {
                    break;
                };
                let first = m.lags[g].members[0];
                let forward = m.links[first].a.node == h.from;
                let d = units.entry((g, a.min(b), a.max(b))).or_default();
                if forward {
                    d.0 += rate;
                } else {
                    d.1 += rate;
                }
            }
        }
    }
    let mut order: Vec<_> = units.into_iter().collect();
    // Stable: equal demands keep the key order.
    order.sort_by(|x, y| {
        let (a, b) = (x.1.0.max(x.1.1), y.1.0.max(y.1.1));
        b.partial_cmp(&a).unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut load: FxMap<LagId, Vec<(f64, f64)>> = FxMap::default();
    let mut pins = Pins::default();
    for ((g, lo, hi), (fwd, rev)) in order {
        let members = &m.lags[g].members;
        let l = load
            .entry(g)
            .or_insert_with(|| vec![(0.0, 0.0); members.len()]);
        let cost = |i: usize| {
            let (a, b) = (l[i].0 + fwd, l[i].1 + rev);
            (a.max(b), a + b)
        };
        let best = (0..members.len())
            .min_by(|&i, &j| {
                cost(i)
                    .partial_cmp(&cost(j))
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(i.cmp(&j))
            })
            .unwrap_or(0);
        l[best].0 += fwd;
        l[best].1 += rev;
        pins.by_pair.insert((g, lo, hi), members[best]);
    }
    pins
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{Input, Options, Session, front};

    /// Ten single-pair flows over a ten-member LAG placed by OpenFlow: one pair per member.
    #[test]
    fn equal_pairs_spread_one_per_member() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/feasibility/lag-pinned.yaml");
        let text = std::fs::read_to_string(path)
            .expect("fixture")
            .replace("PLACEMENT", ", placement: openflow");
        let mut s = Session::default();
        let input = Input::Bytes {
            name: "lag-pinned.yaml",
            bytes: text.as_bytes(),
        };
        let f = front(input, &Options::default(), &mut s)
            .expect("reads")
            .expect("checks clean");
        let m = &f.model;
        let g = (0..m.lags.len())
            .find(|&g| m.pinned(g))
            .expect("a pinned LAG");
        let mut used: Vec<LinkId> = f
            .routes
            .flows
            .iter()
            .flat_map(|r| &r.pairs)
            .filter_map(|pr| f.routes.pins.of_pair(m, g, pr))
            .collect();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used.len(), m.lags[g].members.len());
    }
}
