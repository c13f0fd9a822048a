//! Routes that carry the flows. A connected topology is not enough: wherever a flow's
//! path crosses a routed hop (a switch port with an address: a routed link or a BGP
//! circuit), the node before that hop must hold a route to the packet's destination in
//! the control plane democ configures: a connected subnet (a gateway's included), or a
//! prefix BGP learns over that very hop, propagated from the switch that originates it
//! through every session's export and import policy (`derive::bgp`). A host sending
//! off its subnet needs a gateway. Both directions of every pair are checked (TCP and
//! RDMA both need the return path), and a missing route is an error at the flow naming
//! the node (E0253). democ configures no static routes in the data plane.

use std::collections::VecDeque;
use std::net::Ipv4Addr;

use super::CheckInput;
use crate::derive::bgp::{self, Plan};
use crate::derive::paths::PairRoute;
use crate::diag::{Diagnostic, Diags, codes};
use crate::fxhash::{FxMap, FxSet};
use crate::resolve::model::{HostId, LinkId, Model, NodeId, SwitchId};
use crate::source::Span;
use crate::spec::addr::Prefix;

/// What each switch can route to: connected subnets, and BGP-learned prefixes with the
/// session links they were learned over.
pub(crate) struct Rib {
    connected: Vec<Vec<Prefix>>,
    /// Whether some switch port has an address: only such a port routes, so without
    /// one no hop of any path needs a route (a large flat show skips every walk).
    routing: bool,
    learned: FxMap<(SwitchId, Prefix), Vec<LinkId>>,
}

impl Rib {
    /// Connected subnets, then BGP propagation from the originators: a prefix crosses a
    /// session when the sender exports it and the receiver imports it there; each switch
    /// re-advertises a prefix once (its first path), so the walk is linear in sessions
    /// times prefixes.
    pub(crate) fn new(m: &Model, plan: &Plan) -> Rib {
        let connected: Vec<Vec<Prefix>> = m
            .switches
            .iter()
            .map(|s| {
                s.ports
                    .iter()
                    .filter_map(|p| p.address)
                    .chain(s.gateway.as_ref().map(|g| g.value))
                    .collect()
            })
            .collect();
        let mut sessions: Vec<Vec<(LinkId, SwitchId)>> = vec![Vec::new(); m.switches.len()];
        for l in 0..m.links.len() {
            if let Some((a, b)) = bgp::session(m, l) {
                sessions[a].push((l, b));
                sessions[b].push((l, a));
            }
        }
        let mut learned: FxMap<(SwitchId, Prefix), Vec<LinkId>> = FxMap::default();
        let mut known: FxSet<(SwitchId, Prefix)> = FxSet::default();
        let mut queue = VecDeque::new();
        for (s, nets) in plan.networks.iter().enumerate() {
            // A `network` statement advertises only what the switch's table holds.
            let speaks = m.switches[s].asn.is_some();
            for p in nets {
                let held = connected[s].iter().any(|c| c.subnet() == *p);
                if speaks && held && known.insert((s, *p)) {
                    queue.push_back((s, *p));
                }
            }
        }
        while let Some((s, p)) = queue.pop_front() {
            for &(l, n) in &sessions[s] {
                let out = plan.export.get(&(s, l)).is_some_and(|x| x.contains(&p));
                let inn = plan.import.get(&(n, l)).is_some_and(|x| x.contains(&p));
                if !(out && inn) {
                    continue;
                }
                learned.entry((n, p)).or_default().push(l);
                if known.insert((n, p)) {
                    queue.push_back((n, p));
                }
            }
        }
        Rib {
            connected,
            learned,
            routing: routing(m),
        }
    }

    fn connected(&self, s: SwitchId, to: Ipv4Addr) -> bool {
        self.connected[s].iter().any(|p| p.contains(to))
    }

