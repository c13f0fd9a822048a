//! The lab: the model as a containerlab topology (ir::lab). A switch runs under the kind
//! its flavour's `containerlab:` section names when that kind can wire every cabled
//! port; otherwise a stand-in (templates/containerlab.yaml) keeps the topology whole.
//! Hosts are `linux` nodes. Every cable, WAN links and OTN members included, is a link.

mod controller;
mod delays;
mod hosts;
mod mgmt;
mod names;
mod nodes;
mod notes;

use std::collections::{BTreeMap, HashMap};

pub(crate) use delays::is_delay as is_wan_delay;
pub(crate) use hosts::bind_scripts as bind_host_scripts;

use super::error::LowerError;
use crate::derive::ShowModel;
use crate::ir::lab::{Body, Containerlab, Link, Topology};
use crate::resolve::model::{LinkId, Model, NodeId};
use crate::vendor::Vendors;

/// How one switch runs in the lab.
pub(crate) enum Plan<'a> {
    /// Under a containerlab kind (its flavour's section).
    Kind(&'a crate::vendor::ClabCaps),
    /// A stand-in, and why.
    Standin(String),
}

/// Builds the lab for the lowered show (`show`: the IR's sanitized name).
pub(crate) fn lower(
    front: &ShowModel,
    vendors: &Vendors,
    show: &str,
    switches: &[crate::ir::Switch],
) -> Result<Containerlab, LowerError> {
    let m = &front.model;
    let name = lab_name(show);
    let cabled = cabled(m);
    let plans: Vec<Plan> = (0..m.switches.len())
        .map(|sw| names::plan(m, vendors, sw, &cabled))
        .collect();
    let ifaces = names::interfaces(m, vendors, &plans, &cabled);
    let mgmt = mgmt::assign(m, &name);
    let irs: HashMap<&str, &crate::ir::Switch> =
        switches.iter().map(|s| (s.hostname.as_str(), s)).collect();
    let cx = nodes::SwitchCx {
        v: vendors,
        cabled: &cabled,
        ifaces: &ifaces,
        mgmt: &mgmt,
        irs: &irs,
    };
    let mut nodes = BTreeMap::new();
    let (mut scripts, mut configs) = (BTreeMap::new(), BTreeMap::new());
    for (sw, plan) in plans.iter().enumerate() {
        let node = nodes::switch(m, &cx, sw, plan, &mut scripts, &mut configs)?;
        nodes.insert(m.switches[sw].name.value.clone(), node);
    }
    let mut host_ports = BTreeMap::new();
    for h in 0..m.hosts.len() {
        let node = nodes::host(m, vendors, h, &ifaces, &mgmt);
        nodes.insert(m.hosts[h].name.value.clone(), node);
        let wired: BTreeMap<String, String> = cabled
            .get(&NodeId::Host(h))
            .into_iter()
            .flatten()
            .filter_map(|(i, _)| {
                let name = ifaces.get(&(NodeId::Host(h), *i))?;
                Some((m.hosts[h].ports[*i].name.clone(), name.clone()))
            })
            .collect();
        host_ports.insert(m.hosts[h].name.value.clone(), wired);
    }
    let pool = m.settings.pools.mgmt.as_ref().map(|p| p.value);
    let controllers = controller::place(vendors, switches, pool, &mut nodes);
    let us_per_km = front.db.physics.as_ref().map(|p| p.fiber_us_per_km);
    delays::apply(m, us_per_km, &ifaces, &mut nodes);
    let end = |e: crate::resolve::model::End| {
        format!("{}:{}", m.node_name(e.node), ifaces[&(e.node, e.port)])
    };
    let mut links: Vec<Link> = m
        .links
        .iter()
        .map(|l| Link {
            endpoints: [end(l.a), end(l.b)],
        })
        .collect();
    links.sort_by(|a, b| a.endpoints.cmp(&b.endpoints));
    let mut notes = notes::lower(
        front,
        &notes::NotesCx {
            lab: &name,
            plans: &plans,
            nodes: &nodes,
            ifaces: &ifaces,
            no_gateway: mgmt.network.as_ref().is_some_and(|n| n.ipv4_gw.is_none()),
        },
    );
    notes.extend(controllers);
    Ok(Containerlab {
        file: format!("lab/{name}.clab.yml"),
        notes,
        topology: Topology {
            name,
            mgmt: mgmt.network,
            topology: Body { nodes, links },
        },
        scripts,
        host_ports,
        configs,
    })
}

/// The interface name of every cabled port, by node and port index.
pub(crate) type Ifaces = HashMap<(NodeId, usize), String>;

/// The cabled ports of each node (port index to link), from the links themselves.
pub(crate) type Cabled = HashMap<NodeId, BTreeMap<usize, LinkId>>;

fn cabled(m: &Model) -> Cabled {
    let mut out = Cabled::new();
    for (id, l) in m.links.iter().enumerate() {
        for e in [l.a, l.b] {
            out.entry(e.node).or_default().insert(e.port, id);
        }
    }
    out
}

/// containerlab lab names start with a letter or digit.
fn lab_name(show: &str) -> String {
    if show.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        show.to_owned()
    } else {
        format!("democ{show}")
    }
}

#[cfg(test)]
mod tests;
