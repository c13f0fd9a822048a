//! `interface`: front-panel ports and breakouts, bonds, the bridge `br_default` and
//! its VLANs, SVIs, the loopback and the management port eth0 in the `mgmt` VRF.

use std::collections::BTreeMap;

use super::tree::{
    Bond, Bridge, Config, Domain, Empty, Interface, Ip, Link, Lldp, PortBridge, PortDomain, Set,
    Untagged,
};
use crate::ir::Switch;
use crate::ir::interface::{Lacp, Mode, Switching};

/// Cumulus Linux's default VLAN-aware bridge.
pub(super) const BRIDGE: &str = "br_default";

fn set<I: IntoIterator<Item = String>>(keys: I) -> Set {
    keys.into_iter().map(|k| (k, Empty {})).collect()
}

/// A port's or bond's bridge membership and address.
fn switching(s: &Switching) -> (Option<PortBridge>, Option<Ip>) {
    let domain = match s.mode {
        Some(Mode::Access) => s.access_vlan.map(|v| PortDomain {
            access: Some(v),
            ..PortDomain::default()
        }),
        Some(Mode::Trunk) => {
            let mut vlans: Vec<u16> = s.trunk_vlans.clone();
            vlans.extend(s.native_vlan.filter(|v| !s.trunk_vlans.contains(v)));
            Some(PortDomain {
                access: None,
                untagged: Some(s.native_vlan.map_or(Untagged::None("none"), Untagged::Vlan)),
                vlan: set(vlans.iter().map(u16::to_string)),
            })
        }
        Some(Mode::Routed) | None => None,
    };
    let bridge = domain.map(|d| PortBridge {
        domain: BTreeMap::from([(BRIDGE.to_owned(), d)]),
    });
    let ip = s.ipv4.as_ref().map(|a| Ip {
        address: set([a.cidr.clone()]),
        ..Ip::default()
    });
    (bridge, ip)
}

pub(super) fn write(sw: &Switch, c: &mut Config) {
    // Parents first: a split port has no interface of its own in the IR, only its
    // `link breakout` mode; its subports follow as swpNs0...
    for b in &sw.breakouts {
        if let Some(parent) = &b.target {
            let i = c
                .interface
                .entry(parent.clone())
                .or_insert_with(|| Interface {
                    kind: "swp",
                    ..Interface::default()
                });
            i.link
                .get_or_insert_with(Link::default)
                .breakout
                .insert(b.map.clone(), Empty {});
        }
    }
    for i in &sw.interfaces {
        let (bridge, ip) = if i.lag.is_some() {
            // A bond member carries its bond's bridge and address, none of its own.
            (None, None)
        } else {
            switching(&i.switching)
        };
        c.interface.insert(
            i.name.clone(),
            Interface {
                kind: "swp",
                description: i.description.clone(),
                link: Some(Link {
                    state: set([if i.enabled { "up" } else { "down" }.to_owned()]),
                    mtu: i.mtu.map(|m| m.set),
                    speed: i.cli.speed.clone(),
                    fec: i.cli.fec.clone(),
                    ..Link::default()
                }),
                bridge,
                ip,
                lldp: (!i.lldp).then_some(Lldp { state: "disabled" }),
                ..Interface::default()
            },
        );
    }
    for pc in &sw.port_channels {
        let (bridge, ip) = switching(&pc.switching);
        c.interface.insert(
            pc.name.clone(),
            Interface {
                kind: "bond",
                description: pc.description.clone(),
                link: pc.mtu.map(|m| Link {
                    mtu: Some(m.set),
                    ..Link::default()
                }),
                bond: Some(Bond {
                    member: set(pc.members.iter().cloned()),
                    mode: if pc.lacp == Lacp::Static {
                        "static"
                    } else {
                        "lacp"
                    },
                }),
                bridge,
                ip,
                ..Interface::default()
            },
        );
    }
    let bridged: Vec<u16> = sw.vlans.iter().map(|v| v.id).collect();
    if !bridged.is_empty() {
        c.bridge = Some(Bridge {
            domain: BTreeMap::from([(
                BRIDGE.to_owned(),
                Domain {
                    vlan: set(bridged.iter().map(u16::to_string)),
                },
            )]),
        });
    }
    for v in &sw.vlans {
        if let Some(l3) = &v.l3 {
            c.interface.insert(
                l3.name.clone(),
                Interface {
                    kind: "svi",
                    description: Some(v.name.clone()),
                    vlan: Some(v.id),
                    link: l3.mtu.map(|m| Link {
                        mtu: Some(m.set),
                        ..Link::default()
                    }),
                    ip: Some(Ip {
                        address: set([l3.ipv4.cidr.clone()]),
                        ..Ip::default()
                    }),
                    ..Interface::default()
                },
            );
        }
    }
    if let Some(id) = super::routing::loopback(sw) {
        c.interface.insert(
            "lo".to_owned(),
            Interface {
                kind: "loopback",
                ip: Some(Ip {
                    address: set([format!("{id}/32")]),
                    ..Ip::default()
                }),
                ..Interface::default()
            },
        );
    }
    if let Some(m) = &sw.management {
        c.interface.insert(
            m.interface.clone(),
            Interface {
                kind: "eth",
                ip: Some(Ip {
                    address: set([m.address.cidr.clone()]),
                    gateway: set(m.gateway.clone()),
                    vrf: Some(super::routing::MGMT_VRF.to_owned()),
                }),
                ..Interface::default()
            },
        );
    }
}
