//! Demand per shared resource: every network link and LAG direction, every NIC's PCIe
//! link per direction, every PCIe switch uplink NICs sit behind, every host's drives.
//! One pass over the routed pairs: linear in hops.

use crate::derive::lag_placement::Pins;
use crate::derive::paths::{PairRoute, Via};
use crate::resolve::model::{HostId, LagId, LinkId, Model, NodeId};
use crate::spec::flow::Store;

/// Something several pairs share; bool = direction (true: a->b, downstream, transmit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Res {
    Link(LinkId, bool),
    Lag(LagId, bool),
    /// A host NIC's PCIe link: (host, nic, transmit).
    Nic(HostId, usize, bool),
    /// A PCIe switch uplink NICs sit behind: (host, index of the chassis switch, downstream).
    Uplink(HostId, u16, bool),
    Read(HostId),
    Write(HostId),
}

/// Direction of travel over a link: true when going from its `a` end to its `b` end.
pub(crate) fn forward(m: &Model, via: Via, from: NodeId) -> bool {
    match via {
        Via::Link(l) => m.links[l].a.node == from,
        Via::Lag(g) => m.lags[g]
            .members
            .first()
            .is_none_or(|&l| m.links[l].a.node == from),
    }
}

/// Per link, the NIC at each end (`a`, `b`) when that end is a host's port, as (host,
/// NIC): what [`host_nics`] reads several times per pair. A dense table of the links,
/// because reading each host's own port list there missed the cache on nearly every
/// call at 100,000 flows (most of `host_nics`' samples were that one load).
#[derive(Debug, Default)]
pub(crate) struct HostEnds(Vec<[(u32, u32); 2]>);

/// Not a host's port, or a port with no NIC.
const NONE: u32 = u32::MAX;

impl HostEnds {
    pub(crate) fn new(m: &Model) -> HostEnds {
        let end = |e: crate::resolve::model::End| match e.node {
            NodeId::Host(h) => (
                h as u32,
                m.hosts[h].ports[e.port].nic.map_or(NONE, |n| n as u32),
            ),
            _ => (NONE, NONE),
        };
        HostEnds(m.links.iter().map(|l| [end(l.a), end(l.b)]).collect())
    }
}

/// The NICs a pair leaves (first hop) or enters (last hop) a host by: one, or every
/// NIC behind a host bond, which the pair's streams spread over. Written into `out`
/// (cleared first) so the per-pair loops allocate nothing.
pub(crate) fn host_nics(
    m: &Model,
    ends: &HostEnds,
    pr: &PairRoute,
    first: bool,
    out: &mut Vec<(HostId, usize)>,
) {
    out.clear();
    let (hop, host) = if first {
        (pr.hops.first(), pr.src)
    } else {
        (pr.hops.last(), pr.dst)
    };
    let Some(hop) = hop else { return };
    for &link in hop.via.links(m) {
        // The host's end of the link: `a` when it is the host's, else `b`.
        let [a, b] = ends.0[link];
        let (_, nic) = if a.0 == host as u32 { a } else { b };
        if nic != NONE && !out.contains(&(host, nic as usize)) {
            out.push((host, nic as usize));
        }
    }
}

/// Dense numbering of every resource, in `Res` order, so loads are arrays and not maps.
/// NIC and uplink numbers are laid out host after host (prefix sums of their counts).
#[derive(Debug, Default)]
pub(crate) struct Space {
    links: usize,
    lags: usize,
    hosts: usize,
    /// Per host: first NIC number, relative to the NIC block; one extra entry at the end.
    nic_base: Vec<usize>,
    /// Per host: first uplink number, relative to the uplink block; one extra at the end.
    up_base: Vec<usize>,
}

impl Space {
    /// `switches(h)`: how many chassis PCIe switches host `h` can name.
    pub(crate) fn new(m: &Model, switches: impl Fn(HostId) -> usize) -> Space {
        let mut nic_base = Vec::with_capacity(m.hosts.len() + 1);
        let mut up_base = Vec::with_capacity(m.hosts.len() + 1);
        let (mut n, mut u) = (0, 0);
        for (i, h) in m.hosts.iter().enumerate() {
            nic_base.push(n);
            up_base.push(u);
            n += 2 * h.nics.len();
            u += 2 * switches(i);
        }
        nic_base.push(n);
        up_base.push(u);
        Space {
            links: m.links.len(),
            lags: m.lags.len(),
            hosts: m.hosts.len(),
            nic_base,
            up_base,
        }
    }

