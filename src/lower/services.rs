//! `show.services` on one switch: the addresses it sends time, log and monitoring
//! traffic to, from its management port (and in the management VRF where it has one).
//! Only what the OS's vendor data says democ can write goes in; the rest is a W0303
//! naming what to set by hand, and an sFlow figure outside the OS's range is brought
//! to the nearest one it accepts, with a W0303 that says so.

use super::Lx;
use crate::ir::switch::{Gnmi, Management, Services, Sflow, Snmp};
use crate::resolve::model::Services as Want;
use crate::source::Span;

/// Where a service is written in the spec (its first address, or the sFlow collector).
fn first_span(list: &[crate::yaml::decode::Located<std::net::Ipv4Addr>]) -> Option<Span> {
    list.first().map(|a| a.span)
}

pub(crate) fn lower(lx: &mut Lx, mgmt: Option<&Management>) -> Option<Services> {
    let sv: &Want = &lx.m.settings.services;
    if sv.addresses().next().is_none() && sv.snmp.is_none() && sv.gnmi.is_none() {
        return None;
    }
    // Without a management address the switch reaches none of them (W0254).
    let mgmt = mgmt?;
    let caps = &lx.f.services;
    let os = lx.os();
    let text = |list: &[crate::yaml::decode::Located<std::net::Ipv4Addr>]| {
        list.iter().map(|a| a.value.to_string()).collect::<Vec<_>>()
    };
    let mut left_out: Vec<(Span, &'static str)> = Vec::new();
    let mut keep = |ok: bool, span: Option<Span>, what: &'static str| {
        if let (false, Some(span)) = (ok, span) {
            left_out.push((span, what));
        }
        ok
    };
    let ntp = if keep(caps.ntp, first_span(&sv.ntp), "NTP") {
        text(&sv.ntp)
    } else {
        Vec::new()
    };
    let syslog = if keep(caps.syslog, first_span(&sv.syslog), "syslog") {
        text(&sv.syslog)
    } else {
        Vec::new()
    };
    let snmp_span = sv
        .snmp
        .as_ref()
        .map(|s| first_span(&s.traps).unwrap_or(s.community_span));
    let snmp = sv
        .snmp
        .as_ref()
        .filter(|_| keep(caps.snmp, snmp_span, "SNMP"))
        .map(|s| Snmp {
            community: s.community.clone(),
            traps: if keep(
                caps.snmp_traps.unwrap_or(true),
                first_span(&s.traps),
                "SNMP traps",
            ) {
                text(&s.traps)
            } else {
                Vec::new()
            },
        });
    let sflow = sv.sflow.as_ref().and_then(|f| {
        let Some(c) = caps.sflow.as_ref() else {
            left_out.push((f.collector.span, "sFlow"));
            return None;
        };
        if !c.from_management {
            let d = format!(
                "`{os}` sends sFlow only from data ports, so `{}` (and any other `{os}` switch) cannot reach collector {} on the management network",
                lx.name(),
                f.collector.value
            );
            lx.manual(os, f.collector.span, d, "put the collector where the switch's data ports reach it and configure sFlow by hand, or collect from the other switches");
            return None;
        }
        let sample_rate = clamp(lx, f.sample_rate.value, c.sample_rate, f.sample_rate.span, "sampling rate");
        let polling_interval = clamp(lx, f.polling_s, c.polling_s, f.collector.span, "counter-polling interval (s)");
        Some(Sflow {
            collector: f.collector.value.to_string(),
            port: f.port,
            sample_rate,
            polling_interval,
            agent: mgmt.address.address.clone(),
        })
    });
    // `gnmi: true` asks for gNMI where democ can enable it; a switch whose OS it cannot
    // is watched over SNMP or listed as not monitored by the build's monitoring/.
    let gnmi = sv.gnmi.and(caps.gnmi.as_ref()).map(|g| Gnmi {
        port: g.port,
        tls: g.tls,
    });
    for (span, what) in left_out {
        let d = format!(
            "democ has no confirmed `{os}` syntax for {what}: `{}` (and any other `{os}` switch) leaves it out",
            lx.name()
        );
        lx.manual(
            os,
            span,
            d,
            format!("configure {what} by hand on the `{os}` switches"),
        );
    }
    // Nothing this OS can write (`gnmi: true` alone, on an OS without it): no block.
    if ntp.is_empty() && syslog.is_empty() && snmp.is_none() && sflow.is_none() && gnmi.is_none() {
        return None;
    }
    Some(Services {
        ntp,
        syslog,
        snmp,
        sflow,
        gnmi,
        vrf: mgmt.vrf.clone(),
        source: mgmt.interface.clone(),
    })
}

/// The nearest value the OS accepts, with a W0303 when it differs from the spec's.
fn clamp(lx: &mut Lx, v: u32, [lo, hi]: [u32; 2], span: Span, what: &str) -> u32 {
    let got = v.clamp(lo, hi);
    if got != v {
        let os = lx.os();
        let d = format!(
            "`{os}` takes an sFlow {what} from {lo} to {hi}: `{}` (and any other `{os}` switch) gets {got}, not {v}",
            lx.name()
        );
        lx.manual(os, span, d, format!("write a value from {lo} to {hi}"));
    }
    got
}
