//! Deploying a split lab (`democ lab split`): `lab up --on HOST` deploys the part for
//! this machine; `lab up --side-by-side` deploys every part here, each as its own
//! containerlab lab in a network namespace of its own that stands for its machine.
//!
//! Why namespaces: containerlab makes a `vxlan` link's device in the namespace it runs
//! in (links/link_vxlan.go), and Linux allows one VXLAN device per VNI and UDP port in a
//! namespace ("A VXLAN device with the specified VNI already exists"), so both ends of a
//! tunnel cannot live in one. Each part's containerlab runs in its own namespace holding
//! the part's lab-host address; a bridge in one more namespace joins them, as a switch
//! joins real machines. The containers' management network is shared (democ makes it
//! before the parts, since containerlab inside a namespace cannot read Docker's bridge
//! to create it), so test controllers reach every part.

use std::path::Path;

use super::record::{PartRecord, Record};
use super::split::{Split, VXLAN_OVERHEAD};
use crate::build_dir::BuildDir;
use crate::ir::lab::{PartLink, Topology};
use crate::twin::cmd::Cmd;

/// Which parts `lab up` deploys here.
pub(crate) enum Place {
    /// The part of this lab host.
    On(String),
    /// Every part, each in its own namespace.
    SideBySide,
}

/// The parts to deploy, in the split's order.
pub(crate) fn chosen<'a>(split: &'a Split, place: &Place) -> Vec<(usize, &'a super::split::Part)> {
    split
        .hosts
        .iter()
        .enumerate()
        .filter(|(_, p)| match place {
            Place::On(h) => &p.host == h,
            Place::SideBySide => true,
        })
        .collect()
}

/// Writes each chosen part's private copy (lab name `<id>-<host>`, the shared
/// management network) and its record.
pub(crate) fn copies(
    dir: &BuildDir,
    split: &Split,
    place: &Place,
    id: &str,
    network: &str,
    to: &Path,
    keep_exec: &dyn Fn(&str) -> bool,
) -> Result<Vec<PartRecord>, String> {
    let mut out = Vec::new();
    for (_, p) in chosen(split, place) {
        let mut t: Topology<PartLink> = super::copy::read_at(dir, &p.topology)?;
        t.name = format!("{id}-{}", p.host);
        match &mut t.mgmt {
            Some(m) => m.network = network.to_owned(),
            // Side by side the parts share the network democ makes (`network`); a show
            // without a management pool gets Docker's choice of subnet.
            None if matches!(place, Place::SideBySide) => {
                t.mgmt = Some(crate::ir::lab::Mgmt {
                    network: network.to_owned(),
                    ipv4_subnet: "auto".into(),
                    ipv4_gw: None,
                });
            }
            None => {}
        }
        let topology = super::copy::make(dir, &p.topology, &mut t, to, keep_exec)?;
        out.push(PartRecord {
            host: p.host.clone(),
            id: t.name.clone(),
            topology,
            nodes: t.topology.nodes.keys().cloned().collect(),
            netns: None,
        });
    }
    Ok(out)
}

fn ip(args: &[&str]) -> Result<String, String> {
    Cmd::new(&["ip"]).args(args).run()
}

/// The underlay of a side-by-side split: a namespace per part holding its host's
/// address, joined by a bridge in namespace `<prefix>ul`, every interface carrying the
/// tunnels' MTU plus VXLAN's 50 bytes. Namespaces are recorded before they are made.
pub(crate) fn underlay(
    split: &Split,
    nonce: &str,
    rec: &mut Record,
    state: &Path,
) -> Result<(), String> {
    let prefix = format!("democ-vx-{nonce}-");
    let hub = format!("{prefix}ul");
    let mtu = (split.mtu + VXLAN_OVERHEAD).to_string();
    rec.underlay.push(hub.clone());
    for (i, part) in rec.parts.iter_mut().enumerate() {
        let ns = format!("{prefix}{i}");
        part.netns = Some(ns.clone());
        rec.underlay.push(ns);
    }
    rec.save(state)?;
    ip(&["netns", "add", &hub])?;
    ip(&[
        "-n", &hub, "link", "add", "ul", "mtu", &mtu, "type", "bridge",
    ])?;
    ip(&["-n", &hub, "link", "set", "ul", "up"])?;
    for (i, part) in rec.parts.iter().enumerate() {
        let ns = part.netns.as_deref().unwrap_or_default();
        let port = format!("p{i}");
        ip(&["netns", "add", ns])?;
        ip(&[
            "-n", &hub, "link", "add", &port, "mtu", &mtu, "type", "veth", "peer", "name", "ul",
            "netns", ns,
        ])?;
        ip(&["-n", &hub, "link", "set", &port, "master", "ul", "up"])?;
        ip(&["-n", ns, "link", "set", "lo", "up"])?;
        ip(&["-n", ns, "link", "set", "ul", "mtu", &mtu, "up"])?;
        let host = split
            .hosts
            .iter()
            .find(|h| h.host == part.host)
            .ok_or_else(|| format!("the split has no host `{}`", part.host))?;
        let len = |a: &str| if a.contains(':') { "128" } else { "32" };
        ip(&[
            "-n",
            ns,
            "addr",
            "add",
            &format!("{}/{}", host.address, len(&host.address)),
            "dev",
            "ul",
        ])?;
        for other in split.hosts.iter().filter(|h| h.host != part.host) {
            let to = format!("{}/{}", other.address, len(&other.address));
            ip(&["-n", ns, "route", "add", &to, "dev", "ul"])?;
        }
    }
    Ok(())
}

/// Makes the shared management network of a side-by-side split as the topology names
/// it (subnet and gateway; Docker's choice without a management pool). containerlab
/// reads the gateway from Docker when it cannot see the bridge from a namespace.
pub(crate) fn network(topo: &Topology, network: &str) -> Result<(), String> {
    let mut c = Cmd::new(&["docker", "network", "create"]);
    if let Some(m) = &topo.mgmt {
        c = c.arg("--subnet").arg(m.ipv4_subnet.clone());
        if let Some(gw) = &m.ipv4_gw {
            c = c.arg("--gateway").arg(gw.clone());
        }
    }
    c.arg(network).run().map(|_| ())
}

/// Removes what `underlay` and `network` made; what could not be removed.
pub(crate) fn remove(rec: &Record) -> Vec<String> {
    let mut left = Vec::new();
    if rec.own_network
        && Cmd::new(&["docker", "network", "inspect", &rec.network])
            .try_run()
            .0
        && let Err(e) = Cmd::new(&["docker", "network", "rm", &rec.network]).run()
    {
        left.push(format!("Docker network {}: {e}", rec.network));
    }
    let present = crate::twin::state::namespaces();
    for ns in rec.underlay.iter().filter(|ns| present.contains(ns)) {
        if let Err(e) = ip(&["netns", "del", ns]) {
            left.push(format!("namespace {ns}: {e}"));
        }
    }
    left
}