    fn lag0(&self) -> usize {
        2 * self.links
    }
    fn nic0(&self) -> usize {
        self.lag0() + 2 * self.lags
    }
    fn up0(&self) -> usize {
        self.nic0() + self.nic_base.last().copied().unwrap_or(0)
    }
    fn read0(&self) -> usize {
        self.up0() + self.up_base.last().copied().unwrap_or(0)
    }
    fn write0(&self) -> usize {
        self.read0() + self.hosts
    }
    /// Whether resource `i` is a network link or LAG direction (its bits carry headers).
    pub(crate) fn is_wire(&self, i: usize) -> bool {
        i < self.nic0()
    }
    /// The LAG direction numbered `i`, if `i` numbers one: without `res`'s search for
    /// the host of a NIC or uplink, for the loops that look only for LAGs.
    pub(crate) fn lag(&self, i: usize) -> Option<(LagId, bool)> {
        let k = i.checked_sub(self.lag0()).filter(|_| i < self.nic0())?;
        Some((k / 2, k % 2 == 1))
    }
    pub(crate) fn len(&self) -> usize {
        self.write0() + self.hosts
    }

    pub(crate) fn index(&self, r: Res) -> usize {
        let d = usize::from;
        match r {
            Res::Link(l, f) => 2 * l + d(f),
            Res::Lag(g, f) => self.lag0() + 2 * g + d(f),
            Res::Nic(h, n, t) => self.nic0() + self.nic_base[h] + 2 * n + d(t),
            Res::Uplink(h, s, f) => self.up0() + self.up_base[h] + 2 * usize::from(s) + d(f),
            Res::Read(h) => self.read0() + h,
            Res::Write(h) => self.write0() + h,
        }
    }

    /// The resource numbered `i` (the inverse of `index`).
    pub(crate) fn res(&self, i: usize) -> Res {
        // The host whose block in `base` holds `k`: the last base at or below it.
        let owner = |base: &[usize], k: usize| base.partition_point(|&b| b <= k) - 1;
        if i < self.lag0() {
            Res::Link(i / 2, i % 2 == 1)
        } else if i < self.nic0() {
            let k = i - self.lag0();
            Res::Lag(k / 2, k % 2 == 1)
        } else if i < self.up0() {
            let k = i - self.nic0();
            let h = owner(&self.nic_base, k);
            let j = k - self.nic_base[h];
            Res::Nic(h, j / 2, j % 2 == 1)
        } else if i < self.read0() {
            let k = i - self.up0();
            let h = owner(&self.up_base, k);
            let j = k - self.up_base[h];
            Res::Uplink(h, (j / 2) as u16, j % 2 == 1)
        } else if i < self.write0() {
            Res::Read(i - self.read0())
        } else {
            Res::Write(i - self.write0())
        }
    }
}

/// The resources one pair uses, each with the share of the pair's rate it carries,
/// appended to `out`. `nics` is scratch space.
pub(crate) fn resources<'a>(
    m: &Model,
    pr: &PairRoute,
    (source, sink): (Store, Store),
    (pins, nic_switches): (&Pins, &dyn Fn(HostId, usize) -> &'a [u16]),
    ends: &HostEnds,
    nics: &mut Vec<(HostId, usize)>,
    out: &mut Vec<(Res, f64)>,
) {
    for h in &pr.hops {
        // A pair pinned to a member by the OpenFlow rules rides that link, not the hash.
        let via = match h.via {
            Via::Lag(g) if m.pinned(g) => pins.of_pair(m, g, pr).map_or(h.via, Via::Link),
            v => v,
        };
        let fwd = forward(m, via, h.from);
        out.push((
            match via {
                Via::Link(l) => Res::Link(l, fwd),
                Via::Lag(g) => Res::Lag(g, fwd),
            },
            1.0,
        ));
    }
    for transmit in [true, false] {
        host_nics(m, ends, pr, transmit, nics);
        let w = 1.0 / nics.len().max(1) as f64;
        for &(h, n) in nics.iter() {
            out.push((Res::Nic(h, n, transmit), w));
            out.extend(
                nic_switches(h, n)
                    .iter()
                    .map(|&s| (Res::Uplink(h, s, transmit), w)),
            );
        }
    }
    // A host has one local store (E0273): its NVMe drives or its RAID arrays.
    if source != Store::Memory {
        out.push((Res::Read(pr.src), 1.0));
    }
    if sink != Store::Memory {
        out.push((Res::Write(pr.dst), 1.0));
    }
}

/// The resources of every routed pair, flat: pair `p` uses `items[pairs[p]..pairs[p + 1]]`
/// (as dense numbers with their share), and flow `f` owns pairs `flows[f]..flows[f + 1]`.
#[derive(Debug, Default)]
pub(crate) struct PairUse {
    pub(crate) items: Vec<(u32, f64)>,
    pub(crate) pairs: Vec<usize>,
    pub(crate) flows: Vec<usize>,
}

impl PairUse {
    /// What pair `p` uses.
    pub(crate) fn of(&self, p: usize) -> &[(u32, f64)] {
        &self.items[self.pairs[p]..self.pairs[p + 1]]
    }
}

