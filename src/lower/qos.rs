//! Lossless RoCE: PFC on `show.defaults.pfc_priority` and ECN on every port of this
//! switch that an RDMA flow's route crosses (in either direction).

use std::collections::BTreeSet;

use super::Lx;
use crate::derive::paths::Routes;
use crate::derive::paths::Via;
use crate::ir::interface::{Interface, PortChannel, Role};
use crate::ir::qos::Qos;
use crate::resolve::model::{LagId, Model, NodeId};
use crate::source::Span;
use crate::spec::flow::Protocol;
use crate::vendor::OfForbid;

/// Ports (indices) and LAGs of this switch on RDMA routes, and the first RDMA flow's
/// protocol span (for diagnostics).
#[derive(Debug, Default)]
pub(crate) struct Rdma {
    pub(crate) ports: BTreeSet<usize>,
    pub(crate) lags: BTreeSet<LagId>,
    pub(crate) span: Option<Span>,
}

/// The RDMA ports and LAGs of every switch, in one pass over the RDMA flows' hops
/// (one pass per switch would cost switches x flows).
pub(crate) fn rdma_by_switch(m: &Model, routes: &Routes) -> Vec<Rdma> {
    let mut out: Vec<Rdma> = (0..m.switches.len()).map(|_| Rdma::default()).collect();
    for (flow, fr) in m.flows.iter().zip(&routes.flows) {
        if flow.protocol.value != Protocol::Rdma {
            continue;
        }
        for hop in fr.pairs.iter().flat_map(|p| &p.hops) {
            for node in [hop.from, hop.to] {
                let NodeId::Switch(sw) = node else { continue };
                let r = &mut out[sw];
                r.span.get_or_insert(flow.protocol.span);
                if let Via::Lag(g) = hop.via {
                    r.lags.insert(g);
                }
                for &l in hop.via.links(m) {
                    let link = &m.links[l];
                    for end in [link.a, link.b] {
                        if end.node == node {
                            r.ports.insert(end.port);
                        }
                    }
                }
            }
        }
    }
    out
}

