//! Layer-2 segments: the VLAN a flow's frames carry on each link of its route.
//!
//! A legacy switch bridges a frame only within its VLAN; it never translates one VLAN id
//! into another. So a maximal run of links that a pair's route joins through bridged hops
//! (both ports legacy and switched: not under the controller, not routed) is one
//! segment, and every link of a segment must carry the same VLAN: a circuit's VLAN where
//! a circuit is in the run, else a VLAN every link admits (its explicit `vlan`/`vlans`),
//! else the show's DTN VLAN. Where the links of a run admit no common VLAN (two circuits
//! with different VLANs bridged by a legacy switch) the flow cannot forward (E0255).
//!
//! Lowering reads the result: a port toward a DTN becomes an access port in its segment's
//! VLAN, a legacy port facing the controller's port carries its segments' VLANs (untagged
//! when there is one, a trunk when there are several), and the OpenFlow rules push or pop
//! the VLAN tag where a segment's frames are tagged on the wire, so a circuit VLAN can end
//! on an OpenFlow switch. Linear in hops.

use crate::derive::paths::{Hop, Routes, Via};
use crate::fxhash::FxMap;
use crate::resolve::model::{End, Link, LinkId, LinkKind, Model, NodeId, SwitchId, WanId};
use crate::spec::link::PortMode;

/// Where the links of one segment admit no common VLAN.
#[derive(Debug)]
pub(crate) struct Mixed {
    pub(crate) flow: usize,
    /// The switch that would have to bridge the two.
    pub(crate) at: SwitchId,
    /// The link before the switch, and the VLANs the run admits up to it.
    pub(crate) before: (LinkId, Vec<u16>),
    /// The link after it, and the VLANs it admits.
    pub(crate) after: (LinkId, Vec<u16>),
}

/// A port toward a DTN (an access port) that segments need in two VLANs.
#[derive(Debug)]
pub(crate) struct TwoAccess {
    pub(crate) link: LinkId,
    /// (VLAN, flow) of the first segment and of the one that disagrees.
    pub(crate) first: (u16, usize),
    pub(crate) second: (u16, usize),
}

#[derive(Debug, Default)]
pub(crate) struct Segments {
    /// Per link number: the VLANs of the segments crossing it, sorted, no duplicates
    /// (indexed, not hashed: every hop of every route adds to it).
    link_vlans: Vec<Vec<u16>>,
    /// Per flow, per pair route: the offset of its hops in `hop_vlan`.
    start: Vec<Vec<u32>>,
    /// Per hop of every route: the VLAN of the hop's segment.
    hop_vlan: Vec<u16>,
    pub(crate) mixed: Vec<Mixed>,
    pub(crate) two_access: Vec<TwoAccess>,
    /// Circuit VLAN -> the first circuit provisioned on it (names the VLAN on switches
    /// its segments cross).
    circuits: FxMap<u16, WanId>,
}

/// The VLAN a circuit (a WAN link with `vlan:`) is provisioned on.
pub(crate) fn circuit_vlan(link: &Link) -> Option<u16> {
    matches!(link.kind, LinkKind::Wan(_))
        .then_some(link.vlan)
        .flatten()
}

/// The VLANs a link admits, when it constrains them: a circuit its VLAN, an explicit
/// access port its `vlan` (or the DTN VLAN), a trunk its `vlans` (or the DTN VLAN), a
/// link naming VLANs without a mode those. None: any VLAN.
fn admits(link: &Link, dtn: u16) -> Option<Vec<u16>> {
    if let Some(v) = circuit_vlan(link) {
        return Some(vec![v]);
    }
    match link.mode {
        Some(PortMode::Access) => Some(vec![link.vlan.unwrap_or(dtn)]),
        Some(PortMode::Trunk) if link.vlans.is_empty() => Some(vec![dtn]),
        Some(PortMode::Trunk) => Some(sorted(link.vlans.clone())),
        Some(PortMode::Routed) => None,
        None if !link.vlans.is_empty() => Some(sorted(link.vlans.clone())),
        None => link.vlan.map(|v| vec![v]),
    }
}

fn sorted(mut v: Vec<u16>) -> Vec<u16> {
    v.sort_unstable();
    v.dedup();
    v
}

/// A port the switch forwards by its own L2 tables: legacy and not routed.
fn switched(m: &Model, e: End) -> bool {
    let p = m.port(e);
    !p.openflow
        && p.address.is_none()
        && p.link
            .is_none_or(|l| m.links[l].mode != Some(PortMode::Routed))
}

