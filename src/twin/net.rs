//! The whole show as namespaces: the twin's one Open vSwitch (every switch's bridges and
//! bridged ports), one per switch (its routed side, FRR), one per DTN, the management
//! LAN, and the controller. Links are veth pairs created straight into the two
//! namespaces they join, so nothing of the twin lives in the root namespace.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

use super::build::Build;
use super::cmd::Cmd;
use super::place::{self, Place};
use super::switch::{self, Dirs, Step};
use crate::ir::host::{Host, HostInterface};

/// Names of one twin: everything starts with its show id.
pub(crate) struct Names {
    pub(crate) id: String,
}

impl Names {
    /// A short show id: the show name's letters and digits, at most 8 of them.
    pub(crate) fn new(show: &str) -> Names {
        let mut id: String = show
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(8)
            .collect::<String>()
            .to_lowercase();
        if id.is_empty() {
            id = "twin".into();
        }
        Names { id }
    }

    /// The names of one twin: the show's id and the nonce its `up` drew, so nothing
    /// that exists before `up` can carry them.
    pub(crate) fn with_nonce(show: &str, nonce: &str) -> Names {
        Names {
            id: format!("{}-{nonce}", Names::new(show).id),
        }
    }

    /// The names of the twin a record describes.
    pub(crate) fn recorded(id: &str) -> Names {
        Names { id: id.to_owned() }
    }
    pub(crate) fn switch(&self, name: &str) -> String {
        format!("{}-s-{name}", self.id)
    }
    pub(crate) fn host(&self, name: &str) -> String {
        format!("{}-h-{name}", self.id)
    }
    pub(crate) fn mgmt(&self) -> String {
        format!("{}-mgmt", self.id)
    }
    pub(crate) fn controller(&self) -> String {
        format!("{}-ctl", self.id)
    }
    /// The namespace of the twin's one Open vSwitch.
    pub(crate) fn ovs(&self) -> String {
        format!("{}-ovs", self.id)
    }
    /// Where each switch of `b` lives, by name.
    pub(crate) fn places(&self, b: &Build) -> BTreeMap<String, Place> {
        let mut blocked = super::loops::blocked(b);
        b.switches
            .keys()
            .enumerate()
            .map(|(k, s)| {
                let p = Place {
                    key: place::key(k),
                    ovs: self.ovs(),
                    ns: self.switch(s),
                    blocked: blocked.remove(s).unwrap_or_default(),
                };
                (s.clone(), p)
            })
            .collect()
    }
    /// FRR's pathspace for a switch.
    pub(crate) fn pathspace(&self, name: &str) -> String {
        format!("{}-{name}", self.id)
    }
}

/// A host's local interface name for its port at `index`.
pub(crate) fn host_port(index: usize) -> String {
    format!("eth{index}")
}

/// A switch's daemons' folders: FRR's its own, Open vSwitch's the twin's one.
pub(crate) fn switch_dirs(state: &Path, name: &str) -> Dirs {
    Dirs {
        frr: state.join("switches").join(name).join("frr"),
        ..ovs_dirs(state)
    }
}

/// The folders of the twin's one Open vSwitch.
pub(crate) fn ovs_dirs(state: &Path) -> Dirs {
    Dirs::under(&state.join("ovs"))
}

/// A veth pair made straight into its two namespaces: (name, namespace, MTU) per end.
pub(crate) fn veth(a: (&str, &str, u32), b: (&str, &str, u32)) -> Cmd {
    Cmd::new(&["ip", "link", "add", a.0, "netns", a.1, "mtu"])
        .arg(a.2.to_string())
        .arg("type")
        .arg("veth")
        .arg("peer")
        .arg("name")
        .arg(b.0)
        .arg("netns")
        .arg(b.1)
        .arg("mtu")
        .arg(b.2.to_string())
}

