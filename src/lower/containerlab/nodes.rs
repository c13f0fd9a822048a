//! One containerlab node per switch and host: kind, image, democ's config for kinds that
//! boot it, the management address, labels, and the commands a stand-in or host runs.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::mgmt::Assigned;
use super::{Cabled, Ifaces, Plan};
use crate::ir::lab::Node;
use crate::lower::vendor::Vendors;
use crate::resolve::model::{HostId, Model, NodeId, SwitchId};

/// What a switch node is built from besides the model.
pub(crate) struct SwitchCx<'a> {
    pub(crate) v: &'a Vendors,
    pub(crate) cabled: &'a Cabled,
    pub(crate) ifaces: &'a Ifaces,
    pub(crate) mgmt: &'a Assigned,
    /// The IR's `config_file` by hostname.
    pub(crate) configs: &'a HashMap<&'a str, &'a str>,
}

pub(crate) fn switch(m: &Model, cx: &SwitchCx, sw: SwitchId, plan: &Plan) -> Node {
    let s = &m.switches[sw];
    let mut labels = BTreeMap::from([
        ("democ.os".to_owned(), s.os.as_str().to_owned()),
        ("democ.model".to_owned(), s.model.value.clone()),
    ]);
    site(m, s.site, &mut labels);
    let mgmt_ipv4 = cx
        .mgmt
        .by_node
        .get(&NodeId::Switch(sw))
        .map(|a| a.to_string());
    match plan {
        Plan::Kind(caps) => {
            labels.insert("democ.role".into(), "switch".into());
            // Paths in a topology are relative to its file, under lab/.
            let config = cx.configs.get(s.name.value.as_str());
            Node {
                kind: caps.kind.clone().unwrap_or_default(),
                image: caps.image.clone().unwrap_or_default(),
                startup_config: config
                    .filter(|_| caps.startup_config)
                    .map(|c| format!("../{c}")),
                mgmt_ipv4,
                labels,
                exec: Vec::new(),
            }
        }
        Plan::Standin(why) => {
            labels.insert("democ.role".into(), "stand-in".into());
            labels.insert("democ.stand-in".into(), why.clone());
            Node {
                kind: cx.v.lab.standin.kind.clone(),
                image: cx.v.lab.image.clone(),
                startup_config: None,
                mgmt_ipv4,
                labels,
                exec: bridge(m, cx, sw),
            }
        }
    }
}

fn site(m: &Model, id: usize, labels: &mut BTreeMap<String, String>) {
    if let Some(s) = m.sites.get(id).filter(|s| !s.name.value.is_empty()) {
        labels.insert("democ.site".into(), s.name.value.clone());
    }
}

/// Open vSwitch in the stand-in: wait for the daemons, one userspace bridge with RSTP
/// (parallel links would loop), cabled ports as ports, LAG members towards a switch as
/// a bond. Hosts do not bond in the lab (no bonding module to count on): their LAG
/// members stay separate ports, each host port with its own address.
fn bridge(m: &Model, cx: &SwitchCx, sw: SwitchId) -> Vec<String> {
    let br = &cx.v.lab.standin.bridge;
    let mut exec = vec![
        "timeout 60 sh -c 'until ovs-vsctl show >/dev/null 2>&1; do sleep 1; done'".to_owned(),
        format!(
            "ovs-vsctl --may-exist add-br {br} -- set bridge {br} datapath_type=netdev rstp_enable=true"
        ),
    ];
    let mut lags: BTreeMap<u16, (&'static str, Vec<&str>)> = BTreeMap::new();
    let node = NodeId::Switch(sw);
    for (i, &link) in cx.cabled.get(&node).into_iter().flatten() {
        let Some(name) = cx.ifaces.get(&(node, *i)) else {
            continue;
        };
        let l = &m.links[link];
        let to_host = matches!(l.a.node, NodeId::Host(_)) || matches!(l.b.node, NodeId::Host(_));
        match l.lag.map(|g| &m.lags[g]).filter(|_| !to_host) {
            Some(lag) => {
                let lacp = match lag.lacp.as_str() {
                    "static" => "off",
                    other => other,
                };
                lags.entry(lag.id)
                    .or_insert((lacp, Vec::new()))
                    .1
                    .push(name);
            }
            None => exec.push(format!("ovs-vsctl --may-exist add-port {br} {name}")),
        }
    }
    for (id, (lacp, members)) in lags {
        exec.push(match members.as_slice() {
            [one] => {
                format!("ovs-vsctl --may-exist add-port {br} {one} -- set port {one} lacp={lacp}")
            }
            _ => format!(
                "ovs-vsctl --may-exist add-bond {br} lag{id} {} lacp={lacp}",
                members.join(" ")
            ),
        });
    }
    exec
}

pub(crate) fn host(m: &Model, v: &Vendors, h: HostId, ifaces: &Ifaces, mgmt: &Assigned) -> Node {
    let host = &m.hosts[h];
    let mut labels = BTreeMap::from([
        ("democ.role".to_owned(), "host".to_owned()),
        ("democ.model".to_owned(), host.chassis.value.clone()),
    ]);
    site(m, host.site, &mut labels);
    // Jumbo MTU and the data address; TX checksum offload off, or TCP through a
    // stand-in's userspace datapath fails silently.
    let mut exec = Vec::new();
    let cabled: BTreeSet<(usize, &String)> = host
        .ports
        .iter()
        .enumerate()
        .filter_map(|(i, _)| ifaces.get(&(NodeId::Host(h), i)).map(|n| (i, n)))
        .collect();
    for (i, name) in cabled {
        exec.push(format!("ip link set dev {name} mtu {}", host.mtu.value));
        if let Some(a) = host.ports[i].address {
            exec.push(format!("ip address add {a} dev {name}"));
        }
        exec.push(format!("ethtool -K {name} tx off"));
    }
    Node {
        kind: v.lab.host.kind.clone(),
        image: v.lab.image.clone(),
        startup_config: None,
        mgmt_ipv4: mgmt.by_node.get(&NodeId::Host(h)).map(|a| a.to_string()),
        labels,
        exec,
    }
}
