//! One switch emulated from its IR: Open vSwitch bridges (userspace datapath), `l2` for
//! the legacy ports (VLAN-aware NORMAL forwarding, LAGs as bonds, SVIs) and `of` for the
//! OpenFlow ports (only the switch's ruleset forwards: `fail_mode=secure`); the kernel
//! routes between routed ports and SVIs, with the IR's static routes, and FRR's zebra
//! and bgpd run the IR's BGP. The steps are data: the twin runs them (the bridges in its
//! one Open vSwitch, the routed side in the switch's namespace: `place`), `democ twin
//! script` prints them, and a lab container runs them with an Open vSwitch of its own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::cmd::{At, Cmd};
use super::place::{Place, bridged};
use crate::ir::Switch;
use crate::ir::interface::{Interface, Lacp, Mode, Switching};
use crate::ir::routing::Bgp;

/// One step of bringing a switch up.
#[derive(Debug, Clone)]
pub(crate) enum Step {
    Run(Cmd),
    /// Write a file (configs the daemons read).
    Write {
        path: PathBuf,
        text: String,
    },
}

/// The local (in-namespace) name of the switch's interface at `index` in its IR.
pub(crate) fn port_name(index: usize) -> String {
    format!("p{index}")
}

/// Where the steps run, which names the switch's ports there.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Site<'a> {
    /// The twin: bridges and bridged ports in its one Open vSwitch, named with the
    /// switch's key; routed ports (`p<index>`), SVIs and FRR in the switch's namespace.
    Twin(&'a Place),
    /// A lab container (lab/<show>.clab.yml): the interface the topology wires to each
    /// canonical port; a port it does not wire is not there. The container runs its own
    /// Open vSwitch, so names need no prefix.
    Lab(&'a BTreeMap<String, String>),
}

impl Site<'_> {
    /// Where bridge commands and bridged ports' commands run.
    fn fabric(self) -> Option<At> {
        match self {
            Site::Twin(p) => Some(At::Netns(p.ovs.clone())),
            Site::Lab(_) => None,
        }
    }

    /// Where the switch's routed side runs.
    fn own(self) -> Option<At> {
        match self {
            Site::Twin(p) => Some(At::Netns(p.ns.clone())),
            Site::Lab(_) => None,
        }
    }

    /// A bridge or OVS port name: in the twin's shared Open vSwitch, the switch's key
    /// first.
    pub(crate) fn name(self, local: &str) -> String {
        match self {
            Site::Twin(p) => format!("{}{local}", p.key),
            Site::Lab(_) => local.to_owned(),
        }
    }
}

/// The name of a switch's OpenFlow bridge at `site`.
pub(crate) fn of_bridge_name(site: Site) -> String {
    site.name("of")
}

/// The switch's cabled, enabled interfaces by canonical port, with their names at `site`
/// (in the twin: `p<index>` in the switch's namespace, `<key>p<index>` when bridged).
pub(crate) fn ports_at<'a>(
    sw: &'a Switch,
    site: Site,
) -> BTreeMap<&'a str, (String, &'a Interface)> {
    sw.interfaces
        .iter()
        .enumerate()
        .filter(|(_, i)| i.enabled && i.peer.is_some())
        .filter_map(|(k, i)| {
            let local = match site {
                Site::Twin(p) if bridged(sw, i) => Some(format!("{}{}", p.key, port_name(k))),
                Site::Twin(_) => Some(port_name(k)),
                Site::Lab(wired) => wired.get(&i.port).cloned(),
            };
            local.map(|l| (i.port.as_str(), (l, i)))
        })
        .collect()
}

/// The IP MTU a port lets through (a veth's MTU; the kernel lets a VLAN tag ride on
/// top, as the port's frame size does): the IR's, else Ethernet's 1500.
pub(crate) fn ip_mtu(i: &Interface) -> u32 {
    i.mtu.map_or(1500, |m| m.ip)
}

/// Private folders of a switch's daemons (in the twin, `run`, `db` and `log` are the
/// shared Open vSwitch's).
pub(crate) struct Dirs {
    pub(crate) run: PathBuf,
    pub(crate) db: PathBuf,
    pub(crate) log: PathBuf,
    pub(crate) frr: PathBuf,
}

