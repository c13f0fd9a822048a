//! The flows' pairs and planned paths for the IR (`ir::flow`): what the twin runs and
//! checks against. Straight from the routes the checks used, so the twin tests the plan
//! democ predicted, not a second opinion.

use std::sync::Arc;

use crate::compile::Front;
use crate::derive::paths::{Hop as RouteHop, PairRoute, Via};
use crate::ir::flow::{Flow, Hop, Pair};
use crate::resolve::model::{HostId, Model, NodeId};

/// Every switch's and port's name made once, shared by the hops that name it.
struct Names {
    switches: Vec<Arc<str>>,
    /// Per link, the node and the port's name at its `a` end and at its `b` end.
    ends: Vec<[(NodeId, Arc<str>); 2]>,
    /// Per link, the address of a host's port at each end, written out once: each pair
    /// states two, and reading them from the hosts' port records per pair missed the
    /// cache at 100,000 flows.
    addresses: Vec<[Option<String>; 2]>,
    lags: Vec<Arc<str>>,
}

impl Names {
    fn new(m: &Model) -> Names {
        Names {
            switches: m
                .switches
                .iter()
                .map(|s| Arc::from(s.name.value.as_str()))
                .collect(),
            ends: m
                .links
                .iter()
                .map(|l| [l.a, l.b].map(|end| (end.node, Arc::from(m.port(end).name.as_str()))))
                .collect(),
            addresses: m
                .links
                .iter()
                .map(|l| {
                    [l.a, l.b].map(|end| match end.node {
                        // A pair has two; 100,000 flows made `Ipv4Addr`'s padded
                        // Display count.
                        NodeId::Host(_) => m
                            .port(end)
                            .address
                            .map(|a| super::rules::dotted::dotted(a.addr)),
                        _ => None,
                    })
                })
                .collect(),
            lags: m
                .lags
                .iter()
                .map(|g| Arc::from(format!("lag{}", g.id)))
                .collect(),
        }
    }
}

pub(crate) fn lower(front: &Front) -> Vec<Flow> {
    let m = &front.model;
    let names = Names::new(m);
    let (cookies, mask) = super::rules::flow_cookies(m);
    m.flows
        .iter()
        .zip(cookies)
        .enumerate()
        .map(|(fi, (f, cookie))| Flow {
            name: f.name.value.clone(),
            protocol: f.protocol.value.as_str().to_owned(),
            cookie,
            cookie_mask: mask.clone(),
            pairs: front
                .routes
                .flows
                .get(fi)
                .map(|r| r.pairs.as_slice())
                .unwrap_or_default()
                .iter()
                .map(|pr| Pair {
                    src: m.hosts[pr.src].name.value.clone(),
                    dst: m.hosts[pr.dst].name.value.clone(),
                    src_address: address(m, &names, pr.src, pr.hops.first()),
                    dst_address: address(m, &names, pr.dst, pr.hops.last()),
                    mtu: m.hosts[pr.src].mtu.value.min(m.hosts[pr.dst].mtu.value),
                    // Microseconds are all a twin or a reader needs (and no float noise).
                    rtt_ms: (pr.rtt_ms() * 1000.0).round() / 1000.0,
                    path: pr
                        .hops
                        .windows(2)
                        .filter_map(|w| match w[0].to {
                            NodeId::Switch(s) => Some(Hop {
                                switch: Arc::clone(&names.switches[s]),
                                in_port: port(front, &names, pr, &w[0], w[0].to),
                                out_port: port(front, &names, pr, &w[1], w[1].from),
                            }),
                            NodeId::Host(_) => None,
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect()
}

/// The port `node` has on `hop`: its canonical name, or `lag<id>`; on a LAG placed by
/// OpenFlow rules, the member the pair is pinned to.
fn port(front: &Front, names: &Names, pr: &PairRoute, hop: &RouteHop, node: NodeId) -> Arc<str> {
    let m = &front.model;
    let via = match hop.via {
        Via::Lag(g) if m.pinned(g) => front
            .routes
            .pins
            .of_pair(m, g, pr)
            .map_or(hop.via, Via::Link),
        v => v,
    };
    match via {
        Via::Lag(g) => Arc::clone(&names.lags[g]),
        Via::Link(l) => {
            let end = usize::from(names.ends[l][0].0 != node);
            Arc::clone(&names.ends[l][end].1)
        }
    }
}

/// The address of the host's port on its end hop (a bond's first member).
fn address(m: &Model, names: &Names, host: HostId, hop: Option<&RouteHop>) -> Option<String> {
    let link = *hop?.via.links(m).first()?;
    let [a, _] = &names.ends[link];
    let end = usize::from(a.0 != NodeId::Host(host));
    names.addresses[link][end].clone()
}
