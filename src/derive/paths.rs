//! Flow routing. Each flow pair goes host -> access switch -> ... -> access switch ->
//! host. Trees are computed once per access switch (Dijkstra over switches only, hosts
//! never transit) and shared by every pair leaving that switch, so the cost grows with
//! switches x log, not with pairs x graph. Parallel links spread pairs by least load.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::fxhash::{FxMap, FxSet};

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;

use super::topology::Topology;
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{HostId, LagId, LinkId, Model, NodeId};
use crate::spec::show::Routing;

/// What a hop rides on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Via {
    Link(LinkId),
    Lag(LagId),
}

impl Via {
    /// The links a hop rides on: its link, or every member of its LAG.
    pub(crate) fn links<'a>(&'a self, m: &'a Model) -> &'a [LinkId] {
        match self {
            Via::Link(l) => std::slice::from_ref(l),
            Via::Lag(g) => &m.lags[*g].members,
        }
    }
}

/// One hop of a pair's path, in the direction of travel.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hop {
    pub(crate) via: Via,
    pub(crate) from: NodeId,
    pub(crate) to: NodeId,
}

#[derive(Clone, Debug)]
pub(crate) struct PairRoute {
    pub(crate) src: HostId,
    pub(crate) dst: HostId,
    pub(crate) hops: Vec<Hop>,
    /// One-way latency, microseconds.
    pub(crate) latency_us: f64,
}

impl PairRoute {
    pub(crate) fn rtt_ms(&self) -> f64 {
        2.0 * self.latency_us / 1000.0
    }

    /// Switches traversed, in order.
    pub(crate) fn switches(&self) -> impl Iterator<Item = usize> + '_ {
        self.hops.iter().filter_map(|h| match h.to {
            NodeId::Switch(s) => Some(s),
            NodeId::Host(_) => None,
        })
    }
}

/// Routes of one flow: one per pair (and per reverse pair when bidirectional).
#[derive(Clone, Debug, Default)]
pub(crate) struct FlowRoutes {
    pub(crate) pairs: Vec<PairRoute>,
}

#[derive(Debug, Default)]
pub(crate) struct Routes {
    pub(crate) flows: Vec<FlowRoutes>,
    /// The pairs democ's OpenFlow rules pin to LAG members (derive::pins).
    pub(crate) pins: super::lag_placement::Pins,
}

#[derive(Clone, Copy, PartialEq)]
struct Cost {
    /// Shortest: latency. Widest: minus the bottleneck capacity.
    primary: f64,
    latency: f64,
}