impl Dirs {
    pub(crate) fn under(root: &Path) -> Dirs {
        Dirs {
            run: root.join("run"),
            db: root.join("db"),
            log: root.join("log"),
            frr: root.join("frr"),
        }
    }

    pub(crate) fn env(&self) -> Vec<(String, String)> {
        vec![
            ("OVS_RUNDIR".into(), self.run.display().to_string()),
            ("OVS_DBDIR".into(), self.db.display().to_string()),
            ("OVS_LOGDIR".into(), self.log.display().to_string()),
        ]
    }

    pub(crate) fn db_sock(&self) -> String {
        format!("unix:{}", self.run.join("db.sock").display())
    }

    /// Pidfiles of every daemon this switch may start, in the order to stop them.
    pub(crate) fn pidfiles(&self) -> Vec<PathBuf> {
        let mut p = self.frr_pidfiles();
        p.extend(self.ovs_pidfiles());
        p
    }

    /// Pidfiles of FRR's daemons.
    pub(crate) fn frr_pidfiles(&self) -> Vec<PathBuf> {
        vec![self.frr.join("bgpd.pid"), self.frr.join("zebra.pid")]
    }

    /// Pidfiles of Open vSwitch's daemons, in the order to stop them.
    pub(crate) fn ovs_pidfiles(&self) -> Vec<PathBuf> {
        vec![
            self.run.join("ovs-vswitchd.pid"),
            self.run.join("ovsdb-server.pid"),
        ]
    }
}

/// `ovs-vsctl` against this switch's database.
pub(crate) fn vsctl(d: &Dirs) -> Cmd {
    Cmd::new(&["ovs-vsctl", "--timeout=10"]).arg(format!("--db={}", d.db_sock()))
}

