//! `show.services`: every switch sends to its NTP, syslog, SNMP-trap and sFlow targets
//! from its management port, the way it reaches the controller out of band. An address
//! on the data plane, or off the management network with no gateway leading off it,
//! would never be reached (E0254); a switch without a management address reaches none
//! of them (W0254).

use std::collections::HashSet;
use std::net::Ipv4Addr;

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes};

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    let sv = &m.settings.services;
    if sv.addresses().next().is_none() {
        return;
    }
    let pools = &m.settings.pools;
    let data: HashSet<Ipv4Addr> = m
        .hosts
        .iter()
        .flat_map(|h| h.ports.iter().filter_map(|p| p.address.map(|a| a.addr)))
        .collect();
    let mgmt = pools.mgmt.as_ref();
    for a in sv.addresses() {
        let addr = a.value;
        let data_pool = [&pools.dtn, &pools.p2p]
            .into_iter()
            .flatten()
            .find(|p| p.contains(addr));
        if data.contains(&addr) || data_pool.is_some() {
            let what = data_pool.map_or("a DTN's data port".to_owned(), |p| {
                format!("inside the data-plane pool {}", p.value)
            });
            diags.push(
                Diagnostic::new(
                    codes::SERVICE_UNREACHABLE,
                    a.span,
                    format!("service address {addr} is on the data plane ({what})"),
                )
                .label("switches send to their services from the management port")
                .help("give the service an address on the management network (`addressing.mgmt`), or one beyond `show.management.gateway`"),
            );
            continue;
        }
        // Without a management pool there is no network to judge against: W0254 below
        // names the switches that have no management port to send from.
        let Some(pool) = mgmt else { continue };
        if !pool.contains(addr) && m.settings.management.gateway.is_none() {
            let network = format!("the management network {}", pool.value);
            diags.push(
                Diagnostic::new(
                    codes::SERVICE_UNREACHABLE,
                    a.span,
                    format!("service address {addr} is outside {network}, and no gateway leads off it"),
                )
                .label("switches cannot route to this address from their management port")
                .help("add `show.management: { gateway: <router on the management network> }`, or move the service onto the management network"),
            );
        }
    }
    for s in m.switches.iter().filter(|s| s.mgmt.is_none()) {
        diags.push(
            Diagnostic::new(
                codes::SERVICE_NO_MANAGEMENT,
                s.name.span,
                format!(
                    "`{}` has no management address, so it cannot reach the show's services",
                    s.name.value
                ),
            )
            .label("no NTP, syslog, SNMP or sFlow in its config")
            .help(format!(
                "give `{}` a `mgmt:` address, or set `addressing: {{ mgmt: <prefix> }}` so democ assigns one",
                s.name.value
            )),
        );
    }
}