/// Demand in bits/s per resource, and which flows load it (each flow once, in order).
#[derive(Debug, Default)]
pub(crate) struct Loads {
    pub(crate) space: Space,
    demand: Vec<f64>,
    /// Streams crossing each resource (a pair's streams each, every pair counted): what
    /// a LAG hashes onto its members.
    streams: Vec<u32>,
    /// Pairs crossing each resource: what a LAG that hashes on addresses only places.
    pairs: Vec<u32>,
    /// Flows of resource `i`: `flow_ids[flow_start[i]..flow_start[i + 1]]`.
    flow_start: Vec<usize>,
    flow_ids: Vec<usize>,
}

impl Loads {
    /// Sums every pair's demand (`rate(flow)` per pair, times its share) and streams
    /// (`streams(flow)` per pair) per resource.
    pub(crate) fn new(
        space: Space,
        used: &PairUse,
        rate: impl Fn(usize) -> f64,
        streams: impl Fn(usize) -> u32,
    ) -> Loads {
        let n = space.len();
        let mut demand = vec![0.0; n];
        let mut carried = vec![0u32; n];
        let mut pairs = vec![0u32; n];
        let mut count = vec![0usize; n + 1];
        // The last flow counted on each resource: pairs of one flow count it once.
        let mut last = vec![usize::MAX; n];
        let flows = used.flows.len().saturating_sub(1);
        for f in 0..flows {
            let bps = rate(f);
            let k = streams(f);
            for p in used.flows[f]..used.flows[f + 1] {
                for &(r, w) in used.of(p) {
                    let r = r as usize;
                    demand[r] += bps * w;
                    carried[r] = carried[r].saturating_add(k);
                    pairs[r] = pairs[r].saturating_add(1);
                    if last[r] != f {
                        last[r] = f;
                        count[r + 1] += 1;
                    }
                }
            }
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut flow_ids = vec![0; count[n]];
        let mut next = count.clone();
        last.fill(usize::MAX);
        for f in 0..flows {
            for p in used.flows[f]..used.flows[f + 1] {
                for &(r, _) in used.of(p) {
                    let r = r as usize;
                    if last[r] != f {
                        last[r] = f;
                        flow_ids[next[r]] = f;
                        next[r] += 1;
                    }
                }
            }
        }
        Loads {
            space,
            demand,
            streams: carried,
            pairs,
            flow_start: count,
            flow_ids,
        }
    }

    /// Demand on a resource, bits/s.
    pub(crate) fn demand(&self, r: &Res) -> f64 {
        self.demand_at(self.space.index(*r))
    }

    /// Whether some pair uses the resource numbered `i`.
    pub(crate) fn is_used(&self, i: usize) -> bool {
        self.flow_start.get(i + 1) > self.flow_start.get(i)
    }

    pub(crate) fn demand_at(&self, i: usize) -> f64 {
        self.demand.get(i).copied().unwrap_or(0.0)
    }

    /// Streams crossing a resource.
    pub(crate) fn streams(&self, r: &Res) -> u32 {
        self.streams.get(self.space.index(*r)).copied().unwrap_or(0)
    }

    /// Routed pairs crossing a resource (two flows between the same two addresses
    /// count twice, though an address hash puts them together).
    pub(crate) fn pairs(&self, r: &Res) -> u32 {
        self.pairs.get(self.space.index(*r)).copied().unwrap_or(0)
    }

    /// The flows loading a resource, in flow order.
    pub(crate) fn flows(&self, r: &Res) -> &[usize] {
        let i = self.space.index(*r);
        match (self.flow_start.get(i), self.flow_start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.flow_ids[a..b],
            _ => &[],
        }
    }

    /// Every resource some pair uses, with its demand in bits/s, in `Res` order.
    pub(crate) fn used(&self) -> impl Iterator<Item = (Res, f64)> + '_ {
        (0..self.demand.len())
            .filter(|&i| self.is_used(i))
            .map(|i| (self.space.res(i), self.demand[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{Input, Options, Session, front};

    /// Numbering is a bijection that keeps `Res` order (plans list links in that order).
    #[test]
    fn numbering_round_trips_in_res_order() {
        let mut s = Session::default();
        let f = front(Input::Embedded, &Options::default(), &mut s)
            .expect("embedded show")
            .expect("checks clean");
        let space = Space::new(&f.model, |h| h % 3);
        assert!(space.len() > 2 * f.model.links.len());
        let mut prev: Option<Res> = None;
        for i in 0..space.len() {
            let r = space.res(i);
            assert_eq!(space.index(r), i, "{r:?}");
            let lag = match r {
                Res::Lag(g, f) => Some((g, f)),
                _ => None,
            };
            assert_eq!(space.lag(i), lag);
            assert!(prev.is_none_or(|p| p < r), "{prev:?} then {r:?}");
            prev = Some(r);
        }
    }
}
