//! Routes that carry the flows. A connected topology is not enough: wherever a flow's
//! path crosses a routed hop (a switch port with an address: a routed link or a BGP
//! circuit), the switch before that hop must hold a route to the packet's destination in
//! the control plane democ configures: a connected subnet, a static route, or a prefix
//! BGP learns along the declared sessions from a switch that originates it. Both
//! directions of every pair are checked (TCP and RDMA both need the return path), and a
//! missing route is an error at the flow naming the switch (E0253).
//!
//! democ configures no static routes and its BGP sessions originate no prefix, so today
//! a switch's table is its connected subnets; `Rib` is where origination will add to it.

use std::collections::HashSet;
use std::net::Ipv4Addr;

use super::Ctx;
use crate::derive::paths::PairRoute;
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{End, HostId, Model, NodeId, SwitchId};

/// What one switch can route to: its connected (addressed) subnets.
struct Rib {
    connected: Vec<Vec<crate::spec::addr::Prefix>>,
}

impl Rib {
    fn new(m: &Model) -> Rib {
        Rib {
            connected: m
                .switches
                .iter()
                .map(|s| s.ports.iter().filter_map(|p| p.address).collect())
                .collect(),
        }
    }

    fn routes(&self, s: SwitchId, to: Ipv4Addr) -> bool {
        self.connected[s].iter().any(|p| p.contains(to))
    }
}

/// The first host address of `h` (its data port's).
fn address(m: &Model, h: HostId) -> Option<Ipv4Addr> {
    m.hosts[h]
        .ports
        .iter()
        .find_map(|p| p.address.map(|a| a.addr))
}

/// Where a packet from `src` to `dst` along `hops` (in travel order) is routed, and the
/// first router without a route to `dst`.
fn missing(m: &Model, rib: &Rib, pr: &PairRoute, reverse: bool) -> Option<(SwitchId, HostId)> {
    let dst = if reverse { pr.src } else { pr.dst };
    let to = address(m, dst)?;
    let mut hops: Vec<(NodeId, NodeId, usize)> = Vec::with_capacity(pr.hops.len());
    for h in &pr.hops {
        let l = *h.via.links(m).first()?;
        if reverse {
            hops.push((h.to, h.from, l));
        } else {
            hops.push((h.from, h.to, l));
        }
    }
    if reverse {
        hops.reverse();
    }
    for (from, _, l) in hops {
        let NodeId::Switch(s) = from else { continue };
        let link = &m.links[l];
        let mine = if link.a.node == from { link.a } else { link.b };
        let routed = m
            .port(End {
                node: from,
                port: mine.port,
            })
            .address
            .is_some();
        if routed && !rib.routes(s, to) {
            return Some((s, dst));
        }
    }
    None
}

/// Checks both directions of every routed pair.
pub(crate) fn check(cx: &Ctx, diags: &mut Diags) {
    let m = cx.m;
    let rib = Rib::new(m);
    let mut seen = HashSet::new();
    for (fr, f) in cx.routes.flows.iter().zip(&m.flows) {
        for pr in &fr.pairs {
            for reverse in [false, true] {
                let Some((s, dst)) = missing(m, &rib, pr, reverse) else {
                    continue;
                };
                if !seen.insert((f.name.span, reverse)) {
                    continue;
                }
                let sw = &m.switches[s].name;
                let host = &m.hosts[dst].name.value;
                let to = address(m, dst).map_or(String::new(), |a| format!(" ({a})"));
                let direction = if reverse { "return" } else { "forward" };
                diags.push(
                    Diagnostic::new(
                        codes::MISSING_ROUTE,
                        f.name.span,
                        format!("flow `{}`: `{}` has no route to `{host}`{to} for the {direction} direction", f.name.value, sw.value),
                    )
                    .label(format!("{direction} packets are routed at `{}` and dropped there", sw.value))
                    .also(sw.span, format!("`{}` routes the path's next hop, but no connected subnet, static route or BGP-learned prefix covers `{host}`", sw.value))
                    .help("democ's BGP sessions originate no prefix yet: route the flow over switched links (`path:`), or make the hop switched (drop `peer_asn` and put the hosts on the circuit's VLAN with `vlan:` on their links)"),
                );
            }
        }
    }
}
