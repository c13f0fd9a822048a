//! A DTN's bond, in the twin. The host script builds a Linux bond (`ip link add ... type
//! bond`), but this machine's kernel may have no bonding driver (the twin's kernels had
//! none, as they have no `dummy` links), so the twin stands in with what it already runs
//! for the switches: an Open vSwitch in the DTN's namespace whose bridge holds the
//! members as one bond (LACP as the switch side runs it) and an internal port with the
//! bond's name, MTU and address. Frames leave and arrive on the members exactly as a
//! Linux bond sends them, so the switch's port-channel sees what it would on the floor.

use std::path::Path;

use super::cmd::Cmd;
use super::switch::{Dirs, Step, add_bridge, ovs_daemons, vsctl};
use crate::ir::host::Bond as HostBond;

/// The private folders of a DTN's bond daemons.
pub(crate) fn dirs(state: &Path, host: &str) -> Dirs {
    Dirs::under(&state.join("hosts").join(host))
}

/// The steps that bring up `bonds` inside the DTN's namespace; `member` gives a port's
/// local interface name (None: not cabled in the twin).
pub(crate) fn steps(
    bonds: &[HostBond],
    d: &Dirs,
    member: impl Fn(&str) -> Option<String>,
) -> Vec<Step> {
    let mut s = Vec::new();
    if bonds.is_empty() {
        return s;
    }
    ovs_daemons(&mut s, d);
    for b in bonds {
        let members: Vec<String> = b.ports.iter().filter_map(|p| member(p)).collect();
        if members.is_empty() {
            continue;
        }
        let br = format!("br-{}", b.name);
        add_bridge(&mut s, d, &br, &["fail_mode=standalone".into()]);
        let mut c = vsctl(d);
        if members.len() > 1 {
            c = c
                .arg("add-bond")
                .arg(br.clone())
                .arg(format!("{}-m", b.name));
            c.argv.extend(members.iter().cloned());
            let lacp = b.lacp.as_deref().unwrap_or("off");
            c = c
                .arg(format!("lacp={lacp}"))
                .arg("bond_mode=balance-slb")
                .arg("other_config:lacp-time=fast");
        } else {
            c = c.arg("add-port").arg(br.clone()).arg(members[0].clone());
        }
        s.push(Step::Run(c));
        let mut port = vsctl(d)
            .arg("add-port")
            .arg(br.clone())
            .arg(b.name.clone())
            .arg("--")
            .arg("set")
            .arg("interface")
            .arg(b.name.clone())
            .arg("type=internal");
        // The MAC its peers hold as a static neighbour, as the host script sets it.
        if let Some(mac) = &b.mac {
            port = port.arg(format!("mac=\"{mac}\""));
        }
        s.push(Step::Run(port));
        s.push(Step::Run(
            Cmd::new(&["ip", "link", "set", &b.name, "mtu"])
                .arg(b.mtu.to_string())
                .arg("up"),
        ));
        // The userspace datapath drops TCP whose checksum the sender left to offload.
        s.push(Step::Run(Cmd::new(&[
            "ethtool", "-K", &b.name, "tx", "off",
        ])));
        if let Some(a) = &b.address {
            s.push(Step::Run(Cmd::new(&[
                "ip", "addr", "add", a, "dev", &b.name,
            ])));
        }
    }
    s
}
