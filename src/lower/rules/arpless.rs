//! The pairs whose ARP cannot cross their path: it enters an OpenFlow port of a switch
//! whose agent cannot match ARP's addresses (FTOS 9: "ARP opcode, sender IP, and target
//! IP matching are not supported", and ARP replies "can only be copied to the
//! controller"; templates/dell/vendor.yaml), or speaks OpenFlow 1.0, whose ARP rules a
//! controller cannot install (`OfCaps::writes_arp`). democ writes no ARP rules there, so the two
//! hosts of such a pair resolve each other by static neighbours that their scripts set
//! (docs/openflow.md, "ARP across OpenFlow switches").

use std::collections::BTreeSet;
use std::net::Ipv4Addr;

use crate::derive::ShowModel;
use crate::derive::paths::{PairRoute, Via, host_ports};
use crate::resolve::model::{HostId, Model, NodeId, SwitchId};
use crate::spec::switch::OfMode;
use crate::vendor::Vendors;

/// One end of a pair: the host, its port (index in the host's ports) and address.
pub(crate) type End = (HostId, usize, Ipv4Addr);

/// Every pair (lower end first) whose path crosses an OpenFlow port of an agent without
/// ARP matching, once.
pub(crate) fn pairs(front: &ShowModel, vendors: &Vendors) -> BTreeSet<(End, End)> {
    let m = &front.model;
    let arpless: Vec<bool> = m
        .switches
        .iter()
        .map(|s| {
            s.openflow.as_ref().is_some_and(|o| {
                o.mode != OfMode::Off
                    && vendors
                        .flavour(&s.vendor, s.os.as_str())
                        .and_then(|(_, f)| f.openflow.as_ref())
                        .is_some_and(|c| !c.writes_arp(&c.version(&o.version)))
            })
        })
        .collect();
    let mut out = BTreeSet::new();
    if !arpless.contains(&true) {
        return out;
    }
    for fr in &front.routes.flows {
        for pr in &fr.pairs {
            if !crosses(m, pr, &arpless) {
                continue;
            }
            let end = |first| {
                let (h, p) = host_ports(m, pr, first).next()?;
                Some((h, p, m.hosts[h].ports[p].address?.addr))
            };
            if let (Some(a), Some(b)) = (end(true), end(false)) {
                out.insert(if a <= b { (a, b) } else { (b, a) });
            }
        }
    }
    out
}

/// The route enters or leaves an arpless switch through a port under its controller.
fn crosses(m: &Model, pr: &PairRoute, arpless: &[bool]) -> bool {
    pr.hops.windows(2).any(|w| {
        let NodeId::Switch(s) = w[0].to else {
            return false;
        };
        arpless[s] && (openflow_at(m, s, w[0].via) || openflow_at(m, s, w[1].via))
    })
}

/// Whether the hop meets switch `s` on a port under the controller.
fn openflow_at(m: &Model, s: SwitchId, via: Via) -> bool {
    via.links(m).iter().any(|&l| {
        let link = &m.links[l];
        [link.a, link.b]
            .into_iter()
            .any(|e| e.node == NodeId::Switch(s) && m.port(e).openflow)
    })
}