/// Everything `up` does, in order.
pub(crate) struct Plan {
    pub(crate) namespaces: Vec<String>,
    /// Steps with the namespace they run in: links, DTNs, management.
    pub(crate) steps: Vec<Step>,
    /// Each switch's own steps (independent of each other: run side by side).
    pub(crate) switches: Vec<Vec<Step>>,
    pub(crate) pidfiles: Vec<PathBuf>,
    /// What the twin could not build, and why (printed; the tests then fail where it matters).
    pub(crate) notes: Vec<String>,
    /// Where each test controller runs.
    pub(crate) controllers: Vec<(String, String, u16)>,
    /// Each in-band control channel's relay (`relay`): the switch's namespace, the
    /// socket its bridge connects to, the controller's address:port.
    pub(crate) relays: Vec<(String, PathBuf, String)>,
}

fn in_ns(step: Step, ns: &str) -> Step {
    match step {
        Step::Run(c) => Step::Run(c.in_ns(ns)),
        w => w,
    }
}

fn host_ports(h: &Host) -> BTreeMap<&str, (String, &HostInterface)> {
    h.interfaces
        .iter()
        .enumerate()
        .map(|(k, i)| (i.port.as_str(), (host_port(k), i)))
        .collect()
}

/// `tc` delaying everything `dev` sends by `us` microseconds (sch_netem).
pub(crate) fn netem(dev: &str, us: u64) -> Cmd {
    Cmd::new(&[
        "tc", "qdisc", "replace", "dev", dev, "root", "netem", "delay",
    ])
    .arg(format!("{us}us"))
    // netem's default queue of 1000 packets would drop a long fat pipe's window.
    .arg("limit")
    .arg("1000000")
}

/// One end of a cable in the twin: the device and canonical port it is, and the
/// interface that stands for it (its namespace and local name).
#[derive(Debug, Clone)]
pub(crate) struct End {
    pub(crate) device: String,
    pub(crate) port: String,
    pub(crate) ns: String,
    pub(crate) dev: String,
    pub(crate) mtu: u32,
    /// The port's declared speed (a switch's; a DTN's port has none in the IR).
    pub(crate) speed_mbps: Option<u64>,
}

/// A cable of the show as the twin makes it: a veth pair. `a` is a switch's port, `b`
/// a DTN's or another switch's.
#[derive(Debug, Clone)]
pub(crate) struct Cable {
    pub(crate) a: End,
    pub(crate) b: End,
    /// The one-way latency of a WAN link (`up --delay`).
    pub(crate) wan_delay_us: Option<u64>,
}

impl Cable {
    /// What the cable carries each way: the slower of its declared ends.
    pub(crate) fn speed_mbps(&self) -> Option<u64> {
        match (self.a.speed_mbps, self.b.speed_mbps) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        }
    }
}

/// Every cable the twin makes (each switch port to its peer, once: from the switch side
/// for DTNs, from the smaller (switch, port) between switches), and what it cannot make.
pub(crate) fn cables(b: &Build, n: &Names) -> (Vec<Cable>, Vec<String>) {
    let places = n.places(b);
    // Where a switch's port is: the Open vSwitch's namespace when bridged, else the switch's.
    let port_ns = |sw: &crate::ir::Switch, i: &crate::ir::interface::Interface| {
        if place::bridged(sw, i) {
            n.ovs()
        } else {
            n.switch(&sw.hostname)
        }
    };
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (sname, sw) in &b.switches {
        let here = &places[sname];
        for (port, (local, i)) in switch::ports_at(sw, switch::Site::Twin(here)) {
            let Some(peer) = &i.peer else { continue };
            let far = if let Some(h) = b.hosts.get(&peer.device) {
                let hp = host_ports(h);
                let Some((pl, hi)) = hp.get(peer.port.as_str()) else {
                    notes.push(format!(
                        "`{sname}` {port}: host `{}` has no port `{}`",
                        peer.device, peer.port
                    ));
                    continue;
                };
                End {
                    device: h.name.clone(),
                    port: peer.port.clone(),
                    ns: n.host(&h.name),
                    dev: pl.clone(),
                    mtu: hi.mtu,
                    speed_mbps: None,
                }
            } else if let Some(ps) = b.switches.get(&peer.device) {
                if (peer.device.as_str(), peer.port.as_str()) < (sname.as_str(), port) {
                    continue;
                }
                let pp = switch::ports_at(ps, switch::Site::Twin(&places[&ps.hostname]));
                let Some((pl, pi)) = pp.get(peer.port.as_str()) else {
                    notes.push(format!(
                        "`{sname}` {port}: `{}` port `{}` is not cabled back",
                        peer.device, peer.port
                    ));
                    continue;
                };
                End {
                    device: ps.hostname.clone(),
                    port: peer.port.clone(),
                    ns: port_ns(ps, pi),
                    dev: pl.clone(),
                    mtu: switch::ip_mtu(pi),
                    speed_mbps: Some(pi.speed_mbps),
                }
            } else {
                notes.push(format!(
                    "`{sname}` {port}: peer `{}` is not in the build",
                    peer.device
                ));
                continue;
            };
            out.push(Cable {
                a: End {
                    device: sname.clone(),
                    port: port.to_owned(),
                    ns: port_ns(sw, i),
                    dev: local,
                    mtu: switch::ip_mtu(i),
                    speed_mbps: Some(i.speed_mbps),
                },
                b: far,
                wan_delay_us: i.wan_delay_us,
            });
        }
    }
    (out, notes)
}