    /// A route to `to` out of link `l`: connected, or learned over `l`.
    fn routes(&self, s: SwitchId, to: Ipv4Addr, dst: Option<Prefix>, l: LinkId) -> bool {
        self.connected(s, to)
            || dst.is_some_and(|p| {
                self.learned
                    .get(&(s, p.subnet()))
                    .is_some_and(|ls| ls.contains(&l))
            })
    }
}

/// Whether some switch port has an address (routes packets).
fn routing(m: &Model) -> bool {
    m.switches
        .iter()
        .any(|s| s.ports.iter().any(|p| p.address.is_some()))
}

/// Where a packet from one end of `pr` to the other is dropped for want of a route.
enum Gap {
    /// The source host: its destination is off its subnet and it has no gateway.
    Host(HostId),
    Switch(SwitchId),
}

fn missing(m: &Model, rib: &Rib, pr: &PairRoute, reverse: bool) -> Option<(Gap, HostId)> {
    let (src, dst) = if reverse {
        (pr.dst, pr.src)
    } else {
        (pr.src, pr.dst)
    };
    let (_, to) = bgp::address(m, dst)?;
    let to = to.addr;
    let gw = bgp::gateway(m, dst).map(|(_, p)| p);
    if let Some((_, mine)) = bgp::address(m, src) {
        if !mine.contains(to) && bgp::gateway(m, src).is_none() {
            return Some((Gap::Host(src), dst));
        }
    }
    if !rib.routing {
        return None;
    }
    for st in bgp::steps(m, pr, reverse) {
        let NodeId::Switch(s) = st.from else { continue };
        if bgp::routed(m, st.from, st.link) && !rib.routes(s, to, gw, st.link) {
            return Some((Gap::Switch(s), dst));
        }
    }
    None
}

/// Checks both directions of every routed pair.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    // Without a routing port no session carries anything: the plan would go unread.
    let plan = if routing(m) {
        bgp::plan(m, cx.routes)
    } else {
        Plan::default()
    };
    let rib = Rib::new(m, &plan);
    let mut seen = FxSet::default();
    for (fr, f) in cx.routes.flows.iter().zip(&m.flows) {
        // A cable between two hosts routes nothing: its subnets are E0271's.
        for pr in fr.pairs.iter().filter(|pr| !super::direct::is_direct(pr)) {
            for reverse in [false, true] {
                let Some((gap, dst)) = missing(m, &rib, pr, reverse) else {
                    continue;
                };
                if !seen.insert((f.name.span, reverse)) {
                    continue;
                }
                let (at, span, why, help): (&str, Span, &str, &str) = match gap {
                    Gap::Switch(s) => (
                        &m.switches[s].name.value,
                        m.switches[s].name.span,
                        "routes the path's next hop, but no connected subnet or prefix learned over that hop covers",
                        "give the hosts at each end a `gateway:` subnet on the switch they are cabled to (outside `addressing.dtn`) and run BGP (`asn`, `peer_asn`) on every routed hop between them: democ originates the gateway subnets the flows need; or route the flow over switched links (`path:`)",
                    ),
                    Gap::Host(h) => (
                        &m.hosts[h].name.value,
                        m.hosts[h].name.span,
                        "sends off its subnet, but no `gateway:` switch routes for it towards",
                        "give the switch this host is cabled to a `gateway:` subnet, so the host routes through it",
                    ),
                };
                let host = &m.hosts[dst].name.value;
                let to =
                    bgp::address(m, dst).map_or(String::new(), |(_, a)| format!(" ({})", a.addr));
                let direction = if reverse { "return" } else { "forward" };
                diags.push(
                    Diagnostic::new(
                        codes::MISSING_ROUTE,
                        f.name.span,
                        format!("flow `{}`: `{at}` has no route to `{host}`{to} for the {direction} direction", f.name.value),
                    )
                    .label(format!("{direction} packets are routed at `{at}` and dropped there"))
                    .also(span, format!("`{at}` {why} `{host}`"))
                    .help(help),
                );
            }
        }
    }
}
