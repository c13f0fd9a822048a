//! Port-channels: one per LAG with members on this switch. The LAG takes the L2/L3 role,
//! MTU and description of its first member's link; members only join it. A LAG placed
//! by OpenFlow rules (`derive::pins`) is none: its members are OpenFlow ports.

use std::collections::BTreeSet;

use super::interfaces::{description, lacp};
use super::qos::Rdma;
use super::{Lx, l2, naming};
use crate::ir::interface::{Interface, PortChannel, Role, Switching};
use crate::vendor::OfForbid;

pub(crate) fn lower(
    lx: &mut Lx,
    of: &BTreeSet<usize>,
    rdma: &Rdma,
    interfaces: &[Interface],
) -> Vec<PortChannel> {
    let mut out = Vec::new();
    for (g, lag) in lx.m.lags.iter().enumerate() {
        if lx.m.pinned(g) {
            continue;
        }
        let mut ends: Vec<_> = lag
            .members
            .iter()
            .filter_map(|&l| lx.ends(l).map(|e| (l, e)))
            .collect();
        ends.sort_by_key(|(_, (mine, _))| mine.port);
        let Some(&(first, (mine, other))) = ends.first() else {
            continue;
        };
        if lag.lacp == crate::spec::link::Lacp::Static && !lx.f.static_lags {
            let (os, name) = (lx.os(), lx.name());
            lx.unsupported(
                "lag-static",
                lag.lacp_span.unwrap_or(lag.span),
                format!("`{os}` runs no static port-channel (`{name}`'s LAG {})", lag.id),
                "use `lacp: active` (or `passive`, with the other end active): the OS's port-channels always run LACP",
            );
        }
        let port = &lx.switch().ports[mine.port];
        let openflow = of.contains(&mine.port);
        let switching = if openflow {
            Switching::default()
        } else {
            l2::switching(lx, &lx.m.links[first], mine, other)
        };
        let dcb =
            rdma.lags.contains(&g) && !(openflow && super::openflow::forbids(lx, OfForbid::Dcb));
        let members = ends
            .iter()
            .filter_map(|(_, (m, _))| interfaces.get(m.port))
            .map(|i| i.name.clone())
            .collect();
        out.push(PortChannel {
            id: lag.id,
            name: naming::port_channel(lx.f, lag.id),
            members,
            lacp: lacp(lag.lacp),
            description: description(lx, port, Some(other)),
            mtu: super::mtu::port(lx, port, mine.port, switching.ipv4.is_some()),
            switching,
            role: Role::of(openflow),
            pfc: dcb && lx.f.qos.pfc,
            ecn: dcb && lx.f.qos.ecn,
            peer: Some(lx.m.node_name(other.node).to_owned()),
        });
    }
    out.sort_by_key(|c| c.id);
    out
}