/// Everything `up` does; `delay`: WAN links delayed by their latency (`up --delay`).
pub(crate) fn plan(b: &Build, n: &Names, state: &Path, openflow_dir: &Path, delay: bool) -> Plan {
    let mut p = Plan {
        namespaces: Vec::new(),
        steps: Vec::new(),
        switches: Vec::new(),
        pidfiles: Vec::new(),
        notes: Vec::new(),
        controllers: Vec::new(),
        relays: Vec::new(),
    };
    p.namespaces.push(n.ovs());
    for s in b.switches.keys() {
        p.namespaces.push(n.switch(s));
    }
    let places = n.places(b);
    for h in b.hosts.keys() {
        p.namespaces.push(n.host(h));
    }
    p.namespaces.push(n.mgmt());
    p.namespaces.push(n.controller());
    let run = |p: &mut Plan, c: Cmd| p.steps.push(Step::Run(c));
    let (cables, notes) = cables(b, n);
    p.notes.extend(notes);
    // Host ports a link reaches (the others have no interface in the twin).
    let mut cabled: BTreeSet<(String, String)> = cables
        .iter()
        .filter(|c| b.hosts.contains_key(&c.b.device))
        .map(|c| (c.b.device.clone(), c.b.port.clone()))
        .collect();
    for c in &cables {
        run(
            &mut p,
            veth((&c.a.dev, &c.a.ns, c.a.mtu), (&c.b.dev, &c.b.ns, c.b.mtu)),
        );
        // A WAN link's latency: each end delays what it sends by the one-way figure,
        // so a round trip takes the RTT the plan has.
        if let (true, Some(us)) = (delay, c.wan_delay_us) {
            for end in [&c.a, &c.b] {
                run(&mut p, netem(&end.dev, us).in_ns(&end.ns));
            }
        }
    }
    // Hosts cabled back to back: one cable between their namespaces, made from the end
    // whose (host, port) sorts first.
    for h in b.hosts.values() {
        for (port, (local, i)) in host_ports(h) {
            let Some(d) = &i.direct else { continue };
            if (d.host.as_str(), d.port.as_str()) < (h.name.as_str(), port) {
                continue;
            }
            let Some((peer_local, pi)) = b
                .hosts
                .get(&d.host)
                .and_then(|ph| host_ports(ph).remove(d.port.as_str()))
            else {
                p.notes.push(format!(
                    "DTN `{}` {port}: peer `{}` port `{}` is not in the build",
                    h.name, d.host, d.port
                ));
                continue;
            };
            cabled.insert((h.name.clone(), port.to_owned()));
            cabled.insert((d.host.clone(), d.port.clone()));
            run(
                &mut p,
                veth(
                    (&local, &n.host(&h.name), i.mtu),
                    (&peer_local, &n.host(&d.host), pi.mtu),
                ),
            );
        }
    }
    // DTNs: what the host script sets (addresses, MTU, routes), checksum offload off.
    for h in b.hosts.values() {
        let ns = n.host(&h.name);
        run(
            &mut p,
            Cmd::new(&["ip", "link", "set", "lo", "up"]).in_ns(&ns),
        );
        // Checksum offload off last, so the DTN's `ip` commands run as one batch.
        let mut offload = Vec::new();
        for (port, (local, i)) in host_ports(h) {
            if !cabled.contains(&(h.name.clone(), port.to_owned())) {
                p.notes.push(format!(
                    "DTN `{}` port `{port}` is not cabled: the twin leaves it out",
                    h.name
                ));
                continue;
            }
            let local = &local;
            // A bond's member carries no address: the bond does (below).
            let bonded = h.bonds.iter().any(|b| b.ports.iter().any(|x| x == port));
            if let (Some(a), false) = (&i.address, bonded) {
                run(
                    &mut p,
                    Cmd::new(&["ip", "addr", "add", a, "dev", local]).in_ns(&ns),
                );
            }
            // The MAC the peers hold as a static neighbour, as `tune` sets it.
            if let Some(mac) = &i.mac {
                run(
                    &mut p,
                    Cmd::new(&["ip", "link", "set", local, "address", mac]).in_ns(&ns),
                );
            }
            run(
                &mut p,
                Cmd::new(&["ip", "link", "set", local, "mtu"])
                    .arg(i.mtu.to_string())
                    .arg("up")
                    .in_ns(&ns),
            );
            offload.push(Cmd::new(&["ethtool", "-K", local, "tx", "off"]).in_ns(&ns));
        }
        if !h.bonds.is_empty() {
            let d = super::bond::dirs(state, &h.name);
            p.pidfiles.extend(d.pidfiles());
            let ports = host_ports(h);
            let member = |port: &str| {
                cabled
                    .contains(&(h.name.clone(), port.to_owned()))
                    .then(|| ports.get(port).map(|(l, _)| l.clone()))
                    .flatten()
            };
            for st in super::bond::steps(&h.bonds, &d, member) {
                p.steps.push(in_ns(st, &ns));
            }
        }
        for r in &h.routes {
            run(
                &mut p,
                Cmd::new(&["ip", "route", "replace", &r.prefix, "via", &r.next_hop]).in_ns(&ns),
            );
        }
        // Static neighbours, as `tune` sets them: without them a pair whose ARP the path
        // cannot carry (an FTOS OpenFlow port) fails here as it would at the show.
        let ports = host_ports(h);
        for nb in &h.neighbors {
            let dev = match h.interfaces.iter().find(|i| i.port == nb.port) {
                Some(i) if i.lag.is_some() => i.lag.map(|id| format!("bond{id}")),
                _ => ports.get(nb.port.as_str()).map(|(l, _)| l.clone()),
            };
            let Some(dev) = dev else { continue };
            run(
                &mut p,
                Cmd::new(&[
                    "ip",
                    "neigh",
                    "replace",
                    &nb.address,
                    "lladdr",
                    &nb.mac,
                    "dev",
                ])
                .arg(dev)
                .arg("nud")
                .arg("permanent")
                .in_ns(&ns),
            );
        }
        for c in offload {
            run(&mut p, c);
        }
    }
    management(b, n, &mut p);
    // The one Open vSwitch, once every port is there; then the switches' bridges.
    let ovs = ovs_dirs(state);
    if !b.switches.is_empty() {
        run(
            &mut p,
            Cmd::new(&["ip", "link", "set", "lo", "up"]).in_ns(&n.ovs()),
        );
        let mut daemons = Vec::new();
        switch::ovs_daemons(&mut daemons, &ovs);
        p.steps
            .extend(daemons.into_iter().map(|st| in_ns(st, &n.ovs())));
        p.pidfiles.extend(ovs.ovs_pidfiles());
    }
    for (sname, sw) in &b.switches {
        let d = switch_dirs(state, sname);
        let rules = openflow_dir.join(format!("{sname}.flows"));
        let rules = rules.is_file().then_some(rules);
        if sw.openflow.is_some() && rules.is_none() {
            p.notes.push(format!("`{sname}`: no openflow/{sname}.flows in the build: its OpenFlow ports forward nothing"));
        }
        p.pidfiles.extend(d.frr_pidfiles());
        if let Some(of) = sw.openflow.as_ref().filter(|_| super::relay::inband(sw)) {
            p.relays.push((
                n.switch(sname),
                super::relay::socket(&d, &places[sname]),
                format!("{}:{}", of.controller.address, of.controller.port),
            ));
        }
        let mut steps = switch::steps(
            sw,
            switch::Site::Twin(&places[sname]),
            &d,
            rules.as_deref(),
            &n.pathspace(sname),
        );
        if let Some(shipped) = b.frr.get(sname) {
            super::shipped::use_shipped(&mut steps, sw, shipped);
        }
        p.switches.push(steps);
    }
    p
}

