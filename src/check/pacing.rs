//! Pacing each TCP pair at its share of the port it leaves by (templates/linux/tuning.yaml,
//! `transfers.pacing`: fasterdata's DTN tuning paces traffic to 80-90 % of the NIC
//! speed). On a sender that declares a kernel that paces without the fq qdisc, the pairs
//! leaving by one port (a bond: all its members) share `nic_share` of its line rate in
//! proportion to what they ask, none above its demand; the host script paces each stream
//! at its pair's rate over its streams and the prediction takes that rate as the pair's
//! ceiling. Elsewhere nothing changes: the streams are paced at the demand, as before.

use std::collections::HashMap;

use super::CheckInput;
use crate::derive::paths::host_ports;
use crate::resolve::model::HostId;
use crate::spec::flow::Protocol;

/// Per flow, per routed pair (in route order): the rate its TCP streams are paced to
/// together, bits/s; None where the demand paces them (the sender declares no kernel, or
/// one without TCP's own pacing, or the flow is not TCP). Empty when no sender paces.
pub(crate) type Paced = Vec<Vec<Option<f64>>>;

/// The port a pair leaves its sender by: the host port, and its line rate in bits/s (a
/// bond's members together).
fn sender_port(cx: &CheckInput, pr: &crate::derive::paths::PairRoute) -> Option<(usize, f64)> {
    let m = cx.m;
    let (_, port) = host_ports(m, pr, true).next()?;
    let hop = pr.hops.first()?;
    let gbps: f64 = hop
        .via
        .links(m)
        .iter()
        .map(|&l| m.links[l].capacity.gbps())
        .sum();
    Some((port, gbps * 1e9))
}

/// Every pair's paced rate. Linear in the pairs; nothing is computed when no sender
/// declares a kernel that paces.
pub(crate) fn paced(cx: &CheckInput) -> Paced {
    let m = cx.m;
    let pacing = crate::host_tuning::tuning()
        .ok()
        .map(|t| (t.transfers.pacing.nic_share, t.transfers.pacing.since));
    let paces = |h: HostId| {
        pacing.is_some_and(|(_, since)| m.hosts[h].kernel.is_some_and(|k| k.at_least(since)))
    };
    let routes = &cx.routes.flows;
    let Some((share, _)) = pacing else {
        return Vec::new();
    };
    if !(0..m.hosts.len()).any(paces) {
        return Vec::new();
    }
    // What every pair leaving by each port of a pacing sender asks, whatever it carries.
    let mut asked: HashMap<(HostId, usize), f64> = HashMap::new();
    for (f, r) in m.flows.iter().zip(routes) {
        for pr in r.pairs.iter().filter(|pr| paces(pr.src)) {
            if let Some((port, _)) = sender_port(cx, pr) {
                *asked.entry((pr.src, port)).or_default() += f.pair_rate().bps();
            }
        }
    }
    m.flows
        .iter()
        .zip(routes)
        .map(|(f, r)| {
            r.pairs
                .iter()
                .map(|pr| {
                    if f.protocol.value != Protocol::Tcp || !paces(pr.src) {
                        return None;
                    }
                    let (port, line) = sender_port(cx, pr)?;
                    let demand = f.pair_rate().bps();
                    let all = asked.get(&(pr.src, port)).copied().unwrap_or(demand);
                    Some(demand.min(demand * share * line / all.max(1.0)))
                })
                .collect()
        })
        .collect()
}

/// The share of a port its pairs are paced to together, percent (for the plan's words).
pub(crate) fn share_pct() -> f64 {
    crate::host_tuning::tuning().map_or(0.0, |t| t.transfers.pacing.nic_share * 100.0)
}

/// The sender a pair is paced on, for the plan's words: `host`'s port `port` of `gbps`.
pub(crate) fn port_words(cx: &CheckInput, pr: &crate::derive::paths::PairRoute) -> String {
    let m = cx.m;
    let host = &m.hosts[pr.src];
    let Some((port, line)) = sender_port(cx, pr) else {
        return format!("`{}`", host.name.value);
    };
    let bonded = pr
        .hops
        .first()
        .is_some_and(|h| matches!(h.via, crate::derive::paths::Via::Lag(_)));
    format!(
        "`{}:{}`{} ({:.0} Gbit/s)",
        host.name.value,
        host.ports[port].name,
        if bonded { "'s bond" } else { "" },
        line / 1e9
    )
}
