//! One MTU model for checks and configs. The spec's host, link and WAN `mtu` are IP
//! MTUs (the largest IP packet: what `ip link set mtu` takes and what circuit providers
//! quote); a switch port's `mtu` (and `show.defaults.switch_mtu`, and the catalog's
//! `max_mtu`) is a layer-2 frame size counting the Ethernet header, the VLAN tags the
//! port carries and the FCS. Per port, [`port`] derives both figures; `check/mtu`
//! computes path MTUs from them and lowering writes them in each OS's unit
//! (templates/<vendor>/vendor.yaml `mtu:`), so what is checked is what is configured.

use crate::resolve::model::{End, Link, LinkKind, Model, NodeId, SwitchId};
use crate::source::Span;
use crate::spec::link::PortMode;

/// Destination, source and EtherType (IEEE 802.3 clause 3.1.1).
pub(crate) const ETHERNET_HEADER: u32 = 14;
/// One 802.1Q tag (IEEE 802.1Q clause 9.3).
pub(crate) const VLAN_TAG: u32 = 4;
/// The frame check sequence (IEEE 802.3 clause 3.2.9).
pub(crate) const FCS: u32 = 4;

/// Bytes a frame adds to the IP packet on a port carrying `tags` VLAN tags.
pub(crate) fn overhead(tags: u32) -> u32 {
    ETHERNET_HEADER + VLAN_TAG * tags + FCS
}

/// Where a switch port's frame size was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The port's override (`ports: { 1/1: { mtu: ... } }`).
    Port(Span),
    /// `show.defaults.switch_mtu`.
    Show(Span),
    /// The model's maximum (span: the switch's `model:`).
    Model(Span),
}

/// A switch port's frame size: its override, else the show's switch MTU (at most the
/// model's maximum), else the model's maximum.
pub(crate) fn port_frame(m: &Model, s: SwitchId, port: usize) -> (u32, Origin) {
    let sw = &m.switches[s];
    let p = &sw.ports[port];
    match (p.mtu, p.span, &m.settings.switch_mtu) {
        (Some(mtu), Some(span), _) => (mtu, Origin::Port(span)),
        (_, _, Some(show)) if show.value <= sw.max_mtu => (show.value, Origin::Show(show.span)),
        _ => (sw.max_mtu, Origin::Model(sw.model.span)),
    }
}

/// VLAN tags on frames through this end of `link`: one on a trunk (a circuit's VLAN,
/// a link between switches, `mode: trunk`), none on access and routed ports. Mirrors
/// the roles lowering gives (src/lower/l2.rs).
pub(crate) fn tags(m: &Model, link: &Link, mine: End) -> u32 {
    let circuit_vlan = matches!(link.kind, LinkKind::Wan(_)) && link.vlan.is_some();
    let other = if link.a == mine { link.b } else { link.a };
    let tagged = if m.port(mine).address.is_some() {
        circuit_vlan
    } else {
        match link.mode {
            Some(PortMode::Routed | PortMode::Access) => false,
            Some(PortMode::Trunk) => true,
            None => circuit_vlan || !matches!(other.node, NodeId::Host(_)),
        }
    };
    u32::from(tagged)
}

/// The two figures of one cabled switch port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PortMtu {
    /// Layer-2 frame size (header, tags, FCS included).
    pub(crate) frame: u32,
    pub(crate) origin: Origin,
    /// VLAN tags its frames carry.
    pub(crate) tags: u32,
    /// The largest IP packet its frames hold: `frame - overhead(tags)`.
    pub(crate) ip_by_frame: u32,
    /// The largest IP packet the port carries: also bounded by the link's IP MTU.
    pub(crate) ip: u32,
}

/// Both figures for switch `s`'s end of `link` (port `port`).
pub(crate) fn port(m: &Model, s: SwitchId, port: usize, link: &Link) -> PortMtu {
    let (frame, origin) = port_frame(m, s, port);
    let tags = tags(
        m,
        link,
        End {
            node: NodeId::Switch(s),
            port,
        },
    );
    let ip_by_frame = frame.saturating_sub(overhead(tags));
    let ip = link
        .mtu
        .as_ref()
        .map_or(ip_by_frame, |l| l.value.min(ip_by_frame));
    PortMtu {
        frame,
        origin,
        tags,
        ip_by_frame,
        ip,
    }
}
