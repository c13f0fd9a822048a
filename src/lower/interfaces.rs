//! Ports to interfaces: one per port of the model, in port order. Cabled ports are up,
//! with description, MTU, speed/FEC keywords and their L2/L3 role; the rest are down.

use std::collections::BTreeSet;

use super::qos::Rdma;
use super::{Lx, l2, naming, safe_text};
use crate::ir::interface::{
    FlowControl, Interface, InterfaceCli, Lacp, LagMember, Peer, Role, Switching,
};
use crate::resolve::model::{End, LinkKind, NodeId, Port};
use crate::source::Span;
use crate::spec::link::Lacp as SpecLacp;
use crate::spec::switch::Fec;
use crate::vendor::OfForbid;

pub(crate) fn lower(lx: &mut Lx, of: &BTreeSet<usize>, rdma: &Rdma) -> Vec<Interface> {
    (0..lx.switch().ports.len())
        .map(|i| interface(lx, i, of.contains(&i), rdma.ports.contains(&i)))
        .collect()
}

pub(crate) fn lacp(l: SpecLacp) -> Lacp {
    match l {
        SpecLacp::Active => Lacp::Active,
        SpecLacp::Passive => Lacp::Passive,
        SpecLacp::Static => Lacp::Static,
    }
}

/// The span to blame for something about a port: its override, else its link.
fn blame(lx: &Lx, p: &Port) -> Span {
    p.span
        .or_else(|| p.link.map(|l| lx.m.links[l].span))
        .unwrap_or(lx.switch().model.span)
}

fn name(lx: &mut Lx, p: &Port) -> String {
    if let Some(n) = naming::os_interface(lx.f, p) {
        if n.contains("{lane}") {
            // Named by its first lane (SONiC), and the catalog gives no lanes.
            let (os, sw, model) = (lx.os(), lx.name(), &lx.switch().model.value);
            let span = blame(lx, p);
            lx.unsupported("lane", span, format!("`{os}` names ports by their first lane, and the catalog gives no lanes for `{sw}:{}` (`{model}`)", p.name), "add `electrical: { lanes: N, rate: ... }` to the model's port group (catalog/switches.yaml or the spec's `catalog:`)");
        }
        return n;
    }
    let speed = p.speed.to_string();
    let (os, sw) = (lx.os(), lx.name());
    let span = blame(lx, p);
    lx.unsupported("name", span, format!("`{os}` has no interface name for `{sw}:{}` at {speed}", p.name), "catalog port names must be `unit/port` (`1/17`); the OS's naming rules are in templates/<vendor>/vendor.yaml");
    p.name.clone()
}

fn speed_cli(lx: &mut Lx, p: &Port) -> Option<String> {
    let needed = if p.parent.is_some() {
        lx.f.speed_on_subports
    } else {
        p.speeds.first().is_some_and(|d| *d != p.speed)
    };
    if !needed || super::breakout::single(lx, p).is_some() {
        return None;
    }
    let speed = p.speed.to_string();
    if let Some(k) = lx.speeds.get(&speed) {
        if lx.f.unconfirmed_speeds.contains(&speed) {
            lx.unconfirmed.insert(format!("speed `{k}` ({speed})"));
        }
        return Some(k.clone());
    }
    let (os, sw) = (lx.os(), lx.name());
    let span = blame(lx, p);
    let known: Vec<&str> = lx.speeds.keys().map(String::as_str).collect();
    lx.unsupported(
        "speed",
        span,
        format!("democ cannot set `{sw}:{}` to {speed} on `{os}`", p.name),
        format!("`{os}` speeds democ knows: {}", crate::diag::list(&known)),
    );
    None
}

/// The switch runs OVS mode on an OS whose OVS ports must be told they are DAC-cabled.
fn ovs_flags_dac(lx: &Lx) -> bool {
    let ovs = lx
        .switch()
        .openflow
        .as_ref()
        .is_some_and(|o| o.mode == crate::spec::switch::OfMode::Ovs);
    ovs && lx
        .f
        .openflow
        .as_ref()
        .and_then(|c| c.ovs.as_ref())
        .is_some_and(|o| o.flag_dac)
}

/// Lane 1 of a split port on an OS whose other lanes need it set (EOS): it gets the
/// lane speed even when nothing is cabled to it.
fn lane1(lx: &Lx, p: &Port) -> bool {
    lx.f.breakout_lane1_speed && p.parent.is_some() && p.name.ends_with(":1")
}

fn fec(lx: &mut Lx, p: &Port) -> (Option<String>, Option<String>) {
    let mode = match p.fec {
        Some(Fec::Rs) => "rs",
        Some(Fec::Fc) => "fc",
        Some(Fec::None) => "none",
        Some(Fec::Auto) | None => return (None, None),
    };
    let speed = p.speed.to_string();
    let rule =
        lx.f.fec
            .iter()
            .find(|r| r.mode == mode && r.speeds.as_ref().is_none_or(|s| s.contains(&speed)));
    if let Some(r) = rule {
        return (Some(mode.into()), Some(r.set.clone()));
    }
    let (os, sw) = (lx.os(), lx.name());
    let span = blame(lx, p);
    lx.manual(
        "fec",
        span,
        format!(
            "democ has no `{os}` syntax for FEC `{mode}` at {speed} (`{sw}:{}`)",
            p.name
        ),
        "the port keeps the OS's default FEC; set it by hand, or drop `fec:`",
    );
    (None, None)
}

