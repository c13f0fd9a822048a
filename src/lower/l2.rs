//! Layer 2/3 roles and VLANs. A port's role comes from its link:
//! - an address (routed link, BGP circuit) makes it routed; on a circuit with a VLAN the
//!   port trunks that VLAN and the address moves to a VLAN interface;
//! - an explicit `mode:` wins next (access: `vlan` or the DTN VLAN; trunk: `vlans` or
//!   the DTN VLAN, `vlan` native);
//! - otherwise a circuit trunks its VLAN; a host-facing port is an access port in the
//!   VLAN of the flows' segments through it (derive::segments: a campus DTN joins its
//!   circuit's VLAN), else in `show.defaults.dtn_vlan`; a port facing a port under an
//!   OpenFlow controller carries its segments' VLANs, untagged when there is one (an
//!   access port) and on a trunk when there are several (the rules push and pop the
//!   tags); any other link between switches trunks the DTN VLAN and its segments'.

use std::collections::{BTreeMap, BTreeSet};

use super::{Lx, naming};
use crate::derive::segments::circuit_vlan;
use crate::ir::interface::{Interface, Mode, Mtu, PortChannel, Switching, Vlan, VlanL3};
use crate::ir::switch::Ipv4;
use crate::resolve::model::{End, Link, LinkKind, NodeId};
use crate::spec::link::PortMode;
use crate::vendor::RoutedPorts;

fn access(vlan: u16) -> Switching {
    Switching {
        mode: Some(Mode::Access),
        access_vlan: Some(vlan),
        ..Switching::default()
    }
}

fn trunk(mut vlans: Vec<u16>, native: Option<u16>) -> Switching {
    vlans.sort_unstable();
    vlans.dedup();
    Switching {
        mode: Some(Mode::Trunk),
        trunk_vlans: vlans,
        native_vlan: native,
        ..Switching::default()
    }
}

/// The role of this switch's end of `link`.
pub(crate) fn switching(lx: &Lx, link: &Link, mine: End, other: End) -> Switching {
    let dtn = lx.m.settings.dtn_vlan;
    let listed = || {
        if link.vlans.is_empty() {
            vec![dtn]
        } else {
            link.vlans.clone()
        }
    };
    let id = lx.m.port(mine).link;
    let carried = id.map_or(&[][..], |l| lx.segs.link_vlans(l));
    if let Some(a) = lx.m.port(mine).address {
        return match circuit_vlan(link) {
            Some(v) => trunk(vec![v], None),
            None => Switching {
                mode: Some(Mode::Routed),
                ipv4: Some(Ipv4::new(a.addr, a.len)),
                ..Switching::default()
            },
        };
    }
    match link.mode {
        Some(PortMode::Routed) => Switching {
            mode: Some(Mode::Routed),
            ..Switching::default()
        },
        Some(PortMode::Access) => access(link.vlan.unwrap_or(dtn)),
        Some(PortMode::Trunk) => trunk(listed(), link.vlan),
        None => match circuit_vlan(link) {
            Some(v) => trunk(vec![v], None),
            // A DTN sends untagged frames: its port is in the VLAN its segments carry
            // (check::segments refuses a port that would need two).
            None if matches!(other.node, NodeId::Host(_)) => {
                access(carried.first().copied().or(link.vlan).unwrap_or(dtn))
            }
            // The rules send one segment's frames untagged and tag them where a port
            // carries several (derive::segments decides both sides alike).
            None if lx.m.port(other).openflow => {
                let (set, tagged) = match id {
                    Some(l) => lx.segs.facing_openflow(link, l),
                    None => (Vec::new(), false),
                };
                if tagged {
                    trunk(set, None)
                } else {
                    access(set.first().copied().or(link.vlan).unwrap_or(dtn))
                }
            }
            None => {
                let mut v = listed();
                v.extend_from_slice(carried);
                trunk(v, link.vlan)
            }
        },
    }
}

fn used(interfaces: &[Interface], pcs: &[PortChannel]) -> BTreeSet<u16> {
    let sw = interfaces
        .iter()
        .map(|i| &i.switching)
        .chain(pcs.iter().map(|c| &c.switching));
    sw.flat_map(|s| {
        s.access_vlan
            .into_iter()
            .chain(s.native_vlan)
            .chain(s.trunk_vlans.iter().copied())
    })
    .collect()
}