impl Eq for Cost {}
impl Ord for Cost {
    fn cmp(&self, o: &Self) -> Ordering {
        (self.primary, self.latency)
            .partial_cmp(&(o.primary, o.latency))
            .unwrap_or(Ordering::Equal)
    }
}
impl PartialOrd for Cost {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// A shortest- or widest-path tree over switches from one root switch.
struct Tree {
    cost: FxMap<NodeIndex, Cost>,
    pred: FxMap<NodeIndex, EdgeIndex>,
}

/// Dijkstra from `root` over switches, stopping once every node in `targets` is settled
/// (flows are mostly local, so most searches end long before the whole show).
/// A settled node is never reopened, so the search ends after at most one pop per edge
/// whatever the weights: spec and catalog refuse negative latencies, but a negative or
/// NaN weight that slipped through would otherwise loop forever. It also keeps `pred`
/// acyclic (a node's predecessor is always settled before it), so walking it back ends.
fn tree(
    t: &Topology,
    root: NodeIndex,
    policy: Routing,
    hop_us: f64,
    targets: Option<&FxSet<NodeIndex>>,
) -> Tree {
    let mut remaining = targets.map_or(usize::MAX, |s| s.len());
    let start = Cost {
        primary: if policy == Routing::Widest {
            f64::NEG_INFINITY
        } else {
            0.0
        },
        latency: 0.0,
    };
    let mut cost = FxMap::default();
    let mut pred = FxMap::default();
    let mut settled = FxSet::default();
    let mut heap = BinaryHeap::new();
    cost.insert(root, start);
    heap.push(std::cmp::Reverse((start, root)));
    while let Some(std::cmp::Reverse((c, n))) = heap.pop() {
        if !settled.insert(n) {
            continue;
        }
        if targets.is_some_and(|s| s.contains(&n)) {
            remaining -= 1;
            if remaining == 0 {
                break;
            }
        }
        for e in t.graph.edges(n) {
            let other = if e.source() == n {
                e.target()
            } else {
                e.source()
            };
            if matches!(t.graph[other], NodeId::Host(_)) || settled.contains(&other) {
                continue;
            }
            let adj = e.weight();
            let latency = c.latency + adj.latency_us + hop_us;
            let primary = match policy {
                Routing::Shortest => latency,
                Routing::Widest => {
                    let width = if c.primary == f64::NEG_INFINITY {
                        adj.capacity_bps
                    } else {
                        (-c.primary).min(adj.capacity_bps)
                    };
                    -width
                }
            };
            let next = Cost { primary, latency };
            if cost.get(&other).is_none_or(|best| next < *best) {
                cost.insert(other, next);
                pred.insert(other, e.id());
                heap.push(std::cmp::Reverse((next, other)));
            }
        }
    }
    Tree { cost, pred }
}

/// Chooses which member of an adjacency a pair rides: a LAG if there is one, else the
/// least-loaded separate link (ties: lowest id), so bundles share pairs evenly.
fn choose(t: &Topology, e: EdgeIndex, load: &mut [f64], rate: f64) -> Via {
    let adj = t.adjacency(e);
    if let Some(&g) = adj.lags.first() {
        return Via::Lag(g);
    }
    let best = adj
        .links
        .iter()
        .copied()
        .min_by(|a, b| {
            let (la, lb) = (load[*a], load[*b]);
            la.partial_cmp(&lb)
                .unwrap_or(Ordering::Equal)
                .then(a.cmp(b))
        })
        .unwrap_or(0);
    if let Some(l) = load.get_mut(best) {
        *l += rate;
    }
    Via::Link(best)
}

/// The uplinks holding cable `l` (all of them when there is none to keep to).
fn through(t: &Topology, ups: Uplinks, l: Option<LinkId>) -> Uplinks {
    match l {
        None => ups,
        Some(l) => ups
            .iter()
            .copied()
            .filter(|&(e, _)| t.adjacency(e).links.contains(&l))
            .collect(),
    }
}

fn other_end(t: &Topology, e: EdgeIndex, from: NodeId) -> NodeId {
    let adj = t.adjacency(e);
    if adj.lo == from { adj.hi } else { adj.lo }
}

/// The adjacencies joining a host to switches, in graph order.
fn uplinks(t: &Topology, h: HostId) -> Vec<(EdgeIndex, NodeIndex)> {
    let n = t.node(NodeId::Host(h));
    let mut v: Vec<(EdgeIndex, NodeIndex)> = t
        .graph
        .edges(n)
        .map(|e| {
            (
                e.id(),
                if e.source() == n {
                    e.target()
                } else {
                    e.source()
                },
            )
        })
        .filter(|(_, o)| matches!(t.graph[*o], NodeId::Switch(_)))
        .collect();
    v.sort();
    v
}

/// An adjacency joining a host to a switch, with the switch.
type Uplink = (EdgeIndex, NodeIndex);

/// A host's adjacencies to switches, with the switch at the other end.
type Uplinks = std::rc::Rc<[(EdgeIndex, NodeIndex)]>;

struct Router<'a> {
    m: &'a Model,
    t: &'a Topology,
    /// Each host's uplinks, computed on first use.
    ups: Vec<Option<Uplinks>>,
    trees: FxMap<(NodeIndex, Routing), Tree>,
    /// Per tree root, the access switches its pairs go to (known before routing).
    targets: FxMap<(NodeIndex, Routing), FxSet<NodeIndex>>,
    /// Rate routed over each link so far, by link number (a map hashed every hop).
    load: Vec<f64>,
    /// The edges of the pair being routed, reused from pair to pair.
    edges: Vec<EdgeIndex>,
    hop_us: f64,
    /// The cables the pair being routed must leave and enter by (a striped flow's port).
    force: (Option<LinkId>, Option<LinkId>),
}

