//! The management network on the show's `addressing.mgmt` pool. Switches keep their
//! address; hosts keep a static one or take free addresses from the top of the pool,
//! after the gateway (`show.management.gateway`, else the pool's last free address:
//! containerlab's default gateway, the pool's first address, may be a switch's). Every node then has a fixed address, so Docker's dynamic allocation can
//! never take one a node needs.

use std::collections::{BTreeSet, HashMap};
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
    let inside = |a: &Option<crate::yaml::decode::Sp<Ipv4Addr>>| {
        a.as_ref().map(|a| a.value).filter(|a| pool.contains(*a))
    };
    for (i, s) in m.switches.iter().enumerate() {
        if let Some(a) = inside(&s.mgmt) {
            by_node.insert(NodeId::Switch(i), a);
        }
    }
    for (i, h) in m.hosts.iter().enumerate() {
        if let Some(a) = inside(&h.mgmt) {
            by_node.insert(NodeId::Host(i), a);
        }
    }
    // The show's management gateway is the lab's gateway too.
    let show_gw = inside(&m.settings.management.gateway);
    let used: BTreeSet<u32> = by_node
        .values()
        .chain(show_gw.iter())
        .map(|a| u32::from(*a))
        .collect();
    // Host addresses: network + 1 .. broadcast - 1 (none in a /31 or /32).
    let (first, last) = (
        pool.network().saturating_add(1),
        pool.last().saturating_sub(1),
    );
    let mut free = (first..=last)
        .rev()
        .filter(|a| !used.contains(a))
        .map(Ipv4Addr::from);
    let gw = show_gw.or_else(|| free.next());
    let mut hosts: Vec<usize> = (0..m.hosts.len())
        .filter(|h| !by_node.contains_key(&NodeId::Host(*h)))
        .collect();
    hosts.sort_by(|a, b| m.hosts[*a].name.value.cmp(&m.hosts[*b].name.value));
    for h in hosts {
        let Some(a) = free.next() else { break };
        by_node.insert(NodeId::Host(h), a);
    }
    let network = Some(Mgmt {
        network: format!("democ-{lab}"),
        ipv4_subnet: format!("{}/{}", Ipv4Addr::from(pool.network()), pool.len),
        ipv4_gw: gw.map(|a| a.to_string()),
    });
    Assigned { network, by_node }
}
