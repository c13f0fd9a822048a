//! One containerlab node per switch and host: kind, image, democ's config for kinds that
//! boot it, the management address, labels, and the commands a stand-in or host runs.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use super::super::error::LowerError;
use super::mgmt::Assigned;
use super::{Cabled, Ifaces, Plan};
use crate::ir::lab::{LabConfig, Node};
use crate::resolve::model::{HostId, Model, NodeId, SwitchId};
use crate::vendor::Vendors;

/// What a switch node is built from besides the model.
pub(crate) struct SwitchCx<'a> {
    pub(crate) v: &'a Vendors,
    pub(crate) cabled: &'a Cabled,
    pub(crate) ifaces: &'a Ifaces,
    pub(crate) mgmt: &'a Assigned,
    /// The IR by hostname.
    pub(crate) irs: &'a HashMap<&'a str, &'a crate::ir::Switch>,
}

/// Where a stand-in's container sees the files it binds.
const SCRIPT: &str = "/democ/switch.sh";
const RULESET: &str = "/democ/switch.flows";

/// The switch's node; a stand-in's script goes into `scripts`, a kind's adapted config
/// into `configs` (by path in the build).
pub(crate) fn switch(
    m: &Model,
    cx: &SwitchCx,
    sw: SwitchId,
    plan: &Plan,
    scripts: &mut BTreeMap<String, String>,
    configs: &mut BTreeMap<String, LabConfig>,
) -> Result<Node, LowerError> {
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
    let ir = cx.irs.get(s.name.value.as_str());
    Ok(match plan {
        Plan::Kind(caps) => {
            labels.insert("democ.role".into(), "switch".into());
            // Paths in a topology are relative to its file, under lab/.
            let startup_config = ir.filter(|_| caps.startup_config).map(|ir| {
                if caps.management.is_none() && !caps.wired_only {
                    return format!("../{}", ir.config_file);
                }
                let file = format!("configs/{}.cfg", ir.hostname);
                configs.insert(format!("lab/{file}"), lab_config(m, cx, sw, caps, ir));
                file
            });
            Node {
                kind: caps.kind.clone().unwrap_or_default(),
                image: caps.image.clone().unwrap_or_default(),
                startup_config,
                mgmt_ipv4,
                labels,
                binds: Vec::new(),
                exec: Vec::new(),
            }
        }
        Plan::Standin(why) => {
            labels.insert("democ.role".into(), "stand-in".into());
            labels.insert("democ.stand-in".into(), why.clone());
            let (binds, exec) = match ir {
                Some(ir) => emulation(m, cx, sw, ir, scripts)?,
                None => (Vec::new(), Vec::new()),
            };
            Node {
                kind: cx.v.lab.standin.kind.clone(),
                image: cx.v.lab.image.clone(),
                startup_config: None,
                mgmt_ipv4,
                labels,
                binds,
                exec,
            }
        }
    })
}

/// How the kind's config is made from democ's (the vendor data's quirks of the kind).
fn lab_config(
    m: &Model,
    cx: &SwitchCx,
    sw: SwitchId,
    caps: &crate::vendor::ClabCaps,
    ir: &crate::ir::Switch,
) -> LabConfig {
    let node = NodeId::Switch(sw);
    let wired: BTreeSet<&str> = cx
        .cabled
        .get(&node)
        .into_iter()
        .flatten()
        .map(|(i, _)| m.switches[sw].ports[*i].name.as_str())
        .collect();
    LabConfig {
        source: ir.config_file.clone(),
        rename: caps
            .management
            .clone()
            .zip(ir.management.as_ref())
            .map(|(to, mg)| (mg.interface.clone(), to)),
        unwired: ir
            .interfaces
            .iter()
            .filter(|i| caps.wired_only && !wired.contains(i.port.as_str()))
            .map(|i| i.name.clone())
            .collect(),
    }
}

fn site(m: &Model, id: usize, labels: &mut BTreeMap<String, String>) {
    if let Some(s) = m.sites.get(id).filter(|s| !s.name.value.is_empty()) {
        labels.insert("democ.site".into(), s.name.value.clone());
    }
}

/// The twin's emulation of the switch from its IR (OVS bridges with its VLANs, LAGs as
/// bonds, its OpenFlow ruleset, routed ports, FRR for BGP): `lab/nodes/<switch>.sh`,
/// the twin's own steps with the topology's interface names, bound into the node with
/// the switch's ruleset and run once containerlab has wired the links.
fn emulation(
    m: &Model,
    cx: &SwitchCx,
    sw: SwitchId,
    ir: &crate::ir::Switch,
    scripts: &mut BTreeMap<String, String>,
) -> Result<(Vec<String>, Vec<String>), LowerError> {
    let node = NodeId::Switch(sw);
    let wired: BTreeMap<String, String> = cx
        .cabled
        .get(&node)
        .into_iter()
        .flatten()
        .filter_map(|(i, _)| {
            let name = cx.ifaces.get(&(node, *i))?;
            Some((m.switches[sw].ports[*i].name.clone(), name.clone()))
        })
        .collect();
    let ruleset = ir.openflow.as_ref().map(|_| Path::new(RULESET));
    let text = crate::twin::lab_script(ir, &wired, ruleset).map_err(LowerError::LabScript)?;
    let file = format!("nodes/{}.sh", ir.hostname);
    let mut binds = vec![format!("{file}:{SCRIPT}:ro")];
    if ruleset.is_some() {
        binds.push(format!("../openflow/{}.flows:{RULESET}:ro", ir.hostname));
    }
    scripts.insert(format!("lab/{file}"), text);
    Ok((binds, vec![format!("sh {SCRIPT}")]))
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
        binds: Vec::new(),
        exec,
    }
}