impl Router<'_> {
    fn uplinks(&mut self, h: HostId) -> Uplinks {
        if let Some(u) = &self.ups[h] {
            return u.clone();
        }
        let u: Uplinks = uplinks(self.t, h).into();
        self.ups[h] = Some(u.clone());
        u
    }

    fn edges_to_hops(&mut self, from: NodeId, edges: &[EdgeIndex], rate: f64) -> (Vec<Hop>, f64) {
        let mut hops = Vec::with_capacity(edges.len());
        let mut at = from;
        let mut latency = 0.0;
        let last = edges.len().saturating_sub(1);
        for (k, &e) in edges.iter().enumerate() {
            let to = other_end(self.t, e, at);
            let forced = match (k == 0, k == last) {
                (true, _) if self.force.0.is_some() => self.force.0,
                (_, true) if self.force.1.is_some() => self.force.1,
                _ => None,
            };
            let via = match forced {
                Some(l) => {
                    if let Some(x) = self.load.get_mut(l) {
                        *x += rate;
                    }
                    Via::Link(l)
                }
                None => choose(self.t, e, &mut self.load, rate),
            };
            latency += self.t.adjacency(e).latency_us;
            if matches!(to, NodeId::Switch(_)) {
                latency += self.hop_us;
            }
            hops.push(Hop { via, from: at, to });
            at = to;
        }
        (hops, latency)
    }

    /// Automatic route for one pair; None when unreachable.
    fn auto(&mut self, s: HostId, d: HostId, policy: Routing, rate: f64) -> Option<PairRoute> {
        // A striped pair leaves (or enters) by its port's cable only.
        let ups = through(self.t, self.uplinks(s), self.force.0);
        let downs = through(self.t, self.uplinks(d), self.force.1);
        for &(_, un) in ups.iter() {
            if !self.trees.contains_key(&(un, policy)) {
                let tr = tree(
                    self.t,
                    un,
                    policy,
                    self.hop_us,
                    self.targets.get(&(un, policy)),
                );
                self.trees.insert((un, policy), tr);
            }
        }
        // A reused buffer: the edges before the hops are chosen.
        let mut edges = std::mem::take(&mut self.edges);
        edges.clear();
        let found = auto_edges(self.t, &self.trees, (&ups, &downs), policy, &mut edges);
        let pr = found.then(|| self.along(s, d, &edges, rate));
        self.edges = edges;
        // Two hosts cabled back to back with no route through switches: the cable is the
        // path (no switch, no hop latency). Where switches join them too, the switches
        // carry the flow, as they did before host cables were paths; `path: []` picks
        // the cable.
        pr.or_else(|| {
            let e = self.edge_between(NodeId::Host(s), NodeId::Host(d))?;
            self.carries(e).then(|| self.along(s, d, &[e], rate))
        })
    }

    /// The route of pair `s` -> `d` over `edges` (its automatic route's, found apart).
    fn along(&mut self, s: HostId, d: HostId, edges: &[EdgeIndex], rate: f64) -> PairRoute {
        let (hops, latency_us) = self.edges_to_hops(NodeId::Host(s), edges, rate);
        PairRoute {
            src: s,
            dst: d,
            hops,
            latency_us,
        }
    }

    /// Whether adjacency `e` holds the cables the pair is forced onto.
    fn carries(&self, e: EdgeIndex) -> bool {
        let links = &self.t.adjacency(e).links;
        [self.force.0, self.force.1]
            .into_iter()
            .flatten()
            .all(|l| links.contains(&l))
    }

    fn edge_between(&self, a: NodeId, b: NodeId) -> Option<EdgeIndex> {
        self.t.graph.find_edge(self.t.node(a), self.t.node(b))
    }

    /// Route along an explicit list of switches; Err(index of the hop at fault).
    fn explicit(
        &mut self,
        s: HostId,
        d: HostId,
        path: &[usize],
        rate: f64,
    ) -> Result<PairRoute, usize> {
        let mut nodes = vec![NodeId::Host(s)];
        nodes.extend(path.iter().map(|&x| NodeId::Switch(x)));
        nodes.push(NodeId::Host(d));
        let mut edges = Vec::with_capacity(nodes.len());
        for (i, w) in nodes.windows(2).enumerate() {
            edges.push(
                self.edge_between(w[0], w[1])
                    .ok_or(i.min(path.len().saturating_sub(1)))?,
            );
        }
        // A striped pair's port must be cabled to the path's first (last) switch.
        let holds = |e: Option<&EdgeIndex>, l: Option<LinkId>| {
            l.is_none_or(|l| e.is_some_and(|&e| self.t.adjacency(e).links.contains(&l)))
        };
        if !holds(edges.first(), self.force.0) {
            return Err(0);
        }
        if !holds(edges.last(), self.force.1) {
            return Err(path.len().saturating_sub(1));
        }
        Ok(self.along(s, d, &edges, rate))
    }
}

