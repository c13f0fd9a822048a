//! The management network on the show's `addressing.mgmt` pool, as containerlab takes
//! it: every switch and host with its fixed address, and the gateway (the hosts'
//! addresses and the gateway come from `derive::lab_mgmt`).

use std::collections::HashMap;
use std::net::Ipv4Addr;

use crate::ir::lab::Mgmt;
use crate::resolve::model::{Model, NodeId};

pub(crate) struct Assigned {
    /// None without a pool.
    pub(crate) network: Option<Mgmt>,
    pub(crate) by_node: HashMap<NodeId, Ipv4Addr>,
}

pub(crate) fn assign(m: &Model, lab: &str) -> Assigned {
    let mut by_node = HashMap::new();
    let Some(pool) = m.settings.pools.mgmt.as_ref().map(|p| p.value) else {
        return Assigned {
            network: None,
            by_node,
        };
    };
    let inside = |a: &Option<crate::yaml::decode::Located<Ipv4Addr>>| {
        a.as_ref().map(|a| a.value).filter(|a| pool.contains(*a))
    };
    for (i, s) in m.switches.iter().enumerate() {
        if let Some(a) = inside(&s.mgmt) {
            by_node.insert(NodeId::Switch(i), a);
        }
    }
    for (i, h) in m.hosts.iter().enumerate() {
        if let Some(a) = inside(&h.mgmt).or_else(|| m.lab_mgmt.hosts.get(&i).copied()) {
            by_node.insert(NodeId::Host(i), a);
        }
    }
    let network = Some(Mgmt {
        network: format!("democ-{lab}"),
        ipv4_subnet: format!("{}/{}", Ipv4Addr::from(pool.network()), pool.len),
        ipv4_gw: m.lab_mgmt.gateway.map(|a| a.to_string()),
    });
    Assigned { network, by_node }
}