/// The management LAN (a Linux bridge in its own namespace, with the gateway address
/// when the IR gives one) with every switch's management port on it, and the
/// controller's namespace holding the controller's address.
fn management(b: &Build, n: &Names, p: &mut Plan) {
    let mg = n.mgmt();
    let run = |p: &mut Plan, c: Cmd| p.steps.push(Step::Run(c));
    run(p, Cmd::new(&["ip", "link", "set", "lo", "up"]).in_ns(&mg));
    run(
        p,
        Cmd::new(&["ip", "link", "add", "br0", "type", "bridge"]).in_ns(&mg),
    );
    run(p, Cmd::new(&["ip", "link", "set", "br0", "up"]).in_ns(&mg));
    run(
        p,
        Cmd::new(&["sysctl", "-q", "-w", "net.ipv4.ip_forward=1"]).in_ns(&mg),
    );
    let mut gateways: Vec<String> = Vec::new();
    let mut subnets: Vec<String> = Vec::new();
    // Every switch's management port is the one Open vSwitch's `mgmt0`, which opens the
    // switches' control channels: it holds each switch's management address, and a
    // routing table per switch, chosen by that source address (each bridge's controller
    // connects from its switch's, `local_ip`), holds only what the switch's management
    // port would route: its subnet and the route to the controller via its gateway.
    let ovs = n.ovs();
    let mut addresses: Vec<&str> = Vec::new();
    for (k, sw) in b.switches.values().enumerate() {
        let Some(m) = &sw.management else { continue };
        if addresses.is_empty() {
            run(
                p,
                Cmd::new(&[
                    "ip", "link", "add", "mgmt0", "netns", &ovs, "type", "veth", "peer", "name",
                    "ovs", "netns", &mg,
                ]),
            );
            run(
                p,
                Cmd::new(&["ip", "link", "set", "ovs", "master", "br0", "up"]).in_ns(&mg),
            );
            run(
                p,
                Cmd::new(&["ip", "link", "set", "mgmt0", "up"]).in_ns(&ovs),
            );
        }
        if addresses.contains(&m.address.address.as_str()) {
            continue;
        }
        addresses.push(&m.address.address);
        run(
            p,
            Cmd::new(&["ip", "addr", "add", &m.address.cidr, "dev", "mgmt0"]).in_ns(&ovs),
        );
        let table = (1000 + k).to_string();
        if let Some(net) = network(&m.address.cidr) {
            run(
                p,
                Cmd::new(&["ip", "route", "replace", &net, "dev", "mgmt0", "src"])
                    .arg(m.address.address.clone())
                    .arg("table")
                    .arg(table.clone())
                    .in_ns(&ovs),
            );
        }
        run(
            p,
            Cmd::new(&[
                "ip",
                "route",
                "replace",
                "unreachable",
                "default",
                "table",
                &table,
            ])
            .in_ns(&ovs),
        );
        run(
            p,
            Cmd::new(&[
                "ip",
                "rule",
                "add",
                "from",
                &m.address.address,
                "table",
                &table,
            ])
            .arg("priority")
            .arg(table.clone())
            .in_ns(&ovs),
        );
        if let Some(of) = &sw.openflow
            && let Some(gw) = &m.gateway
        {
            // The management route to the controller (the switch's management VRF route).
            run(
                p,
                Cmd::new(&[
                    "ip",
                    "route",
                    "replace",
                    &format!("{}/32", of.controller.address),
                    "via",
                    gw,
                    "dev",
                    "mgmt0",
                    "table",
                    &table,
                ])
                .in_ns(&ovs),
            );
            let len = m.address.cidr.rsplit_once('/').map_or("24", |(_, l)| l);
            let g = format!("{gw}/{len}");
            if !gateways.contains(&g) {
                gateways.push(g);
            }
        }
        if let Some(net) = network(&m.address.cidr)
            && !subnets.contains(&net)
        {
            subnets.push(net);
        }
    }
    for g in &gateways {
        run(
            p,
            Cmd::new(&["ip", "addr", "add", g, "dev", "br0"]).in_ns(&mg),
        );
    }
    // The controller(s) the switches name, on the management LAN.
    let mut ctls: Vec<(String, u16)> = b
        .switches
        .values()
        .filter_map(|s| s.openflow.as_ref())
        .map(|o| (o.controller.address.clone(), o.controller.port))
        .collect();
    ctls.sort();
    ctls.dedup();
    let ct = n.controller();
    run(p, Cmd::new(&["ip", "link", "set", "lo", "up"]).in_ns(&ct));
    if ctls.is_empty() {
        return;
    }
    run(
        p,
        Cmd::new(&[
            "ip", "link", "add", "c0", "netns", &ct, "type", "veth", "peer", "name", "ctl",
            "netns", &mg,
        ]),
    );
    run(
        p,
        Cmd::new(&["ip", "link", "set", "ctl", "master", "br0", "up"]).in_ns(&mg),
    );
    run(p, Cmd::new(&["ip", "link", "set", "c0", "up"]).in_ns(&ct));
    for (addr, port) in &ctls {
        // On the management subnet when it is in one; else a host address of its own,
        // reached only through the gateway.
        let inside = subnets.iter().find(|s| contains(s, addr));
        let cidr = inside.map_or(format!("{addr}/32"), |s| {
            format!("{addr}/{}", s.rsplit_once('/').map_or("32", |x| x.1))
        });
        run(
            p,
            Cmd::new(&["ip", "addr", "add", &cidr, "dev", "c0"]).in_ns(&ct),
        );
        p.controllers.push((ct.clone(), addr.clone(), *port));
        // A DTN that holds the controller's address runs it too (an in-band controller).
        for h in b.hosts.values() {
            if h.interfaces.iter().any(|i| {
                i.address.as_deref().and_then(|a| a.split('/').next()) == Some(addr.as_str())
            }) {
                p.controllers.push((n.host(&h.name), addr.clone(), *port));
            }
        }
    }
    for s in &subnets {
        run(
            p,
            Cmd::new(&["ip", "route", "replace", s, "dev", "c0"]).in_ns(&ct),
        );
    }
    for g in &gateways {
        let gw = g.split('/').next().unwrap_or_default();
        run(
            p,
            Cmd::new(&["ip", "route", "replace", "default", "via", gw, "dev", "c0"]).in_ns(&ct),
        );
        for (addr, _) in &ctls {
            run(
                p,
                Cmd::new(&[
                    "ip",
                    "route",
                    "replace",
                    &format!("{addr}/32"),
                    "dev",
                    "br0",
                ])
                .in_ns(&mg),
            );
        }
    }
}

fn parse(cidr: &str) -> Option<(u32, u8)> {
    let (a, l) = cidr.split_once('/').unwrap_or((cidr, "32"));
    let a: Ipv4Addr = a.parse().ok()?;
    let l: u8 = l.parse().ok().filter(|l| *l <= 32)?;
    Some((u32::from(a), l))
}

fn mask(l: u8) -> u32 {
    if l == 0 { 0 } else { u32::MAX << (32 - l) }
}

/// `10.0.0.0/24` for `10.0.0.7/24`.
pub(crate) fn network(cidr: &str) -> Option<String> {
    let (a, l) = parse(cidr)?;
    Some(format!("{}/{l}", Ipv4Addr::from(a & mask(l))))
}

pub(crate) fn contains(net: &str, addr: &str) -> bool {
    match (parse(net), parse(addr)) {
        (Some((n, l)), Some((a, _))) => a & mask(l) == n & mask(l),
        _ => false,
    }
}
