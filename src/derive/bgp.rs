//! What BGP must carry for the flows: the subnets each switch originates and, per
//! session, what each side accepts and advertises. Derived from the flows' paths:
//! wherever a packet leaves a switch over a BGP session, that switch must learn the
//! destination's subnet from the peer (import), and the peer must advertise it (export);
//! the subnet's gateway switch originates it (a `network` statement). Nothing else is
//! advertised or accepted, so every session has an explicit policy both ways.
//!
//! Only gateway subnets (`switches.<name>.gateway`) are originated: a host on the flat
//! `addressing.dtn` subnet has no router that could advertise it, and `check::routes`
//! reports the flows that need one (E0253). Linear in the flows' hops.

use std::collections::BTreeSet;

use super::paths::PairRoute;
use crate::fxhash::FxMap;
use crate::resolve::model::{End, HostId, LinkId, LinkKind, Model, NodeId, SwitchId};
use crate::spec::addr::Prefix;

/// Per switch and session: the originated subnets and the policies.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// Per switch: the subnets it originates.
    pub(crate) networks: Vec<BTreeSet<Prefix>>,
    /// (switch, session link): subnets the switch accepts from the peer over it.
    pub(crate) import: FxMap<(SwitchId, LinkId), BTreeSet<Prefix>>,
    /// (switch, session link): subnets the switch advertises to the peer over it.
    pub(crate) export: FxMap<(SwitchId, LinkId), BTreeSet<Prefix>>,
}

/// One hop in travel order: the node the packet leaves, the link, the node it enters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) from: NodeId,
    pub(crate) link: LinkId,
    pub(crate) to: NodeId,
}

/// The hops of a pair in the direction of travel (`reverse`: the return direction),
/// each on its first link (a LAG's members share their ends). Lazy: the checks stop at
/// the first hop without a route.
pub(crate) fn steps<'a>(
    m: &'a Model,
    pr: &'a PairRoute,
    reverse: bool,
) -> impl Iterator<Item = Step> + 'a {
    let (forward, backward) = if reverse {
        (None, Some(pr.hops.iter().rev()))
    } else {
        (Some(pr.hops.iter()), None)
    };
    forward
        .into_iter()
        .flatten()
        .chain(backward.into_iter().flatten())
        .filter_map(move |h| {
            let link = *h.via.links(m).first()?;
            Some(if reverse {
                Step {
                    from: h.to,
                    link,
                    to: h.from,
                }
            } else {
                Step {
                    from: h.from,
                    link,
                    to: h.to,
                }
            })
        })
}

/// The port of `node` on link `l`.
pub(crate) fn end(m: &Model, node: NodeId, l: LinkId) -> End {
    let link = &m.links[l];
    if link.a.node == node { link.a } else { link.b }
}

/// Whether `from` routes out of link `l` (its port there has an address).
pub(crate) fn routed(m: &Model, from: NodeId, l: LinkId) -> bool {
    m.port(end(m, from, l)).address.is_some()
}

/// The BGP session over `l`: both ends switches with addresses on a WAN connection that
/// names a `peer_asn` (what `lower::routing` configures).
pub(crate) fn session(m: &Model, l: LinkId) -> Option<(SwitchId, SwitchId)> {
    let link = &m.links[l];
    let LinkKind::Wan(w) = link.kind else {
        return None;
    };
    m.wans[w].peer_asn?;
    let (NodeId::Switch(a), NodeId::Switch(b)) = (link.a.node, link.b.node) else {
        return None;
    };
    (m.port(link.a).address.is_some() && m.port(link.b).address.is_some()).then_some((a, b))
}

/// The host's first addressed port: its index and address.
pub(crate) fn address(m: &Model, h: HostId) -> Option<(usize, Prefix)> {
    m.hosts[h]
        .ports
        .iter()
        .enumerate()
        .find_map(|(i, p)| p.address.map(|a| (i, a)))
}

/// The gateway switch and subnet behind which host `h` lives.
pub(crate) fn gateway(m: &Model, h: HostId) -> Option<(SwitchId, Prefix)> {
    let (p, _) = address(m, h)?;
    let s = super::addressing::gateway_of(m, h, p)?;
    Some((s, m.switches[s].gateway.as_ref()?.value))
}

/// The plan for every flow's pairs, both directions.
pub(crate) fn plan(m: &Model, routes: &super::paths::Routes) -> Plan {
    let mut plan = Plan {
        networks: vec![BTreeSet::new(); m.switches.len()],
        ..Plan::default()
    };
    for pr in routes.flows.iter().flat_map(|f| &f.pairs) {
        for reverse in [false, true] {
            let dst = if reverse { pr.src } else { pr.dst };
            let Some((g, subnet)) = gateway(m, dst) else {
                continue;
            };
            let subnet = subnet.subnet();
            for st in steps(m, pr, reverse) {
                let (NodeId::Switch(s), NodeId::Switch(n)) = (st.from, st.to) else {
                    continue;
                };
                if session(m, st.link).is_none() || !routed(m, st.from, st.link) {
                    continue;
                }
                plan.import.entry((s, st.link)).or_default().insert(subnet);
                plan.export.entry((n, st.link)).or_default().insert(subnet);
                plan.networks[g].insert(subnet);
            }
        }
    }
    plan
}
