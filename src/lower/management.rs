//! The out-of-band management port: the switch's `mgmt` address with the prefix length
//! of its site's management subnet (`sites.<name>.mgmt`, else `addressing.mgmt`), and a
//! default route through that network's router, in the management VRF where the OS has
//! one.

use super::Lx;
use crate::diag::{Diagnostic, codes};
use crate::ir::routing::StaticRoute;
use crate::ir::switch::{Ipv4, Management};
use crate::spec::show::ControllerVia;
use crate::spec::switch::OfMode;

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
    let net = lx.m.mgmt_net(s.site);
    let Some(pool) = net.subnet.filter(|p| p.contains(addr.value)) else {
        lx.report(
            "mgmt-len",
            Diagnostic::new(codes::CONFIG_PARTIAL, addr.span, format!("management address {} of `{}` has no prefix length", addr.value, s.name.value))
                .label("not inside an `addressing.mgmt` pool")
                .help("add `addressing: { mgmt: <prefix> }` covering this address; the config leaves the management port alone until then"),
        );
        return None;
    };
    let gateway = net.gateway.map(|g| g.value);
    // OVS mode writes a script of `ovs-vsctl` lines, none of them for the management
    // port: the address and route stay the planner's, and the IR keeps them (the twin
    // and `push` read them).
    if let Some(of) = s.openflow.as_ref().filter(|o| o.mode == OfMode::Ovs) {
        let (span, os) = (of.span, lx.os());
        lx.manual(
            "mgmt-ovs",
            span,
            format!("`{os}` in OVS mode: democ's script sets no management address or route"),
            format!(
                "on the switch, give eth0 {}/{} and a default route through {}",
                addr.value,
                pool.len,
                gateway.map_or("the management router".to_owned(), |g| g.to_string())
            ),
        );
    }
    let vrf = vrf(lx);
    // A default route through the site's management router, in the management port's
    // own table (Dell's management routes, Onyx and PicOS management interfaces, an EOS
    // management VRF) or, where the port shares the global table, there.
    let routes = gateway
        .filter(|g| pool.contains(*g))
        .map(|g| {
            vec![StaticRoute {
                prefix: "0.0.0.0/0".into(),
                next_hop: g.to_string(),
            }]
        })
        .unwrap_or_default();
    Some(Management {
        interface,
        address: Ipv4::new(addr.value, pool.len),
        gateway: gateway.map(|g| g.to_string()),
        vrf,
        routes,
    })
}

/// The management VRF on an OS that has one: `show.management.vrf`, else `MGMT`. The
/// default route lands in the global table where the OS has neither a management table
/// of its own nor a VRF, or where an OpenFlow switch's agent reaches its controller over
/// the management port only from the global table: a warning (W0306) says so.
fn vrf(lx: &mut Lx) -> Option<String> {
    if lx.f.management_table_separate {
        return None;
    }
    let named = lx.m.settings.management.vrf.as_ref();
    let name = named.map_or_else(|| DEFAULT_VRF.to_owned(), |v| v.value.clone());
    let s = lx.switch();
    let via_mgmt = lx.m.settings.management.controller_via == ControllerVia::Mgmt;
    let agent = s
        .openflow
        .as_ref()
        .filter(|_| via_mgmt && !lx.f.management_vrf_openflow);
    if lx.f.management_vrf && agent.is_none() {
        return Some(name);
    }
    let (sname, os) = (s.name.value.clone(), lx.os());
    let (span, why, label) = match agent.filter(|_| lx.f.management_vrf) {
        Some(of) => (
            of.span,
            format!("`{os}`'s OpenFlow agent reaches the controller over it only from there"),
            "controller reached over the management port",
        ),
        None => (
            s.name.span,
            format!("democ knows no management VRF or table of its own on `{os}`"),
            "management port in the global table",
        ),
    };
    let mut d = Diagnostic::new(
        codes::MANAGEMENT_GLOBAL_TABLE,
        span,
        format!("`{sname}`'s management port and its default route stay in the global table: {why}"),
    )
    .label(label)
    .help(format!(
        "make the data plane's routes more specific than 0.0.0.0/0 on `{sname}` (traffic with no better route leaves by the management port){}",
        if lx.f.management_vrf {
            format!(", or reach the controller in band (`management: {{ controller_via: inband }}`) to keep management in VRF `{name}`")
        } else {
            String::new()
        }
    ));
    if let Some(v) = named.filter(|_| lx.f.management_vrf) {
        d = d.also(v.span, "not applied to this switch");
    }
    lx.report("mgmt-global", d);
    None
}

/// The management VRF's name where the spec names none.
const DEFAULT_VRF: &str = "MGMT";
