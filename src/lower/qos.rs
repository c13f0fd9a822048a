//! Lossless RoCE: PFC on `show.defaults.pfc_priority` and ECN on every port of this
//! switch that an RDMA flow's route crosses (in either direction).

use std::collections::BTreeSet;

use super::Lx;
use crate::derive::paths::Routes;
use crate::derive::paths::Via;
use crate::ir::interface::{Interface, PortChannel};
use crate::ir::qos::Qos;
use crate::resolve::model::{LagId, Model, NodeId};
use crate::source::Span;
use crate::spec::flow::Protocol;

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
    let missing: Vec<&str> = [(caps.pfc, "PFC"), (caps.ecn, "ECN marking")]
        .into_iter()
        .filter(|(have, _)| !have)
        .map(|(_, w)| w)
        .collect();
    if !missing.is_empty() {
        let what = missing.join(" and ");
        lx.manual(
            "qos",
            span,
            format!("RDMA crosses `{name}`, but democ has no confirmed `{os}` syntax for {what}"),
            format!("configure {what} on priority {} by hand on `{name}`, or route RDMA over another switch", lx.m.settings.pfc_priority),
        );
    }
    let p = lx.m.settings.pfc_priority;
    let platform = lx
        .switch()
        .platform
        .as_ref()
        .and_then(|name| lx.f.platforms.get(name));
    // Interfaces are built one per port, in port order.
    let names = rdma
        .ports
        .iter()
        .filter_map(|&i| interfaces.get(i))
        .map(|i| i.name.clone());
    let ids: BTreeSet<u16> = rdma.lags.iter().map(|&g| lx.m.lags[g].id).collect();
    let pcs = lags
        .iter()
        .filter(|c| ids.contains(&c.id))
        .map(|c| c.name.clone());
    Some(Qos {
        pfc_priority: p,
        lossless_map: (0..8).map(|i| u8::from(i == p)).collect(),
        pfc: caps.pfc,
        ecn: caps.ecn,
        ecn_min_kbytes: caps.ecn_min_kbytes,
        ecn_max_kbytes: caps.ecn_max_kbytes,
        ecn_queue: platform
            .and_then(|p| p.ecn_queue.clone())
            .or_else(|| caps.ecn_queue.clone()),
        ecn_max_mark_probability: platform.and_then(|p| p.ecn_max_mark_probability),
        interfaces: names.chain(pcs).collect(),
    })
}
