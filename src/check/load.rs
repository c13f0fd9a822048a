//! Demand per shared resource: every network link and LAG direction, every NIC's PCIe
//! link per direction, every PCIe switch uplink NICs sit behind, every host's drives.
//! One pass over the routed pairs: linear in hops.

use std::collections::HashMap;

use crate::derive::paths::{PairRoute, Via};
use crate::resolve::model::{HostId, LagId, LinkId, Model, NodeId};
use crate::spec::flow::Store;

/// Something several pairs share; bool = direction (true: a->b, downstream, transmit).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Res {
    Link(LinkId, bool),
    Lag(LagId, bool),
    /// A host NIC's PCIe link: (host, nic, transmit).
    Nic(HostId, usize, bool),
    /// A PCIe switch uplink NICs sit behind: (host, switch, downstream).
    Uplink(HostId, String, bool),
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

/// The NIC a pair leaves (first hop) or enters (last hop) a host by.
pub(crate) fn host_nic(m: &Model, pr: &PairRoute, first: bool) -> Option<(HostId, usize)> {
    let hop = if first {
        pr.hops.first()?
    } else {
        pr.hops.last()?
    };
    let host = if first { pr.src } else { pr.dst };
    let link = match hop.via {
        Via::Link(l) => l,
        Via::Lag(g) => *m.lags[g].members.first()?,
    };
    let l = &m.links[link];
    let end = if l.a.node == NodeId::Host(host) {
        l.a
    } else {
        l.b
    };
    let nic = m.hosts[host].ports[end.port].nic?;
    Some((host, nic))
}

/// The resources one pair uses, with its flow's source and sink kinds.
pub(crate) fn resources(
    m: &Model,
    pr: &PairRoute,
    source: Store,
    sink: Store,
    nic_switches: &dyn Fn(HostId, usize) -> Vec<String>,
) -> Vec<Res> {
    let mut v = Vec::with_capacity(pr.hops.len() + 6);
    for h in &pr.hops {
        let fwd = forward(m, h.via, h.from);
        v.push(match h.via {
            Via::Link(l) => Res::Link(l, fwd),
            Via::Lag(g) => Res::Lag(g, fwd),
        });
    }
    if let Some((h, n)) = host_nic(m, pr, true) {
        v.push(Res::Nic(h, n, true));
        v.extend(
            nic_switches(h, n)
                .into_iter()
                .map(|s| Res::Uplink(h, s, true)),
        );
    }
    if let Some((h, n)) = host_nic(m, pr, false) {
        v.push(Res::Nic(h, n, false));
        v.extend(
            nic_switches(h, n)
                .into_iter()
                .map(|s| Res::Uplink(h, s, false)),
        );
    }
    if source == Store::Nvme {
        v.push(Res::Read(pr.src));
    }
    if sink == Store::Nvme {
        v.push(Res::Write(pr.dst));
    }
    v
}

/// Demand in bits/s per resource, and which flows load it.
#[derive(Debug, Default)]
pub(crate) struct Loads {
    pub(crate) demand: HashMap<Res, f64>,
    pub(crate) flows: HashMap<Res, Vec<usize>>,
}

impl Loads {
    pub(crate) fn add(&mut self, r: &Res, bps: f64, flow: usize) {
        *self.demand.entry(r.clone()).or_insert(0.0) += bps;
        let f = self.flows.entry(r.clone()).or_default();
        if f.last() != Some(&flow) {
            f.push(flow);
        }
    }
}
