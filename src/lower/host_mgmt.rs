//! A host's management port: its `mgmt:` address on its site's management network,
//! with routes to the other management networks through that network's router (the
//! controller reaches remote sites' switches this way).

use crate::ir::host::HostManagement;
use crate::ir::routing::StaticRoute;
use crate::resolve::model::{HostId, Model};

/// The spec's name of a host's management port (the chassis's onboard port).
pub(crate) const PORT: &str = "mgmt";

pub(crate) fn management(m: &Model, id: HostId) -> Option<HostManagement> {
    let h = &m.hosts[id];
    let addr = h.mgmt.as_ref()?.value;
    let net = m.mgmt_net(h.site);
    // Outside its subnet it has no prefix length: addressing reported it (E0110).
    let subnet = net.subnet.filter(|p| p.contains(addr))?;
    let gateway = net.gateway.map(|g| g.value).filter(|g| subnet.contains(*g));
    let mut others: Vec<String> = m
        .sites
        .iter()
        .filter_map(|s| s.mgmt.as_ref().map(|o| &o.subnet))
        .chain(m.settings.pools.mgmt.as_ref())
        .filter(|p| p.value != subnet.value)
        .map(|p| p.value.to_string())
        .collect();
    others.sort();
    others.dedup();
    let routes = gateway
        .map(|g| {
            others
                .into_iter()
                .map(|prefix| StaticRoute {
                    prefix,
                    next_hop: g.to_string(),
                })
                .collect()
        })
        .unwrap_or_default();
    Some(HostManagement {
        port: PORT.into(),
        var: crate::spec::name::port_shell_var(PORT),
        address: format!("{addr}/{}", subnet.len),
        routes,
    })
}
