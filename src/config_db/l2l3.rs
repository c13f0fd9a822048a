//! Port-channels, VLANs and addresses: PORTCHANNEL(_MEMBER, _INTERFACE), VLAN,
//! VLAN_MEMBER, VLAN_INTERFACE, INTERFACE and LOOPBACK_INTERFACE.

use super::{ConfigDb, Fields, fields, key};
use crate::ir::Switch;
use crate::ir::interface::{Mode, Switching};

/// A routed interface's rows: `NAME` (no fields) and `NAME|prefix`.
fn routed(table: &mut super::Table<Fields>, name: &str, cidr: &str) {
    table.insert(name.to_owned(), Fields::new());
    table.insert(key(&[name, cidr]), Fields::new());
}

/// VLAN_MEMBER rows of a port or port-channel in trunk or access mode.
fn members(db: &mut ConfigDb, name: &str, s: &Switching) {
    let tagging = |vlan: u16, mode: &str, db: &mut ConfigDb| {
        db.vlan_member.insert(
            key(&[&format!("Vlan{vlan}"), name]),
            fields([("tagging_mode", Some(mode.to_owned()))]),
        );
    };
    match s.mode {
        Some(Mode::Access) => {
            if let Some(v) = s.access_vlan {
                tagging(v, "untagged", db);
            }
        }
        Some(Mode::Trunk) => {
            for &v in &s.trunk_vlans {
                let mode = if s.native_vlan == Some(v) {
                    "untagged"
                } else {
                    "tagged"
                };
                tagging(v, mode, db);
            }
            if let Some(v) = s.native_vlan.filter(|v| !s.trunk_vlans.contains(v)) {
                tagging(v, "untagged", db);
            }
        }
        Some(Mode::Routed) | None => {}
    }
}

pub(super) fn write(sw: &Switch, db: &mut ConfigDb) {
    for pc in &sw.port_channels {
        db.portchannel.insert(
            pc.name.clone(),
            fields([
                ("admin_status", Some("up".into())),
                ("description", pc.description.clone()),
                ("lacp_key", Some("auto".into())),
                ("min_links", Some("1".into())),
                ("mtu", pc.mtu.map(|m| m.set.to_string())),
            ]),
        );
        for m in &pc.members {
            db.portchannel_member
                .insert(key(&[&pc.name, m]), Fields::new());
        }
        if let Some(ip) = &pc.switching.ipv4 {
            routed(&mut db.portchannel_interface, &pc.name, &ip.cidr);
        }
        members(db, &pc.name, &pc.switching);
    }
    for i in &sw.interfaces {
        if let Some(ip) = &i.switching.ipv4 {
            routed(&mut db.interface, &i.name, &ip.cidr);
        }
        members(db, &i.name, &i.switching);
    }
    for v in &sw.vlans {
        let name = format!("Vlan{}", v.id);
        db.vlan.insert(
            name.clone(),
            fields([
                ("admin_status", Some("up".into())),
                ("description", Some(v.name.clone())),
                ("vlanid", Some(v.id.to_string())),
            ]),
        );
        if let Some(l3) = &v.l3 {
            routed(&mut db.vlan_interface, &name, &l3.ipv4.cidr);
        }
    }
    // The BGP router id on a loopback, so the switch owns the address it names itself
    // by, unless a port already holds it.
    let held = |a: &str| {
        let ports = sw.interfaces.iter().map(|i| &i.switching);
        let lags = sw.port_channels.iter().map(|p| &p.switching);
        ports
            .chain(lags)
            .any(|s| s.ipv4.as_ref().is_some_and(|ip| ip.address == a))
            || sw
                .vlans
                .iter()
                .any(|v| v.l3.as_ref().is_some_and(|l| l.ipv4.address == a))
    };
    if let Some(bgp) = sw.bgp.as_ref().filter(|b| !held(&b.router_id)) {
        routed(
            &mut db.loopback_interface,
            "Loopback0",
            &format!("{}/32", bgp.router_id),
        );
    }
}