/// The PicOS quirk: a routed port becomes an access port in a VLAN of its own whose
/// VLAN interface holds the address. Returns (vlan, port, address); a port left without
/// a free VLAN id is an error.
fn routed_as_svi(
    lx: &mut Lx,
    interfaces: &mut [Interface],
    taken: &mut BTreeSet<u16>,
) -> Vec<(u16, String, Option<Ipv4>)> {
    let mut out = Vec::new();
    let mut next = lx.f.svi_vlan_base.unwrap_or(3900);
    for i in interfaces
        .iter_mut()
        .filter(|i| i.switching.mode == Some(Mode::Routed))
    {
        while taken.contains(&next) && next <= 4094 {
            next += 1;
        }
        if next > 4094 {
            let span = lx.switch().name.span;
            let message = format!(
                "no free VLAN id left for routed port `{}:{}`",
                lx.name(),
                i.port
            );
            lx.unsupported("svi", span, message, "PicOS routes through VLAN interfaces: free VLAN ids above `svi_vlan_base`, or route fewer ports");
            continue;
        }
        taken.insert(next);
        let ipv4 = i.switching.ipv4.take();
        i.switching = access(next);
        out.push((next, i.port.clone(), ipv4));
    }
    out
}

/// VLANs with their members, and L3 VLAN interfaces (circuit VLANs, the SVI quirk).
pub(crate) fn vlans(lx: &mut Lx, interfaces: &mut [Interface], pcs: &[PortChannel]) -> Vec<Vlan> {
    let mut names: BTreeMap<u16, String> = BTreeMap::new();
    let mut l3: BTreeMap<u16, (Ipv4, Option<Mtu>)> = BTreeMap::new();
    let s = lx.switch();
    for (i, p) in s.ports.iter().enumerate() {
        let Some(link) = p.link.map(|l| &lx.m.links[l]) else {
            continue;
        };
        let (Some(v), LinkKind::Wan(w)) = (circuit_vlan(link), link.kind) else {
            continue;
        };
        names
            .entry(v)
            .or_insert_with(|| lx.m.wans[w].name.value.clone());
        if let Some(a) = p.address {
            l3.insert(
                v,
                (
                    Ipv4::new(a.addr, a.len),
                    interfaces
                        .get(i)
                        .and_then(|x| x.mtu)
                        .map(|m| super::mtu::vlan_interface(lx, m)),
                ),
            );
        }
    }
    // The hosts' gateway: on the access VLAN of the first host-facing port.
    if let Some(g) = &s.gateway {
        let host_vlan = s.ports.iter().enumerate().find_map(|(i, p)| {
            let (_, other) = lx.ends(p.link?)?;
            let x = interfaces.get(i)?;
            matches!(other.node, NodeId::Host(_))
                .then_some(x.switching.access_vlan)
                .flatten()
                .map(|v| (v, x.mtu))
        });
        if let Some((v, mtu)) = host_vlan {
            l3.entry(v).or_insert((
                Ipv4::new(g.addr, g.len),
                mtu.map(|m| super::mtu::vlan_interface(lx, m)),
            ));
        }
    }
    let mut taken = used(interfaces, pcs);
    if lx.f.routed_ports == RoutedPorts::Svi {
        for (v, port, ipv4) in routed_as_svi(lx, interfaces, &mut taken) {
            names.insert(v, format!("routed-{}", port.replace(['/', ':'], "-")));
            let mtu = interfaces
                .iter()
                .find(|i| i.port == port)
                .and_then(|i| i.mtu)
                .map(|m| super::mtu::vlan_interface(lx, m));
            if let Some(a) = ipv4 {
                l3.insert(v, (a, mtu));
            }
        }
    }
    names
        .entry(lx.m.settings.dtn_vlan)
        .or_insert_with(|| "dtn".into());
    let mut out: BTreeMap<u16, Vlan> = BTreeMap::new();
    let members = interfaces
        .iter()
        .map(|i| (&i.name, &i.switching))
        .chain(pcs.iter().map(|c| (&c.name, &c.switching)));
    for (name, sw) in members {
        let mut add = |id: u16, tagged: bool| {
            let v = out.entry(id).or_insert_with(|| Vlan {
                id,
                name: names.get(&id).cloned().unwrap_or_else(|| {
                    lx.segs
                        .circuit(id)
                        .map_or_else(|| format!("vlan{id}"), |w| lx.m.wans[w].name.value.clone())
                }),
                untagged: Vec::new(),
                tagged: Vec::new(),
                l3: None,
            });
            if tagged {
                v.tagged.push(name.clone())
            } else {
                v.untagged.push(name.clone())
            }
        };
        sw.access_vlan
            .into_iter()
            .chain(sw.native_vlan)
            .for_each(|v| add(v, false));
        sw.trunk_vlans
            .iter()
            .filter(|v| Some(**v) != sw.native_vlan)
            .for_each(|&v| add(v, true));
    }
    for (id, (ipv4, mtu)) in l3 {
        if let Some(v) = out.get_mut(&id) {
            v.l3 = Some(VlanL3 {
                name: naming::vlan_interface(lx.f, id),
                ipv4,
                mtu,
            });
        }
    }
    out.into_values().collect()
}
