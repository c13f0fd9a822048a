//! Configuration that carries nothing (W0306): a VLAN trunked between switches that
//! reaches no host, circuit or flow; a routed link between switches that no flow crosses
//! and no BGP session runs over; an OpenFlow instance without a port. Each is a line on
//! the switch somebody must type, read and trust at the show, and the last one carves
//! the switch's CAM for OpenFlow (a reload on FTOS) and holds a controller session that
//! programs nothing. The check only reports: democ writes what the spec asks for.

use std::collections::BTreeSet;

use super::CheckInput;
use crate::derive::segments::circuit_vlan;
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{LinkId, LinkKind, Model, NodeId};

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    let crossed = crossed_links(cx);
    let live = live_vlans(cx, &crossed);
    for (id, link) in m.links.iter().enumerate() {
        let (NodeId::Switch(_), NodeId::Switch(_)) = (link.a.node, link.b.node) else {
            continue;
        };
        let dead: Vec<String> = link
            .vlans
            .iter()
            .chain(link.vlan.iter())
            .filter(|v| !live.contains(v))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(u16::to_string)
            .collect();
        if !dead.is_empty() {
            let (noun, reach, them) = if dead.len() == 1 {
                ("VLAN", "reaches", "it")
            } else {
                ("VLANs", "reach", "them")
            };
            diags.push(
                Diagnostic::new(
                    codes::DEAD_CONFIG,
                    link.span_a,
                    format!(
                        "{noun} {} on {} {reach} no host, circuit or flow: both switches would \
                         carry {them} for nothing",
                        dead.join(", "),
                        m.link_name(id)
                    ),
                )
                .label("trunked between switches only")
                .help(format!(
                    "drop {them} from this link's `vlans:`, or give {them} hosts (a host \
                     link's `vlan:`) or a flow whose path crosses this link"
                )),
            );
        }
        let routed = m.port(link.a).address.is_some() || m.port(link.b).address.is_some();
        if routed && !crossed[id] && !bgp_session(m, id) {
            diags.push(
                Diagnostic::new(
                    codes::DEAD_CONFIG,
                    link.span_a,
                    format!(
                        "routed {} carries no flow and no BGP session: its two addresses \
                         route nothing",
                        m.link_name(id)
                    ),
                )
                .label("no route uses this link")
                .help(
                    "remove the link (and its cable), or give it a purpose: a flow whose path \
                     crosses it, or a WAN connection with `peer_asn` for BGP",
                ),
            );
        }
    }
    for sw in &m.switches {
        let Some(of) = &sw.openflow else { continue };
        if sw.ports.iter().any(|p| p.openflow) {
            continue;
        }
        diags.push(
            Diagnostic::new(
                codes::DEAD_CONFIG,
                of.span,
                format!(
                    "`{}` runs an OpenFlow instance with no port in it: it still takes the \
                     switch's table space for OpenFlow and a controller session, and \
                     forwards nothing",
                    sw.name.value
                ),
            )
            .label("no port under the controller")
            .help("remove `openflow:` from this switch (or write `mode: off`), or list the ports the controller should program in `ports:`"),
        );
    }
}

/// Per link: whether some flow's path crosses it (a LAG hop crosses every member).
fn crossed_links(cx: &CheckInput) -> Vec<bool> {
    let mut crossed = vec![false; cx.m.links.len()];
    for hop in cx
        .routes
        .flows
        .iter()
        .flat_map(|f| &f.pairs)
        .flat_map(|p| &p.hops)
    {
        for &l in hop.via.links(cx.m) {
            crossed[l] = true;
        }
    }
    crossed
}

/// VLANs that reach something: a flow's segment, a circuit, a host's port (its explicit
/// VLAN, or the show's DTN VLAN where it names none).
fn live_vlans(cx: &CheckInput, crossed: &[bool]) -> BTreeSet<u16> {
    let m = cx.m;
    let mut live = BTreeSet::new();
    for (id, link) in m.links.iter().enumerate() {
        if crossed[id] {
            live.extend(cx.segments.link_vlans(id).iter().copied());
        }
        live.extend(circuit_vlan(link));
        let to_switch_only = matches!(
            (link.a.node, link.b.node),
            (NodeId::Switch(_), NodeId::Switch(_))
        );
        if !to_switch_only || matches!(link.kind, LinkKind::Wan(_)) {
            live.extend(link.vlans.iter().copied());
            live.extend(link.vlan);
            if link.vlan.is_none() && link.vlans.is_empty() {
                live.insert(m.settings.dtn_vlan);
            }
        }
    }
    live
}

/// A WAN connection with `peer_asn` and addresses at both ends runs BGP (lower::routing).
fn bgp_session(m: &Model, id: LinkId) -> bool {
    let link = &m.links[id];
    let LinkKind::Wan(w) = link.kind else {
        return false;
    };
    m.wans[w].peer_asn.is_some()
        && m.port(link.a).address.is_some()
        && m.port(link.b).address.is_some()
}
