//! The topology as a graph: devices are nodes; parallel links between the same two
//! devices collapse into one adjacency (a LAG, or a bundle of separate links such as
//! OTN clients), so routing cost does not grow with the number of parallel cables.

use crate::fxhash::FxMap;

use petgraph::graph::{EdgeIndex, NodeIndex, UnGraph};

use crate::resolve::model::{LagId, LinkId, Model, NodeId};

/// Parallel connections between two devices.
#[derive(Debug, Clone)]
pub(crate) struct Adjacency {
    /// Lower node first (as stored in the graph).
    pub(crate) lo: NodeId,
    pub(crate) hi: NodeId,
    /// Separate links (each its own capacity; pairs are spread over them).
    pub(crate) links: Vec<LinkId>,
    /// Port-channels (capacity = members; one flow uses at most `streams` members).
    pub(crate) lags: Vec<LagId>,
    /// One-way latency, microseconds (propagation + circuit latency of the first member).
    pub(crate) latency_us: f64,
    /// Sum of member capacities, bits/s.
    pub(crate) capacity_bps: f64,
}

pub(crate) struct Topology {
    pub(crate) graph: UnGraph<NodeId, Adjacency>,
    /// Switches are nodes 0..switches, hosts follow in model order.
    switches: usize,
}

impl Topology {
    pub(crate) fn node(&self, n: NodeId) -> NodeIndex {
        match n {
            NodeId::Switch(i) => NodeIndex::new(i),
            NodeId::Host(i) => NodeIndex::new(self.switches + i),
        }
    }

    pub(crate) fn adjacency(&self, e: EdgeIndex) -> &Adjacency {
        &self.graph[e]
    }
}

/// One-way latency of a link, microseconds: a WAN's declared RTT halved when it has one
/// (the measured figure wins; the fiber length only checks it, W0232), else propagation
/// along its length.
pub(crate) fn link_latency_us(m: &Model, l: LinkId, us_per_km: f64) -> f64 {
    let link = &m.links[l];
    // Inline boxes add their latency to the measured RTT too: a box added after the
    // circuit was measured is not in its figure (say so in `rtt_ms` by leaving it out).
    link.rtt_one_way_us.unwrap_or(link.length_km * us_per_km) + link.inline_latency_us
}

/// Builds the graph in link order: deterministic.
pub(crate) fn build(m: &Model, us_per_km: f64) -> Topology {
    let mut graph = UnGraph::with_capacity(m.switches.len() + m.hosts.len(), m.links.len());
    for i in 0..m.switches.len() {
        graph.add_node(NodeId::Switch(i));
    }
    for i in 0..m.hosts.len() {
        graph.add_node(NodeId::Host(i));
    }
    let switches = m.switches.len();
    let index = |n: NodeId| match n {
        NodeId::Switch(i) => NodeIndex::new(i),
        NodeId::Host(i) => NodeIndex::new(switches + i),
    };
    let mut edges: FxMap<(NodeId, NodeId), EdgeIndex> = FxMap::default();
    for (id, l) in m.links.iter().enumerate() {
        let (lo, hi) = if l.a.node <= l.b.node {
            (l.a.node, l.b.node)
        } else {
            (l.b.node, l.a.node)
        };
        let lat = link_latency_us(m, id, us_per_km);
        let e = *edges.entry((lo, hi)).or_insert_with(|| {
            graph.add_edge(
                index(lo),
                index(hi),
                Adjacency {
                    lo,
                    hi,
                    links: Vec::new(),
                    lags: Vec::new(),
                    latency_us: lat,
                    capacity_bps: 0.0,
                },
            )
        });
        let adj = &mut graph[e];
        adj.capacity_bps += l.capacity.bps();
        match l.lag {
            Some(g) if !adj.lags.contains(&g) => adj.lags.push(g),
            Some(_) => {}
            None => adj.links.push(id),
        }
        adj.latency_us = adj.latency_us.min(lat);
    }
    Topology { graph, switches }
}
