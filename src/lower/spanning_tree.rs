//! Spanning tree where the OS leaves it off. FTOS 9 runs no spanning tree until told
//! ("RSTP is disabled by default"), so parallel layer-2 links between two switches, or a
//! far end that bridges before its OpenFlow rules are loaded, loop a VLAN. A switch of
//! such an OS with a layer-2 port toward another switch runs RSTP; its layer-2 ports
//! toward hosts are edge ports, which forward at once and never wait for BPDUs.

use crate::ir::interface::{Interface, Mode, PortChannel};
use crate::ir::switch::SpanningTree;
use crate::resolve::model::NodeId;

use super::Lx;

/// The switch's spanning tree, when its OS needs one configured and a loop is possible.
pub(crate) fn lower(
    lx: &Lx,
    interfaces: &[Interface],
    port_channels: &[PortChannel],
) -> Option<SpanningTree> {
    let caps = lx.f.spanning_tree.as_ref()?;
    let ports = &lx.switch().ports;
    // Whether port i is cabled to a host (else to a switch, or uncabled).
    let to_host = |i: usize| {
        ports[i]
            .link
            .and_then(|l| lx.ends(l))
            .is_some_and(|(_, other)| matches!(other.node, NodeId::Host(_)))
    };
    let layer2 = |i: &Interface| i.enabled && bridged(i.switching.mode);
    let toward_switch = interfaces
        .iter()
        .enumerate()
        .any(|(n, i)| layer2(i) && i.peer.is_some() && !to_host(n))
        || port_channels
            .iter()
            .any(|pc| bridged(pc.switching.mode) && lag_toward(interfaces, pc, |n| !to_host(n)));
    if !toward_switch {
        return None;
    }
    let mut edge_ports: Vec<String> = interfaces
        .iter()
        .enumerate()
        .filter(|&(n, i)| layer2(i) && i.lag.is_none() && to_host(n))
        .map(|(_, i)| i.name.clone())
        .collect();
    edge_ports.extend(
        port_channels
            .iter()
            .filter(|pc| bridged(pc.switching.mode))
            .filter(|pc| lag_toward(interfaces, pc, to_host))
            .map(|pc| pc.name.clone()),
    );
    Some(SpanningTree {
        protocol: caps.protocol.clone(),
        edge_ports,
    })
}

/// Whether every member of a port-channel is cabled to what `side` says.
fn lag_toward(interfaces: &[Interface], pc: &PortChannel, side: impl Fn(usize) -> bool) -> bool {
    let members: Vec<usize> = interfaces
        .iter()
        .enumerate()
        .filter(|(_, i)| i.lag.as_ref().is_some_and(|l| l.id == pc.id))
        .map(|(n, _)| n)
        .collect();
    !members.is_empty() && members.into_iter().all(side)
}

/// Access and trunk ports bridge; routed ports and unconfigured ones do not.
fn bridged(mode: Option<Mode>) -> bool {
    matches!(mode, Some(Mode::Access | Mode::Trunk))
}