/// Description: the port override's, the link's, the WAN connection's, else the peer.
/// An uncabled breakout subport has none: the override's text was written for the
/// parent port and names what the cabled subports reach, not this one.
pub(crate) fn description(lx: &Lx, p: &Port, peer: Option<End>) -> Option<String> {
    if !lx.text || (p.parent.is_some() && p.link.is_none()) {
        return None;
    }
    let link = p.link.map(|l| &lx.m.links[l]);
    let wan = link.and_then(|l| match l.kind {
        LinkKind::Wan(w) => Some(&lx.m.wans[w]),
        LinkKind::Lan => None,
    });
    let auto = peer.map(|e| match wan {
        Some(w) => format!("{} to {}", w.name.value, lx.m.end_name(e)),
        None => format!("to {}", lx.m.end_name(e)),
    });
    let raw = p
        .description
        .clone()
        .or_else(|| link.and_then(|l| l.description.clone()))
        .or_else(|| wan.and_then(|w| w.description.clone()))
        .or(auto)?;
    safe_text::sanitize(&raw, &lx.f.text)
}

fn interface(lx: &mut Lx, i: usize, openflow: bool, rdma: bool) -> Interface {
    let p = &lx.switch().ports[i];
    let name = name(lx, p);
    let ends = p.link.and_then(|l| lx.ends(l));
    let cabled = ends.is_some();
    let enabled = cabled && !p.shutdown;
    let peer = ends.map(|(_, e)| e);
    let link = p.link.map(|l| &lx.m.links[l]);
    // A LAG placed by OpenFlow rules is no port-channel: its members are ports of their own.
    let lag = link
        .and_then(|l| l.lag)
        .filter(|&g| !lx.m.pinned(g))
        .map(|g| {
            let lag = &lx.m.lags[g];
            LagMember {
                id: lag.id,
                name: naming::port_channel(lx.f, lag.id),
                lacp: lacp(lag.lacp),
            }
        });
    let switching = match (link, ends) {
        (Some(l), Some((mine, other))) if lag.is_none() && !openflow => {
            l2::switching(lx, l, mine, other)
        }
        _ => Switching::default(),
    };
    let to_host = matches!(
        peer,
        Some(End {
            node: NodeId::Host(_),
            ..
        })
    );
    let inherits_lag = lag.is_some() && lx.f.lag_members_inherit;
    let dac = enabled
        && link.is_some_and(|l| l.media == Some(crate::spec::link::Media::Dac))
        && ovs_flags_dac(lx);
    let (fec, fec_cli) = if enabled { fec(lx, p) } else { (None, None) };
    // The lossless class where the OS allows DCB (FTOS: not on OpenFlow ports; qos
    // reports what RDMA loses).
    let dcb = rdma && !(openflow && super::openflow::forbids(lx, OfForbid::Dcb));
    Interface {
        name,
        port: p.name.clone(),
        parent: p.parent.clone(),
        description: description(lx, p, peer),
        enabled,
        speed_mbps: (p.speed.bps() / 1e6).round() as u64,
        mtu: if enabled {
            super::mtu::port(lx, p, i, switching.ipv4.is_some())
        } else {
            None
        },
        fec,
        flow_control: (enabled && to_host && !rdma).then_some(FlowControl {
            receive: true,
            send: false,
        }),
        switching,
        lag,
        role: Role::of(openflow),
        lldp: lx.m.settings.services.lldp
            && !(openflow && super::openflow::forbids(lx, OfForbid::Lldp)),
        // Sampled where the switch really sends sFlow (services::lower decides the same).
        sflow: enabled
            && peer.is_some()
            && !openflow
            && lx.m.settings.services.sflow.is_some()
            && lx.switch().mgmt.is_some()
            && lx
                .f
                .services
                .sflow
                .as_ref()
                .is_some_and(|c| c.from_management),
        pfc: dcb && lx.f.qos.pfc,
        ecn: dcb && lx.f.qos.ecn,
        optic: link.zip(ends).and_then(|(l, (mine, _))| {
            let o = if mine == l.a { &l.optic_a } else { &l.optic_b };
            o.as_ref().map(|o| o.value.clone())
        }),
        peer: peer.map(|e| Peer {
            device: lx.m.node_name(e.node).to_owned(),
            port: lx.m.port(e).name.clone(),
        }),
        wan_delay_us: p.link.filter(|_| enabled).and_then(|l| {
            let wan = matches!(lx.m.links[l].kind, crate::resolve::model::LinkKind::Wan(_));
            let km = lx.us_per_km.filter(|_| wan)?;
            // A span with no length and no RTT (an OTN client inside the hall) has none.
            let us = crate::derive::topology::link_latency_us(lx.m, l, km).round() as u64;
            (us > 0).then_some(us)
        }),
        cli: InterfaceCli {
            speed: if enabled || lane1(lx, p) {
                speed_cli(lx, p)
            } else {
                None
            },
            fec: fec_cli,
            inherits_lag,
            dac,
            lanes: lx.f.config_db.as_ref().map(|_| lanes(lx, p)),
        },
    }
}

/// SONiC's `PORT.lanes`: the port's share of its cage's lanes, counted as the catalog's
/// platform port map does. Without a confirmed map the lanes are the contiguous guess
/// and the switch's W0305 says so.
fn lanes(lx: &mut Lx, p: &Port) -> String {
    let s = lx.switch();
    if !s.sonic.as_ref().is_some_and(|h| h.lanes_confirmed) {
        lx.unconfirmed.insert(format!(
            "`PORT.lanes` (no published SONiC port map for `{}` in the catalog: lanes assumed contiguous from 0)",
            s.model.value
        ));
    }
    let first = p.lane.unwrap_or(0);
    let count = p.lanes.map_or(1, |l| l.count.max(1));
    (first..first + count)
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join(",")
}
