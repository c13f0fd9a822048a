//! The flows' pairs and planned paths for the IR (`ir::flow`): what the twin runs and
//! checks against. Straight from the routes the checks used, so the twin tests the plan
//! democ predicted, not a second opinion.

use std::io::Write as _;
use std::sync::Arc;

use crate::derive::ShowModel;
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
                        NodeId::Host(_) => m.port(end).address.map(|a| a.addr.to_string()),
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

pub(crate) fn lower(front: &ShowModel) -> Vec<Flow> {
    let names = Names::new(&front.model);
    let (cookies, mask) = super::rules::flow_cookies(&front.model);
    cookies
        .into_iter()
        .enumerate()
        .map(|(fi, cookie)| flow(front, &names, fi, cookie, &mask))
        .collect()
}

/// `ir/flows/flows.json` as `ir::write_json` prints the flows [`lower`] makes, each
/// made as it is written: a build never holds the whole flows' IR.
pub(crate) fn write(front: &ShowModel, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let names = Names::new(&front.model);
    let (cookies, mask) = super::rules::flow_cookies(&front.model);
    let each = cookies
        .into_iter()
        .enumerate()
        .map(|(fi, cookie)| flow(front, &names, fi, cookie, &mask));
    // Buffered as `ir::write_json` buffers.
    let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
    let mut ser = serde_json::Serializer::pretty(&mut w);
    serde::Serializer::collect_seq(&mut ser, each)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// Declared flow `fi` with its pairs, addresses and planned paths.
fn flow(front: &ShowModel, names: &Names, fi: usize, cookie: String, mask: &str) -> Flow {
    let m = &front.model;
    let f = &m.flows[fi];
    Flow {
        name: f.name.value.clone(),
        protocol: f.protocol.value.as_str().to_owned(),
        cookie,
        cookie_mask: mask.to_owned(),
        pairs: routed(front, fi)
            .iter()
            .map(|pr| {
                let (src_address, dst_address) = addresses(m, names, pr);
                Pair {
                    src: m.hosts[pr.src].name.value.clone(),
                    dst: m.hosts[pr.dst].name.value.clone(),
                    src_address: src_address.map(str::to_owned),
                    dst_address: dst_address.map(str::to_owned),
                    mtu: mtu(m, pr),
                    rtt_ms: rtt_ms(pr),
                    path: hops(front, names, pr)
                        .map(|[switch, in_port, out_port]| Hop {
                            switch: Arc::clone(switch),
                            in_port: Arc::clone(in_port),
                            out_port: Arc::clone(out_port),
                        })
                        .collect(),
                }
            })
            .collect(),
    }
}

/// Flow `fi`'s routed pairs.
fn routed(front: &ShowModel, fi: usize) -> &[PairRoute] {
    front
        .routes
        .flows
        .get(fi)
        .map(|r| r.pairs.as_slice())
        .unwrap_or_default()
}

/// The smaller of the two hosts' MTUs.
fn mtu(m: &Model, pr: &PairRoute) -> u32 {
    m.hosts[pr.src].mtu.value.min(m.hosts[pr.dst].mtu.value)
}

/// Microseconds are all a twin or a reader needs (and no float noise).
fn rtt_ms(pr: &PairRoute) -> f64 {
    (pr.rtt_ms() * 1000.0).round() / 1000.0
}

/// The addresses of the pair's source and destination ports.
fn addresses<'n>(
    m: &Model,
    names: &'n Names,
    pr: &PairRoute,
) -> (Option<&'n str>, Option<&'n str>) {
    (
        address(m, names, pr.src, pr.hops.first()),
        address(m, names, pr.dst, pr.hops.last()),
    )
}

/// The switches a pair crosses in order, each with the ports it enters and leaves by.
fn hops<'n>(
    front: &'n ShowModel,
    names: &'n Names,
    pr: &'n PairRoute,
) -> impl Iterator<Item = [&'n Arc<str>; 3]> + 'n {
    pr.hops.windows(2).filter_map(move |w| match w[0].to {
        NodeId::Switch(s) => Some([
            &names.switches[s],
            port(front, names, pr, &w[0], w[0].to),
            port(front, names, pr, &w[1], w[1].from),
        ]),
        NodeId::Host(_) => None,
    })
}

/// The port `node` has on `hop`: its canonical name, or `lag<id>`; on a LAG placed by
/// OpenFlow rules, the member the pair is pinned to.
fn port<'n>(
    front: &ShowModel,
    names: &'n Names,
    pr: &PairRoute,
    hop: &RouteHop,
    node: NodeId,
) -> &'n Arc<str> {
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
        Via::Lag(g) => &names.lags[g],
        Via::Link(l) => {
            let end = usize::from(names.ends[l][0].0 != node);
            &names.ends[l][end].1
        }
    }
}

/// The address of the host's port on its end hop (a bond's first member).
fn address<'n>(
    m: &Model,
    names: &'n Names,
    host: HostId,
    hop: Option<&RouteHop>,
) -> Option<&'n str> {
    let link = *hop?.via.links(m).first()?;
    let [a, _] = &names.ends[link];
    let end = usize::from(a.0 != NodeId::Host(host));
    names.addresses[link][end].as_deref()
}

#[cfg(test)]
mod tests {
    /// Written from the routes, flows.json is the bytes the lowered flows print.
    #[test]
    fn written_from_the_routes_as_lowered() {
        let (front, _) = crate::testkit::render_fixture();
        let lowered = super::lower(&front);
        assert!(lowered.iter().any(|f| !f.pairs.is_empty()));
        let want = crate::ir::to_json(&lowered).into_bytes();
        let mut got = Vec::new();
        super::write(&front, &mut got).expect("into memory");
        assert_eq!(String::from_utf8(got), String::from_utf8(want));
    }
}