/// Per link number, what the walk over every hop of every route reads, gathered once:
/// the links' and ports' own records are large, and reading them at each hop of 100,000
/// flows' routes missed the cache on most reads.
struct LinkFacts {
    /// The VLANs it admits ([`admits`]).
    admits: Vec<Option<Vec<u16>>>,
    /// Whether its switch end is an access port toward a DTN ([`toward_host`]).
    toward: Vec<bool>,
    /// Its ends (`a`, `b`): the node, and whether a switch's port there is [`switched`].
    ends: Vec<[(NodeId, bool); 2]>,
}

impl LinkFacts {
    fn new(m: &Model) -> LinkFacts {
        let dtn = m.settings.dtn_vlan;
        let end = |e: End| {
            (
                e.node,
                matches!(e.node, NodeId::Switch(_)) && switched(m, e),
            )
        };
        LinkFacts {
            admits: m.links.iter().map(|l| admits(l, dtn)).collect(),
            toward: (0..m.links.len()).map(|l| toward_host(m, l)).collect(),
            ends: m.links.iter().map(|l| [end(l.a), end(l.b)]).collect(),
        }
    }

    /// Whether switch `s` bridges a frame from hop `a` into hop `b`: both its ends
    /// (a LAG's first member's) are switched ports.
    fn bridged(&self, m: &Model, s: SwitchId, a: Via, b: Via) -> bool {
        let at = |via: Via| {
            let l = *via.links(m).first()?;
            self.ends[l]
                .iter()
                .find(|e| e.0 == NodeId::Switch(s))
                .map(|e| e.1)
        };
        at(a) == Some(true) && at(b) == Some(true)
    }
}

/// One segment while the VLANs are chosen: its hops `[from, to)` in a route.
struct Run {
    flow: usize,
    route: usize,
    from: usize,
    to: usize,
    /// The VLANs every link of the run admits (None: any).
    admitted: Option<Vec<u16>>,
}

pub(crate) fn derive(m: &Model, routes: &Routes) -> Segments {
    let dtn = m.settings.dtn_vlan;
    let mut seg = Segments::default();
    for l in &m.links {
        if let (Some(v), LinkKind::Wan(w)) = (circuit_vlan(l), l.kind) {
            seg.circuits.entry(v).or_insert(w);
        }
    }
    seg.link_vlans = vec![Vec::new(); m.links.len()];
    let facts = LinkFacts::new(m);
    let mut runs: Vec<Run> = Vec::new();
    let mut hops = 0;
    for (fi, fr) in routes.flows.iter().enumerate() {
        let mut starts = Vec::with_capacity(fr.pairs.len());
        for (ri, pr) in fr.pairs.iter().enumerate() {
            starts.push(hops);
            hops += pr.hops.len() as u32;
            split(m, &facts, fi, ri, &pr.hops, &mut runs, &mut seg.mixed);
        }
        seg.start.push(starts);
    }
    seg.hop_vlan = vec![dtn; hops as usize];
    // Runs a circuit or an explicit VLAN decides first, so a free run can join a VLAN
    // its DTN ports already have (a campus DTN's local flows ride its circuit's VLAN).
    // Per link number: the first (VLAN, flow) on its port toward a DTN.
    let mut access: Vec<Option<(u16, usize)>> = vec![None; m.links.len()];
    for pass in [true, false] {
        for r in runs.iter().filter(|r| r.admitted.is_some() == pass) {
            let hops = &routes.flows[r.flow].pairs[r.route].hops[r.from..r.to];
            let vlan = choose(m, r, hops, &access, dtn);
            let at = seg.start[r.flow][r.route] as usize;
            seg.hop_vlan[at + r.from..at + r.to].fill(vlan);
            for h in hops {
                for &l in h.via.links(m) {
                    let v = &mut seg.link_vlans[l];
                    if let Err(i) = v.binary_search(&vlan) {
                        v.insert(i, vlan);
                    }
                    if facts.toward[l] {
                        match access[l] {
                            None => {
                                access[l] = Some((vlan, r.flow));
                            }
                            Some(first) if first.0 != vlan => {
                                if !seg.two_access.iter().any(|t| t.link == l) {
                                    seg.two_access.push(TwoAccess {
                                        link: l,
                                        first,
                                        second: (vlan, r.flow),
                                    });
                                }
                            }
                            Some(_) => {}
                        }
                    }
                }
            }
        }
    }
    seg
}

/// A link whose switch end is an access port toward a DTN: the DTN sends untagged.
fn toward_host(m: &Model, l: LinkId) -> bool {
    let link = &m.links[l];
    let host = matches!(link.a.node, NodeId::Host(_)) || matches!(link.b.node, NodeId::Host(_));
    host && link.mode.is_none() && circuit_vlan(link).is_none()
}

