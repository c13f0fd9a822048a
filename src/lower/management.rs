//! The out-of-band management port: the switch's `mgmt` address with the prefix length
//! of the `addressing.mgmt` pool, and its routes through `show.management.gateway`.

use super::Lx;
use crate::diag::{Diagnostic, codes};
use std::net::Ipv4Addr;

use crate::ir::routing::StaticRoute;
use crate::ir::switch::{Ipv4, Management};
use crate::spec::show::ControllerVia;

pub(crate) fn lower(lx: &mut Lx) -> Option<Management> {
    let s = lx.switch();
    let addr = s.mgmt.as_ref()?;
    // `{unit}`: the stack unit the OS numbers this model's ports from (FTOS 9:
    // `ManagementEthernet 0/0` on the S4810/Z9000, `1/1` on the Z9100).
    let unit = s.ports.iter().find_map(|p| p.native).map_or(1, |(u, _)| u);
    let Some(interface) =
        lx.f.management
            .as_ref()
            .map(|m| m.replace("{unit}", &unit.to_string()))
    else {
        let os = lx.os();
        lx.manual(
            "mgmt",
            addr.span,
            format!("democ has no management-port syntax for `{os}`"),
            "configure the management address by hand",
        );
        return None;
    };
    let pool =
        lx.m.settings
            .pools
            .mgmt
            .as_ref()
            .filter(|p| p.contains(addr.value));
    let Some(pool) = pool else {
        lx.report(
            "mgmt-len",
            Diagnostic::new(codes::CONFIG_PARTIAL, addr.span, format!("management address {} of `{}` has no prefix length", addr.value, s.name.value))
                .label("not inside an `addressing.mgmt` pool")
                .help("add `addressing: { mgmt: <prefix> }` covering this address; the config leaves the management port alone until then"),
        );
        return None;
    };
    let net = &lx.m.settings.management;
    let gateway = net.gateway.as_ref().map(|g| g.value);
    let vrf = net
        .vrf
        .as_ref()
        .filter(|_| lx.f.management_vrf)
        .map(|v| v.value.clone());
    let routes = gateway
        .map(|g| routes(lx, g, pool.contains(g), vrf.is_some()))
        .unwrap_or_default();
    Some(Management {
        interface,
        address: Ipv4::new(addr.value, pool.len),
        gateway: gateway.map(|g| g.to_string()),
        vrf,
        routes,
    })
}

/// The management port's routes: a default route where the management port has a table
/// of its own (Dell's management routes, Onyx and PicOS management interfaces, an EOS
/// management VRF); on a shared table only a host route to an out-of-band controller
/// off the management network, so the data plane keeps its own routing.
fn routes(lx: &Lx, gateway: Ipv4Addr, on_link: bool, vrf: bool) -> Vec<StaticRoute> {
    if !on_link {
        return Vec::new();
    }
    let next_hop = gateway.to_string();
    if lx.f.management_table_separate || vrf {
        return vec![StaticRoute {
            prefix: "0.0.0.0/0".into(),
            next_hop,
        }];
    }
    // Host routes to what the switch reaches out of band beyond the management
    // network: its controller and the show's services, each once, in address order.
    let mgmt_pool = lx.m.settings.pools.mgmt.as_ref();
    let off_net = |a: &Ipv4Addr| !mgmt_pool.is_some_and(|p| p.contains(*a));
    let controller = lx
        .switch()
        .openflow
        .as_ref()
        .and_then(|o| o.controller)
        .filter(|_| lx.m.settings.management.controller_via == ControllerVia::Mgmt)
        .map(|c| c.addr);
    let services = lx.m.settings.services.addresses().map(|a| a.value);
    let targets: std::collections::BTreeSet<Ipv4Addr> = controller
        .into_iter()
        .chain(services)
        .filter(off_net)
        .collect();
    targets
        .into_iter()
        .map(|a| StaticRoute {
            prefix: format!("{a}/32"),
            next_hop: next_hop.clone(),
        })
        .collect()
}