/// `a`, `b`, `c` and 7 more.
fn few(names: &[&str]) -> String {
    let shown: Vec<String> = names.iter().take(3).map(|n| format!("`{n}`")).collect();
    match names.len().saturating_sub(3) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// One DSCP scheme from NIC to NIC: RoCE data in DSCP 26 (AF31), congestion
/// notification packets in DSCP 48 to class 6: NVIDIA's RoCE defaults (MLNX_OFED
/// "Quality of Service", RoCE QoS mapping; "RoCE Configuration for ConnectX" with
/// `cma_roce_tos`), which DSCP >> 3 maps to priorities 3 and 6 on the NIC and the
/// switches' default DSCP maps alike. The hosts' scripts mark the same values.
pub(crate) const ROCE_DSCP: u8 = 26;
pub(crate) const CNP_DSCP: u8 = 48;
pub(crate) const CNP_CLASS: u8 = 6;

/// The QoS section, and a warning where the OS lacks the syntax.
pub(crate) fn lower(
    lx: &mut Lx,
    rdma: &Rdma,
    interfaces: &[Interface],
    lags: &[PortChannel],
) -> Option<Qos> {
    let span = rdma.span?;
    let caps = &lx.f.qos;
    let (os, name) = (lx.os(), lx.name().to_owned());
    let p = lx.m.settings.pfc_priority;
    let platform = lx
        .switch()
        .platform
        .as_ref()
        .and_then(|name| lx.f.platforms.get(name));
    // Interfaces are built one per port, in port order. OpenFlow ports where the OS
    // forbids DCB get none (interfaces and lags left pfc/ecn off): say what RDMA loses.
    let no_dcb = super::openflow::forbids(lx, OfForbid::Dcb);
    let crossed: Vec<&Interface> = rdma
        .ports
        .iter()
        .filter_map(|&i| interfaces.get(i))
        .collect();
    let ids: BTreeSet<u16> = rdma.lags.iter().map(|&g| lx.m.lags[g].id).collect();
    let crossed_lags: Vec<&PortChannel> = lags.iter().filter(|c| ids.contains(&c.id)).collect();
    let lost: Vec<&str> = crossed
        .iter()
        .filter(|i| i.role == Role::Openflow && i.lag.is_none())
        .map(|i| i.name.as_str())
        .chain(
            crossed_lags
                .iter()
                .filter(|c| c.role == Role::Openflow)
                .map(|c| c.name.as_str()),
        )
        .collect();
    // Where every port RDMA crosses here is an OpenFlow port the OS keeps DCB off, no
    // QoS line would apply by hand either: the warning below says RoCE is not lossless.
    let keep = |r: Role| !(no_dcb && r == Role::Openflow);
    let configurable =
        crossed.iter().any(|i| keep(i.role)) || crossed_lags.iter().any(|c| keep(c.role));
    let missing: Vec<&str> = [
        (caps.pfc, "PFC"),
        (caps.ecn, "ECN marking"),
        (caps.dscp_trust, "DSCP trust"),
    ]
    .into_iter()
    .filter(|(have, _)| !have)
    .map(|(_, w)| w)
    .collect();
    if !missing.is_empty() && configurable {
        let what = match missing.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => missing.join(""),
        };
        let p = lx.m.settings.pfc_priority;
        // Without DSCP trust a switch classifies by the frames' 802.1p priority, and the
        // DTNs send RoCE untagged (priority 0): the PFC class written here never engages.
        // (Only where PFC is written: on OpenFlow ports that forbid DCB it is not.)
        let pfc_written = rdma
            .ports
            .iter()
            .any(|&i| interfaces.get(i).is_some_and(|x| x.pfc))
            || lags
                .iter()
                .any(|c| c.pfc && rdma.lags.iter().any(|&g| lx.m.lags[g].id == c.id));
        let inert = if caps.pfc && !caps.dscp_trust && pfc_written {
            format!(
                "; without DSCP trust `{os}` classifies by 802.1p, and the DTNs' untagged RoCE frames \
                 carry priority 0, so the PFC on priority {p} written here does not engage"
            )
        } else {
            String::new()
        };
        lx.manual(
            "qos",
            span,
            format!("RDMA crosses `{name}`, but democ has no confirmed `{os}` syntax for {what}{inert}"),
            format!("configure {what} on priority {p} (RoCE data DSCP {ROCE_DSCP}, CNP DSCP {CNP_DSCP}) by hand on `{name}`, or route RDMA over another switch"),
        );
    }
    if let Some(fixed) = caps.fixed_priority.filter(|&f| f != p) {
        lx.manual(
            "qos-priority",
            span,
            format!("RDMA crosses `{name}`, whose `{os}` RoCE mode makes priority {fixed} lossless, not the show's {p}"),
            format!("set `show.defaults.pfc_priority: {fixed}` (and the hosts follow), or configure PFC on priority {p} by hand on `{name}`"),
        );
    }
    let of_span = lx.switch().openflow.as_ref().map_or(span, |o| o.span);
    if no_dcb && !lost.is_empty() {
        lx.manual(
            "qos-openflow",
            of_span,
            format!(
                "RDMA crosses OpenFlow port(s) {} of `{name}`, where `{os}` allows no DCB: RoCE is not lossless there",
                few(&lost)
            ),
            format!("make those ports legacy (leave them out of `openflow.ports` on `{name}`), or run RoCE where the path keeps PFC"),
        );
    }
    let names = crossed
        .iter()
        .filter(|i| keep(i.role))
        .map(|i| i.name.clone());
    let pcs = crossed_lags
        .iter()
        .filter(|c| keep(c.role))
        .map(|c| c.name.clone());
    let interfaces: Vec<String> = names.chain(pcs).collect();
    if interfaces.is_empty() {
        // Every RDMA port here is one the OS keeps DCB off: nothing to configure.
        return None;
    }
    Some(Qos {
        pfc_priority: p,
        dscp: ROCE_DSCP,
        cnp_dscp: CNP_DSCP,
        cnp_class: CNP_CLASS,
        dscp_trust: caps.dscp_trust,
        lossless_map: (0..8).map(|i| u8::from(i == p)).collect(),
        pfc: caps.pfc,
        ecn: caps.ecn,
        ecn_min_kbytes: caps.ecn_min_kbytes,
        ecn_max_kbytes: caps.ecn_max_kbytes,
        ecn_queue: platform
            .and_then(|p| p.ecn_queue.clone())
            .or_else(|| caps.ecn_queue.clone()),
        ecn_max_mark_probability: platform.and_then(|p| p.ecn_max_mark_probability),
        interfaces,
    })
}
