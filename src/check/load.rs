//! Demand per shared resource: every network link and LAG direction, every NIC's PCIe
//! link per direction, every PCIe switch uplink NICs sit behind, every host's drives.
//! One pass over the routed pairs: linear in hops.

use crate::fxhash::FxMap;

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

/// The NICs a pair leaves (first hop) or enters (last hop) a host by: one, or every
/// NIC behind a host bond (LAG), which the pair's streams spread over.
pub(crate) fn host_nics(m: &Model, pr: &PairRoute, first: bool) -> Vec<(HostId, usize)> {
    let hop = if first {
        pr.hops.first()
    } else {
        pr.hops.last()
    };
    let Some(hop) = hop else { return Vec::new() };
    let host = if first { pr.src } else { pr.dst };
    let links: &[usize] = match &hop.via {
        Via::Link(l) => std::slice::from_ref(l),
        Via::Lag(g) => &m.lags[*g].members,
    };
    let mut out: Vec<(HostId, usize)> = Vec::with_capacity(links.len());
    for &link in links {
        let l = &m.links[link];
        let end = if l.a.node == NodeId::Host(host) {
            l.a
        } else {
            l.b
        };
        if let Some(nic) = m.hosts[host].ports[end.port].nic {
            if !out.contains(&(host, nic)) {
                out.push((host, nic));
            }
        }
    }
    out
}

/// The resources one pair uses, each with the share of the pair's rate it carries.
pub(crate) fn resources<'a>(
    m: &Model,
    pr: &PairRoute,
    source: Store,
    sink: Store,
    nic_switches: &dyn Fn(HostId, usize) -> &'a [u16],
) -> Vec<(Res, f64)> {
    let mut v = Vec::with_capacity(pr.hops.len() + 6);
    for h in &pr.hops {
        let fwd = forward(m, h.via, h.from);
        v.push((
            match h.via {
                Via::Link(l) => Res::Link(l, fwd),
                Via::Lag(g) => Res::Lag(g, fwd),
            },
            1.0,
        ));
    }
    for transmit in [true, false] {
        let nics = host_nics(m, pr, transmit);
        let w = 1.0 / nics.len().max(1) as f64;
        for (h, n) in nics {
            v.push((Res::Nic(h, n, transmit), w));
            v.extend(
                nic_switches(h, n)
                    .iter()
                    .map(|&s| (Res::Uplink(h, s, transmit), w)),
            );
        }
    }
    if source == Store::Nvme {
        v.push((Res::Read(pr.src), 1.0));
    }
    if sink == Store::Nvme {
        v.push((Res::Write(pr.dst), 1.0));
    }
    v
}

/// Demand in bits/s per resource, and which flows load it.
#[derive(Debug, Default)]
pub(crate) struct Loads {
    pub(crate) demand: FxMap<Res, f64>,
    pub(crate) flows: FxMap<Res, Vec<usize>>,
}

impl Loads {
    pub(crate) fn add(&mut self, r: Res, bps: f64, flow: usize) {
        *self.demand.entry(r).or_insert(0.0) += bps;
        let f = self.flows.entry(r).or_default();
        if f.last() != Some(&flow) {
            f.push(flow);
        }
    }
}
