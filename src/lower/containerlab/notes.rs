//! The comments above the topology: what it is, which images to provide, which switches
//! are stand-ins and why, and how to give WAN links their delay.

use std::collections::{BTreeMap, BTreeSet};

use super::{Ifaces, Plan};
use crate::derive::ShowModel;
use crate::derive::topology::link_latency_us;
use crate::ir::lab::Node;

pub(crate) struct NotesCx<'a> {
    pub(crate) lab: &'a str,
    pub(crate) plans: &'a [Plan<'a>],
    pub(crate) nodes: &'a BTreeMap<String, Node>,
    pub(crate) ifaces: &'a Ifaces,
    /// The pool has no address left for the gateway.
    pub(crate) no_gateway: bool,
}

pub(crate) fn lower(front: &ShowModel, cx: &NotesCx) -> Vec<String> {
    let m = &front.model;
    let mut out = vec![format!(
        "containerlab topology of show `{}`, written by `democ build`: rebuild rather than edit. Deploying it, stand-ins and images: lab/containerlab/README.md in the democ repository.",
        cx.lab
    )];
    let images: BTreeSet<String> = cx
        .nodes
        .values()
        .map(|n| format!("{} ({})", n.image, n.kind))
        .collect();
    out.push(format!(
        "Images are placeholders: load or build them under these names, or edit them here: {}.",
        images.into_iter().collect::<Vec<_>>().join(", ")
    ));
    let standins: BTreeSet<&str> = cx
        .plans
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p, Plan::Standin(_)))
        .map(|(sw, _)| m.switches[sw].name.value.as_str())
        .collect();
    if !standins.is_empty() {
        out.push(format!(
            "Stand-ins, running the twin's emulation of the switch from its IR (lab/nodes/<switch>.sh: Open vSwitch with its VLANs, LAGs and ruleset, FRR for its BGP; not the vendor's OS, the `democ.stand-in` label says why): {}.",
            standins.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    // Remote sites' own management networks are not the lab's: containerlab's network
    // is the show floor's pool, and the switch's config keeps its site's address.
    let pool = m.settings.pools.mgmt.as_ref();
    let off_lab: Vec<&str> = m
        .switches
        .iter()
        .filter(|s| cx.nodes.contains_key(&s.name.value) && m.mgmt_net(s.site).own)
        .filter(|s| {
            s.mgmt
                .as_ref()
                .is_some_and(|a| !pool.is_some_and(|p| p.contains(a.value)))
        })
        .map(|s| s.name.value.as_str())
        .collect();
    if !off_lab.is_empty() {
        out.push(format!(
            "Management addresses on their site's own network (`sites.<name>.mgmt`), outside the lab's management network: containerlab gives these nodes an address of its own, which a vendor config replaces at boot, so reach them from their console (`docker exec`): {}.",
            off_lab.join(", ")
        ));
    }
    if cx.no_gateway {
        out.push("The management pool has no free address for the network's gateway: containerlab takes the first one, which a node may hold. Enlarge `addressing.mgmt`.".into());
    }
    out.extend(wans(front, cx));
    out
}

/// One note per WAN connection with a delay: where `exec` applies it (netem delays what
/// leaves an interface, so both ends, half the RTT each).
fn wans(front: &ShowModel, cx: &NotesCx) -> Vec<String> {
    let m = &front.model;
    let Some(us_per_km) = front.db.physics.as_ref().map(|p| p.fiber_us_per_km) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for w in &m.wans {
        let Some(&first) = w.links.first() else {
            continue;
        };
        let us = link_latency_us(m, first, us_per_km);
        if us < 1.0 {
            continue;
        }
        let end = |e: crate::resolve::model::End| {
            let iface = cx.ifaces.get(&(e.node, e.port)).map_or("?", String::as_str);
            format!("`{}:{iface}`", m.node_name(e.node))
        };
        let link = &m.links[first];
        let ends = match w.links.len() {
            1 => format!("both ends, {} and {}", end(link.a), end(link.b)),
            n => format!(
                "both ends of each of its {n} links, as {} and {}",
                end(link.a),
                end(link.b)
            ),
        };
        let delay = ms(us.round());
        out.push(format!(
            "WAN `{}` ({}): its {delay} one-way delay (half its RTT) is applied by `exec` with tc netem on {ends}; a node image without `tc` needs `containerlab tools netem set -n clab-{}-<node> -i <interface> --delay {delay}` instead.",
            w.name.value,
            w.kind.as_str(),
            cx.lab,
        ));
    }
    out
}

/// Microseconds as a Go duration in milliseconds (`5ms`, `0.25ms`).
fn ms(us: f64) -> String {
    let text = format!("{:.3}", us / 1000.0);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}ms")
}

#[cfg(test)]
mod tests {
    #[test]
    fn delays_read_as_go_durations() {
        assert_eq!(super::ms(10_000.0), "10ms");
        assert_eq!(super::ms(250.0), "0.25ms");
        assert_eq!(super::ms(5_012.345), "5.012ms");
    }
}
