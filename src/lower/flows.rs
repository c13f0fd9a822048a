//! The flows' pairs and planned paths for the IR (`ir::flow`): what the twin runs and
//! checks against. Straight from the routes the checks used, so the twin tests the plan
//! democ predicted, not a second opinion.

use crate::compile::Front;
use crate::derive::paths::{Hop as RouteHop, PairRoute, Via};
use crate::ir::flow::{Flow, Hop, Pair};
use crate::resolve::model::{HostId, Model, NodeId};

pub(crate) fn lower(front: &Front) -> Vec<Flow> {
    let m = &front.model;
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
                    src_address: address(m, pr.src, pr.hops.first()),
                    dst_address: address(m, pr.dst, pr.hops.last()),
                    mtu: m.hosts[pr.src].mtu.value.min(m.hosts[pr.dst].mtu.value),
                    // Microseconds are all a twin or a reader needs (and no float noise).
                    rtt_ms: (pr.rtt_ms() * 1000.0).round() / 1000.0,
                    path: pr
                        .hops
                        .windows(2)
                        .filter_map(|w| match w[0].to {
                            NodeId::Switch(s) => Some(Hop {
                                switch: m.switches[s].name.value.clone(),
                                in_port: port(front, pr, &w[0], w[0].to),
                                out_port: port(front, pr, &w[1], w[1].from),
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
fn port(front: &Front, pr: &PairRoute, hop: &RouteHop, node: NodeId) -> String {
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
        Via::Lag(g) => format!("lag{}", m.lags[g].id),
        Via::Link(l) => {
            let l = &m.links[l];
            let end = if l.a.node == node { l.a } else { l.b };
            m.port(end).name.clone()
        }
    }
}

/// The address of the host's port on its end hop (a bond's first member).
fn address(m: &Model, host: HostId, hop: Option<&RouteHop>) -> Option<String> {
    let link = *hop?.via.links(m).first()?;
    let l = &m.links[link];
    let end = if l.a.node == NodeId::Host(host) {
        l.a
    } else {
        l.b
    };
    m.hosts[host].ports[end.port]
        .address
        // A pair has two; 100,000 flows made `Ipv4Addr`'s padded Display count.
        .map(|a| super::rules::dotted::dotted(a.addr))
}