/// The edges of a pair's automatic route, `[uplink, middle.., downlink]`, appended to
/// `edges`: over the trees of the source's switches (`trees` holds them), to the
/// destination's switch the cheapest reaches. False, with `edges` as it was, when none does.
fn auto_edges(
    t: &Topology,
    trees: &FxMap<(NodeIndex, Routing), Tree>,
    (ups, downs): (&[Uplink], &[Uplink]),
    policy: Routing,
    edges: &mut Vec<EdgeIndex>,
) -> bool {
    let mut best: Option<(Cost, EdgeIndex, NodeIndex, EdgeIndex, NodeIndex)> = None;
    for &(ue, un) in ups {
        let Some(tr) = trees.get(&(un, policy)) else {
            continue;
        };
        for &(de, dn) in downs {
            if let Some(c) = tr.cost.get(&dn) {
                if best.as_ref().is_none_or(|b| *c < b.0) {
                    best = Some((*c, ue, un, de, dn));
                }
            }
        }
    }
    let Some((_, ue, un, de, dn)) = best else {
        return false;
    };
    let Some(tr) = trees.get(&(un, policy)) else {
        return false;
    };
    // Walked back from the destination's switch, then turned around.
    let start = edges.len();
    edges.push(de);
    let mut at = dn;
    while at != un {
        // `pred` is a tree (see `tree`); the bound is a second guard against a loop.
        let walked = (edges.len() - start <= t.graph.node_count() + 1)
            .then(|| tr.pred.get(&at))
            .flatten()
            .and_then(|&e| Some((e, t.graph.edge_endpoints(e)?)));
        let Some((e, (a, b))) = walked else {
            edges.truncate(start);
            return false;
        };
        edges.push(e);
        at = if a == at { b } else { a };
    }
    edges.push(ue);
    edges[start..].reverse();
    true
}

/// The tree of every root some pair leaves from (`targets`' keys), found before routing:
/// a tree does not depend on the load, so they are found apart.
fn trees(
    t: &Topology,
    targets: &FxMap<(NodeIndex, Routing), FxSet<NodeIndex>>,
    hop_us: f64,
) -> FxMap<(NodeIndex, Routing), Tree> {
    targets
        .iter()
        .map(|(&(root, policy), to)| ((root, policy), tree(t, root, policy, hop_us, Some(to))))
        .collect()
}

/// Routes every flow pair. Unroutable pairs are diagnostics (E0201).
pub(crate) fn route(m: &Model, t: &Topology, diags: &mut Diags) -> Routes {
    let mut r = Router {
        m,
        t,
        ups: vec![None; m.hosts.len()],
        trees: FxMap::default(),
        targets: FxMap::default(),
        load: vec![0.0; m.links.len()],
        edges: Vec::new(),
        hop_us: m.settings.hop_latency_us,
        force: (None, None),
    };
    for f in m.flows.iter().filter(|f| f.path.is_none()) {
        let back = f
            .bidirectional
            .then(|| f.pairs.iter().map(|&(a, b)| (b, a)));
        for (s, d) in f.pairs.iter().copied().chain(back.into_iter().flatten()) {
            let downs = r.uplinks(d);
            for &(_, un) in r.uplinks(s).iter() {
                r.targets
                    .entry((un, f.routing))
                    .or_default()
                    .extend(downs.iter().map(|&(_, dn)| dn));
            }
        }
    }
    r.trees = trees(t, &r.targets, r.hop_us);
    let mut out = Routes::default();
    out.flows.reserve_exact(m.flows.len());
    for f in &m.flows {
        let rate = f.pair_rate().bps();
        // The pairs, then their reverses when bidirectional, without copying them.
        let back = f
            .bidirectional
            .then(|| f.pairs.iter().map(|&(a, b)| (b, a)));
        let mut fr = FlowRoutes {
            pairs: Vec::with_capacity(f.pairs.len() * (1 + usize::from(f.bidirectional))),
        };
        let mut reported = false;
        let n = f.pairs.len();
        for (j, (s, d)) in f
            .pairs
            .iter()
            .copied()
            .chain(back.into_iter().flatten())
            .enumerate()
        {
            // A stripe leaves its sender by its port; on the way back it enters by it.
            let port = f.stripe(j % n.max(1));
            let cable = |h: HostId| port.and_then(|p| m.hosts[h].ports.get(p)?.link);
            r.force = if j < n {
                (cable(s), None)
            } else {
                (None, cable(d))
            };
            let routed = match &f.path {
                Some(p) => {
                    let ids: Vec<usize> = p.iter().map(|x| x.value).collect();
                    r.explicit(s, d, &ids, rate).map_err(Some)
                }
                None => r.auto(s, d, f.routing, rate).ok_or(None),
            };
            match routed {
                Ok(pr) => fr.pairs.push(pr),
                Err(at) if !reported => {
                    reported = true;
                    let (sn, dn) = (&r.m.hosts[s].name.value, &r.m.hosts[d].name.value);
                    let d = match (at, &f.path) {
                        (Some(i), Some(p)) if i < p.len() => Diagnostic::new(codes::NO_PATH, p[i].span, format!("the path of flow `{}` is broken at `{}`", f.name.value, r.m.switches[p[i].value].name.value))
                            .label("not connected to the previous or next hop")
                            .also(f.span, format!("pair `{sn}` -> `{dn}`"))
                            .help("list switches that are cabled to each other, starting at the source host's switch"),
                        _ => {
                            // Name the two islands, so the planner sees which cable is missing.
                            let from = super::islands::island(r.m, NodeId::Host(s));
                            let help = if from.contains(&NodeId::Host(d)) {
                                "the hosts are cabled together but no route is allowed between them: check `path:` and `routing:`".to_owned()
                            } else {
                                let to = super::islands::island(r.m, NodeId::Host(d));
                                format!(
                                    "`{sn}` reaches {}; `{dn}` reaches {}; no link joins the two: cable a switch of one to a switch of the other (a link or a `wan:` entry)",
                                    super::islands::describe(r.m, &from),
                                    super::islands::describe(r.m, &to)
                                )
                            };
                            Diagnostic::new(codes::NO_PATH, f.to_span, format!("no path from `{sn}` to `{dn}`"))
                                .label("unreachable")
                                .also(f.from_span, "from here")
                                .help(help)
                        }
                    };
                    diags.push(d);
                }
                Err(_) => {}
            }
        }
        out.flows.push(fr);
    }
    out
}