/// `ovs-ofctl -O <the switch's version>` with this switch's run folder.
pub(crate) fn ofctl(d: &Dirs, sw: &Switch) -> Cmd {
    let version = sw.openflow.as_ref().map_or("1.3", |o| o.version.as_str());
    Cmd::new(&["ovs-ofctl", "-O"])
        .arg(crate::rulesets::ofctl::protocol(version))
        .with_env(&d.env())
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// A switch's steps at `site`. `ruleset`: its `openflow/<switch>.flows`, when the build
/// has one (without it, the OpenFlow ports forward nothing, as on a switch no controller
/// programmed). In a lab container they start the switch's own Open vSwitch; in the
/// twin its bridges join the twin's one, which `twin up` starts first.
pub(crate) fn steps(
    sw: &Switch,
    site: Site,
    d: &Dirs,
    ruleset: Option<&Path>,
    pathspace: &str,
) -> Vec<Step> {
    let mut s = Vec::new();
    let own = |s: &mut Vec<Step>, c: Cmd| s.push(Step::Run(c.at(site.own())));
    own(&mut s, Cmd::new(&["ip", "link", "set", "lo", "up"]));
    own(
        &mut s,
        Cmd::new(&["sysctl", "-q", "-w", "net.ipv4.ip_forward=1"]),
    );
    let ports = ports_at(sw, site);
    let by_name: BTreeMap<&str, &str> = ports
        .values()
        .map(|(local, i)| (i.name.as_str(), local.as_str()))
        .collect();
    for (local, i) in ports.values() {
        let at = match site {
            Site::Twin(_) if bridged(sw, i) => site.fabric(),
            _ => site.own(),
        };
        s.push(Step::Run(
            Cmd::new(&["ip", "link", "set", local, "mtu"])
                .arg(ip_mtu(i).to_string())
                .arg("up")
                .at(at.clone()),
        ));
        // The userspace datapath drops TCP whose checksum the sender left to offload.
        s.push(Step::Run(
            Cmd::new(&["ethtool", "-K", local, "tx", "off"]).at(at),
        ));
    }
    let bridged_l2 = ports.values().any(|(_, i)| {
        !i.openflow()
            && (i.lag.is_some() || matches!(i.switching.mode, Some(Mode::Access | Mode::Trunk)))
    }) || sw.vlans.iter().any(|v| v.l3.is_some());
    // A switch with OpenFlow configured talks to its controller even when none of its
    // ports is under the controller (yet).
    let of = sw.openflow.is_some();
    if (bridged_l2 || of) && matches!(site, Site::Lab(_)) {
        ovs_daemons(&mut s, d);
    }
    if bridged_l2 {
        l2_bridge(&mut s, sw, site, d, &ports, &by_name);
    }
    if of {
        of_bridge(&mut s, sw, site, d, &ports, &by_name, ruleset);
    }
    for (local, i) in ports.values() {
        if let (Some(Mode::Routed) | None, Some(ip), None) =
            (i.switching.mode, &i.switching.ipv4, &i.lag)
        {
            own(
                &mut s,
                Cmd::new(&["ip", "addr", "add", &ip.cidr, "dev", local]),
            );
        }
    }
    for r in &sw.static_routes {
        own(
            &mut s,
            Cmd::new(&["ip", "route", "replace", &r.prefix, "via", &r.next_hop]),
        );
    }
    if let Some(bgp) = &sw.bgp {
        frr(&mut s, sw, bgp, d, pathspace, site.own());
    }
    s
}

pub(crate) fn ovs_daemons(s: &mut Vec<Step>, d: &Dirs) {
    let env = d.env();
    let run = |s: &mut Vec<Step>, c: Cmd| s.push(Step::Run(c.with_env(&env)));
    run(
        s,
        Cmd::new(&["mkdir", "-p", &path(&d.run), &path(&d.db), &path(&d.log)]),
    );
    run(
        s,
        Cmd::new(&["ovsdb-tool", "create", &path(&d.db.join("conf.db"))])
            .arg("/usr/share/openvswitch/vswitch.ovsschema"),
    );
    run(
        s,
        detached(
            Cmd::new(&["ovsdb-server", &path(&d.db.join("conf.db"))])
                .arg(format!("--remote=punix:{}", path(&d.run.join("db.sock")))),
            d,
            "ovsdb-server",
        ),
    );
    run(s, vsctl(d).arg("--no-wait").arg("init"));
    run(
        s,
        detached(Cmd::new(&["ovs-vswitchd", &d.db_sock()]), d, "ovs-vswitchd"),
    );
}

/// An OVS daemon detached, with its pid file and control socket in the switch's run
/// folder and its log in its log folder (private to the twin, removed by `down`).
fn detached(cmd: Cmd, d: &Dirs, name: &str) -> Cmd {
    cmd.arg(format!(
        "--pidfile={}",
        path(&d.run.join(format!("{name}.pid")))
    ))
    .arg(format!(
        "--unixctl={}",
        path(&d.run.join(format!("{name}.ctl")))
    ))
    .arg(format!(
        "--log-file={}",
        path(&d.log.join(format!("{name}.log")))
    ))
    .arg("--detach")
}

/// `tag`, `trunks` and `vlan_mode` for an access or trunk port.
fn vlan_args(sw: &Switching) -> Vec<String> {
    let list = |v: &[u16]| v.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
    match sw.mode {
        Some(Mode::Access) => sw
            .access_vlan
            .map_or(Vec::new(), |v| vec![format!("tag={v}")]),
        Some(Mode::Trunk) => {
            let mut a = vec![format!("trunks={}", list(&sw.trunk_vlans))];
            match sw.native_vlan {
                Some(n) => a.extend([format!("tag={n}"), "vlan_mode=native-untagged".into()]),
                None => a.push("vlan_mode=trunk".into()),
            }
            a
        }
        _ => Vec::new(),
    }
}

fn lacp_args(lacp: Lacp) -> Vec<String> {
    let l = match lacp {
        Lacp::Active => "active",
        Lacp::Passive => "passive",
        Lacp::Static => "off",
    };
    vec![format!("lacp={l}"), "bond_mode=balance-slb".into()]
}

/// `ovs-vsctl add-br NAME` on the userspace datapath, with `extra` bridge settings.
fn bridge_cmd(d: &Dirs, name: &str, extra: &[String]) -> Cmd {
    let mut c = vsctl(d)
        .arg("add-br")
        .arg(name)
        .arg("--")
        .arg("set")
        .arg("bridge")
        .arg(name)
        .arg("datapath_type=netdev");
    for e in extra {
        c = c.arg(e.clone());
    }
    c
}

pub(crate) fn add_bridge(s: &mut Vec<Step>, d: &Dirs, name: &str, extra: &[String]) {
    s.push(Step::Run(bridge_cmd(d, name, extra)));
}

fn l2_bridge(
    s: &mut Vec<Step>,
    sw: &Switch,
    site: Site,
    d: &Dirs,
    ports: &BTreeMap<&str, (String, &Interface)>,
    by_name: &BTreeMap<&str, &str>,
) {
    let l2 = site.name("l2");
    let fab = |s: &mut Vec<Step>, c: Cmd| s.push(Step::Run(c.at(site.fabric())));
    fab(s, bridge_cmd(d, &l2, &["fail_mode=standalone".into()]));
    let blocked = |port: &str| matches!(site, Site::Twin(p) if p.blocked.contains(port));
    for (local, i) in ports.values() {
        if i.openflow()
            || i.lag.is_some()
            || !matches!(i.switching.mode, Some(Mode::Access | Mode::Trunk))
            || blocked(&i.port)
        {
            continue;
        }
        let mut c = vsctl(d).arg("add-port").arg(l2.clone()).arg(local.clone());
        for a in vlan_args(&i.switching) {
            c = c.arg(a);
        }
        fab(s, c);
    }
    for pc in sw.port_channels.iter().filter(|p| !p.openflow()) {
        let members: Vec<&str> = pc
            .members
            .iter()
            .filter_map(|m| by_name.get(m.as_str()).copied())
            .collect();
        if members.is_empty()
            || !matches!(pc.switching.mode, Some(Mode::Access | Mode::Trunk))
            || pc.members.iter().any(|m| {
                ports
                    .values()
                    .any(|(_, i)| &i.name == m && blocked(&i.port))
            })
        {
            continue;
        }
        let name = site.name(&format!("lag{}", pc.id));
        let mut c = vsctl(d)
            .arg(if members.len() > 1 {
                "add-bond"
            } else {
                "add-port"
            })
            .arg(l2.clone())
            .arg(name);
        c.argv.extend(members.iter().map(|m| (*m).to_owned()));
        for a in vlan_args(&pc.switching) {
            c = c.arg(a);
        }
        if members.len() > 1 {
            c.argv.extend(lacp_args(pc.lacp));
        }
        fab(s, c);
    }
    for v in &sw.vlans {
        let Some(l3) = &v.l3 else { continue };
        let name = format!("vlan{}", v.id);
        let mtu = l3.mtu.map_or(1500, |m| m.ip);
        match site {
            // The SVI is in the switch's namespace, where the kernel routes: a veth whose
            // other end is an access port of `l2` in the SVI's VLAN.
            Site::Twin(p) => {
                let side = site.name(&format!("v{}", v.id));
                s.push(Step::Run(super::net::veth(
                    (&name, &p.ns, mtu),
                    (&side, &p.ovs, mtu),
                )));
                fab(s, Cmd::new(&["ip", "link", "set", &side, "up"]));
                fab(s, Cmd::new(&["ethtool", "-K", &side, "tx", "off"]));
                fab(
                    s,
                    vsctl(d)
                        .arg("add-port")
                        .arg(l2.clone())
                        .arg(side)
                        .arg(format!("tag={}", v.id)),
                );
                s.push(Step::Run(
                    Cmd::new(&["ethtool", "-K", &name, "tx", "off"]).at(site.own()),
                ));
            }
            Site::Lab(_) => s.push(Step::Run(
                vsctl(d)
                    .arg("add-port")
                    .arg("l2")
                    .arg(name.clone())
                    .arg(format!("tag={}", v.id))
                    .arg("--")
                    .arg("set")
                    .arg("interface")
                    .arg(name.clone())
                    .arg("type=internal")
                    .arg(format!("mtu_request={mtu}")),
            )),
        }
        s.push(Step::Run(
            Cmd::new(&["ip", "addr", "add", &l3.ipv4.cidr, "dev", &name]).at(site.own()),
        ));
        s.push(Step::Run(
            Cmd::new(&["ip", "link", "set", &name, "up"]).at(site.own()),
        ));
    }
}

fn of_bridge(
    s: &mut Vec<Step>,
    sw: &Switch,
    site: Site,
    d: &Dirs,
    ports: &BTreeMap<&str, (String, &Interface)>,
    by_name: &BTreeMap<&str, &str>,
    ruleset: Option<&Path>,
) {
    let Some(of) = &sw.openflow else { return };
    let fab = |s: &mut Vec<Step>, c: Cmd| s.push(Step::Run(c.at(site.fabric())));
    let ofb = of_bridge_name(site);
    let mut extra = vec![
        "fail_mode=secure".to_owned(),
        // Only the switch's version: a controller or ruleset speaking another is refused,
        // as by the switch's agent.
        format!(
            "protocols={}",
            crate::rulesets::ofctl::protocol(&of.version)
        ),
        // No hidden in-band rules: only the ruleset forwards on this bridge.
        "other-config:disable-in-band=true".into(),
    ];
    if let Some(dpid) = &of.datapath_id {
        extra.push(format!("other-config:datapath-id={dpid}"));
    }
    fab(s, bridge_cmd(d, &ofb, &extra));
    // Each port under the controller at the number the IR's port map gives it, so the
    // ruleset's `in_port` and `output` mean the ports they mean on the switch.
    for (local, i) in ports.values() {
        if !i.openflow() || i.lag.is_some() {
            continue;
        }
        let mut c = vsctl(d).arg("add-port").arg(ofb.clone()).arg(local.clone());
        if let Some(n) = of.number(&i.name) {
            c = c
                .arg("--")
                .arg("set")
                .arg("interface")
                .arg(local.clone())
                .arg(format!("ofport_request={n}"));
        }
        fab(s, c);
    }
    // A port-channel under the controller is one OpenFlow port on the switch (the
    // ruleset matches and outputs its `lag_base + id` number; the switch hashes over the
    // members). An OVS bond has no OpenFlow port of its own (each member is one), so
    // the twin gives the bond a bridge of its own, `lag<id>`, joined to `of` by a patch
    // port at the port-channel's number: one OpenFlow port, the bond (with its LACP)
    // behind it, as on the switch.
    for pc in sw.port_channels.iter().filter(|p| p.openflow()) {
        let members: Vec<&str> = pc
            .members
            .iter()
            .filter_map(|m| by_name.get(m.as_str()).copied())
            .collect();
        if members.is_empty() {
            continue;
        }
        let br = site.name(&format!("lag{}", pc.id));
        fab(s, bridge_cmd(d, &br, &["fail_mode=standalone".into()]));
        let mut c = vsctl(d)
            .arg(if members.len() > 1 {
                "add-bond"
            } else {
                "add-port"
            })
            .arg(br.clone())
            .arg(format!("{br}-bond"));
        if members.len() > 1 {
            c.argv.extend(members.iter().map(|m| (*m).to_owned()));
            c.argv.extend(lacp_args(pc.lacp));
        } else {
            // A one-member channel: the member itself.
            c.argv.pop();
            c.argv.push(members[0].to_owned());
        }
        fab(s, c);
        for c in patch(
            d,
            (&br, &format!("{br}-up")),
            (&ofb, &format!("{br}-of")),
            of.number(&pc.name),
        ) {
            fab(s, c);
        }
    }
    // The controller first: OVS flushes a bridge's flows when it gains its first one.
    // In the twin an in-band channel leaves through the switch's namespace (`relay`).
    let target = match site {
        Site::Twin(p) if super::relay::inband(sw) => {
            format!("unix:{}", path(&super::relay::socket(d, p)))
        }
        _ => format!("tcp:{}:{}", of.controller.address, of.controller.port),
    };
    let mut set = vsctl(d)
        .arg("set-controller")
        .arg(ofb.clone())
        .arg(target)
        .arg("--")
        .arg("set")
        .arg("controller")
        .arg(ofb.clone())
        .arg("connection-mode=out-of-band")
        .arg("max_backoff=1000");
    // In the twin every switch's channel leaves the one Open vSwitch's namespace: from
    // the switch's management address, which the twin routes as the switch does.
    if let (Site::Twin(_), Some(m), false) = (site, &sw.management, super::relay::inband(sw)) {
        set = set.arg(format!("local_ip={}", m.address.address));
    }
    fab(s, set);
    // Nothing but the ruleset: the bridge's default NORMAL rule goes first.
    fab(s, ofctl(d, sw).arg("del-flows").arg(ofb.clone()));
    if let Some(r) = ruleset {
        fab(
            s,
            ofctl(d, sw)
                .arg("replace-flows")
                .arg(ofb.clone())
                .arg(path(r)),
        );
    }
}

/// A patch port pair joining bridge `a.0` (port `a.1`) and bridge `b.0` (port `b.1`);
/// `b_number`: the OpenFlow number of b's end.
fn patch(d: &Dirs, a: (&str, &str), b: (&str, &str), b_number: Option<u32>) -> Vec<Cmd> {
    let mut out = Vec::new();
    for ((br, me), (_, peer), number) in [(a, b, None), (b, a, b_number)] {
        let mut c = vsctl(d)
            .arg("add-port")
            .arg(br)
            .arg(me)
            .arg("--")
            .arg("set")
            .arg("interface")
            .arg(me)
            .arg("type=patch")
            .arg(format!("options:peer={peer}"));
        if let Some(n) = number {
            c = c.arg(format!("ofport_request={n}"));
        }
        out.push(c);
    }
    out
}

/// FRR's configuration for the IR's BGP: sessions, the subnets the IR originates, and
/// each neighbor's import and export prefix lists (FRR's `ip prefix-list`, `neighbor
/// .. prefix-list .. in|out`), as on the switch.
pub(crate) fn frr_conf(sw: &Switch, bgp: &Bgp) -> String {
    let mut t = format!(
        "frr defaults traditional\nhostname {}\nlog file {}\n!\n",
        sw.hostname, "bgpd.log"
    );
    for pol in bgp.neighbors.iter().flat_map(|n| [&n.import, &n.export]) {
        for (i, p) in pol.prefixes.iter().enumerate() {
            t.push_str(&format!(
                "ip prefix-list {} seq {} permit {p}\n",
                pol.name,
                (i + 1) * 10
            ));
        }
        t.push_str(&format!(
            "ip prefix-list {} seq 1000 deny 0.0.0.0/0 le 32\n",
            pol.name
        ));
    }
    t.push_str(&format!(
        "!\nrouter bgp {}\n bgp router-id {}\n no bgp ebgp-requires-policy\n",
        bgp.asn, bgp.router_id
    ));
    for n in &bgp.neighbors {
        t.push_str(&format!(
            " neighbor {} remote-as {}\n",
            n.address, n.remote_as
        ));
        t.push_str(&format!(" neighbor {} timers connect 1\n", n.address));
        // `frr defaults traditional` holds eBGP updates back 30 s (the minimum route
        // advertisement interval); the twin tests as soon as sessions are up.
        t.push_str(&format!(
            " neighbor {} advertisement-interval 0\n",
            n.address
        ));
    }
    t.push_str(" address-family ipv4 unicast\n");
    for n in &bgp.networks {
        t.push_str(&format!("  network {}\n", n.cidr));
    }
    for n in &bgp.neighbors {
        t.push_str(&format!(
            "  neighbor {} prefix-list {} in\n",
            n.address, n.import.name
        ));
        t.push_str(&format!(
            "  neighbor {} prefix-list {} out\n",
            n.address, n.export.name
        ));
    }
    t.push_str(" exit-address-family\n!\n");
    t
}

fn frr(s: &mut Vec<Step>, sw: &Switch, bgp: &Bgp, d: &Dirs, pathspace: &str, at: Option<At>) {
    let dir = path(&d.frr);
    s.push(Step::Run(Cmd::new(&["mkdir", "-p", &dir])));
    s.push(Step::Write {
        path: d.frr.join("frr.conf"),
        text: frr_conf(sw, bgp).replace(
            "log file bgpd.log",
            &format!("log file {}", path(&d.frr.join("bgpd.log"))),
        ),
    });
    s.push(Step::Run(Cmd::new(&["chown", "-R", "frr:frr", &dir])));
    let daemon = |name: &str, conf: &str| {
        Cmd::new(&[
            format!("/usr/lib/frr/{name}").as_str(),
            "-d",
            "-N",
            pathspace,
        ])
        .arg("-i")
        .arg(path(&d.frr.join(format!("{name}.pid"))))
        .arg("-z")
        .arg(path(&d.frr.join("zserv.api")))
        .arg("--vty_socket")
        .arg(dir.clone())
        .arg("-u")
        .arg("frr")
        .arg("-g")
        .arg("frr")
        .arg("-f")
        .arg(conf.to_owned())
    };
    s.push(Step::Run(daemon("zebra", "/dev/null").at(at.clone())));
    s.push(Step::Run(
        daemon("bgpd", &path(&d.frr.join("frr.conf"))).at(at),
    ));
}

/// The steps as a shell script (for a container that holds the switch's ports).
pub(crate) fn script(sw: &Switch, site: Site, steps: &[Step]) -> String {
    // Comments show IR text on one line, made visible (a line break in a name must not
    // start a command of its own).
    let shown = |s: &str| crate::escape::line(s).into_owned();
    let mut t = format!(
        "#!/bin/sh\n# {}: the switch emulated from its IR (democ twin). Ports, by local name:\n",
        shown(&sw.hostname)
    );
    for (local, i) in ports_at(sw, site).values() {
        t.push_str(&format!(
            "#   {} = {} ({})\n",
            shown(local),
            shown(&i.name),
            shown(&i.port)
        ));
    }
    t.push_str("set -eu\n");
    t.push_str(&steps_text(steps));
    t
}

/// Steps as shell lines: commands quoted, files written with a quoted here-document.
pub(crate) fn steps_text(steps: &[Step]) -> String {
    let mut t = String::new();
    for st in steps {
        match st {
            Step::Run(c) => {
                t.push_str(&c.shell());
                t.push('\n');
            }
            Step::Write { path, text } => {
                let end = heredoc_end(text);
                t.push_str(&format!(
                    "cat > {} <<'{end}'\n{text}{}{end}\n",
                    super::cmd::quote(&path.display().to_string()),
                    if text.is_empty() || text.ends_with('\n') {
                        ""
                    } else {
                        "\n"
                    }
                ));
            }
        }
    }
    t
}

/// A here-document terminator that is no line of `text`, so the text cannot end the
/// document early and run what follows as commands.
fn heredoc_end(text: &str) -> String {
    let taken: std::collections::HashSet<&str> = text.lines().collect();
    (0..)
        .map(|k| {
            if k == 0 {
                "DEMOC_EOF".to_owned()
            } else {
                format!("DEMOC_EOF_{k}")
            }
        })
        .find(|end| !taken.contains(end.as_str()))
        .expect("some terminator is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A script from IR text full of shell metacharacters runs as data: a hostname and a
    /// port with line breaks stay inside comments, and a file whose text holds the
    /// here-document terminator is written whole, nothing after it run.
    #[test]
    fn ir_text_cannot_run_as_commands() {
        let (_, mut lab) = crate::testkit::render_fixture();
        let mut sw = lab.switches.swap_remove(0);
        let t = tempfile::tempdir().expect("tempdir");
        let marker = t.path().join("ran");
        let touch = format!("touch '{}'", marker.display());
        sw.hostname = format!("x\n{touch}\n#");
        if let Some(i) = sw.interfaces.first_mut() {
            i.name = format!("e\n{touch}\n");
        }
        let target = t.path().join("frr.conf");
        let text = format!("hostname a\nDEMOC_EOF\n{touch}\nDEMOC_EOF_1\n");
        let steps = [Step::Write {
            path: target.clone(),
            text: text.clone(),
        }];
        let place = Place {
            key: "s0".into(),
            ovs: "t-ovs".into(),
            ns: "t-s".into(),
            blocked: Default::default(),
        };
        let script = script(&sw, Site::Twin(&place), &steps);
        // In a throwaway network namespace where this machine allows one (root), as the
        // twin runs it; else in a plain shell.
        let ns = format!("democ-unit-{}", std::process::id());
        let in_ns = std::process::Command::new("ip")
            .args(["netns", "add", &ns])
            .output()
            .is_ok_and(|o| o.status.success());
        let mut sh = if in_ns {
            let mut c = std::process::Command::new("ip");
            c.args(["netns", "exec", &ns, "sh"]);
            c
        } else {
            std::process::Command::new("sh")
        };
        let out = sh.arg("-c").arg(&script).output().expect("sh runs");
        if in_ns {
            let _ = std::process::Command::new("ip")
                .args(["netns", "del", &ns])
                .output();
        }
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!marker.exists(), "the script ran IR text:\n{script}");
        assert_eq!(std::fs::read_to_string(&target).expect("written"), text);
    }
}