/// The VLAN of a run: the first it admits (the DTN VLAN when admitted), or for a run that
/// admits any, the one already on its DTN ports, else the DTN VLAN.
fn choose(m: &Model, r: &Run, hops: &[Hop], access: &[Option<(u16, usize)>], dtn: u16) -> u16 {
    match &r.admitted {
        Some(v) if v.contains(&dtn) => dtn,
        Some(v) => v.first().copied().unwrap_or(dtn),
        None => hops
            .iter()
            .flat_map(|h| h.via.links(m))
            .find_map(|&l| access[l].map(|a| a.0))
            .unwrap_or(dtn),
    }
}

/// Cuts a route into runs at every hop a switch does not bridge, and records where a
/// run's links admit no common VLAN.
fn split(
    m: &Model,
    facts: &LinkFacts,
    flow: usize,
    route: usize,
    hops: &[Hop],
    runs: &mut Vec<Run>,
    mixed: &mut Vec<Mixed>,
) {
    let mut from = 0;
    let mut admitted: Option<Vec<u16>> = None;
    let mut last: Option<LinkId> = None;
    let mut failed = false;
    for (k, h) in hops.iter().enumerate() {
        if k > 0 {
            let joined = match hops[k - 1].to {
                NodeId::Switch(s) => facts.bridged(m, s, hops[k - 1].via, h.via).then_some(s),
                NodeId::Host(_) => None,
            };
            match joined {
                Some(s) => {
                    let l = h.via.links(m)[0];
                    if let Some(this) = facts.admits[l].clone() {
                        let common = match &admitted {
                            None => this.clone(),
                            Some(a) => a.iter().copied().filter(|v| this.contains(v)).collect(),
                        };
                        if common.is_empty() && !failed {
                            failed = true;
                            mixed.push(Mixed {
                                flow,
                                at: s,
                                before: (last.unwrap_or(l), admitted.clone().unwrap_or_default()),
                                after: (l, this),
                            });
                        }
                        if !common.is_empty() {
                            admitted = Some(common);
                            last = Some(l);
                        }
                    }
                    continue;
                }
                None => {
                    runs.push(Run {
                        flow,
                        route,
                        from,
                        to: k,
                        admitted: admitted.take(),
                    });
                    from = k;
                    failed = false;
                }
            }
        }
        let l = h.via.links(m)[0];
        admitted = facts.admits[l].clone();
        last = admitted.is_some().then_some(l);
    }
    runs.push(Run {
        flow,
        route,
        from,
        to: hops.len(),
        admitted,
    });
}

impl Segments {
    /// The circuit provisioned on VLAN `v`, if any.
    pub(crate) fn circuit(&self, v: u16) -> Option<WanId> {
        self.circuits.get(&v).copied()
    }

    /// The VLANs the segments crossing `link` carry (empty when no flow crosses it).
    pub(crate) fn link_vlans(&self, link: LinkId) -> &[u16] {
        self.link_vlans.get(link).map_or(&[], Vec::as_slice)
    }

    /// The VLAN of hop `hop` of a flow's pair route.
    pub(crate) fn hop_vlan(&self, flow: usize, route: usize, hop: usize) -> Option<u16> {
        let at = *self.start.get(flow)?.get(route)? as usize;
        self.hop_vlan.get(at + hop).copied()
    }

    /// The VLANs a legacy port facing a port under the controller carries (its link's
    /// explicit `vlans` and its segments'), and whether they go tagged: one VLAN rides
    /// untagged (an access port), several ride a trunk. Mirrors lowering (src/lower/l2.rs).
    pub(crate) fn facing_openflow(&self, link: &Link, id: LinkId) -> (Vec<u16>, bool) {
        let mut set = link.vlans.clone();
        set.extend_from_slice(self.link_vlans(id));
        let set = sorted(set);
        let tagged = set.len() > 1;
        (set, tagged)
    }

    /// Whether the frames on `link` are VLAN-tagged where it meets a port under the
    /// controller at switch `s`: a circuit's always; a trunk's; a legacy peer's when it
    /// carries several VLANs. Ports under the controller at both ends and DTNs send
    /// untagged frames.
    pub(crate) fn tagged_at(&self, m: &Model, id: LinkId, s: SwitchId) -> bool {
        let link = &m.links[id];
        if circuit_vlan(link).is_some() {
            return true;
        }
        let other = if link.a.node == NodeId::Switch(s) {
            link.b
        } else {
            link.a
        };
        match (link.mode, other.node) {
            (Some(PortMode::Trunk), _) => true,
            (Some(_), _) | (None, NodeId::Host(_)) => false,
            (None, NodeId::Switch(_)) if m.port(other).openflow => false,
            (None, NodeId::Switch(_)) => self.facing_openflow(link, id).1,
        }
    }
}