/// The host a pair leaves (first hop) or enters (last hop), and its ports on that hop:
/// one, or every member of a host bond (LAG).
pub(crate) fn host_ports<'a>(
    m: &'a crate::resolve::model::Model,
    pr: &'a PairRoute,
    first: bool,
) -> impl Iterator<Item = (crate::resolve::model::HostId, usize)> + 'a {
    let (hop, host) = if first {
        (pr.hops.first(), pr.src)
    } else {
        (pr.hops.last(), pr.dst)
    };
    hop.into_iter().flat_map(move |hop| {
        hop.via.links(m).iter().map(move |&link| {
            let l = &m.links[link];
            let end = if l.a.node == crate::resolve::model::NodeId::Host(host) {
                l.a
            } else {
                l.b
            };
            (host, end.port)
        })
    })
}

#[cfg(test)]
mod tests {
    use crate::testkit::checks;

    /// Three switches in a line, a host on each end.
    const LINE: &str = r#"
show:
  name: t
  addressing: { dtn: 10.16.0.0/16, p2p: 10.255.0.0/24 }
sites:
  lab: { kind: lab }
switches:
  sw1: { site: lab, model: t-sw32 }
  sw2: { site: lab, model: t-sw32 }
  sw3: { site: lab, model: t-sw32 }
hosts:
  dtn1: { site: lab, chassis: t-box, cpu: t-cpu, nics: [{ model: t-nic100, slot: s1, ports: [p0] }] }
  dtn2: { site: lab, chassis: t-box, cpu: t-cpu, nics: [{ model: t-nic100, slot: s1, ports: [p0] }] }
links:
  - { a: "dtn1:p0", b: "sw1:1/1", media: dac }
  - { a: "sw1:1/2", b: "sw2:1/1", media: dac }
  - { a: "sw2:1/2", b: "sw3:1/1", media: dac }
  - { a: "dtn2:p0", b: "sw3:1/2", media: dac }
flows:
  - { name: f1, from: dtn1, to: dtn2, rate: 10G, protocol: tcp }
"#;

    /// Weights the spec refuses (negative, NaN) must not make the search loop (issue 14:
    /// `hop_latency_us: -1` hung `democ check`). Each search runs in a thread and must
    /// finish within seconds.
    #[test]
    fn negative_and_nan_weights_end() {
        for hop_us in [-1.0, -1e300, f64::NAN, f64::NEG_INFINITY] {
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let mut f = checks::front(LINE);
                f.model.settings.hop_latency_us = hop_us;
                let t = super::super::topology::build(&f.model, 5.0);
                let mut diags = crate::diag::Diags::default();
                let r = super::route(&f.model, &t, &mut diags);
                let _ = tx.send(r.flows[0].pairs.len());
            });
            let pairs = rx.recv_timeout(std::time::Duration::from_secs(20));
            assert_eq!(pairs, Ok(1), "routing with {hop_us} µs per hop");
        }
    }
}
